//===- MemoryPromotion.h - Where each array lives, host/device copies -*- C++ -*-===//
//
// Stage 4: GpuProgram -> GpuProgram with the device copies of every array.
// Input: the scop's accesses and its live-in elements (dataflow). Output:
// `program.transfers`, one per accessed array: copied in once before the
// first kernel over the box of the elements whose host values matter,
// copied out once after the last kernel over the box of those it writes.
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
/// Every transfer gets `method`.
void computeTransfers(GpuProgram &program,
                      TransferMethod method = TransferMethod::Auto);

/// "auto", "plain", "staged" or "registered".
const char *transferMethodName(TransferMethod method);
/// Reads a name of transferMethodName; false if `name` is none of them.
bool parseTransferMethod(const std::string &name, TransferMethod &method);

} // namespace polycuda::polyhedral

#endif
