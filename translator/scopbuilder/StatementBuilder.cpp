//===- StatementBuilder.cpp - Statements, loops and their schedule --------===//
//
// Walks the statements of a scop: every assignment (or initialized
// declaration) is a polyhedral Statement whose domain is the conjunction of
// the bounds of the loops and the conditions of the ifs around it, and
// whose place in the original program is a 2d+1 schedule: the position at
// each level (beta) interleaved with the loop iterators.
//
//===----------------------------------------------------------------------===//
#include "ScopBuilderInternal.h"

#include "AstWalk.h"
#include "IslExtras.h"

#include <algorithm>
#include <functional>

using namespace clang;

namespace polycuda::translator::scopbuilder {

namespace {

/// The inner assignment of a chained assignment `x = (y = v)` (any
/// assignment operator on either side), or null.
const BinaryOperator *chainedAssignment(const clang::Expr *e) {
  auto *outer = dyn_cast<BinaryOperator>(e->IgnoreParens());
  if (!outer || !outer->isAssignmentOp())
    return nullptr;
  auto *inner =
      dyn_cast<BinaryOperator>(outer->getRHS()->IgnoreParenImpCasts());
  return inner && inner->isAssignmentOp() ? inner : nullptr;
}

/// How a statement kind is named in diagnostics.
std::string describe(const Stmt *s) {
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

/// The constant step by which the increment `inc` of a loop changes its
/// variable `var`: `i++`, `i--`, `i += c`, `i -= c`, `i = i + c` or
/// `i = i - c`; nothing for any other increment.
std::optional<long> constantStep(const clang::Expr *inc, const VarDecl *var,
                                 const BuildState &state) {
  std::optional<long> step;
  if (auto *un = dyn_cast<UnaryOperator>(inc)) {
    if (varOf(un->getSubExpr()) == var)
      step = un->isIncrementOp() ? 1 : -1;
  } else if (auto *cop = dyn_cast<CompoundAssignOperator>(inc)) {
    if (varOf(cop->getLHS()) == var)
      if (auto c = state.constantOf(cop->getRHS())) {
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
          if (auto c = state.constantOf(sum->getRHS())) {
            if (sum->getOpcode() == BO_Add)
              step = c->getExtValue();
            else if (sum->getOpcode() == BO_Sub)
              step = -c->getExtValue();
          }
      }
  }
  return step;
}

/// C wraps a variable of `type` around its range (unsigned), or it is
/// narrower than int, where the conversion back of `i + c` wraps (gcc);
/// signed int and long may not overflow.
bool mayWrapAround(const ASTContext &ast, QualType type) {
  return type->isUnsignedIntegerType() || ast.getIntWidth(type) < 32;
}

} // namespace

void StatementBuilder::build(const std::vector<Stmt *> &stmts) {
  // Like buildBody: an if/else, a block or a chain takes several positions.
  int position = 0;
  for (Stmt *s : stmts) {
    buildStmt(s, position);
    position = nextPosition;
  }
}

void StatementBuilder::buildStmt(Stmt *s, int position) {
  beta.back() = position;
  if (auto *compound = dyn_cast<CompoundStmt>(s)) {
    // A nested block is transparent: its statements continue the sequence
    // at this level.
    buildSequence(compound, position);
    return;
  }
  if (isa<ContinueStmt>(s) || isa<BreakStmt>(s)) {
    // What it does is modelled at its if (buildSequence, buildFor).
    if (!allowedJumps.count(s))
      state.fail(s->getBeginLoc(), Diag::UnsupportedJump, describe(s),
                 s->getSourceRange());
    nextPosition = position;
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
  int taken = 1;
  if (auto *loop = dyn_cast<ForStmt>(s))
    taken = buildFor(loop, position);
  else if (auto *branch = dyn_cast<IfStmt>(s))
    buildIf(branch);
  else if (auto *e = dyn_cast<clang::Expr>(s))
    buildAssignment(e);
  else if (auto *decl = dyn_cast<DeclStmt>(s))
    buildDecl(decl);
  else
    state.fail(s->getBeginLoc(), Diag::UnsupportedStatement, describe(s),
               s->getSourceRange());
  // Nested statements overwrite nextPosition; this level continues here.
  if (!isa<IfStmt>(s))
    nextPosition = position + taken;
}

void StatementBuilder::buildBody(Stmt *body, int position) {
  if (auto *compound = dyn_cast<CompoundStmt>(body))
    buildSequence(compound, position);
  else
    buildStmt(body, position);
}

void StatementBuilder::buildSequence(CompoundStmt *block, int position) {
  int i = position;
  for (Stmt *child : block->body()) {
    buildStmt(child, i);
    i = nextPosition;
    auto *branch = dyn_cast<IfStmt>(child);
    auto jump = branch ? jumpIfs.find(branch) : jumpIfs.end();
    if (jump == jumpIfs.end())
      continue;
    bool inThen = jump->second.inThen;
    if (std::optional<unsigned> broken = jump->second.breakFlag) {
      // `polycuda_breakN = (the branch was taken)`, under the flag itself
      // (and the ifs around): once set, it stays.
      beta.back() = i++;
      polyhedral::Statement &stmt = newStatement(branch->getBeginLoc());
      stmt.role = polyhedral::StatementRole::BreakTaken;
      if (lastIfAffine)
        bodies.conditionValue(stmt, branch->getCond(), *broken, !inThen);
      else
        bodies.flagValue(stmt, *broken, lastIfFlag, !inThen);
      finishStatement();
    }
    // The rest of the loop body runs where the branch that jumps is not
    // taken, until the body ends (buildFor drops the condition there).
    if (lastIfAffine)
      state.constraints.push_back(inThen ? "(not " + *lastIfAffine + ")"
                                         : *lastIfAffine);
    else
      state.guards.push_back({lastIfFlag, !inThen});
  }
  nextPosition = i;
}

std::vector<const IfStmt *> StatementBuilder::findJumps(Stmt *body) {
  std::vector<const IfStmt *> found;
  // The `continue` or `break` that ends `branch`, or null.
  auto endingJump = [](Stmt *branch) -> Stmt * {
    if (auto *block = dyn_cast_or_null<CompoundStmt>(branch))
      branch = block->body_empty() ? nullptr : block->body_back();
    return isa_and_nonnull<ContinueStmt, BreakStmt>(branch) ? branch
                                                            : nullptr;
  };
  std::function<void(Stmt *)> walk = [&](Stmt *s) {
    if (auto *block = dyn_cast<CompoundStmt>(s)) {
      for (Stmt *child : block->body())
        walk(child);
      return;
    }
    auto *branch = dyn_cast<IfStmt>(s);
    if (!branch)
      return;
    Stmt *inThen = endingJump(branch->getThen());
    Stmt *inElse = endingJump(branch->getElse());
    // Jumps in both branches stay unsupported (reported at the jump).
    if (!inThen == !inElse)
      return;
    Stmt *jump = inThen ? inThen : inElse;
    jumpIfs[branch] = {isa<BreakStmt>(jump), inThen != nullptr};
    allowedJumps.insert(jump);
    found.push_back(branch);
  };
  walk(body);
  return found;
}

std::optional<isl::set> StatementBuilder::iterationsBeforeBreak(
    const std::vector<const IfStmt *> &jumps, long step, const VarDecl *var,
    bool &onData) {
  onData = false;
  size_t last = jumps.size();
  while (last > 0 && !jumpIfs.at(jumps[last - 1]).isBreak)
    --last;
  if (last == 0)
    return std::nullopt;
  const IfStmt *firstBreak = *std::find_if(
      jumps.begin(), jumps.end(),
      [&](const IfStmt *b) { return jumpIfs.at(b).isBreak; });
  if (state.liveIterators.count(var))
    state.fail(firstBreak->getBeginLoc(), Diag::BreakExitValue,
               var->getName());
  // Where a break is taken: its branch, where no jump before it is.
  std::string reached, taken;
  size_t checks = state.rangeChecks.size();
  for (size_t k = 0; k < last; ++k) {
    const IfStmt *branch = jumps[k];
    std::optional<std::string> cond = affine.conditionOrNone(branch->getCond());
    if (!cond) {
      // Whether a break is taken depends on data: a flag (buildFor).
      onData = true;
      state.rangeChecks.resize(checks);
      return std::nullopt;
    }
    const Jump &jump = jumpIfs.at(branch);
    std::string jumped = jump.inThen ? *cond : "(not " + *cond + ")";
    if (jump.isBreak)
      taken += (taken.empty() ? "(" : " or (") + reached + jumped + ")";
    reached += "(not " + jumped + ") and ";
  }
  // buildIf checks the conditions' ranges where they are evaluated.
  state.rangeChecks.resize(checks);
  state.constraints.push_back("(" + taken + ")");
  isl::set breaks = state.iterationDomain("L");
  state.constraints.pop_back();
  return state.iterationDomain("L").subtract(
      breaks.apply(laterInLoop(step, /*later=*/true)));
}

void StatementBuilder::checkNotModified(Stmt *body, const VarDecl *var) {
  struct Finder : AstWalker {
    const VarDecl *var;
    SourceLocation found;
    void stmt(Stmt *s) override {
      const clang::Expr *target = writtenBy(s);
      if (target && varOf(target) == var && found.isInvalid())
        found = target->getBeginLoc();
    }
  } finder;
  finder.var = var;
  walk(body, finder);
  if (finder.found.isValid())
    state.fail(finder.found, Diag::IteratorModified, var->getName());
}

/// The variable of `loop` and its initial value: `i = e` or `int i = e`.
std::pair<const VarDecl *, const clang::Expr *>
StatementBuilder::loopInit(ForStmt *loop) {
  const VarDecl *var = loopVariable(loop);
  const clang::Expr *init = nullptr;
  if (var && isa<DeclStmt>(loop->getInit()))
    init = var->getInit();
  else if (var)
    init = cast<BinaryOperator>(loop->getInit())->getRHS();
  if (!var || !init)
    state.fail(loop->getInit() ? loop->getInit()->getBeginLoc()
                               : loop->getBeginLoc(),
               Diag::UnsupportedLoopInit);
  if (!var->getType()->isIntegerType())
    state.fail(var->getLocation(), Diag::UnsupportedLoopInit);
  return {var, init};
}

/// The loop's constant step; fails on any other increment, a missing
/// condition, a body that modifies `var` and a nest too deep.
long StatementBuilder::checkedStep(ForStmt *loop, const VarDecl *var) {
  std::optional<long> step;
  const clang::Expr *inc = loop->getInc();
  if (inc) {
    inc = inc->IgnoreParens();
    step = constantStep(inc, var, state);
  }
  if (!step || *step == 0)
    state.fail(inc ? inc->getBeginLoc() : loop->getBeginLoc(),
               Diag::NonConstantStride);
  if (!loop->getCond())
    state.fail(loop->getBeginLoc(), Diag::UnsupportedLoopCondition);
  checkNotModified(loop->getBody(), var);
  if (state.loops.size() >= kMaxLoopDepth)
    state.fail(loop->getBeginLoc(), Diag::NestTooDeep,
               std::to_string(kMaxLoopDepth));
  return *step;
}

/// The values the innermost loop's variable takes, and where its last
/// iteration runs: the exit value is that iteration's plus the step.
void StatementBuilder::loopValues(long step, LoopValues &values) {
  values.iterations = state.iterationDomain("L");
  std::string tuple = state.iterationTuple("L");
  std::string shifted = tuple;
  shifted.insert(shifted.size() - 1, " - (" + std::to_string(step) + ")");
  // { L[o, i] -> L[o, i - step] }
  values.stepBack = isl::map(state.scop.ctx, state.paramPrefix + "{ " +
                                                 tuple + " -> " + shifted +
                                                 " }");
  values.last =
      values.iterations.subtract(values.iterations.apply(values.stepBack));
}

/// For a body that breaks on data (`jumps`): `polycuda_breakN = 0` in the
/// loop's first iteration, whatever the ifs around say (a write in every
/// run of the loop keeps the flag private to the iterations around);
/// every statement of the body runs where it is still 0, and each break
/// sets it (buildSequence).
void StatementBuilder::resetBreakFlag(ForStmt *loop,
                                      const std::vector<const IfStmt *> &jumps,
                                      long step) {
  unsigned broken = newFlag("polycuda_break", loop->getBeginLoc());
  for (const IfStmt *branch : jumps)
    if (jumpIfs.at(branch).isBreak)
      jumpIfs.at(branch).breakFlag = broken;
  isl::set iterations = state.iterationDomain("L");
  isl::set firstRun = iterations.subtract(
      iterations.apply(laterInLoop(step, /*later=*/true)));
  polyhedral::Statement &stmt = newStatement(loop->getBeginLoc());
  stmt.role = polyhedral::StatementRole::BreakReset;
  bodies.flagValue(stmt, broken, std::nullopt);
  finishStatement(firstRun, /*guarded=*/false);
  state.guards.push_back({broken, false});
}

/// After the loop `loop` over `var` (isl name `name`, initial value
/// `lower`, at `position` of its level): where the variable may wrap
/// around, checks the values it takes; where it is live and the loop runs
/// no iteration, sets it to its initial value `init` in a statement after
/// the loop. Returns the positions the loop takes (2 with that statement).
int StatementBuilder::finishLoop(ForStmt *loop, const VarDecl *var,
                                 const clang::Expr *init,
                                 const std::string &name,
                                 const std::string &lower, long step,
                                 int position, const LoopValues &values) {
  // { L[o, i] -> L[o] } and { L[o] -> L[o, x] : x = lower }.
  std::string outer = state.iterationTuple("L");
  std::string inner = outer;
  inner.insert(inner.size() - 1, (state.loops.empty() ? "" : ", ") + name);
  isl::map enclosing(state.scop.ctx,
                     state.paramPrefix + "{ " + inner + " -> " + outer + " }");
  isl::set none =
      state.iterationDomain("L").subtract(values.iterations.apply(enclosing));
  if (values.mayWrap) {
    isl::set initial = none.apply(isl::map(
        state.scop.ctx, state.paramPrefix + "{ " + outer + " -> " + inner +
                            " : " + name + " = " + lower + " }"));
    // Where the condition holds, not only the first run: a loop whose
    // condition holds again after it wraps around (`i != 16`) is no
    // shorter in C.
    checkIteratorRange(var,
                       values.holds
                           .unite(values.last.apply(values.stepBack.reverse()))
                           .unite(initial),
                       loop->getBeginLoc());
  }
  if (!values.live || none.is_empty())
    return 1;
  beta.back() = position + 1;
  buildLoopExit(loop, var, init, step, none);
  return 2;
}

/// Returns the number of positions the loop takes at its level: 2 where
/// a statement after it gives its variable the initial value when it runs
/// no iteration.
int StatementBuilder::buildFor(ForStmt *loop, int position) {
  auto [var, init] = loopInit(loop);
  long step = checkedStep(loop, var);
  std::string lower = affine.expression(init, Diag::NonAffineExpression);
  std::string name = state.freshIslName(var->getName().str());
  state.loops.push_back(
      {var, name, step < 0, state.locOf(loop->getBeginLoc())});
  std::vector<std::string> &constraints = state.constraints;
  size_t saved = constraints.size();
  if (step > 0)
    constraints.push_back("(" + name + " >= " + lower + ")");
  else
    constraints.push_back("(" + name + " <= " + lower + ")");
  long stride = step > 0 ? step : -step;
  if (stride > 1)
    constraints.push_back("(exists (e_" + name + ": " + name + " = " + lower +
                          " + " + std::to_string(stride) + " * e_" + name +
                          "))");
  size_t checks = state.rangeChecks.size();
  constraints.push_back(affine.condition(loop->getCond()));
  size_t savedSets = state.loopSets.size();
  isl::set evaluated;
  LoopValues values;
  values.holds = keepFirstRun(step, evaluated);
  // The condition is evaluated in every iteration and where it first
  // fails, not for every value past the initial one.
  for (size_t c = checks; c < state.rangeChecks.size(); ++c)
    state.rangeChecks[c].where = evaluated;
  // The values the variable takes, and the one it is left with: the last
  // iteration's plus the step, or the initial value where none runs.
  values.live = state.liveIterators.count(var) > 0;
  values.mayWrap = mayWrapAround(state.ast, var->getType());
  if (values.live || values.mayWrap)
    loopValues(step, values);
  std::vector<const IfStmt *> jumps = findJumps(loop->getBody());
  size_t bodyConstraints = constraints.size();
  size_t bodyGuards = state.guards.size();
  size_t bodySets = state.loopSets.size();
  bool breakOnData = false;
  if (std::optional<isl::set> run =
          iterationsBeforeBreak(jumps, step, var, breakOnData))
    state.loopSets.push_back(*run);
  beta.push_back(0);
  if (breakOnData)
    resetBreakFlag(loop, jumps, step);
  buildBody(loop->getBody(), breakOnData ? 1 : 0);
  constraints.resize(bodyConstraints);
  state.guards.resize(bodyGuards);
  state.loopSets.resize(bodySets);
  if (values.live) {
    // In the last iteration, after the body (which cannot write `var`).
    beta.back() = nextPosition;
    buildLoopExit(loop, var, nullptr, step, values.last);
  }
  beta.pop_back();
  constraints.resize(saved);
  state.loopSets.resize(savedSets);
  state.loops.pop_back();
  state.releaseIslName(name);
  if (!values.live && !values.mayWrap)
    return 1;
  return finishLoop(loop, var, init, name, lower, step, position, values);
}

/// C runs a loop until its condition first fails. Where the condition of
/// the innermost loop (the last constraint) holds again after that
/// (`i != n`, `i > 5 && i < n` from 0), only the iterations before the
/// first failure remain, and none where it never fails (the loop would not
/// end: its variable would overflow). Returns where the condition holds;
/// `evaluated` is set to where it is evaluated: the iterations and the
/// first value for which it fails.
isl::set StatementBuilder::keepFirstRun(long step, isl::set &evaluated) {
  isl::set holds = state.iterationDomain("L");
  std::string cond = state.constraints.back();
  state.constraints.pop_back();
  isl::set fails = state.iterationDomain("L").subtract(holds);
  state.constraints.push_back(cond);
  isl::map after = laterInLoop(step, /*later=*/true);
  isl::map before = laterInLoop(step, /*later=*/false);
  isl::set run =
      holds.subtract(fails.apply(after)).intersect(fails.apply(before));
  if (!run.is_equal(holds))
    state.loopSets.push_back(run);
  evaluated = run.unite(fails.subtract(fails.apply(after)));
  return holds;
}

/// `{ L[o, b] -> L[o, i] : i after b }` in the order of the innermost loop
/// (of step `step`), or before b where `later` is false.
isl::map StatementBuilder::laterInLoop(long step, bool later) {
  std::string from = state.iterationTuple("L"), to = from;
  const std::string &name = state.loops.back().name;
  std::string b = state.freshIslName("b");
  from.replace(from.size() - 1 - name.size(), name.size(), b);
  std::string order = (step > 0) == later ? " > " : " < ";
  isl::map result(state.scop.ctx, state.paramPrefix + "{ " + from + " -> " +
                                      to + " : " + name + order + b + " }");
  state.releaseIslName(b);
  return result;
}

/// `var = init` (`init` given) or `var = i + step` (`i` the innermost loop
/// around), at `beta`, for the iterations `domain`: what `loop` leaves in
/// its variable.
void StatementBuilder::buildLoopExit(const ForStmt *loop, const VarDecl *var,
                                     const clang::Expr *init, long step,
                                     const isl::set &domain) {
  polyhedral::Statement &stmt = newStatement(loop->getBeginLoc());
  stmt.role = polyhedral::StatementRole::IteratorExit;
  bodies.iteratorExit(stmt, var, init,
                      init ? "" : state.loops.back().name, step);
  finishStatement(domain);
}

/// Fails unless every value in `values` (`{ L[o, i] }`, `i` the values of
/// `var`) fits its type, for parameters that fit theirs: C's unsigned and
/// narrow iterators wrap around where the model's integers do not.
void StatementBuilder::checkIteratorRange(const VarDecl *var,
                                          const isl::set &values,
                                          SourceLocation loc) {
  QualType type = var->getType();
  std::string tuple = polyhedral::tupleName(values) + "[";
  unsigned n = values.tuple_dim();
  for (unsigned d = 0; d < n; ++d)
    tuple += (d ? ", " : "") + std::string("polycuda_v") + std::to_string(d);
  tuple += "]";
  auto [low, high] = rangeOf(state.ast, type);
  std::string last = "polycuda_v" + std::to_string(n - 1);
  isl::set inRange(state.scop.ctx, state.paramPrefix + "{ " + tuple + " : " +
                                       low + " <= " + last + " <= " + high +
                                       " }");
  // For parameters within their types' ranges.
  isl::set checked = values.intersect_params(state.paramRanges());
  if (!checked.is_subset(inRange))
    state.fail(loc, Diag::IteratorWraps,
               "'" + var->getName().str() + "' of type '" +
                   type.getAsString() + "'");
}

void StatementBuilder::buildIf(IfStmt *branch) {
  if (branch->getInit() || branch->getConditionVariable())
    state.fail(branch->getBeginLoc(), Diag::UnsupportedStatement,
               "an if with a declaration");
  std::optional<std::string> affineCond =
      affine.conditionOrNone(branch->getCond());
  if (!affineCond) {
    buildDataIf(branch);
    return;
  }
  std::string cond = *affineCond;
  int position = beta.back();
  std::vector<std::string> &constraints = state.constraints;
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
  lastIfAffine = cond;
}

/// An if whose condition reads data: a statement stores the condition in a
/// scalar of its own (`polycuda_ifN = (A[i] > 0)`), declared in the scop
/// (private to each iteration: expansion), then the branches' statements
/// run under it (BuildState::guards, Statement::guard). Storing it first
/// keeps C's order: the condition is evaluated once, before either branch
/// changes what it reads.
void StatementBuilder::buildDataIf(IfStmt *branch) {
  int position = beta.back();
  unsigned id = newFlag("polycuda_if", branch->getBeginLoc());
  polyhedral::Statement &stmt = newStatement(branch->getCond()->getBeginLoc());
  stmt.role = polyhedral::StatementRole::DataCondition;
  bodies.conditionValue(stmt, branch->getCond(), id);
  if (!state.guards.empty())
    bodies.guard(stmt, state.guards, /*condition=*/true);
  finishStatement(isl::set(), /*guarded=*/false);
  state.guards.push_back({id, true});
  buildStmt(branch->getThen(), position + 1);
  int next = nextPosition;
  state.guards.pop_back();
  if (Stmt *otherwise = branch->getElse()) {
    state.guards.push_back({id, false});
    buildStmt(otherwise, next);
    next = nextPosition;
    state.guards.pop_back();
  }
  nextPosition = next;
  lastIfAffine.reset();
  lastIfFlag = id;
}

unsigned StatementBuilder::newFlag(const std::string &prefix,
                                   SourceLocation loc) {
  polyhedral::Scop &scop = state.scop;
  polyhedral::Array flag;
  for (unsigned k = 0;; ++k) {
    flag.name = prefix + std::to_string(k);
    if (scop.findArray(flag.name) < 0)
      break;
  }
  flag.type = polyhedral::ElemType::Int;
  flag.usedAfterScop = false;
  flag.isLocal = true;
  flag.isRead = true;
  flag.isWritten = true;
  flag.declLoc = state.locOf(loc);
  scop.arrays.push_back(flag);
  return scop.arrays.size() - 1;
}

/// An assignment statement; `rhsValue`, when given, replaces the right-hand
/// side (the target of the inner assignment of a chain).
void StatementBuilder::buildAssignment(const clang::Expr *e,
                                       const clang::Expr *rhsValue) {
  e = e->IgnoreParens();
  bodies.refusePointerArithmetic(e);
  polyhedral::Statement &stmt = newStatement(e->getBeginLoc());
  bodies.assignment(stmt, e, rhsValue);
  finishStatement();
}

void StatementBuilder::buildDecl(DeclStmt *decl) {
  for (Decl *d : decl->decls()) {
    auto *var = dyn_cast<VarDecl>(d);
    if (!var)
      state.fail(d->getLocation(), Diag::UnsupportedStatement,
                 "a declaration");
    arrays.declareLocal(var);
    if (!var->getInit())
      continue;
    polyhedral::Statement &stmt = newStatement(var->getLocation());
    bodies.initialization(stmt, var);
    finishStatement();
  }
}

polyhedral::Statement &StatementBuilder::newStatement(SourceLocation loc) {
  polyhedral::Statement stmt;
  stmt.domain = state.scop.context; // replaced in finishStatement
  stmt.name = "S" + std::to_string(state.scop.statements.size());
  stmt.loc = state.locOf(loc);
  for (const Loop &loop : state.loops) {
    stmt.iterators.push_back(loop.name);
    stmt.sourceIterators.push_back(loop.var->getName().str());
    stmt.loopLocs.push_back(loop.loc);
  }
  stmt.beta = beta;
  state.scop.statements.push_back(stmt);
  current = &state.scop.statements.back();
  return *current;
}

void StatementBuilder::finishStatement(isl::set domain, bool guarded) {
  polyhedral::Scop &scop = state.scop;
  const std::vector<Loop> &loops = state.loops;
  if (guarded && !state.guards.empty())
    bodies.guard(*current, state.guards);
  std::string tuple = state.iterationTuple(current->name);
  current->domain = domain.is_null()
                        ? state.iterationDomain(current->name)
                        : polyhedral::withTupleName(domain, current->name);
  if (current->domain.is_empty()) {
    // Never executed (e.g. under `if (i != i)`): nothing to model.
    scop.statements.pop_back();
    current = nullptr;
    return;
  }
  maxDepth = std::max<unsigned>(maxDepth, loops.size());
  // Domain-restricted accesses.
  for (polyhedral::Access &access : current->accesses)
    access.relation = access.relation.intersect_domain(current->domain);
  std::vector<std::string> sched;
  for (size_t d = 0; d < loops.size(); ++d) {
    sched.push_back(std::to_string(beta[d]));
    sched.push_back(loops[d].reversed ? "-" + loops[d].name : loops[d].name);
  }
  sched.push_back(std::to_string(beta[loops.size()]));
  schedules.push_back({tuple, sched});
  current = nullptr;
}

void StatementBuilder::finish() {
  polyhedral::Scop &scop = state.scop;
  // Pad the 2d+1 schedules to a common length.
  unsigned length = 2 * maxDepth + 1;
  scop.originalSchedule = isl::union_map::empty(scop.ctx);
  for (auto &[tuple, dims] : schedules) {
    while (dims.size() < length)
      dims.push_back("0");
    std::string range;
    for (const std::string &d : dims)
      range += (range.empty() ? "" : ", ") + d;
    scop.originalSchedule = scop.originalSchedule.unite(
        isl::union_map(isl::map(scop.ctx, state.paramPrefix + "{ " + tuple +
                                              " -> [" + range + "] }")));
  }
}

} // namespace polycuda::translator::scopbuilder
