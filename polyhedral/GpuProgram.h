//===- GpuProgram.h - The mapped program: host part and kernels -*- C++ -*-===//
//
// The output of the polyhedral pipeline, read by the printers and the report.
// Every decision (kernels, mapping, sizes, transfers) is stored here; printers
// never schedule or map anything.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_GPUPROGRAM_H
#define POLYCUDA_POLYHEDRAL_GPUPROGRAM_H

#include "AccessAnalysis.h"
#include "Dependences.h"
#include "KernelMapping.h"
#include "Scheduling.h"
#include "Scop.h"
#include "TransferRecord.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace polycuda::polyhedral {

/// Names used in generated code, chosen not to clash with the user's.
struct CodeNames {
  std::string hostIterator = "c";   ///< host loops: c0, c1, ...
  std::string kernelIterator = "k"; ///< kernel loops: k0, k1, ...
  std::string blockId = "b";        ///< block index per mapped member
  std::string threadId = "t";       ///< thread index per mapped member
  std::string gridId = "g";         ///< grid position (column thread order)
  std::string devicePrefix = "dev_"; ///< device copy of array A: dev_A
};

/// A reference held in a register of each thread across a loop of a
/// kernel (an accumulator: gemm's `C[i][j]` in the `k` loop): loaded
/// before the loop, stored after it, and every reference of `references`
/// in the loop reads and writes the register instead. Legal when the
/// element is the same for every iteration of the loop, no other
/// reference in the loop may touch it, and no other thread of the launch
/// accesses it (MemoryPromotion).
struct RegisterAccumulator {
  unsigned array = 0;
  /// (index into Scop::statements, index into its accesses).
  std::vector<std::pair<unsigned, unsigned>> references;
  /// The variable in the generated kernel.
  std::string variable;
  /// The loop: the iterator of one statement of `references` in the source.
  std::string loop;
  /// In a register-tiled kernel, the elements a thread holds across the
  /// loop, one per point of its register tile: `variable` is an array of
  /// `slots` registers, indexed by the point (`r0 * R1 + r1`; the loads
  /// and stores run in a loop over it). 1 (a scalar) otherwise.
  unsigned slots = 1;
};

/// What a mark that a pass inserts means. Its id carries a GpuMark, and
/// passes and printers recognise the mark by that payload (isMark,
/// gpuMarkOf), never by its name, which only makes dumps readable.
enum class MarkKind {
  Host,     ///< above the scalar code that runs on the host (GpuMapping.h)
  Shared,   ///< in a kernel's subtree, above the thread mark (mapping)
  Thread,   ///< above the band of a thread's loops (mapping)
  Steps,    ///< above the band of a wavefront's steps (tiled wavefronts)
  Unroll,   ///< above a band whose loops the kernel printer unrolls
  Parallel, ///< above a loop the C target runs with `omp parallel for`
};

/// The payload of a mark's id.
struct GpuMark {
  MarkKind kind = MarkKind::Host;
  /// Unroll: member m of the band below takes the values 0, ...,
  /// extents[m] - 1 (a register tile's points, its registers' loads and
  /// stores).
  std::vector<long> extents;
  /// Parallel: the iterator of the loop the AST generates for the marked
  /// member. isl generates no loop for a member that takes one value per
  /// outer iteration; the mark then sits above some inner loop, which the
  /// iterator tells apart.
  std::string loop;
};

/// A new mark id of `kind` and its payload, named `host`, `shared`,
/// `thread`, `polycuda_steps`, `polycuda_unroll_E0_E1...` or
/// `omp_parallel_<loop>`.
isl::id gpuMark(isl::ctx ctx, GpuMark mark);
inline isl::id gpuMark(isl::ctx ctx, MarkKind kind) {
  return gpuMark(ctx, GpuMark{kind, {}, {}});
}
/// The payload of a mark's id; none for another mark (a kernel's, a
/// persistent loop's).
std::optional<GpuMark> gpuMarkOf(const isl::id &id);
/// Whether `node` is a mark of `kind`.
bool isMark(const isl::schedule_node &node, MarkKind kind);

