//===- BodyBuilder_References.cpp - Array references ----------------------===//
//
// References to array elements, scalars and struct fields, and the
// Accesses of the statement they become: affine, may-accesses of
// non-affine subscripts, delinearized flat subscripts.
//
//===----------------------------------------------------------------------===//
#include "ScopBuilderInternal.h"

using namespace clang;

namespace polycuda::translator::scopbuilder {

using polyhedral::Access;
using polyhedral::Expr;
using polyhedral::ExprPtr;

/// The array that the reference `e` names, with its subscripts (outermost
/// first) and the field of a struct element it reads; fails on what is
/// no array reference or does not match the array's declaration.
BodyBuilder::ReferencedArray
BodyBuilder::referencedArray(const clang::Expr *e) {
  ReferencedArray r;
  const clang::Expr *base = e->IgnoreParenImpCasts();
  r.field = fieldOfElement(base);
  if (r.field)
    base = cast<MemberExpr>(base)->getBase()->IgnoreParenImpCasts();
  while (auto *sub = dyn_cast<ArraySubscriptExpr>(base)) {
    r.subscripts.insert(r.subscripts.begin(), sub->getIdx());
    base = sub->getBase()->IgnoreParenImpCasts();
  }
  r.var = varOf(base);
  std::optional<unsigned> member = memberArray(base);
  if (!r.var && !member) {
    refusePointerUse(base);
    refuseStructField(base);
    state.fail(base->getBeginLoc(), Diag::UnsupportedExpression,
               "'" + state.text(base) + "'", base->getSourceRange());
  }
  const polyhedral::Scop &scop = state.scop;
  r.id = member ? *member : arrays.arrayFor(r.var, base->getBeginLoc());
  const polyhedral::Array &array = scop.arrays[r.id];
  r.rank = array.rank();
  // A field of an element of an array of structs, or the whole element.
  if (!array.fields.empty() && !r.field)
    state.fail(e->getBeginLoc(), Diag::WholeStruct, state.text(e),
               e->getSourceRange());
  if (r.field)
    --r.rank;
  // A delinearized array is indexed with one flat subscript.
  r.flat = array.delinearized;
  // (A member array is no flat one: var is its struct.)
  if (member)
    r.var = nullptr;
  if (r.subscripts.size() != (r.flat ? 1 : r.rank))
    state.fail(e->getBeginLoc(), Diag::UnsupportedExpression,
               "an access to '" + array.name + "' with " +
                   std::to_string(r.subscripts.size()) +
                   " subscripts (declared with " +
                   std::to_string(r.flat ? 1 : r.rank) + ")",
               e->getSourceRange());
  return r;
}

/// The subscripts of `r` (not flat) as the range of its access relation,
/// `range`, and as the arguments of `ref`. A subscript that is not affine
/// stands for a fresh isl name, added to `anyIndex`, and is recorded in
/// `access`.
void BodyBuilder::subscriptIndices(const ReferencedArray &r, Access &access,
                                   Expr &ref, std::string &range,
                                   std::vector<std::string> &anyIndex) {
  // No reference to the array across value(): it may add arrays.
  for (size_t d = 0; d < r.subscripts.size(); ++d) {
    const clang::Expr *sub = r.subscripts[d];
    std::optional<std::string> index = affine.expressionOrNone(sub);
    // A flat subscript of an array whose subscripts fit no one shape.
    if (!index && state.flatShapes.count(r.var))
      state.fail(sub->getBeginLoc(), Diag::FlatSubscript,
                 "'" + state.text(sub) + "'", sub->getSourceRange());
    if (!index) {
      // Without a first extent there is no whole extent to access.
      if (d == 0 && !state.scop.arrays[r.id].firstExtentKnown)
        state.fail(sub->getBeginLoc(), Diag::NonAffineSubscript,
                   state.text(sub), sub->getSourceRange());
      access.nonAffineSubscripts.resize(r.rank);
      access.nonAffineSubscripts[d] = state.text(sub);
      index = state.freshIslName("a" + std::to_string(d));
      anyIndex.push_back(*index);
    }
    range += (range.empty() ? "" : ", ") + *index;
    ref.args.push_back(value(sub));
  }
}

/// A reference to an array element or scalar and its Access of `kind`.
/// A subscript that is not affine may be any integer expression (e.g.
/// `idx[i]`, `i * i`): its reads become Accesses of the statement, and the
/// reference accesses the whole extent of that dimension (a may-access;
/// a write becomes a MayWrite).
ExprPtr BodyBuilder::arrayRef(const clang::Expr *e, Access::Kind kind) {
  ReferencedArray r = referencedArray(e);
  polyhedral::Scop &scop = state.scop;
  // Not a reference: value() below may add arrays to scop.arrays.
  const std::string name = scop.arrays[r.id].name;
  ExprPtr ref = makeExpr(Expr::Kind::ArrayRef);
  ref->name = name;
  Access access;
  access.array = r.id;
  std::string range;
  std::vector<std::string> anyIndex; // isl names of the non-affine dims
  if (r.flat)
    flatIndices(r.subscripts[0], r.var, *ref, range);
  else
    subscriptIndices(r, access, *ref, range, anyIndex);
  if (r.field) {
    // The field's position in the struct: a constant last subscript.
    std::string index = std::to_string(r.field->getFieldIndex());
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
        access.relation.intersect_range(wholeExtent(scop.arrays[r.id], access));
  access.kind = kind == Access::Kind::MustWrite && !access.isAffine()
                    ? Access::Kind::MayWrite
                    : kind;
  if (kind == Access::Kind::Read)
    scop.arrays[r.id].isRead = true;
  else
    scop.arrays[r.id].isWritten = true;
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
