//===- ScopBuilderInternal.h - The parts of the scop builder ----*- C++ -*-===//
//
// Internal to the front end (see ScopBuilder.h): how the Scop of one region
// is built from the Clang AST, split by concern.
//
//   BuildState        what every part shares: the scop under construction,
//                     the loops and conditions around the statement being
//                     built, parameter and isl names, failing with a
//                     diagnostic (BuildState.cpp)
//   AffineBuilder     Clang expressions as isl affine expressions and
//                     conditions, in isl syntax (AffineBuilder.cpp)
//   ArrayBuilder      arrays and scalars from their declarations: extents,
//                     element types (ArrayBuilder.cpp)
//   BodyBuilder       statement bodies as polyhedral::Expr trees, and the
//                     accesses of their references (BodyBuilder.cpp; calls
//                     in BodyBuilder_Calls.cpp, array references in
//                     BodyBuilder_References.cpp)
//   StatementBuilder  statements, blocks, loops and ifs: domains and schedule
//                     positions (StatementBuilder.cpp)
//   findFlatShapes    the shapes of flat arrays indexed `A[i * m + j]`
//                     (Delinearization.cpp)
//   buildScop         the driver: the variables of the region, then the
//                     parts above in order (BuildScop.cpp)
//
// Everything the builder cannot model is reported as a located diagnostic,
// after which Abandon is thrown.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_TRANSLATOR_SCOPBUILDER_SCOPBUILDERINTERNAL_H
#define POLYCUDA_TRANSLATOR_SCOPBUILDER_SCOPBUILDERINTERNAL_H

#include "Diagnostics.h"
#include "Scop.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace polycuda::translator::scopbuilder {

/// Deeper nests make exact dependence analysis take minutes (its cost grows
/// steeply with the number of schedule dimensions).
constexpr size_t kMaxLoopDepth = 16;

/// The walks over an expression (here, in clang's constant evaluator, in
/// scalar expansion and in the printers) recurse once per level; deeper
/// expressions would overflow the stack (a sum of 20,000 terms did, and
/// 5,000 under AddressSanitizer).
constexpr unsigned kMaxExpressionDepth = 1000;

/// Thrown to abandon a scop after a diagnostic was reported.
struct Abandon {};

/// Thrown instead of reporting while a subscript is only probed for being
/// affine (AffineBuilder::expressionOrNone).
struct NotAffine {};

/// A loop around the statement being built.
struct Loop {
  const clang::VarDecl *var;
  std::string name;
  bool reversed;
  polyhedral::SourceLoc loc; ///< the `for` keyword
};

/// A term of a flat subscript (Delinearization.cpp) without its integer
/// factor: a product of parameters (their isl names, sorted) and at most
/// one other variable.
struct FlatTerm {
  std::vector<std::string> params;
  const clang::VarDecl *var = nullptr;
  bool operator<(const FlatTerm &o) const {
    return std::tie(params, var) < std::tie(o.params, o.var);
  }
};
/// A sum of terms, each with its integer factor.
using Polynomial = std::map<FlatTerm, long>;

/// The shape recovered for a flat array from its subscripts: its strides,
/// innermost (1, no parameter) first, each the one before times one
/// parameter. Dimension d of the shape, outermost first, is the index of
/// stride `strides.size() - 1 - d`.
struct FlatShape {
  std::vector<std::vector<std::string>> strides;
  /// The parameter that is the extent of each dimension after the first,
  /// outermost first.
  std::vector<std::string> extents;
  /// The strides of the subscripts form such a chain: the array is read
  /// in this shape. Otherwise its subscripts fit no one shape, and a flat
  /// subscript of it is refused as such.
  bool fits = false;
};

/// The state of one scop being built, shared by every part of the builder.
struct BuildState {
  BuildState(clang::ASTContext &astContext, polyhedral::Scop &scop)
      : ast(astContext), sm(astContext.getSourceManager()),
        diags(astContext.getDiagnostics()), scop(scop) {}

  clang::ASTContext &ast;
  clang::SourceManager &sm;
  clang::DiagnosticsEngine &diags;
  polyhedral::Scop &scop;
  /// `[p, ...] -> ` in front of every isl set and map of the scop.
  std::string paramPrefix;

