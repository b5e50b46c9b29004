//===- GpuMapping.h - Kernels, blocks and threads from a schedule -*- C++ -*-===//
//
// Stage 3: schedule tree -> GpuProgram (kernels and their mapping).
// Input: a legal schedule tree with coincident band members.
// Output: the tree with each kernel's subtree below a mark named after the
// kernel, its mapped members tiled onto blocks and threads (GpuProgram.h);
// for each kernel its instances, mapped members, block sizes (fitted to
// the DeviceModel, BlockSizes.h) and offsets.
// Outermost bands with leading coincident members become kernels (up to three
// members mapped to blocks and threads); sequential bands above them stay on
// the host; subtrees without any parallelism become one-thread kernels, so
// that data never leaves the device between kernels.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_GPUMAPPING_H
#define POLYCUDA_POLYHEDRAL_GPUMAPPING_H

#include "GpuProgram.h"
#include "ThreadOrder.h"

#include <map>
#include <string>

namespace polycuda::polyhedral {

struct GpuMappingOptions {
  /// Block sizes per kernel, in hardware order x, y, z, keyed by the
  /// kernel's stable name (`S0_S1`) or its position (`kernel0`).
  std::map<std::string, std::vector<unsigned>> blockSizes;
  /// Defaults per number of mapped members, in hardware order x, y, z;
  /// made smaller for small parallel spaces (BlockSizes.h) unless
  /// `fitDefaults` is false (`--sizes=all=...` sets them for every kernel).
  std::vector<unsigned> default1D = {256};
  std::vector<unsigned> default2D = {32, 8};
  std::vector<unsigned> default3D = {32, 4, 2};
  bool fitDefaults = true;
  /// The order of the blocks of kernels with two or more mapped members
  /// (`--thread-order`).
  ThreadOrderRequest threadOrder;
  /// Reductions whose iterations the threads of a block share
  /// (`--reductions`, Reductions.h).
  bool reductions = true;
  /// Scalar code on the host (`--host-scalars`; see mapToGpu): without,
  /// it runs in one-thread kernels, as the rest of the scop's serial code.
  bool hostScalars = true;
  /// A sequential loop that a one-thread kernel would run goes to the host
  /// when a reduction inside it has at least this many iterations per
  /// launch (or no bound at translation time): its lanes then share them.
  long reductionHostMinIterations = 1024;
  /// Register tiling of kernels with two mapped members, an accumulator
  /// across one more loop and reuse across threads (gemm): each thread
  /// computes several points of each mapped member (`--register-tiles`;
  /// `--no-registers` turns it off). `registerTile` (hardware order x, y)
  /// replaces the model's choice for every kernel that qualifies.
  bool registerTiles = true;
  std::vector<unsigned> registerTile;
  /// Wavefronts of one statement run as tiles (`--tiled-wavefronts`): a
  /// host loop over a skewed hyperplane (seidel-2d's 4t + 2i + j) whose
  /// parallel members, skewed until no dependence distance is negative,
  /// tile with it; one launch per wavefront of tiles, each block running
  /// its tile's steps with a barrier between them. isl's code for the
  /// tiles takes most of a second (kTiledWavefrontNote).
  bool tiledWavefronts = true;
  /// Reads that shared memory will stage when they are uncoalesced
  /// (`--stage-uncoalesced`, SharedMemory.h): in the kernels where it
  /// stages them, threadIdx.x goes first to the member that coalesces the
  /// references staging cannot fix (writes, and reads of arrays the kernel
  /// writes); a transposition writes coalesced and stages its read.
  StageUncoalesced stageUncoalesced = StageUncoalesced::Blocks;
  /// The GPU that block sizes and `auto` thread order are fitted to.
  DeviceModel device;
};

/// The note (noteInChild, Isolated.h) of a translation that tiles a
/// wavefront: over its processor-time budget, the input is translated
/// again without tiled wavefronts before the cheapest fallbacks.
constexpr unsigned kTiledWavefrontNote = 0;

/// Marks kernels in `program.schedule` and fills `program.kernels` (without
/// ASTs). `program.scop` and `program.schedule` must be set.
///
/// Scalar code stays on the host: statements outside every loop that
/// access only scalars of the user's (a filter's coefficients computed
/// from a parameter, deriche's `k`, `a1`, ..., `c2`) would each be a
/// one-thread kernel with device copies of their scalars. When no other
/// statement writes those scalars or precedes them in a dependence, they
/// are ordered first (isl's order_before; legal: nothing outside them
/// must run before them) and run on the host, on the user's variables;
/// kernels that read the scalars receive their values as arguments
/// (GpuProgram::hostStatements, hostScalars).
///
/// Children of a sequence that would each be a one-thread kernel and
/// follow each other are grouped below one filter first (isl's
/// order_before/order_after, the order kept): one kernel, one launch.
void mapToGpu(GpuProgram &program, const GpuMappingOptions &options);

} // namespace polycuda::polyhedral

#endif