/// A reduction shared by the threads of a block (Reductions.h): the
/// iterations of one mapped member, the lane member, are dealt round-robin
/// to `lanes` threads along it (one block along it), each accumulating a
/// partial result in `variable`, started at the operation's identity;
/// after the kernel's loops the block combines the partials in the shared
/// array `buffer` (a tree of barriers), and the first lane applies the
/// total to the element: `x = x + total` (`x * total`, the larger or the
/// smaller of x and total). The partial sums reorder the sequential ones
/// (`--reductions=off` keeps them).
struct BlockReduction {
  /// The statements (indices into Scop::statements), and their references
  /// to the reduced element, (statement, access): the writes and the reads
  /// of `x op= e` or `x = x op e`, which read and write `variable` instead.
  /// The statements' writes need not reach the same elements (fused nests,
  /// branches): the block's combine updates those of all of them.
  std::vector<unsigned> statements;
  std::vector<std::pair<unsigned, unsigned>> references;
  unsigned array = 0;
  /// '+' (also for `-=` and `x = x - e`), '*', '>' (maximum) or '<'
  /// (minimum).
  char op = '+';
  /// The mapped member whose iterations the lanes share, and its loop.
  unsigned member = 0;
  std::string loop;
  std::string variable;
  std::string buffer;
  /// Why it is legal (the report words it): whether the other operand of
  /// some update reads the array (no element the kernel writes), and the
  /// statements that set its elements first, split off into a kernel of
  /// their own (per such statement of the band, their names as "S1, S2").
  bool otherReads = false;
  std::vector<std::string> initsSplitOff;
  /// Iterations of the lane member that each lane runs together (1: one
  /// at a time). With L lanes, lane t's iterations t + jam L q + L u,
  /// u = 0, ..., jam - 1, run in one iteration of the loops inside the
  /// band (unrolled), so that an element they all read, which does not
  /// depend on the lane member, is loaded once for them (sumprod's
  /// f[x][y][z] over w). Legal: a reduction kernel's iterations run in
  /// any order (its lanes' partial results already reorder them).
  unsigned jam = 1;
  /// Where the lanes' iterations were to be jammed: the element they read
  /// once (empty otherwise), and whether the jam was dropped (jam = 1: the
  /// thread's band is not its mapped loops over one band of loops).
  std::string jamShared;
  bool jamDropped = false;
  /// The kernel's instances (host iterators, block and thread indices as
  /// parameters) of this block and of the thread's position along the
  /// other mapped members, whatever its lane: the elements this thread's
  /// first lane updates with the block's total.
  isl::union_set owners;
};

/// Which reads without reuse that consecutive threads read uncoalesced go
/// through shared memory (`--stage-uncoalesced`; Baskaran et al.: stage
/// what no schedule coalesces).
enum class StageUncoalesced {
  Off,
  /// Once per block, in kernels without a loop to tile (a transposition's
  /// read): the default.
  Blocks,
  /// Also per tile of a loop each thread runs (mv's A[i][j]).
  All,
};

/// Whether `stage` stages uncoalesced reads in a kernel that has a loop to
/// tile (`loopToTile`) or not.
inline bool stagesUncoalesced(StageUncoalesced stage, bool loopToTile) {
  return stage == StageUncoalesced::All ||
         (stage == StageUncoalesced::Blocks && !loopToTile);
}

/// An array read through shared memory in a kernel: per tile of the
/// kernel's tiled loop (Kernel::sharedLoop), the threads of a block copy
/// the elements the block reads in that tile (coalesced: consecutive
/// threadIdx.x on consecutive elements of the last dimension) into a
/// shared array of the box that holds them, then read it instead of global
/// memory (SharedMemory.h).
struct SharedTile {
  unsigned array = 0;
  /// The box per array dimension (elements); the shared array has rows of
  /// `sizes.back() + padding` elements.
  std::vector<long> sizes;
  /// Elements added to each row against bank conflicts, and the bank
  /// conflict degree summed over the references with it and without.
  unsigned padding = 0;
  unsigned conflicts = 0;
  unsigned conflictsUnpadded = 0;
  /// The shared array, and the variables holding the box's first element
  /// per dimension (`offset`0, ...) in the current tile.
  std::string variable;
  std::string offset;
  /// (index into Scop::statements, index into its accesses) read from it.
  std::vector<std::pair<unsigned, unsigned>> references;
  /// Staged without reuse: its references are uncoalesced in global memory
  /// and the block's copy is not (`--stage-uncoalesced`).
  bool forCoalescing = false;
  /// A scalar argument (Scop::scalarArgs) of the array's type that every
  /// reference multiplies (`alpha * A[i][k]`): the tile holds the products,
  /// computed once per element by the copy rather than once per use, and
  /// the references stand for them. Empty when the tile holds the values.
  std::string scale;
};

