//===- BlockSizes.h - Block sizes that fill the GPU -------------*- C++ -*-===//
//
// Part of stage 3 (GPU mapping): the block size of a kernel that `--sizes`
// does not set. Input: the kernel's instances, host schedule and mapped
// members (GpuMapping), the default block and the DeviceModel. Output: a
// BlockSizing record (GpuProgram.h). The default block stays unless isl
// bounds every mapped member's number of iterations per launch and the
// bounds give fewer blocks than the GPU has SMs; the block is then halved
// (y and z first, then x, never below one warp) until the launch has a
// block per SM. Only the sizes change: any block size computes the same
// result, so the bounds, which assume every array reference is within its
// array's extents, decide nothing else.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_BLOCKSIZES_H
#define POLYCUDA_POLYHEDRAL_BLOCKSIZES_H

#include "DeviceModel.h"
#include "GpuProgram.h"

#include <optional>
#include <vector>

namespace polycuda::polyhedral {

/// The instances of `instances` (`[params] -> { S[i] }`) whose affine
/// array references all lie within their arrays' declared extents. A C
/// program that runs any other instance reads or writes outside an array;
/// this set bounds loops whose bounds are parameters (trmm's `j < n` with
/// `B[M][N]`). References with a non-affine subscript and dimensions
/// without a declared extent (`A[][M]`) constrain nothing.
isl::union_set instancesInBounds(const Scop &scop,
                                 const isl::union_set &instances);

/// A bound of the number of values of the mapped member `member`
/// (`{ S[i] -> [s] }`) in one launch: max s - min s + 1 over `instances`
/// for the same host iteration (`hostSchedule`, `{ S[i] -> [c] }`), the
/// largest over all parameter values and host iterations. nullopt when
/// `instances` is empty or the number has no finite bound.
std::optional<long> boundExtent(const isl::union_set &instances,
                                const isl::union_map &hostSchedule,
                                const isl::union_map &member);

/// The block for `requested` (the default, hardware order x, y, z) given
/// the bound of the extent on each hardware dimension: `requested` (halved
/// to `device.maxThreadsPerBlock` and `maxThreadsPerMultiprocessor` if
/// larger) when a bound is missing or
/// the bounds give at least `device.multiprocessors` blocks; otherwise the
/// block halved, z first, then y, then x, until the bounds give that many
/// blocks or it has `device.warpSize` threads.
BlockSizing fitBlockToDevice(const std::vector<unsigned> &requested,
                             const std::vector<std::optional<long>> &bounds,
                             const DeviceModel &device);

/// The record of a block set by `--sizes` (hardware order).
BlockSizing blockFromOption(const std::vector<unsigned> &sizes);

} // namespace polycuda::polyhedral

#endif
