//===- Delinearization.cpp - Flat subscripts as multi-dimensional ones ----===//
//
// C programs often keep a matrix in a flat array reached through a pointer
// and index it by hand: `A[i * m + j]`, `A[(i - 1) * m + j]`, or
// `A[(i * n + j) * m + k]` for three dimensions (m, n parameters). Such a
// subscript is not affine, but it is a polynomial in the loop iterators
// and parameters whose terms have a common structure: every term with an
// iterator multiplies it by one of a chain of products of parameters,
// 1 | m | n * m | ... (the strides), each the one before times one more
// parameter. The array is then read as one of shape `[*][n][m]`, and the
// subscript as `A[i][j][k]` (Polly's delinearization, Grosser et al. ICS
// 2015, restricted to parameter strides).
//
// The multi-dimensional reading is exact where each index but the first
// stays within its extent (0 <= j < m): two different index tuples then
// name different elements, as in the flat array. The builder records that
// condition for each reference (BuildState::RangeCheck); the scop assumes
// it, and the printed code checks it and runs the original statements
// where it fails (Scop::assumed).
//
//===----------------------------------------------------------------------===//
#include "ScopBuilderInternal.h"

#include <algorithm>

using namespace clang;

namespace polycuda::translator::scopbuilder {

namespace {

/// `a` includes every parameter of `b` (as many times).
bool divides(const std::vector<std::string> &b,
             const std::vector<std::string> &a) {
  return std::includes(a.begin(), a.end(), b.begin(), b.end());
}

std::vector<std::string> quotient(const std::vector<std::string> &a,
                                  const std::vector<std::string> &b) {
  std::vector<std::string> q;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(),
                      std::back_inserter(q));
  return q;
}

void add(Polynomial &p, const FlatTerm &term, long coeff) {
  long &c = p[term];
  c += coeff;
  if (c == 0)
    p.erase(term);
}

/// An integer type polycuda can delinearize through: signed, or unsigned
/// of 64 bits (whose wrap-around changes no value the check accepts).
bool usableType(const BuildState &state, QualType type, bool &isUnsigned) {
  if (!type->isIntegerType() || type->isBooleanType())
    return false;
  if (type->isUnsignedIntegerType()) {
    isUnsigned = true;
    return state.ast.getIntWidth(type) >= 64;
  }
  return true;
}

/// The flat arrays: a pointer to numbers or an array of unknown extent of
/// numbers, indexed with one subscript.
bool isFlat(const VarDecl *var) {
  QualType type = var->getType();
  if (auto *parm = dyn_cast<ParmVarDecl>(var))
    type = parm->getOriginalType();
  const clang::Type *t = type.getCanonicalType().getTypePtr();
  QualType element;
  if (auto *pointer = dyn_cast<PointerType>(t))
    element = pointer->getPointeeType();
  else if (auto *incomplete = dyn_cast<IncompleteArrayType>(t))
    element = incomplete->getElementType();
  else
    return false;
  return element.getCanonicalType()->isArithmeticType();
}

} // namespace

std::optional<Polynomial>
polynomialOf(const BuildState &state, const clang::Expr *e,
             bool &unsignedSeen) {
  e = e->IgnoreParens();
  if (!usableType(state, e->getType(), unsignedSeen))
    return std::nullopt;
  if (auto value = state.constantOf(e)) {
    if (value->getSignificantBits() > 63)
      return std::nullopt;
    Polynomial p;
    add(p, FlatTerm{}, value->getExtValue());
    return p;
  }
  if (auto *cast = dyn_cast<CastExpr>(e)) {
    // Integer conversions that keep every value, or wrap it modulo 2^64.
    const clang::Expr *sub = cast->getSubExpr();
    bool ignored = false;
    if (!usableType(state, sub->getType(), ignored) ||
        (!fitsIn(state.ast, sub->getType(), cast->getType()) &&
         state.ast.getIntWidth(cast->getType()) < 64))
      return std::nullopt;
    return polynomialOf(state, sub, unsignedSeen);
  }
  if (auto *ref = dyn_cast<DeclRefExpr>(e)) {
    auto *var = dyn_cast<VarDecl>(ref->getDecl());
    if (!var)
      return std::nullopt;
    Polynomial p;
    auto param = state.paramNames.find(var);
    if (param != state.paramNames.end())
      add(p, FlatTerm{{param->second}, nullptr}, 1);
    else
      add(p, FlatTerm{{}, var}, 1);
    return p;
  }
  if (auto *un = dyn_cast<UnaryOperator>(e)) {
    if (un->getOpcode() == UO_Plus)
      return polynomialOf(state, un->getSubExpr(), unsignedSeen);
    if (un->getOpcode() == UO_Minus) {
      auto p = polynomialOf(state, un->getSubExpr(), unsignedSeen);
      if (p)
        for (auto &[term, c] : *p)
          c = -c;
      return p;
    }
    return std::nullopt;
  }
  auto *bin = dyn_cast<BinaryOperator>(e);
  if (!bin)
    return std::nullopt;
  auto l = polynomialOf(state, bin->getLHS(), unsignedSeen);
  auto r = polynomialOf(state, bin->getRHS(), unsignedSeen);
  if (!l || !r)
    return std::nullopt;
  switch (bin->getOpcode()) {
  case BO_Add:
  case BO_Sub:
    for (auto &[term, c] : *r)
      add(*l, term, bin->getOpcode() == BO_Add ? c : -c);
    return l;
  case BO_Mul: {
    Polynomial p;
    for (auto &[a, ca] : *l)
      for (auto &[b, cb] : *r) {
        // At most one variable other than the parameters per term.
        if (a.var && b.var)
          return std::nullopt;
        FlatTerm t{a.params, a.var ? a.var : b.var};
        t.params.insert(t.params.end(), b.params.begin(), b.params.end());
        std::sort(t.params.begin(), t.params.end());
        add(p, t, ca * cb);
      }
    return p;
  }
  default:
    return std::nullopt;
  }
}