/// What a statement that a GPU pass adds to a kernel's subtree (an
/// extension node) does. Its `index` selects the kernel's record it uses.
enum class AddedOp {
  RegisterLoad,    ///< accumulator `index`'s register from its element
  RegisterStore,   ///< accumulator `index`'s element from its register
  SharedOffsets,   ///< the first element of shared tile `index`'s box
  SharedCopy,      ///< this thread's share of tile `index`'s box into it
  SharedWriteback, ///< tile `index`'s elements back to their array
  BlockBarrier,    ///< the block's barrier (`index` 0: before, 1: after a
                   ///< step's use of the tiles)
  GridBarrier,     ///< the grid's barrier (a wavefront's step)
  Reduce,          ///< the block's partials summed into the first lane
  Combine,         ///< the reduced element updated with the block's total
};

/// What the isl::id of a kernel's mark carries: the kernel's position in
/// GpuProgram::kernels and its mapping.
struct KernelMark {
  unsigned kernel;
  /// The kernel's mapping (Kernel::mapping).
  std::shared_ptr<const KernelMapping> mapping;
};

/// What the tuple id of a tiled wavefront's launches carries (Kernel::
/// launchGroup): the kernel's position in GpuProgram::kernels.
struct LaunchGroup {
  unsigned kernel;
};

/// One added statement (AddedOp).
struct AddedStatement {
  AddedOp op;
  unsigned index = 0;
};

/// One kernel: the instances below one band (or one subtree without
/// parallelism) executed by one launch per host iteration.
///
/// In `GpuProgram::schedule`, a kernel is the subtree below a mark whose id
/// is `Kernel::mark`. For a kernel with mapped members it reads
///
///   mark <kernel>
///     filter  { S[i] : floor(s/T) - offset = b }
///       band  [floor(s/T)]                    tile loops -> blocks
///             (column order: [c, q], the column and the position in it
///             of the block b, see ThreadOrder)
///         mark "shared"
///           mark "thread"
///             filter { S[i] : s - T * floor(s/T) = t }
///               band [s, ...]                 point loops -> threads
///                 ...                         loops inside the kernel
///
/// where s are the band's first `numMapped` members, T their block sizes
/// and b, t parameters the kernel reads from the target's block and thread
/// indices (their bounds, b >= 0 and 0 <= t < T, are in `context`). The kernel's code is generated from this subtree alone, with
/// the host iterators as parameters; the host code from the whole tree,
/// each kernel's subtree replaced by its launch.
/// Why a kernel reads no array through shared memory (SharedMemory.h): the
/// decision and the numbers it was made from. The report words it
/// (translator/Report_Reasons.cpp); nothing reads the words back.
struct NoSharedTiles {
  enum class Why {
    None,                   ///< tiles were staged, or nothing was decided
    ManyMappedLoops,        ///< more than two mapped loops
    UnsupportedTree,        ///< a node the stage does not rewrite
    WavefrontGlobal,        ///< a wavefront's tile under --no-shared
    WavefrontTooLarge,      ///< its footprint does not fit
    WavefrontWritesSeveral, ///< its tile writes more than one array
    WavefrontNotAffine,     ///< it writes `array` through a non-affine index
    WavefrontNoBox,         ///< its footprint has no box of fixed size
    NoReuse,                ///< no only-read array is reused by a block
    NoBoxFits,              ///< no footprint's box fits
    OneThread,              ///< the kernel runs on one thread
    Reduction,              ///< a reduction: shared memory holds partials
    AstFailed,              ///< isl could not build the AST with the copies
  };
  Why why = Why::None;
  /// WavefrontNotAffine: the array written.
  unsigned array = 0;
  /// NoReuse: the references to one array that count as reuse, and whether
  /// reading uncoalesced would have counted too.
  unsigned references = 0;
  bool orUncoalesced = false;
  /// NoBoxFits: the arrays staged for coalescing whose block rows are
  /// narrower than a sector.
  std::vector<unsigned> narrow;
  bool decided() const { return why != Why::None; }
};

