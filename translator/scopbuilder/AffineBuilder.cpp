//===- AffineBuilder.cpp - Clang expressions as isl affine expressions ----===//
//
// Affine parts of a scop (bounds, conditions, subscripts, array sizes) are
// written in isl syntax, in terms of the loop iterators and parameters, and
// parsed by isl where they are used.
//
//===----------------------------------------------------------------------===//
#include "ScopBuilderInternal.h"

using namespace clang;

namespace polycuda::translator::scopbuilder {


std::string AffineBuilder::expression(const clang::Expr *e, Diag diag) {
  e = e->IgnoreParens();
  if (auto value = state.constantOf(e))
    return "(" + std::to_string(value->getExtValue()) + ")";
  if (auto *cast = dyn_cast<CastExpr>(e)) {
    const clang::Expr *sub = cast->getSubExpr();
    if (sub->getType()->isIntegerType()) {
      std::string value = expression(sub, diag);
      if (cast->getType()->isIntegerType() &&
          !cast->getType()->isBooleanType() &&
          !fitsIn(state.ast, sub->getType(), cast->getType()))
        requireInRange(value, cast->getType(), cast);
      return value;
    }
    state.fail(e->getBeginLoc(), diag, state.text(e), e->getSourceRange());
  }
  if (auto *ref = dyn_cast<DeclRefExpr>(e))
    return variable(ref, diag);
  if (auto *un = dyn_cast<UnaryOperator>(e)) {
    if (un->getOpcode() == UO_Minus) {
      std::string value = "(-" + expression(un->getSubExpr(), diag) + ")";
      if (un->getType()->isUnsignedIntegerType())
        requireInRange(value, un->getType(), un);
      return value;
    }
    if (un->getOpcode() == UO_Plus)
      return expression(un->getSubExpr(), diag);
  }
  if (auto *bin = dyn_cast<BinaryOperator>(e))
    if (std::optional<std::string> result = binary(bin, diag)) {
      // Unsigned sums, differences and products wrap around.
      if (bin->getType()->isUnsignedIntegerType() &&
          (bin->isAdditiveOp() || bin->getOpcode() == BO_Mul))
        requireInRange(*result, bin->getType(), bin);
      return *result;
    }
  if (auto *cond = dyn_cast<ConditionalOperator>(e))
    if (std::optional<std::string> result = minMax(cond, diag))
      return *result;
  if (auto *call = dyn_cast<CallExpr>(e))
    if (std::optional<std::string> result = minMax(call, diag))
      return *result;
  state.fail(e->getBeginLoc(), diag, state.text(e), e->getSourceRange());
}

/// A loop iterator or a parameter.
std::string AffineBuilder::variable(const DeclRefExpr *ref, Diag diag) {
  if (auto *var = dyn_cast<VarDecl>(ref->getDecl())) {
    if (const Loop *loop = state.loopOf(var))
      return loop->name;
    auto it = state.paramNames.find(var);
    if (it != state.paramNames.end())
      return it->second;
    if (var->getType()->isIntegerType() && state.written.count(var))
      state.fail(ref->getBeginLoc(), Diag::ParameterWritten, var->getName(),
                 ref->getSourceRange());
  }
  state.fail(ref->getBeginLoc(), diag, state.text(ref),
             ref->getSourceRange());
}

/// A sum, a difference, a product by a constant, or a division or remainder
/// by a positive constant; nothing for other operators.
std::optional<std::string> AffineBuilder::binary(const BinaryOperator *bin,
                                                 Diag diag) {
  const clang::Expr *l = bin->getLHS(), *r = bin->getRHS();
  switch (bin->getOpcode()) {
  case BO_Add:
    return "(" + expression(l, diag) + " + " + expression(r, diag) + ")";
  case BO_Sub:
    return "(" + expression(l, diag) + " - " + expression(r, diag) + ")";
  case BO_Mul:
    if (auto c = state.constantOf(l))
      return "(" + std::to_string(c->getExtValue()) + " * " +
             expression(r, diag) + ")";
    if (auto c = state.constantOf(r))
      return "(" + expression(l, diag) + " * " +
             std::to_string(c->getExtValue()) + ")";
    break;
  case BO_Div:
  case BO_Rem:
    if (auto c = state.constantOf(r)) {
      if (c->getExtValue() > 0) {
        std::string num = expression(l, diag);
        std::string den = std::to_string(c->getExtValue());
        requireNonNegative(num, bin);
        if (bin->getOpcode() == BO_Div)
          return "floor(" + num + " / " + den + ")";
        return "(" + num + " mod " + den + ")";
      }
    }
    break;
  default:
    break;
  }
  return std::nullopt;
}

/// min/max written as a ternary: (a < b ? a : b).
std::optional<std::string>
AffineBuilder::minMax(const ConditionalOperator *cond, Diag diag) {
  if (auto *cmp = dyn_cast<BinaryOperator>(cond->getCond()->IgnoreParens())) {
    if (cmp->isRelationalOp()) {
      std::string a = expression(cmp->getLHS(), diag);
      std::string b = expression(cmp->getRHS(), diag);
      std::string t = expression(cond->getTrueExpr(), diag);
      std::string f = expression(cond->getFalseExpr(), diag);
      bool less = cmp->getOpcode() == BO_LT || cmp->getOpcode() == BO_LE;
      if (t == a && f == b)
        return (less ? "min(" : "max(") + a + ", " + b + ")";
      if (t == b && f == a)
        return (less ? "max(" : "min(") + a + ", " + b + ")";
    }
  }
  return std::nullopt;
}

/// A call of min(a, b) or max(a, b).
std::optional<std::string> AffineBuilder::minMax(const CallExpr *call,
                                                 Diag diag) {
  if (auto *fn = call->getDirectCallee()) {
    std::string name = fn->getName().str();
    if ((name == "min" || name == "max") && call->getNumArgs() == 2)
      return name + "(" + expression(call->getArg(0), diag) + ", " +
             expression(call->getArg(1), diag) + ")";
  }
  return std::nullopt;
}

std::optional<std::string>
AffineBuilder::expressionOrNone(const clang::Expr *e) {
  bool saved = state.probing;
  state.probing = true;
  size_t checks = state.rangeChecks.size();
  std::optional<std::string> result;
  try {
    result = expression(e, Diag::NonAffineSubscript);
  } catch (const NotAffine &) {
    // Not an affine value: printed as C computes it.
    state.rangeChecks.resize(checks);
  }
  state.probing = saved;
  return result;
}

std::optional<std::string>
AffineBuilder::conditionOrNone(const clang::Expr *e) {
  bool saved = state.probing;
  state.probing = true;
  size_t checks = state.rangeChecks.size();
  std::optional<std::string> result;
  try {
    result = condition(e);
  } catch (const NotAffine &) {
    state.rangeChecks.resize(checks);
  }
  state.probing = saved;
  return result;
}

std::string AffineBuilder::condition(const clang::Expr *e) {
  e = e->IgnoreParenImpCasts();
  if (auto *bin = dyn_cast<BinaryOperator>(e)) {
    const clang::Expr *l = bin->getLHS(), *r = bin->getRHS();
    auto cmp = [&](const char *op) {
      // Left operand first, so that the diagnostic names the first
      // offending operand.
      std::string left = expression(l, Diag::NonAffineCondition);
      std::string right = expression(r, Diag::NonAffineCondition);
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
  if (auto value = state.constantOf(e))
    return value->getExtValue() ? "(0 = 0)" : "(1 = 0)";
  if (e->getType()->isIntegerType()) {
    std::string a = expression(e, Diag::NonAffineCondition);
    return "(" + a + " < 0 or " + a + " > 0)";
  }
  state.fail(e->getBeginLoc(), Diag::NonAffineCondition, state.text(e),
             e->getSourceRange());
}

/// C's / and % truncate toward zero while isl's floor and mod round
/// down; they agree only for non-negative dividends, so a dividend that may
/// be negative where it is evaluated is refused rather than miscompiled.
void AffineBuilder::requireNonNegative(const std::string &dividend,
                                       const clang::Expr *e) {
  std::string tuple = state.iterationTuple("");
  std::string cond;
  for (const std::string &c : state.constraints)
    cond += c + " and ";
  isl::set negative(state.scop.ctx, state.paramPrefix + "{ " + tuple + " : " +
                                        cond + dividend + " < 0 }");
  if (!negative.is_empty())
    state.fail(e->getBeginLoc(), Diag::NegativeDividend, state.text(e),
               e->getSourceRange());
}

/// Records that `value`, computed by `e` in C type `type`, must stay within
/// that type where it is evaluated: the iterations of the loops around
/// under their conditions (a loop's own condition is evaluated where
/// StatementBuilder::buildFor says). buildScop turns the records into the
/// scop's assumption on its parameters.
void AffineBuilder::requireInRange(const std::string &value, QualType type,
                                   const clang::Expr *e) {
  auto [low, high] = rangeOf(state.ast, type);
  std::string tuple = state.iterationTuple("L");
  isl::set outside(state.scop.ctx, state.paramPrefix + "{ " + tuple + " : " +
                                       value + " < " + low + " or " + value +
                                       " > " + high + " }");
  state.rangeChecks.push_back({state.iterationDomain("L"), outside,
                               e->getBeginLoc(),
                               "'" + state.text(e) + "' (of type '" +
                                   type.getAsString() + "')"});
}

} // namespace polycuda::translator::scopbuilder
