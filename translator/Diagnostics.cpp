//===- Diagnostics.cpp - User diagnostics of the front end ----------------===//
#include "Diagnostics.h"

namespace polycuda::translator {

namespace {

struct DiagInfo {
  clang::DiagnosticsEngine::Level level;
  const char *message;
};

DiagInfo infoOf(Diag diag) {
  using L = clang::DiagnosticsEngine::Level;
  switch (diag) {
  case Diag::MissingEndScop:
    return {L::Error, "'#pragma scop' without a matching '#pragma endscop'; "
                      "add '#pragma endscop' after the region"};
    case Diag::EndScopWithoutScop:
    return {L::Error, "'#pragma endscop' without a preceding '#pragma scop'"};
  case Diag::NestedScop:
    return {L::Error, "'#pragma scop' inside another scop; scops cannot nest"};
  case Diag::EmptyScop:
    return {L::Warning, "scop region contains no statements; it is left as is"};
  case Diag::UnsupportedStatement:
    return {L::Error, "%0 is not supported inside a scop; use for loops, "
                      "if statements and assignments"};
  case Diag::UnsupportedExpression:
    return {L::Error, "%0 is not supported in a scop statement"};
  case Diag::NonAffineExpression:
    return {L::Error, "expression is not affine: %0; loop bounds and "
                      "subscripts must be sums of loop variables and "
                      "parameters times integer constants"};
  case Diag::NonAffineCondition:
    return {L::Error, "condition is not affine: %0; compare affine "
                      "expressions of loop variables and parameters"};
  case Diag::NonAffineSubscript:
    return {L::Error, "array subscript is not affine: %0, and the array's "
                      "first dimension has no size; declare it with a size "
                      "such as 'double A[n]' so that the whole array can be "
                      "accessed"};
  case Diag::NonConstantStride:
    return {L::Error, "loop increment must be a constant step such as i++, "
                      "i--, i += 2 or i -= 2"};
  case Diag::NestTooDeep:
    return {L::Error, "loop nest deeper than %0 levels; split the scop or "
                      "fuse loops to at most %0 levels"};
  case Diag::ExpressionTooDeep:
    return {L::Error, "expression nested deeper than %0 levels; compute it "
                      "in several shorter expressions"};
  case Diag::NegativeDividend:
    return {L::Error, "the dividend of '%0' may be negative, where C's "
                      "integer division and remainder round toward zero; "
                      "rewrite it with a non-negative dividend"};
  case Diag::UnsupportedLoopInit:
    return {L::Error, "loop initialization must assign the loop variable, "
                      "e.g. 'i = 0' or 'int i = 0'"};
  case Diag::UnsupportedLoopCondition:
    return {L::Error, "loop condition must compare the loop variable with an "
                      "affine bound, e.g. 'i < n'"};
  case Diag::IteratorModified:
    return {L::Error, "loop variable '%0' is modified in the loop body; only "
                      "the loop increment may change it"};
  case Diag::UnsupportedJump:
    return {L::Error, "%0 is supported only as the last statement of one "
                      "branch of an 'if' placed directly in a loop body, "
                      "such as 'if (i > m) continue;'"};
  case Diag::BreakExitValue:
    return {L::Error, "the value of loop variable '%0' after a loop left by "
                      "'break' is not supported; copy it inside the loop"};
  case Diag::IteratorWraps:
    return {L::Error, "loop variable %0 may take a value outside its type, "
                      "which C wraps around, or the loop may not end; give "
                      "it a wider signed type such as 'int' or 'long'"};
  case Diag::WrapsAround:
    return {L::Error, "%0 wraps around for every value of the parameters: "
                      "C computes it modulo the range of its type; compute "
                      "it in a wider signed type such as 'long'"};
  case Diag::UnknownFunction:
    return {L::Error, "call to unknown function '%0' is not supported in a "
                      "scop; only math functions such as sqrt, exp, pow and "
                      "fabs, and pure functions of numbers defined in the "
                      "file, may be called"};
  case Diag::ImpureFunction:
    return {L::Error, "a function called in a scop must be pure, of "
                      "numbers: %0; it may take and return numbers and use "
                      "only its parameters, its own locals and math "
                      "functions (no globals, pointers, structs or I/O)"};
  case Diag::UnsupportedType:
    return {L::Error, "type '%0' is not supported; use char, short, int, "
                      "unsigned, long, float or double elements"};
  case Diag::PointerAccess:
    return {L::Error, "'%0' is accessed through a pointer; declare it as an "
                      "array parameter such as 'double A[N][M]', or as a "
                      "'restrict' pointer parameter ('double *restrict A') "
                      "where no other name reaches its elements"};
  case Diag::FlatSubscript:
    return {L::Error, "flat subscript %0 does not fit the shape of its "
                      "array: polycuda reads 'A[i * m + j]' (m a parameter) "
                      "as row i, column j of rows of m elements where every "
                      "subscript of the array has the same strides and each "
                      "column stays within its row; declare the array with "
                      "its rows, such as 'double (*restrict A)[m]'"};
  case Diag::FlatSubscriptVariable:
    return {L::Error, "flat subscript %0 reads a variable that is not a "
                      "loop variable of a loop around it nor a parameter of "
                      "the scop (such as a loop variable after its loop); "
                      "polycuda reads flat subscripts as rows and columns "
                      "only in those"};
  case Diag::PointerArithmetic:
    return {L::Error, "pointer arithmetic '%0' is not supported in a scop; "
                      "index an array parameter instead, such as 'A[i + 1]'"};
  case Diag::StructLayout:
    return {L::Error, "the fields of the structs of '%0' do not all have one "
                      "number type (or the struct has padding); a scop "
                      "accepts arrays of structs such as 'struct { double x, "
                      "y; } P[N]' and reads their fields as strided arrays"};
  case Diag::WholeStruct:
    return {L::Error, "a whole struct ('%0') is not supported in a scop; "
                      "read and assign its fields one by one"};
  case Diag::StructField:
    return {L::Error, "struct fields that are not arrays ('%0') are not "
                      "supported in a scop; copy the field to a local scalar "
                      "before the scop (and back after it); array fields of "
                      "a struct variable or of a restrict pointer's struct "
                      "('s.f[i]', 'g->val[i][j]') are"};
  case Diag::ParameterWritten:
    return {L::Error, "integer variable '%0' is written in the scop and used "
                      "in a loop bound, a condition or an array size"};
  case Diag::UnknownArrayExtent:
    return {L::Error, "array '%0' has an inner dimension of unknown size; "
                      "give every dimension after the first a size"};
  case Diag::ScopNotInFunction:
    return {L::Error, "'#pragma scop' must be inside a function body"};
  case Diag::NoScop:
    return {L::Warning, "no '#pragma scop' region found; the output is the "
                        "input unchanged"};
  }
  return {L::Error, "unknown diagnostic"};
}

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
