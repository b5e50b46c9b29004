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
// Environment (docs/runtime.md): POLYCUDA_TRANSFERS=plain|staged|auto
// overrides the printed copy method; POLYCUDA_PROFILE=1 prints each scop's
// copies and kernels (launches synchronized); POLYCUDA_SCOP_TIME=1 prints
// each scop's time; POLYCUDA_SYNC_LAUNCHES, POLYCUDA_LAUNCH_STATS,
// POLYCUDA_FAIL_ALLOC and POLYCUDA_PERSISTENT as documented below.
//
//===----------------------------------------------------------------------===//

#ifndef POLYCUDA_RUNTIME_POLYCUDA_CUDA_H
#define POLYCUDA_RUNTIME_POLYCUDA_CUDA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// How copies move their bytes (`--transfers`; docs/runtime.md): plain is
/// cudaMemcpy(2D); staged goes through the runtime's ring of pinned
/// buffers; auto (the default) stages from 1 MiB once the ring is ready,
/// sends up to 256 KiB through pinned slots, and is plain otherwise.
#define POLYCUDA_TRANSFERS_AUTO 0
#define POLYCUDA_TRANSFERS_PLAIN 1
#define POLYCUDA_TRANSFERS_STAGED 2

/// Allocates \p bytes (0: 1 byte) of device memory: a freed block of about
/// that size kept by the runtime, else a block of the device memory it
/// reserved when the program started (stream-ordered on the default
/// stream), else cudaMalloc. The first runtime call checks that a device
/// exists. Under POLYCUDA_FAIL_ALLOC it fails as if the device were out of
/// memory, without touching it. On failure prints "<where>: error:
/// cudaMalloc failed: ..." with the byte count and exits 1.
void *polycuda_cuda_alloc(size_t bytes, const char *where);

/// Frees memory of polycuda_cuda_alloc (kept for a later allocation);
/// NULL is ignored.
void polycuda_cuda_free(void *ptr, const char *where);

/// Copies \p bytes, as polycuda_cuda_copy_box_to_device / _to_host.
void polycuda_cuda_copy_to_device(void *dst, const void *src, size_t bytes,
                                  const char *where);
void polycuda_cuda_copy_to_host(void *dst, const void *src, size_t bytes,
                                const char *where);

/// Copies a box of a row-major array (\p rank dimensions of \p extents[d]
/// elements of \p element_size bytes, extents[0] unused, the same layout on
/// both sides): the elements with lower[d] <= index[d] <= upper[d] (one when
/// rank is 0). \p method: a POLYCUDA_TRANSFERS_* value (POLYCUDA_TRANSFERS
/// overrides it); \p array names the array in profiles. Ordered as a copy
/// on the default stream, except that inside a scop a staged copy does not
/// wait for the scop's earlier kernels (none may use the destination). The
/// host may change its array once the call returns.
void polycuda_cuda_copy_box_to_device(void *device, const void *host,
                                      size_t element_size, int rank,
                                      const long long *extents,
                                      const long long *lower,
                                      const long long *upper, int method,
                                      const char *array, const char *where);

/// The same box from \p device to \p host. The bytes are in \p host when
/// the call returns, except for a copy through a slot inside a scop: then
/// when polycuda_cuda_end_scop (or _synchronize, or a copy out through no
/// slot) returns. A staged copy waits for the work issued before the scop's
/// polycuda_cuda_mark_written of \p device, if any, else for all of it.
void polycuda_cuda_copy_box_to_host(void *host, const void *device,
                                    size_t element_size, int rank,
                                    const long long *extents,
                                    const long long *lower,
                                    const long long *upper, int method,
                                    const char *array, const char *where);

/// \p count boxes in one copy (box b: lower/upper[b * rank + d]; the bands
/// of a triangle's rows), otherwise as the single-box copies.
void polycuda_cuda_copy_boxes_to_device(void *device, const void *host,
                                        size_t element_size, int rank,
                                        const long long *extents, int count,
                                        const long long *lower,
                                        const long long *upper, int method,
                                        const char *array, const char *where);
void polycuda_cuda_copy_boxes_to_host(void *host, const void *device,
                                      size_t element_size, int rank,
                                      const long long *extents, int count,
                                      const long long *lower,
                                      const long long *upper, int method,
                                      const char *array, const char *where);

/// Records that the work issued so far holds the last writer of the array
/// at \p device in the current scop: a later staged copy of it to the host
/// waits for that work only (later kernels may read it, not write it).
/// Inside a scop only; the mark ends with the copy or the scop.
void polycuda_cuda_mark_written(const void *device, const char *where);

/// Copies \p bytes of device memory \p src to the `__constant__` variable
/// \p symbol, in order on the default stream; nothing when \p bytes is 0.
void polycuda_cuda_copy_to_constant(const void *symbol, const void *src,
                                    size_t bytes, const char *where);

/// Opens a scop: its staged copies to the device may overlap its kernels
/// launched before them, and its profile (POLYCUDA_PROFILE) attributes the
/// work until polycuda_cuda_end_scop to \p where.
void polycuda_cuda_begin_scop(const char *where);

/// Closes the scop: waits for its device work, puts the bytes of its copies
/// out through slots in place, and prints its profile (POLYCUDA_PROFILE)
/// and time (POLYCUDA_SCOP_TIME) to stderr.
void polycuda_cuda_end_scop(const char *where);

/// Checks the launch of \p kernel just issued with <<<...>>>; under
/// POLYCUDA_SYNC_LAUNCHES (or POLYCUDA_PROFILE) also waits for it, so that
/// errors during its execution name it.
void polycuda_cuda_check_launch(const char *kernel, const char *where);

/// Persistent kernels (--persistent): the blocks of \p threads threads to
/// launch \p kernel with when no phase has more than \p wanted blocks
/// (\p cooperative: at most the co-resident ones; else 1), or 0 when the
/// caller launches the loop's kernels one by one: no cooperative launch, no
/// block fits, more than one block per multiprocessor in the largest phase
/// (unless POLYCUDA_PERSISTENT=always), or POLYCUDA_PERSISTENT=0 or off.
int polycuda_cuda_persistent_blocks(const void *kernel, unsigned threads,
                                    long long wanted, int cooperative,
                                    const char *where);

/// Launches \p kernel on \p blocks blocks of \p threads threads with
/// \p args (cooperatively when \p cooperative) and checks the launch as
/// polycuda_cuda_check_launch, naming it \p name.
void polycuda_cuda_launch_persistent(const void *kernel, int blocks,
                                     unsigned threads, void **args,
                                     int cooperative, const char *name,
                                     const char *where);

/// Registers \p count kernels of the caller's file (from a static
/// initializer) for the runtime's start-up thread, which loads them once
/// the context exists, so that lazy module loading does not delay their
/// first launches. Never fails.
void polycuda_cuda_preload(const void *const *kernels, int count);

/// Waits for all device work and reports its errors; copies to the host
/// through slots are in place when it returns.
void polycuda_cuda_synchronize(const char *where);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // POLYCUDA_RUNTIME_POLYCUDA_CUDA_H
