//===- MemoryPromotion.h - Where each array lives, host/device copies -*- C++ -*-===//
//
// Stage 4: GpuProgram -> GpuProgram with the device copies of every array.
// Input: the scop's accesses. Output: `program.transfers`, one per accessed
// array: copied in once before the first kernel over the range it accesses,
// copied out once after the last kernel over the range it writes.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_MEMORYPROMOTION_H
#define POLYCUDA_POLYHEDRAL_MEMORYPROMOTION_H

#include "GpuProgram.h"

namespace polycuda::polyhedral {

/// Fills `program.transfers` and each kernel's `registers`: arrays local
/// to the scop (privatized scalars) whose every value is produced and
/// consumed by one thread in one launch, one element per thread, live in a
/// register of that thread and need no device memory at all.
void computeTransfers(GpuProgram &program);

} // namespace polycuda::polyhedral

#endif
