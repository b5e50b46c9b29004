//===- SharedMemory.h - Shared-memory tiles of kernels ---------*- C++ -*-===//
//
// Stage 4, before register accumulators: GpuProgram -> GpuProgram with
// arrays that the threads of a block reuse read through shared memory.
// Input: the kernels, their mapping and access patterns. Output: per kernel
// `sharedLoop`, `sharedTileSize`, `sharedTiles`, `noShared`, and the
// kernel's rewritten tree (`deviceTree`).
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_SHAREDMEMORY_H
#define POLYCUDA_POLYHEDRAL_SHAREDMEMORY_H

#include "DeviceModel.h"
#include "GpuProgram.h"
#include "MappingPolicy.h"

#include <optional>
#include <vector>

namespace polycuda::polyhedral {


/// The bank conflict degree of a warp whose thread k accesses the element
/// at `k * stride` (elements of `elementBytes` bytes): the most distinct
/// words that one bank must serve (1: no conflict; the same word for
/// several threads is a broadcast).
unsigned conflictDegree(long stride, unsigned elementBytes);

/// How far apart (per array dimension, in elements) two neighbouring
/// threads along threadIdx.x access an array; none when not constant.
using ThreadStep = std::optional<std::vector<long>>;

/// The padding p in 0..kBanks (elements added to each row of a shared
/// array of `sizes`) that minimises the sum over `steps` of the conflict
/// degree (Baskaran et al., Algorithm 2); the smallest such p. `totals`,
/// if given, receives the sum for each p.
unsigned choosePadding(const std::vector<long> &sizes, unsigned elementBytes,
                       const std::vector<ThreadStep> &steps,
                       std::vector<unsigned> *totals = nullptr);

/// For each kernel with one or two mapped members: arrays the kernel only
/// reads, with reuse across the threads of a block, are copied into shared
/// arrays, per tile of the member after the mapped ones if the band has one
/// (a loop each thread runs, gemm's k: tiled by `tileSize`, its tile loop
/// above the threads), else once per block (a stencil's neighbourhood) (copy statements `polycuda_offsets_N`,
/// `polycuda_copy_N`, barriers `polycuda_sync_0` and `polycuda_sync_1`).
/// Also arrays without reuse that the kernel reads uncoalesced
/// (SharedTile::forCoalescing): once per block in kernels without a loop to
/// tile unless `stage` is Off, per tile as well if it is All.
/// `neighbourhoodMin` replaces kMinNeighbourhoodReferences.
/// The steps of each tiled wavefront's kernel (Kernel::Steps): a barrier
/// after each, and with `stage` the array it writes in a shared tile of
/// the block's footprint, copied in before the steps and the elements the
/// block writes copied back after them (see SharedMemory.cpp).
void promoteSteps(GpuProgram &program, bool stage);

void promoteToShared(GpuProgram &program, unsigned tileSize = 32,
                     StageUncoalesced stage = StageUncoalesced::Blocks,
                     unsigned neighbourhoodMin = kMinNeighbourhoodReferences);


/// Arrays that the scop only reads, through affine subscripts, whose
/// accessed elements (from the first, in the array's order) fit in
/// kConstantArrayBytes, go to constant memory for the kernels whose every
/// reference to them reads one element for all the threads of a block
/// (broadcast along each mapped member: a stencil's weights W[a][b] in
/// loops inside the thread): the constant cache serves a warp's uniform
/// read in one access, and shared memory keeps its room for tiles. Fills
/// GpuProgram::constants and each kernel's constantArrays; promoteToShared
/// then leaves those arrays alone.
void placeInConstantMemory(GpuProgram &program);

} // namespace polycuda::polyhedral

#endif
