//===- Pipeline.cpp - The polyhedral stages in order ----------------------===//
//
// Reads like a list: each stage is called in order and may be dumped.
//
//===----------------------------------------------------------------------===//
#include "Pipeline.h"

#include "IslExtras.h"

#include "MemoryPromotion.h"
#include "Transfers.h"

#include <isl/ctx.h>

#include <chrono>
#include <stdexcept>

namespace polycuda::polyhedral {

namespace {

/// Runs one stage, timing it and turning isl exceptions into errors that
/// name the stage and the scop.
template <typename Fn>
void runStage(const char *stage, const Scop &scop,
              const PipelineOptions &options, Fn &&fn) {
  auto start = std::chrono::steady_clock::now();
  try {
    fn();
  } catch (const isl::exception_quota &e) {
    throw std::runtime_error(scop.loc.str() + ": error: stage '" + stage +
                             "' exceeded its isl operation limit");
  } catch (const isl::exception &e) {
    throw std::runtime_error(std::string("internal compiler error in stage '") +
                             stage + "' for the scop at " + scop.loc.str() +
                             ": isl: " + e.what());
  }
  if (options.verbose && options.dumpStream) {
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    *options.dumpStream << "polycuda: " << scop.loc.str() << ": stage "
                        << stage << " took " << ms << " ms\n";
  }
}

void dump(const PipelineOptions &options, const char *stage,
          const std::function<std::string()> &text) {
  if (options.dumpStream && options.dumpAfter == stage)
    *options.dumpStream << "// --dump-after=" << stage << "\n"
                        << text() << "\n";
}

} // namespace

ScheduleResult runSchedulePipeline(const Scop &scop, Dependences &deps,
                                   const PipelineOptions &options) {
  dump(options, "scop", [&] { return scop.str(); });
  runStage("dependences", scop, options,
           [&] { deps = computeDependences(scop); });
  dump(options, "dependences", [&] {
    return "flow: " + toString(deps.flow) + "\nanti: " + toString(deps.anti) +
           "\noutput: " + toString(deps.output);
  });
  ScheduleResult result;
  runStage("schedule", scop, options, [&] {
    result = computeSchedule(scop, deps, options.scheduling);
  });
  dump(options, "schedule", [&] { return toString(result.schedule); });
  return result;
}

namespace {

/// The AST generator ran out of its budget on the parallel mapping.
struct AstBudgetExceeded {};

/// isl operations AST generation may spend on one scop's GPU program.
constexpr unsigned long kAstOperationLimit = 20000000;

GpuProgram runGpuPipelineOnce(const Scop &scop, const PipelineOptions &options,
                              const CodeNames &names);

} // namespace

GpuProgram runGpuPipeline(const Scop &scop, const PipelineOptions &options,
                          const CodeNames &names) {
  try {
    return runGpuPipelineOnce(scop, options, names);
  } catch (const AstBudgetExceeded &) {
    // Code for the parallel mapping would be too large to generate: run
    // the scop in its original order on one thread instead.
    PipelineOptions sequential = options;
    sequential.scheduling.sequential = true;
    GpuProgram program = runGpuPipelineOnce(scop, sequential, names);
    program.scheduleIsFallback = true;
    program.fallbackReason = "generating code for the parallel mapping "
                             "exceeded its budget; the scop runs in its "
                             "original order on one GPU thread";
    return program;
  }
}

namespace {

GpuProgram runGpuPipelineOnce(const Scop &scop, const PipelineOptions &options,
                              const CodeNames &names) {
  GpuProgram program;
  program.scop = &scop;
  program.names = names;
  ScheduleResult scheduled = runSchedulePipeline(scop, program.deps, options);
  program.schedule = scheduled.schedule;
  program.scheduleIsFallback = scheduled.usedFallback;
  program.fallbackReason = scheduled.fallbackReason;
  runStage("mapping", scop, options,
           [&] { mapToGpu(program, options.mapping); });
  dump(options, "mapping", [&] { return toString(program.schedule); });
  if (options.stopAfterMapping)
    return program;
  runStage("promotion", scop, options, [&] { promoteToRegisters(program); });
  runStage("transfers", scop, options,
           [&] { computeTransfers(program, options.transfers); });
  runStage("ast", scop, options, [&] {
    OperationLimit limit(scop.ctx, options.scheduling.sequential
                                       ? 0
                                       : kAstOperationLimit);
    try {
      generateGpuAsts(program);
    } catch (const isl::exception_quota &) {
      throw AstBudgetExceeded();
    }
  });
  dump(options, "ast", [&] {
    std::string text = "host:\n" + program.host.to_C_str();
    for (const Kernel &kernel : program.kernels)
      if (!kernel.ast.is_null())
        text += kernel.name + ":\n" + kernel.ast.to_C_str();
    return text;
  });
  return program;
}

} // namespace

} // namespace polycuda::polyhedral
