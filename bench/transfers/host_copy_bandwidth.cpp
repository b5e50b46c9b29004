// Host copy bandwidth of T threads, each copying 128 KiB pieces in turn
// from a touched source of MIB MiB into a 16 MiB ring (as the staging pool's
// packing does), with memcpy or with streaming stores. Median of 9 passes.
// What bounds the staging pool's packing on a host (no GPU needed):
//   g++ -O2 -std=c++17 -pthread -o hcb host_copy_bandwidth.cpp && ./hcb MIB
// MIB: the source's size (32: mostly from cache; 256: from memory).
#include <emmintrin.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>
static void stream(char *d, const char *s, size_t n) {
  for (size_t i = 0; i < n; i += 64) {
    __m128i a = _mm_loadu_si128((const __m128i *)(s + i)), b = _mm_loadu_si128((const __m128i *)(s + i + 16));
    __m128i c = _mm_loadu_si128((const __m128i *)(s + i + 32)), e = _mm_loadu_si128((const __m128i *)(s + i + 48));
    _mm_stream_si128((__m128i *)(d + i), a); _mm_stream_si128((__m128i *)(d + i + 16), b);
    _mm_stream_si128((__m128i *)(d + i + 32), c); _mm_stream_si128((__m128i *)(d + i + 48), e);
  }
  _mm_sfence();
}
int main(int argc, char **argv) {
  size_t srcBytes = (size_t)atoi(argv[1]) << 20, ring = 16u << 20, piece = 128u << 10;
  char *src = (char *)aligned_alloc(4096, srcBytes), *dst = (char *)aligned_alloc(2u << 20, ring);
  memset(src, 1, srcBytes); memset(dst, 0, ring);
  for (int mode = 0; mode < 2; ++mode)
    for (int t : {1, 2, 4, 8, 12}) {
      std::vector<double> gbs;
      std::atomic<int> go{-1}, done{0};
      std::atomic<size_t> next{0};
      std::vector<std::thread> ts;
      for (int w = 0; w < t; ++w)
        ts.emplace_back([&] {
          for (int pass = 0; pass < 9; ++pass) {
            while (go.load() < pass) {}
            for (size_t p; (p = next.fetch_add(1)) < srcBytes / piece;) {
              char *d = dst + (p * piece) % ring; const char *s = src + p * piece;
              if (mode) stream(d, s, piece); else memcpy(d, s, piece);
            }
            done.fetch_add(1);
          }
        });
      for (int pass = 0; pass < 9; ++pass) {
        next.store(0); done.store(0);
        auto t0 = std::chrono::steady_clock::now();
        go.store(pass);
        while (done.load() < t) {}
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        gbs.push_back(srcBytes / s / 1e9);
      }
      for (auto &x : ts) x.join();
      std::sort(gbs.begin(), gbs.end());
      printf("%s,%zu MiB,%d threads,%.1f GB/s (median of 9; min %.1f max %.1f)\n", mode ? "streaming" : "memcpy", srcBytes >> 20, t, gbs[4], gbs[0], gbs[8]);
    }
}
