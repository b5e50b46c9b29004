//===- GpuMappingInternal.h - The mapper, shared by its files --*- C++ -*-===//
//
// Internal to stage 3 (see GpuMapping.h): the Mapper that walks the schedule
// tree, marks kernels and maps their bands to blocks and threads, split by
// concern:
//
//   GpuMapping.cpp               the walk, kernel marks, the band tiled and
//                                bound to blocks and threads (mapBand),
//                                the host's scalar code, mapToGpu
//   GpuMappingBlocks.cpp         a kernel's block: --sizes, the defaults
//                                fitted to the device, hardware order
//                                (chooseMapping)
//   GpuMappingReductions.cpp     reductions whose lanes share a loop, their
//                                initial values split off, one-thread
//                                kernels grouped
//   GpuMappingWavefronts.cpp     tiled wavefronts (seidel-2d)
//   GpuMappingRegisterTiles.cpp  several points per thread: register tiles
//                                and stencil points
//
// The heuristics' numbers are in MappingPolicy.h.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_GPUMAPPINGINTERNAL_H
#define POLYCUDA_POLYHEDRAL_GPUMAPPINGINTERNAL_H

#include "GpuMapping.h"

#include "BlockSizes.h"
#include "Check.h"
#include "Explain.h"
#include "IslExtras.h"
#include "Isolated.h"
#include "MappingPolicy.h"
#include "Reductions.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace polycuda::polyhedral::mapping {

/// Whether a band at or below `node` has a coincident (parallel) member.
bool hasCoincidentMember(const isl::schedule_node &node);

/// How many of the band's first members are coincident.
unsigned leadingCoincident(const isl::schedule_node &band);

/// prefix0, prefix1, ..., n names.
std::vector<std::string> numberedNames(const std::string &prefix, unsigned n);

/// The arrays that `refs` write.
std::set<unsigned> writtenArrays(const Scop &scop,
                                 const std::vector<ReferenceAccess> &refs);

/// What Mapper::mapBand builds member by member: the instances that each
/// block and each thread run, those whose lanes own a reduction's
/// element, the band of the blocks' tiles (`tiles`, and relative to the
/// first tile) and a tiled wavefront's tiles.
struct BandBinding {
  BandBinding(const isl::union_set &instances, isl::ctx ctx, unsigned mapped)
      : blocks(instances), threads(instances), owners(instances),
        tiles(ctx, mapped) {}
  isl::union_set blocks, threads, owners;
  isl::union_pw_aff_list tiles;
  std::vector<isl::union_pw_aff> relative, stepTiles;
};

class Mapper {
public:
  Mapper(GpuProgram &program, const GpuMappingOptions &options)
      : program(program), options(options), scop(*program.scop) {}

  isl::schedule_node visit(isl::schedule_node node);

private:
  GpuProgram &program;
  const GpuMappingOptions &options;
  const Scop &scop;
  /// Per reduction statement, the statements splitReductionInits ordered
  /// before it.
  std::map<std::string, std::string> initsSplitOff;
  /// The mapping records of the kernels this mapper made, by Kernel::id:
  /// the only writable references to them (Kernel::mapping and the marks
  /// hold them read-only).
  std::map<unsigned, std::shared_ptr<KernelMapping>> mappings;
  KernelMapping &mappingOf(const Kernel &kernel) {
    return *mappings.at(kernel.id);
  }

  /// trmm's band [j, i, k]: one parallel member, then a sequential one,
  /// then the loop of a reduction that every statement updates (B[i][j] +=
  /// A[k][i] * B[k][j]), permutable. Mapped as it is, each thread runs
  /// both loops, and the parallel member gives too few blocks for the SMs
  /// (trmm: 38 warps). The sequential member then goes to the host, [i]
  /// and below it [j, k], so that the reduction's lanes share k in each
  /// launch (or phase of a persistent kernel). Legal: any order of a
  /// permutable band's members is, and the reduction is checked as
  /// findReduction checks it. Returns the host band, or nothing.
  std::optional<isl::schedule_node>
  hoistAroundReduction(const isl::schedule_node &node, unsigned parallel) const;

  /// Whether the subtree at `node` (a child of a sequence) would be a
  /// one-thread kernel of its own.
  bool oneThread(const isl::schedule_node &node) const;

  /// Whether the subtree at `node` (below its filter) could be a kernel
  /// whose lanes share a reduction (findReduction with no parallel
  /// member): one band of one member over statements only, every
  /// statement a reduction's update. Such a kernel is not grouped with
  /// others, which would lose its lanes (gramschmidt's norm).
  bool mayBeReduction(isl::schedule_node node) const;

