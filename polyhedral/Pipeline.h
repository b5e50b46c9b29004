//===- Pipeline.h - The polyhedral stages in order -------------*- C++ -*-===//
//
// Scop -> scalar expansion -> index-set splitting (kept if it pays) ->
// Dependences -> schedule -> kernels -> promotion -> transfers -> ASTs.
// isl errors are caught here and reported as internal errors naming the
// stage and the scop. The stages and their records: polyhedral/README.md.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_PIPELINE_H
#define POLYCUDA_POLYHEDRAL_PIPELINE_H

#include "AstGeneration.h"
#include "GpuMapping.h"
#include "Persistent.h"
#include "ScalarExpansion.h"
#include "Scheduling.h"
#include "SharedMemory.h"

#include <functional>
#include <memory>
#include <optional>
#include <ostream>

namespace polycuda::polyhedral {

struct PipelineOptions {
  SchedulingOptions scheduling;
  GpuMappingOptions mapping;
  /// Stage after which to print the isl object ("scop", "dependences",
  /// "schedule", "mapping", "ast"), or empty.
  std::string dumpAfter;
  std::ostream *dumpStream = nullptr;
  /// Stop after the mapping stage: kernels and their mapping only, no
  /// transfers and no ASTs (for cost models that compare mappings).
  bool stopAfterMapping = false;
  /// Per-stage timing and progress, printed to `dumpStream` when set.
  bool verbose = false;
  /// Register accumulators in kernels (`--no-registers` turns them off).
  bool registers = true;
  /// Shared-memory tiles in kernels (`--no-shared` turns them off).
  bool shared = true;
  /// Small read-only arrays that every thread of a block reads alike in
  /// constant memory (`--no-constant` turns it off; SharedMemory.h).
  bool constant = true;
  /// Shared-memory tiles also for uncoalesced reads without reuse
  /// (`--stage-uncoalesced`).
  StageUncoalesced stageUncoalesced = StageUncoalesced::Blocks;
  /// References from which a stencil's neighbourhood goes through shared
  /// memory (`--shared-neighbourhood-min`, SharedMemory.h).
  unsigned sharedNeighbourhoodMin = kMinNeighbourhoodReferences;
  /// How the host/device copies move their bytes (`--transfers`).
  TransferMethod transfers = TransferMethod::Auto;
  /// Host loops of launches as persistent kernels (`--persistent`; the
  /// driver enables it for CUDA only).
  PersistentOptions persistent;
  /// Run no dependence analysis: every scop keeps its original order on
  /// one thread (the driver's retry after isl failed or the translation
  /// crashed).
  bool skipDependences = false;
  /// Why skipDependences is set, for the report.
  std::string skipReason = "the dependence analysis was not run (isl "
                           "failed in it)";
  /// isl operations the dependence analysis of a scop may spend
  /// (--dependence-max-operations; DependenceCache::maxOperations).
  unsigned long dependenceMaxOperations = kDependenceOperationLimit;
  /// Exact copy sets (Transfers.h); without, every array is copied over
  /// the box of all it accesses, both ways.
  bool exactTransfers = true;
  /// Triangles' copies in bands of rows (`--copy-bands`, Transfers.h).
  bool copyBands = true;
  /// Privatization (`--expansion`, ScalarExpansion.h): scalars and
  /// temporary arrays whose values never cross an iteration of the loops
  /// around them get a copy per iteration; without, their reuse keeps
  /// those loops sequential.
  bool expansion = true;

  /// The cheapest translation that is always right, for the driver's retry
  /// after the translation exceeded its processor-time budget: no
  /// dependence analysis (the original order on one thread), no memory
  /// promotion, no exact copy sets, no index-set splitting. `reason` is
  /// what the report says of the dependences.
  void makeMinimal(const std::string &reason) {
    skipDependences = true;
    skipReason = reason;
    registers = false;
    shared = false;
    constant = false;
    exactTransfers = false;
  }
};

/// The record of the scop-level stages before scheduling: what they
/// decided, and the dependence stage's cache for the scop they leave.
struct PreparedScop {
  DependenceCache dependences;
  std::vector<ScalarExpansion> expansions;
  /// The index-set splits found (one line each), and whether the split scop
  /// was kept: it is when it lowers the launch depth of the mapped program
  /// (how deep the host loops around the deepest launch are).
  std::vector<std::string> splits;
  bool splitApplied = false;
  unsigned launchDepthBefore = 0, launchDepthAfter = 0;
  /// Mapping the split scop ran out of its time (the split is not kept).
  bool splitTimedOut = false;
  /// The scheduler serializes strongly connected components (for the
  /// split scop, whose pieces must stay apart).
  bool serializeSccs = false;
};

/// Whether a stage of this process failed with an isl error other than an
/// exceeded operation limit: an internal error of isl (isl 0.25 corrupts
/// its memory in the dataflow analysis of a few programs, random program
/// 5004808, which then fails or crashes depending on the memory layout).
bool islFailedInternally();

/// Scalar expansion of `scop` in place, then index-set splitting when it
/// pays (decided by mapping the scop with and without the split; `scop`
/// is then replaced by the split one). Throws as runGpuPipeline.
PreparedScop prepareScop(std::unique_ptr<Scop> &scop,
                         const PipelineOptions &options);

/// Runs every stage after prepareScop on `scop`, whose dependences `cache`
/// holds (or receives). Throws std::runtime_error (with the stage and the
/// scop location) on an isl failure.
GpuProgram runGpuPipeline(const Scop &scop, DependenceCache &cache,
                          const PipelineOptions &options,
                          const CodeNames &names = CodeNames());
/// The same on a prepared scop (with its scheduler setting).
GpuProgram runGpuPipeline(const Scop &scop, PreparedScop &prepared,
                          const PipelineOptions &options,
                          const CodeNames &names = CodeNames());
/// The same with a cache of its own.
GpuProgram runGpuPipeline(const Scop &scop, const PipelineOptions &options,
                          const CodeNames &names = CodeNames());

/// Dependences and schedule only, for the C target.
ScheduleResult runSchedulePipeline(const Scop &scop, DependenceCache &cache,
                                   Dependences &deps,
                                   const PipelineOptions &options);
/// The same on a prepared scop (with its scheduler setting).
ScheduleResult runSchedulePipeline(const Scop &scop, PreparedScop &prepared,
                                   Dependences &deps,
                                   const PipelineOptions &options);
/// The same with a cache of its own.
ScheduleResult runSchedulePipeline(const Scop &scop, Dependences &deps,
                                   const PipelineOptions &options);

/// The C target's schedule of a prepared scop and its AST (loop iterators
/// named from `prefix`). Where isl's code for the schedule fails its check
/// in every loop mode, the original order instead (a fallback, with its
/// reason in the result); an error only if that fails too.
struct CProgram {
  ScheduleResult scheduled;
  isl::ast_node ast;
};
CProgram runCPipeline(const Scop &scop, PreparedScop &prepared,
                      Dependences &deps, const PipelineOptions &options,
                      const std::string &prefix);

} // namespace polycuda::polyhedral

#endif
