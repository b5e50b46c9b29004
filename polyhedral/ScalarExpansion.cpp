//===- ScalarExpansion.cpp - Privatize scalars by expansion ---------------===//
//
// Stage 0 (see ScalarExpansion.h). The test for depth l is exact: every flow
// dependence on the scalar (isl's last-writer relation) must connect
// instances with equal values of the l common iterators, and no read may be
// without a writer in the scop (live-in).
//
//===----------------------------------------------------------------------===//
#include "ScalarExpansion.h"

#include "Dependences.h"
#include "IslExtras.h"

namespace polycuda::polyhedral {

namespace {

/// Number of loops all statements in `stmts` share (same positions in the
/// 2d+1 schedule at every outer level).
unsigned commonLoops(const std::vector<Statement *> &stmts) {
  unsigned depth = stmts[0]->iterators.size();
  for (Statement *stmt : stmts)
    depth = std::min<unsigned>(depth, stmt->iterators.size());
  unsigned shared = 0;
  while (shared < depth) {
    bool same = true;
    for (Statement *stmt : stmts)
      same &= stmt->beta[shared] == stmts[0]->beta[shared];
    if (!same)
      break;
    ++shared;
  }
  return shared;
}

/// `{ S[i] -> T[j] : i_0 = j_0, ..., i_{l-1} = j_{l-1} }` holds for `deps`?
bool isWithinIterations(const isl::union_map &deps, unsigned l) {
  for (const isl::map &map : mapsOf(deps)) {
    isl_map *raw = map.copy();
    for (unsigned d = 0; d < l; ++d)
      raw = isl_map_equate(raw, isl_dim_in, d, isl_dim_out, d);
    isl::map equal = isl::manage(raw);
    if (!map.is_subset(equal))
      return false;
  }
  return true;
}

void setSubscripts(const ExprPtr &expr, const std::string &array,
                   const std::vector<std::string> &iterators) {
  if (!expr)
    return;
  if (expr->kind == Expr::Kind::ArrayRef && expr->name == array) {
    expr->args.clear();
    for (const std::string &it : iterators) {
      auto node = std::make_shared<Expr>();
      node->kind = Expr::Kind::Iterator;
      node->name = it;
      expr->args.push_back(node);
    }
  }
  for (const ExprPtr &arg : expr->args)
    setSubscripts(arg, array, iterators);
}

} // namespace

std::vector<ScalarExpansion> expandScalars(Scop &scop) {
  std::vector<ScalarExpansion> result;
  bool anyCandidate = false;
  for (const Array &array : scop.arrays)
    anyCandidate |= array.rank() == 0 && array.isWritten;
  if (!anyCandidate)
    return result;
  Dependences deps = computeDependences(scop);
  // Reads without a writer in the scop: { [S[i] -> ref[]] -> A[] }.
  isl::union_map reads = scop.taggedAccesses(true, false, false);
  isl::union_map mustWrites = scop.taggedAccesses(false, true, false);
  isl::union_map mayWrites = scop.taggedAccesses(false, false, true);
  isl::union_map tagDomains =
      reads.unite(mustWrites).unite(mayWrites).domain().unwrap();
  isl::union_access_info info(reads);
  info = info.set_must_source(mustWrites);
  info = info.set_may_source(mayWrites);
  info = info.set_schedule_map(
      tagDomains.domain_map().apply_range(scop.originalSchedule));
  isl::union_map liveIn = info.compute_flow().get_may_no_source();

  for (unsigned a = 0; a < scop.arrays.size(); ++a) {
    Array &array = scop.arrays[a];
    if (array.rank() != 0 || !array.isWritten)
      continue;
    ScalarExpansion record;
    record.array = array.name;
    std::vector<Statement *> stmts;
    for (Statement &stmt : scop.statements)
      for (const Access &access : stmt.accesses)
        if (access.array == a) {
          stmts.push_back(&stmt);
          break;
        }
    isl::space space = namedSetSpace(scop.ctx, array.name, 0);
    bool isLiveIn = !liveIn.range()
                         .intersect(isl::union_set(isl::set::universe(space)))
                         .is_empty();
    unsigned shared = commonLoops(stmts);
    if (array.usedAfterScop) {
      record.reason = "its value may be used after the scop";
    } else if (isLiveIn) {
      record.reason = "it is read before it is written";
    } else if (shared == 0) {
      record.reason = "its accesses share no loop";
    } else {
      // Flow dependences whose source reference writes this scalar.
      isl::union_map scalarFlow = isl::union_map::empty(scop.ctx);
      for (const isl::map &map : mapsOf(deps.taggedFlow)) {
        isl_map *source = isl_set_unwrap(isl_map_domain(map.copy()));
        std::string stmtName = isl_map_get_tuple_name(source, isl_dim_in);
        std::string ref = isl_map_get_tuple_name(source, isl_dim_out);
        isl_map_free(source);
        const Statement *src = scop.findStatement(stmtName);
        unsigned index = std::stoul(ref.substr(ref.rfind("_ref") + 4));
        if (src && src->accesses[index].array == a)
          scalarFlow = scalarFlow.unite(isl::union_map(isl::manage(
              isl_map_range_factor_domain(
                  isl_map_domain_factor_domain(map.copy())))));
      }
      unsigned depth = shared;
      while (depth > 0 && !isWithinIterations(scalarFlow, depth))
        --depth;
      // Subscripts are the iterators themselves: they must be non-negative.
      while (depth > 0) {
        bool nonNegative = true;
        for (Statement *stmt : stmts)
          for (unsigned d = 0; d < depth; ++d)
            nonNegative &= isl::manage(isl_set_upper_bound_si(
                                           stmt->domain.copy(), isl_dim_set, d, -1))
                               .is_empty();
        if (nonNegative)
          break;
        --depth;
      }
      if (depth == 0) {
        record.reason = "its value flows between iterations of every loop";
      } else {
        record.depth = depth;
        record.reason = "privatized along " + std::to_string(depth) +
                        " loop(s): written before read in every iteration";
        std::vector<isl::pw_aff> extents;
        for (unsigned d = 0; d < depth; ++d) {
          isl::pw_aff extent;
          bool first = true;
          for (Statement *stmt : stmts) {
            isl::pw_aff max = isl::manage(isl_set_dim_max(stmt->domain.copy(), d));
            extent = first ? max : extent.max(max);
            first = false;
          }
          extents.push_back(
              totalOn(extent.add(constantOn(extent.domain().get_space(), 1)),
                      scop.context));
        }
        array.extents = extents;
        array.isLocal = true;
        for (Statement *stmt : stmts) {
          std::vector<std::string> its(stmt->iterators.begin(),
                                       stmt->iterators.begin() + depth);
          for (Access &access : stmt->accesses) {
            if (access.array != a)
              continue;
            isl_space *domainSpace = stmt->domain.get_space().release();
            isl_space *range = isl_space_drop_dims(
                isl_space_copy(domainSpace), isl_dim_set, depth,
                stmt->iterators.size() - depth);
            range = isl_space_set_tuple_name(range, isl_dim_set,
                                             array.name.c_str());
            isl_space *mapSpace =
                isl_space_map_from_domain_and_range(domainSpace, range);
            isl_map *rel = isl_map_universe(mapSpace);
            for (unsigned d = 0; d < depth; ++d)
              rel = isl_map_equate(rel, isl_dim_in, d, isl_dim_out, d);
            access.relation =
                isl::manage(rel).intersect_domain(stmt->domain);
          }
          setSubscripts(stmt->lhs, array.name, its);
          setSubscripts(stmt->rhs, array.name, its);
        }
      }
    }
    result.push_back(record);
  }
  return result;
}

} // namespace polycuda::polyhedral
