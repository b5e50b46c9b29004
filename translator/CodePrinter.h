//===- CodePrinter.h - isl ASTs and statement bodies as C-like code -*- C++ -*-===//
//
// Shared by every target: prints isl AST expressions and loop structure, and
// statement bodies with their iterators substituted. Target differences are
// injected through callbacks.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_TRANSLATOR_CODEPRINTER_H
#define POLYCUDA_TRANSLATOR_CODEPRINTER_H

#include "IslExtras.h"
#include "Scop.h"

#include <functional>
#include <map>
#include <sstream>
#include <set>
#include <string>
#include <vector>

namespace polycuda::translator {

/// Helper functions the printed integer expressions call.
/// The C type of every integer the generated code computes from the
/// schedule: loop iterators, block and thread indices, parameters, grid
/// extents and the helpers' arguments. 64 bits: skewed schedules multiply
/// iterators by their coefficients (seen in the thousands), which overflows
/// 32 bits long before the source's own `int` values do.
inline constexpr const char *kIndexType = "long";
inline constexpr const char *kFloorDiv = "polycuda_floord";
inline constexpr const char *kMin = "polycuda_min";
inline constexpr const char *kMax = "polycuda_max";
/// The same without a comparison (`a - (d & (d >> 63))`, d = a - b), for
/// bounds of three terms or more (CodePrinter.cpp's printOp says why).
inline constexpr const char *kMinArith = "polycuda_min_arith";
inline constexpr const char *kMaxArith = "polycuda_max_arith";

/// Definitions of the helpers with the given function qualifier prefix
/// (e.g. "static inline", "__host__ __device__ static inline").
std::string helperDefinitions(const std::string &qualifiers);
/// The same, guarded so that a file defines them once.
std::string guardedHelperDefinitions(const std::string &qualifiers);

/// An isl AST expression as C.
std::string printExpr(const isl::ast_expr &expr);

/// How a target prints array references in statement bodies.
using ArrayRefPrinter = std::function<std::string(
    const polyhedral::Array &, const std::vector<std::string> &subscripts)>;

/// The function that multiplies two values of a floating-point type
/// without ever being contracted with an addition (CUDA's `__dmul_rn`), or
/// "" to print `*`.
using ProductPrinter = std::function<std::string(polyhedral::ElemType)>;

/// What a target prints instead of reference `access` of `stmt` (a
/// register or a shared array that holds it; `subscripts` as C), or ""
/// for the array element.
using ReferenceOverride = std::function<std::string(
    const polyhedral::Statement &stmt, unsigned access,
    const std::vector<std::string> &subscripts)>;

/// Whether reference `access` of `stmt` already holds its product with the
/// scalar argument `scalar` (a shared tile of products, SharedTile::scale):
/// `scalar * reference` then prints as the reference alone.
using ScaledReference = std::function<bool(const polyhedral::Statement &stmt,
                                           unsigned access,
                                           const std::string &scalar)>;

/// Prints `stmt` as `lhs op rhs;` where each iterator is replaced by the
/// expression in `iterators` (keyed by isl iterator name).
std::string printStatement(const polyhedral::Scop &scop,
                           const polyhedral::Statement &stmt,
                           const std::map<std::string, std::string> &iterators,
                           const ArrayRefPrinter &arrayRef,
                           const std::function<std::string(const std::string &)>
                               &mathName,
                           const ProductPrinter &product = nullptr,
                           const ReferenceOverride &reference = nullptr,
                           const ScaledReference &scaled = nullptr);

/// The C type of `e` in `stmt` (the usual arithmetic conversions; math
/// calls are double unless spelled with the f suffix).
polyhedral::ElemType typeOf(const polyhedral::Scop &scop,
                            const polyhedral::Statement &stmt,
                            const polyhedral::Expr &e);

/// Prints the statement call `S(i...)` of an AST user node as one line of
/// code at `indent`, iterators replaced by the call's arguments.
void printUserStatement(const polyhedral::Scop &scop, const isl::ast_expr &call,
                        const ArrayRefPrinter &arrayRef,
                        const std::function<std::string(const std::string &)>
                            &mathName,
                        int indent, std::ostream &os,
                        const ProductPrinter &product = nullptr,
                        const ReferenceOverride &reference = nullptr,
                        const ScaledReference &scaled = nullptr);

/// Loops of at most kUnrollTrip iterations, known at translation time, whose
/// bodies unrolled (with the loops inside) are at most kUnrollBodies
/// statements, get the target's unroll pragma (AstPrinter).
inline constexpr long kUnrollTrip = 16;
inline constexpr long kUnrollBodies = 128;
/// The unroll factor asked for a loop whose body is a full register tile
/// (printFor). Measured on the H200 at 1205fb8 (git history of
/// bench/results at 9c73b08), kernel time of gemm fp64 at 4096: 8.61 ms
/// with 4, 8.88 with 8, 8.99 with 2, 9.33 with 1; fp32 4.81 with 4 and
/// with 8, 5.05 with 1.
inline constexpr long kHoistedUnroll = 4;

/// The statements that `node` unrolled would print: its loops' iterations
/// known at translation time and at most kUnrollTrip each; nothing
/// otherwise.
std::optional<long> unrolledBodies(const isl::ast_node &node);

/// The extents of a register tile's points from the payload of the mark
/// above them (MarkKind::Unroll), or nothing for another mark.
std::optional<std::vector<long>> unrollMarkExtents(const isl::id &mark);

/// Walks an isl AST and prints loops, conditions and blocks; the loops
/// below an unroll mark (MarkKind::Unroll) unrolled (printUnrolled); user nodes
/// and other marks are delegated to the callbacks.
class AstPrinter {
public:
  using UserFn = std::function<void(const isl::ast_expr &call, int indent,
                                    std::ostream &os)>;
  /// Returns true if it printed the mark's child itself.
  using MarkFn = std::function<bool(const isl::id &mark,
                                    const isl::ast_node &child, int indent,
                                    std::ostream &os)>;
  AstPrinter(UserFn user, MarkFn mark) : user(user), mark(mark) {}
  void print(const isl::ast_node &node, int indent, std::ostream &os) const;
  /// Prints a for node (also used by mark callbacks).
  void printFor(const isl::ast_node &node, int indent, std::ostream &os) const;
  void printUnrolledLoop(const isl::ast_node_for &loop,
                         const std::string &name, int indent,
                         std::ostream &os) const;
  /// Printed before each loop whose iterations, with those of the loops
  /// inside it, are known at translation time and few (kUnrollBodies).
  void setUnrollPragma(const std::string &pragma) { unrollPragma = pragma; }
  /// The unrolled loops around what is being printed, outermost first:
  /// iterator and extent.
  const std::vector<std::pair<std::string, long>> &unrolledLoops() const {
    return unrolled;
  }

private:
  UserFn user;
  MarkFn mark;
  std::string unrollPragma;
  mutable std::vector<long> unrollExtents;
  mutable std::vector<std::pair<std::string, long>> unrolled;
  /// While printUnrolled prints the copies of a full tile (every value of
  /// every unrolled loop runs): the conditions for that, and whether the
  /// loops allow such a version.
  mutable bool unrollFull = false;
  mutable bool fullPossible = true;
  mutable std::set<std::string> fullConditions;

