//===- ScopBuilder.cpp - Clang AST -> polyhedral Scop ---------------------===//
//
// Front end (see ScopBuilder.h). Pragmas are recorded by a preprocessor
// handler; after parsing, the statements of each function that lie between a
// `#pragma scop` and its `#pragma endscop` are walked. Affine parts (bounds,
// conditions, subscripts) are turned into isl syntax and parsed by isl; the
// statement bodies become polyhedral::Expr trees.
//
//===----------------------------------------------------------------------===//
#include "ScopBuilder.h"

#include "Diagnostics.h"
#include "IslExtras.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>
#include <map>
#include <optional>
#include <set>

using namespace clang;

namespace polycuda::translator {

using polyhedral::Access;
using polyhedral::ElemType;
using polyhedral::Expr;
using polyhedral::ExprPtr;

namespace {

struct PragmaLocs {
  std::vector<std::pair<SourceLocation, bool>> marks; // (loc, isBegin)
};

class ScopPragmaHandler : public PragmaHandler {
public:
  ScopPragmaHandler(const char *name, bool isBegin, PragmaLocs &locs)
      : PragmaHandler(name), isBegin(isBegin), locs(locs) {}
  void HandlePragma(Preprocessor &pp, PragmaIntroducer introducer,
                    Token &token) override {
    locs.marks.push_back({introducer.Loc, isBegin});
    // Skip the rest of the line.
    while (token.isNot(tok::eod))
      pp.Lex(token);
  }

private:
  bool isBegin;
  PragmaLocs &locs;
};

const std::set<std::string> kMathFunctions = {
    "sqrt", "sqrtf", "exp",   "expf",  "exp2",  "exp2f", "log",   "logf",
    "log2", "log2f", "log10", "log10f", "pow",  "powf",  "fabs",  "fabsf",
    "floor", "floorf", "ceil", "ceilf", "sin",  "sinf",  "cos",   "cosf",
    "tan",  "tanf",  "tanh",  "tanhf", "fmin",  "fminf", "fmax",  "fmaxf",
    "abs",  "round", "roundf", "fmod", "fmodf", "atan",  "atanf", "cbrt",
    "cbrtf", "trunc", "truncf", "erf", "erff",  "asin",  "acos",  "sinh",
    "cosh", "expm1", "log1p", "hypot", "atan2", "atan2f", "rsqrt"};

const std::set<std::string> kIslKeywords = {
    "and", "or", "not", "exists", "min", "max", "floor", "ceil", "mod",
    "true", "false", "infty", "NaN", "implies", "xor", "rat", "cst"};

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
/// affine (Builder::affineOrNone).
struct NotAffine {};

/// The state of one scop being built.
class Builder {
public:
  Builder(ASTContext &astContext, polyhedral::Scop &scop)
      : ast(astContext), sm(astContext.getSourceManager()),
        diags(astContext.getDiagnostics()), scop(scop) {}

  /// Marks the scalars whose value may be needed after the scop: globals,
  /// statics and locals referenced after `endOffset` in `function`.
  void markUsedAfter(FunctionDecl *function, unsigned endOffset) {
    struct Refs : RecursiveASTVisitor<Refs> {
      SourceManager &sm;
      unsigned end;
      std::set<const VarDecl *> after;
      Refs(SourceManager &sm, unsigned end) : sm(sm), end(end) {}
      bool VisitDeclRefExpr(DeclRefExpr *ref) {
        if (auto *var = dyn_cast<VarDecl>(ref->getDecl()))
          if (sm.getFileOffset(sm.getExpansionLoc(ref->getBeginLoc())) > end)
            after.insert(var);
        return true;
      }
    } refs(sm, endOffset);
    refs.TraverseDecl(function);
    for (auto &[var, id] : arrayIds)
      scop.arrays[id].usedAfterScop = var->hasGlobalStorage() ||
                                      refs.after.count(var) ||
                                      isa<ParmVarDecl>(var);
  }

  void build(const std::vector<Stmt *> &stmts) {
    for (Stmt *s : stmts)
      checkExpressionDepth(s);
    collectVariables(stmts);
    std::string paramList;
    for (const std::string &p : scop.params)
      paramList += (paramList.empty() ? "" : ", ") + p;
    paramPrefix = "[" + paramList + "] -> ";
    scop.context = isl::set(scop.ctx, paramPrefix + "{ : }");
    // Like buildBody: an if/else, a block or a chain takes several positions.
    int position = 0;
    for (Stmt *s : stmts) {
      buildStmt(s, position);
      position = nextPosition;
    }
    finish();
  }

private:
  ASTContext &ast;
  SourceManager &sm;
  DiagnosticsEngine &diags;
  polyhedral::Scop &scop;
  std::string paramPrefix;

  /// Variables written anywhere in the scop.
  std::set<const VarDecl *> written;
  std::map<const VarDecl *, std::string> paramNames;
  std::set<std::string> usedIslNames;

  struct Loop {
    const VarDecl *var;
    std::string name;
    bool reversed;
    polyhedral::SourceLoc loc; ///< the `for` keyword
  };
  std::vector<Loop> loops;
  std::vector<std::string> constraints; ///< conjunction, isl syntax
  std::vector<int> beta = {0};
  std::map<std::string, std::vector<unsigned>> scheduleOf;
  std::vector<std::pair<std::string, std::vector<std::string>>> schedules;
  unsigned maxDepth = 0;

  [[noreturn]] void fail(SourceLocation loc, Diag diag, StringRef arg = "",
                         SourceRange range = SourceRange()) {
    if (probing)
      throw NotAffine();
    report(diags, loc, diag, arg, range);
    throw Abandon();
  }

  /// Set while affineOrNone probes a subscript: fail() reports nothing.
  bool probing = false;

  /// Fails at the outermost expression of `root` that has a subexpression
  /// nested deeper than kMaxExpressionDepth. Iterative, unlike every walk it
  /// protects.
  void checkExpressionDepth(Stmt *root) {
    struct Item {
      const Stmt *node;
      const clang::Expr *outermost; ///< null outside expressions
      unsigned depth;               ///< expressions from `outermost` down
    };
    std::vector<Item> work = {{root, nullptr, 0}};
    while (!work.empty()) {
      Item item = work.back();
      work.pop_back();
      const auto *e = dyn_cast<clang::Expr>(item.node);
      const clang::Expr *outermost = item.outermost ? item.outermost : e;
      unsigned depth = item.depth + (e != nullptr);
      if (depth > kMaxExpressionDepth)
        fail(sm.getExpansionLoc(outermost->getBeginLoc()),
             Diag::ExpressionTooDeep, std::to_string(kMaxExpressionDepth));
      for (const Stmt *child : item.node->children())
        if (child)
          work.push_back({child, outermost, depth});
    }
  }

  std::string text(const clang::Expr *e) {
    std::string s;
    llvm::raw_string_ostream os(s);
    e->printPretty(os, nullptr, ast.getPrintingPolicy());
    return os.str();
  }

  polyhedral::SourceLoc locOf(SourceLocation loc) {
    PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(loc));
    polyhedral::SourceLoc result;
    if (p.isValid()) {
      result.file = p.getFilename();
      result.line = p.getLine();
      result.col = p.getColumn();
    }
    return result;
  }

