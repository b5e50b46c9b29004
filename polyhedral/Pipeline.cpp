//===- Pipeline.cpp - The polyhedral stages in order ----------------------===//
//
// Reads like a list: each stage is called in order and may be dumped.
//
//===----------------------------------------------------------------------===//
#include "Pipeline.h"

#include "AstGeneration.h"
#include "IslExtras.h"

#include "IndexSetSplitting.h"
#include "Isolated.h"
#include "MemoryPromotion.h"
#include "Reductions.h"
#include "SharedMemory.h"
#include "Transfers.h"

#include <isl/ctx.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace polycuda::polyhedral {

namespace {

bool islInternalError = false;

/// Runs one stage, timing it and turning isl exceptions into errors that
/// name the stage and the scop.
template <typename Fn>
void runStage(const char *stage, const SourceLoc &where,
              const PipelineOptions &options, Fn &&fn) {
  auto start = std::chrono::steady_clock::now();
  try {
    fn();
  } catch (const isl::exception_quota &e) {
    throw std::runtime_error(where.str() + ": error: stage '" + stage +
                             "' exceeded its isl operation limit");
  } catch (const isl::exception &e) {
    islInternalError = true;
    throw std::runtime_error(std::string("internal compiler error in stage '") +
                             stage + "' for the scop at " + where.str() +
                             ": isl: " + e.what());
  }
  if (options.verbose && options.dumpStream) {
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    *options.dumpStream << "polycuda: " << where.str() << ": stage "
                        << stage << " took " << ms << " ms\n";
  }
}

/// With -v: a stage that took its fallback, and why.
void noteFallback(const PipelineOptions &options, const SourceLoc &where,
                  const char *stage, const std::string &reason) {
  if (options.verbose && options.dumpStream)
    *options.dumpStream << "polycuda: " << where.str() << ": fallback: "
                        << stage << ": " << reason << "\n";
}

void dump(const PipelineOptions &options, const char *stage,
          const std::function<std::string()> &text) {
  if (options.dumpStream && options.dumpAfter == stage)
    *options.dumpStream << "// --dump-after=" << stage << "\n"
                        << text() << "\n";
}

} // namespace

bool islFailedInternally() { return islInternalError; }

ScheduleResult runSchedulePipeline(const Scop &scop, PreparedScop &prepared,
                                   Dependences &deps,
                                   const PipelineOptions &options) {
  PipelineOptions scoped = options;
  scoped.scheduling.serializeSccs = prepared.serializeSccs;
  return runSchedulePipeline(scop, prepared.dependences, deps, scoped);
}

ScheduleResult runSchedulePipeline(const Scop &scop, Dependences &deps,
                                   const PipelineOptions &options) {
  DependenceCache cache;
  return runSchedulePipeline(scop, cache, deps, options);
}

ScheduleResult runSchedulePipeline(const Scop &scop, DependenceCache &cache,
                                   Dependences &deps,
                                   const PipelineOptions &options) {
  dump(options, "scop", [&] { return scop.str(); });
  runStage("dependences", scop.loc, options,
           [&] { deps = computeDependences(scop, cache); });
  if (!deps.complete)
    noteFallback(options, scop.loc, "dependences", deps.incompleteReason);
  dump(options, "dependences", [&] {
    return "flow: " + toString(deps.flow) + "\nanti: " + toString(deps.anti) +
           "\noutput: " + toString(deps.output);
  });
  ScheduleResult result;
  runStage("schedule", scop.loc, options, [&] {
    result = computeSchedule(scop, deps, options.scheduling);
  });
  dump(options, "schedule", [&] { return toString(result.schedule); });
  if (result.usedFallback() && deps.complete)
    noteFallback(options, scop.loc, "schedule", describe(result.fallback));
  return result;
}

CProgram runCPipeline(const Scop &scop, PreparedScop &prepared,
                      Dependences &deps, const PipelineOptions &options,
                      const std::string &prefix) {
  CProgram program;
  program.scheduled = runSchedulePipeline(scop, prepared, deps, options);
  try {
    program.ast =
        generateCAst(scop, program.scheduled.schedule, deps, prefix);
    return program;
  } catch (const AstNotVerified &e) {
    // isl printed wrong code for the schedule in every loop mode: the
    // original order (or the error, if it fails that too).
    if (options.scheduling.sequential)
      throw;
    noteFallback(options, scop.loc, "ast", e.what());
  }
  PipelineOptions sequential = options;
  sequential.scheduling.sequential = true;
  program.scheduled = runSchedulePipeline(scop, prepared, deps, sequential);
  program.scheduled.fallback.why = ScheduleFallback::Why::CCodeNotVerified;
  program.ast = generateCAst(scop, program.scheduled.schedule, deps, prefix);
  return program;
}