  /// A sequence below `node` with a run of two or more consecutive
  /// children that would each be a one-thread kernel, not all of them; a
  /// null node when there is none. Subtrees that are one kernel already,
  /// and the host's scalar code, are not searched.
  isl::schedule_node runToGroup(const isl::schedule_node &node) const;

public:
  /// The tree at `root` with every run of two or more consecutive children
  /// of a sequence that would each be a one-thread kernel grouped below
  /// one filter (a sequence of its own, which becomes one kernel: one
  /// launch instead of several). isl's order_before and order_after split
  /// the sequence at the run's ends; the statements keep their order, so
  /// it is legal.
  isl::schedule_node groupOneThreadKernels(isl::schedule_node root);

  /// The tree at `root` with the statements that set a reduction's
  /// elements before it ordered before the reduction, where isl fused them
  /// into the reduction's band (mv's `y[i] = 0` with `y[i] += A[i][j] *
  /// x[j]`, band [i; 0 | j]): they become a kernel of their own, and the
  /// reduction a kernel whose lanes share its loop (findReduction), instead
  /// of one thread per element running the whole loop. isl's order_before
  /// splits the band; legal because no dependence within one iteration of
  /// the loops around the band goes from the reduction to them.
  isl::schedule_node splitReductionInits(isl::schedule_node root);

private:
  /// The first band below `node` that splitReductionInits splits, with
  /// its `inits` (initsOf).
  isl::schedule_node bandWithInits(const isl::schedule_node &node,
                                   isl::union_set &inits) const;

  /// For a band of at most one parallel member and one more over
  /// statements only, some of them updates of a reduction and the others
  /// writes of the arrays the updates reduce (their initial values): the
  /// others, if no dependence within one iteration of the outer loops
  /// goes from an update to them.
  std::optional<isl::union_set> initsOf(const isl::schedule_node &node) const;

  /// The sequence below `node` whose first two or more children, not all,
  /// are together `run` (splitting it after them keeps the order), or a
  /// null node.
  static isl::schedule_node findSequenceOf(const isl::schedule_node &node,
                                           const isl::union_set &run);

  /// The block `--sizes` sets for `kernel` (hardware order, one size per
  /// mapped member), if any.
  std::optional<std::vector<unsigned>> sizesFromOption(const Kernel &kernel,
                                                       unsigned mapped) const;

  /// `sizes` with one entry (at least 1) per mapped member.
  static std::vector<unsigned> fitted(std::vector<unsigned> sizes,
                                      unsigned mapped);

  /// The default block for `mapped` members, fitted to the bound of the
  /// kernel's parallel extent along each hardware dimension.
  /// `pointsY`: each thread runs that many points of the member on y (a
  /// transposition's rows), so it fits a block to that many times fewer.
  BlockSizing
  sizeToDevice(const Kernel &kernel, unsigned mapped,
               std::optional<std::vector<unsigned>> block = std::nullopt,
               unsigned pointsY = 1) const;

  /// A name for a kernel of `statements` that no other kernel has.
  std::string uniqueName(const std::vector<std::string> &statements);

  /// The kernel's statements and the arrays they access.
  void recordStatements(Kernel &kernel, const isl::union_set &instances);

  /// A new kernel of the statements of `instances` with `mapped` members
  /// mapped: its id, statements, arrays, unique name and mark.
  Kernel &addKernel(const isl::union_set &instances, unsigned mapped);

  isl::schedule_node markKernel(isl::schedule_node node, unsigned mapped);

  /// A host band of one member `w` over a band of two parallel members
  /// [x1, x2] over one statement, where `w` is a wavefront (a combination
  /// of two or more of the statement's loops, seidel-2d's 4t + 2i + j) and
  /// carries every dependence the outer loops do not: the band [w, y1, y2],
  /// with y1 = x1 + b x2 + a1 w and y2 = x2 + c x1 + a2 w skewed until no
  /// dependence distance is negative (the least skew that does), is
  /// permutable, so it tiles. Rewrites `node` to
  ///   band [floor(w/Tw) + floor(y1/T) + floor(y2/T)]   host: tile wavefront
  ///     mark polycuda_steps
  ///       band [w]                                     a tile's steps
  ///         band [y1, y2]                              parallel (coincident)
  /// (tiles in one wavefront of tiles are independent: a dependence
  /// between two tiles has no negative tile distance and a positive one);
  /// returns the host band, or nothing.
  std::optional<isl::schedule_node>
  tileWavefront(const isl::schedule_node &node) const;

  /// The kernel of a tiled wavefront (see tileWavefront) at its mark:
  /// blocks are the tiles of [y1, y2], and each block runs its steps of w
  /// as a loop above its threads. Returns the kernel's mark, in `mark`'s
  /// place.
  isl::schedule_node markSteppedKernel(isl::schedule_node mark);

