//===- polycuda_cuda.cu - C ABI over the CUDA runtime for generated code --===//
//
// Stage: runtime, CUDA half; host code only, compiled by nvcc.
// Input: calls from printed host code, each with a scop location string.
// Output: CUDA runtime API calls; any failure prints
//   "<where>: error: <operation> failed: <message> (<cudaErrorName>)" and
//   exits 1, so the printed code never checks a return value.
// Invariants: the first call verifies that a CUDA device exists, so a machine
//   without one gets "no CUDA device available" instead of a later, obscure
//   error.
//
//===----------------------------------------------------------------------===//

#include "polycuda_cuda.h"

#include <cuda_runtime_api.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace {

bool deviceChecked = false;

const char *nameOrUnknown(const char *where) {
  return where ? where : "<unknown location>";
}

bool isEnvFlagSet(const char *name) {
  const char *value = getenv(name);
  return value && value[0] != '\0' && strcmp(value, "0") != 0;
}

[[noreturn]] void failWith(const char *where, const char *operation,
                           cudaError_t err, const char *detail) {
  fprintf(stderr, "%s: error: %s failed: %s (%s)%s%s\n", nameOrUnknown(where),
          operation, cudaGetErrorString(err), cudaGetErrorName(err),
          detail ? "; " : "", detail ? detail : "");
  fflush(stderr);
  exit(1);
}

void checkCall(cudaError_t err, const char *where, const char *operation) {
  if (err != cudaSuccess)
    failWith(where, operation, err, nullptr);
}

// Without this, a machine with no device or no driver fails at the first
// cudaMalloc with a message that does not say what is missing.
void ensureDevice(const char *where) {
  if (deviceChecked)
    return;
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    fprintf(stderr, "%s: error: no CUDA device available: %s (%s)\n",
            nameOrUnknown(where), cudaGetErrorString(err),
            cudaGetErrorName(err));
    fflush(stderr);
    exit(1);
  }
  if (count == 0) {
    fprintf(stderr,
            "%s: error: no CUDA device available: cudaGetDeviceCount "
            "found 0 devices\n",
            nameOrUnknown(where));
    fflush(stderr);
    exit(1);
  }
  deviceChecked = true;
}

} // namespace

extern "C" void *polycuda_cuda_alloc(size_t bytes, const char *where) {
  char detail[64];
  snprintf(detail, sizeof(detail), "requested %zu bytes", bytes);
  // Checked before the device so that tests of the diagnostic also run on
  // machines without a GPU.
  if (isEnvFlagSet("POLYCUDA_FAIL_ALLOC"))
    failWith(where, "cudaMalloc", cudaErrorMemoryAllocation, detail);
  ensureDevice(where);
  void *ptr = nullptr;
  cudaError_t err = cudaMalloc(&ptr, bytes == 0 ? 1 : bytes);
  if (err != cudaSuccess)
    failWith(where, "cudaMalloc", err, detail);
  return ptr;
}

extern "C" void polycuda_cuda_free(void *ptr, const char *where) {
  if (!ptr)
    return;
  ensureDevice(where);
  checkCall(cudaFree(ptr), where, "cudaFree");
}

extern "C" void polycuda_cuda_copy_to_device(void *dst, const void *src,
                                             size_t bytes, const char *where) {
  ensureDevice(where);
  checkCall(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), where,
            "cudaMemcpy (host to device)");
}

extern "C" void polycuda_cuda_copy_to_host(void *dst, const void *src,
                                           size_t bytes, const char *where) {
  ensureDevice(where);
  checkCall(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), where,
            "cudaMemcpy (device to host)");
}

/// Launches checked so far; printed at exit when POLYCUDA_LAUNCH_STATS is
/// set (the benchmark tables report launches per program).
static unsigned long long launchCount = 0;

static void printLaunchStats(void) {
  fprintf(stderr, "polycuda: %llu kernel launches\n", launchCount);
}

extern "C" void polycuda_cuda_check_launch(const char *kernel,
                                           const char *where) {
  char operation[256];
  if (launchCount++ == 0 && isEnvFlagSet("POLYCUDA_LAUNCH_STATS"))
    atexit(printLaunchStats);
  const char *name = kernel ? kernel : "<unnamed>";
  ensureDevice(where);
  snprintf(operation, sizeof(operation), "launch of kernel '%s'", name);
  checkCall(cudaGetLastError(), where, operation);
  if (!isEnvFlagSet("POLYCUDA_SYNC_LAUNCHES"))
    return;
  snprintf(operation, sizeof(operation), "execution of kernel '%s'", name);
  checkCall(cudaDeviceSynchronize(), where, operation);
}

extern "C" void polycuda_cuda_synchronize(const char *where) {
  ensureDevice(where);
  checkCall(cudaDeviceSynchronize(), where, "cudaDeviceSynchronize");
}
