//===- polycuda_opencl.c - C ABI over OpenCL for generated code -----------===//
//
// Stage: runtime, OpenCL half; plain C99 over the OpenCL 1.2 ICD.
// Input: calls from printed host code, each with a scop location string.
// Output: OpenCL API calls; any failure prints
//   "<where>: error: <clFunction> failed: <CL_ERROR_NAME> (<code>)" and exits
//   1, so the printed code never checks a return value.
// Invariants: one in-order queue per program, so every enqueued command sees
//   the effects of the ones before it without events.
//
//===----------------------------------------------------------------------===//

#define CL_TARGET_OPENCL_VERSION 120

#include "polycuda_opencl.h"

#ifdef __APPLE__
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// A cl_kernel created by clCreateKernel, keyed by its kernel function name.
typedef struct {
  char *name;
  cl_kernel kernel;
} polycuda_cl_cached_kernel;

struct polycuda_cl_program {
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_program program;
  polycuda_cl_cached_kernel *kernels;
  size_t numKernels;
  size_t kernelCapacity;
  char *where;
};

static const char *locationOrUnknown(const char *where) {
  return where ? where : "<unknown location>";
}

static const char *getErrorName(cl_int err) {
  switch (err) {
#define POLYCUDA_CL_ERROR(name)                                                \
  case name:                                                                   \
    return #name;
    POLYCUDA_CL_ERROR(CL_SUCCESS)
    POLYCUDA_CL_ERROR(CL_DEVICE_NOT_FOUND)
    POLYCUDA_CL_ERROR(CL_DEVICE_NOT_AVAILABLE)
    POLYCUDA_CL_ERROR(CL_COMPILER_NOT_AVAILABLE)
    POLYCUDA_CL_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    POLYCUDA_CL_ERROR(CL_OUT_OF_RESOURCES)
    POLYCUDA_CL_ERROR(CL_OUT_OF_HOST_MEMORY)
    POLYCUDA_CL_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE)
    POLYCUDA_CL_ERROR(CL_MEM_COPY_OVERLAP)
    POLYCUDA_CL_ERROR(CL_IMAGE_FORMAT_MISMATCH)
    POLYCUDA_CL_ERROR(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    POLYCUDA_CL_ERROR(CL_BUILD_PROGRAM_FAILURE)
    POLYCUDA_CL_ERROR(CL_MAP_FAILURE)
    POLYCUDA_CL_ERROR(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    POLYCUDA_CL_ERROR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    POLYCUDA_CL_ERROR(CL_COMPILE_PROGRAM_FAILURE)
    POLYCUDA_CL_ERROR(CL_LINKER_NOT_AVAILABLE)
    POLYCUDA_CL_ERROR(CL_LINK_PROGRAM_FAILURE)
    POLYCUDA_CL_ERROR(CL_DEVICE_PARTITION_FAILED)
    POLYCUDA_CL_ERROR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    POLYCUDA_CL_ERROR(CL_INVALID_VALUE)
    POLYCUDA_CL_ERROR(CL_INVALID_DEVICE_TYPE)
    POLYCUDA_CL_ERROR(CL_INVALID_PLATFORM)
    POLYCUDA_CL_ERROR(CL_INVALID_DEVICE)
    POLYCUDA_CL_ERROR(CL_INVALID_CONTEXT)
    POLYCUDA_CL_ERROR(CL_INVALID_QUEUE_PROPERTIES)
    POLYCUDA_CL_ERROR(CL_INVALID_COMMAND_QUEUE)
    POLYCUDA_CL_ERROR(CL_INVALID_HOST_PTR)
    POLYCUDA_CL_ERROR(CL_INVALID_MEM_OBJECT)
    POLYCUDA_CL_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    POLYCUDA_CL_ERROR(CL_INVALID_IMAGE_SIZE)
    POLYCUDA_CL_ERROR(CL_INVALID_SAMPLER)
    POLYCUDA_CL_ERROR(CL_INVALID_BINARY)
    POLYCUDA_CL_ERROR(CL_INVALID_BUILD_OPTIONS)
    POLYCUDA_CL_ERROR(CL_INVALID_PROGRAM)
    POLYCUDA_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE)
    POLYCUDA_CL_ERROR(CL_INVALID_KERNEL_NAME)
    POLYCUDA_CL_ERROR(CL_INVALID_KERNEL_DEFINITION)
    POLYCUDA_CL_ERROR(CL_INVALID_KERNEL)
    POLYCUDA_CL_ERROR(CL_INVALID_ARG_INDEX)
    POLYCUDA_CL_ERROR(CL_INVALID_ARG_VALUE)
    POLYCUDA_CL_ERROR(CL_INVALID_ARG_SIZE)
    POLYCUDA_CL_ERROR(CL_INVALID_KERNEL_ARGS)
    POLYCUDA_CL_ERROR(CL_INVALID_WORK_DIMENSION)
    POLYCUDA_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE)
    POLYCUDA_CL_ERROR(CL_INVALID_WORK_ITEM_SIZE)
    POLYCUDA_CL_ERROR(CL_INVALID_GLOBAL_OFFSET)
    POLYCUDA_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST)
    POLYCUDA_CL_ERROR(CL_INVALID_EVENT)
    POLYCUDA_CL_ERROR(CL_INVALID_OPERATION)
    POLYCUDA_CL_ERROR(CL_INVALID_GL_OBJECT)
    POLYCUDA_CL_ERROR(CL_INVALID_BUFFER_SIZE)
    POLYCUDA_CL_ERROR(CL_INVALID_MIP_LEVEL)
    POLYCUDA_CL_ERROR(CL_INVALID_GLOBAL_WORK_SIZE)
    POLYCUDA_CL_ERROR(CL_INVALID_PROPERTY)
    POLYCUDA_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR)
    POLYCUDA_CL_ERROR(CL_INVALID_COMPILER_OPTIONS)
    POLYCUDA_CL_ERROR(CL_INVALID_LINKER_OPTIONS)
    POLYCUDA_CL_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef POLYCUDA_CL_ERROR
  // The ICD loader's code when no platform is installed (cl_khr_icd); its
  // macro lives in cl_ext.h, which we do not otherwise need.
  case -1001:
    return "CL_PLATFORM_NOT_FOUND_KHR";
  default:
    return "unknown OpenCL error";
  }
}