  /// Variables written anywhere in the scop.
  std::set<const clang::VarDecl *> written;
  /// Loop variables whose value after their loop may be read: referenced
  /// in the scop outside every loop over them, or in the function outside
  /// the scop, or of static storage. Their loops leave C's exit value.
  std::set<const clang::VarDecl *> liveIterators;
  /// The isl names of the parameters.
  std::map<const clang::VarDecl *, std::string> paramNames;

  /// The loops around the statement being built, outermost first.
  std::vector<Loop> loops;
  /// The conditions on them (a conjunction, isl syntax).
  std::vector<std::string> constraints;
  /// The conditions on data around the statement being built: the scalar
  /// each was stored in (an array of the scop) and whether the statement
  /// is in its `then` branch (true) or its `else` branch.
  std::vector<std::pair<unsigned, bool>> guards;
  /// More conditions, as sets of the iterations of loops around
  /// (`{ L[i0, ..., ik] }` for the k + 1 outermost): where a loop's
  /// condition holds again after it first fails (`i != n`).
  std::vector<isl::set> loopSets;

  /// An affine value that C computes in a type that cannot hold every
  /// value the model's integers give it: unsigned arithmetic, or a
  /// conversion to an unsigned or narrower type (`i < n` with `unsigned i`
  /// and `int n` converts `n`). Where it leaves the type, C wraps it around
  /// and the model does not.
  struct RangeCheck {
    isl::set where;   ///< `{ L[i...] }`: the iterations that evaluate it.
    isl::set outside; ///< `{ L[i...] }`: where it leaves its type.
    clang::SourceLocation loc;
    std::string what; ///< For the diagnostic: the value and its type.
  };
  std::vector<RangeCheck> rangeChecks;
  /// The same for the flat subscripts read as multi-dimensional ones
  /// (Delinearization.cpp): `outside` is where an index leaves its extent.
  std::vector<RangeCheck> flatChecks;
  /// The flat arrays indexed with products of parameters, and the shape
  /// their subscripts fit, if any (findFlatShapes).
  std::map<const clang::VarDecl *, FlatShape> flatShapes;

  /// Set while expressionOrNone probes a subscript: fail() reports nothing.
  bool probing = false;

  /// Reports `diag` and abandons the scop (throws NotAffine instead while
  /// probing).
  [[noreturn]] void fail(clang::SourceLocation loc, Diag diag,
                         llvm::StringRef arg = "",
                         clang::SourceRange range = clang::SourceRange());

  /// `e` as written (pretty-printed) for diagnostics.
  std::string text(const clang::Expr *e) const;
  polyhedral::SourceLoc locOf(clang::SourceLocation loc) const;
  /// The value of `e` if it is an integer constant expression.
  std::optional<llvm::APSInt> constantOf(const clang::Expr *e) const;
  /// The innermost loop around the current statement whose variable is
  /// `var`, or null.
  const Loop *loopOf(const clang::VarDecl *var) const;
  /// `name[i, j, ...]` over the iterators of the loops around.
  std::string iterationTuple(const std::string &name) const;
  /// `{ name[i, j, ...] : constraints }`: the iterations of the loops
  /// around that satisfy the conditions around.
  isl::set iterationDomain(const std::string &name) const;

  /// `{ : ... }`: every parameter within the range of its C type.
  isl::set paramRanges() const;

  /// An isl name for `base` that is no isl keyword and in use by no other
  /// name until it is released.
  std::string freshIslName(const std::string &base);
  void releaseIslName(const std::string &name) { usedIslNames.erase(name); }

private:
  std::set<std::string> usedIslNames;
};

/// `[lo, hi]`, the values of C integer type `type`, in decimal.
std::pair<std::string, std::string> rangeOf(const clang::ASTContext &ast,
                                            clang::QualType type);

/// Every value of integer type `from` is one of integer type `to`: a
/// conversion from `from` to `to` never changes a value.
bool fitsIn(const clang::ASTContext &ast, clang::QualType from,
            clang::QualType to);

/// The variable that `e` names (parentheses and implicit casts aside), or
/// null.
const clang::VarDecl *varOf(const clang::Expr *e);

/// What `s` writes: the left-hand side of an assignment (compound ones
/// too) or the operand of `++`/`--`; null for any other statement.
const clang::Expr *writtenBy(const clang::Stmt *s);
/// The variable a `for` statement initializes (`i = e` or `int i = e`), or
/// null.
const clang::VarDecl *loopVariable(const clang::ForStmt *loop);