  static const VarDecl *varOf(const clang::Expr *e) {
    if (auto *ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
      return dyn_cast<VarDecl>(ref->getDecl());
    return nullptr;
  }

  std::string freshIslName(const std::string &base) {
    std::string name = base;
    if (kIslKeywords.count(name))
      name = "_" + name;
    std::string candidate = name;
    for (int i = 1; usedIslNames.count(candidate); ++i)
      candidate = name + "_" + std::to_string(i);
    usedIslNames.insert(candidate);
    return candidate;
  }

  // --- Pre-pass: written variables and parameters ------------------------

  void collectVariables(const std::vector<Stmt *> &stmts) {
    struct Collector : RecursiveASTVisitor<Collector> {
      std::set<const VarDecl *> &written;
      std::vector<const VarDecl *> referenced;
      std::set<const VarDecl *> declaredInside;
      explicit Collector(std::set<const VarDecl *> &w) : written(w) {}
      void noteWrite(clang::Expr *lhs) {
        if (auto *var = varOf(lhs))
          written.insert(var);
      }
      bool VisitBinaryOperator(BinaryOperator *op) {
        if (op->isAssignmentOp())
          noteWrite(op->getLHS());
        return true;
      }
      bool VisitUnaryOperator(UnaryOperator *op) {
        if (op->isIncrementDecrementOp())
          noteWrite(op->getSubExpr());
        return true;
      }
      bool VisitDeclStmt(DeclStmt *decl) {
        for (Decl *d : decl->decls())
          if (auto *var = dyn_cast<VarDecl>(d)) {
            written.insert(var);
            declaredInside.insert(var);
          }
        return true;
      }
      bool VisitDeclRefExpr(DeclRefExpr *ref) {
        if (auto *var = dyn_cast<VarDecl>(ref->getDecl()))
          referenced.push_back(var);
        return true;
      }
    } collector(written);
    for (Stmt *s : stmts)
      collector.TraverseStmt(s);
    // Sizes of variable-length arrays are parameters too, even when the
    // scop does not mention them otherwise.
    std::vector<const VarDecl *> referenced = collector.referenced;
    for (const VarDecl *var : referenced) {
      QualType type = var->getType();
      if (auto *parm = dyn_cast<ParmVarDecl>(var))
        type = parm->getOriginalType();
      const clang::Type *t = type.getCanonicalType().getTypePtr();
      while (auto *at = dyn_cast<clang::ArrayType>(t)) {
        if (auto *vat = dyn_cast<VariableArrayType>(at))
          if (vat->getSizeExpr())
            collector.TraverseStmt(const_cast<clang::Expr *>(vat->getSizeExpr()));
        t = at->getElementType().getCanonicalType().getTypePtr();
      }
    }
    for (const VarDecl *var : collector.referenced) {
      if (written.count(var) || paramNames.count(var))
        continue;
      if (!var->getType()->isIntegerType())
        continue;
      std::string name = freshIslName(var->getName().str());
      paramNames[var] = name;
      scop.params.push_back(name);
      scop.paramSourceNames.push_back(var->getName().str());
    }
  }

  // --- Affine expressions in isl syntax -----------------------------------

  std::optional<llvm::APSInt> constantOf(const clang::Expr *e) {
    clang::Expr::EvalResult result;
    if (!e->isValueDependent() && e->EvaluateAsInt(result, ast))
      return result.Val.getInt();
    return std::nullopt;
  }

  const Loop *loopOf(const VarDecl *var) {
    for (auto it = loops.rbegin(); it != loops.rend(); ++it)
      if (it->var == var)
        return &*it;
    return nullptr;
  }

  std::string affine(const clang::Expr *e, Diag diag) {
    e = e->IgnoreParens();
    if (auto value = constantOf(e))
      return "(" + std::to_string(value->getExtValue()) + ")";
    if (auto *cast = dyn_cast<CastExpr>(e)) {
      if (cast->getSubExpr()->getType()->isIntegerType())
        return affine(cast->getSubExpr(), diag);
      fail(e->getBeginLoc(), diag, text(e), e->getSourceRange());
    }
    if (auto *ref = dyn_cast<DeclRefExpr>(e)) {
      if (auto *var = dyn_cast<VarDecl>(ref->getDecl())) {
        if (const Loop *loop = loopOf(var))
          return loop->name;
        auto it = paramNames.find(var);
        if (it != paramNames.end())
          return it->second;
        if (var->getType()->isIntegerType() && written.count(var))
          fail(e->getBeginLoc(), Diag::ParameterWritten,
               var->getName(), e->getSourceRange());
      }
      fail(e->getBeginLoc(), diag, text(e), e->getSourceRange());
    }
    if (auto *un = dyn_cast<UnaryOperator>(e)) {
      if (un->getOpcode() == UO_Minus)
        return "(-" + affine(un->getSubExpr(), diag) + ")";
      if (un->getOpcode() == UO_Plus)
        return affine(un->getSubExpr(), diag);
    }
    if (auto *bin = dyn_cast<BinaryOperator>(e)) {
      const clang::Expr *l = bin->getLHS(), *r = bin->getRHS();
      switch (bin->getOpcode()) {
      case BO_Add:
        return "(" + affine(l, diag) + " + " + affine(r, diag) + ")";
      case BO_Sub:
        return "(" + affine(l, diag) + " - " + affine(r, diag) + ")";
      case BO_Mul:
        if (auto c = constantOf(l))
          return "(" + std::to_string(c->getExtValue()) + " * " +
                 affine(r, diag) + ")";
        if (auto c = constantOf(r))
          return "(" + affine(l, diag) + " * " +
                 std::to_string(c->getExtValue()) + ")";
        break;
      case BO_Div:
      case BO_Rem:
        if (auto c = constantOf(r)) {
          if (c->getExtValue() > 0) {
            std::string num = affine(l, diag);
            std::string den = std::to_string(c->getExtValue());
            requireNonNegative(num, e);
            if (bin->getOpcode() == BO_Div)
              return "floor(" + num + " / " + den + ")";
            return "(" + num + " mod " + den + ")";
          }
        }
        break;
      default:
        break;
      }
    }
    if (auto *cond = dyn_cast<ConditionalOperator>(e)) {
      // min/max written as a ternary: (a < b ? a : b).
      if (auto *cmp = dyn_cast<BinaryOperator>(cond->getCond()->IgnoreParens())) {
        if (cmp->isRelationalOp()) {
          std::string a = affine(cmp->getLHS(), diag);
          std::string b = affine(cmp->getRHS(), diag);
          std::string t = affine(cond->getTrueExpr(), diag);
          std::string f = affine(cond->getFalseExpr(), diag);
          bool less = cmp->getOpcode() == BO_LT || cmp->getOpcode() == BO_LE;
          if (t == a && f == b)
            return (less ? "min(" : "max(") + a + ", " + b + ")";
          if (t == b && f == a)
            return (less ? "max(" : "min(") + a + ", " + b + ")";
        }
      }
    }
    if (auto *call = dyn_cast<CallExpr>(e)) {
      if (auto *fn = call->getDirectCallee()) {
        std::string name = fn->getName().str();
        if ((name == "min" || name == "max") && call->getNumArgs() == 2)
          return name + "(" + affine(call->getArg(0), diag) + ", " +
                 affine(call->getArg(1), diag) + ")";
      }
    }
    fail(e->getBeginLoc(), diag, text(e), e->getSourceRange());
  }

  /// `e` in isl syntax if it is affine (as `affine` accepts it), otherwise
  /// nothing, and nothing is reported: a written scalar, a product of
  /// variables, a division whose dividend may be negative, an array read.
  std::optional<std::string> affineOrNone(const clang::Expr *e) {
    bool saved = probing;
    probing = true;
    std::optional<std::string> result;
    try {
      result = affine(e, Diag::NonAffineSubscript);
    } catch (const NotAffine &) {
    }
    probing = saved;
    return result;
  }

  /// An affine condition in isl syntax.
  std::string condition(const clang::Expr *e) {
    e = e->IgnoreParenImpCasts();
    if (auto *bin = dyn_cast<BinaryOperator>(e)) {
      const clang::Expr *l = bin->getLHS(), *r = bin->getRHS();
      auto cmp = [&](const char *op) {
        // Left operand first, so that the diagnostic names the first
        // offending operand.
        std::string left = affine(l, Diag::NonAffineCondition);
        std::string right = affine(r, Diag::NonAffineCondition);
        return "(" + left + " " + op + " " + right + ")";
      };
      switch (bin->getOpcode()) {
      case BO_LAnd:
        return "(" + condition(l) + " and " + condition(r) + ")";
      case BO_LOr:
        return "(" + condition(l) + " or " + condition(r) + ")";
      case BO_LT:
        return cmp("<");
      case BO_LE:
        return cmp("<=");
      case BO_GT:
        return cmp(">");
      case BO_GE:
        return cmp(">=");
      case BO_EQ:
        return cmp("=");
      case BO_NE:
        return "(" + cmp("<") + " or " + cmp(">") + ")";
      default:
        break;
      }
    }
    if (auto *un = dyn_cast<UnaryOperator>(e))
      if (un->getOpcode() == UO_LNot)
        return "(not " + condition(un->getSubExpr()) + ")";
    if (auto value = constantOf(e))
      return value->getExtValue() ? "(0 = 0)" : "(1 = 0)";
    if (e->getType()->isIntegerType()) {
      std::string a = affine(e, Diag::NonAffineCondition);
      return "(" + a + " < 0 or " + a + " > 0)";
    }
    fail(e->getBeginLoc(), Diag::NonAffineCondition, text(e),
         e->getSourceRange());
  }

  /// C's / and % truncate toward zero while isl's floor and mod round
  /// down; they agree only for non-negative dividends, so a dividend that may
  /// be negative where it is evaluated is refused rather than miscompiled.
  void requireNonNegative(const std::string &dividend, const clang::Expr *e) {
    std::string tuple = "[";
    for (size_t i = 0; i < loops.size(); ++i)
      tuple += (i ? ", " : "") + loops[i].name;
    tuple += "]";
    std::string cond;
    for (const std::string &c : constraints)
      cond += c + " and ";
    isl::set negative(scop.ctx, paramPrefix + "{ " + tuple + " : " + cond +
                                    dividend + " < 0 }");
    if (!negative.is_empty())
      fail(e->getBeginLoc(), Diag::NegativeDividend, text(e),
           e->getSourceRange());
  }

  // --- Statements ---------------------------------------------------------

  void buildStmt(Stmt *s, int position) {
    beta.back() = position;
    if (auto *compound = dyn_cast<CompoundStmt>(s)) {
      // A nested block is transparent: its statements continue the sequence
      // at this level.
      int i = position;
      for (Stmt *child : compound->body()) {
        buildStmt(child, i);
        i = nextPosition;
      }
      nextPosition = i;
      return;
    }
    if (isa<NullStmt>(s)) {
      nextPosition = position;
      return;
    }
    if (auto *e = dyn_cast<clang::Expr>(s)) {
      if (const BinaryOperator *inner = chainedAssignment(e)) {
        // `x = y = v`: C assigns y, then x the value y then holds; two
        // statements in that order (longer chains recurse on the inner one).
        buildStmt(const_cast<BinaryOperator *>(inner), position);
        int next = nextPosition;
        beta.back() = next;
        buildAssignment(e, inner->getLHS());
        nextPosition = next + 1;
        return;
      }
    }
    if (auto *loop = dyn_cast<ForStmt>(s))
      buildFor(loop);
    else if (auto *branch = dyn_cast<IfStmt>(s))
      buildIf(branch);
    else if (auto *e = dyn_cast<clang::Expr>(s))
      buildAssignment(e);
    else if (auto *decl = dyn_cast<DeclStmt>(s))
      buildDecl(decl);
    else
      fail(s->getBeginLoc(), Diag::UnsupportedStatement, describe(s),
           s->getSourceRange());
    // Nested statements overwrite nextPosition; this level continues here.
    if (!isa<IfStmt>(s))
      nextPosition = position + 1;
  }

  int nextPosition = 0;

  /// The inner assignment of a chained assignment `x = (y = v)` (any
  /// assignment operator on either side), or null.
  static const BinaryOperator *chainedAssignment(const clang::Expr *e) {
    auto *outer = dyn_cast<BinaryOperator>(e->IgnoreParens());
    if (!outer || !outer->isAssignmentOp())
      return nullptr;
    auto *inner = dyn_cast<BinaryOperator>(outer->getRHS()->IgnoreParenImpCasts());
    return inner && inner->isAssignmentOp() ? inner : nullptr;
  }

  /// How a statement kind is named in diagnostics.
  static std::string describe(const Stmt *s) {
    if (isa<WhileStmt>(s))
      return "a 'while' loop";
    if (isa<DoStmt>(s))
      return "a 'do' loop";
    if (isa<GotoStmt>(s) || isa<IndirectGotoStmt>(s))
      return "'goto'";
    if (isa<LabelStmt>(s))
      return "a label";
    if (isa<BreakStmt>(s))
      return "'break'";
    if (isa<ContinueStmt>(s))
      return "'continue'";
    if (isa<ReturnStmt>(s))
      return "'return'";
    if (isa<SwitchStmt>(s))
      return "'switch'";
    return std::string("'") + s->getStmtClassName() + "'";
  }

  void buildBody(Stmt *body) {
    if (auto *compound = dyn_cast<CompoundStmt>(body)) {
      int i = 0;
      for (Stmt *child : compound->body()) {
        buildStmt(child, i);
        i = nextPosition;
      }
    } else {
      buildStmt(body, 0);
    }
  }

  void checkNotModified(Stmt *body, const VarDecl *var) {
    struct Finder : RecursiveASTVisitor<Finder> {
      const VarDecl *var;
      SourceLocation found;
      bool check(clang::Expr *e) {
        if (varOf(e) == var && found.isInvalid())
          found = e->getBeginLoc();
        return true;
      }
      bool VisitBinaryOperator(BinaryOperator *op) {
        return op->isAssignmentOp() ? check(op->getLHS()) : true;
      }
      bool VisitUnaryOperator(UnaryOperator *op) {
        return op->isIncrementDecrementOp() ? check(op->getSubExpr()) : true;
      }
    } finder;
    finder.var = var;
    finder.TraverseStmt(body);
    if (finder.found.isValid())
      fail(finder.found, Diag::IteratorModified, var->getName());
  }

  void buildFor(ForStmt *loop) {
    // Initialization: `i = e` or `int i = e`.
    const VarDecl *var = nullptr;
    const clang::Expr *init = nullptr;
    if (auto *decl = dyn_cast_or_null<DeclStmt>(loop->getInit())) {
      if (decl->isSingleDecl())
        if (auto *v = dyn_cast<VarDecl>(decl->getSingleDecl()))
          if (v->getInit()) {
            var = v;
            init = v->getInit();
          }
    } else if (auto *assign =
                   dyn_cast_or_null<BinaryOperator>(loop->getInit())) {
      if (assign->getOpcode() == BO_Assign) {
        var = varOf(assign->getLHS());
        init = assign->getRHS();
      }
    }
    if (!var || !init)
      fail(loop->getInit() ? loop->getInit()->getBeginLoc()
                           : loop->getBeginLoc(),
           Diag::UnsupportedLoopInit);
    if (!var->getType()->isIntegerType())
      fail(var->getLocation(), Diag::UnsupportedLoopInit);
    // Increment: constant step.
    std::optional<long> step;
    const clang::Expr *inc = loop->getInc();
    if (inc) {
      inc = inc->IgnoreParens();
      if (auto *un = dyn_cast<UnaryOperator>(inc)) {
        if (varOf(un->getSubExpr()) == var)
          step = un->isIncrementOp() ? 1 : -1;
      } else if (auto *cop = dyn_cast<CompoundAssignOperator>(inc)) {
        if (varOf(cop->getLHS()) == var)
          if (auto c = constantOf(cop->getRHS())) {
            if (cop->getOpcode() == BO_AddAssign)
              step = c->getExtValue();
            else if (cop->getOpcode() == BO_SubAssign)
              step = -c->getExtValue();
          }
      } else if (auto *bin = dyn_cast<BinaryOperator>(inc)) {
        if (bin->getOpcode() == BO_Assign && varOf(bin->getLHS()) == var)
          if (auto *sum = dyn_cast<BinaryOperator>(
                  bin->getRHS()->IgnoreParenImpCasts())) {
            if (varOf(sum->getLHS()) == var)
              if (auto c = constantOf(sum->getRHS())) {
                if (sum->getOpcode() == BO_Add)
                  step = c->getExtValue();
                else if (sum->getOpcode() == BO_Sub)
                  step = -c->getExtValue();
              }
          }
      }
    }
    if (!step || *step == 0)
      fail(inc ? inc->getBeginLoc() : loop->getBeginLoc(),
           Diag::NonConstantStride);
    if (!loop->getCond())
      fail(loop->getBeginLoc(), Diag::UnsupportedLoopCondition);
    checkNotModified(loop->getBody(), var);

    if (loops.size() >= kMaxLoopDepth)
      fail(loop->getBeginLoc(), Diag::NestTooDeep,
           std::to_string(kMaxLoopDepth));
    std::string lower = affine(init, Diag::NonAffineExpression);
    std::string name = freshIslName(var->getName().str());
    loops.push_back({var, name, *step < 0, locOf(loop->getBeginLoc())});
    size_t saved = constraints.size();
    if (*step > 0)
      constraints.push_back("(" + name + " >= " + lower + ")");
    else
      constraints.push_back("(" + name + " <= " + lower + ")");
    long stride = *step > 0 ? *step : -*step;
    if (stride > 1)
      constraints.push_back("(exists (e_" + name + ": " + name + " = " +
                            lower + " + " + std::to_string(stride) + " * e_" +
                            name + "))");
    constraints.push_back(condition(loop->getCond()));
    beta.push_back(0);
    buildBody(loop->getBody());
    beta.pop_back();
    constraints.resize(saved);
    loops.pop_back();
    usedIslNames.erase(name);
  }

  void buildIf(IfStmt *branch) {
    if (branch->getInit() || branch->getConditionVariable())
      fail(branch->getBeginLoc(), Diag::UnsupportedStatement,
           "an if with a declaration");
    std::string cond = condition(branch->getCond());
    int position = beta.back();
    size_t saved = constraints.size();
    constraints.push_back(cond);
    buildStmt(branch->getThen(), position);
    int next = nextPosition;
    constraints.resize(saved);
    if (Stmt *otherwise = branch->getElse()) {
      constraints.push_back("(not " + cond + ")");
      buildStmt(otherwise, next);
      next = nextPosition;
      constraints.resize(saved);
    }
    nextPosition = next;
  }

  // --- Arrays ------------------------------------------------------------

  std::optional<ElemType> elemTypeOf(QualType type) {
    type = type.getCanonicalType().getUnqualifiedType();
    if (auto *builtin = dyn_cast<BuiltinType>(type.getTypePtr())) {
      switch (builtin->getKind()) {
      case BuiltinType::Int:
        return ElemType::Int;
      case BuiltinType::UInt:
        return ElemType::UInt;
      case BuiltinType::Short:
        return ElemType::Short;
      case BuiltinType::Char_S:
      case BuiltinType::Char_U:
      case BuiltinType::SChar:
        return ElemType::Char;
      case BuiltinType::UChar:
        return ElemType::UChar;
      case BuiltinType::Long:
      case BuiltinType::LongLong:
        return ElemType::Long;
      case BuiltinType::Float:
        return ElemType::Float;
      case BuiltinType::Double:
        return ElemType::Double;
      default:
        break;
      }
    }
    return std::nullopt;
  }

  /// The array for `var`, created on first use.
  unsigned arrayFor(const VarDecl *var, SourceLocation useLoc) {
    auto it = arrayIds.find(var);
    if (it != arrayIds.end())
      return it->second;
    polyhedral::Array array;
    array.name = var->getName().str();
    array.declLoc = locOf(var->getLocation());
    QualType type = var->getType();
    if (auto *parm = dyn_cast<ParmVarDecl>(var))
      type = parm->getOriginalType();
    std::vector<isl::pw_aff> extents;
    const clang::Type *t = type.getCanonicalType().getTypePtr();
    bool first = true;
    while (auto *at = dyn_cast<clang::ArrayType>(t)) {
      isl::pw_aff extent;
      if (auto *cat = dyn_cast<ConstantArrayType>(at)) {
        extent = isl::pw_aff(scop.ctx, paramPrefix + "{ [(" +
                                            std::to_string(cat->getSize().getZExtValue()) +
                                            ")] }");
      } else if (auto *vat = dyn_cast<VariableArrayType>(at)) {
        array.isVariableLength = true;
        if (vat->getSizeExpr()) {
          std::string size = affine(vat->getSizeExpr(), Diag::NonAffineExpression);
          extent = isl::pw_aff(scop.ctx, paramPrefix + "{ [" + size + "] }");
        }
      }
      if (extent.is_null()) {
        if (!first)
          fail(var->getLocation(), Diag::UnknownArrayExtent, array.name);
        // Only inner extents are needed to linearize subscripts.
        array.firstExtentKnown = false;
        extent = isl::pw_aff(scop.ctx, paramPrefix + "{ [(0)] }");
      }
      extents.push_back(extent);
      first = false;
      t = at->getElementType().getCanonicalType().getTypePtr();
    }
    if (isa<PointerType>(t))
      fail(useLoc, Diag::PointerAccess, array.name);
    auto elem = elemTypeOf(QualType(t, 0));
    if (!elem)
      fail(var->getLocation(), Diag::UnsupportedType,
           QualType(t, 0).getAsString());
    array.type = *elem;
    array.extents = extents;
    array.isLocal = localVars.count(var) > 0;
    unsigned id = scop.arrays.size();
    scop.arrays.push_back(array);
    arrayIds[var] = id;
    return id;
  }

  std::map<const VarDecl *, unsigned> arrayIds;
  std::set<const VarDecl *> localVars;

  // --- Statement bodies ----------------------------------------------------

  polyhedral::Statement *current = nullptr;

  ExprPtr node(Expr::Kind kind) {
    auto e = std::make_shared<Expr>();
    e->kind = kind;
    return e;
  }

  std::string domainTuple() {
    std::string tuple = current->name + "[";
    for (size_t i = 0; i < loops.size(); ++i)
      tuple += (i ? ", " : "") + loops[i].name;
    return tuple + "]";
  }

  /// A reference to an array element or scalar and its Access of `kind`.
  /// A subscript that is not affine may be any integer expression (e.g.
  /// `idx[i]`, `i * i`): its reads become Accesses of the statement, and the
  /// reference accesses the whole extent of that dimension (a may-access;
  /// a write becomes a MayWrite).
  ExprPtr arrayRef(const clang::Expr *e, Access::Kind kind) {
    std::vector<const clang::Expr *> subscripts;
    const clang::Expr *base = e->IgnoreParenImpCasts();
    while (auto *sub = dyn_cast<ArraySubscriptExpr>(base)) {
      subscripts.insert(subscripts.begin(), sub->getIdx());
      base = sub->getBase()->IgnoreParenImpCasts();
    }
    const VarDecl *var = varOf(base);
    if (!var) {
      refusePointerUse(base);
      fail(base->getBeginLoc(), Diag::UnsupportedExpression,
           "'" + text(base) + "'", base->getSourceRange());
    }
    unsigned id = arrayFor(var, base->getBeginLoc());
    // Not a reference: value() below may add arrays to scop.arrays.
    const std::string name = scop.arrays[id].name;
    unsigned rank = scop.arrays[id].rank();
    if (subscripts.size() != rank)
      fail(e->getBeginLoc(), Diag::UnsupportedExpression,
           "an access to '" + name + "' with " +
               std::to_string(subscripts.size()) +
               " subscripts (declared with " + std::to_string(rank) + ")",
           e->getSourceRange());
    ExprPtr ref = node(Expr::Kind::ArrayRef);
    ref->name = name;
    Access access;
    access.array = id;
    std::string range;
    std::vector<std::string> anyIndex; // isl names of the non-affine dims
    for (size_t d = 0; d < subscripts.size(); ++d) {
      const clang::Expr *sub = subscripts[d];
      std::optional<std::string> index = affineOrNone(sub);
      if (!index) {
        // Without a first extent there is no whole extent to access.
        if (d == 0 && !scop.arrays[id].firstExtentKnown)
          fail(sub->getBeginLoc(), Diag::NonAffineSubscript, text(sub),
               sub->getSourceRange());
        access.nonAffineSubscripts.resize(rank);
        access.nonAffineSubscripts[d] = text(sub);
        index = freshIslName("a" + std::to_string(d));
        anyIndex.push_back(*index);
      }
      range += (range.empty() ? "" : ", ") + *index;
      ref->args.push_back(value(sub));
    }
    for (const std::string &index : anyIndex)
      usedIslNames.erase(index);
    access.relation =
        isl::map(scop.ctx, paramPrefix + "{ " + domainTuple() + " -> " + name +
                               "[" + range + "] }");
    if (!access.isAffine())
      access.relation =
          access.relation.intersect_range(wholeExtent(scop.arrays[id], access));
    access.kind = kind == Access::Kind::MustWrite && !access.isAffine()
                      ? Access::Kind::MayWrite
                      : kind;
    if (kind == Access::Kind::Read)
      scop.arrays[id].isRead = true;
    else
      scop.arrays[id].isWritten = true;
    ref->access = current->accesses.size();
    current->accesses.push_back(access);
    return ref;
  }

  /// `{ A[a] : 0 <= a_d < extent_d }` for the dimensions d in which
  /// `access` has a non-affine subscript, unconstrained in the others.
  isl::set wholeExtent(const polyhedral::Array &array, const Access &access) {
    isl::space space = access.relation.get_space().range();
    isl::set result = isl::set::universe(space);
    for (unsigned d = 0; d < array.rank(); ++d) {
      if (access.nonAffineSubscripts[d].empty())
        continue;
      isl::pw_aff index = polyhedral::variableOn(space, d);
      result = result.intersect(index.ge_set(polyhedral::constantOn(space, 0)))
                   .intersect(index.lt_set(
                       polyhedral::liftToSpace(array.extents[d], space)));
    }
    return result;
  }

  bool isArrayOrScalarRef(const clang::Expr *e) {
    e = e->IgnoreParenImpCasts();
    if (isa<ArraySubscriptExpr>(e))
      return true;
    if (auto *var = varOf(e))
      return !loopOf(var) && !paramNames.count(var);
    return false;
  }

  ExprPtr value(const clang::Expr *e) {
    e = e->IgnoreParens();
    if (auto *lit = dyn_cast<IntegerLiteral>(e)) {
      ExprPtr n = node(Expr::Kind::IntLit);
      n->literal = std::to_string(lit->getValue().getZExtValue());
      return n;
    }
    if (auto *lit = dyn_cast<FloatingLiteral>(e)) {
      ExprPtr n = node(Expr::Kind::FloatLit);
      llvm::SmallString<32> str;
      lit->getValue().toString(str, 17, 0, false);
      std::string s = str.str().str();
      if (s.find_first_of(".eEn") == std::string::npos)
        s += ".0";
      if (lit->getType()->isFloatingType() &&
          lit->getType()->getAs<BuiltinType>()->getKind() == BuiltinType::Float)
        s += "f";
      n->literal = s;
      return n;
    }
    if (auto *lit = dyn_cast<CharacterLiteral>(e)) {
      ExprPtr n = node(Expr::Kind::IntLit);
      n->literal = std::to_string(lit->getValue());
      return n;
    }
    if (auto *ref = dyn_cast<DeclRefExpr>(e)) {
      if (auto *ec = dyn_cast<EnumConstantDecl>(ref->getDecl())) {
        ExprPtr n = node(Expr::Kind::IntLit);
        n->literal = std::to_string(ec->getInitVal().getExtValue());
        return n;
      }
      if (auto *var = dyn_cast<VarDecl>(ref->getDecl())) {
        if (const Loop *loop = loopOf(var)) {
          ExprPtr n = node(Expr::Kind::Iterator);
          n->name = loop->name;
          return n;
        }
        auto it = paramNames.find(var);
        if (it != paramNames.end()) {
          ExprPtr n = node(Expr::Kind::Param);
          n->name = it->second;
          return n;
        }
        // A scalar the scop only reads is passed to kernels by value.
        if (!written.count(var) && !var->getType()->isArrayType() &&
            !var->getType()->isPointerType()) {
          if (auto type = elemTypeOf(var->getType())) {
            std::string name = var->getName().str();
            bool known = false;
            for (auto &arg : scop.scalarArgs)
              known |= arg.first == name;
            if (!known)
              scop.scalarArgs.push_back({name, *type});
            ExprPtr n = node(Expr::Kind::Param);
            n->name = name;
            return n;
          }
        }
        return arrayRef(e, Access::Kind::Read);
      }
    }
    if (isa<ArraySubscriptExpr>(e))
      return arrayRef(e, Access::Kind::Read);
    if (auto *cast = dyn_cast<ImplicitCastExpr>(e))
      return value(cast->getSubExpr());
    if (auto *cast = dyn_cast<CStyleCastExpr>(e)) {
      auto type = elemTypeOf(cast->getType());
      if (!type)
        fail(e->getBeginLoc(), Diag::UnsupportedType,
             cast->getType().getAsString());
      ExprPtr n = node(Expr::Kind::Cast);
      n->castType = *type;
      n->args.push_back(value(cast->getSubExpr()));
      return n;
    }
    refusePointerUse(e);
    if (auto *un = dyn_cast<UnaryOperator>(e)) {
      const char *op = nullptr;
      switch (un->getOpcode()) {
      case UO_Minus: op = "-"; break;
      case UO_Plus: op = "+"; break;
      case UO_LNot: op = "!"; break;
      case UO_Not: op = "~"; break;
      default: break;
      }
      if (op) {
        ExprPtr n = node(Expr::Kind::Unary);
        n->op = op;
        n->args.push_back(value(un->getSubExpr()));
        return n;
      }
    }
    if (auto *bin = dyn_cast<BinaryOperator>(e)) {
      if (!bin->isAssignmentOp() && bin->getOpcode() != BO_Comma) {
        ExprPtr n = node(Expr::Kind::Binary);
        n->op = BinaryOperator::getOpcodeStr(bin->getOpcode()).str();
        n->args.push_back(value(bin->getLHS()));
        n->args.push_back(value(bin->getRHS()));
        return n;
      }
    }
    if (auto *cond = dyn_cast<ConditionalOperator>(e)) {
      ExprPtr n = node(Expr::Kind::Ternary);
      n->args.push_back(value(cond->getCond()));
      n->args.push_back(value(cond->getTrueExpr()));
      n->args.push_back(value(cond->getFalseExpr()));
      return n;
    }
    if (auto *call = dyn_cast<CallExpr>(e)) {
      const FunctionDecl *fn = call->getDirectCallee();
      std::string name = fn ? fn->getName().str() : text(call->getCallee());
      // Integer min(a, b) and max(a, b), as the access relations read them
      // (affine), become `a < b ? a : b` (`>` for max): every target prints
      // that without a helper of its own.
      if (fn && (name == "min" || name == "max") && call->getNumArgs() == 2 &&
          call->getType()->isIntegerType()) {
        ExprPtr a = value(call->getArg(0)), b = value(call->getArg(1));
        ExprPtr test = node(Expr::Kind::Binary);
        test->op = name == "min" ? "<" : ">";
        test->args = {a, b};
        ExprPtr n = node(Expr::Kind::Ternary);
        n->args = {test, a, b};
        return n;
      }
      if (!fn || !kMathFunctions.count(name))
        fail(e->getBeginLoc(), Diag::UnknownFunction, name,
             e->getSourceRange());
      ExprPtr n = node(Expr::Kind::Call);
      n->name = name;
      for (const clang::Expr *arg : call->arguments())
        n->args.push_back(value(arg));
      return n;
    }
    fail(e->getBeginLoc(), Diag::UnsupportedExpression, describeExpr(e),
         e->getSourceRange());
  }

  /// Is `e` arithmetic on a pointer (`A + i`, `p - 1`, `p++`, `p += 2`,
  /// `p = q`), where arrays decay to pointers?
  static bool isPointerArithmetic(const clang::Expr *e) {
    e = e->IgnoreParens();
    if (auto *bin = dyn_cast<BinaryOperator>(e))
      return (bin->isAdditiveOp() || bin->isAssignmentOp()) &&
             (bin->getLHS()->getType()->isPointerType() ||
              bin->getRHS()->getType()->isPointerType());
    if (auto *un = dyn_cast<UnaryOperator>(e))
      return un->isIncrementDecrementOp() &&
             un->getSubExpr()->getType()->isPointerType();
    return false;
  }

  /// Fails, naming the construct, if `e` dereferences a pointer, takes an
  /// address or computes with a pointer.
  void refusePointerUse(const clang::Expr *e) {
    e = e->IgnoreParenImpCasts();
    if (isPointerArithmetic(e))
      fail(e->getBeginLoc(), Diag::PointerArithmetic, text(e),
           e->getSourceRange());
    if (auto *un = dyn_cast<UnaryOperator>(e)) {
      if (un->getOpcode() != UO_Deref && un->getOpcode() != UO_AddrOf)
        return;
      const clang::Expr *operand = un->getSubExpr()->IgnoreParenImpCasts();
      if (isPointerArithmetic(operand))
        fail(operand->getBeginLoc(), Diag::PointerArithmetic, text(operand),
             operand->getSourceRange());
      fail(e->getBeginLoc(), Diag::PointerAccess, text(operand),
           e->getSourceRange());
    }
  }

  /// Fails on expression statement `e`, which is not an assignment to an
  /// array element or scalar, naming what it is.
  [[noreturn]] void refuseExpressionStatement(const clang::Expr *e) {
    refusePointerUse(e);
    const clang::Expr *target = nullptr;
    if (auto *bin = dyn_cast<BinaryOperator>(e); bin && bin->isAssignmentOp())
      target = bin->getLHS();
    if (auto *un = dyn_cast<UnaryOperator>(e);
        un && un->isIncrementDecrementOp())
      target = un->getSubExpr();
    if (target) {
      // `*p = ...`, `*(A + i) += ...`, `s.x = ...`: value() names it.
      value(target);
    } else if (auto *call = dyn_cast<CallExpr>(e)) {
      const FunctionDecl *fn = call->getDirectCallee();
      std::string name = fn ? fn->getName().str() : text(call->getCallee());
      if (!fn || !kMathFunctions.count(name))
        fail(e->getBeginLoc(), Diag::UnknownFunction, name,
             e->getSourceRange());
      fail(e->getBeginLoc(), Diag::UnsupportedStatement,
           "a call to '" + name + "' whose result is not used",
           e->getSourceRange());
    }
    fail(e->getBeginLoc(), Diag::UnsupportedStatement,
         "an expression statement that is not an assignment",
         e->getSourceRange());
  }

  /// How an expression kind that `value` refuses is named in diagnostics.
  static std::string describeExpr(const clang::Expr *e) {
    if (auto *bin = dyn_cast<BinaryOperator>(e)) {
      if (bin->isAssignmentOp())
        return "an assignment inside an expression";
      if (bin->getOpcode() == BO_Comma)
        return "the comma operator";
    }
    if (auto *un = dyn_cast<UnaryOperator>(e))
      if (un->isIncrementDecrementOp())
        return "'" + UnaryOperator::getOpcodeStr(un->getOpcode()).str() +
               "' inside an expression";
    return std::string("'") + e->getStmtClassName() + "'";
  }

  polyhedral::Statement &newStatement(SourceLocation loc) {
    polyhedral::Statement stmt;
    stmt.domain = scop.context; // replaced in finishStatement
    stmt.name = "S" + std::to_string(scop.statements.size());
    stmt.loc = locOf(loc);
    for (const Loop &loop : loops) {
      stmt.iterators.push_back(loop.name);
      stmt.sourceIterators.push_back(loop.var->getName().str());
      stmt.loopLocs.push_back(loop.loc);
    }
    stmt.beta = beta;
    scop.statements.push_back(stmt);
    current = &scop.statements.back();
    return *current;
  }

  void finishStatement() {
    std::string cond;
    for (const std::string &c : constraints)
      cond += (cond.empty() ? "" : " and ") + c;
    std::string text = paramPrefix + "{ " + domainTuple() +
                       (cond.empty() ? "" : " : " + cond) + " }";
    current->domain = isl::set(scop.ctx, text);
    if (current->domain.is_empty()) {
      // Never executed (e.g. under `if (i != i)`): nothing to model.
      scop.statements.pop_back();
      current = nullptr;
      return;
    }
    maxDepth = std::max<unsigned>(maxDepth, loops.size());
    // Domain-restricted accesses.
    for (Access &access : current->accesses)
      access.relation = access.relation.intersect_domain(current->domain);
    std::vector<std::string> sched;
    for (size_t d = 0; d < loops.size(); ++d) {
      sched.push_back(std::to_string(beta[d]));
      sched.push_back(loops[d].reversed ? "-" + loops[d].name : loops[d].name);
    }
    sched.push_back(std::to_string(beta[loops.size()]));
    schedules.push_back({domainTuple(), sched});
    current = nullptr;
  }

  /// An assignment statement; `rhsValue`, when given, replaces the right-hand
  /// side (the target of the inner assignment of a chain).
  void buildAssignment(const clang::Expr *e,
                       const clang::Expr *rhsValue = nullptr) {
    e = e->IgnoreParens();
    if (isPointerArithmetic(e))
      fail(e->getBeginLoc(), Diag::PointerArithmetic, text(e),
           e->getSourceRange());
    polyhedral::Statement &stmt = newStatement(e->getBeginLoc());
    if (auto *un = dyn_cast<UnaryOperator>(e)) {
      if (un->isIncrementDecrementOp() && isArrayOrScalarRef(un->getSubExpr())) {
        stmt.op = un->isIncrementOp() ? "+=" : "-=";
        ExprPtr one = node(Expr::Kind::IntLit);
        one->literal = "1";
        stmt.rhs = one;
        stmt.lhs = writeRef(un->getSubExpr(), true);
        return finishStatement();
      }
    }
    if (auto *bin = dyn_cast<BinaryOperator>(e)) {
      if (bin->isAssignmentOp() && isArrayOrScalarRef(bin->getLHS())) {
        switch (bin->getOpcode()) {
        case BO_Assign: stmt.op = "="; break;
        case BO_AddAssign: stmt.op = "+="; break;
        case BO_SubAssign: stmt.op = "-="; break;
        case BO_MulAssign: stmt.op = "*="; break;
        case BO_DivAssign: stmt.op = "/="; break;
        default:
          fail(e->getBeginLoc(), Diag::UnsupportedStatement,
               "compound assignment '" +
                   BinaryOperator::getOpcodeStr(bin->getOpcode()).str() + "'");
        }
        stmt.rhs = value(rhsValue ? rhsValue : bin->getRHS());
        stmt.lhs = writeRef(bin->getLHS(), stmt.op != "=");
        return finishStatement();
      }
    }
    refuseExpressionStatement(e);
  }

  /// The target of an assignment; with `alsoRead` (`+=`, `++`, ...) it is
  /// read first. Its subscripts are evaluated once, as in C.
  ExprPtr writeRef(const clang::Expr *lhs, bool alsoRead) {
    if (!alsoRead)
      return arrayRef(lhs, Access::Kind::MustWrite);
    ExprPtr ref = arrayRef(lhs, Access::Kind::Read);
    Access write = current->accesses[ref->access];
    write.kind =
        write.isAffine() ? Access::Kind::MustWrite : Access::Kind::MayWrite;
    scop.arrays[write.array].isWritten = true;
    ref->access = current->accesses.size();
    current->accesses.push_back(write);
    return ref;
  }

  void buildDecl(DeclStmt *decl) {
    for (Decl *d : decl->decls()) {
      auto *var = dyn_cast<VarDecl>(d);
      if (!var)
        fail(d->getLocation(), Diag::UnsupportedStatement, "a declaration");
      localVars.insert(var);
      if (!var->getInit())
        continue;
      polyhedral::Statement &stmt = newStatement(var->getLocation());
      stmt.op = "=";
      stmt.rhs = value(var->getInit());
      unsigned id = arrayFor(var, var->getLocation());
      ExprPtr ref = node(Expr::Kind::ArrayRef);
      ref->name = scop.arrays[id].name;
      Access access;
      access.kind = Access::Kind::MustWrite;
      access.array = id;
      access.relation = isl::map(scop.ctx, paramPrefix + "{ " + domainTuple() +
                                               " -> " + ref->name + "[] }");
      scop.arrays[id].isWritten = true;
      ref->access = stmt.accesses.size();
      stmt.accesses.push_back(access);
      stmt.lhs = ref;
      finishStatement();
    }
  }

  void finish() {
    // Pad the 2d+1 schedules to a common length.
    unsigned length = 2 * maxDepth + 1;
    scop.originalSchedule = isl::union_map::empty(scop.ctx);
    for (auto &[tuple, dims] : schedules) {
      while (dims.size() < length)
        dims.push_back("0");
      std::string range;
      for (const std::string &d : dims)
        range += (range.empty() ? "" : ", ") + d;
      scop.originalSchedule = scop.originalSchedule.unite(isl::union_map(
          isl::map(scop.ctx, paramPrefix + "{ " + tuple + " -> [" + range + "] }")));
    }
  }
};

/// Finds the scop regions and builds them after parsing.
class ScopConsumer : public ASTConsumer {
public:
  ScopConsumer(PragmaLocs &locs, isl::ctx ctx,
               ParsedInput &result)
      : locs(locs), ctx(ctx), result(result) {}

