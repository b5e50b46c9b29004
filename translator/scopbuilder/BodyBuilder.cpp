//===- BodyBuilder.cpp - Statement bodies and their accesses --------------===//
//
// The body of a statement, `lhs op rhs`, becomes polyhedral::Expr trees.
// Every reference to an array element or scalar becomes an ArrayRef node
// with an Access of the statement: a relation from the statement's
// iterations to the elements it reads or writes.
//
//===----------------------------------------------------------------------===//
#include "ScopBuilderInternal.h"

#include <functional>

using namespace clang;

namespace polycuda::translator::scopbuilder {

using polyhedral::Access;
using polyhedral::Expr;
using polyhedral::ExprPtr;

namespace {

/// Is `e` arithmetic on a pointer (`A + i`, `p - 1`, `p++`, `p += 2`,
/// `p = q`), where arrays decay to pointers?
bool isPointerArithmetic(const clang::Expr *e) {
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

/// How an expression kind that BodyBuilder::value refuses is named in
/// diagnostics, in C's terms; `text` is `e` as written.
std::string describeExpr(const clang::Expr *e, const std::string &text) {
  if (auto *bin = dyn_cast<BinaryOperator>(e)) {
    if (bin->isAssignmentOp())
      return "an assignment inside an expression";
    if (bin->getOpcode() == BO_Comma)
      return "the comma operator";
  }
  if (auto *un = dyn_cast<UnaryOperator>(e)) {
    if (un->isIncrementDecrementOp())
      return "'" + UnaryOperator::getOpcodeStr(un->getOpcode()).str() +
             "' inside an expression";
    return "the operator '" +
           UnaryOperator::getOpcodeStr(un->getOpcode()).str() + "'";
  }
  if (auto *trait = dyn_cast<UnaryExprOrTypeTraitExpr>(e))
    return trait->getKind() == UETT_SizeOf
               ? "'sizeof' of a variable-length array"
               : "'" + text + "'";
  if (isa<BinaryConditionalOperator>(e))
    return "the GNU operator '?:' without a middle operand";
  if (isa<StmtExpr>(e))
    return "a statement expression";
  if (isa<StringLiteral>(e))
    return "a string literal";
  if (isa<CompoundLiteralExpr>(e))
    return "a compound literal";
  if (isa<ImaginaryLiteral>(e))
    return "a complex number";
  return "the expression '" + text + "'";
}

} // namespace

ExprPtr makeExpr(Expr::Kind kind) {
  auto e = std::make_shared<Expr>();
  e->kind = kind;
  return e;
}

//===- Statements ---------------------------------------------------------===//

void BodyBuilder::assignment(polyhedral::Statement &stmt, const clang::Expr *e,
                             const clang::Expr *rhsValue) {
  current = &stmt;
  if (auto *un = dyn_cast<UnaryOperator>(e)) {
    if (un->isIncrementDecrementOp() && isArrayOrScalarRef(un->getSubExpr())) {
      stmt.op = un->isIncrementOp() ? "+=" : "-=";
      ExprPtr one = makeExpr(Expr::Kind::IntLit);
      one->literal = "1";
      stmt.rhs = one;
      stmt.lhs = writeRef(un->getSubExpr(), true);
      if (un->getSubExpr()->getType()->isBooleanType())
        boolCompound(stmt);
      return;
    }
  }
  if (auto *bin = dyn_cast<BinaryOperator>(e)) {
    if (bin->isAssignmentOp() && isArrayOrScalarRef(bin->getLHS())) {
      // Every compound assignment is printed as written. C computes
      // `x op= v` in the type of `x op v` (the computation types of
      // CompoundAssignOperator; for shifts, x's promoted type) and converts
      // the result back to x's type. The printed x keeps its type, and so
      // does v, except that iterators and parameters are `long` (unsigned
      // int and unsigned long ones are cast back: asDeclared): computing
      // in `long` instead of int gives the same value wherever C's does
      // not overflow, and a conversion of v to an unsigned computation
      // type is printed (implicitCast). So every target computes what C
      // does, unsigned wrap-around included.
      stmt.op = BinaryOperator::getOpcodeStr(bin->getOpcode()).str();
      stmt.rhs = value(rhsValue ? rhsValue : bin->getRHS());
      stmt.lhs = writeRef(bin->getLHS(), bin->isCompoundAssignmentOp());
      if (bin->getLHS()->getType()->isBooleanType()) {
        if (bin->isCompoundAssignmentOp())
          boolCompound(stmt);
        else if (rhsValue && !rhsValue->getType()->isBooleanType())
          stmt.rhs = toBool(stmt.rhs); // a chain's inner value
      }
      return;
    }
  }
  refuseExpressionStatement(e);
}

/// `b op= v` on a bool `b` as `b = (b op v) != 0`: C converts the result
/// to bool, where its one-byte storage would keep `b op v`.
void BodyBuilder::boolCompound(polyhedral::Statement &stmt) {
  ExprPtr both = makeExpr(Expr::Kind::Binary);
  both->op = stmt.op.substr(0, stmt.op.size() - 1);
  both->args = {stmt.lhs, stmt.rhs};
  stmt.op = "=";
  stmt.rhs = toBool(both);
}

void BodyBuilder::initialization(polyhedral::Statement &stmt,
                                 const VarDecl *var) {
  current = &stmt;
  stmt.op = "=";
  stmt.rhs = value(var->getInit());
  stmt.lhs = scalarWrite(var);
}

void BodyBuilder::iteratorExit(polyhedral::Statement &stmt, const VarDecl *var,
                               const clang::Expr *init,
                               const std::string &iterator, long step) {
  current = &stmt;
  stmt.op = "=";
  if (init) {
    stmt.rhs = value(init);
  } else {
    ExprPtr it = makeExpr(Expr::Kind::Iterator);
    it->name = iterator;
    ExprPtr by = makeExpr(Expr::Kind::IntLit);
    by->literal = std::to_string(step < 0 ? -step : step);
    stmt.rhs = makeExpr(Expr::Kind::Binary);
    stmt.rhs->op = step < 0 ? "-" : "+";
    stmt.rhs->args = {it, by};
  }
  stmt.lhs = scalarWrite(var);
}

void BodyBuilder::conditionValue(polyhedral::Statement &stmt,
                                 const clang::Expr *cond, unsigned flag,
                                 bool negate) {
  current = &stmt;
  stmt.op = "=";
  // C's `if (e)` tests e != 0; comparisons and logical operators are 0 or
  // 1 already, anything else is compared with 0 (a double, a pointer-free
  // integer).
  ExprPtr value = this->value(cond);
  const clang::Expr *bare = cond->IgnoreParenImpCasts();
  bool truth = false;
  if (auto *bin = dyn_cast<BinaryOperator>(bare))
    truth = bin->isComparisonOp() || bin->isLogicalOp();
  if (auto *un = dyn_cast<UnaryOperator>(bare))
    truth |= un->getOpcode() == UO_LNot;
  if (!truth)
    value = toBool(value);
  stmt.rhs = negate ? negated(value) : value;
  stmt.lhs = scalarRef(stmt, flag, Access::Kind::MustWrite);
}

void BodyBuilder::flagValue(polyhedral::Statement &stmt, unsigned flag,
                            std::optional<unsigned> source, bool negate) {
  current = &stmt;
  stmt.op = "=";
  ExprPtr value;
  if (source) {
    value = scalarRef(stmt, *source, Access::Kind::Read);
    if (negate)
      value = negated(value);
  } else {
    value = makeExpr(Expr::Kind::IntLit);
    value->literal = "0";
  }
  stmt.rhs = value;
  stmt.lhs = scalarRef(stmt, flag, Access::Kind::MustWrite);
}

void BodyBuilder::guard(polyhedral::Statement &stmt,
                        const std::vector<std::pair<unsigned, bool>> &guards,
                        bool condition) {
  if (!condition)
    for (Access &access : stmt.accesses)
      if (access.kind == Access::Kind::MustWrite)
        access.kind = Access::Kind::MayWrite;
  ExprPtr all;
  for (const auto &[flag, positive] : guards) {
    ExprPtr ref = scalarRef(stmt, flag, Access::Kind::Read);
    ExprPtr test = positive ? ref : negated(ref);
    if (!all) {
      all = test;
    } else {
      ExprPtr both = makeExpr(Expr::Kind::Binary);
      both->op = "&&";
      both->args = {all, test};
      all = both;
    }
  }
  if (!condition) {
    stmt.guard = all;
    return;
  }
  // The condition of a nested if, stored whatever the outer ones say (0
  // where they fail; its own test runs only where they hold, as in C): a
  // write every iteration, so the variable stays private.
  ExprPtr zero = makeExpr(Expr::Kind::IntLit);
  zero->literal = "0";
  ExprPtr value = makeExpr(Expr::Kind::Ternary);
  value->args = {all, stmt.rhs, zero};
  stmt.rhs = value;
}

/// A write of scalar `var` by the current statement.
ExprPtr BodyBuilder::scalarWrite(const VarDecl *var) {
  unsigned id = arrays.arrayFor(var, var->getLocation());
  state.scop.arrays[id].isWritten = true;
  return scalarRef(*current, id, Access::Kind::MustWrite);
}

/// A reference of `stmt` to scalar `array` and its Access of `kind`.
ExprPtr BodyBuilder::scalarRef(polyhedral::Statement &stmt, unsigned array,
                               Access::Kind kind) {
  polyhedral::Scop &scop = state.scop;
  ExprPtr ref = makeExpr(Expr::Kind::ArrayRef);
  ref->name = scop.arrays[array].name;
  Access access;
  access.kind = kind;
  access.array = array;
  access.relation =
      isl::map(scop.ctx, state.paramPrefix + "{ " +
                             state.iterationTuple(stmt.name) + " -> " +
                             ref->name + "[] }");
  ref->access = stmt.accesses.size();
  stmt.accesses.push_back(access);
  return ref;
}

void BodyBuilder::refusePointerArithmetic(const clang::Expr *e) {
  if (isPointerArithmetic(e))
    state.fail(e->getBeginLoc(), Diag::PointerArithmetic, state.text(e),
               e->getSourceRange());
}

/// Fails on expression statement `e`, which is not an assignment to an
/// array element or scalar, naming what it is.
void BodyBuilder::refuseExpressionStatement(const clang::Expr *e) {
  refusePointerUse(e);
  if (const clang::Expr *target = writtenBy(e)) {
    // `*p = ...`, `*(A + i) += ...`, `s.x = ...`: value() names it.
    value(target);
  } else if (auto *call = dyn_cast<CallExpr>(e)) {
    const FunctionDecl *fn = call->getDirectCallee();
    std::string name =
        fn ? fn->getName().str() : state.text(call->getCallee());
    if (!fn || !isMathFunction(name))
      state.fail(e->getBeginLoc(), Diag::UnknownFunction, name,
                 e->getSourceRange());
    state.fail(e->getBeginLoc(), Diag::UnsupportedStatement,
               "a call to '" + name + "' whose result is not used",
               e->getSourceRange());
  }
  state.fail(e->getBeginLoc(), Diag::UnsupportedStatement,
             "an expression statement that is not an assignment",
             e->getSourceRange());
}

//===- Expressions --------------------------------------------------------===//

ExprPtr BodyBuilder::value(const clang::Expr *e) {
  e = e->IgnoreParens();
  if (ExprPtr n = literal(e))
    return n;
  if (auto *ref = dyn_cast<DeclRefExpr>(e))
    if (ExprPtr n = reference(ref))
      return n;
  if (isa<ArraySubscriptExpr>(e) || fieldOfElement(e))
    return arrayRef(e, Access::Kind::Read);
  if (auto *cast = dyn_cast<ImplicitCastExpr>(e))
    return implicitCast(cast);
  if (auto *c = dyn_cast<CStyleCastExpr>(e))
    return explicitCast(c);
  refusePointerUse(e);
  refuseStructField(e);
  if (ExprPtr n = operation(e))
    return n;
  if (auto *c = dyn_cast<CallExpr>(e))
    return mathCall(c);
  state.fail(e->getBeginLoc(), Diag::UnsupportedExpression,
             describeExpr(e, state.text(e)), e->getSourceRange());
}

/// An integer, floating or character literal, a constant `sizeof` or
/// `_Alignof`, or null.
ExprPtr BodyBuilder::literal(const clang::Expr *e) {
  if (auto *lit = dyn_cast<IntegerLiteral>(e))
    return integerLiteral(lit->getValue().getZExtValue(), lit->getType());
  if (auto *trait = dyn_cast<UnaryExprOrTypeTraitExpr>(e))
    if (std::optional<llvm::APSInt> value = state.constantOf(trait))
      return integerLiteral(value->getZExtValue(), trait->getType());
  if (auto *lit = dyn_cast<FloatingLiteral>(e)) {
    // A long double literal (0.1L) would be printed, and computed with,
    // as a double: refused like a long double cast.
    if (!elemTypeOf(lit->getType()))
      state.fail(lit->getBeginLoc(), Diag::UnsupportedType,
                 lit->getType().getAsString());
    ExprPtr n = makeExpr(Expr::Kind::FloatLit);
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
    ExprPtr n = makeExpr(Expr::Kind::IntLit);
    n->literal = std::to_string(lit->getValue());
    return n;
  }
  return nullptr;
}

/// The integer literal `value` of integer type `type`.
ExprPtr BodyBuilder::integerLiteral(uint64_t value, QualType type) {
  ExprPtr n = makeExpr(Expr::Kind::IntLit);
  n->literal = std::to_string(value);
  // The literal's type decides C's conversions (`u - 5u` wraps, `u - 5L`
  // does not); long is 64 bits on every target (long long is not
  // OpenCL).
  if (type->isUnsignedIntegerType())
    n->literal += "u";
  if (state.ast.getIntWidth(type) > 32)
    n->literal += "l";
  return n;
}

/// An enumerator, a loop iterator, a parameter, a scalar the scop only
/// reads, or an array (element); null for other declarations.
ExprPtr BodyBuilder::reference(const DeclRefExpr *ref) {
  if (auto *ec = dyn_cast<EnumConstantDecl>(ref->getDecl())) {
    ExprPtr n = makeExpr(Expr::Kind::IntLit);
    n->literal = std::to_string(ec->getInitVal().getExtValue());
    return n;
  }
  auto *var = dyn_cast<VarDecl>(ref->getDecl());
  if (!var)
    return nullptr;
  if (auto *parm = dyn_cast<ParmVarDecl>(var)) {
    auto arg = inlinedArgs.find(parm);
    if (arg != inlinedArgs.end()) {
      // Built at each use (fresh nodes and accesses), in the caller's
      // parameters.
      InlinedArg inlined = arg->second;
      std::map<const ParmVarDecl *, InlinedArg> callee = inlinedArgs;
      inlinedArgs = *inlined.caller;
      ExprPtr n = convertedTo(value(inlined.arg), inlined.arg,
                              parm->getType());
      inlinedArgs = callee;
      return n;
    }
  }
  if (const Loop *loop = state.loopOf(var)) {
    ExprPtr n = makeExpr(Expr::Kind::Iterator);
    n->name = loop->name;
    return asDeclared(n, var);
  }
  auto it = state.paramNames.find(var);
  if (it != state.paramNames.end()) {
    ExprPtr n = makeExpr(Expr::Kind::Param);
    n->name = it->second;
    return asDeclared(n, var);
  }
  // A scalar the scop only reads is passed to kernels by value.
  if (!state.written.count(var) && !var->getType()->isArrayType() &&
      !var->getType()->isPointerType()) {
    if (auto type = elemTypeOf(var->getType())) {
      std::string name = var->getName().str();
      bool known = false;
      for (auto &arg : state.scop.scalarArgs)
        known |= arg.first == name;
      if (!known)
        state.scop.scalarArgs.push_back({name, *type});
      ExprPtr n = makeExpr(Expr::Kind::Param);
      n->name = name;
      return n;
    }
  }
  return arrayRef(ref, Access::Kind::Read);
}

/// `n`, an iterator or parameter (printed as `long`), converted to the type
/// of `var` where C's arithmetic on that type differs: unsigned int and
/// unsigned long wrap around (narrower unsigned types are promoted to int,
/// and the value fits).
ExprPtr BodyBuilder::asDeclared(ExprPtr n, const VarDecl *var) {
  QualType type = var->getType();
  if (!type->isUnsignedIntegerType() ||
      state.ast.getIntWidth(type) < state.ast.getIntWidth(state.ast.IntTy))
    return n;
  auto elem = elemTypeOf(type);
  if (!elem)
    state.fail(var->getLocation(), Diag::UnsupportedType,
               type.getAsString());
  ExprPtr c = makeExpr(Expr::Kind::Cast);
  c->castType = *elem;
  c->args.push_back(n);
  return c;
}

/// `(v != 0)`: C's conversion of a value to `bool` (which the model stores
/// in an unsigned char), and what `if (v)` tests.
ExprPtr BodyBuilder::toBool(ExprPtr v) {
  ExprPtr zero = makeExpr(Expr::Kind::IntLit);
  zero->literal = "0";
  ExprPtr test = makeExpr(Expr::Kind::Binary);
  test->op = "!=";
  test->args = {v, zero};
  return test;
}

/// `!v`.
ExprPtr BodyBuilder::negated(ExprPtr v) {
  ExprPtr no = makeExpr(Expr::Kind::Unary);
  no->op = "!";
  no->args = {v};
  return no;
}

namespace {

/// Whether `v` may be printed in a wider type than C gives it: iterators
/// and parameters are printed as `long`, and so is arithmetic on them.
/// Comparisons, casts, array elements and calls have their own types.
bool printedWide(const polyhedral::Expr &v) {
  using Kind = polyhedral::Expr::Kind;
  switch (v.kind) {
  case Kind::Iterator:
  case Kind::Param:
    return true;
  case Kind::Unary:
    return v.op != "!" && printedWide(*v.args[0]);
  case Kind::Binary:
    if (v.op == "==" || v.op == "!=" || v.op == "<" || v.op == ">" ||
        v.op == "<=" || v.op == ">=" || v.op == "&&" || v.op == "||")
      return false;
    return printedWide(*v.args[0]) ||
           (v.args.size() > 1 && printedWide(*v.args[1]));
  case Kind::Ternary:
    return printedWide(*v.args[1]) || printedWide(*v.args[2]);
  default:
    return false;
  }
}

} // namespace

/// An implicit conversion: printed where it may change the value (to an
/// unsigned or narrower integer type), since the printed operand may have
/// another type than in the source (iterators are `long`). A conversion
/// that keeps every value of the source type is printed too where the
/// operand is printed wider and the target is an unsigned type narrower
/// than `long`: `g * u` with `unsigned char g` (a parameter) and `unsigned
/// u` is unsigned arithmetic in C, and would be `long` arithmetic without
/// the cast (random program 762470).
ExprPtr BodyBuilder::implicitCast(const ImplicitCastExpr *cast) {
  ExprPtr v = value(cast->getSubExpr());
  QualType to = cast->getType(), from = cast->getSubExpr()->getType();
  if (to->isBooleanType() && !from->isBooleanType())
    return toBool(v);
  if (cast->getCastKind() != CK_IntegralCast || to->isBooleanType() ||
      !to->isIntegerType() || !from->isIntegerType())
    return v;
  bool widened = to->isUnsignedIntegerType() &&
                 state.ast.getIntWidth(to) <
                     state.ast.getIntWidth(state.ast.LongTy) &&
                 printedWide(*v);
  if (fitsIn(state.ast, from, to) && !widened)
    return v;
  auto type = elemTypeOf(to);
  if (!type)
    state.fail(cast->getBeginLoc(), Diag::UnsupportedType, to.getAsString());
  ExprPtr n = makeExpr(Expr::Kind::Cast);
  n->castType = *type;
  n->args.push_back(v);
  return n;
}

ExprPtr BodyBuilder::explicitCast(const CStyleCastExpr *cast) {
  if (cast->getType()->isBooleanType())
    return toBool(value(cast->getSubExpr()));
  auto type = elemTypeOf(cast->getType());
  if (!type)
    state.fail(cast->getBeginLoc(), Diag::UnsupportedType,
               cast->getType().getAsString());
  ExprPtr n = makeExpr(Expr::Kind::Cast);
  n->castType = *type;
  n->args.push_back(value(cast->getSubExpr()));
  return n;
}

/// A unary, binary or conditional operation, or null.
ExprPtr BodyBuilder::operation(const clang::Expr *e) {
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
      ExprPtr n = makeExpr(Expr::Kind::Unary);
      n->op = op;
      n->args.push_back(value(un->getSubExpr()));
      return n;
    }
  }
  if (auto *bin = dyn_cast<BinaryOperator>(e)) {
    if (!bin->isAssignmentOp() && bin->getOpcode() != BO_Comma) {
      ExprPtr n = makeExpr(Expr::Kind::Binary);
      n->op = BinaryOperator::getOpcodeStr(bin->getOpcode()).str();
      n->args.push_back(value(bin->getLHS()));
      n->args.push_back(value(bin->getRHS()));
      return n;
    }
  }
  if (auto *cond = dyn_cast<ConditionalOperator>(e)) {
    ExprPtr n = makeExpr(Expr::Kind::Ternary);
    n->args.push_back(value(cond->getCond()));
    n->args.push_back(value(cond->getTrueExpr()));
    n->args.push_back(value(cond->getFalseExpr()));
    return n;
  }
  return nullptr;
}
} // namespace polycuda::translator::scopbuilder
