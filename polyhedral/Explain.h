//===- Explain.h - Why the pipeline did what it did -------------*- C++ -*-===//
//
// Reads a finished GpuProgram (or only its dependences and schedule, for the
// C target) and derives the facts of the report in source terms: the
// dependences with their loops, direction and distance vectors; which source
// loops are parallel and which dependences the others carry; the bands of
// the chosen schedule and what each member carries; per kernel the mapping,
// where every reference lives and whether its accesses are coalesced, and a
// traffic estimate; the host/device copies. No printing here: the
// translator renders these facts as text or JSON (translator/Report.h).
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_EXPLAIN_H
#define POLYCUDA_POLYHEDRAL_EXPLAIN_H

#include "GpuProgram.h"

#include <optional>

namespace polycuda::polyhedral {

/// One dependence between two statements through one array, restricted to
/// the part carried at one level of their common loops.
struct DependenceFact {
  enum class Kind { Flow, Anti, Output }; ///< RAW, WAR, WAW
  Kind kind = Kind::Flow;
  unsigned array = 0;
  unsigned source = 0; ///< statement index (executes first)
  unsigned sink = 0;
  /// Loops around both statements, outermost first (indices into
  /// ScopExplanation::loops).
  std::vector<unsigned> commonLoops;
  /// Position in commonLoops of the loop that carries it; nullopt when the
  /// dependence stays within one iteration of every common loop.
  std::optional<unsigned> carriedAt;
  /// Per common loop: "=", "<", ">", "<=", ">=" or "*" (sink minus source).
  std::vector<std::string> direction;
  /// The distance per common loop when it is the same for every instance.
  std::optional<std::vector<long>> distance;
  /// `{ S[i] -> T[j] }`, this part only.
  isl::map relation;
};

/// One loop of the source.
struct LoopFact {
  std::string iterator; ///< the C variable
  SourceLoc loc;        ///< its `for`
  unsigned depth = 0;
  std::vector<unsigned> statements;
  /// Dependences carried by it in the original order (indices into
  /// ScopExplanation::dependences); parallel when empty.
  std::vector<unsigned> carried;
};

/// One member of a band of the chosen schedule.
struct MemberFact {
  /// Per statement of the band, the member as a function of the source
  /// iterators, e.g. {"S0", "i"}; "" when it is a constant.
  std::vector<std::pair<unsigned, std::string>> perStatement;
  bool coincident = false;
  /// Dependences (indices) it carries; the reason it is not parallel.
  std::vector<unsigned> carried;
  /// Mapped to hardware dimension 0 (x), 1 (y) or 2 (z) of a kernel.
  std::optional<unsigned> hardwareDim;
  unsigned blockSize = 0;
};

struct BandFact {
  std::vector<unsigned> statements;
  bool permutable = false;
  std::optional<unsigned> kernel; ///< the band is the top of this kernel
  bool onHost = false;            ///< above every kernel: host loops
  std::vector<MemberFact> members;
};

struct ReferenceFact {
  unsigned statement = 0;
  unsigned access = 0; ///< index in Statement::accesses
  bool isRead = true;
  bool inRegister = false;
  /// Held in a register across a loop: the index of its accumulator in
  /// KernelFact::accumulators (inRegister is then set too).
  std::optional<unsigned> accumulator;
  /// A reference to a reduction's element, which each lane accumulates in
  /// a register (KernelFact::reduction; inRegister is then set too).
  bool reductionPartial = false;
  /// Read through a shared tile: its index in KernelFact::sharedTiles.
  std::optional<unsigned> sharedTile;
  /// Read from the scop's copy in constant memory: the elements it holds
  /// (GpuProgram::constants).
  std::optional<long> constantElements;
  /// Along threadIdx.x (hardware dimension 0), as the mapping recorded it
  /// (Kernel::accesses); NoNeighbours in one-thread kernels.
  AccessPattern pattern = AccessPattern::NoNeighbours;
  /// Strided: the distance in elements when the array extents are
  /// constants; otherwise the dimension that moves.
  std::optional<long> stride;
  unsigned movingDim = 0;
  /// Hardware dimensions along which threads read or write the same element.
  std::vector<unsigned> reusedAlong;
};

struct KernelFact {
  unsigned id = 0;
  std::string name; ///< stable name (Kernel::name)
  std::vector<unsigned> statements;
  unsigned hostDepth = 0;
  unsigned numMapped = 0;
  std::vector<unsigned> blockSize;   ///< per mapped member
  std::vector<unsigned> hardwareDim; ///< per mapped member
  /// Points per thread per mapped member and why (KernelMapping::registerTile).
  std::vector<unsigned> registerTile;
  RegisterTileDecision registerTileDecision;
  /// A tiled wavefront's steps (Kernel::Steps; size 0: none).
  unsigned wavefrontSteps = 0;
  std::string wavefront, wavefrontMembers;
  std::vector<unsigned> wavefrontTile;
  bool registerTileConsidered = false;
  /// How the block size was chosen and why (KernelMapping::sizing).
  BlockSizing sizing;
  /// The order of the blocks and why (KernelMapping::order).
  ThreadOrder order;
  /// Per mapped member: number of schedule values (a function of the
  /// parameters and host iterators), and the grid extent in blocks.
  std::vector<isl::pw_aff> extent;
  std::vector<ReferenceFact> references;
  /// Bytes of global memory the kernel's references request over all its
  /// launches (each instance times each non-register reference), from the
  /// bounding boxes of the statement domains: exact for rectangular ones.
  /// A C expression of the parameters, and its value when it has no
  /// parameters.
  std::string globalBytesExpr;
  std::optional<double> globalBytes;
  bool bytesExact = true;
  /// For one-thread kernels: the dependences that keep it sequential.
  std::vector<unsigned> preventing;
  /// Memory promotion as the kernel records it (Kernel::sharedLoop, ...).
  std::string sharedLoop;
  unsigned sharedTileSize = 0;
  std::vector<SharedTile> sharedTiles;
  NoSharedTiles noShared;
  std::vector<RegisterAccumulator> accumulators;
  /// The reduction whose iterations the block's threads share (its
  /// member is the mapped member of the lanes), if any.
  std::optional<BlockReduction> reduction;
};

/// An array's device copies as the report reads them: the record itself.
using TransferFact = Transfer;

/// An outermost host loop and whether it became a persistent kernel
/// (GpuProgram::persistentLoops).
struct PersistentFact {
  std::string loop;              ///< the host iterator, e.g. "c0"
  std::vector<unsigned> kernels; ///< Kernel::id of each launch in it
  bool persistent = false;
  unsigned threads = 0;
  bool singleBlock = false;
  unsigned long sharedBytes = 0;
};

/// Everything the report says about one scop.
struct ScopExplanation {
  std::vector<LoopFact> loops;
  std::vector<DependenceFact> dependences;
  bool dependencesComplete = true;
  std::vector<BandFact> bands;
  std::vector<KernelFact> kernels;
  std::vector<TransferFact> transfers;
  /// Empty unless the target can run persistent kernels.
  std::vector<PersistentFact> persistentLoops;
  /// The parameter values for which every statement runs at least once:
  /// expressions in the report are simplified under it.
  isl::set typicalParams;
};

/// Derives the facts. `program.kernels` and `transfers` may be empty (C
/// target).
ScopExplanation explain(const GpuProgram &program);

/// Statement iterators renamed to their source names, e.g. for printing
/// `{ S0[i0, i1] -> [i1] }` as a function of `i, j`.
isl::map withSourceNames(const Statement &stmt, isl::map map);

/// A reference as the source writes it, e.g. `A[i][k + 1]`.
std::string accessText(const Scop &scop, const Statement &stmt,
                       const Access &access);

/// A function as a C expression (isl's C format).
std::string printC(const isl::pw_aff &pa);

/// Member `upa` of a band on statement `stmt`, as C over source names
/// (`4 * t + 2 * i + j`); empty when `upa` has no piece on `stmt`.
std::string memberText(const Statement &stmt, const isl::union_pw_aff &upa);


} // namespace polycuda::polyhedral

#endif