  void HandleTranslationUnit(ASTContext &ast) override {
    SourceManager &sm = ast.getSourceManager();
    DiagnosticsEngine &diags = ast.getDiagnostics();
    if (diags.hasErrorOccurred())
      return;
    FileID main = sm.getMainFileID();
    result.source = sm.getBufferData(main).str();
    // Pair up the pragmas of the main file.
    std::vector<std::pair<SourceLocation, SourceLocation>> regions;
    SourceLocation open;
    for (auto &[loc, isBegin] : locs.marks) {
      if (sm.getFileID(sm.getExpansionLoc(loc)) != main)
        continue;
      if (isBegin) {
        if (open.isValid()) {
          report(diags, loc, Diag::NestedScop);
          continue;
        }
        open = loc;
      } else {
        if (open.isInvalid()) {
          report(diags, loc, Diag::EndScopWithoutScop);
          continue;
        }
        regions.push_back({open, loc});
        open = SourceLocation();
      }
    }
    if (open.isValid())
      report(diags, open, Diag::MissingEndScop);
    if (diags.hasErrorOccurred())
      return;
    if (regions.empty())
      report(diags, sm.getLocForStartOfFile(main), Diag::NoScop);

    for (auto &[begin, end] : regions) {
      unsigned b = sm.getFileOffset(begin), e = sm.getFileOffset(end);
      FunctionDecl *function = nullptr;
      std::vector<Stmt *> stmts;
      for (Decl *decl : ast.getTranslationUnitDecl()->decls()) {
        auto *fn = dyn_cast<FunctionDecl>(decl);
        if (!fn || !fn->hasBody() || !sm.isInMainFile(fn->getBeginLoc()))
          continue;
        unsigned fb = sm.getFileOffset(sm.getExpansionLoc(fn->getBeginLoc()));
        unsigned fe = sm.getFileOffset(sm.getExpansionLoc(fn->getEndLoc()));
        if (fb < b && e < fe) {
          function = fn;
          collect(fn->getBody(), b, e, sm, stmts);
        }
      }
      if (!function) {
        report(diags, begin, Diag::ScopNotInFunction);
        continue;
      }
      ScopRegion region;
      region.beginOffset = lineStart(b);
      region.endOffset = lineEnd(e);
      region.functionOffset = lineStart(
          sm.getFileOffset(sm.getExpansionLoc(function->getBeginLoc())));
      region.scop = std::make_unique<polyhedral::Scop>(ctx);
      region.scop->functionName = function->getName().str();
      PresumedLoc p = sm.getPresumedLoc(begin);
      region.scop->loc = {p.getFilename(), p.getLine(), p.getColumn()};
      collectNames(function, region.usedNames);
      if (stmts.empty()) {
        report(diags, begin, Diag::EmptyScop);
        continue;
      }
      try {
        Builder builder(ast, *region.scop);
        builder.build(stmts);
        builder.markUsedAfter(function, e);
      } catch (const Abandon &) {
        continue;
      } catch (const isl::exception &ex) {
        llvm::errs() << region.scop->loc.str()
                     << ": internal compiler error: isl: " << ex.what() << "\n";
        diags.Report(begin, diags.getCustomDiagID(DiagnosticsEngine::Error,
                                                  "internal compiler error "
                                                  "while building the scop"));
        continue;
      }
      result.regions.push_back(std::move(region));
    }
  }

private:
  PragmaLocs &locs;
  isl::ctx ctx;
  ParsedInput &result;