std::optional<std::vector<Polynomial>> splitByShape(const FlatShape &shape,
                                                    const Polynomial &p) {
  size_t dims = shape.strides.size();
  std::vector<Polynomial> indices(dims);
  for (const auto &[term, c] : p) {
    // The largest stride the term's parameters include.
    size_t s = dims;
    while (s-- > 0)
      if (divides(shape.strides[s], term.params))
        break;
    FlatTerm index{quotient(term.params, shape.strides[s]), term.var};
    if (index.params.size() + (index.var ? 1 : 0) > 1)
      return std::nullopt;
    add(indices[dims - 1 - s], index, c);
  }
  // A column that is a negative constant is the end of the row before:
  // A[i * m + m - 1] is A[i + 1][-1] above, A[i][m - 1] here.
  for (size_t d = dims - 1; d > 0; --d) {
    Polynomial &index = indices[d];
    if (index.size() != 1 || index.begin()->first.var ||
        !index.begin()->first.params.empty() || index.begin()->second >= 0)
      continue;
    add(index, FlatTerm{{shape.extents[d - 1]}, nullptr}, 1);
    add(indices[d - 1], FlatTerm{}, -1);
  }
  return indices;
}

void findFlatShapes(BuildState &state, const std::vector<Stmt *> &stmts) {
  std::map<const VarDecl *, std::set<std::vector<std::string>>> strides;
  std::set<const VarDecl *> unusable;
  /// Flat arrays with a subscript that multiplies parameters.
  std::set<const VarDecl *> products;
  auto visit = [&](const Stmt *s) {
    auto *sub = dyn_cast<ArraySubscriptExpr>(s);
    if (!sub)
      return;
    auto *ref = dyn_cast<DeclRefExpr>(sub->getBase()->IgnoreParenImpCasts());
    auto *var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    if (!var || !isFlat(var))
      return;
    bool unsignedSeen = false;
    auto p = polynomialOf(state, sub->getIdx(), unsignedSeen);
    if (!p) {
      unusable.insert(var);
      return;
    }
    for (const auto &[term, c] : *p) {
      if (term.var)
        strides[var].insert(term.params);
      if (term.params.size() + (term.var ? 1 : 0) > 1)
        products.insert(var);
    }
  };
  for (Stmt *s : stmts)
    forEachStmt(s, visit);
  // Products of parameters alone (A[(n - 1) * m + 1]) give no stride.
  for (const VarDecl *var : products)
    if (!strides.count(var) && !unusable.count(var))
      state.flatShapes[var] = FlatShape{};
  for (auto &[var, set] : strides) {
    if (unusable.count(var))
      continue;
    FlatShape shape;
    shape.strides.push_back({});
    for (const std::vector<std::string> &stride : set)
      if (!stride.empty())
        shape.strides.push_back(stride);
    // A chain, each stride one parameter more than the one before.
    std::sort(shape.strides.begin(), shape.strides.end(),
              [](const auto &a, const auto &b) { return a.size() < b.size(); });
    bool chain = shape.strides.size() > 1;
    for (size_t s = 1; s < shape.strides.size(); ++s)
      chain &= shape.strides[s].size() == shape.strides[s - 1].size() + 1 &&
               divides(shape.strides[s - 1], shape.strides[s]);
    if (!chain) {
      if (shape.strides.size() > 1)
        state.flatShapes[var] = FlatShape{};
      continue;
    }
    shape.fits = true;
    for (size_t s = shape.strides.size() - 1; s > 0; --s)
      shape.extents.push_back(
          quotient(shape.strides[s], shape.strides[s - 1]).front());
    state.flatShapes[var] = shape;
  }
}

} // namespace polycuda::translator::scopbuilder