  /// The two versions of an unrolled node: the full tile's, its test, and
  /// the guarded one (`taken` when there is a full tile to test for).
  struct FullSplit {
    bool taken = false;
    std::string condition, full, partial;
  };
  /// Prints `node` with its loops of the first `extents.size()` levels
  /// unrolled: a loop at level m becomes one copy of its body for each of
  /// 0, ..., extents[m] - 1, each with the iterator that constant, run
  /// where the loop's bounds admit it. The values a loop takes must lie in
  /// that range (a register tile's points: constant indices keep an array
  /// in registers). With `hoisted`, a full tile's two versions go there
  /// (both at `indent`), for printFor to put their test around the loop
  /// that holds them, instead of to `os`.
  void printUnrolled(const isl::ast_node &node,
                     const std::vector<long> &extents, int indent,
                     std::ostream &os, FullSplit *hoisted = nullptr) const;

  void printIf(const isl::ast_node_if &node, int indent,
               std::ostream &os) const;
};

/// The name of a user node's call expression `name(args...)` and its
/// arguments (its function: callId, IslExtras.h).
std::string callName(const isl::ast_expr &call);
std::vector<isl::ast_expr> callArgs(const isl::ast_expr &call);

/// Prints a parameter-only function as C, using `context`.
std::string printParamExpr(const isl::set &context, const isl::pw_aff &pa);

/// `A[s0][s1]` as the source writes it: `P[s0].y` for a field of an array
/// of structs (its last subscript is the field's position).
std::string sourceReference(const polyhedral::Array &array,
                            const std::vector<std::string> &subscripts);

/// Row-major linear index of `subscripts` in `array`, as C.
std::string linearIndex(const polyhedral::Scop &scop,
                        const polyhedral::Array &array,
                        const std::vector<std::string> &subscripts);

inline std::string indentBy(int n) { return std::string(2 * n, ' '); }

/// The value of a scalar of host code (GpuProgram::hostScalars) in host
/// code: in place (the user's function) the variable itself, in a
/// launcher through the pointer that it receives.
inline std::string hostScalarValue(const polyhedral::Array &array,
                                   bool launcher) {
  return launcher ? "(*(" + std::string(polyhedral::spell(array.type)) + " *)" +
                        array.name + ")"
                  : array.name;
}

} // namespace polycuda::translator

#endif
