//===- KernelMapping.h - How one kernel runs on the grid -------*- C++ -*-===//
//
// The record of a kernel's mapping onto blocks and threads: the host loops
// around its launch, the mapped members with their block sizes, hardware
// dimensions and register tiles, the tiles, the order of the blocks and
// why. The mapping stage (GpuMapping*.cpp) makes it; afterwards it is
// immutable: Kernel::mapping and the kernel's mark (KernelMark) hold it as
// `std::shared_ptr<const KernelMapping>`, and later passes and the
// printers only read it.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_KERNELMAPPING_H
#define POLYCUDA_POLYHEDRAL_KERNELMAPPING_H

#include <isl/cpp.h>

#include <optional>
#include <string>
#include <vector>

namespace polycuda::polyhedral {

/// The order in which a kernel's blocks are launched (`--thread-order`).
/// Linear: the grid has one dimension per mapped member and the hardware
/// runs the blocks row by row over the full width. Column: the member on x
/// is strip-mined into columns of `widthBlocks` blocks (`width` elements);
/// the grid's x runs through the blocks of one column row by row (reversed
/// in odd rows with `zigzag`), its y over the columns, its z (3 mapped
/// members) over the member on z. See ThreadOrder.h.
struct ThreadOrder {
  bool column = false;
  unsigned width = 0;       ///< elements (threads) along x per column
  unsigned widthBlocks = 0; ///< blocks along x per column
  bool zigzag = false;
  bool automatic = false;   ///< chosen by `--thread-order=auto`
  /// `--thread-order=linear` (the default): nothing was chosen, and the
  /// report gives no reason.
  bool byDefault = false;
  /// Why this order; the report words it with the numbers below.
  enum class Why {
    None,          ///< not chosen: a kernel that the mapping left alone
    Default,       ///< `--thread-order=linear` (the default)
    OneThread,     ///< no mapped member
    OneDimension,  ///< one mapped member: column order needs two
    Requested,     ///< `--thread-order=column:W`
    Reduction,     ///< a reduction kernel: its lanes are one block
    Wavefront,     ///< a wavefront's tiles, in any order
    Neighbourhood, ///< auto: large blocks of a neighbourhood, one wide
    NoRowReuse,    ///< auto: no reference that every row of blocks reads
    UnknownSize,   ///< auto: the size of `references` is unknown
    FitsL1,        ///< auto: linear's footprint fits L1
    ColumnL1,      ///< auto: a column's footprint fits L1
    ColumnL2,      ///< auto: linear's exceeds the L2 share, a column's not
    NoWidth,       ///< auto: no width fits
  };
  Why why = Why::None;
  /// The width asked (Requested) or chosen (auto) before it was rounded
  /// up to whole blocks (`width`).
  unsigned requestedWidth = 0;
  /// auto: the device model's name; the references that every row of
  /// blocks reads along a sequential loop, as `A (S1)`, and the elements
  /// along x (a row's width); Neighbourhood: the block's threads and the
  /// blocks an SM holds.
  std::string device;
  std::vector<std::string> references;
  long rowWidth = 0;
  unsigned threads = 0, blocksPerSm = 0;
  /// auto's cache model, in bytes (0 when not evaluated): the data reused
  /// between consecutive rows of blocks in linear order, the same in one
  /// column of `width`, and the cache budgets it was compared with.
  double linearFootprint = 0, columnFootprint = 0;
  double l1Budget = 0, l2Budget = 0;
};

/// How a kernel's block size was chosen (BlockSizes.h). Vectors are in
/// hardware order x, y, z, one entry per mapped member.
struct BlockSizing {
  enum class Source {
    Default, ///< the default for the number of mapped members
    Shrunk,  ///< the default made smaller to give blocks to more SMs
    Sizes,   ///< `--sizes`
  };
  Source source = Source::Default;
  /// The default (or `--sizes`) block, the same halved (z first) to at
  /// most `maxThreadsPerBlock` threads, and the block chosen.
  std::vector<unsigned> requested;
  std::vector<unsigned> fitted;
  std::vector<unsigned> chosen;
  /// Per hardware dimension, a bound of the number of iterations of the
  /// member on it per launch; nullopt where isl finds no finite one (or
  /// with `--sizes`, where it is not computed).
  std::vector<std::optional<long>> extentBound;
  /// Blocks per launch at most, from the bounds, for `requested`,
  /// `fitted` and `chosen`; nullopt without a bound on every mapped member.
  std::optional<long> requestedBlocks;
  std::optional<long> fittedBlocks;
  std::optional<long> chosenBlocks;
  /// The device numbers the decision was made with.
  unsigned multiprocessors = 0;
  unsigned warpSize = 0;
  unsigned maxThreadsPerBlock = 0; ///< of the block and of an SM, the least
  /// What else decided the block (the report words it).
  enum class Purpose {
    Fill,          ///< filling the device alone
    Transposition, ///< the rows of a staged transposition's tile
    Wavefront,     ///< a wavefront's tile (Kernel::steps)
    Reduction,     ///< a block reduction's lanes along `laneDim`
  };
  Purpose purpose = Purpose::Fill;
  /// Reduction: the hardware dimension of the lanes, and the iterations of
  /// the parallel loops per launch at most when the lanes were chosen to
  /// fill the device's threads.
  unsigned laneDim = 0;
  std::optional<long> parallelBound;
};

/// A kernel's mapping (see the file comment).
struct KernelMapping {
  /// Number of host schedule dimensions around the launch.
  unsigned hostDepth = 0;
  /// Band members mapped to blocks/threads (0 when the kernel runs on one
  /// thread because its subtree carries dependences everywhere).
  unsigned numMapped = 0;
  /// Per mapped member: block size (= tile size) and hardware dimension
  /// (0 = x, 1 = y, 2 = z).
  std::vector<unsigned> blockSize;
  std::vector<unsigned> hardwareDim;
  /// Per mapped member, the points of a thread along it (register tiling,
  /// MemoryPromotion.h): the tile of the member is `registerTile` times
  /// its block size, and thread t runs points t, t + T, ... of it. All 1
  /// unless the kernel is register tiled.
  std::vector<unsigned> registerTile;
  /// The tile of mapped member `d`: the block size times the register tile.
  unsigned tileSize(unsigned d) const {
    return blockSize[d] * (d < registerTile.size() ? registerTile[d] : 1);
  }
  /// The points of a thread: the product of `registerTile`.
  unsigned pointsPerThread() const {
    unsigned points = 1;
    for (unsigned r : registerTile)
      points *= r;
    return points;
  }
  /// Whether some mapped member has more than one point per thread.
  bool registerTiled() const { return pointsPerThread() > 1; }
  /// How `blockSize` was chosen (default, shrunk to fill the GPU, or
  /// `--sizes`) and why.
  BlockSizing sizing;
  /// The order of the blocks. With column order the grid's extents and
  /// positions `g` are in grid order (x, y, z), and `blockOfGrid[d]` is the
  /// block index b_d of mapped member d as a function of the parameters
  /// g0, g1, (g2): the inverse of the column order (ThreadOrder.h).
  ThreadOrder order;
  std::vector<isl::pw_aff> blockOfGrid;
  /// The tiles of the mapped members, `{ S[i] -> [floor(s/T)] }`: the
  /// band of the blocks in linear order. The kernel's AST, which runs one
  /// block, is generated with it whatever the order (its value is fixed by
  /// the block filter; a zigzag's piecewise position would make isl
  /// generate a loop for it).
  isl::multi_union_pw_aff tiles;
  /// The hardware grid dimension that launch extent `k` (the AST's launch
  /// argument k) goes to.
  unsigned gridDimension(unsigned k) const {
    return order.column ? k : hardwareDim[k];
  }
  /// Per mapped member, its schedule `{ S[i] -> [s] }`.
  std::vector<isl::union_map> memberSchedules;
  /// Per mapped member: the index of the first tile, `floor(min s / T)`.
  /// When `globalOffset[d]`, `offsets[d]` is `[params] -> { [o] }`, the same
  /// for every host iteration; otherwise it is a function of the host
  /// schedule `{ [c] -> [o] }`.
  std::vector<bool> globalOffset;
  std::vector<isl::pw_aff> offsets;
  /// The schedule of the kernel's subtree `{ S[i] -> [s] }`, the mapped
  /// members first (before they are tiled onto blocks and threads).
  isl::union_map localSchedule;
};

} // namespace polycuda::polyhedral

#endif