  unsigned lineStart(unsigned offset) {
    while (offset > 0 && result.source[offset - 1] != '\n')
      --offset;
    return offset;
  }
  unsigned lineEnd(unsigned offset) {
    while (offset < result.source.size() && result.source[offset] != '\n')
      ++offset;
    return offset < result.source.size() ? offset + 1 : offset;
  }

  /// The statements of the outermost compound statement that has children
  /// between the two pragmas.
  void collect(Stmt *s, unsigned b, unsigned e, SourceManager &sm,
               std::vector<Stmt *> &out) {
    auto *compound = dyn_cast_or_null<CompoundStmt>(s);
    if (compound) {
      bool found = false;
      for (Stmt *child : compound->body()) {
        unsigned cb = sm.getFileOffset(sm.getExpansionLoc(child->getBeginLoc()));
        if (cb > b && cb < e) {
          out.push_back(child);
          found = true;
        }
      }
      if (found)
        return;
    }
    if (!s)
      return;
    for (Stmt *child : s->children()) {
      if (!child)
        continue;
      unsigned cb = sm.getFileOffset(sm.getExpansionLoc(child->getBeginLoc()));
      unsigned ce = sm.getFileOffset(sm.getExpansionLoc(child->getEndLoc()));
      if (cb < b && e < ce)
        collect(child, b, e, sm, out);
    }
  }