/// The points a thread runs per mapped member (KernelMapping::registerTile) and
/// why: the decision and the numbers it was made from (GpuMapping's
/// register tiles, MemoryPromotion's jam). The report words it.
struct RegisterTileDecision {
  enum class Why {
    None,                ///< nothing decided (a kernel on one thread)
    Off,                 ///< --register-tiles=off
    NotTwoMapped,        ///< not two mapped loops without a reduction
    Wavefront,           ///< a wavefront's tile: one point per step
    TranspositionRows,   ///< a transposition's rows, one after the other
    StencilOption,       ///< a stencil's points set by --register-tile
    StencilTooFewBlocks, ///< a stencil's points would leave too few blocks
    StencilPoints,       ///< a stencil's consecutive points along y
    BandShape,           ///< not two mapped loops and one more, permutable
    WritesPrivate,       ///< it writes the privatized scalar `arrays[0]`
    NoAccumulator,       ///< no element held across the band's third loop
    NoReuse,             ///< no element read by several threads of a block
    NotMeasuredShape,    ///< not gemm's reads along each mapped loop
    NotRectangle,        ///< the mapped loops' iterations not a rectangle
    NoBound,             ///< the loops have no bound at translation time
    TooFewBlocks,        ///< every candidate leaves too few blocks
    Tiled,               ///< `tile` points per thread (gemm's shape)
  };
  Why why = Why::None;
  /// Points per thread along x and y (hardware order).
  std::vector<unsigned> tile;
  /// Threads of the block along x and y (hardware order).
  std::vector<unsigned> block;
  /// The neighbourhood arrays of a stencil; the scalar of WritesPrivate.
  std::vector<unsigned> arrays;
  /// Tiled and TooFewBlocks: chosen by --register-tile, or by the device
  /// model: `blocks` per launch with `shown` points per thread (x, y),
  /// where `wanted` were wanted. The stencil's choices: `blocks` and
  /// `wanted` too.
  bool fromOption = false;
  long blocks = 0, wanted = 0;
  std::vector<unsigned> shown;
  /// Set by memory promotion: the points could not be unrolled and jammed
  /// (the thread's band is not its mapped loops and one more), or the
  /// kernel is compiled for `boundBlocks` blocks per SM (CUDA's launch
  /// bounds) with `accumulatorWords` words of accumulators a thread.
  bool notUnrolled = false;
  unsigned boundBlocks = 0, accumulatorWords = 0;
};

