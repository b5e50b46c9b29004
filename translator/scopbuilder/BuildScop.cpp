//===- BuildScop.cpp - The Scop of one region -----------------------------===//
//
// A pre-pass over the region finds the variables it writes and its
// parameters (integer variables it only reads, array sizes included); then
// the statements are built in order and the original schedule is set.
//
//===----------------------------------------------------------------------===//
#include "ScopBuilderInternal.h"

#include "AstWalk.h"

#include <algorithm>

using namespace clang;

namespace polycuda::translator::scopbuilder {

namespace {

/// Fails at the outermost expression of `root` that has a subexpression
/// nested deeper than kMaxExpressionDepth. Iterative, unlike every walk it
/// protects.
void checkExpressionDepth(BuildState &state, Stmt *root) {
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
      state.fail(state.sm.getExpansionLoc(outermost->getBeginLoc()),
                 Diag::ExpressionTooDeep, std::to_string(kMaxExpressionDepth));
    for (const Stmt *child : item.node->children())
      if (child)
        work.push_back({child, outermost, depth});
  }
}

/// Records the variables written in `stmts` and makes every integer
/// variable they only read (array sizes included) a parameter. Returns the
/// names of the variables `stmts` reference but do not declare.
std::set<std::string> collectVariables(BuildState &state,
                                       const std::vector<Stmt *> &stmts) {
  struct Collector : AstWalker {
    std::set<const VarDecl *> &written;
    std::vector<const VarDecl *> referenced;
    std::set<const VarDecl *> declaredInside;
    explicit Collector(std::set<const VarDecl *> &w) : written(w) {}
    void stmt(Stmt *s) override {
      if (const clang::Expr *target = writtenBy(s)) {
        if (auto *var = varOf(target))
          written.insert(var);
      } else if (auto *decl = dyn_cast<DeclStmt>(s)) {
        for (Decl *d : decl->decls())
          if (auto *var = dyn_cast<VarDecl>(d)) {
            written.insert(var);
            declaredInside.insert(var);
          }
      } else if (auto *ref = dyn_cast<DeclRefExpr>(s)) {
        if (auto *var = dyn_cast<VarDecl>(ref->getDecl()))
          referenced.push_back(var);
      }
    }
  } collector(state.written);
  for (Stmt *s : stmts)
    walk(s, collector);
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
          walk(const_cast<clang::Expr *>(vat->getSizeExpr()), collector);
      t = at->getElementType().getCanonicalType().getTypePtr();
    }
  }
  polyhedral::Scop &scop = state.scop;
  for (const VarDecl *var : collector.referenced) {
    if (state.written.count(var) || state.paramNames.count(var))
      continue;
    if (!var->getType()->isIntegerType())
      continue;
    std::string name = state.freshIslName(var->getName().str());
    state.paramNames[var] = name;
    scop.params.push_back(name);
    scop.paramSourceNames.push_back(var->getName().str());
  }
  std::set<std::string> outer;
  for (const VarDecl *var : collector.referenced)
    if (!collector.declaredInside.count(var))
      outer.insert(var->getName().str());
  return outer;
}

/// Records in state.liveIterators the variables of the scop whose value
/// after a loop over them may be read: referenced somewhere in `function`
/// (the scop included) outside every loop over them, or of static storage.
/// A loop that assigns its variable first (`for (i = 0; ...)`) reads no
/// earlier value.
void collectLiveIterators(BuildState &state, FunctionDecl *function) {
  struct Outside : AstWalker {
    std::vector<const VarDecl *> loopVars;
    std::set<const VarDecl *> found;
    void enterFor(ForStmt *loop) override {
      loopVars.push_back(loopVariable(loop));
    }
    void leaveFor(ForStmt *) override { loopVars.pop_back(); }
    void stmt(Stmt *s) override {
      auto *ref = dyn_cast<DeclRefExpr>(s);
      auto *var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
      if (var && std::find(loopVars.begin(), loopVars.end(), var) ==
                     loopVars.end())
        found.insert(var);
    }
  } outside;
  walk(function, outside);
  for (const VarDecl *var : state.written)
    if (var->hasGlobalStorage() || outside.found.count(var))
      state.liveIterators.insert(var);
}

/// The parameters for which no value of the scop leaves its C type
/// (BuildState::RangeCheck) and every flat subscript stays within the
/// rows of its array's recovered shape (BuildState::flatChecks): the model
/// is exact there. Where some parameters remain, the scop assumes them and
/// its generated code runs only where they hold (Scop::assumed); where none
/// remain, every run would wrap around (or leave a row) and the scop is
/// refused.
void assumeExactModel(BuildState &state) {
  isl::set ranges = state.paramRanges();
  auto holds = [&](const std::vector<BuildState::RangeCheck> &checks,
                   Diag diag) {
    isl::set assumed = ranges;
    for (const BuildState::RangeCheck &check : checks) {
      isl::set fails = check.where.intersect(check.outside).params();
      assumed = assumed.subtract(fails);
      if (assumed.is_empty())
        state.fail(check.loc, diag, check.what);
    }
    return assumed.coalesce().gist(ranges);
  };
  isl::set noWrap = holds(state.rangeChecks, Diag::WrapsAround);
  isl::set inRows = holds(state.flatChecks, Diag::FlatSubscript);
  auto universe = [](const isl::set &set) {
    return isl_set_plain_is_universe(set.get()) == isl_bool_true;
  };
  polyhedral::Scop &scop = state.scop;
  scop.assumesNoWrap = !universe(noWrap);
  scop.assumesInRows = !universe(inRows);
  isl::set assumed = noWrap.intersect(inRows);
  if (assumed.is_empty())
    state.fail(state.flatChecks.front().loc, Diag::FlatSubscript,
               state.flatChecks.front().what);
  assumed = assumed.coalesce().gist(ranges);
  if (universe(assumed))
    return;
  scop.assumed = assumed;
  scop.context = scop.context.intersect(assumed);
}

} // namespace

void buildScop(ASTContext &ast, polyhedral::Scop &scop,
               const std::vector<Stmt *> &stmts, FunctionDecl *function,
               unsigned endOffset,
               const std::vector<std::string> &functionNames) {
  BuildState state(ast, scop);
  for (Stmt *s : stmts)
    checkExpressionDepth(state, s);
  std::set<std::string> outerNames = collectVariables(state, stmts);
  collectLiveIterators(state, function);
  std::string paramList;
  for (const std::string &p : scop.params)
    paramList += (paramList.empty() ? "" : ", ") + p;
  state.paramPrefix = "[" + paramList + "] -> ";
  scop.context = isl::set(scop.ctx, state.paramPrefix + "{ : }");

  findFlatShapes(state, stmts);
  AffineBuilder affine(state);
  ArrayBuilder arrays(state, affine);
  arrays.reserveNames(outerNames,
                      {functionNames.begin(), functionNames.end()});
  BodyBuilder bodies(state, affine, arrays);
  StatementBuilder statements(state, affine, arrays, bodies);
  statements.build(stmts);
  statements.finish();
  arrays.markUsedAfter(function, endOffset);
  assumeExactModel(state);
}

} // namespace polycuda::translator::scopbuilder