  /// A tiled wavefront's tiles per launch (Kernel::Steps::firstTile,
  /// lastTile) and its offsets, on the host space of the prefix of `band`
  /// (its host loop and the steps).
  void tileWavefrontBounds(Kernel &kernel, const isl::schedule_node &band);

  /// The instances where `upa` is nonnegative.
  static isl::union_set nonnegative(const isl::union_pw_aff &upa);

  /// A statement with its reduction form.
  using Update = std::pair<const Statement *, ReductionForm>;

  /// The statements `names` with their reduction forms; nothing when one
  /// has none, or has a loop without an upper bound (it runs on one
  /// thread, as it did).
  std::optional<std::vector<Update>>
  reductionUpdates(const std::vector<std::string> &names) const;
  /// reductionUpdates of the statements of `instances`.
  std::optional<std::vector<Update>>
  reductionUpdates(const isl::union_set &instances) const;

  /// Whether the subtree at `node` has no band: statements only (a leaf,
  /// or a sequence or set of filters of such subtrees).
  static bool onlyStatementsBelow(const isl::schedule_node &node);

  /// Whether the subtree at `node` (below a sequential band) has a band of
  /// one statement, one member and nothing inside that would be a
  /// reduction kernel on its own, were the loops around it on the host,
  /// with at least `options.reductionHostMinIterations` iterations per
  /// launch (or no bound at translation time).
  bool hasLongReduction(const isl::schedule_node &node) const;

  /// Whether the band at `node`, two parallel members and a third one
  /// (sumprod's [x, z, w], loop y inside), over the reduction's `updates`,
  /// has few elements for the device and long reductions: the two members
  /// have at most the device's threads / kLanesBesideTwoMembers values per
  /// launch together, and the instances that update one element span at
  /// least kMinIterationsPerElementForLanes points (the box of their
  /// differences, within the arrays' bounds). Otherwise one thread per
  /// element (gemm, 2mm: many elements, register tiles) keeps the loop.
  bool lanesPayBesideTwoMembers(const isl::schedule_node &node,
                                const isl::union_set &updates) const;

  /// A reduction whose iterations the threads of a block can share: every
  /// statement of the kernel updates the same element with the same
  /// operation (one statement, or nussinov's maxima), its band has
  /// `mapped` parallel members and one more, the reduction's loop: at
  /// most one parallel member with no loop inside the band, or two with
  /// few elements and long reductions (lanesPayBesideTwoMembers)
  /// (Reductions.h).
  std::optional<BlockReduction> findReduction(const Kernel &kernel,
                                              const isl::schedule_node &node,
                                              unsigned mapped) const;

  /// A read of the reduction of `kernel` (beside two parallel members)
  /// whose element does not depend on the reduction's loop, and of which
  /// one lane reads several elements for one iteration of it (in the loops
  /// inside the band): sumprod's f[x][y][z], the same for every w, several
  /// along y. Jammed (BlockReduction::jam), the lane's iterations of the
  /// loop share each such element. Its text, or nothing.
  std::optional<std::string> readSharedAlongLanes(const Kernel &kernel) const;
  /// The statements split off before the reduction of `kernel` (the values
  /// of initsSplitOff for its statements).
  std::vector<std::string> splitInits(const Kernel &kernel) const;

  /// Chooses block sizes and the hardware order of the first
  /// `kernel.numMapped` members of `band`, and the first tile of each.
  void chooseMapping(Kernel &kernel, const isl::schedule_node &band);

  /// The block of `kernel`: its reduction's lanes, a wavefront's tile,
  /// `--sizes` (`requested`), or the default fitted to the device (with a
  /// transposition's rows counted).
  void chooseBlock(Kernel &kernel,
                   const std::optional<std::vector<unsigned>> &requested,
                   bool transposition);

  /// `sizing` as a default of the device's (its report says so).
  BlockSizing deviceDefault(BlockSizing sizing) const;

  /// The block of a reduction kernel: its lanes along one hardware
  /// dimension, a power of two, one block along the reduction's loop.
  void reductionBlock(Kernel &kernel,
                      const std::optional<std::vector<unsigned>> &requested);

  /// Beside a parallel member on x, the lanes along y (`sizes[1]`): as many
  /// as fill the device's threads, or kJammedLanes jammed ones. Records the
  /// parallel members' bounds in `extents` (hardware order) and returns
  /// the bound of the parallel iterations per launch, if any.
  std::optional<long> fillLanes(Kernel &kernel, std::vector<unsigned> &sizes,
                                std::vector<std::optional<long>> &extents);

  /// A transposition's rows per thread along y, one after the other.
  void transpositionRows(Kernel &kernel);

  /// The first tile of each mapped member per host iteration
  /// (KernelMapping::offsets), or over all of them where it is piecewise.
  void chooseOffsets(Kernel &kernel);