/// Clang expressions as affine expressions and conditions in isl syntax, in
/// terms of the loop iterators and parameters of the state.
class AffineBuilder {
public:
  explicit AffineBuilder(BuildState &state) : state(state) {}

  /// `e` in isl syntax; fails with `diag` if it is not affine.
  std::string expression(const clang::Expr *e, Diag diag);
  /// `e` in isl syntax if it is affine (as `expression` accepts it), otherwise
  /// nothing, and nothing is reported: a written scalar, a product of
  /// variables, a division whose dividend may be negative, an array read.
  std::optional<std::string> expressionOrNone(const clang::Expr *e);
  /// An affine condition in isl syntax.
  std::string condition(const clang::Expr *e);
  /// The same, or nothing where `e` is not affine (a condition on data).
  std::optional<std::string> conditionOrNone(const clang::Expr *e);

private:
  BuildState &state;

  std::string variable(const clang::DeclRefExpr *ref, Diag diag);
  std::optional<std::string> binary(const clang::BinaryOperator *bin,
                                    Diag diag);
  std::optional<std::string> minMax(const clang::ConditionalOperator *cond,
                                    Diag diag);
  std::optional<std::string> minMax(const clang::CallExpr *call, Diag diag);
  void requireNonNegative(const std::string &dividend, const clang::Expr *e);
  void requireInRange(const std::string &value, clang::QualType type,
                      const clang::Expr *e);
};

/// Calls `f` on `s` and on every statement and expression below it, in
/// order (a walk of Clang's children: cheaper to compile than a
/// RecursiveASTVisitor, where only expressions and declarations matter).
void forEachStmt(const clang::Stmt *s,
                 const std::function<void(const clang::Stmt *)> &f);

/// Integer expression `e` as a polynomial in the parameters and other
/// variables, with at most one variable other than the parameters in each
/// term; nothing if it is not one (a division, a read, a narrow unsigned
/// value). `unsignedSeen` is set if it computes in an unsigned type.
std::optional<Polynomial> polynomialOf(const BuildState &state,
                                       const clang::Expr *e,
                                       bool &unsignedSeen);
/// The index of each dimension of `shape` (outermost first) that flat
/// subscript `p` reads, each a constant plus at most one variable or
/// parameter times an integer; nothing if a term does not fit the shape.
std::optional<std::vector<Polynomial>> splitByShape(const FlatShape &shape,
                                                    const Polynomial &p);
/// Fills state.flatShapes from the subscripts of the flat arrays (pointers
/// and arrays of unknown extent indexed with one subscript) in `stmts`.
void findFlatShapes(BuildState &state, const std::vector<clang::Stmt *> &stmts);

/// The element type of a C type, if polycuda supports it.
std::optional<polyhedral::ElemType> elemTypeOf(clang::QualType type);

/// `{ A[a] : 0 <= a_d < extent_d }` for the dimensions d in which
/// `access` has a non-affine subscript, unconstrained in the others.
isl::set wholeExtent(const polyhedral::Array &array,
                     const polyhedral::Access &access);

/// The arrays (scalars included) of the scop, created from their
/// declarations on first use.
class ArrayBuilder {
public:
  ArrayBuilder(BuildState &state, AffineBuilder &affine)
      : state(state), affine(affine) {}

  /// The array for `var`, created on first use.
  unsigned arrayFor(const clang::VarDecl *var, clang::SourceLocation useLoc);
  /// The array of member `field` of the struct `var` points to (`arrow`)
  /// or is, created on first use.
  unsigned arrayForMember(const clang::VarDecl *var,
                          const clang::FieldDecl *field, bool arrow,
                          clang::SourceLocation useLoc);
  /// `var` is declared inside the scop.
  void declareLocal(const clang::VarDecl *var) { localVars.insert(var); }
  /// Names no variable declared in the scop may take: those of the other
  /// variables the scop references (`names`) and every identifier of the
  /// enclosing function (`taken`, for fresh names).
  void reserveNames(std::set<std::string> names, std::set<std::string> taken) {
    reserved = std::move(names);
    functionNames = std::move(taken);
  }
  /// Marks the scalars whose value may be needed after the scop: globals,
  /// statics and locals referenced after `endOffset` in `function`.
  void markUsedAfter(clang::FunctionDecl *function, unsigned endOffset);

private:
  BuildState &state;
  AffineBuilder &affine;
  std::map<const clang::VarDecl *, unsigned> arrayIds;
  std::map<std::pair<const clang::VarDecl *, const clang::FieldDecl *>,
           unsigned>
      memberIds;
  std::set<const clang::VarDecl *> localVars;
  std::set<std::string> reserved;
  std::set<std::string> functionNames;

