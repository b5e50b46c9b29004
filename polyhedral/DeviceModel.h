//===- DeviceModel.h - The GPU the kernels are sized for --------*- C++ -*-===//
//
// Part of stage 3 (GPU mapping): the numbers of the target GPU that the
// mapping's decisions read: block sizes (BlockSizes.h) and `auto` thread
// order (ThreadOrder.h). Defaults describe an H100 SXM (sm_90); the
// translator overrides the counts from the command line (`--gpu-sms`, ...).
// Nothing here is printed into generated code: a different GPU runs the
// same code, with other sizes only less well fitted.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_DEVICEMODEL_H
#define POLYCUDA_POLYHEDRAL_DEVICEMODEL_H

#include <string>
#include <vector>

namespace polycuda::polyhedral {

/// The GPU that block sizing and `auto`'s cache model assume.
struct DeviceModel {
  std::string name = "H100";
  /// Streaming multiprocessors: a launch of fewer blocks leaves SMs idle.
  unsigned multiprocessors = 132;
  /// Threads resident on one SM at most, and threads of one block at most:
  /// default blocks larger than either are halved.
  unsigned maxThreadsPerMultiprocessor = 2048;
  unsigned maxThreadsPerBlock = 1024;
  /// Threads of a warp: the smallest block sizing shrinks to.
  unsigned warpSize = 32;
  double l1Bytes = 256.0 * 1024;       ///< L1 / shared memory per SM
  double l2Bytes = 50.0 * 1024 * 1024; ///< L2, shared by every SM
  /// The part of L2 that data reused between rows of blocks may count on
  /// (the rest holds the streamed data and the other arrays).
  double l2Fraction = 0.5;
  /// Column widths (elements) `--thread-order=auto` tries, widest first.
  std::vector<unsigned> widths = {128, 64, 32};
};

/// Facts of every GPU the printed code runs on, which the mapping counts
/// with (not tuning: MappingPolicy.h).

/// Shared memory as Baskaran et al. (ICS 2008) model it: 32 banks of
/// 4-byte words, a warp of 32 threads along threadIdx.x.
inline constexpr unsigned kBanks = 32;
/// The unit of global memory transactions (an L2 sector).
inline constexpr unsigned kSectorBytes = 32;
/// Static shared memory per block (CUDA, without opting in to more); the
/// phases of a persistent kernel declare theirs together within it.
inline constexpr unsigned kSharedBytes = 48 * 1024;
inline constexpr unsigned long kPersistentSharedBytes = kSharedBytes;
/// Registers of one SM (every GPU since sm_50).
inline constexpr unsigned kRegistersPerSm = 65536;
/// Constant arrays one kernel reads at most: OpenCL passes each as a
/// `__constant` argument, of which a device takes at least 8
/// (CL_DEVICE_MAX_CONSTANT_ARGS).
inline constexpr unsigned kConstantArraysPerKernel = 8;

} // namespace polycuda::polyhedral

#endif
