//===- ReportInternal.h - Shared by Report.cpp and its parts ----*- C++ -*-===//
//
// Private to the report: the JSON builder (Report.cpp) uses the sentences of
// Report_Reasons.cpp, and both it and the text rendering (Report_Text.cpp)
// print JSON values the same way.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_TRANSLATOR_REPORTINTERNAL_H
#define POLYCUDA_TRANSLATOR_REPORTINTERNAL_H

#include "Report.h"

#include "Explain.h"

#include <string>

namespace polycuda::translator::report {

/// A JSON value as the text report prints it: "-" for null, strings bare,
/// numbers with 15 digits, booleans as yes/no, anything else as JSON.
std::string str(const llvm::json::Value *value);

/// Why the reference `ref` of statement `stmt` in `kernel` is accessed as
/// it is: where it was promoted to and why, its pattern in global memory
/// (with `xLoop`, the loop threadIdx.x runs along, when known) and, for a
/// non-affine subscript, which elements it may access.
std::string referenceReason(const polyhedral::Scop &scop,
                            const polyhedral::Statement &stmt,
                            const polyhedral::KernelFact &kernel,
                            const polyhedral::ReferenceFact &ref,
                            const std::string &xLoop);

/// Why a kernel runs the points per thread it runs, in words.
std::string registerTileReason(const polyhedral::Scop &scop,
                               const polyhedral::RegisterTileDecision &d);

/// Why a kernel reads no array through shared memory, in words.
std::string noSharedReason(const polyhedral::Scop &scop,
                           const polyhedral::NoSharedTiles &decision);

/// Why a reduction's lanes may share its loop, in words.
std::string reductionReason(const polyhedral::Scop &scop,
                            const polyhedral::BlockReduction &reduction);

/// Why a kernel's blocks run in the order they run, in words.
std::string threadOrderReason(const polyhedral::ThreadOrder &order);

/// Why a kernel's blocks have the size they have, in words.
std::string blockSizingReason(const polyhedral::KernelFact &kernel);

/// Why an array is (or is not) copied to the device, and back, in words.
std::string copyInReason(const polyhedral::TransferFact &transfer);
std::string copyOutReason(const polyhedral::TransferFact &transfer);

} // namespace polycuda::translator::report

#endif
