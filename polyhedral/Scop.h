//===- Scop.h - The polyhedral model of one #pragma scop region -*- C++ -*-===//
//
// Stage: the input of the polyhedral pipeline, built by translator/ScopBuilder.
// Input: nothing (plain data). Output: statements with isl domains, tagged
// access relations and bodies as a small expression tree of our own.
// Invariants: every statement domain lives in the parameter space of
// `context`; every ArrayRef node of a body has exactly one Access; a
// subscript of an ArrayRef may be any integer expression of the body (array
// reads included), whose reads are Accesses of the statement too.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_SCOP_H
#define POLYCUDA_POLYHEDRAL_SCOP_H

#include <isl/cpp.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace polycuda::polyhedral {

/// A position in the user's source file.
struct SourceLoc {
  std::string file;
  unsigned line = 0;
  unsigned col = 0;
  /// "file:line:col", the form used in diagnostics and runtime messages.
  std::string str() const;
};

/// Element types the model supports.
enum class ElemType {
  Char,
  UChar,
  Short,
  UShort,
  Int,
  UInt,
  Long,
  ULong,
  Float,
  Double
};

/// The C spelling of an element type.
const char *spell(ElemType type);
/// Its size in bytes (as on the targets: long is 64 bits).
unsigned elementBytes(ElemType type);

struct Dependences;

struct Expr;
using ExprPtr = std::shared_ptr<Expr>;

/// A node of a statement body. Bodies are printed by every target with the
/// loop iterators substituted, so they keep the user's structure.
struct Expr {
  enum class Kind {
    IntLit,   ///< `literal` holds the spelling.
    FloatLit, ///< `literal` holds the spelling (with its f suffix, if any).
    Iterator, ///< A loop iterator of the statement; `name` is its isl name.
    Param,    ///< A scop parameter (read-only integer variable).
    ArrayRef, ///< `name` is the array; `args` the subscripts; `access` the
              ///< index of its Access in the statement.
    Unary,    ///< `op` is one of - + ! ~; `args[0]` the operand.
    Binary,   ///< `op` is a C binary operator; `args` the operands.
    Ternary,  ///< `args` = {cond, then, else}.
    Call,     ///< `name` is a math function; `args` its arguments.
    Cast,     ///< `castType` and `args[0]`.
  };
  Kind kind;
  std::string name;
  std::string op;
  std::string literal;
  std::vector<ExprPtr> args;
  int access = -1;
  ElemType castType = ElemType::Double;
};

/// One array (or scalar, as a 0-d array) of the scop.
struct Array {
  std::string name;
  ElemType type = ElemType::Double;
  /// Extent of each dimension, a function of the parameters
  /// `[params] -> { [] -> [e] }`. Empty for scalars.
  std::vector<isl::pw_aff> extents;
  /// False for `A[][M]`-style declarations; extents[0] is then 0.
  bool firstExtentKnown = true;
  /// For an array of structs whose fields all have one type: their names,
  /// in order; the last dimension (of this many elements) is the field.
  std::vector<std::string> fields;
  /// Its value may be read after the scop (a global, a static, a
  /// parameter, or a local referenced after `#pragma endscop`).
  bool usedAfterScop = true;
  /// How host code reaches it where it is no variable of its own: the
  /// member array of a struct (`g->val`, `s.f`); empty otherwise.
  std::string source;
  /// Declared flat (a pointer, or an array of unknown extent) and indexed
  /// `A[i * m + j]`: its dimensions were recovered from the subscripts
  /// (the front end's delinearization); the source indexes it with one
  /// linear subscript, row-major in these extents.
  bool delinearized = false;
  /// Declared with a C99 variable-length array type (not valid C++).
  bool isVariableLength = false;
  bool isRead = false;
  bool isWritten = false;
  /// Declared inside the scop: has no host storage to copy from or to.
  bool isLocal = false;
  /// Made by expansion (ScalarExpansion): its first `expandedDims`
  /// dimensions are the iterators of the loops it was expanded along, the
  /// others those of the variable it privatizes.
  unsigned expandedDims = 0;
  SourceLoc declLoc;
  unsigned rank() const { return extents.size(); }
};

/// One array reference of a statement.
struct Access {
  enum class Kind { Read, MustWrite, MayWrite };
  Kind kind = Kind::Read;
  unsigned array = 0;
  /// `[params] -> { S[i] -> A[a] }`. A function of `i` when every subscript
  /// is affine; otherwise a may-access: each dimension with a non-affine
  /// subscript ranges over the whole extent of the array, and a write is a
  /// MayWrite (it kills no earlier write).
  isl::map relation;
  /// Per dimension of the array, the subscript as the source spells it
  /// where it is not an affine function of the iterators and parameters
  /// (e.g. `idx[i]`, `i * i`), and empty where it is affine; empty for a
  /// reference whose subscripts are all affine.
  std::vector<std::string> nonAffineSubscripts;
  /// Every subscript is affine: `relation` is a function, exact.
  bool isAffine() const {
    for (const std::string &text : nonAffineSubscripts)
      if (!text.empty())
        return false;
    return true;
  }
};