/// Prints "<where>: error: <function> failed: <NAME> (<code>)[; <detail>]"
/// and exits 1.
static void failWith(const char *where, const char *function, cl_int err,
                     const char *detail) {
  fprintf(stderr, "%s: error: %s failed: %s (%d)%s%s\n",
          locationOrUnknown(where), function, getErrorName(err), (int)err,
          detail ? "; " : "", detail ? detail : "");
  fflush(stderr);
  exit(1);
}

static void checkCall(cl_int err, const char *where, const char *function) {
  if (err != CL_SUCCESS)
    failWith(where, function, err, NULL);
}

/// Prints "<where>: error: <message>" and exits 1.
static void failWithMessage(const char *where, const char *message) {
  fprintf(stderr, "%s: error: %s\n", locationOrUnknown(where), message);
  fflush(stderr);
  exit(1);
}

static void *allocateOrFail(size_t bytes, const char *where) {
  void *ptr = malloc(bytes == 0 ? 1 : bytes);
  if (!ptr)
    failWithMessage(where, "out of host memory in the OpenCL runtime");
  return ptr;
}

static char *copyString(const char *str, const char *where) {
  size_t length = strlen(str);
  char *copy = (char *)allocateOrFail(length + 1, where);
  memcpy(copy, str, length + 1);
  return copy;
}

static int isEnvFlagSet(const char *name) {
  const char *value = getenv(name);
  return value && value[0] != '\0' && strcmp(value, "0") != 0;
}

/// Reads the non-negative integer in environment variable \p name into
/// \p index; returns 0 if the variable is unset or empty.
static int readEnvIndex(const char *name, cl_uint *index, const char *where) {
  const char *value = getenv(name);
  char *end = NULL;
  long parsed;
  if (!value || value[0] == '\0')
    return 0;
  parsed = strtol(value, &end, 10);
  if (*end != '\0' || parsed < 0) {
    fprintf(stderr,
            "%s: error: %s must be a non-negative integer index, not '%s'\n",
            locationOrUnknown(where), name, value);
    fflush(stderr);
    exit(1);
  }
  *index = (cl_uint)parsed;
  return 1;
}

