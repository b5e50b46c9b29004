//===- RuntimeCudaTest.cu - Vector add through the CUDA runtime -----------===//
//
// Test of runtime/polycuda_cuda, written the way printed host code calls it:
// allocate, copy in, launch with <<<...>>>, check the launch, synchronize,
// copy out, free. Always compiled (a check that the header works from .cu
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

  double *devA = (double *)polycuda_cuda_alloc(kN * sizeof(double), where);
  double *devB = (double *)polycuda_cuda_alloc(kN * sizeof(double), where);
  double *devC = (double *)polycuda_cuda_alloc(kN * sizeof(double), where);
  polycuda_cuda_copy_to_device(devA, a, kN * sizeof(double), where);
  polycuda_cuda_copy_to_device(devB, b, kN * sizeof(double), where);

  vadd<<<(kN + kBlock - 1) / kBlock, kBlock>>>(devA, devB, devC, kN);
  polycuda_cuda_check_launch("vadd", where);
  polycuda_cuda_synchronize(where);

  polycuda_cuda_copy_to_host(c, devC, kN * sizeof(double), where);
  polycuda_cuda_free(devA, where);
  polycuda_cuda_free(devB, where);
  polycuda_cuda_free(devC, where);

  int errors = 0;
  for (int i = 0; i < kN; ++i) {
    if (c[i] != a[i] + b[i]) {
      if (errors < 10)
        fprintf(stderr, "c[%d] = %g, expected %g\n", i, c[i], a[i] + b[i]);
      ++errors;
    }
  }
  if (errors != 0) {
    fprintf(stderr, "RuntimeCudaTest: %d mismatches\n", errors);
    return 1;
  }
  printf("RuntimeCudaTest: ok\n");
  return 0;
}