  std::string nameFor(const clang::VarDecl *var) const;
  unsigned addArray(polyhedral::Array &array,
                    std::vector<isl::pw_aff> extents, const clang::Type *t,
                    clang::SourceLocation useLoc, const clang::VarDecl *var);

  isl::pw_aff extentOf(const clang::ArrayType *type, bool first,
                       const clang::VarDecl *var, polyhedral::Array &array);
};

/// A new node of `kind`.
polyhedral::ExprPtr makeExpr(polyhedral::Expr::Kind kind);

/// Whether `name` is a math function of C that every target has
/// (`sqrt`, `expf`, `fmax`, ...; BodyBuilder_Calls.cpp).
bool isMathFunction(const std::string &name);

/// The bodies of statements (`lhs op rhs`) as polyhedral::Expr trees, and
/// an Access of the statement for every reference to an array element or
/// scalar in them.
class BodyBuilder {
public:
  BodyBuilder(BuildState &state, AffineBuilder &affine, ArrayBuilder &arrays)
      : state(state), affine(affine), arrays(arrays) {}

  /// Fills `stmt` from the assignment `e`; `rhsValue`, when given, replaces
  /// the right-hand side (the target of the inner assignment of a chain).
  void assignment(polyhedral::Statement &stmt, const clang::Expr *e,
                  const clang::Expr *rhsValue);
  /// Fills `stmt` from the initialization of `var`, declared in the scop.
  void initialization(polyhedral::Statement &stmt, const clang::VarDecl *var);
  /// Fills `stmt` as `var = value`, `var` a scalar of the scop: the value a
  /// loop leaves in its iterator, `init` (the loop's initial value) or
  /// `iterator + step` (its last iteration's increment) when `init` is null.
  void iteratorExit(polyhedral::Statement &stmt, const clang::VarDecl *var,
                    const clang::Expr *init, const std::string &iterator,
                    long step);
  /// Fails if `e` is arithmetic on a pointer.
  void refusePointerArithmetic(const clang::Expr *e);
  /// Fills `stmt` as `flag = (cond) != 0`, `flag` the int scalar `flag`
  /// of the scop: the value of an if's condition on data, stored before
  /// its branches run (they may change what it reads).
  void conditionValue(polyhedral::Statement &stmt, const clang::Expr *cond,
                      unsigned flag, bool negate = false);
  /// Fills `stmt` as `flag = source` (`!source` where `negate`), both int
  /// scalars of the scop, or `flag = 0` without a source.
  void flagValue(polyhedral::Statement &stmt, unsigned flag,
                 std::optional<unsigned> source, bool negate = false);
  /// Puts `stmt` under `guards` (BuildState::guards): its guard reads their
  /// scalars, and its writes become MayWrites. For the `condition` of a
  /// nested if (conditionValue), its value is 0 where they fail instead.
  void guard(polyhedral::Statement &stmt,
             const std::vector<std::pair<unsigned, bool>> &guards,
             bool condition = false);

private:
  BuildState &state;
  AffineBuilder &affine;
  ArrayBuilder &arrays;
  /// The statement whose body is being built.
  polyhedral::Statement *current = nullptr;

