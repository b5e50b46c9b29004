//===- RuntimeCudaTest.cu - Vector add through the CUDA runtime -----------===//
//
// Test of runtime/polycuda_cuda, written the way printed host code calls it:
// allocate, copy in, launch with <<<...>>>, check the launch, synchronize,
// copy out, free; then again, in the blocks that the first round freed
// (the runtime keeps freed device memory for allocations of about its
// size). Always compiled (a check that the header works from .cu
// files); run only on a GPU machine. Returns 0 on success. With
// POLYCUDA_FAIL_ALLOC=1 the first allocation must exit 1 (checked by
// CheckFailure.cmake), which needs no GPU.
//
//===----------------------------------------------------------------------===//

#include "polycuda_cuda.h"

#include <stdio.h>

#ifndef POLYCUDA_TEST_WHERE
#define POLYCUDA_TEST_WHERE "vadd.c:12:3"
#endif

namespace {

constexpr int kN = 1000;
constexpr int kBlock = 128;

__global__ void vadd(const double *a, const double *b, double *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

double a[kN], b[kN], c[kN];

} // namespace

int main() {
  const char *where = POLYCUDA_TEST_WHERE;
  for (int i = 0; i < kN; ++i) {
    a[i] = i;
    b[i] = 0.5 * i + 3;
    c[i] = -1.0;
  }

  int errors = 0;
  void *first[3] = {nullptr, nullptr, nullptr};
  for (int round = 0; round < 2; ++round) {
    polycuda_cuda_begin_scop(where);
    double *devA = (double *)polycuda_cuda_alloc(kN * sizeof(double), where);
    double *devB = (double *)polycuda_cuda_alloc(kN * sizeof(double), where);
    double *devC = (double *)polycuda_cuda_alloc(kN * sizeof(double), where);
    if (round == 0) {
      first[0] = devA, first[1] = devB, first[2] = devC;
    } else {
      // The kept blocks come back, each once.
      for (void *p : {(void *)devA, (void *)devB, (void *)devC})
        if (p != first[0] && p != first[1] && p != first[2]) {
          fprintf(stderr, "round 2: %p is not a block of round 1\n", p);
          ++errors;
        }
      if (devA == devB || devB == devC || devA == devC) {
        fprintf(stderr, "round 2: one block handed out twice\n");
        ++errors;
      }
      for (int i = 0; i < kN; ++i)
        a[i] = 2.0 * i, b[i] = -0.25 * i, c[i] = -1.0;
    }
    polycuda_cuda_copy_to_device(devA, a, kN * sizeof(double), where);
    polycuda_cuda_copy_to_device(devB, b, kN * sizeof(double), where);

    vadd<<<(kN + kBlock - 1) / kBlock, kBlock>>>(devA, devB, devC, kN);
    polycuda_cuda_check_launch("vadd", where);
    polycuda_cuda_synchronize(where);

    polycuda_cuda_copy_to_host(c, devC, kN * sizeof(double), where);
    polycuda_cuda_free(devA, where);
    polycuda_cuda_free(devB, where);
    polycuda_cuda_free(devC, where);
    polycuda_cuda_end_scop(where);

    for (int i = 0; i < kN; ++i) {
      if (c[i] != a[i] + b[i]) {
        if (errors < 10)
          fprintf(stderr, "round %d: c[%d] = %g, expected %g\n", round + 1, i,
                  c[i], a[i] + b[i]);
        ++errors;
      }
    }
  }
  if (errors != 0) {
    fprintf(stderr, "RuntimeCudaTest: %d mismatches\n", errors);
    return 1;
  }
  printf("RuntimeCudaTest: ok\n");
  return 0;
}
