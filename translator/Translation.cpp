//===- Translation.cpp - One input file through every stage ---------------===//
#include "Translation.h"

#include "Isolated.h"

#include "HostPrinter.h"
#include "IndexSetSplitting.h"

#include <isl/printer.h>
#include <isl/schedule.h>

#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <regex>

namespace polycuda::translator {

std::string scheduleYaml(const isl::schedule &schedule) {
  isl_printer *p = isl_printer_to_str(schedule.ctx().get());
  p = isl_printer_set_yaml_style(p, ISL_YAML_STYLE_BLOCK);
  p = isl_printer_print_schedule(p, schedule.get());
  char *s = isl_printer_get_str(p);
  std::string text = s ? s : "";
  free(s);
  isl_printer_free(p);
  return text;
}

namespace {

bool matchesNumbered(const std::vector<std::string> &names,
                     const std::string &prefix) {
  std::regex pattern(prefix + "[0-9]+");
  for (const std::string &name : names)
    if (std::regex_match(name, pattern))
      return true;
  return false;
}

/// Names for generated code that do not clash with the user's identifiers.
polyhedral::CodeNames chooseNames(const std::vector<std::string> &used) {
  polyhedral::CodeNames names;
  for (std::string *prefix : {&names.hostIterator, &names.kernelIterator,
                              &names.blockId, &names.threadId})
    while (matchesNumbered(used, *prefix))
      *prefix = "polycuda_" + *prefix;
  for (const std::string &name : used)
    if (name.rfind(names.devicePrefix, 0) == 0)
      names.devicePrefix = "polycuda_dev_";
  return names;
}

/// Deepest nest of host loops around a kernel launch: launches grow as the
/// problem size to this power.
unsigned launchDepth(const polyhedral::Scop &scop,
                     const polyhedral::PipelineOptions &pipeline) {
  polyhedral::GpuProgram program = polyhedral::runGpuPipeline(scop, pipeline);
  unsigned depth = 0;
  for (const polyhedral::Kernel &kernel : program.kernels)
    depth = std::max(depth, kernel.hostDepth);
  return depth;
}

/// Splits statements on broadcast planes (IndexSetSplitting) when that
/// lowers the launch depth of the mapped program, e.g. Floyd-Warshall from a
/// wavefront of n^2 launches to 9 parallel kernels per k.
void chooseIndexSetSplit(ScopRegion &region,
                         const polyhedral::PipelineOptions &pipeline,
                         bool verbose, RegionTranslation &record) {
  // Dependences first, so that the copy shares them (Scop::dependenceCache).
  polyhedral::computeDependences(*region.scop);
  auto split = std::make_unique<polyhedral::Scop>(*region.scop);
  record.splits = polyhedral::splitIndexSets(*split);
  region.scop->dependenceBudgetExceeded |= split->dependenceBudgetExceeded;
  if (record.splits.empty())
    return;
  polyhedral::PipelineOptions serialized = pipeline;
  serialized.dumpAfter.clear();
  serialized.verbose = false;
  serialized.stopAfterMapping = true;
  polyhedral::PipelineOptions plain = serialized;
  serialized.scheduling.serializeSccs = true;
  unsigned before, after;
  {
    StageTimer timer(verbose, region.scop->loc.str() +
                                  ": mapping without the split");
    before = launchDepth(*region.scop, plain);
  }
  std::optional<std::string> trial;
  {
    // The split scop has more statements, and isl's scheduler can take
    // far longer on it (25 s for one program) than the split can save:
    // the trial gets two thirds of the time a schedule may take, and a
    // trial that runs out keeps the scop unsplit.
    StageTimer timer(verbose, region.scop->loc.str() +
                                  ": mapping with the split");
    polyhedral::PipelineOptions bounded = serialized;
    bounded.scheduling.timeLimitMs = 0;
    trial = polyhedral::runWithDeadline(
        [&] { return std::to_string(launchDepth(*split, bounded)); },
        pipeline.scheduling.timeLimitMs * 2 / 3);
  }
  if (!trial) {
    if (verbose)
      llvm::errs() << region.scop->loc.str()
                   << ": remark: index-set splitting not tried: mapping the "
                      "split statements exceeded its time limit\n";
    return;
  }
  after = std::stoul(*trial);
  bool keep = after < before;
  record.launchDepthBefore = before;
  record.launchDepthAfter = after;
  record.splitApplied = keep;
  if (verbose)
    for (const std::string &line : record.splits)
      llvm::errs() << region.scop->loc.str() << ": remark: "
                   << (keep ? "" : "not ") << "applied: " << line
                   << " (launch depth " << before << " -> " << after << ")\n";
  if (keep) {
    region.scop = std::move(split);
    region.serializeSccs = true;
  }
}

} // namespace

StageTimer::~StageTimer() {
  if (verbose)
    llvm::errs() << "polycuda: " << what << " took "
                 << llvm::format("%.1f", std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start).count())
                 << " ms\n";
}

