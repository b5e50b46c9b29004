//===- Transfers.h - Host/device copies of every array ---------*- C++ -*-===//
//
// Stage 5: GpuProgram -> GpuProgram with the device copies of every array.
// Input: the scop's accesses and its live-in elements (dataflow). Output:
// `program.transfers`, one per accessed array: copied in once before the
// first kernel over the box of the elements whose host values matter,
// copied out once after the last kernel over the box of those it writes.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_TRANSFERS_H
#define POLYCUDA_POLYHEDRAL_TRANSFERS_H

#include "GpuProgram.h"

namespace polycuda::polyhedral {

/// Fills `program.transfers`, one per array that lives in device memory
/// (not those promoted to registers, MemoryPromotion.h). Every transfer
/// gets `method`. Without `exact`, every array is copied over the box of
/// all it accesses, both ways (always right, and cheap). With `bands`,
/// the exact copies of an array whose box follows its rows (a triangle)
/// are cut into bands of rows (ElementBox::bandLower).
void computeTransfers(GpuProgram &program,
                      TransferMethod method = TransferMethod::Auto,
                      bool exact = true, bool bands = true);

/// Fills `program.placement` from its host AST (`program.host`): where
/// the host code copies each transfer in, marks arrays written and in
/// which order it copies them out (TransferPlacement).
void placeTransfers(GpuProgram &program);

/// "auto", "plain" or "staged".
const char *transferMethodName(TransferMethod method);
/// Reads a name of transferMethodName; false if `name` is none of them.
bool parseTransferMethod(const std::string &name, TransferMethod &method);

} // namespace polycuda::polyhedral

#endif
