//===- bench_timer.cu - Times the scop region of a translated program -----===//
//
// Linked into the programs that bench/transfers/run.sh times: run.sh wraps
// each launcher call of the host file (one line, `polycuda_launch_...;`) in
// polycuda_bench_now / polycuda_bench_report, which prints
// "polycuda_region_ms <ms>" to stderr. The CUDA context is created before
// main, in both the before and the after build, so that no region pays for
// it (as when a program has used the GPU before its scop).
//
//===----------------------------------------------------------------------===//
#include <cuda_runtime_api.h>

#include <stdio.h>
#include <time.h>

extern "C" double polycuda_bench_now(void) {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

extern "C" void polycuda_bench_report(double start) {
  fprintf(stderr, "polycuda_region_ms %.4f\n", polycuda_bench_now() - start);
}

__attribute__((constructor)) static void createContext() { cudaFree(0); }
