//===- ArrayBuilder.cpp - Arrays and scalars from their declarations ------===//
//
// Every variable a statement body references that is neither a loop
// iterator nor a parameter is an array of the scop (a scalar is an array of
// rank 0): its element type and the extent of each dimension, constant or a
// function of the parameters, come from its declaration.
//
//===----------------------------------------------------------------------===//
#include "ScopBuilderInternal.h"

#include "IslExtras.h"


using namespace clang;

namespace polycuda::translator::scopbuilder {

using polyhedral::ElemType;

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
    case BuiltinType::UShort:
      return ElemType::UShort;
    case BuiltinType::Char_S:
    case BuiltinType::Char_U:
    case BuiltinType::SChar:
      return ElemType::Char;
    case BuiltinType::UChar:
    // `bool` (_Bool) is stored as one byte holding 0 or 1; every
    // conversion to it is printed as `!= 0` (BodyBuilder::toBool).
    case BuiltinType::Bool:
      return ElemType::UChar;
    case BuiltinType::Long:
    case BuiltinType::LongLong:
      return ElemType::Long;
    case BuiltinType::ULong:
    case BuiltinType::ULongLong:
      return ElemType::ULong;
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

unsigned ArrayBuilder::arrayFor(const VarDecl *var, SourceLocation useLoc) {
  auto it = arrayIds.find(var);
  if (it != arrayIds.end())
    return it->second;
  polyhedral::Array array;
  array.name = nameFor(var);
  array.declLoc = state.locOf(var->getLocation());
  QualType type = var->getType();
  if (auto *parm = dyn_cast<ParmVarDecl>(var))
    type = parm->getOriginalType();
  std::vector<isl::pw_aff> extents;
  const clang::Type *t = type.getCanonicalType().getTypePtr();
  bool first = true;
  if (auto *pointer = dyn_cast<PointerType>(t)) {
    // `double *restrict x`, `double (*restrict A)[M]`: the programmer
    // states that no other name reaches its elements, so it is an array
    // whose first extent is unknown, as `double A[][M]`. Without
    // `restrict` it may alias the scop's other arrays: refused.
    if (!isa<ParmVarDecl>(var) || !var->getType().isRestrictQualified())
      state.fail(useLoc, Diag::PointerAccess, array.name);
    array.firstExtentKnown = false;
    extents.push_back(
        isl::pw_aff(state.scop.ctx, state.paramPrefix + "{ [(0)] }"));
    first = false;
    t = pointer->getPointeeType().getCanonicalType().getTypePtr();
  }
  while (auto *at = dyn_cast<clang::ArrayType>(t)) {
    extents.push_back(extentOf(at, first, var, array));
    first = false;
    t = at->getElementType().getCanonicalType().getTypePtr();
  }
  if (isa<PointerType>(t))
    state.fail(useLoc, Diag::PointerAccess, array.name);
  array.isLocal = localVars.count(var) > 0;
  // A flat array indexed `A[i * m + j]`: the dimensions its subscripts
  // fit (Delinearization.cpp).
  auto flat = state.flatShapes.find(var);
  if (flat != state.flatShapes.end() && flat->second.fits &&
      extents.size() == 1 &&
      !array.firstExtentKnown) {
    for (const std::string &extent : flat->second.extents)
      extents.push_back(isl::pw_aff(
          state.scop.ctx, state.paramPrefix + "{ [(" + extent + ")] }"));
    array.delinearized = true;
  }
  unsigned id = addArray(array, extents, t, useLoc, var);
  arrayIds[var] = id;
  return id;
}

/// The array of the member `field` of struct variable `var` (`g->val`,
/// `s.f`), created on first use: its own array of the scop, named
/// `<var>_<field>` (Array::source says how the host reaches it).
unsigned ArrayBuilder::arrayForMember(const VarDecl *var,
                                      const FieldDecl *field, bool arrow,
                                      SourceLocation useLoc) {
  auto it = memberIds.find({var, field});
  if (it != memberIds.end())
    return it->second;
  polyhedral::Array array;
  array.source = var->getName().str() + (arrow ? "->" : ".") +
                 field->getName().str();
  std::string base = var->getName().str() + "_" + field->getName().str();
  array.name = base;
  auto taken = [&](const std::string &candidate) {
    for (const polyhedral::Array &a : state.scop.arrays)
      if (a.name == candidate)
        return true;
    return reserved.count(candidate) || functionNames.count(candidate);
  };
  for (int i = 1; taken(array.name); ++i)
    array.name = base + "_" + std::to_string(i);
  array.declLoc = state.locOf(field->getLocation());
  std::vector<isl::pw_aff> extents;
  const clang::Type *t = field->getType().getCanonicalType().getTypePtr();
  bool first = true;
  while (auto *at = dyn_cast<clang::ArrayType>(t)) {
    if (!isa<ConstantArrayType>(at))
      state.fail(useLoc, Diag::StructField, array.source);
    extents.push_back(extentOf(at, first, var, array));
    first = false;
    t = at->getElementType().getCanonicalType().getTypePtr();
  }
  if (extents.empty())
    state.fail(useLoc, Diag::StructField, array.source);
  unsigned id = addArray(array, extents, t, useLoc, var);
  memberIds[{var, field}] = id;
  return id;
}

/// Completes `array` with its `extents` and element type `t` (an array of
/// structs of one number type gets the field as one more dimension), adds
/// it to the scop and returns its id.
unsigned ArrayBuilder::addArray(polyhedral::Array &array,
                                std::vector<isl::pw_aff> extents,
                                const clang::Type *t, SourceLocation useLoc,
                                const VarDecl *var) {
  if (auto *record = dyn_cast<RecordType>(t)) {
    // An array of structs whose fields all have one scalar type, without
    // padding: one more dimension, the field (P[i].y is P[i][1]).
    const RecordDecl *decl = record->getDecl()->getDefinition();
    std::optional<QualType> field;
    bool uniform = decl && decl->isStruct() && !extents.empty();
    if (uniform)
      for (const FieldDecl *f : decl->fields()) {
        QualType ft = f->getType().getCanonicalType().getUnqualifiedType();
        uniform &= !f->isBitField() && ft->isBuiltinType() &&
                   elemTypeOf(ft).has_value() && (!field || *field == ft);
        field = ft;
        array.fields.push_back(f->getName().str());
      }
    uniform &= field.has_value() &&
               state.ast.getTypeSize(QualType(t, 0)) ==
                   state.ast.getTypeSize(*field) * array.fields.size();
    if (!uniform)
      state.fail(useLoc, Diag::StructLayout, array.name);
    extents.push_back(isl::pw_aff(
        state.scop.ctx, state.paramPrefix + "{ [(" +
                            std::to_string(array.fields.size()) + ")] }"));
    t = field->getTypePtr();
  }
  auto elem = elemTypeOf(QualType(t, 0));
  if (!elem)
    state.fail(var->getLocation(), Diag::UnsupportedType,
               QualType(t, 0).getAsString());
  array.type = *elem;
  array.extents = extents;
  unsigned id = state.scop.arrays.size();
  state.scop.arrays.push_back(array);
  return id;
}

/// The name of `var` in the scop: its own, unless it is declared in the
/// scop and another variable of the scop (in a sibling block, or outside
/// and shadowed) has that name; then a fresh one, new in the function.
std::string ArrayBuilder::nameFor(const VarDecl *var) const {
  std::string name = var->getName().str();
  auto taken = [&](const std::string &candidate) {
    for (const polyhedral::Array &array : state.scop.arrays)
      if (array.name == candidate)
        return true;
    return false;
  };
  if (!localVars.count(var) || (!taken(name) && !reserved.count(name)))
    return name;
  std::string candidate;
  for (int i = 1;; ++i) {
    candidate = name + "_" + std::to_string(i);
    if (!taken(candidate) && !reserved.count(candidate) &&
        !functionNames.count(candidate))
      return candidate;
  }
}

/// The extent of the dimension of `var` whose type is `type` (`first`: the
/// outermost one); notes in `array` whether it is known and variable.
isl::pw_aff ArrayBuilder::extentOf(const clang::ArrayType *type, bool first,
                                   const VarDecl *var,
                                   polyhedral::Array &array) {
  const std::string &paramPrefix = state.paramPrefix;
  isl::ctx ctx = state.scop.ctx;
  isl::pw_aff extent;
  if (auto *cat = dyn_cast<ConstantArrayType>(type)) {
    std::string size = std::to_string(cat->getSize().getZExtValue());
    extent = isl::pw_aff(ctx, paramPrefix + "{ [(" + size + ")] }");
  } else if (auto *vat = dyn_cast<VariableArrayType>(type)) {
    array.isVariableLength = true;
    if (vat->getSizeExpr()) {
      std::string size =
          affine.expression(vat->getSizeExpr(), Diag::NonAffineExpression);
      extent = isl::pw_aff(ctx, paramPrefix + "{ [" + size + "] }");
    }
  }
  if (extent.is_null()) {
    if (!first)
      state.fail(var->getLocation(), Diag::UnknownArrayExtent, array.name);
    // Only inner extents are needed to linearize subscripts.
    array.firstExtentKnown = false;
    extent = isl::pw_aff(ctx, paramPrefix + "{ [(0)] }");
  }
  return extent;
}

isl::set wholeExtent(const polyhedral::Array &array,
                     const polyhedral::Access &access) {
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

void ArrayBuilder::markUsedAfter(FunctionDecl *function, unsigned endOffset) {
  std::set<const VarDecl *> after;
  SourceManager &sm = state.sm;
  forEachStmt(function->getBody(), [&](const Stmt *s) {
    if (auto *ref = dyn_cast<DeclRefExpr>(s))
      if (auto *var = dyn_cast<VarDecl>(ref->getDecl()))
        if (sm.getFileOffset(sm.getExpansionLoc(ref->getBeginLoc())) >
            endOffset)
          after.insert(var);
  });
  for (auto &[var, id] : arrayIds)
    state.scop.arrays[id].usedAfterScop = var->hasGlobalStorage() ||
                                          after.count(var) ||
                                          isa<ParmVarDecl>(var);
}

} // namespace polycuda::translator::scopbuilder
