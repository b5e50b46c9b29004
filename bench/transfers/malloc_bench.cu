// cudaMalloc vs cudaMallocAsync from a pre-grown pool: time per call.
// The sizes: gemver's A, eight 16 KB vectors, deriche's four arrays at
// LARGE. What the runtime's reserved device memory rests on:
//   nvcc -O2 -arch=sm_90 malloc_bench.cu -o ma && ./ma m && ./ma p 256
// m: cudaMalloc; p MIB: a pool grown by MIB, then cudaMallocAsync.
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <vector>
using Clock = std::chrono::steady_clock;
static double ms(Clock::time_point a) { return std::chrono::duration<double, std::milli>(Clock::now() - a).count(); }
int main(int argc, char **argv) {
  bool pool = argc > 1 && argv[1][0] == 'p';
  size_t grow = argc > 2 ? (size_t)atoll(argv[2]) << 20 : (size_t)256 << 20;
  cudaFree(0);
  std::vector<size_t> sizes = {32000000, 16000, 16000, 16000, 16000, 16000, 16000, 16000, 16000, 35000000, 35000000, 35000000, 35000000};
  if (pool) {
    auto t = Clock::now();
    cudaMemPool_t mp; cudaDeviceGetDefaultMemPool(&mp, 0);
    unsigned long long th = ~0ull; cudaMemPoolSetAttribute(mp, cudaMemPoolAttrReleaseThreshold, &th);
    void *p; cudaMallocAsync(&p, grow, 0); cudaFreeAsync(p, 0); cudaStreamSynchronize(0);
    printf("grow %zu MiB: %.3f ms\n", grow >> 20, ms(t));
  }
  for (int round = 0; round < 2; ++round) {
    std::vector<void *> ps;
    auto t0 = Clock::now();
    for (size_t s : sizes) {
      auto t = Clock::now(); void *p = nullptr;
      cudaError_t e = pool ? cudaMallocAsync(&p, s, 0) : cudaMalloc(&p, s);
      printf("%s round %d alloc %zu: %.3f ms %s\n", pool ? "pool" : "malloc", round, s, ms(t), cudaGetErrorName(e));
      ps.push_back(p);
    }
    printf("%s round %d total %.3f ms\n", pool ? "pool" : "malloc", round, ms(t0));
    for (void *p : ps) pool ? cudaFreeAsync(p, 0) : cudaFree(p);
    cudaDeviceSynchronize();
  }
  return 0;
}