struct Kernel {
  /// Position in `GpuProgram::kernels` (printed function names use it).
  unsigned id = 0;
  /// Stable name: the kernel's statements (`S0_S1`, then `_2`, ... when
  /// several kernels run the same statements). Identifies the kernel in
  /// `--sizes`, the report and the schedule tree.
  std::string name;
  /// The id of the kernel's mark in the schedule tree (named `name`).
  isl::id mark;
  /// The tuple id of its launches when it is stepped (a tiled wavefront:
  /// the host loop's statement `polycuda_launch_<name>[s]`), carrying a
  /// LaunchGroup: found by identity, not by its name.
  isl::id launchGroup;
  /// Statement instances, `[params, c] -> { S[i] }`, with the enclosing host
  /// loop iterators c as parameters.
  isl::union_set domain;
  /// How the kernel is mapped onto the grid (KernelMapping.h): made by
  /// the mapping stage, read-only to every later pass and printer. The
  /// kernel's mark carries the same record (KernelMark).
  std::shared_ptr<const KernelMapping> mapping;
  /// The same as expressions for the kernel's prologue (AST generation).
  std::vector<isl::ast_expr> blockExprs;
  /// Why the kernel is (not) register tiled.
  RegisterTileDecision registerTileDecision;
  /// Whether the model weighed register tiles for the kernel (gemm's shape:
  /// an accumulator and reads its threads share) before it chose some or
  /// none; the report then says why even when there are none.
  bool registerTileConsidered = false;
  /// Whether the thread's points are unrolled and jammed into the band's
  /// next loop (register tiling, MemoryPromotion.h) rather than run one
  /// after the other (a transposition's rows: it has no such loop).
  bool jamPoints = true;
  /// Whether thread t runs the consecutive points tR, ..., tR + R - 1 of
  /// each mapped member (R its registerTile), unrolled one after the
  /// other, rather than t, t + T, ...: a stencil's points, whose
  /// neighbourhoods overlap, so that the compiler loads an element they
  /// share once (not jammed; MemoryPromotion.h).
  bool blockedPoints = false;
  /// With a jammed register tile: the blocks per SM the kernel is compiled
  /// for (CUDA's `__launch_bounds__`), which caps its registers a thread;
  /// 0 for no bound (MemoryPromotion.cpp, boundRegisters).
  unsigned minBlocksPerSm = 0;
  /// With blockedPoints: the arrays whose neighbourhoods the points read
  /// (staged in shared memory once per block, SharedMemory.h).
  std::vector<unsigned> neighbourhoods;
  /// Statement instances without host parameters, `[params] -> { S[i] }`.
  isl::union_set instances;
  /// The host loops around the launch, `{ S[i] -> [c] }`.
  isl::union_map hostSchedule;
  /// Arrays private to each thread of this kernel, held in registers.
  std::vector<unsigned> registers;
  /// Of `registers`, those made by expansion whose thread keeps a whole
  /// copy of an array they privatize (a block-scoped `double u[4]`): the
  /// constant extents of that copy, indexed by the array's dimensions
  /// after its Array::expandedDims. The others hold one element.
  std::map<unsigned, std::vector<long>> privateShapes;
  /// References held in registers across a loop (load before, store after).
  std::vector<RegisterAccumulator> accumulators;
  /// A reduction whose iterations the threads of a block share; its lane
  /// member is a mapped member with one block along it (grid extent 1).
  std::optional<BlockReduction> reduction;
  bool isLane(unsigned member) const {
    return reduction && reduction->member == member;
  }
  /// A tile of a wavefront (Kernel::steps): the launch runs, per block, a
  /// tile of `steps.size` consecutive values of the wavefront member, one
  /// after the other with a barrier between them.
  struct Steps {
    /// Values of the wavefront member per tile (0: not a tiled wavefront).
    unsigned size = 0;
    /// The wavefront member per statement, e.g. `4t + 2i + j`, and the
    /// parallel members as tiled (skewed), e.g. `t, t + i`.
    std::string text, members;
    /// The block (= the tile of the parallel members), in member order.
    std::vector<unsigned> block;
    /// The wavefront member, `{ S[i] -> [w] }`, as a map and a function.
    isl::union_map wavefront;
    isl::union_pw_aff member;
    /// The instances of one launch, with the host loop as a parameter
    /// (Kernel::domain does not bind it: the blocks' filter does).
    isl::union_set launched;
    /// Per mapped member, the first and the last tile (block) of the tile
    /// wavefront `s`, a function of the host loop on its space `[s]`: the
    /// box of the tiles (W, Y1, Y2) with W + Y1 + Y2 = s within the range
    /// of each (lexmin and lexmax per host iteration would cost isl far
    /// more over the floors of s).
    std::vector<isl::pw_aff> firstTile, lastTile;
    /// The first and the last tile wavefront, `[params] -> { [s] }`.
    isl::pw_aff firstLaunch, lastLaunch;
  };
  Steps steps;
  bool stepped() const { return steps.size > 0; }
  /// Whether the kernel waits at block barriers (shared tiles, the tree of
  /// a reduction, the steps of a wavefront's tile): every thread of its
  /// block must reach them.
  bool waitsForBlock() const {
    return !sharedTiles.empty() || reduction.has_value() || stepped();
  }
  /// Shared memory: the loop of the kernel tiled by `sharedTileSize` (its
  /// source iterator), the arrays read through shared tiles, and why no
  /// array is.
  std::string sharedLoop;
  unsigned sharedTileSize = 0;
  std::vector<SharedTile> sharedTiles;
  NoSharedTiles noShared;
  /// Arrays whose references in this kernel read the scop's copy in
  /// constant memory (GpuProgram::constants, SharedMemory.h).
  std::vector<unsigned> constantArrays;
  bool readsConstant(unsigned a) const {
    return std::find(constantArrays.begin(), constantArrays.end(), a) !=
           constantArrays.end();
  }
  /// The tree the kernel's AST is generated from when promotion rewrote
  /// the kernel's subtree (copy statements `polycuda_load_N` and
  /// `polycuda_store_N` around loops, see MemoryPromotion.h); null: the
  /// kernel's subtree of `GpuProgram::schedule` as it is.
  isl::schedule deviceTree;
  /// How neighbouring threads along each mapped member access memory, per
  /// reference of the kernel (what the hardware order was chosen from).
  std::vector<ReferenceAccess> accesses;
  /// Context of the kernel AST: parameters, host iterators, block/thread
  /// ids (their bounds).
  isl::set context;
  /// Device AST, generated from the kernel's subtree; user nodes call
  /// statements `S(i...)`.
  isl::ast_node ast;
  /// Arrays the kernel accesses (indices into Scop::arrays).
  std::vector<unsigned> arrays;
  /// The statements of the kernel, for the report.
  std::vector<std::string> statements;
  /// The statements GPU passes added to the kernel's subtree, by the name
  /// of their extension's tuple (a key: what a statement does is its
  /// AddedStatement, never read from its name).
  std::map<std::string, AddedStatement> added;
  /// Registers a new added statement and returns its tuple name.
  std::string addStatement(AddedOp op, unsigned index = 0);
  /// The added statement a leaf of the kernel's AST calls (`name`); null
  /// for a statement of the scop.
  const AddedStatement *addedStatement(const std::string &name) const {
    auto found = added.find(name);
    return found == added.end() ? nullptr : &found->second;
  }
  /// Whether a statement of the kernel writes `array` (may-writes too).
  bool writes(const Scop &scop, unsigned array) const {
    for (const std::string &name : statements)
      for (const Access &access : scop.findStatement(name)->accesses)
        if (access.array == array && access.kind != Access::Kind::Read)
          return true;
    return false;
  }
};

