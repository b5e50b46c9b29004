//===- Diagnostics.h - User diagnostics of the front end -------*- C++ -*-===//
//
// Every user-facing error and warning of polycuda, with its message. They are
// reported through clang's DiagnosticsEngine at a source location, so they
// print as `file:line:col: error: ...` with a caret.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_TRANSLATOR_DIAGNOSTICS_H
#define POLYCUDA_TRANSLATOR_DIAGNOSTICS_H

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceLocation.h>

namespace polycuda::translator {

/// All user diagnostics, with their messages in Diagnostics.def.
enum class Diag {
#define POLYCUDA_DIAG(Name, Level, Message) Name,
#include "Diagnostics.def"
};

/// Reports `diag` at `loc` with optional argument `arg`.
void report(clang::DiagnosticsEngine &engine, clang::SourceLocation loc,
            Diag diag, llvm::StringRef arg = "",
            clang::SourceRange range = clang::SourceRange());

} // namespace polycuda::translator

#endif