/// Returns the platforms; the ICD loader reports "none installed" as an
/// error, which is the same as an empty list here.
static cl_platform_id *getPlatforms(cl_uint *numPlatforms, const char *where) {
  cl_platform_id *platforms;
  cl_int err = clGetPlatformIDs(0, NULL, numPlatforms);
  if (err != CL_SUCCESS || *numPlatforms == 0)
    failWithMessage(where, "no OpenCL device available");
  platforms = (cl_platform_id *)allocateOrFail(
      *numPlatforms * sizeof(cl_platform_id), where);
  checkCall(clGetPlatformIDs(*numPlatforms, platforms, NULL), where,
            "clGetPlatformIDs");
  return platforms;
}

/// Returns 1 and sets \p device to device \p index of type \p type on
/// \p platform if it exists.
static int findDevice(cl_platform_id platform, cl_device_type type,
                      cl_uint index, cl_device_id *device, const char *where) {
  cl_uint numDevices = 0;
  cl_device_id *devices;
  cl_int err = clGetDeviceIDs(platform, type, 0, NULL, &numDevices);
  if (err == CL_DEVICE_NOT_FOUND || (err == CL_SUCCESS && numDevices <= index))
    return 0;
  checkCall(err, where, "clGetDeviceIDs");
  devices =
      (cl_device_id *)allocateOrFail(numDevices * sizeof(cl_device_id), where);
  checkCall(clGetDeviceIDs(platform, type, numDevices, devices, NULL), where,
            "clGetDeviceIDs");
  *device = devices[index];
  free(devices);
  return 1;
}

static cl_device_id selectDevice(const char *where) {
  cl_uint numPlatforms = 0, platformIndex = 0, deviceIndex = 0, i;
  int hasPlatformIndex =
      readEnvIndex("POLYCUDA_CL_PLATFORM", &platformIndex, where);
  int hasDeviceIndex = readEnvIndex("POLYCUDA_CL_DEVICE", &deviceIndex, where);
  cl_platform_id *platforms = getPlatforms(&numPlatforms, where);
  cl_device_id device = NULL;
  int found = 0;

  if (hasPlatformIndex || hasDeviceIndex) {
    // An explicit choice is honoured exactly; falling back to another device
    // would hide a typo in the index.
    if (platformIndex >= numPlatforms) {
      fprintf(stderr,
              "%s: error: POLYCUDA_CL_PLATFORM=%u is out of range (%u OpenCL "
              "platform(s) found)\n",
              locationOrUnknown(where), platformIndex, numPlatforms);
      fflush(stderr);
      exit(1);
    }
    if (!findDevice(platforms[platformIndex], CL_DEVICE_TYPE_ALL, deviceIndex,
                    &device, where)) {
      fprintf(stderr,
              "%s: error: no OpenCL device available: platform %u has no "
              "device %u (POLYCUDA_CL_PLATFORM/POLYCUDA_CL_DEVICE)\n",
              locationOrUnknown(where), platformIndex, deviceIndex);
      fflush(stderr);
      exit(1);
    }
    free(platforms);
    return device;
  }

  for (i = 0; i < numPlatforms && !found; ++i)
    found = findDevice(platforms[i], CL_DEVICE_TYPE_GPU, 0, &device, where);
  for (i = 0; i < numPlatforms && !found; ++i)
    found = findDevice(platforms[i], CL_DEVICE_TYPE_ALL, 0, &device, where);
  free(platforms);
  if (!found)
    failWithMessage(where, "no OpenCL device available");
  return device;
}

static void printBuildLog(polycuda_cl_program *p, const char *where) {
  size_t logSize = 0;
  char *log;
  if (clGetProgramBuildInfo(p->program, p->device, CL_PROGRAM_BUILD_LOG, 0,
                            NULL, &logSize) != CL_SUCCESS)
    return;
  log = (char *)allocateOrFail(logSize + 1, where);
  if (clGetProgramBuildInfo(p->program, p->device, CL_PROGRAM_BUILD_LOG,
                            logSize, log, NULL) == CL_SUCCESS) {
    log[logSize] = '\0';
    fprintf(stderr, "%s: note: OpenCL build log:\n%s\n",
            locationOrUnknown(where), log);
  }
  free(log);
}

