//===- RuntimeCudaTest.cu - Vector add through the CUDA runtime -----------===//
//
// Test of runtime/polycuda_cuda, written the way printed host code calls it:
// allocate, copy in, launch with <<<...>>>, check the launch, synchronize,
// copy out, free; then again, in the blocks that the first round freed
// (the runtime keeps freed device memory for allocations of about its
// size). Then boxes of a 2-D array small enough to go through the pinned
// slots (an interior box in after a kernel, a box out that is unpacked
// only when the scop ends), once in a scop and once outside one, checking
// every element inside and outside the boxes; and the same again once the
// runtime's reserved device memory is surely ready. Always compiled (a
// check that the header works from .cu files); run only on a GPU machine.
// Returns 0 on success. With POLYCUDA_FAIL_ALLOC=1 the first allocation
// must exit 1 (checked by CheckFailure.cmake), which needs no GPU.
//
//===----------------------------------------------------------------------===//

#include "polycuda_cuda.h"

#include <stdio.h>
#include <unistd.h>

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

constexpr int kRows = 64, kCols = 40;

__global__ void twicePlusOne(double *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = 2.0 * x[i] + 1.0;
}

double grid[kRows][kCols], result[kRows][kCols];

// Registered for loading while the program starts, as printed code does.
const void *const kKernels[] = {(const void *)vadd, (const void *)twicePlusOne};
const int kPreloaded __attribute__((unused)) =
    (polycuda_cuda_preload(kKernels, 2), 0);

/// In: the whole grid (staged, which also makes the staging pool and its
/// slots ready), a kernel, then rows 2-61 x columns 3-36 of a changed grid
/// (auto: a slot, queued behind the kernel), a kernel; out: rows 1-62 x
/// columns 1-38 (auto: a slot) into `result`, whose other elements must
/// keep -7. Returns the number of wrong elements.
int boxesThroughSlots(bool inScop, const char *where) {
  for (int i = 0; i < kRows; ++i)
    for (int j = 0; j < kCols; ++j)
      grid[i][j] = i * 100 + j, result[i][j] = -7.0;
  const long long extents[2] = {kRows, kCols};
  const long long all[2][2] = {{0, 0}, {kRows - 1, kCols - 1}};
  const long long in[2][2] = {{2, 3}, {61, 36}};
  const long long out[2][2] = {{1, 1}, {62, 38}};
  const int n = kRows * kCols;
  if (inScop)
    polycuda_cuda_begin_scop(where);
  double *dev = (double *)polycuda_cuda_alloc(sizeof(grid), where);
  polycuda_cuda_copy_box_to_device(dev, grid, sizeof(double), 2, extents,
                                   all[0], all[1], POLYCUDA_TRANSFERS_STAGED,
                                   "grid", where);
  twicePlusOne<<<(n + kBlock - 1) / kBlock, kBlock>>>(dev, n);
  polycuda_cuda_check_launch("twicePlusOne", where);
  for (int i = 0; i < kRows; ++i)
    for (int j = 0; j < kCols; ++j)
      grid[i][j] = -(i * 100 + j);
  polycuda_cuda_copy_box_to_device(dev, grid, sizeof(double), 2, extents,
                                   in[0], in[1], POLYCUDA_TRANSFERS_AUTO,
                                   "grid", where);
  // The host may change its array once the copy returns.
  grid[10][10] = 1e9;
  twicePlusOne<<<(n + kBlock - 1) / kBlock, kBlock>>>(dev, n);
  polycuda_cuda_check_launch("twicePlusOne", where);
  polycuda_cuda_copy_box_to_host(result, dev, sizeof(double), 2, extents,
                                 out[0], out[1], POLYCUDA_TRANSFERS_AUTO,
                                 "result", where);
  polycuda_cuda_free(dev, where);
  if (inScop)
    polycuda_cuda_end_scop(where);
  int errors = 0;
  for (int i = 0; i < kRows; ++i)
    for (int j = 0; j < kCols; ++j) {
      double v = i * 100 + j, expected = -7.0;
      bool copiedIn = i >= 2 && i <= 61 && j >= 3 && j <= 36;
      if (i >= 1 && i <= 62 && j >= 1 && j <= 38)
        expected = copiedIn ? 2.0 * -v + 1.0 : 2.0 * (2.0 * v + 1.0) + 1.0;
      if (result[i][j] != expected) {
        if (errors < 10)
          fprintf(stderr, "boxes (%s a scop): result[%d][%d] = %g, expected %g\n",
                  inScop ? "in" : "outside", i, j, result[i][j], expected);
        ++errors;
      }
    }
  return errors;
}

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
  errors += boxesThroughSlots(true, where);
  errors += boxesThroughSlots(false, where);
  // Again once the runtime has surely reserved its device memory (about
  // 10 ms after the program starts): the blocks now come from that pool,
  // and the staged copy right after the allocation is ordered after it.
  usleep(300 * 1000);
  polycuda_cuda_synchronize(where);
  errors += boxesThroughSlots(true, where);
  errors += boxesThroughSlots(false, where);
  if (errors != 0) {
    fprintf(stderr, "RuntimeCudaTest: %d mismatches\n", errors);
    return 1;
  }
  printf("RuntimeCudaTest: ok\n");
  return 0;
}
