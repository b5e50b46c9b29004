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
// Environment: POLYCUDA_TRANSFERS=plain|staged|auto overrides the method
// printed in the program; POLYCUDA_PROFILE=1 prints, at the end of each
// scop, the time and bytes of each copy and kernel (each launch
// synchronized); POLYCUDA_SCOP_TIME=1 prints the time of each scop from
// begin to end, launches not synchronized in between;
// POLYCUDA_SYNC_LAUNCHES, POLYCUDA_LAUNCH_STATS, POLYCUDA_FAIL_ALLOC and
// POLYCUDA_PERSISTENT as documented below.
//
//===----------------------------------------------------------------------===//

#ifndef POLYCUDA_RUNTIME_POLYCUDA_CUDA_H
#define POLYCUDA_RUNTIME_POLYCUDA_CUDA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// How host/device copies move their bytes (`--transfers`):
/// - plain: cudaMemcpy / cudaMemcpy2D from the user's (pageable) memory;
/// - staged: through a ring of pinned buffers, created once per process:
///   several host threads pack (unpack) pieces of each chunk while the
///   calling thread issues the DMAs of the chunks already packed, so that
///   host copies overlap the DMA;
/// - auto: staged from 1 MiB once the pool's ring is page-locked (when the
///   program starts); up to 256 KiB through a slot of pinned
///   memory page-locked with the ring (queued on the default stream: the
///   host does not wait for earlier kernels; see
///   polycuda_cuda_copy_box_to_host for the copies out); plain otherwise,
///   while the pool is still being prepared, and when it could not be
///   created.
/// A pinned allocation that fails falls back to plain.
#define POLYCUDA_TRANSFERS_AUTO 0
#define POLYCUDA_TRANSFERS_PLAIN 1
#define POLYCUDA_TRANSFERS_STAGED 2

/// Allocates \p bytes of device memory and returns the device pointer: a
/// freed block of about that size kept by the runtime, else a block of the
/// device memory the runtime reserved when the program started (256 MiB,
/// at most 1/16 of the device), stream-ordered on the
/// default stream, else cudaMalloc; a request for 0 bytes allocates 1
/// byte so the result is never NULL. The first runtime call checks that a
/// CUDA device exists. If the environment variable POLYCUDA_FAIL_ALLOC is
/// set (to anything but "" or "0"), the allocation fails as if cudaMalloc
/// returned cudaErrorMemoryAllocation, without touching the device. On
/// failure prints "<where>: error: cudaMalloc failed: ..." with the byte
/// count and exits 1.
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

/// Copies a box of array elements between host and device memory. Both
/// arrays have the same row-major layout: \p rank dimensions of
/// \p extents[d] elements of \p element_size bytes each (extents[0] is not
/// used to address), starting at \p device and \p host; the box holds the
/// elements with lower[d] <= index[d] <= upper[d] in every dimension (none
/// when upper[d] < lower[d] for some d; one element when rank is 0).
/// Dimensions that the box covers entirely are merged, so a box of whole
/// rows is one contiguous copy; otherwise rows are copied as 2-D copies.
/// \p method is a POLYCUDA_TRANSFERS_* value, overridden by the environment
/// variable POLYCUDA_TRANSFERS; \p array names the array in profiles.
/// Ordered as a copy on the default stream would be: the kernels and copies
/// issued after the call see the bytes, and the host may change its array
/// once the call returns, except that inside a scop (between
/// polycuda_cuda_begin_scop and polycuda_cuda_end_scop) a staged copy does
/// not wait for the kernels the scop launched before it: none of them may
/// use the destination's bytes. Also reports errors of earlier
/// asynchronous work.
void polycuda_cuda_copy_box_to_device(void *device, const void *host,
                                      size_t element_size, int rank,
                                      const long long *extents,
                                      const long long *lower,
                                      const long long *upper, int method,
                                      const char *array, const char *where);

/// The same box from \p device to \p host; elements outside the box are
/// not touched. The bytes are in \p host when the call returns, except
/// for a copy through a pinned slot (auto, up to 256 KiB) inside a scop:
/// its bytes are in \p host when polycuda_cuda_end_scop returns (or an
/// earlier polycuda_cuda_synchronize, or a copy to the host that does not
/// use a slot), so that the scop's small copies out share one wait for
/// the device; the caller must not read \p host's box before. A staged
/// copy waits for the device work issued before the scop's
/// polycuda_cuda_mark_written of \p device, if there was one, else for all
/// work issued before the call.
void polycuda_cuda_copy_box_to_host(void *host, const void *device,
                                    size_t element_size, int rank,
                                    const long long *extents,
                                    const long long *lower,
                                    const long long *upper, int method,
                                    const char *array, const char *where);