namespace {

/// The AST generator ran out of its budget on the parallel mapping.
struct AstBudgetExceeded {};

/// isl operations AST generation may spend on one scop's GPU program.
constexpr unsigned long kAstOperationLimit = 20000000;

/// Why a rung of runGpuPipeline's ladder runs the scop in its original
/// order on one thread (none on the others), and whether to say so once
/// it ran (with -v).
struct SequentialRung {
  std::optional<ScheduleFallback> because;
  bool noteWhenDone = false;
};

GpuProgram runGpuPipelineOnce(const Scop &scop, DependenceCache &cache,
                              const PipelineOptions &options,
                              const CodeNames &names,
                              const SequentialRung &rung = {});

} // namespace

GpuProgram runGpuPipeline(const Scop &scop, const PipelineOptions &options,
                          const CodeNames &names) {
  DependenceCache cache;
  return runGpuPipeline(scop, cache, options, names);
}

GpuProgram runGpuPipeline(const Scop &scop, PreparedScop &prepared,
                          const PipelineOptions &options,
                          const CodeNames &names) {
  PipelineOptions scoped = options;
  scoped.scheduling.serializeSccs = prepared.serializeSccs;
  return runGpuPipeline(scop, prepared.dependences, scoped, names);
}

GpuProgram runGpuPipeline(const Scop &scop, DependenceCache &cache,
                          const PipelineOptions &options,
                          const CodeNames &names) {
  // The fallback ladder: the full mapping; without block reductions when
  // one's code could not be generated; the original order on one thread
  // when isl's code for the mapping fails its check in every loop mode or
  // exceeds its budget. Each rung keeps what the one before dropped; the
  // last rung's failure is the error.
  // (The program is returned as runGpuPipelineOnce made it: a copy of its
  // null isl objects would throw.)
  PipelineOptions rung = options;
  SequentialRung sequential;
  for (;;) {
    try {
      return runGpuPipelineOnce(scop, cache, rung, names, sequential);
    } catch (const ReductionCodeFailed &) {
      if (!rung.mapping.reductions)
        throw;
      rung.mapping.reductions = false;
      noteFallback(options, scop.loc, "ast",
                   "a kernel's reduction could not be generated; mapped "
                   "again without reductions");
    } catch (const AstNotVerified &e) {
      if (rung.scheduling.sequential)
        throw;
      rung.scheduling.sequential = true;
      noteFallback(options, scop.loc, "ast", e.what());
      sequential.because = {ScheduleFallback::Why::GpuCodeNotVerified};
    } catch (const AstBudgetExceeded &) {
      if (rung.scheduling.sequential)
        throw;
      rung.scheduling.sequential = true;
      sequential.because = {ScheduleFallback::Why::GpuCodeBudget};
      sequential.noteWhenDone = true;
    }
  }
}

namespace {

GpuProgram runGpuPipelineOnce(const Scop &scop, DependenceCache &cache,
                              const PipelineOptions &options,
                              const CodeNames &names,
                              const SequentialRung &rung) {
  GpuProgram program;
  program.scop = &scop;
  program.names = names;
  ScheduleResult scheduled =
      runSchedulePipeline(scop, cache, program.deps, options);
  program.schedule = scheduled.schedule;
  program.fallback = rung.because.value_or(scheduled.fallback);
  runStage("mapping", scop.loc, options, [&] {
    // Register tiles hold their points' accumulators in registers.
    GpuMappingOptions mapping = options.mapping;
    mapping.registerTiles &= options.registers;
    mapping.stageUncoalesced =
        options.shared ? options.stageUncoalesced : StageUncoalesced::Off;
    mapToGpu(program, mapping);
  });
  dump(options, "mapping", [&] { return toString(program.schedule); });
  if (options.stopAfterMapping)
    return program;
  runStage("promotion", scop.loc, options,
           [&] {
             promoteToRegisters(program);
             if (options.constant)
               placeInConstantMemory(program);
             if (options.shared)
               promoteToShared(program, 32, options.stageUncoalesced,
                               options.sharedNeighbourhoodMin);
             promoteSteps(program, options.shared);
             if (options.registers)
               promoteAccumulators(program);
             insertBlockReductions(program);
           });
  runStage("transfers", scop.loc, options,
           [&] {
             computeTransfers(program, options.transfers,
                              options.exactTransfers, options.copyBands);
           });
  unsigned whole = 0;
  for (const Transfer &transfer : program.transfers)
    whole += transfer.whole();
  if (whole)
    noteFallback(options, scop.loc, "transfers",
                 std::to_string(whole) + " array(s) copied over all they "
                 "access, both ways" + (options.exactTransfers
                     ? std::string(" (the exact copy sets exceeded their isl "
                                   "budget)")
                     : std::string(" (the cheapest fallbacks)")));
  runStage("persistent", scop.loc, options,
           [&] { choosePersistentLoops(program, options.persistent); });
  runStage("ast", scop.loc, options, [&] {
    OperationLimit limit(scop.ctx, options.scheduling.sequential
                                       ? 0
                                       : kAstOperationLimit);
    try {
      generateGpuAsts(program);
    } catch (const isl::exception_quota &) {
      throw AstBudgetExceeded();
    }
  });
  runStage("placement", scop.loc, options,
           [&] { placeTransfers(program); });
  dump(options, "ast", [&] {
    std::string text = "host:\n" + program.host.to_C_str();
    for (const Kernel &kernel : program.kernels)
      if (!kernel.ast.is_null())
        text += kernel.name + ":\n" + kernel.ast.to_C_str();
    return text;
  });
  if (rung.noteWhenDone)
    noteFallback(options, scop.loc, "ast", describe(*rung.because));
  return program;
}

} // namespace