/// The host AST's statement of a tiled wavefront's launches, followed by
/// the kernel's name (AstGeneration's withoutThreadMapping).
inline constexpr const char *kLaunchGroupPrefix = "polycuda_launch_";

/// An outermost host loop of the program and whether its launches run as
/// one persistent kernel (CUDA, `--persistent`; see Persistent.h): one
/// cooperative launch whose blocks run the host loop themselves, each
/// former launch a phase that the grid runs (its blocks grid-stride over
/// the former grid), a grid-wide barrier after each phase.
struct PersistentLoop {
  /// The mark above the loop's band in the tree the host AST is generated
  /// from (`persistent_N`); the host AST's mark node holds its loops.
  isl::id mark;
  /// The band's first member, e.g. "c0" (the host AST's iterator).
  std::string loop;
  /// The kernels launched in it (Kernel::id), in tree order.
  std::vector<unsigned> kernels;
  bool persistent = false;
  /// Threads of the persistent block: the most threads of any phase.
  unsigned threads = 0;
  /// Every phase runs on one thread block: one block runs the whole loop
  /// with block barriers only, launched without a cooperative launch.
  bool singleBlock = false;
  /// Bytes of shared memory the phases declare together.
  unsigned long sharedBytes = 0;
  /// Why (not): the decision; the report words it.
  enum class Why {
    Off,           ///< --persistent=off
    HostCode,      ///< the loop runs host code besides its launches
    Wavefront,     ///< `kernel` launches the tiles of a wavefront
    SharedMemory,  ///< the phases' sharedBytes exceed one block's
    WaitsForBlock, ///< `kernel` waits for a block with fewer threads
    OneBlock,      ///< persistent: one block runs every phase
    Cooperative,   ///< persistent: one cooperative launch
  };
  Why why = Why::Off;
  /// Wavefront, WaitsForBlock: the kernel (Kernel::id).
  unsigned kernel = 0;
};

