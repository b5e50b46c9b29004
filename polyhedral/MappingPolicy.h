//===- MappingPolicy.h - The numbers the mapping chooses by -----*- C++ -*-===//
//
// Every heuristic constant of the GPU mapping and of memory promotion, in
// one place: the mechanisms (GpuMapping*.cpp, MemoryPromotion.cpp,
// SharedMemory.cpp) read their thresholds and tile shapes here. The facts
// of the GPU (banks, registers, shared memory) are in DeviceModel.h. Why
// each value, with the measurements that chose it: docs/mapping.md, "The
// mapping's numbers".
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_MAPPINGPOLICY_H
#define POLYCUDA_POLYHEDRAL_MAPPINGPOLICY_H

namespace polycuda::polyhedral {

//===- Register tiles (gemm's shape) ---------------------------------------===//

/// Blocks per SM that the model's register tiles must leave: fewer, and the
/// points per thread do not make up for the warps missing to hide latency.
inline constexpr unsigned kBlocksPerSmForRegisterTiles = 6;
/// Registers a thread of a jammed register tile may use, so that two
/// blocks of 256 threads fit on one SM.
inline constexpr unsigned kJammedRegisters = 128;

//===- Transpositions -------------------------------------------------------===//

/// Rows of a transposition's staged tile (along y): with the default 32 x 8
/// threads, each thread copies and writes 4 of them.
inline constexpr unsigned kTranspositionTileRows = 32;

//===- Reductions -----------------------------------------------------------===//

/// A reduction beside two parallel members gets lanes only when each
/// element's reduction has at least this many iterations, and the parallel
/// members leave room for at least kLanesBesideTwoMembers lanes per element
/// in the device's threads.
inline constexpr long kMinIterationsPerElementForLanes = 1024;
inline constexpr long kLanesBesideTwoMembers = 4;
/// Iterations of the reduction loop that each lane runs together
/// (BlockReduction::jam), and the lanes then, where a read of the reduction
/// does not depend on that loop.
inline constexpr unsigned kLaneJam = 4;
inline constexpr unsigned kJammedLanes = 8;

//===- Stencils -------------------------------------------------------------===//

/// A stencil's register tile (Kernel::blockedPoints): consecutive points
/// per thread along y, where one point reads at least kStencilReadsPerPoint
/// elements of an array the kernel only reads, in a window several rows
/// high.
inline constexpr unsigned kStencilPointsY = 4;
inline constexpr long kStencilReadsPerPoint = 9;
/// References of an array (a stencil's points) from which a block copies
/// their neighbourhood into shared memory: fewer hit the L1 cache as well.
inline constexpr unsigned kMinNeighbourhoodReferences = 9;

//===- Tiled wavefronts -----------------------------------------------------===//

/// Tiles of a wavefront (Kernel::Steps): the values of the wavefront member
/// per tile, and the tile of the parallel members (the block).
inline constexpr unsigned kWavefrontSteps = 32;
inline constexpr unsigned kWavefrontTile = 16;

//===- Private copies and constant memory -----------------------------------===//

/// Elements a thread may keep of a private copy (PrivateCopy).
inline constexpr long kPrivateElements = 64;
/// Bytes of one array, and of all arrays of a scop, that
/// placeInConstantMemory puts in constant memory (64 KB in CUDA; its cache
/// holds a few KB per SM).
inline constexpr long kConstantArrayBytes = 8192;
inline constexpr long kConstantScopBytes = 32768;

} // namespace polycuda::polyhedral

#endif
