//===- BuildState.cpp - What the parts of the scop builder share ----------===//
#include "ScopBuilderInternal.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/raw_ostream.h>

using namespace clang;

namespace polycuda::translator::scopbuilder {

namespace {

const std::set<std::string> kIslKeywords = {
    "and", "or", "not", "exists", "min", "max", "floor", "ceil", "mod",
    "true", "false", "infty", "NaN", "implies", "xor", "rat", "cst"};

} // namespace

/// `[lo, hi]`, the values of C integer type `type`.
std::pair<std::string, std::string> rangeOf(const ASTContext &ast,
                                            QualType type) {
  unsigned width = ast.getIntWidth(type);
  bool isUnsigned = type->isUnsignedIntegerType();
  llvm::SmallString<24> low, high;
  llvm::APSInt::getMinValue(width, isUnsigned).toString(low, 10);
  llvm::APSInt::getMaxValue(width, isUnsigned).toString(high, 10);
  return {low.str().str(), high.str().str()};
}

bool fitsIn(const ASTContext &ast, QualType from, QualType to) {
  unsigned fromWidth = ast.getIntWidth(from), toWidth = ast.getIntWidth(to);
  bool fromSigned = from->isSignedIntegerType();
  bool toSigned = to->isSignedIntegerType();
  if (fromSigned == toSigned)
    return fromWidth <= toWidth;
  return !fromSigned && fromWidth < toWidth;
}

void BuildState::fail(SourceLocation loc, Diag diag, StringRef arg,
                      SourceRange range) {
  if (probing)
    throw NotAffine();
  report(diags, loc, diag, arg, range);
  throw Abandon();
}

std::string BuildState::text(const clang::Expr *e) const {
  std::string s;
  llvm::raw_string_ostream os(s);
  e->printPretty(os, nullptr, ast.getPrintingPolicy());
  return os.str();
}

polyhedral::SourceLoc BuildState::locOf(SourceLocation loc) const {
  PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(loc));
  polyhedral::SourceLoc result;
  if (p.isValid()) {
    result.file = p.getFilename();
    result.line = p.getLine();
    result.col = p.getColumn();
  }
  return result;
}

std::optional<llvm::APSInt>
BuildState::constantOf(const clang::Expr *e) const {
  clang::Expr::EvalResult result;
  if (e->isValueDependent() || !e->EvaluateAsInt(result, ast))
    return std::nullopt;
  // Only values of a 64-bit signed integer: the model computes with them
  // as such (an unsigned 2^64 - 1 would otherwise become -1, and a loop
  // bounded by it would silently run no iteration).
  const llvm::APSInt &value = result.Val.getInt();
  if (value.isUnsigned() ? value.getActiveBits() > 63
                         : value.getSignificantBits() > 64)
    return std::nullopt;
  return value;
}

const Loop *BuildState::loopOf(const VarDecl *var) const {
  for (auto it = loops.rbegin(); it != loops.rend(); ++it)
    if (it->var == var)
      return &*it;
  return nullptr;
}

std::string BuildState::iterationTuple(const std::string &name) const {
  std::string tuple = name + "[";
  for (size_t i = 0; i < loops.size(); ++i)
    tuple += (i ? ", " : "") + loops[i].name;
  return tuple + "]";
}

isl::set BuildState::iterationDomain(const std::string &name) const {
  std::string cond;
  for (const std::string &c : constraints)
    cond += (cond.empty() ? "" : " and ") + c;
  isl::set domain(scop.ctx, paramPrefix + "{ " + iterationTuple(name) +
                               (cond.empty() ? "" : " : " + cond) + " }");
  for (const isl::set &set : loopSets) {
    // { name[i0, ..., in] -> L[i0, ..., ik] }
    std::string prefix = "L[";
    for (unsigned d = 0; d < set.tuple_dim(); ++d)
      prefix += (d ? ", " : "") + loops[d].name;
    isl::map outer(scop.ctx, paramPrefix + "{ " + iterationTuple(name) +
                                 " -> " + prefix + "] }");
    domain = domain.intersect(set.apply(outer.reverse()));
  }
  return domain;
}

isl::set BuildState::paramRanges() const {
  std::string cond;
  for (const auto &[param, name] : paramNames) {
    auto [low, high] = rangeOf(ast, param->getType());
    cond += (cond.empty() ? "" : " and ") + low + " <= " + name + " <= " + high;
  }
  return isl::set(scop.ctx, paramPrefix + "{ : " + cond + " }");
}

std::string BuildState::freshIslName(const std::string &base) {
  std::string name = base;
  if (kIslKeywords.count(name))
    name = "_" + name;
  std::string candidate = name;
  for (int i = 1; usedIslNames.count(candidate); ++i)
    candidate = name + "_" + std::to_string(i);
  usedIslNames.insert(candidate);
  return candidate;
}

const VarDecl *loopVariable(const ForStmt *loop) {
  if (auto *decl = dyn_cast_or_null<DeclStmt>(loop->getInit()))
    return decl->isSingleDecl() ? dyn_cast<VarDecl>(decl->getSingleDecl())
                                : nullptr;
  if (auto *assign = dyn_cast_or_null<BinaryOperator>(loop->getInit()))
    return assign->getOpcode() == BO_Assign ? varOf(assign->getLHS())
                                            : nullptr;
  return nullptr;
}

const VarDecl *varOf(const clang::Expr *e) {
  if (auto *ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(ref->getDecl());
  return nullptr;
}

const clang::Expr *writtenBy(const clang::Stmt *s) {
  if (auto *bin = dyn_cast<BinaryOperator>(s); bin && bin->isAssignmentOp())
    return bin->getLHS();
  if (auto *un = dyn_cast<UnaryOperator>(s);
      un && un->isIncrementDecrementOp())
    return un->getSubExpr();
  return nullptr;
}

void forEachStmt(const clang::Stmt *s,
                 const std::function<void(const clang::Stmt *)> &f) {
  if (!s)
    return;
  f(s);
  for (const clang::Stmt *child : s->children())
    forEachStmt(child, f);
}

} // namespace polycuda::translator::scopbuilder