/// One assignment statement.
/// What a statement of the model stands for in the source.
enum class StatementRole {
  Source,        ///< a statement of the source
  DataCondition, ///< stores an if's condition on data (polycuda_ifN)
  BreakReset,    ///< polycuda_breakN = 0 in a loop's first iteration
  BreakTaken,    ///< polycuda_breakN = whether a break on data was taken
  IteratorExit,  ///< the value a loop leaves in its variable
};

/// The role's name in the report (`role` of a statement).
const char *roleName(StatementRole role);

struct Statement {
  std::string name; ///< Also the tuple name of `domain`.
  StatementRole role = StatementRole::Source;
  /// `[params] -> { S[i] : ... }`.
  isl::set domain;
  /// isl names of the domain dimensions, outermost first.
  std::vector<std::string> iterators;
  /// The loop variable name in the source for each iterator.
  std::vector<std::string> sourceIterators;
  /// Where each of those loops starts in the source (its `for`).
  std::vector<SourceLoc> loopLocs;
  std::vector<Access> accesses;
  /// Position among its siblings at each loop depth (the 2d+1 schedule's
  /// constant dimensions), outermost first; size = iterators.size() + 1.
  std::vector<int> beta;
  ExprPtr lhs;    ///< An ArrayRef.
  /// "=" or a compound assignment operator of C ("+=", "%=", "<<=", ...),
  /// printed as written (see BodyBuilder::assignment).
  std::string op;
  ExprPtr rhs;
  /// Under a condition on data (`if (A[i] > 0)`), null otherwise: the
  /// statement runs where it is non-zero, printed `if (guard) lhs op rhs;`.
  /// It reads the variable the condition was stored in before the branch;
  /// the statement's writes are then MayWrites.
  ExprPtr guard;
  /// The functions of the file whose calls were inlined into the
  /// statement (helpers of one `return`), in the order first called.
  std::vector<std::string> inlined;
  /// The functions of the file it calls as functions (Scop::functions).
  std::vector<std::string> called;
  SourceLoc loc;
};

/// A function of the input that statements call and that every target
/// prints as it is (for the device too): pure, of numbers, with a body of
/// several statements (a body of one `return` is inlined instead).
struct Function {
  std::string name;
  /// Its definition in C, macros expanded, without storage class.
  std::string definition;
};

/// One `#pragma scop` region.
struct Scop {
  isl::ctx ctx;
  std::string functionName;
  SourceLoc loc;        ///< The `#pragma scop` line.
  /// isl names of the parameters; `paramSourceNames` holds the C variable
  /// each stands for (they differ only where a C name is an isl keyword).
  std::vector<std::string> params;
  std::vector<std::string> paramSourceNames;
  /// Scalars the scop reads but never writes (other than integer
  /// parameters): passed to kernels by value, `(C name, type)`.
  std::vector<std::pair<std::string, ElemType>> scalarArgs;
  /// `[params] -> { : ... }` constraints known on the parameters.
  isl::set context;
  /// `[params] -> { : ... }`, if any: the parameters for which the
  /// translation is exact (no unsigned or narrow value wraps around, which
  /// the model's integers would not; every index of a delinearized array
  /// but the first stays within its extent). The printed code checks it
  /// when the scop starts and runs the original statements where it fails;
  /// the context includes it.
  std::optional<isl::set> assumed;
  /// What `assumed` stands for: no value wraps around, and the flat
  /// subscripts stay within the rows of their recovered shape.
  bool assumesNoWrap = false;
  bool assumesInRows = false;
  std::vector<Array> arrays;
  std::vector<Statement> statements;
  /// The functions the statements call, each after those it calls.
  std::vector<Function> functions;
  /// The original execution order, `{ S[i] -> [t] }`, all in one space.
  isl::union_map originalSchedule;

  explicit Scop(isl::ctx ctx) : ctx(ctx) {}

  /// Union of all statement domains, intersected with the context.
  isl::union_set domain() const;
  /// `{ S[i] -> A[a] }` of all accesses of the given kinds (to array
  /// `array` only, unless it is negative).
  isl::union_map accesses(bool reads, bool mustWrites, bool mayWrites,
                          int array = -1) const;
  /// `{ [S[i] -> ref[]] -> A[a] }`: accesses tagged with a reference id so
  /// that dependences can be traced back to references.
  isl::union_map taggedAccesses(bool reads, bool mustWrites, bool mayWrites,
                                int array = -1) const;
  const Statement *findStatement(const std::string &name) const;
  int findArray(const std::string &name) const;
  /// A human readable dump of the model, for --dump-after=scop.
  std::string str() const;
};

} // namespace polycuda::polyhedral

#endif
