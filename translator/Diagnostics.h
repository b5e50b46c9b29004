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

/// All user diagnostics. Messages are lower case, say what to change, and
/// may take one string argument %0.
enum class Diag {
  MissingEndScop,
  EndScopWithoutScop,
  NestedScop,
  EmptyScop,
  UnsupportedStatement,
  UnsupportedExpression,
  NonAffineExpression,
  NonAffineCondition,
  NonAffineSubscript,
  NonConstantStride,
  NestTooDeep,
  ExpressionTooDeep,
  NegativeDividend,
  UnsupportedLoopInit,
  UnsupportedLoopCondition,
  IteratorModified,
  UnsupportedJump,
  BreakExitValue,
  IteratorWraps,
  WrapsAround,
  UnknownFunction,
  ImpureFunction,
  UnsupportedType,
  PointerAccess,
  PointerArithmetic,
  FlatSubscript,
  FlatSubscriptVariable,
  StructField,
  StructLayout,
  WholeStruct,
  ParameterWritten,
  UnknownArrayExtent,
  ScopNotInFunction,
  NoScop,
};

/// Reports `diag` at `loc` with optional argument `arg`.
void report(clang::DiagnosticsEngine &engine, clang::SourceLocation loc,
            Diag diag, llvm::StringRef arg = "",
            clang::SourceRange range = clang::SourceRange());

} // namespace polycuda::translator

#endif
