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

const std::set<std::string> kMathFunctions = {
    "sqrt", "sqrtf", "exp",   "expf",  "exp2",  "exp2f", "log",   "logf",
    "log2", "log2f", "log10", "log10f", "pow",  "powf",  "fabs",  "fabsf",
    "floor", "floorf", "ceil", "ceilf", "sin",  "sinf",  "cos",   "cosf",
    "tan",  "tanf",  "tanh",  "tanhf", "fmin",  "fminf", "fmax",  "fmaxf",
    "abs",  "round", "roundf", "fmod", "fmodf", "atan",  "atanf", "cbrt",
    "cbrtf", "trunc", "truncf", "erf", "erff",  "asin",  "acos",  "sinh",
    "cosh", "expm1", "log1p", "hypot", "atan2", "atan2f", "rsqrt"};

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
    if (!fn || !kMathFunctions.count(name))
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

/// An implicit conversion: printed where it may change the value (to an
/// unsigned or narrower integer type), since the printed operand may have
/// another type than in the source (iterators are `long`).
ExprPtr BodyBuilder::implicitCast(const ImplicitCastExpr *cast) {
  ExprPtr v = value(cast->getSubExpr());
  QualType to = cast->getType(), from = cast->getSubExpr()->getType();
  if (to->isBooleanType() && !from->isBooleanType())
    return toBool(v);
  if (cast->getCastKind() != CK_IntegralCast || to->isBooleanType() ||
      !to->isIntegerType() || !from->isIntegerType())
    return v;
  if (fitsIn(state.ast, from, to))
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

/// A call of a math function, or of integer min/max.
ExprPtr BodyBuilder::mathCall(const CallExpr *call) {
  const FunctionDecl *fn = call->getDirectCallee();
  std::string name = fn ? fn->getName().str() : state.text(call->getCallee());
  // Integer min(a, b) and max(a, b), as the access relations read them
  // (affine), become `a < b ? a : b` (`>` for max): every target prints
  // that without a helper of its own.
  if (fn && (name == "min" || name == "max") && call->getNumArgs() == 2 &&
      call->getType()->isIntegerType()) {
    ExprPtr a = value(call->getArg(0)), b = value(call->getArg(1));
    ExprPtr test = makeExpr(Expr::Kind::Binary);
    test->op = name == "min" ? "<" : ">";
    test->args = {a, b};
    ExprPtr n = makeExpr(Expr::Kind::Ternary);
    n->args = {test, a, b};
    return n;
  }
  if (fn && !kMathFunctions.count(name))
    if (const FunctionDecl *definition = fn->getDefinition())
      if (auto *body = dyn_cast_or_null<CompoundStmt>(definition->getBody());
          body && body->size() == 1)
        if (auto *ret = dyn_cast<ReturnStmt>(body->body_front());
            ret && ret->getRetValue())
          return inlinedCall(call, definition, ret->getRetValue());
  if (fn && !kMathFunctions.count(name))
    if (const FunctionDecl *definition = fn->getDefinition())
      if (definition->getBody())
        return functionCall(call, definition);
  if (!fn || !kMathFunctions.count(name))
    state.fail(call->getBeginLoc(), Diag::UnknownFunction, name,
               call->getSourceRange());
  ExprPtr n = makeExpr(Expr::Kind::Call);
  n->name = name;
  for (const clang::Expr *arg : call->arguments())
    n->args.push_back(convertedArgument(arg));
  return n;
}

/// Fails unless `call` passes one argument per parameter of `definition`
/// (no variadic function).
void BodyBuilder::requireFixedArguments(const CallExpr *call,
                                        const FunctionDecl *definition) {
  if (call->getNumArgs() != definition->getNumParams() ||
      definition->isVariadic())
    state.fail(call->getBeginLoc(), Diag::UnsupportedExpression,
               "a call to '" + definition->getName().str() +
                   "' with a variable number of arguments",
               call->getSourceRange());
}

/// A call of a function of the input with a body of several statements:
/// printed as a call on every target, the function with the kernels
/// (Scop::functions), once it is known to be pure and of numbers. Its
/// arguments are converted to its parameters' types, as the call does.
ExprPtr BodyBuilder::functionCall(const CallExpr *call,
                                  const FunctionDecl *definition) {
  std::string name = definition->getName().str();
  requireFixedArguments(call, definition);
  requirePure(definition, call);
  if (std::find(current->called.begin(), current->called.end(), name) ==
      current->called.end())
    current->called.push_back(name);
  ExprPtr n = makeExpr(Expr::Kind::Call);
  n->name = name;
  for (unsigned k = 0; k < call->getNumArgs(); ++k)
    n->args.push_back(convertedTo(value(call->getArg(k)), call->getArg(k),
                                  definition->getParamDecl(k)->getType()));
  return n;
}

/// Fails unless `definition` is pure and of numbers: number parameters and
/// result, locals of number types (arrays of them too), no variable of
/// static storage, no pointer, struct or call other than of math functions
/// and of such functions. Adds it to Scop::functions, after those it calls.
void BodyBuilder::requirePure(const FunctionDecl *definition,
                              const CallExpr *call) {
  std::string name = definition->getName().str();
  for (const polyhedral::Function &f : state.scop.functions)
    if (f.name == name)
      return;
  if (std::find(checking.begin(), checking.end(), definition) !=
      checking.end())
    state.fail(call->getBeginLoc(), Diag::UnsupportedExpression,
               "a recursive call to '" + name + "'", call->getSourceRange());
  auto impure = [&](SourceLocation loc, const std::string &why) {
    state.fail(loc, Diag::ImpureFunction, "'" + name + "' " + why);
  };
  auto number = [](QualType type) {
    return elemTypeOf(type).has_value() && !type->isBooleanType();
  };
  if (!number(definition->getReturnType()))
    impure(definition->getLocation(), "does not return a number");
  for (const ParmVarDecl *parm : definition->parameters())
    if (!number(parm->getType()))
      impure(parm->getLocation(),
             "takes '" + parm->getName().str() + "', which is not a number");
  checking.push_back(definition);
  forEachStmt(definition->getBody(), [&](const Stmt *s) {
    if (auto *decls = dyn_cast<DeclStmt>(s)) {
      for (const Decl *d : decls->decls()) {
        auto *var = dyn_cast<VarDecl>(d);
        QualType type = var ? var->getType() : QualType();
        while (var && isa<ConstantArrayType>(
                          type.getCanonicalType().getTypePtr()))
          type = cast<ConstantArrayType>(type.getCanonicalType().getTypePtr())
                     ->getElementType();
        if (!var || var->hasGlobalStorage() || !elemTypeOf(type))
          impure(d->getLocation(),
                 "declares something other than a local number or array "
                 "of numbers");
      }
    } else if (auto *ref = dyn_cast<DeclRefExpr>(s)) {
      if (auto *var = dyn_cast<VarDecl>(ref->getDecl()))
        if (var->hasGlobalStorage() ||
            var->getParentFunctionOrMethod() != definition)
          impure(ref->getLocation(),
                 "uses '" + var->getName().str() + "', declared outside it");
    } else if (auto *inner = dyn_cast<CallExpr>(s)) {
      const FunctionDecl *fn = inner->getDirectCallee();
      std::string callee = fn ? fn->getName().str() : "a function pointer";
      if (fn && kMathFunctions.count(callee))
        return;
      const FunctionDecl *def = fn ? fn->getDefinition() : nullptr;
      if (!def || !def->getBody())
        impure(inner->getBeginLoc(),
               "calls " + callee + ", which is no math function of C nor "
               "a function of the file");
      requirePure(def, inner);
    } else if (auto *un = dyn_cast<UnaryOperator>(s)) {
      if (un->getOpcode() == UO_Deref || un->getOpcode() == UO_AddrOf)
        impure(un->getBeginLoc(), "uses a pointer");
    } else if (isa<MemberExpr>(s)) {
      impure(s->getBeginLoc(), "uses a struct");
    }
  });
  checking.pop_back();
  // The definition as C, macros expanded, without its storage class.
  std::string text;
  llvm::raw_string_ostream os(text);
  PrintingPolicy policy(state.ast.getLangOpts());
  policy.SuppressSpecifiers = false;
  definition->print(os, policy);
  os.flush();
  for (const char *word : {"static ", "inline ", "extern "})
    for (size_t at; (at = text.find(word)) == 0;)
      text.erase(0, std::string(word).size());
  state.scop.functions.push_back({name, text});
}

/// `n`, the value of `e`, converted to `type` as a call converts an argument
/// to its parameter, or a return value to the function's type: the printed
/// code has no function boundary, so a conversion that the types of `e`'s
/// operands do not imply is printed as a cast (C's implicit conversions
/// elsewhere print nothing: the printed operands have C's types).
ExprPtr BodyBuilder::convertedTo(ExprPtr n, const clang::Expr *e,
                                 QualType type) {
  QualType from = e->IgnoreParenImpCasts()->getType();
  if (from.getCanonicalType().getUnqualifiedType() ==
      type.getCanonicalType().getUnqualifiedType())
    return n;
  if (type->isBooleanType())
    return toBool(n);
  auto elem = elemTypeOf(type);
  if (!elem)
    state.fail(e->getBeginLoc(), Diag::UnsupportedType, type.getAsString());
  if (n->kind == Expr::Kind::Cast && n->castType == *elem)
    return n; // implicitCast printed it already
  ExprPtr cast = makeExpr(Expr::Kind::Cast);
  cast->castType = *elem;
  cast->args.push_back(n);
  return cast;
}

/// A call of a function of the input whose body is one `return result;`,
/// inlined: `result` with each parameter replaced by its argument,
/// converted to the parameter's type as the call converts it (the argument
/// expressions carry Clang's conversions), and the result converted to the
/// function's return type (the return's own conversion). Parameters must be
/// scalars: an array or pointer parameter would alias the caller's arrays.
/// The reads of the arguments and of the body are accesses of the
/// statement; an argument used twice is read twice (built again at each
/// use), which C's single evaluation cannot tell apart: arguments have no
/// side effects in a scop.
ExprPtr BodyBuilder::inlinedCall(const CallExpr *call,
                                 const FunctionDecl *definition,
                                 const clang::Expr *result) {
  std::string name = definition->getName().str();
  if (std::find(inlining.begin(), inlining.end(), definition) !=
      inlining.end())
    state.fail(call->getBeginLoc(), Diag::UnsupportedExpression,
               "a recursive call to '" + name + "'", call->getSourceRange());
  requireFixedArguments(call, definition);
  auto caller =
      std::make_shared<const std::map<const ParmVarDecl *, InlinedArg>>(
          inlinedArgs);
  std::map<const ParmVarDecl *, InlinedArg> args;
  for (unsigned k = 0; k < call->getNumArgs(); ++k) {
    const ParmVarDecl *parm = definition->getParamDecl(k);
    if (!elemTypeOf(parm->getType()))
      state.fail(call->getArg(k)->getBeginLoc(), Diag::UnsupportedExpression,
                 "a call of '" + name + "' with '" +
                     state.text(call->getArg(k)) + "' for its parameter '" +
                     parm->getName().str() +
                     "', which is not a number (only functions of numbers "
                     "are inlined)",
                 call->getArg(k)->getSourceRange());
    args[parm] = {call->getArg(k), caller};
  }
  inlining.push_back(definition);
  if (std::find(current->inlined.begin(), current->inlined.end(), name) ==
      current->inlined.end())
    current->inlined.push_back(name);
  // The body sees its own parameters only.
  std::map<const ParmVarDecl *, InlinedArg> outer = inlinedArgs;
  inlinedArgs = args;
  ExprPtr n = convertedTo(value(result), result, definition->getReturnType());
  inlinedArgs = outer;
  inlining.pop_back();
  return n;
}

/// A math function's argument, converted as C converts it. C's `exp` takes a
/// double, so `exp(f)` with a float `f` computes in double; the printed C++
/// and CUDA code would call the float overload instead and round
/// differently. An implicit conversion to a floating type is therefore
/// printed as a cast.
ExprPtr BodyBuilder::convertedArgument(const clang::Expr *arg) {
  ExprPtr v = value(arg);
  auto *conv = dyn_cast<ImplicitCastExpr>(arg->IgnoreParens());
  if (!conv || (conv->getCastKind() != CK_FloatingCast &&
                conv->getCastKind() != CK_IntegralToFloating))
    return v;
  auto type = elemTypeOf(conv->getType());
  if (!type)
    state.fail(arg->getBeginLoc(), Diag::UnsupportedType,
               conv->getType().getAsString());
  ExprPtr n = makeExpr(Expr::Kind::Cast);
  n->castType = *type;
  n->args.push_back(v);
  return n;
}

//===- References and their accesses --------------------------------------===//

/// A reference to an array element or scalar and its Access of `kind`.
/// A subscript that is not affine may be any integer expression (e.g.
/// `idx[i]`, `i * i`): its reads become Accesses of the statement, and the
/// reference accesses the whole extent of that dimension (a may-access;
/// a write becomes a MayWrite).
ExprPtr BodyBuilder::arrayRef(const clang::Expr *e, Access::Kind kind) {
  std::vector<const clang::Expr *> subscripts;
  const clang::Expr *base = e->IgnoreParenImpCasts();
  const FieldDecl *field = fieldOfElement(base);
  if (field)
    base = cast<MemberExpr>(base)->getBase()->IgnoreParenImpCasts();
  while (auto *sub = dyn_cast<ArraySubscriptExpr>(base)) {
    subscripts.insert(subscripts.begin(), sub->getIdx());
    base = sub->getBase()->IgnoreParenImpCasts();
  }
  const VarDecl *var = varOf(base);
  std::optional<unsigned> member = memberArray(base);
  if (!var && !member) {
    refusePointerUse(base);
    refuseStructField(base);
    state.fail(base->getBeginLoc(), Diag::UnsupportedExpression,
               "'" + state.text(base) + "'", base->getSourceRange());
  }
  polyhedral::Scop &scop = state.scop;
  unsigned id = member ? *member : arrays.arrayFor(var, base->getBeginLoc());
  // Not a reference: value() below may add arrays to scop.arrays.
  const std::string name = scop.arrays[id].name;
  unsigned rank = scop.arrays[id].rank();
  // A field of an element of an array of structs, or the whole element.
  if (!scop.arrays[id].fields.empty() && !field)
    state.fail(e->getBeginLoc(), Diag::WholeStruct, state.text(e),
               e->getSourceRange());
  if (field)
    --rank;
  // A delinearized array is indexed with one flat subscript.
  bool flat = scop.arrays[id].delinearized;
  // (A member array is no flat one: var is its struct.)
  if (member)
    var = nullptr;
  if (subscripts.size() != (flat ? 1 : rank))
    state.fail(e->getBeginLoc(), Diag::UnsupportedExpression,
               "an access to '" + name + "' with " +
                   std::to_string(subscripts.size()) +
                   " subscripts (declared with " +
                   std::to_string(flat ? 1 : rank) + ")",
               e->getSourceRange());
  ExprPtr ref = makeExpr(Expr::Kind::ArrayRef);
  ref->name = name;
  Access access;
  access.array = id;
  std::string range;
  std::vector<std::string> anyIndex; // isl names of the non-affine dims
  if (flat)
    flatIndices(subscripts[0], var, *ref, range);
  for (size_t d = 0; d < subscripts.size() && !flat; ++d) {
    const clang::Expr *sub = subscripts[d];
    std::optional<std::string> index = affine.expressionOrNone(sub);
    // A flat subscript of an array whose subscripts fit no one shape.
    if (!index && state.flatShapes.count(var))
      state.fail(sub->getBeginLoc(), Diag::FlatSubscript,
                 "'" + state.text(sub) + "'", sub->getSourceRange());
    if (!index) {
      // Without a first extent there is no whole extent to access.
      if (d == 0 && !scop.arrays[id].firstExtentKnown)
        state.fail(sub->getBeginLoc(), Diag::NonAffineSubscript,
                   state.text(sub), sub->getSourceRange());
      access.nonAffineSubscripts.resize(rank);
      access.nonAffineSubscripts[d] = state.text(sub);
      index = state.freshIslName("a" + std::to_string(d));
      anyIndex.push_back(*index);
    }
    range += (range.empty() ? "" : ", ") + *index;
    ref->args.push_back(value(sub));
  }
  if (field) {
    // The field's position in the struct: a constant last subscript.
    std::string index = std::to_string(field->getFieldIndex());
    range += ", " + index;
    ExprPtr position = makeExpr(Expr::Kind::IntLit);
    position->literal = index;
    ref->args.push_back(position);
  }
  for (const std::string &index : anyIndex)
    state.releaseIslName(index);
  access.relation = isl::map(scop.ctx, state.paramPrefix + "{ " +
                                           state.iterationTuple(current->name) +
                                           " -> " + name + "[" + range + "] }");
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

/// `c * symbol` added to `sum` (either may be null: nothing, or 1).
static ExprPtr addTerm(ExprPtr sum, long c, ExprPtr symbol) {
  auto literal = [](long v) {
    ExprPtr n = makeExpr(Expr::Kind::IntLit);
    n->literal = std::to_string(v) + (v > INT_MAX ? "L" : "");
    return n;
  };
  long magnitude = c < 0 ? -c : c;
  ExprPtr term = symbol ? symbol : literal(magnitude);
  if (symbol && magnitude != 1) {
    term = makeExpr(Expr::Kind::Binary);
    term->op = "*";
    term->args = {literal(magnitude), symbol};
  }
  if (!sum && c >= 0)
    return term;
  if (!sum) {
    ExprPtr minus = makeExpr(Expr::Kind::Unary);
    minus->op = "-";
    minus->args = {term};
    return minus;
  }
  ExprPtr n = makeExpr(Expr::Kind::Binary);
  n->op = c < 0 ? "-" : "+";
  n->args = {sum, term};
  return n;
}

/// The indices that flat subscript `sub` of delinearized array `var` reads
/// (Delinearization.cpp), appended to `ref`'s subscripts and to `range`
/// (isl syntax). Records where each index but the first leaves its extent
/// (and where the first is negative, if C computes the subscript unsigned):
/// the scop assumes it does not.
void BodyBuilder::flatIndices(const clang::Expr *sub, const VarDecl *var,
                              Expr &ref, std::string &range) {
  const FlatShape &shape = state.flatShapes.at(var);
  bool unsignedSeen = false;
  std::optional<Polynomial> p = polynomialOf(state, sub, unsignedSeen);
  std::optional<std::vector<Polynomial>> indices;
  if (p)
    indices = splitByShape(shape, *p);
  auto refuse = [&] {
    state.fail(sub->getBeginLoc(), Diag::FlatSubscript,
               "'" + state.text(sub) + "'", sub->getSourceRange());
  };
  if (!indices)
    refuse();
  std::string tuple = state.iterationTuple("L");
  isl::set where = state.iterationDomain("L");
  for (size_t d = 0; d < indices->size(); ++d) {
    // The terms in the order of their names, the constant last, as
    // `i - 1` would be written.
    std::vector<std::pair<FlatTerm, long>> terms((*indices)[d].begin(),
                                                 (*indices)[d].end());
    auto key = [&](const FlatTerm &t) {
      if (t.var)
        return std::string("0") + t.var->getName().str();
      return t.params.empty() ? std::string("2") : "1" + t.params.front();
    };
    std::stable_sort(terms.begin(), terms.end(), [&](auto &a, auto &b) {
      return key(a.first) < key(b.first);
    });
    std::string index;
    ExprPtr value;
    for (const auto &[term, c] : terms) {
      std::string name;
      ExprPtr symbol;
      if (term.var) {
        const Loop *loop = state.loopOf(term.var);
        if (!loop)
          state.fail(sub->getBeginLoc(), Diag::FlatSubscriptVariable,
                     "'" + state.text(sub) + "'", sub->getSourceRange());
        name = loop->name;
        symbol = makeExpr(Expr::Kind::Iterator);
        symbol->name = name;
        symbol = asDeclared(symbol, term.var);
      } else if (!term.params.empty()) {
        name = term.params.front();
        symbol = makeExpr(Expr::Kind::Param);
        symbol->name = name;
      }
      index += (index.empty() ? "(" : " + (") + std::to_string(c) +
               (name.empty() ? "" : " * " + name) + ")";
      value = addTerm(value, c, symbol);
    }
    if (index.empty()) {
      index = "0";
      value = addTerm(nullptr, 0, nullptr);
    }
    range += (range.empty() ? "(" : ", (") + index + ")";
    ref.args.push_back(value);
    if (d == 0 && !unsignedSeen)
      continue;
    std::string outside = "(" + index + ") < 0";
    if (d > 0)
      outside += " or (" + index + ") >= " + shape.extents[d - 1];
    state.flatChecks.push_back(
        {where,
         isl::set(state.scop.ctx,
                  state.paramPrefix + "{ " + tuple + " : " + outside + " }"),
         sub->getBeginLoc(), "'" + state.text(sub) + "'"});
  }
}

/// The target of an assignment; with `alsoRead` (`+=`, `++`, ...) it is
/// read first. Its subscripts are evaluated once, as in C.
ExprPtr BodyBuilder::writeRef(const clang::Expr *lhs, bool alsoRead) {
  if (!alsoRead)
    return arrayRef(lhs, Access::Kind::MustWrite);
  ExprPtr ref = arrayRef(lhs, Access::Kind::Read);
  Access write = current->accesses[ref->access];
  write.kind =
      write.isAffine() ? Access::Kind::MustWrite : Access::Kind::MayWrite;
  state.scop.arrays[write.array].isWritten = true;
  ref->access = current->accesses.size();
  current->accesses.push_back(write);
  return ref;
}

/// The array of `e` if it is a member array of a struct variable, `s.f`,
/// or of the struct a restrict pointer parameter points to, `g->val`
/// (its elements numbers or structs of one number type); nothing if `e`
/// is no member. Fails for other members: a member of a member, of an
/// element, of a pointer without restrict, or a member that is no array.
std::optional<unsigned> BodyBuilder::memberArray(const clang::Expr *e) {
  auto *m = dyn_cast<MemberExpr>(e->IgnoreParenImpCasts());
  if (!m)
    return std::nullopt;
  auto *field = dyn_cast<FieldDecl>(m->getMemberDecl());
  const VarDecl *var = varOf(m->getBase());
  if (!field || field->isBitField() || !var ||
      !isa<ConstantArrayType>(
          field->getType().getCanonicalType().getTypePtr()))
    state.fail(e->getBeginLoc(), Diag::StructField, state.text(e),
               e->getSourceRange());
  if (m->isArrow() && (!isa<ParmVarDecl>(var) ||
                       !var->getType().isRestrictQualified()))
    state.fail(e->getBeginLoc(), Diag::PointerAccess, var->getName(),
               e->getSourceRange());
  return arrays.arrayForMember(var, field, m->isArrow(), e->getBeginLoc());
}

/// The field of `P[i].x` (a MemberExpr on an element of an array, not
/// through `->`), or null.
const FieldDecl *BodyBuilder::fieldOfElement(const clang::Expr *e) {
  auto *member = dyn_cast<MemberExpr>(e->IgnoreParenImpCasts());
  if (!member || member->isArrow() ||
      !isa<ArraySubscriptExpr>(member->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return dyn_cast<FieldDecl>(member->getMemberDecl());
}

bool BodyBuilder::isArrayOrScalarRef(const clang::Expr *e) {
  e = e->IgnoreParenImpCasts();
  if (isa<ArraySubscriptExpr>(e) || fieldOfElement(e))
    return true;
  if (auto *var = varOf(e))
    return !state.loopOf(var) && !state.paramNames.count(var);
  return false;
}

/// Fails, naming the construct, if `e` dereferences a pointer, takes an
/// address or computes with a pointer.
void BodyBuilder::refusePointerUse(const clang::Expr *e) {
  e = e->IgnoreParenImpCasts();
  refusePointerArithmetic(e);
  if (auto *un = dyn_cast<UnaryOperator>(e)) {
    if (un->getOpcode() != UO_Deref && un->getOpcode() != UO_AddrOf)
      return;
    const clang::Expr *operand = un->getSubExpr()->IgnoreParenImpCasts();
    refusePointerArithmetic(operand);
    state.fail(e->getBeginLoc(), Diag::PointerAccess, state.text(operand),
               e->getSourceRange());
  }
}

/// Fails if `e` is a field of a struct or union (`p.x`, `g->val`,
/// `P[i].x`).
void BodyBuilder::refuseStructField(const clang::Expr *e) {
  if (isa<MemberExpr>(e->IgnoreParenImpCasts()))
    state.fail(e->getBeginLoc(), Diag::StructField, state.text(e),
               e->getSourceRange());
}

} // namespace polycuda::translator::scopbuilder
