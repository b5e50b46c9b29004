//===- Translation.cpp - One input file through every stage ---------------===//
#include "Translation.h"

#include "Report.h"

#include "IslExtras.h"
#include "Isolated.h"

#include "HostPrinter.h"
#include "IndexSetSplitting.h"

#include <isl/schedule.h>

#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>
#include <iostream>
#include <memory>

namespace polycuda::translator {

std::string scheduleYaml(const isl::schedule &schedule) {
  return polyhedral::toYaml(schedule);
}

namespace {

bool matchesNumbered(const std::vector<std::string> &names,
                     const std::string &prefix) {
  for (const std::string &name : names)
    if (name.size() > prefix.size() &&
        name.compare(0, prefix.size(), prefix) == 0 &&
        name.find_first_not_of("0123456789", prefix.size()) ==
            std::string::npos)
      return true;
  return false;
}

/// Names for generated code that do not clash with the user's identifiers.
polyhedral::CodeNames chooseNames(const std::vector<std::string> &used) {
  polyhedral::CodeNames names;
  for (std::string *prefix : {&names.hostIterator, &names.kernelIterator,
                              &names.blockId, &names.threadId,
                              &names.gridId})
    while (matchesNumbered(used, *prefix))
      *prefix = "polycuda_" + *prefix;
  for (const std::string &name : used)
    if (name.rfind(names.devicePrefix, 0) == 0)
      names.devicePrefix = "polycuda_dev_";
  return names;
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

/// -v remarks on what scalar expansion and index-set splitting decided.
void remarkOnPreparation(const polyhedral::Scop &scop,
                         const polyhedral::PreparedScop &prepared) {
  std::string where = scop.loc.str();
  for (const polyhedral::ScalarExpansion &expansion : prepared.expansions)
    llvm::errs() << where << ": remark: scalar '" << expansion.array
                 << "': " << expansionReason(expansion) << "\n";
  if (prepared.splitTimedOut) {
    llvm::errs() << where
                 << ": remark: index-set splitting not tried: mapping the "
                    "split statements exceeded its time limit\n";
    return;
  }
  for (const std::string &line : prepared.splits)
    llvm::errs() << where << ": remark: "
                 << (prepared.splitApplied ? "" : "not ")
                 << "applied: " << line << " (launch depth "
                 << prepared.launchDepthBefore << " -> "
                 << prepared.launchDepthAfter << ")\n";
}

/// The scop-level stages of every region (polyhedral::prepareScop); false
/// after an error was printed.
bool prepareRegions(ParsedInput &input, const TranslationOptions &options,
                    Translation &result) {
  try {
    for (ScopRegion &region : input.regions) {
      StageTimer timer(options.verbose, region.scop->loc.str() +
                                            ": scalar expansion and "
                                            "index-set splitting");
      RegionTranslation &record = result.regions.emplace_back();
      record.prepared = polyhedral::prepareScop(region.scop, options.pipeline);
      if (options.verbose)
        remarkOnPreparation(*region.scop, record.prepared);
    }
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
    polyhedral::CProgram c = polyhedral::runCPipeline(
        *region.scop, result.regions[i].prepared, program.deps,
        options.pipeline, chooseNames(region.usedNames).hostIterator);
    const polyhedral::ScheduleResult &scheduled = c.scheduled;
    program.scop = region.scop.get();
    program.schedule = scheduled.schedule;
    program.fallback = scheduled.fallback;
    if (options.dumpSchedule)
      std::cout << "// schedule of the scop at " << region.scop->loc.str()
                << "\n" << scheduleYaml(scheduled.schedule) << "\n";
    asts.push_back(c.ast);
  }
  result.text = printCFile(input, asts);
}

/// The CUDA and OpenCL targets: every region through the GPU pipeline.
void translateToGpu(ParsedInput &input, const TranslationOptions &options,
                    Translation &result) {
  std::vector<polyhedral::GpuProgram> programs;
  programs.reserve(input.regions.size());
  // Only CUDA has a grid-wide barrier: OpenCL keeps its launches, and its
  // report says nothing of persistent kernels.
  polyhedral::PipelineOptions pipeline = options.pipeline;
  if (options.target != "cuda")
    pipeline.persistent = polyhedral::PersistentOptions();
  for (size_t i = 0; i < input.regions.size(); ++i) {
    ScopRegion &region = input.regions[i];
    programs.push_back(polyhedral::runGpuPipeline(
        *region.scop, result.regions[i].prepared, pipeline,
        chooseNames(region.usedNames)));
    if (programs.back().scheduleIsFallback())
      llvm::errs() << region.scop->loc.str()
                   << ": remark: used the original loop order: "
                   << polyhedral::describe(programs.back().fallback) << "\n";
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

/// Every --sizes key names a kernel of some scop; false after an error.
bool sizesNameKernels(const TranslationOptions &options,
                      const Translation &result) {
  for (const auto &[key, sizes] : options.pipeline.mapping.blockSizes) {
    bool found = false;
    for (const RegionTranslation &region : result.regions)
      for (const polyhedral::Kernel &kernel : region.program.kernels)
        found |= key == kernel.name ||
                 key == kernel.name + "@" +
                            std::to_string(region.program.scop->loc.line) ||
                 key == "kernel" + std::to_string(kernel.id);
    if (!found) {
      llvm::errs() << "polycuda: error: --sizes names no kernel '" << key
                   << "'; the kernels are named by their statements (see "
                      "--explain) or their position (kernel0, ...)\n";
      return false;
    }
  }
  return true;
}

} // namespace

bool translate(ParsedInput &input, const TranslationOptions &options,
               Translation &result) {
  if (!prepareRegions(input, options, result))
    return false;
  try {
    if (options.target == "c") {
      translateToC(input, options, result);
    } else {
      translateToGpu(input, options, result);
      if (!sizesNameKernels(options, result))
        return false;
    }
  } catch (const std::exception &e) {
    llvm::errs() << "polycuda: " << e.what() << "\n";
    return false;
  }
  return true;
}

} // namespace polycuda::translator