namespace {

/// Scalar expansion and index-set splitting of every region; false after
/// an error was printed.
bool prepareRegions(ParsedInput &input, const TranslationOptions &options,
                    Translation &result) {
  try {
    for (ScopRegion &region : input.regions) {
      StageTimer timer(options.verbose,
                       region.scop->loc.str() + ": stage scalar expansion");
      RegionTranslation &record = result.regions.emplace_back();
      record.expansions = polyhedral::expandScalars(*region.scop);
      if (options.verbose)
        for (const polyhedral::ScalarExpansion &expansion : record.expansions)
          llvm::errs() << region.scop->loc.str() << ": remark: scalar '"
                       << expansion.array << "': " << expansion.reason << "\n";
    }
    for (size_t i = 0; i < input.regions.size(); ++i) {
      StageTimer timer(options.verbose, input.regions[i].scop->loc.str() +
                                            ": stage index-set splitting");
      chooseIndexSetSplit(input.regions[i], options.pipeline, options.verbose,
                          result.regions[i]);
    }
  } catch (const isl::exception &e) {
    llvm::errs() << "polycuda: internal compiler error in stage 'scalar "
                    "expansion': isl: "
                 << e.what() << "\n";
    return false;
  } catch (const std::exception &e) {
    llvm::errs() << "polycuda: " << e.what() << "\n";
    return false;
  }
  return true;
}

/// The C target: every region scheduled and printed as C with OpenMP.
void translateToC(ParsedInput &input, const TranslationOptions &options,
                  Translation &result) {
  std::vector<isl::ast_node> asts;
  for (size_t i = 0; i < input.regions.size(); ++i) {
    ScopRegion &region = input.regions[i];
    polyhedral::GpuProgram &program = result.regions[i].program;
    polyhedral::PipelineOptions scoped = options.pipeline;
    scoped.scheduling.serializeSccs = region.serializeSccs;
    polyhedral::ScheduleResult scheduled =
        polyhedral::runSchedulePipeline(*region.scop, program.deps, scoped);
    program.scop = region.scop.get();
    program.schedule = scheduled.schedule;
    program.scheduleIsFallback = scheduled.usedFallback;
    program.fallbackReason = scheduled.fallbackReason;
    if (options.dumpSchedule)
      std::cout << "// schedule of the scop at " << region.scop->loc.str()
                << "\n" << scheduleYaml(scheduled.schedule) << "\n";
    asts.push_back(polyhedral::generateCAst(
        *region.scop, scheduled.schedule,
        chooseNames(region.usedNames).hostIterator));
  }
  result.text = printCFile(input, asts);
}

/// The CUDA and OpenCL targets: every region through the GPU pipeline.
void translateToGpu(ParsedInput &input, const TranslationOptions &options,
                    Translation &result) {
  std::vector<polyhedral::GpuProgram> programs;
  programs.reserve(input.regions.size());
  for (ScopRegion &region : input.regions) {
    polyhedral::PipelineOptions scoped = options.pipeline;
    scoped.scheduling.serializeSccs = region.serializeSccs;
    programs.push_back(polyhedral::runGpuPipeline(
        *region.scop, scoped, chooseNames(region.usedNames)));
    if (programs.back().scheduleIsFallback)
      llvm::errs() << region.scop->loc.str()
                   << ": remark: used the original loop order: "
                   << programs.back().fallbackReason << "\n";
    if (options.dumpSchedule)
      std::cout << "// schedule of the scop at " << region.scop->loc.str()
                << "\n" << scheduleYaml(programs.back().schedule) << "\n";
  }
  if (options.target == "cuda") {
    CudaFiles files = printCudaFiles(input, programs,
                                    *makeCudaTarget(options.fpContract));
    result.text = std::move(files.device);
    result.hostText = std::move(files.host);
  } else {
    result.text = printGpuFile(input, programs,
                               *makeOpenCLTarget(options.fpContract));
  }
  if (options.emitCl)
    result.clText = printOpenCLKernels(input, programs, options.fpContract);
  for (size_t i = 0; i < programs.size(); ++i)
    result.regions[i].program = std::move(programs[i]);
}

} // namespace

bool translate(ParsedInput &input, const TranslationOptions &options,
               Translation &result) {
  if (!prepareRegions(input, options, result))
    return false;
  try {
    if (options.target == "c")
      translateToC(input, options, result);
    else
      translateToGpu(input, options, result);
  } catch (const std::exception &e) {
    llvm::errs() << "polycuda: " << e.what() << "\n";
    return false;
  }
  return true;
}

} // namespace polycuda::translator
