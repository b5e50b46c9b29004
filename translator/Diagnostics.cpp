//===- Diagnostics.cpp - User diagnostics of the front end ----------------===//
#include "Diagnostics.h"

namespace polycuda::translator {

namespace {

struct DiagInfo {
  clang::DiagnosticsEngine::Level level;
  const char *message;
};

/// Each Diag's level and message, in the enumerators' order.
const DiagInfo kDiagInfo[] = {
#define POLYCUDA_DIAG(Name, Level, Message)                                    \
  {clang::DiagnosticsEngine::Level, Message},
#include "Diagnostics.def"
};

DiagInfo infoOf(Diag diag) { return kDiagInfo[static_cast<unsigned>(diag)]; }

} // namespace

void report(clang::DiagnosticsEngine &engine, clang::SourceLocation loc,
            Diag diag, llvm::StringRef arg, clang::SourceRange range) {
  DiagInfo info = infoOf(diag);
  unsigned id = engine.getDiagnosticIDs()->getCustomDiagID(
      static_cast<clang::DiagnosticIDs::Level>(info.level), info.message);
  auto builder = engine.Report(loc, id);
  if (llvm::StringRef(info.message).contains("%0"))
    builder << arg;
  if (range.isValid())
    builder << range;
}

} // namespace polycuda::translator