  /// Whether a reference of `kernel` to an array it only reads runs a row
  /// or more apart along threadIdx.x (what promoteToShared stages).
  bool readsUncoalescedAlongX(const Kernel &kernel) const;

  /// The arrays that the kernel only reads, through affine references,
  /// whose references read at least kStencilReadsPerPoint elements per
  /// point (the mapped members' values) together, in a window of at least
  /// two elements along the dimension that the member on y moves (a
  /// stencil's `A[i + a - 4][j + b - 4]` over loops a and b inside the
  /// thread): neighbouring points along y read overlapping elements.
  std::vector<unsigned> neighbourhoodArrays(const Kernel &kernel) const;

  /// A stencil's register tile: kStencilPointsY consecutive points per
  /// thread along y (Kernel::blockedPoints) in a kernel of two mapped
  /// members that reads a neighbourhood (neighbourhoodArrays), where the
  /// tiles still give kBlocksPerSmForRegisterTiles blocks per SM. Returns
  /// whether it chose one.
  bool chooseStencilPoints(Kernel &kernel);

  /// Register tiling (MemoryPromotion.h): a kernel with two mapped members
  /// and one more loop in its band (gemm's `i`, `j` and `k`), permutable,
  /// that holds an element in a register across that loop (written, the
  /// same for every iteration: `C[i][j]`) and reads an element that
  /// neighbouring threads share (`A[i][k]` along `j`): each thread then
  /// computes `registerTile` points of each member, so that one value read
  /// from memory serves several of its points. The model takes the first
  /// of 8 x 4 (4-byte accumulators only), 4 x 4 and 4 x 2 points (x, y)
  /// whose tiles give `kBlocksPerSmForRegisterTiles` blocks per SM, and
  /// only for a rectangle of mapped iterations with, along each mapped
  /// member, a read its threads share (gemm's shape); otherwise one point.
  void chooseRegisterTile(Kernel &kernel, const isl::schedule_node &band);

  /// The largest element size that a statement of `kernel` inside the
  /// band's third loop (`inner`) writes at one element for all its
  /// iterations at a point (`point`): an accumulator; nothing when none.
  std::optional<unsigned> heldAcrossLoop(const Kernel &kernel,
                                         const isl::union_map &point,
                                         const isl::union_map &inner) const;

  /// Per mapped member d: whether a read is shared by the threads along d
  /// and not along the other member (gemm's A[i][k] along j). `reuse`:
  /// whether some read is shared along a member.
  std::vector<bool> readAlongOne(const Kernel &kernel, bool &reuse) const;

  /// The default register tile (hardware order x, y): the largest
  /// candidate that leaves enough blocks per SM, its numbers recorded in
  /// the kernel's decision; empty, with the decision's reason set, where
  /// the kernel is not of the measured shape.
  std::vector<unsigned> registerTileForDevice(Kernel &kernel,
                                              const isl::union_map &point,
                                              const std::vector<bool> &alongOne,
                                              unsigned accumulatorBytes);

  /// The band that orders the blocks: the tiles of the mapped members
  /// (linear), or their columns and positions in a column (column order,
  /// from the tiles relative to the first, `relative`).
  isl::union_pw_aff_list
  blockBand(Kernel &kernel, const isl::union_pw_aff_list &tiles,
            const std::vector<isl::union_pw_aff> &relative);

  /// Tiles the first `kernel.numMapped` members of `band` by the block
  /// sizes and binds tiles to blocks and points to threads (see
  /// GpuProgram.h for the subtree). Returns the node at `band`'s position.
  isl::schedule_node mapBand(Kernel &kernel, isl::schedule_node band);

  /// mapBand's binding of member `d` (its schedule `s`, its block and
  /// thread ids `b` and `t`) of a tiled wavefront's band: block b runs
  /// tile first + b, without floors.
  void bindSteppedMember(const Kernel &kernel, unsigned d,
                         const isl::union_pw_aff &s,
                         const isl::multi_union_pw_aff &host,
                         const std::string &b, const std::string &t,
                         BandBinding &binding) const;

  /// mapBand's binding of member `d` (its schedule `s`, its ids `b` and
  /// `t`): its tiles to blocks, their points to threads (a reduction's
  /// lanes: one block).
  void bindMember(const Kernel &kernel, unsigned d, const isl::union_pw_aff &s,
                  const isl::multi_union_pw_aff &host, const std::string &b,
                  const std::string &t, BandBinding &binding) const;

  /// A tiled wavefront's blocks limited to their tile's steps.
  void bindSteps(const Kernel &kernel, BandBinding &binding) const;
};

} // namespace polycuda::polyhedral::mapping

#endif // POLYCUDA_POLYHEDRAL_GPUMAPPINGINTERNAL_H
