//===- RuntimeNames.h - Entry points of runtime/ the printers call -*- C++ -*-===//
//
// The printers name the runtime only through these constants; a test checks
// each against the runtime headers.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_TRANSLATOR_RUNTIMENAMES_H
#define POLYCUDA_TRANSLATOR_RUNTIMENAMES_H

namespace polycuda::translator::runtime {

inline constexpr const char *kCudaHeader = "polycuda_cuda.h";
inline constexpr const char *kCudaAlloc = "polycuda_cuda_alloc";
inline constexpr const char *kCudaFree = "polycuda_cuda_free";
inline constexpr const char *kCudaCopyToDevice = "polycuda_cuda_copy_to_device";
inline constexpr const char *kCudaCopyToHost = "polycuda_cuda_copy_to_host";
inline constexpr const char *kCudaCopyBoxToDevice =
    "polycuda_cuda_copy_box_to_device";
inline constexpr const char *kCudaCopyBoxToHost =
    "polycuda_cuda_copy_box_to_host";
inline constexpr const char *kCudaCopyBoxesToDevice =
    "polycuda_cuda_copy_boxes_to_device";
inline constexpr const char *kCudaCopyBoxesToHost =
    "polycuda_cuda_copy_boxes_to_host";
inline constexpr const char *kCudaMarkWritten = "polycuda_cuda_mark_written";
inline constexpr const char *kCudaCopyToConstant =
    "polycuda_cuda_copy_to_constant";
inline constexpr const char *kCudaBeginScop = "polycuda_cuda_begin_scop";
inline constexpr const char *kCudaEndScop = "polycuda_cuda_end_scop";
inline constexpr const char *kCudaCheckLaunch = "polycuda_cuda_check_launch";
inline constexpr const char *kCudaSynchronize = "polycuda_cuda_synchronize";
inline constexpr const char *kCudaPreload = "polycuda_cuda_preload";
inline constexpr const char *kCudaPersistentBlocks =
    "polycuda_cuda_persistent_blocks";
inline constexpr const char *kCudaLaunchPersistent =
    "polycuda_cuda_launch_persistent";

inline constexpr const char *kOpenCLHeader = "polycuda_opencl.h";
inline constexpr const char *kCLProgram = "polycuda_cl_program";
inline constexpr const char *kCLArg = "polycuda_cl_arg";
inline constexpr const char *kCLCreate = "polycuda_cl_create";
inline constexpr const char *kCLAlloc = "polycuda_cl_alloc";
inline constexpr const char *kCLFree = "polycuda_cl_free";
inline constexpr const char *kCLCopyToDevice = "polycuda_cl_copy_to_device";
inline constexpr const char *kCLCopyToHost = "polycuda_cl_copy_to_host";
inline constexpr const char *kCLCopyBoxToDevice =
    "polycuda_cl_copy_box_to_device";
inline constexpr const char *kCLCopyBoxToHost = "polycuda_cl_copy_box_to_host";
inline constexpr const char *kCLCopyBoxesToDevice =
    "polycuda_cl_copy_boxes_to_device";
inline constexpr const char *kCLCopyBoxesToHost =
    "polycuda_cl_copy_boxes_to_host";
inline constexpr const char *kCLLaunch = "polycuda_cl_launch";
inline constexpr const char *kCLFinish = "polycuda_cl_finish";

/// Every name above that is a function or type, for the consistency test.
inline constexpr const char *kAllNames[] = {
    kCudaAlloc,      kCudaFree,     kCudaCopyToDevice, kCudaCopyToHost,
    kCudaCheckLaunch, kCudaSynchronize, kCLProgram,   kCLArg,
    kCLCreate,       kCLAlloc,      kCLFree,           kCLCopyToDevice,
    kCLCopyToHost,   kCLLaunch,     kCLFinish,         kCudaCopyBoxToDevice,
    kCudaCopyBoxToHost, kCudaBeginScop, kCudaEndScop,  kCLCopyBoxToDevice,
    kCLCopyBoxToHost, kCudaPersistentBlocks, kCudaLaunchPersistent,
    kCudaMarkWritten, kCudaCopyToConstant,
    kCudaCopyBoxesToDevice, kCudaCopyBoxesToHost, kCLCopyBoxesToDevice,
    kCLCopyBoxesToHost, kCudaPreload};

} // namespace polycuda::translator::runtime

#endif
