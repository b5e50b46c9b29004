//===- transfer_bench.cu - Host/device copy bandwidth by method -----------===//
//
// Benchmark (not a test): copies a malloc'ed (pageable) host array of 1 MB
// to 1 GB to the device and back with each method of the runtime
// (polycuda_cuda_copy_box_to_*: auto, plain, staged; registered where the
// runtime still has it) and with
// cudaMemcpy from a pinned (cudaHostAlloc) array, the ceiling, in the same
// run. Each copy is checked once against the data; each time is the median
// of the repetitions. Prints CSV: direction,method,bytes,median_ms,GB_per_s.
//   nvcc -O2 -arch=sm_90 -Iruntime transfer_bench.cu runtime/polycuda_cuda.cu
//   ./a.out [MAX_MB [MIN_MB]]
//
//===----------------------------------------------------------------------===//
#include "polycuda_cuda.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e = (call);                                                    \
    if (e != cudaSuccess) {                                                    \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,            \
              cudaGetErrorString(e));                                          \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

namespace {

const char *kWhere = "transfer_bench";

double nowMs() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void fillPattern(unsigned char *p, size_t bytes, unsigned seed) {
  unsigned *w = (unsigned *)p;
  for (size_t i = 0; i < bytes / 4; ++i)
    w[i] = (unsigned)(i * 2654435761u) ^ seed;
}

/// One copy of `bytes` by `method` (a runtime method, or -1: cudaMemcpy
/// from/to `pinned`).
void copyOnce(bool toDevice, int method, void *dev, unsigned char *host,
              unsigned char *pinned, size_t bytes) {
  long long lower = 0, upper = (long long)bytes - 1, extent = (long long)bytes;
  if (method < 0) {
    CHECK(cudaMemcpy(toDevice ? dev : (void *)pinned,
                     toDevice ? (void *)pinned : dev, bytes,
                     toDevice ? cudaMemcpyHostToDevice
                              : cudaMemcpyDeviceToHost));
  } else if (toDevice) {
    polycuda_cuda_copy_box_to_device(dev, host, 1, 1, &extent, &lower, &upper,
                                     method, "bench", kWhere);
  } else {
    polycuda_cuda_copy_box_to_host(host, dev, 1, 1, &extent, &lower, &upper,
                                   method, "bench", kWhere);
  }
  CHECK(cudaDeviceSynchronize());
}

} // namespace

int main(int argc, char **argv) {
  size_t maxMb = argc > 1 ? (size_t)atoll(argv[1]) : 1024;
  size_t maxBytes = maxMb << 20;
  unsigned char *host = (unsigned char *)malloc(maxBytes);
  unsigned char *check = (unsigned char *)malloc(maxBytes);
  unsigned char *pinned = nullptr;
  void *dev = nullptr;
  CHECK(cudaHostAlloc((void **)&pinned, maxBytes, cudaHostAllocDefault));
  CHECK(cudaMalloc(&dev, maxBytes));
  memset(host, 1, maxBytes); // touched: as a program's initialized arrays
  memset(check, 2, maxBytes);
  memset(pinned, 3, maxBytes);
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("# gpu: %s\n", prop.name);
  {
    // The first staged copy creates the runtime's staging pool.
    long long lower = 0, upper = (1 << 20) - 1, extent = 1 << 20;
    double t0 = nowMs();
    polycuda_cuda_copy_box_to_device(dev, host, 1, 1, &extent, &lower, &upper,
                                     POLYCUDA_TRANSFERS_STAGED, "bench", kWhere);
    CHECK(cudaDeviceSynchronize());
    printf("# first staged copy of 1 MiB (creates the staging pool): %.3f ms\n",
           nowMs() - t0);
  }
  printf("direction,method,bytes,median_ms,GB_per_s\n");
  struct Method {
    const char *name;
    int id;
  } methods[] = {{"pageable_cudaMemcpy", POLYCUDA_TRANSFERS_PLAIN},
                 {"auto", POLYCUDA_TRANSFERS_AUTO},
                 {"staged", POLYCUDA_TRANSFERS_STAGED},
#ifdef POLYCUDA_TRANSFERS_REGISTERED // runtimes before the method went
                 {"registered", POLYCUDA_TRANSFERS_REGISTERED},
#endif
                 {"pinned_cudaMemcpy", -1}};
  int failures = 0;
  size_t minMb = argc > 2 ? (size_t)atoll(argv[2]) : 1;
  for (size_t bytes = minMb << 20; bytes <= maxBytes; bytes *= 2) {
    int reps = bytes <= (64u << 20) ? 9 : bytes <= (256u << 20) ? 5 : 3;
    for (int dir = 0; dir < 2; ++dir) {
      bool toDevice = dir == 0;
      for (const Method &m : methods) {
        // Correctness once: fresh data through this method, the other
        // direction plain.
        unsigned char *src = m.id < 0 ? pinned : host;
        fillPattern(src, bytes, (unsigned)bytes + dir * 7 + m.id * 131);
        if (toDevice) {
          copyOnce(true, m.id, dev, host, pinned, bytes);
          CHECK(cudaMemcpy(check, dev, bytes, cudaMemcpyDeviceToHost));
        } else {
          CHECK(cudaMemcpy(dev, src, bytes, cudaMemcpyHostToDevice));
          memset(src, 0xEE, bytes);
          copyOnce(false, m.id, dev, host, pinned, bytes);
          memcpy(check, src, bytes);
          fillPattern(src, bytes, (unsigned)bytes + dir * 7 + m.id * 131);
        }
        if (memcmp(check, src, bytes) != 0) {
          fprintf(stderr, "MISMATCH: %s %s %zu bytes\n",
                  toDevice ? "to_device" : "to_host", m.name, bytes);
          ++failures;
        }
        std::vector<double> times;
        for (int r = 0; r < reps; ++r) {
          double t0 = nowMs();
          copyOnce(toDevice, m.id, dev, host, pinned, bytes);
          times.push_back(nowMs() - t0);
        }
        std::sort(times.begin(), times.end());
        double ms = times[times.size() / 2];
        printf("%s,%s,%zu,%.4f,%.2f\n", toDevice ? "to_device" : "to_host",
               m.name, bytes, ms, bytes / ms / 1e6);
        fflush(stdout);
      }
    }
  }
  printf("# correctness: %d mismatches\n", failures);
  return failures ? 1 : 0;
}