polycuda_cl_program *polycuda_cl_create(const char *source, const char *where) {
  polycuda_cl_program *p;
  cl_int err = CL_SUCCESS;

  p = (polycuda_cl_program *)allocateOrFail(sizeof(*p), where);
  memset(p, 0, sizeof(*p));
  p->where = copyString(locationOrUnknown(where), where);
  p->device = selectDevice(where);

  p->context = clCreateContext(NULL, 1, &p->device, NULL, NULL, &err);
  checkCall(err, where, "clCreateContext");
  p->queue = clCreateCommandQueue(p->context, p->device, 0, &err);
  checkCall(err, where, "clCreateCommandQueue");
  p->program = clCreateProgramWithSource(p->context, 1, &source, NULL, &err);
  checkCall(err, where, "clCreateProgramWithSource");

  err = clBuildProgram(p->program, 1, &p->device, "-cl-std=CL1.2", NULL, NULL);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "%s: error: clBuildProgram failed: %s (%d)\n",
            locationOrUnknown(where), getErrorName(err), (int)err);
    printBuildLog(p, where);
    fflush(stderr);
    exit(1);
  }
  return p;
}

void polycuda_cl_release(polycuda_cl_program *p) {
  size_t i;
  if (!p)
    return;
  for (i = 0; i < p->numKernels; ++i) {
    checkCall(clReleaseKernel(p->kernels[i].kernel), p->where,
              "clReleaseKernel");
    free(p->kernels[i].name);
  }
  free(p->kernels);
  checkCall(clReleaseProgram(p->program), p->where, "clReleaseProgram");
  checkCall(clReleaseCommandQueue(p->queue), p->where, "clReleaseCommandQueue");
  checkCall(clReleaseContext(p->context), p->where, "clReleaseContext");
  free(p->where);
  free(p);
}

void *polycuda_cl_alloc(polycuda_cl_program *p, size_t bytes,
                        const char *where) {
  char detail[64];
  cl_int err = CL_SUCCESS;
  cl_mem buffer;
  snprintf(detail, sizeof(detail), "requested %lu bytes", (unsigned long)bytes);
  if (isEnvFlagSet("POLYCUDA_FAIL_ALLOC"))
    failWith(where, "clCreateBuffer", CL_MEM_OBJECT_ALLOCATION_FAILURE, detail);
  buffer = clCreateBuffer(p->context, CL_MEM_READ_WRITE, bytes == 0 ? 1 : bytes,
                          NULL, &err);
  if (err != CL_SUCCESS)
    failWith(where, "clCreateBuffer", err, detail);
  if (isEnvFlagSet("POLYCUDA_POISON_ALLOC") && bytes > 0) {
    // Tests: every byte 0xff (a NaN in each double and float), so that an
    // element a scop reads without copying it in shows in the output.
    const unsigned char ones = 0xff;
    checkCall(clEnqueueFillBuffer(p->queue, buffer, &ones, 1, 0, bytes, 0,
                                  NULL, NULL),
              where, "clEnqueueFillBuffer");
  }
  return (void *)buffer;
}

void polycuda_cl_free(polycuda_cl_program *p, void *buffer) {
  if (!buffer)
    return;
  checkCall(clReleaseMemObject((cl_mem)buffer), p->where, "clReleaseMemObject");
}

void polycuda_cl_copy_to_device(polycuda_cl_program *p, void *buffer,
                                size_t offset_bytes, const void *src,
                                size_t bytes, const char *where) {
  // OpenCL 1.2 rejects zero-sized transfers with CL_INVALID_VALUE, while an
  // empty array section is legal in the printed host code.
  if (bytes == 0)
    return;
  checkCall(clEnqueueWriteBuffer(p->queue, (cl_mem)buffer, CL_TRUE,
                                 offset_bytes, bytes, src, 0, NULL, NULL),
            where, "clEnqueueWriteBuffer");
}

void polycuda_cl_copy_to_host(polycuda_cl_program *p, void *dst, void *buffer,
                              size_t offset_bytes, size_t bytes,
                              const char *where) {
  if (bytes == 0)
    return;
  checkCall(clEnqueueReadBuffer(p->queue, (cl_mem)buffer, CL_TRUE, offset_bytes,
                                bytes, dst, 0, NULL, NULL),
            where, "clEnqueueReadBuffer");
}

/* Copies one slab: `rows` rows of `width` bytes, `pitch` bytes apart,
 * `offset` bytes into both arrays. The device buffer may end with the last
 * row's last byte; some OpenCL implementations bound a rectangle by whole
 * rows (PoCL 5 rejects one that ends earlier with CL_INVALID_VALUE), so the
 * rectangle holds every row but the last, which is copied on its own. */