  polyhedral::ExprPtr value(const clang::Expr *e);
  polyhedral::ExprPtr literal(const clang::Expr *e);
  polyhedral::ExprPtr integerLiteral(uint64_t value, clang::QualType type);
  polyhedral::ExprPtr reference(const clang::DeclRefExpr *ref);
  polyhedral::ExprPtr asDeclared(polyhedral::ExprPtr n,
                                 const clang::VarDecl *var);
  polyhedral::ExprPtr implicitCast(const clang::ImplicitCastExpr *cast);
  polyhedral::ExprPtr toBool(polyhedral::ExprPtr v);
  polyhedral::ExprPtr negated(polyhedral::ExprPtr v);
  static const clang::FieldDecl *fieldOfElement(const clang::Expr *e);
  void boolCompound(polyhedral::Statement &stmt);
  polyhedral::ExprPtr explicitCast(const clang::CStyleCastExpr *cast);
  polyhedral::ExprPtr operation(const clang::Expr *e);
  polyhedral::ExprPtr mathCall(const clang::CallExpr *call);
  polyhedral::ExprPtr convertedTo(polyhedral::ExprPtr n, const clang::Expr *e,
                                  clang::QualType type);
  polyhedral::ExprPtr inlinedCall(const clang::CallExpr *call,
                                  const clang::FunctionDecl *definition,
                                  const clang::Expr *result);
  /// While a call is inlined: the argument of each parameter of the
  /// functions being inlined, and the parameters' arguments where that
  /// argument is read (the caller's: an inlined function's, or none).
  struct InlinedArg {
    const clang::Expr *arg;
    std::shared_ptr<const std::map<const clang::ParmVarDecl *, InlinedArg>>
        caller;
  };
  std::map<const clang::ParmVarDecl *, InlinedArg> inlinedArgs;
  /// The functions being inlined, innermost last (recursion is refused).
  std::vector<const clang::FunctionDecl *> inlining;
  polyhedral::ExprPtr convertedArgument(const clang::Expr *arg);
  polyhedral::ExprPtr functionCall(const clang::CallExpr *call,
                                   const clang::FunctionDecl *definition);
  void requireFixedArguments(const clang::CallExpr *call,
                             const clang::FunctionDecl *definition);
  void requirePure(const clang::FunctionDecl *definition,
                   const clang::CallExpr *call);
  /// The functions being checked for purity, innermost last.
  std::vector<const clang::FunctionDecl *> checking;
  polyhedral::ExprPtr arrayRef(const clang::Expr *e,
                               polyhedral::Access::Kind kind);
  /// What an array reference names (arrayRef).
  struct ReferencedArray {
    unsigned id = 0; ///< index into Scop::arrays
    const clang::VarDecl *var = nullptr; ///< its variable (null: a member)
    const clang::FieldDecl *field = nullptr; ///< a struct element's field
    std::vector<const clang::Expr *> subscripts;
    unsigned rank = 0;    ///< subscripts of an element (without a field)
    bool flat = false;    ///< delinearized: one flat subscript
  };
  ReferencedArray referencedArray(const clang::Expr *e);
  void subscriptIndices(const ReferencedArray &r, polyhedral::Access &access,
                        polyhedral::Expr &ref, std::string &range,
                        std::vector<std::string> &anyIndex);
  void flatIndices(const clang::Expr *sub, const clang::VarDecl *var,
                   polyhedral::Expr &ref, std::string &range);
  polyhedral::ExprPtr writeRef(const clang::Expr *lhs, bool alsoRead);
  std::optional<unsigned> memberArray(const clang::Expr *e);
  polyhedral::ExprPtr scalarWrite(const clang::VarDecl *var);
  polyhedral::ExprPtr scalarRef(polyhedral::Statement &stmt, unsigned array,
                                polyhedral::Access::Kind kind);
  bool isArrayOrScalarRef(const clang::Expr *e);
  void refusePointerUse(const clang::Expr *e);
  void refuseStructField(const clang::Expr *e);
  [[noreturn]] void refuseExpressionStatement(const clang::Expr *e);
};

/// The statements of the scop, with the blocks, loops and ifs around them:
/// their domains and their positions in the original schedule.
class StatementBuilder {
public:
  StatementBuilder(BuildState &state, AffineBuilder &affine,
                   ArrayBuilder &arrays, BodyBuilder &bodies)
      : state(state), affine(affine), arrays(arrays), bodies(bodies) {}

  /// Builds the statements at the top level of the scop, in order.
  void build(const std::vector<clang::Stmt *> &stmts);
  /// Sets the scop's original schedule from the statements built.
  void finish();

private:
  BuildState &state;
  AffineBuilder &affine;
  ArrayBuilder &arrays;
  BodyBuilder &bodies;

  /// Position of the current statement at each loop level, outermost
  /// first (the 2d+1 schedule's constant dimensions).
  std::vector<int> beta = {0};
  /// Where the statement after the last one built goes at its level.
  int nextPosition = 0;
  std::vector<std::pair<std::string, std::vector<std::string>>> schedules;
  unsigned maxDepth = 0;
  /// The statement being built.
  polyhedral::Statement *current = nullptr;