namespace {

/// Deepest nest of host loops around a kernel launch of the mapped `scop`:
/// launches grow as the problem size to this power.
unsigned launchDepth(const Scop &scop, DependenceCache &cache,
                     const PipelineOptions &options) {
  PipelineOptions mapping = options;
  mapping.dumpAfter.clear();
  mapping.verbose = false;
  mapping.stopAfterMapping = true;
  GpuProgram program = runGpuPipeline(scop, cache, mapping);
  unsigned depth = 0;
  for (const Kernel &kernel : program.kernels)
    depth = std::max(depth, kernel.mapping->hostDepth);
  return depth;
}

/// Splits statements on broadcast planes (IndexSetSplitting) when that
/// lowers the launch depth of the mapped program, e.g. Floyd-Warshall from a
/// wavefront of n^2 launches to 9 parallel kernels per k.
void chooseIndexSetSplit(std::unique_ptr<Scop> &scop, PreparedScop &prepared,
                         const PipelineOptions &options) {
  // Dependences first, so that the copy starts from them.
  computeDependences(*scop, prepared.dependences);
  auto split = std::make_unique<Scop>(*scop);
  DependenceCache splitCache = prepared.dependences;
  prepared.splits = splitIndexSets(*split, splitCache);
  prepared.dependences.budgetExceeded |= splitCache.budgetExceeded;
  if (prepared.splits.empty())
    return;
  unsigned before = launchDepth(*scop, prepared.dependences, options);
  // The split scop has more statements, and isl's scheduler can take far
  // longer on it (25 s for one program) than the split can save: the trial
  // gets two thirds of the time a schedule may take, and a trial that runs
  // out keeps the scop unsplit.
  PipelineOptions bounded = options;
  bounded.scheduling.timeLimitMs = 0;
  bounded.scheduling.serializeSccs = true;
  std::optional<std::string> trial = runWithDeadline(
      [&] { return std::to_string(launchDepth(*split, splitCache, bounded)); },
      options.scheduling.timeLimitMs * 2 / 3);
  if (!trial) {
    prepared.splitTimedOut = true;
    return;
  }
  unsigned after = std::stoul(*trial);
  prepared.launchDepthBefore = before;
  prepared.launchDepthAfter = after;
  prepared.splitApplied = after < before;
  if (prepared.splitApplied) {
    scop = std::move(split);
    prepared.dependences = std::move(splitCache);
    prepared.serializeSccs = true;
  }
}

} // namespace

PreparedScop prepareScop(std::unique_ptr<Scop> &scop,
                         const PipelineOptions &options) {
  PreparedScop prepared;
  SourceLoc loc = scop->loc;
  prepared.dependences.maxOperations = options.dependenceMaxOperations;
  if (options.skipDependences) {
    prepared.dependences.budgetExceeded = true;
    prepared.dependences.incompleteReason = options.skipReason;
    return prepared;
  }
  // Variables declared inside the scop are private whatever --expansion
  // says: C makes them a new object in every iteration of the loops around
  // their declaration.
  bool localOnly = !options.expansion;
  runStage("scalar expansion", loc, options, [&] {
    prepared.expansions =
        expandScalars(*scop, prepared.dependences, localOnly);
  });
  runStage("array expansion", loc, options, [&] {
    for (ScalarExpansion &expansion :
         expandArrays(*scop, prepared.dependences, localOnly))
      prepared.expansions.push_back(expansion);
  });
  runStage("index-set splitting", loc, options,
           [&] { chooseIndexSetSplit(scop, prepared, options); });
  return prepared;
}

} // namespace polycuda::polyhedral
