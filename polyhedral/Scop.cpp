//===- Scop.cpp - The polyhedral model of one #pragma scop region ---------===//
//
// Stage: plain data shared by every stage; see Scop.h.
//
//===----------------------------------------------------------------------===//
#include "Scop.h"

#include "IslExtras.h"

#include <set>
#include <sstream>

namespace polycuda::polyhedral {

std::string SourceLoc::str() const {
  return file + ":" + std::to_string(line) + ":" + std::to_string(col);
}

unsigned elementBytes(ElemType type) {
  switch (type) {
  case ElemType::Char:
  case ElemType::UChar:
    return 1;
  case ElemType::Short:
  case ElemType::UShort:
    return 2;
  case ElemType::Int:
  case ElemType::UInt:
  case ElemType::Float:
    return 4;
  case ElemType::Long:
  case ElemType::ULong:
  case ElemType::Double:
    return 8;
  }
  return 8;
}

const char *spell(ElemType type) {
  switch (type) {
  case ElemType::Char:
    return "char";
  case ElemType::UChar:
    return "unsigned char";
  case ElemType::Short:
    return "short";
  case ElemType::UShort:
    return "unsigned short";
  case ElemType::UInt:
    return "unsigned int";
  case ElemType::Int:
    return "int";
  case ElemType::Long:
    return "long";
  case ElemType::ULong:
    return "unsigned long";
  case ElemType::Float:
    return "float";
  case ElemType::Double:
    return "double";
  }
  return "double";
}

isl::union_set Scop::domain() const {
  isl::union_set result = isl::union_set::empty(ctx);
  for (const Statement &stmt : statements)
    result = result.unite(isl::union_set(stmt.domain));
  return result.intersect_params(context);
}

static bool isSelected(Access::Kind kind, bool reads, bool mustWrites,
                       bool mayWrites) {
  switch (kind) {
  case Access::Kind::Read:
    return reads;
  case Access::Kind::MustWrite:
    return mustWrites;
  case Access::Kind::MayWrite:
    return mayWrites;
  }
  return false;
}

isl::union_map Scop::accesses(bool reads, bool mustWrites, bool mayWrites,
                              int array) const {
  isl::union_map result = isl::union_map::empty(ctx);
  for (const Statement &stmt : statements)
    for (const Access &access : stmt.accesses)
      if (isSelected(access.kind, reads, mustWrites, mayWrites) &&
          (array < 0 || access.array == unsigned(array)))
        result = result.unite(
            isl::union_map(access.relation.intersect_domain(stmt.domain)));
  return result.intersect_params(context);
}

isl::union_map Scop::taggedAccesses(bool reads, bool mustWrites,
                                    bool mayWrites, int array) const {
  isl::union_map result = isl::union_map::empty(ctx);
  for (const Statement &stmt : statements) {
    // References of one statement with the same kind and relation give the
    // same dependences; the first one stands for all of them.
    std::set<std::pair<int, std::string>> seen;
    for (size_t i = 0; i < stmt.accesses.size(); ++i) {
      const Access &access = stmt.accesses[i];
      if (!isSelected(access.kind, reads, mustWrites, mayWrites) ||
          (array >= 0 && access.array != unsigned(array)))
        continue;
      if (!seen.insert({(int)access.kind, toString(access.relation)}).second)
        continue;
      isl::map rel = access.relation.intersect_domain(stmt.domain);
      isl::set tagSet = isl::set::universe(
          namedSetSpace(ctx, stmt.name + "_ref" + std::to_string(i), 0));
      isl::map tagMap = mapFromDomainAndRange(rel.domain(), tagSet);
      result = result.unite(isl::union_map(tagMap.domain_map().apply_range(rel)));
    }
  }
  return result.intersect_params(context);
}

const Statement *Scop::findStatement(const std::string &name) const {
  for (const Statement &stmt : statements)
    if (stmt.name == name)
      return &stmt;
  return nullptr;
}

int Scop::findArray(const std::string &name) const {
  for (size_t i = 0; i < arrays.size(); ++i)
    if (arrays[i].name == name)
      return i;
  return -1;
}

const char *roleName(StatementRole role) {
  switch (role) {
  case StatementRole::Source:
    return "source";
  case StatementRole::DataCondition:
    return "data_condition";
  case StatementRole::BreakReset:
    return "break_reset";
  case StatementRole::BreakTaken:
    return "break_taken";
  case StatementRole::IteratorExit:
    return "iterator_exit";
  }
  return "source";
}

std::string Scop::str() const {
  std::ostringstream os;
  os << "scop in " << functionName << " at " << loc.str() << "\n";
  os << "context: " << toString(context) << "\n";
  for (const Array &array : arrays) {
    os << "array " << spell(array.type) << " " << array.name;
    for (const isl::pw_aff &extent : array.extents)
      os << "[" << toString(extent) << "]";
    os << (array.isRead ? " read" : "") << (array.isWritten ? " written" : "")
       << "\n";
  }
  for (const Statement &stmt : statements) {
    os << stmt.name << " (" << stmt.loc.str() << ")\n  domain: "
       << toString(stmt.domain) << "\n";
    for (const Access &access : stmt.accesses) {
      const char *kind = access.kind == Access::Kind::Read        ? "read"
                         : access.kind == Access::Kind::MustWrite ? "write"
                                                                  : "may-write";
      os << "  " << kind << (access.isAffine() ? "" : " (non-affine)") << ": "
         << toString(access.relation) << "\n";
    }
  }
  os << "schedule: " << toString(originalSchedule) << "\n";
  return os.str();
}

} // namespace polycuda::polyhedral