  /// A `continue` or `break` that ends one branch of an if placed
  /// directly in a loop body (through plain blocks): the statements after
  /// the if run only where that branch is not taken, and after a `break`
  /// no later iteration runs.
  struct Jump {
    bool isBreak;
    bool inThen; ///< the jump ends the `then` branch (else the `else`)
    /// For a break on data: the scalar its loop's statements run under
    /// (0 until a break is taken).
    std::optional<unsigned> breakFlag;
  };
  std::map<const clang::IfStmt *, Jump> jumpIfs;
  /// The `continue` and `break` statements of jumpIfs.
  std::set<const clang::Stmt *> allowedJumps;
  /// The condition of the last if built: its isl text where it is affine,
  /// else the scalar that holds its value (buildDataIf).
  std::optional<std::string> lastIfAffine;
  unsigned lastIfFlag = 0;

  void buildStmt(clang::Stmt *s, int position);
  /// The statements of `block` from `position`; after an if of jumpIfs,
  /// the rest of the loop body runs under the branch not taken.
  void buildSequence(clang::CompoundStmt *block, int position);
  /// Records the jumps of the loop body `body` in jumpIfs and returns the
  /// ifs in order.
  std::vector<const clang::IfStmt *> findJumps(clang::Stmt *body);
  /// For a loop body with `break`s (`jumps` from findJumps): the
  /// iterations of the loop (`{ L[...] }`) that run, those up to the first
  /// that breaks; nothing when there is no break, or when a jump's
  /// condition reads data (`onData` set: buildFor keeps a flag instead).
  std::optional<isl::set> iterationsBeforeBreak(
      const std::vector<const clang::IfStmt *> &jumps, long step,
      const clang::VarDecl *var, bool &onData);
  /// A new int scalar of the scop, local to it, named `prefix` and a number.
  unsigned newFlag(const std::string &prefix, clang::SourceLocation loc);
  void buildDataIf(clang::IfStmt *branch);
  void buildBody(clang::Stmt *body, int position = 0);
  int buildFor(clang::ForStmt *loop, int position);
  long checkedStep(clang::ForStmt *loop, const clang::VarDecl *var);
  /// What buildFor knows of a loop's values: where its condition holds
  /// (keepFirstRun), whether its variable is read after it (`live`) or
  /// may wrap around; with either, its iterations `{ L[o, i] }`, the last
  /// ones and `{ L[o, i] -> L[o, i - step] }`.
  struct LoopValues {
    isl::set holds, iterations, last;
    isl::map stepBack;
    bool live = false, mayWrap = false;
  };
  void loopValues(long step, LoopValues &values);
  void resetBreakFlag(clang::ForStmt *loop,
                      const std::vector<const clang::IfStmt *> &jumps,
                      long step);
  int finishLoop(clang::ForStmt *loop, const clang::VarDecl *var,
                 const clang::Expr *init, const std::string &name,
                 const std::string &lower, long step, int position,
                 const LoopValues &values);
  void buildLoopExit(const clang::ForStmt *loop, const clang::VarDecl *var,
                     const clang::Expr *init, long step,
                     const isl::set &domain);
  void checkIteratorRange(const clang::VarDecl *var, const isl::set &values,
                          clang::SourceLocation loc);
  isl::set keepFirstRun(long step, isl::set &evaluated);
  isl::map laterInLoop(long step, bool later);
  void buildIf(clang::IfStmt *branch);
  void buildAssignment(const clang::Expr *e,
                       const clang::Expr *rhsValue = nullptr);
  void buildDecl(clang::DeclStmt *decl);
  std::pair<const clang::VarDecl *, const clang::Expr *>
  loopInit(clang::ForStmt *loop);
  void checkNotModified(clang::Stmt *body, const clang::VarDecl *var);
  polyhedral::Statement &newStatement(clang::SourceLocation loc);
  /// Completes the current statement; its domain is `domain` when given,
  /// else the iterations of the loops around under their conditions. It
  /// runs under the conditions on data around (BuildState::guards) unless
  /// `guarded` is false (a stored condition or flag, written whatever they
  /// say, which keeps it private to the iterations around).
  void finishStatement(isl::set domain = isl::set(), bool guarded = true);
};

/// Builds `scop` from `stmts`, the statements of one region of `function`
/// that ends at byte offset `endOffset`; `functionNames` are the
/// identifiers of the function. Throws Abandon after reporting a
/// diagnostic.
void buildScop(clang::ASTContext &ast, polyhedral::Scop &scop,
               const std::vector<clang::Stmt *> &stmts,
               clang::FunctionDecl *function, unsigned endOffset,
               const std::vector<std::string> &functionNames);

} // namespace polycuda::translator::scopbuilder

#endif
