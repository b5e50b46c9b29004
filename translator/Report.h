//===- Report.h - --explain and --report=json ------------------*- C++ -*-===//
//
// Renders the facts of polyhedral/Explain.h for every scop of a translation,
// in source terms (statement lines, loop variables, array references as the
// user wrote them): as a text report for people and as JSON following
// translator/report.schema.json (version kReportVersion) for tools.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_TRANSLATOR_REPORT_H
#define POLYCUDA_TRANSLATOR_REPORT_H

#include "Translation.h"

#include <llvm/Support/JSON.h>

namespace polycuda::translator {

/// Version of the JSON report's schema; bumped on incompatible changes.
inline constexpr int kReportVersion = 1;

struct ReportOptions {
  std::string target;
  bool scheduleTree = false; ///< include isl's schedule tree in the text
};

llvm::json::Value reportJson(const ParsedInput &input,
                             const Translation &translation,
                             const ReportOptions &options);

std::string reportText(const ParsedInput &input,
                       const Translation &translation,
                       const ReportOptions &options);

/// Why a host loop's launches run (not) as one persistent kernel, in
/// words (the report, and the comment above a persistent kernel).
std::string persistentReason(const polyhedral::GpuProgram &program,
                             const polyhedral::PersistentLoop &loop);

/// Why scalar (or array) expansion did what it did, in words (the report
/// and the -v remarks).
std::string expansionReason(const polyhedral::ScalarExpansion &expansion);

} // namespace polycuda::translator

#endif
