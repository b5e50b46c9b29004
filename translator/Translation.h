//===- Translation.h - One input file through every stage ------*- C++ -*-===//
//
// The translation of one parsed file, without the command line: scalar
// expansion, index-set splitting, the polyhedral pipeline per scop and the
// printer of the target. Used by the driver, the report (--explain) and the
// fuzz target. Errors are reported to llvm::errs(); nothing is written.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_TRANSLATOR_TRANSLATION_H
#define POLYCUDA_TRANSLATOR_TRANSLATION_H

#include "GpuProgram.h"
#include "Pipeline.h"
#include "ScalarExpansion.h"
#include "ScopBuilder.h"

#include <chrono>
#include <deque>
#include <string>
#include <vector>

namespace polycuda::translator {

struct TranslationOptions {
  std::string target = "cuda"; ///< cuda, opencl or c
  polyhedral::PipelineOptions pipeline;
  bool dumpSchedule = false; ///< print schedule trees to stdout
  bool emitCl = false;       ///< also print the OpenCL kernels alone
  bool verbose = false;      ///< remarks on privatization and splitting
  /// May a multiplication and an addition be fused (FMA)? Off: kernels
  /// round every operation as the sequential program does.
  bool fpContract = true;
};

/// What happened to one scop, for the report.
struct RegionTranslation {
  /// Scalar expansion and index-set splitting (what was expanded, which
  /// splits were tried and kept), and the scop's dependence cache.
  polyhedral::PreparedScop prepared;
  /// For GPU targets the whole mapped program; for the C target only
  /// `scop`, `deps`, `schedule` and the fallback fields are set.
  polyhedral::GpuProgram program;
};

struct Translation {
  /// One per input.regions[i]; a deque, since isl objects cannot be copied
  /// while null.
  std::deque<RegionTranslation> regions;
  std::string text;     ///< the output file (CUDA: the .cu file)
  std::string hostText; ///< CUDA: the host file, C (see printCudaFiles)
  std::string clText;   ///< the kernels alone (emitCl)
};

/// With -v, prints "polycuda: <what> took <ms> ms" when the enclosing scope
/// ends.
class StageTimer {
public:
  StageTimer(bool verbose, std::string what)
      : verbose(verbose), what(std::move(what)),
        start(std::chrono::steady_clock::now()) {}
  ~StageTimer();

private:
  bool verbose;
  std::string what;
  std::chrono::steady_clock::time_point start;
};

/// Translates every scop of `input` (whose Scops it may transform). Returns
/// false after reporting an error.
bool translate(ParsedInput &input, const TranslationOptions &options,
               Translation &result);

/// The isl schedule tree in YAML block style.
std::string scheduleYaml(const isl::schedule &schedule);

} // namespace polycuda::translator

#endif
