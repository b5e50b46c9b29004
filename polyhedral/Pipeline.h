//===- Pipeline.h - The polyhedral stages in order -------------*- C++ -*-===//
//
// Scop -> Dependences -> schedule -> kernels -> promotion -> transfers -> ASTs.
// isl errors are caught here and reported as internal errors naming the
// stage and the scop.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_PIPELINE_H
#define POLYCUDA_POLYHEDRAL_PIPELINE_H

#include "AstGeneration.h"
#include "GpuMapping.h"
#include "Scheduling.h"

#include <functional>
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
  /// How the host/device copies move their bytes (`--transfers`).
  TransferMethod transfers = TransferMethod::Auto;
};

/// Runs every stage on `scop`. Throws std::runtime_error (with the stage and
/// the scop location) on an isl failure.
GpuProgram runGpuPipeline(const Scop &scop, const PipelineOptions &options,
                          const CodeNames &names = CodeNames());

/// Dependences and schedule only, for the C target.
ScheduleResult runSchedulePipeline(const Scop &scop, Dependences &deps,
                                   const PipelineOptions &options);

} // namespace polycuda::polyhedral

#endif
