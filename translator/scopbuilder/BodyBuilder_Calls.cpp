//===- BodyBuilder_Calls.cpp - Calls in statement bodies ------------------===//
//
// Calls of math functions print as the target's; a call of a function
// defined in the input is inlined when its body is one return of an
// expression, or kept as a call of a device function when it is pure.
//
//===----------------------------------------------------------------------===//
#include "ScopBuilderInternal.h"

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

} // namespace

/// Whether `name` is a math function of C that every target has.
bool isMathFunction(const std::string &name) {
  return kMathFunctions.count(name) != 0;
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
  if (fn && !isMathFunction(name))
    if (const FunctionDecl *definition = fn->getDefinition())
      if (auto *body = dyn_cast_or_null<CompoundStmt>(definition->getBody());
          body && body->size() == 1)
        if (auto *ret = dyn_cast<ReturnStmt>(body->body_front());
            ret && ret->getRetValue())
          return inlinedCall(call, definition, ret->getRetValue());
  if (fn && !isMathFunction(name))
    if (const FunctionDecl *definition = fn->getDefinition())
      if (definition->getBody())
        return functionCall(call, definition);
  if (!fn || !isMathFunction(name))
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
      if (fn && isMathFunction(callee))
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

} // namespace polycuda::translator::scopbuilder
