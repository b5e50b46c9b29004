//===- polycuda_cuda.h - C ABI over the CUDA runtime for generated code ---===//
//
// Stage: runtime, linked into every program printed by the CUDA target.
// Input: device pointers and sizes chosen by the printed host code, plus the
//   scop location string ("gemm.c:31:1") that every call carries.
// Output: the CUDA runtime call's effect, or a diagnostic naming the scop
//   location on stderr followed by exit(1); no function returns on failure.
// Invariants: includes only <stddef.h> so that printed .cu files can include
//   it; the entry points are spelled in translator/RuntimeNames.h.
//
//===----------------------------------------------------------------------===//

#ifndef POLYCUDA_RUNTIME_POLYCUDA_CUDA_H
#define POLYCUDA_RUNTIME_POLYCUDA_CUDA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Allocates \p bytes of device memory with cudaMalloc and returns the device
/// pointer; a request for 0 bytes allocates 1 byte so the result is never
/// NULL. The first runtime call checks that a CUDA device exists. If the
/// environment variable POLYCUDA_FAIL_ALLOC is set (to anything but "" or
/// "0"), the allocation fails as if cudaMalloc returned
/// cudaErrorMemoryAllocation, without touching the device. On failure prints
/// "<where>: error: cudaMalloc failed: ..." with the byte count and exits 1.
void *polycuda_cuda_alloc(size_t bytes, const char *where);

/// Frees device memory returned by polycuda_cuda_alloc; NULL is ignored.
void polycuda_cuda_free(void *ptr, const char *where);

/// Copies \p bytes from host memory \p src to device memory \p dst
/// (synchronous cudaMemcpy). Also reports errors of earlier asynchronous work.
void polycuda_cuda_copy_to_device(void *dst, const void *src, size_t bytes,
                                  const char *where);

/// Copies \p bytes from device memory \p src to host memory \p dst
/// (synchronous cudaMemcpy). Also reports errors of earlier asynchronous work.
void polycuda_cuda_copy_to_host(void *dst, const void *src, size_t bytes,
                                const char *where);

/// Checks the launch of \p kernel that the caller just issued with <<<...>>>
/// (cudaGetLastError). If POLYCUDA_SYNC_LAUNCHES is set (to anything but ""
/// or "0"), also waits for the kernel so that errors during its execution are
/// reported here, naming \p kernel.
void polycuda_cuda_check_launch(const char *kernel, const char *where);

/// Waits for all device work (cudaDeviceSynchronize) and reports its errors.
void polycuda_cuda_synchronize(const char *where);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // POLYCUDA_RUNTIME_POLYCUDA_CUDA_H