/// \p count boxes in one copy (their rows are staged as one stream of
/// chunks): box b's bounds are lower[b * rank + d] and upper[b * rank + d]
/// (a banded copy: the printed code cuts a triangle's box into the boxes of
/// bands of its rows). Otherwise as polycuda_cuda_copy_box_to_device.
void polycuda_cuda_copy_boxes_to_device(void *device, const void *host,
                                        size_t element_size, int rank,
                                        const long long *extents, int count,
                                        const long long *lower,
                                        const long long *upper, int method,
                                        const char *array, const char *where);

/// The same boxes from \p device to \p host, as
/// polycuda_cuda_copy_box_to_host.
void polycuda_cuda_copy_boxes_to_host(void *host, const void *device,
                                      size_t element_size, int rank,
                                      const long long *extents, int count,
                                      const long long *lower,
                                      const long long *upper, int method,
                                      const char *array, const char *where);

/// Records that the device work issued so far holds the last writer of the
/// array at \p device (as passed to polycuda_cuda_copy_box_to_host) in
/// the current scop: a later copy of it to the host waits for that work
/// only, and overlaps the kernels launched in between (which may read the
/// array but must not write it). Inside a scop only; the mark ends with the
/// copy or the scop.
void polycuda_cuda_mark_written(const void *device, const char *where);

/// Copies \p bytes of device memory \p src to the start of the constant
/// memory variable \p symbol (a `__constant__` array of the caller's file),
/// in order with the work issued before and after it on the default stream
/// (the kernels that read the copy are launched after it). Nothing when
/// \p bytes is 0.
void polycuda_cuda_copy_to_constant(const void *symbol, const void *src,
                                    size_t bytes, const char *where);

/// Opens a scop: its staged copies to the device may overlap its kernels
/// launched before them (see polycuda_cuda_copy_box_to_device), and its
/// profile (POLYCUDA_PROFILE) attributes the copies, allocations and
/// kernels until polycuda_cuda_end_scop to \p where.
void polycuda_cuda_begin_scop(const char *where);

/// Closes the scop: waits for its device work (when it used the device)
/// and puts the bytes of its copies out through pinned slots in place;
/// with POLYCUDA_PROFILE set, prints one line per copy (array, direction,
/// bytes, method, time, bandwidth) and per kernel (launches, time), and the
/// totals, to stderr.
void polycuda_cuda_end_scop(const char *where);

/// Checks the launch of \p kernel that the caller just issued with <<<...>>>
/// (cudaGetLastError). If POLYCUDA_SYNC_LAUNCHES is set (to anything but ""
/// or "0"), also waits for the kernel so that errors during its execution are
/// reported here, naming \p kernel.
void polycuda_cuda_check_launch(const char *kernel, const char *where);

/// Persistent kernels (a host loop of launches run as one kernel whose
/// blocks run the loop, see translator --persistent): the number of blocks
/// of \p threads threads to launch \p kernel (the address of its
/// __global__ function) with, given that none of its phases has more than
/// \p wanted blocks. With \p cooperative (the kernel waits for its whole
/// grid) at most the blocks that are co-resident on the device
/// (cudaOccupancyMaxActiveBlocksPerMultiprocessor times the multiprocessors),
/// otherwise 1. Returns 0 when the persistent kernel must not run and the
/// caller launches the loop's kernels one by one instead: the device has no
/// cooperative launch (cudaDevAttrCooperativeLaunch), no block of the
/// kernel fits on a multiprocessor, the largest phase needs more blocks than
/// the device has multiprocessors (separate launches are faster then; the
/// environment variable POLYCUDA_PERSISTENT=always drops this rule), or
/// POLYCUDA_PERSISTENT is set to "0" or "off".
int polycuda_cuda_persistent_blocks(const void *kernel, unsigned threads,
                                    long long wanted, int cooperative,
                                    const char *where);

/// Launches \p kernel on \p blocks blocks of \p threads threads with the
/// arguments \p args (cudaLaunchCooperativeKernel when \p cooperative,
/// cudaLaunchKernel otherwise) and checks the launch as
/// polycuda_cuda_check_launch does, naming it \p name.
void polycuda_cuda_launch_persistent(const void *kernel, int blocks,
                                     unsigned threads, void **args,
                                     int cooperative, const char *name,
                                     const char *where);

/// Registers \p count kernels (the addresses of __global__ functions of the
/// caller's file) for the thread that prepares the staging pool when the
/// program starts: once the context exists, it loads them
/// (cudaFuncGetAttributes), so that with CUDA's lazy module loading (the
/// default) their first launches do not load them (0.15-0.2 ms for a
/// program's first kernel on the H200). The printed code registers its
/// kernels from a static initializer. Kernels registered after that thread
/// has passed this step, or when there is no such thread
/// (POLYCUDA_TRANSFERS=plain), load at their first launch as
/// before. Never fails.
void polycuda_cuda_preload(const void *const *kernels, int count);

/// Waits for all device work (cudaDeviceSynchronize) and reports its errors;
/// copies to the host through pinned slots are in place when it returns.
void polycuda_cuda_synchronize(const char *where);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // POLYCUDA_RUNTIME_POLYCUDA_CUDA_H
