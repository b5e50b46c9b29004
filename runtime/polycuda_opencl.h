//===- polycuda_opencl.h - C ABI over OpenCL for generated code -----------===//
//
// Stage: runtime, linked into every program printed by the OpenCL target.
// Input: the kernel source printed into a .cl file, buffer sizes, NDRange
//   sizes and kernel arguments chosen by the printed host code, plus the scop
//   location string ("gemm.c:31:1") that every call carries.
// Output: the OpenCL call's effect, or a diagnostic naming the scop location
//   on stderr followed by exit(1); no function returns on failure.
// Invariants: plain C99; users need not include CL/cl.h, since buffers are
//   passed as void * (the cl_mem handle) and the program is an opaque type.
//
//===----------------------------------------------------------------------===//

#ifndef POLYCUDA_RUNTIME_POLYCUDA_OPENCL_H
#define POLYCUDA_RUNTIME_POLYCUDA_OPENCL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// An OpenCL platform, device, context, in-order queue and built program,
/// together with the cl_kernel objects created so far, cached by name.
typedef struct polycuda_cl_program polycuda_cl_program;

/// One kernel argument exactly as clSetKernelArg takes it: \p size bytes at
/// \p value. A buffer is passed as { sizeof(void *), &handle } where handle
/// is the void * returned by polycuda_cl_alloc; local memory as
/// { bytes, NULL }.
typedef struct {
  size_t size;
  const void *value;
} polycuda_cl_arg;

/// Picks a device, creates a context and an in-order queue on it, and builds
/// \p source with "-cl-std=CL1.2". The device is the one named by the integer
/// indices in the environment variables POLYCUDA_CL_PLATFORM and
/// POLYCUDA_CL_DEVICE where set (the device index counts all devices of the
/// platform, default 0); otherwise the first GPU of the first platform that
/// has one, else the first device of the first platform that has any.
/// Prints "<where>: error: no OpenCL device available" if there is none, and
/// the build log if the build fails. \p where is kept for errors reported by
/// functions that take no location.
polycuda_cl_program *polycuda_cl_create(const char *source, const char *where);

/// Releases the cached kernels, the program, queue and context of \p p and
/// frees \p p; NULL is ignored. Buffers must have been freed before.
void polycuda_cl_release(polycuda_cl_program *p);

/// Creates a read-write buffer of \p bytes (at least 1) in the context of
/// \p p and returns its cl_mem handle as void *. If the environment variable
/// POLYCUDA_FAIL_ALLOC is set (to anything but "" or "0"), fails as if
/// clCreateBuffer returned CL_MEM_OBJECT_ALLOCATION_FAILURE; under
/// POLYCUDA_POISON_ALLOC, fills the buffer with 0xff bytes (tests).
void *polycuda_cl_alloc(polycuda_cl_program *p, size_t bytes,
                        const char *where);

/// Releases a buffer returned by polycuda_cl_alloc; NULL is ignored. Errors
/// name the location given to polycuda_cl_create.
void polycuda_cl_free(polycuda_cl_program *p, void *buffer);

/// Writes \p bytes from host memory \p src into \p buffer starting at byte
/// \p offset_bytes, and waits until the write is complete.
void polycuda_cl_copy_to_device(polycuda_cl_program *p, void *buffer,
                                size_t offset_bytes, const void *src,
                                size_t bytes, const char *where);

/// Reads \p bytes from \p buffer starting at byte \p offset_bytes into host
/// memory \p dst, and waits until the read is complete.
void polycuda_cl_copy_to_host(polycuda_cl_program *p, void *dst, void *buffer,
                              size_t offset_bytes, size_t bytes,
                              const char *where);

/// Writes a box of array elements from \p host into \p buffer (both laid
/// out as the same row-major array: \p rank dimensions of \p extents[d]
/// elements of \p element_size bytes; the box holds the elements with
/// lower[d] <= index[d] <= upper[d], none when some upper[d] < lower[d], one
/// when rank is 0), and waits until the write is complete. Trailing
/// dimensions that the box covers entirely are merged; other boxes are
/// written as rectangles (clEnqueueWriteBufferRect). Elements outside the
/// box are not touched.
void polycuda_cl_copy_box_to_device(polycuda_cl_program *p, void *buffer,
                                    const void *host, size_t element_size,
                                    int rank, const long long *extents,
                                    const long long *lower,
                                    const long long *upper, const char *where);

/// Reads the same box from \p buffer into \p host.
void polycuda_cl_copy_box_to_host(polycuda_cl_program *p, void *host,
                                  void *buffer, size_t element_size, int rank,
                                  const long long *extents,
                                  const long long *lower,
                                  const long long *upper, const char *where);

/// \p count boxes, one after the other: box b's bounds are
/// lower[b * rank + d] and upper[b * rank + d] (a banded copy: the printed
/// code cuts a triangle's box into the boxes of bands of its rows).
void polycuda_cl_copy_boxes_to_device(polycuda_cl_program *p, void *buffer,
                                      const void *host, size_t element_size,
                                      int rank, const long long *extents,
                                      int count, const long long *lower,
                                      const long long *upper,
                                      const char *where);

/// The same boxes from \p buffer into \p host.
void polycuda_cl_copy_boxes_to_host(polycuda_cl_program *p, void *host,
                                    void *buffer, size_t element_size,
                                    int rank, const long long *extents,
                                    int count, const long long *lower,
                                    const long long *upper, const char *where);

/// Sets the \p num_args arguments of kernel \p kernel_name (created once and
/// cached in \p p) and enqueues it over \p work_dim (1 to 3) dimensions.
/// \p global_size is the total number of work items per dimension, already a
/// multiple of \p local_size; \p local_size may be NULL to let the
/// implementation choose. If POLYCUDA_SYNC_LAUNCHES is set (to anything but
/// "" or "0"), also waits for the kernel so that its errors name it.
void polycuda_cl_launch(polycuda_cl_program *p, const char *kernel_name,
                        unsigned work_dim, const size_t *global_size,
                        const size_t *local_size, unsigned num_args,
                        const polycuda_cl_arg *args, const char *where);

/// Waits until all commands enqueued on the queue of \p p are complete.
void polycuda_cl_finish(polycuda_cl_program *p, const char *where);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // POLYCUDA_RUNTIME_POLYCUDA_OPENCL_H
