//===- MemoryPromotionInternal.h - Stage 4's parts --------------*- C++ -*-===//
//
// Internal to stage 4 (see MemoryPromotion.h), split by concern:
//
//   MemoryPromotion.cpp               arrays private to a thread (registers
//                                     or a private copy), register tiles'
//                                     and jammed lanes' points unrolled,
//                                     promoteAccumulators' walk of kernels
//   MemoryPromotion_Accumulators.cpp  accumulators held in registers across
//                                     a loop, their loads and stores grafted
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_MEMORYPROMOTIONINTERNAL_H
#define POLYCUDA_POLYHEDRAL_MEMORYPROMOTIONINTERNAL_H

#include "MemoryPromotion.h"

#include <optional>

namespace polycuda::polyhedral {

/// Finds the register accumulators of `kernel` in its device tree, whose
/// root is `root`, and grafts their loads and stores (Kernel::accumulators,
/// AddedOp::RegisterLoad and RegisterStore). `threadFilter` is the
/// instances of one thread (parameters: block and thread ids); `points`,
/// in a register-tiled kernel whose points were unrolled, the point of
/// each instance in its thread's tile, `{ S[i] -> [r0, r1] }`. Returns the
/// rewritten tree's root.
isl::schedule_node
promoteAccumulatorsBelow(const Scop &scop, Kernel &kernel,
                         const isl::schedule_node &root,
                         const isl::union_set &threadFilter,
                         const std::optional<isl::union_map> &points);

} // namespace polycuda::polyhedral

#endif