static void copySlab(polycuda_cl_program *p, int toDevice, cl_mem buffer,
                     char *host, size_t offset, size_t pitch, size_t width,
                     size_t rows, const char *where) {
  size_t origin[3], hostOrigin[3], region[3];
  size_t last = offset + (rows - 1) * pitch;
  if (rows == 0 || width == 0)
    return;
  if (toDevice)
    checkCall(clEnqueueWriteBuffer(p->queue, buffer, CL_TRUE, last, width,
                                   host + last, 0, NULL, NULL),
              where, "clEnqueueWriteBuffer");
  else
    checkCall(clEnqueueReadBuffer(p->queue, buffer, CL_TRUE, last, width,
                                  host + last, 0, NULL, NULL),
              where, "clEnqueueReadBuffer");
  if (rows == 1)
    return;
  origin[0] = offset % pitch;
  origin[1] = offset / pitch;
  origin[2] = 0;
  hostOrigin[0] = origin[0];
  hostOrigin[1] = origin[1];
  hostOrigin[2] = 0;
  region[0] = width;
  region[1] = rows - 1;
  region[2] = 1;
  if (toDevice)
    checkCall(clEnqueueWriteBufferRect(p->queue, buffer, CL_TRUE, origin,
                                       hostOrigin, region, pitch, 0, pitch, 0,
                                       host, 0, NULL, NULL),
              where, "clEnqueueWriteBufferRect");
  else
    checkCall(clEnqueueReadBufferRect(p->queue, buffer, CL_TRUE, origin,
                                      hostOrigin, region, pitch, 0, pitch, 0,
                                      host, 0, NULL, NULL),
              where, "clEnqueueReadBufferRect");
}

enum { kMaxBoxRank = 16 };

/* The box as slabs (see polycuda_cuda.cu's slabsOf, which this mirrors). */
static void copyBox(polycuda_cl_program *p, int toDevice, cl_mem buffer,
                    char *host, size_t elementSize, int rank,
                    const long long *extents, const long long *lowerIn,
                    const long long *upperIn, const char *where) {
  size_t stride[kMaxBoxRank], count[kMaxBoxRank], index[kMaxBoxRank];
  long long lower[kMaxBoxRank], upper[kMaxBoxRank];
  size_t width, inner;
  int d, k;
  if (rank <= 0) {
    copySlab(p, toDevice, buffer, host, 0, elementSize, elementSize, 1, where);
    return;
  }
  if (rank > kMaxBoxRank)
    failWithMessage(where, "array of more than 16 dimensions");
  /* Clamped to the array as in slabsOf (polycuda_staging.h): no index below
   * 0, none past the extent of a dimension after the first. */
  for (d = 0; d < rank; ++d) {
    lower[d] = lowerIn[d] < 0 ? 0 : lowerIn[d];
    upper[d] = d > 0 && upperIn[d] > extents[d] - 1 ? extents[d] - 1
                                                     : upperIn[d];
    if (upper[d] < lower[d])
      return;
    count[d] = (size_t)(upper[d] - lower[d] + 1);
    index[d] = 0;
  }
  stride[rank - 1] = elementSize;
  for (d = rank - 2; d >= 0; --d)
    stride[d] = stride[d + 1] * (size_t)extents[d + 1];
  k = rank - 1;
  while (k > 0 && lower[k] == 0 && (long long)count[k] == extents[k])
    --k;
  width = count[k] * stride[k];
  inner = (size_t)lower[k] * stride[k];
  if (k == 0) {
    copySlab(p, toDevice, buffer, host, inner, width, width, 1, where);
    return;
  }
  for (;;) {
    size_t offset = inner + (size_t)lower[k - 1] * stride[k - 1];
    for (d = 0; d + 1 < k; ++d)
      offset += ((size_t)lower[d] + index[d]) * stride[d];
    copySlab(p, toDevice, buffer, host, offset, stride[k - 1], width,
             count[k - 1], where);
    d = k - 2;
    while (d >= 0 && ++index[d] == count[d])
      index[d--] = 0;
    if (d < 0)
      break;
  }
}

void polycuda_cl_copy_box_to_device(polycuda_cl_program *p, void *buffer,
                                    const void *host, size_t element_size,
                                    int rank, const long long *extents,
                                    const long long *lower,
                                    const long long *upper,
                                    const char *where) {
  copyBox(p, 1, (cl_mem)buffer, (char *)host, element_size, rank, extents,
          lower, upper, where);
}

