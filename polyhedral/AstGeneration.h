//===- AstGeneration.h - Host and kernel ASTs with isl ---------*- C++ -*-===//
//
// Stage 6: GpuProgram (schedule with kernel marks) -> host AST + kernel ASTs.
// Input: the mapped program. Output: `program.host`, where each kernel mark
// became a launch `kernelN(grid...)`, and `Kernel::ast` for every kernel.
// Also builds the AST of the C/OpenMP target from a plain schedule.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_ASTGENERATION_H
#define POLYCUDA_POLYHEDRAL_ASTGENERATION_H

#include "GpuProgram.h"

#include <stdexcept>

namespace polycuda::polyhedral {

/// Thrown when no AST isl generates, in any of its loop modes, passes the
/// check of what it must execute (an isl bug): the program is then mapped
/// again in its original order on one thread.
struct AstNotVerified : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Thrown by generateGpuAsts when a kernel with a reduction had to be
/// generated without its combine (isl failed on it): the program must be
/// mapped again without reductions.
struct ReductionCodeFailed {};

/// Fills `program.host` and every `Kernel::ast`.
void generateGpuAsts(GpuProgram &program);


/// An AST of `schedule` for the C target: each outermost coincident loop is
/// the child of a mark `omp_parallel`; iterators are named `prefix`N. The
/// AST is checked to run every instance once and respect `deps`.
isl::ast_node generateCAst(const Scop &scop, const isl::schedule &schedule,
                           const Dependences &deps, const std::string &prefix);

} // namespace polycuda::polyhedral

#endif