/// Names of the persistent-loop marks: `persistent_N`.
inline constexpr const char *kPersistentMark = "persistent_";

/// The GPU program of one scop.
struct GpuProgram {
  const Scop *scop = nullptr;
  Dependences deps;
  /// The schedule tree, with each kernel's subtree below its mark.
  isl::schedule schedule;
  /// Why the schedule is the original order (Why::None: it is not).
  ScheduleFallback fallback;
  bool scheduleIsFallback() const {
    return fallback.why != ScheduleFallback::Why::None;
  }
  CodeNames names;
  /// The isl context that some kernel ASTs were built in, on a second thread
  /// (null when none were); declared before `kernels` so that it outlives
  /// their ASTs. Nothing else lives in it: those ASTs are only printed.
  std::shared_ptr<isl_ctx> astContext;
  /// Host AST. A kernel launch is a user node `name(grid..., prefix...,
  /// active)` with one grid extent per mapped member, in member order, the
  /// values of the kernel's host prefix schedule (its parameters c0, ...)
  /// and the condition under which the kernel has instances. The loops of
  /// a persistent loop are the child of a mark node named by its
  /// PersistentLoop::mark.
  isl::ast_node host;
  /// A deque: isl objects cannot be copied while null, so kernels are
  /// built in place.
  std::deque<Kernel> kernels;
  std::vector<Transfer> transfers;
  TransferPlacement placement;
  /// Small arrays that the scop only reads and some kernels read the same
  /// element of in every thread of a block (a stencil's weights): a copy
  /// of their first `elements` elements, in the array's order, lives in
  /// constant memory, set from the device array once it is copied in
  /// (placeInConstantMemory, SharedMemory.h).
  struct ConstantArray {
    unsigned array = 0;
    long elements = 0;
  };
  std::vector<ConstantArray> constants;
  const ConstantArray *findConstant(unsigned a) const {
    for (const ConstantArray &c : constants)
      if (c.array == a)
        return &c;
    return nullptr;
  }
  /// The outermost host loops and whether each became a persistent kernel
  /// (empty unless the target can run one and `--persistent` allows it).
  std::vector<PersistentLoop> persistentLoops;
  /// Scalar code kept on the host (GpuMapping.h): its statements (in the
  /// tree below a mark of MarkKind::Host, first) and the scalars they write
  /// (no device copy: kernels get their values as arguments).
  std::vector<std::string> hostStatements;
  std::vector<unsigned> hostScalars;
  bool isHostScalar(unsigned a) const {
    return std::find(hostScalars.begin(), hostScalars.end(), a) !=
           hostScalars.end();
  }
  bool isHostStatement(const std::string &name) const {
    return std::find(hostStatements.begin(), hostStatements.end(), name) !=
           hostStatements.end();
  }

  /// The persistent loop whose mark is `mark` (the same id), or null.
  const PersistentLoop *findPersistentLoop(const isl::id &mark) const;

  /// The kernel whose stable name is `name`, or null.
  const Kernel *findKernel(const std::string &name) const;
  /// The kernel whose mark is `mark` (its KernelMark), or null for any
  /// other id. A launch in the host AST calls its kernel's mark id.
  const Kernel *kernelOf(const isl::id &mark) const;
};

/// The host AST's top-level parts, in order: the children of its block, or
/// the AST itself (none when it is null).
std::vector<isl::ast_node> topLevelParts(const isl::ast_node &host);

/// The mark of `kernel` in the tree below `node`, or null.
isl::schedule_node findKernelMark(const isl::schedule_node &node,
                                  const Kernel &kernel);

} // namespace polycuda::polyhedral

#endif