void polycuda_cl_copy_box_to_host(polycuda_cl_program *p, void *host,
                                  void *buffer, size_t element_size, int rank,
                                  const long long *extents,
                                  const long long *lower,
                                  const long long *upper, const char *where) {
  copyBox(p, 0, (cl_mem)buffer, (char *)host, element_size, rank, extents,
          lower, upper, where);
}

/* The `count` boxes whose bounds are lower[b * rank + d], upper[...]. */
static void copyBoxes(polycuda_cl_program *p, int toDevice, cl_mem buffer,
                      char *host, size_t elementSize, int rank,
                      const long long *extents, int count,
                      const long long *lower, const long long *upper,
                      const char *where) {
  int b;
  for (b = 0; b < count; ++b)
    copyBox(p, toDevice, buffer, host, elementSize, rank, extents,
            lower + (size_t)b * rank, upper + (size_t)b * rank, where);
}

void polycuda_cl_copy_boxes_to_device(polycuda_cl_program *p, void *buffer,
                                      const void *host, size_t element_size,
                                      int rank, const long long *extents,
                                      int count, const long long *lower,
                                      const long long *upper,
                                      const char *where) {
  copyBoxes(p, 1, (cl_mem)buffer, (char *)host, element_size, rank, extents,
            count, lower, upper, where);
}

void polycuda_cl_copy_boxes_to_host(polycuda_cl_program *p, void *host,
                                    void *buffer, size_t element_size,
                                    int rank, const long long *extents,
                                    int count, const long long *lower,
                                    const long long *upper,
                                    const char *where) {
  copyBoxes(p, 0, (cl_mem)buffer, (char *)host, element_size, rank, extents,
            count, lower, upper, where);
}

static cl_kernel getKernel(polycuda_cl_program *p, const char *kernelName,
                           const char *where) {
  char detail[256];
  cl_int err = CL_SUCCESS;
  cl_kernel kernel;
  size_t i;
  for (i = 0; i < p->numKernels; ++i)
    if (strcmp(p->kernels[i].name, kernelName) == 0)
      return p->kernels[i].kernel;

  kernel = clCreateKernel(p->program, kernelName, &err);
  if (err != CL_SUCCESS) {
    snprintf(detail, sizeof(detail), "kernel '%s'", kernelName);
    failWith(where, "clCreateKernel", err, detail);
  }
  if (p->numKernels == p->kernelCapacity) {
    size_t capacity = p->kernelCapacity ? 2 * p->kernelCapacity : 8;
    polycuda_cl_cached_kernel *grown = (polycuda_cl_cached_kernel *)realloc(
        p->kernels, capacity * sizeof(*grown));
    if (!grown)
      failWithMessage(where, "out of host memory in the OpenCL runtime");
    p->kernels = grown;
    p->kernelCapacity = capacity;
  }
  p->kernels[p->numKernels].name = copyString(kernelName, where);
  p->kernels[p->numKernels].kernel = kernel;
  ++p->numKernels;
  return kernel;
}

void polycuda_cl_launch(polycuda_cl_program *p, const char *kernel_name,
                        unsigned work_dim, const size_t *global_size,
                        const size_t *local_size, unsigned num_args,
                        const polycuda_cl_arg *args, const char *where) {
  char detail[256];
  cl_kernel kernel = getKernel(p, kernel_name, where);
  cl_int err;
  unsigned i;

  for (i = 0; i < num_args; ++i) {
    err = clSetKernelArg(kernel, i, args[i].size, args[i].value);
    if (err != CL_SUCCESS) {
      snprintf(detail, sizeof(detail), "kernel '%s', argument %u", kernel_name,
               i);
      failWith(where, "clSetKernelArg", err, detail);
    }
  }

  snprintf(detail, sizeof(detail), "kernel '%s'", kernel_name);
  err = clEnqueueNDRangeKernel(p->queue, kernel, work_dim, NULL, global_size,
                               local_size, 0, NULL, NULL);
  if (err != CL_SUCCESS)
    failWith(where, "clEnqueueNDRangeKernel", err, detail);
  if (!isEnvFlagSet("POLYCUDA_SYNC_LAUNCHES"))
    return;
  err = clFinish(p->queue);
  if (err != CL_SUCCESS)
    failWith(where, "clFinish", err, detail);
}

void polycuda_cl_finish(polycuda_cl_program *p, const char *where) {
  checkCall(clFinish(p->queue), where, "clFinish");
}
