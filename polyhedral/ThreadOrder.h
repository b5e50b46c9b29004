//===- ThreadOrder.h - Column order of a kernel's blocks --------*- C++ -*-===//
//
// Part of stage 3 (GPU mapping): the order in which a kernel's blocks are
// launched (`--thread-order`). In linear order the hardware runs the blocks
// of a 2-D grid row by row over the full width of the parallel space; in
// column order (Prasetya 2022) the member on x is strip-mined into columns
// of W elements, the column is the outermost loop, and the blocks of one
// column run row by row, so that consecutive blocks share the data of a
// narrow strip (B's columns in a matmul) instead of sweeping all of it.
//
// As a schedule transformation of the kernel's tile band: with x and y the
// block indices along the members on hardware x and y (relative to the
// first tile) and Wb the column width in blocks,
//
//   c = floor(x / Wb)                       the column
//   q = Wb * y + (x mod Wb)                 the position inside it
//       (zigzag, odd y: Wb * y + Wb - 1 - (x mod Wb))
//
// the tile band becomes [c, q] (with the member on z outermost), the grid
// (Wb * rows, columns[, z]) and each block computes its (x, y) from its
// grid position with the inverse, which isl derives and prints. The map
// (x, y) -> (c, q) is a bijection of the non-negative quadrant, so every
// instance runs exactly once; the blocks are the tiles of coincident
// members, so any order of them is legal. When Wb does not divide the
// number of blocks along x, the grid positions of the last column beyond
// the width have no instances: their blocks return at once (isl cannot
// divide by the narrower width of the last column, a parameter).
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_THREADORDER_H
#define POLYCUDA_POLYHEDRAL_THREADORDER_H

#include "DeviceModel.h"
#include "GpuProgram.h"

#include <string>
#include <vector>

namespace polycuda::polyhedral {

/// What `--thread-order` asks for.
struct ThreadOrderRequest {
  enum class Kind { Linear, Column, Auto };
  Kind kind = Kind::Linear;
  unsigned width = 0; ///< Column: W in elements of the member on x
  bool zigzag = false;
};

/// Parses `linear`, `column:W`, `column:W,zigzag` or `auto`. On error
/// returns false and says why in `error`.
bool parseThreadOrder(const std::string &text, ThreadOrderRequest &request,
                      std::string &error);

/// The order of `kernel`'s blocks for `request` (its mapping, block sizes
/// and accesses must be chosen). Column order needs two mapped members; a
/// width that is not a multiple of the block size along x is rounded up
/// to one (the reason says so).
ThreadOrder chooseThreadOrder(const Scop &scop, const Kernel &kernel,
                              const ThreadOrderRequest &request,
                              const DeviceModel &device);

/// `{ [x, y] -> [c, q] }`: block (x, y) (x, y >= 0, relative to the first
/// tile) to its column and its position inside the column, for columns of
/// `widthBlocks` blocks. A bijection of the non-negative quadrant.
isl::map columnOrderMap(isl::ctx ctx, unsigned widthBlocks, bool zigzag);

/// The band members of the column order from the relative block indices
/// of the members on x, y and z (`z` null without one): [z,] c, q.
isl::union_pw_aff_list columnBand(const isl::union_pw_aff &x,
                                  const isl::union_pw_aff &y,
                                  const isl::union_pw_aff &z,
                                  unsigned widthBlocks, bool zigzag);

/// Per mapped member of `kernel` (column order), its block index as a
/// function of the grid positions, the parameters `gridNames` (x, y[, z]).
std::vector<isl::pw_aff> blocksOfGrid(const Kernel &kernel,
                                      const std::vector<std::string> &gridNames);

/// The grid extents (x, y[, z]) of a column-ordered kernel from the number
/// of blocks along each mapped member (`blocks`, in member order).
std::vector<isl::pw_aff> columnGrid(const Kernel &kernel,
                                    const std::vector<isl::pw_aff> &blocks);

/// The member mapped to hardware dimension `hw` of `kernel`.
unsigned memberOnHardware(const Kernel &kernel, unsigned hw);

} // namespace polycuda::polyhedral

#endif