  void collectNames(FunctionDecl *fn, std::vector<std::string> &names) {
    struct Names : RecursiveASTVisitor<Names> {
      std::vector<std::string> &names;
      explicit Names(std::vector<std::string> &n) : names(n) {}
      bool VisitNamedDecl(NamedDecl *d) {
        names.push_back(d->getNameAsString());
        return true;
      }
      bool VisitDeclRefExpr(DeclRefExpr *r) {
        names.push_back(r->getDecl()->getNameAsString());
        return true;
      }
    } visitor(names);
    visitor.TraverseDecl(fn);
  }
};

class ScopAction : public ASTFrontendAction {
public:
  ScopAction(isl::ctx ctx, ParsedInput &result) : ctx(ctx), result(result) {}

  bool BeginSourceFileAction(CompilerInstance &ci) override {
    Preprocessor &pp = ci.getPreprocessor();
    pp.AddPragmaHandler(new ScopPragmaHandler("scop", true, locs));
    pp.AddPragmaHandler(new ScopPragmaHandler("endscop", false, locs));
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<ScopConsumer>(locs, ctx, result);
  }

private:
  isl::ctx ctx;
  ParsedInput &result;
  PragmaLocs locs;
};

class ScopActionFactory : public tooling::FrontendActionFactory {
public:
  ScopActionFactory(isl::ctx ctx, ParsedInput &result)
      : ctx(ctx), result(result) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<ScopAction>(ctx, result);
  }

private:
  isl::ctx ctx;
  ParsedInput &result;
};

std::vector<std::string> clangArguments(const FrontendOptions &options) {
  // Clang's own headers (stddef.h, ...): the build's Clang, unless
  // POLYCUDA_CLANG_RESOURCE_DIR names another copy (a relocated install).
  const char *resourceDir = std::getenv("POLYCUDA_CLANG_RESOURCE_DIR");
  std::string resource = std::string("-resource-dir=") +
                         (resourceDir && *resourceDir
                              ? resourceDir
                              : POLYCUDA_CLANG_RESOURCE_DIR);
  std::vector<std::string> args = {"-fsyntax-only", "-std=gnu99", resource,
                                   "-Wno-unknown-pragmas",
                                   "-fno-color-diagnostics"};
  for (const std::string &arg : options.clangArgs)
    args.push_back(arg);
  if (options.verify) {
    args.push_back("-Xclang");
    args.push_back("-verify");
  }
  return args;
}

/// Clang's parser and Sema recurse once per level of an expression: a sum
/// of 100,000 terms overflows the 8 MiB main stack inside clang (clang-14
/// itself crashes on it) before polycuda sees the AST and can refuse it with
/// ExpressionTooDeep. The front end runs on a thread with this much stack
/// (address space; only the pages used are committed).
constexpr unsigned kFrontendStackSize = 512u << 20;

bool runOnLargeStack(llvm::function_ref<bool()> parse) {
  bool ok = false;
  // Crash recovery is not enabled: this only runs `parse` on the thread.
  llvm::CrashRecoveryContext().RunSafelyOnThread([&] { ok = parse(); },
                                                 kFrontendStackSize);
  return ok;
}

} // namespace

bool parseCode(const std::string &code, const std::string &fileName,
               const FrontendOptions &options, isl::ctx ctx,
               ParsedInput &result) {
  result.fileName = fileName;
  return runOnLargeStack([&] {
    return tooling::runToolOnCodeWithArgs(
        std::make_unique<ScopAction>(ctx, result), code,
        clangArguments(options), fileName);
  });
}

bool parseInput(const std::string &fileName, const FrontendOptions &options,
                isl::ctx ctx, ParsedInput &result) {
  result.fileName = fileName;
  std::vector<std::string> args = clangArguments(options);
  args.insert(args.begin(), "clang");
  args.push_back(fileName);
  llvm::IntrusiveRefCntPtr<FileManager> files(
      new FileManager(FileSystemOptions()));
  auto factory = std::make_unique<ScopActionFactory>(ctx, result);
  tooling::ToolInvocation invocation(args, factory->create(), files.get());
  return runOnLargeStack([&] { return invocation.run(); });
}

} // namespace polycuda::translator
