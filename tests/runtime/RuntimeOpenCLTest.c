//===- RuntimeOpenCLTest.c - Vector add through the OpenCL runtime --------===//
//
// Test of runtime/polycuda_opencl: builds two kernels from a string, copies
// into and out of buffers at a non-zero offset, launches each kernel (the
// second launch of a kernel reuses the cached cl_kernel), and checks every
// element, including the ones before the offset that must stay untouched.
// Returns 0 on success; prints each mismatch and returns 1 otherwise.
// With POLYCUDA_FAIL_ALLOC=1 the first allocation must exit 1 (checked by
// CheckFailure.cmake).
//
//===----------------------------------------------------------------------===//

#include "polycuda_opencl.h"

#include <stdio.h>

#ifndef POLYCUDA_TEST_WHERE
#define POLYCUDA_TEST_WHERE "vadd.c:12:3"
#endif

enum { kPad = 5, kN = 1000, kTotal = kPad + kN, kLocal = 64 };

static const char *const kSource =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "__kernel void vadd(__global const double *a, __global const double *b,\n"
    "                   __global double *c, int offset, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n)\n"
    "    c[offset + i] = a[offset + i] + b[offset + i];\n"
    "}\n"
    "__kernel void scale(__global double *c, double factor, int offset,\n"
    "                    int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n)\n"
    "    c[offset + i] *= factor;\n"
    "}\n";

static double a[kTotal], b[kTotal], c[kTotal];

/// Returns the number of elements of c that differ from a[i] + b[i] times
/// \p factor after the offset, or from -1 before it.
static int countMismatches(double factor) {
  int errors = 0;
  for (int i = 0; i < kTotal; ++i) {
    double expected = i < kPad ? -1.0 : (a[i] + b[i]) * factor;
    if (c[i] != expected) {
      if (errors < 10)
        fprintf(stderr, "c[%d] = %g, expected %g\n", i, c[i], expected);
      ++errors;
    }
  }
  return errors;
}

int main(void) {
  const char *where = POLYCUDA_TEST_WHERE;
  size_t global[1] = {((kN + kLocal - 1) / kLocal) * kLocal};
  size_t local[1] = {kLocal};
  size_t offsetBytes = kPad * sizeof(double);
  int offset = kPad, n = kN, errors;
  double factor = 2.0;

  for (int i = 0; i < kTotal; ++i) {
    a[i] = i;
    b[i] = 0.5 * i + 3;
    c[i] = -1.0;
  }

  polycuda_cl_program *p = polycuda_cl_create(kSource, where);
  void *devA = polycuda_cl_alloc(p, kTotal * sizeof(double), where);
  void *devB = polycuda_cl_alloc(p, kTotal * sizeof(double), where);
  void *devC = polycuda_cl_alloc(p, kTotal * sizeof(double), where);
  polycuda_cl_copy_to_device(p, devA, offsetBytes, a + kPad,
                             kN * sizeof(double), where);
  polycuda_cl_copy_to_device(p, devB, offsetBytes, b + kPad,
                             kN * sizeof(double), where);
  polycuda_cl_copy_to_device(p, devC, 0, c, kTotal * sizeof(double), where);

  polycuda_cl_arg vaddArgs[] = {{sizeof(void *), &devA},
                                {sizeof(void *), &devB},
                                {sizeof(void *), &devC},
                                {sizeof(int), &offset},
                                {sizeof(int), &n}};
  polycuda_cl_launch(p, "vadd", 1, global, local, 5, vaddArgs, where);
  polycuda_cl_finish(p, where);
  polycuda_cl_copy_to_host(p, c, devC, 0, kTotal * sizeof(double), where);
  errors = countMismatches(1.0);

  // Two launches of "scale" exercise the kernel cache; only the part after
  // the offset is read back, into a zeroed host array.
  polycuda_cl_arg scaleArgs[] = {{sizeof(void *), &devC},
                                 {sizeof(double), &factor},
                                 {sizeof(int), &offset},
                                 {sizeof(int), &n}};
  polycuda_cl_launch(p, "scale", 1, global, local, 4, scaleArgs, where);
  polycuda_cl_launch(p, "scale", 1, global, NULL, 4, scaleArgs, where);
  for (int i = kPad; i < kTotal; ++i)
    c[i] = 0.0;
  polycuda_cl_copy_to_host(p, c + kPad, devC, offsetBytes, kN * sizeof(double),
                           where);
  errors += countMismatches(factor * factor);

  polycuda_cl_free(p, devA);
  polycuda_cl_free(p, devB);
  polycuda_cl_free(p, devC);
  polycuda_cl_release(p);

  if (errors != 0) {
    fprintf(stderr, "RuntimeOpenCLTest: %d mismatches\n", errors);
    return 1;
  }
  printf("RuntimeOpenCLTest: ok\n");
  return 0;
}
