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

#include <algorithm>
#include <functional>
#include <map>
#include <set>

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
  for (const isl::map &map : mapsOf(deps))
    if (!map.is_subset(equateLeading(map, l)))
      return false;
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

void renameRefs(const ExprPtr &expr, const std::string &from,
                const std::string &to) {
  if (!expr)
    return;
  if (expr->kind == Expr::Kind::ArrayRef && expr->name == from)
    expr->name = to;
  for (const ExprPtr &arg : expr->args)
    renameRefs(arg, from, to);
}

/// Statement-level flow dependences `(source, sink)` on array `a`.
std::vector<std::pair<std::string, std::string>>
flowEdgesOn(const DependenceCache &cache, unsigned a) {
  std::vector<std::pair<std::string, std::string>> edges;
  for (const isl::map &map : mapsOf(cache.parts.at(a)->flow))
    edges.push_back({isl_map_get_tuple_name(map.get(), isl_dim_in),
                     isl_map_get_tuple_name(map.get(), isl_dim_out)});
  return edges;
}

/// Live-range splitting: the statements that access a scalar fall into
/// webs connected by its flow dependences (a write and the reads it
/// reaches). Values never cross webs, so each web may use its own variable;
/// each then privatizes on its own loops. The web that reads the value from
/// before the scop keeps the original variable.
void splitLiveRanges(Scop &scop, DependenceCache &cache,
                     const isl::union_map &liveIn) {
  unsigned count = scop.arrays.size();
  for (unsigned a = 0; a < count; ++a) {
    if (scop.arrays[a].rank() != 0 || !scop.arrays[a].isWritten ||
        scop.arrays[a].usedAfterScop)
      continue;
    std::map<std::string, std::string> parent;
    std::function<std::string(const std::string &)> find =
        [&](const std::string &x) {
          return parent[x] == x ? x : parent[x] = find(parent[x]);
        };
    for (const Statement &stmt : scop.statements)
      for (const Access &access : stmt.accesses)
        if (access.array == a)
          parent[stmt.name] = stmt.name;
    for (auto &[from, to] : flowEdgesOn(cache, a))
      if (parent.count(from) && parent.count(to))
        parent[find(from)] = find(to);
    // Webs in the order of their first statement, whatever the order in
    // which isl lists the dependences: the new variables' names are stable.
    std::vector<std::string> roots;
    std::map<std::string, std::vector<std::string>> webs;
    for (const Statement &stmt : scop.statements) {
      if (!parent.count(stmt.name))
        continue;
      std::vector<std::string> &web = webs[find(stmt.name)];
      if (web.empty())
        roots.push_back(find(stmt.name));
      web.push_back(stmt.name);
    }
    if (webs.size() < 2)
      continue;
    // The web with a live-in read keeps the variable.
    std::set<std::string> liveInStmts;
    for (const isl::map &map : mapsOf(liveIn)) {
      isl_map *reader = isl_set_unwrap(isl_map_domain(map.copy()));
      if (map.range_tuple_dim() == 0 &&
          scop.arrays[a].name == isl_map_get_tuple_name(map.get(), isl_dim_out))
        liveInStmts.insert(isl_map_get_tuple_name(reader, isl_dim_in));
      isl_map_free(reader);
    }
    // The dependences split with the accesses: values never cross webs.
    std::shared_ptr<const Dependences> before = cache.parts.at(a);
    unsigned suffix = 0;
    for (const std::string &root : roots) {
      const std::vector<std::string> &members = webs.at(root);
      bool keeps = false;
      for (const std::string &m : members)
        keeps |= liveInStmts.count(m) > 0;
      if (keeps)
        continue;
      std::string name;
      do
        name = scop.arrays[a].name + "_" + std::to_string(++suffix);
      while (scop.findArray(name) >= 0);
      Array copy = scop.arrays[a];
      copy.name = name;
      copy.isLocal = true;
      unsigned id = scop.arrays.size();
      scop.arrays.push_back(copy);
      cache.parts[id] = std::make_shared<const Dependences>(
          restrictToStatements(*before, {members.begin(), members.end()}));
      for (Statement &stmt : scop.statements) {
        if (std::find(members.begin(), members.end(), stmt.name) ==
            members.end())
          continue;
        for (Access &access : stmt.accesses) {
          if (access.array != a)
            continue;
          access.array = id;
          access.relation = isl::manage(isl_map_set_tuple_name(
              access.relation.copy(), isl_dim_out, name.c_str()));
        }
        renameRefs(stmt.lhs, scop.arrays[a].name, name);
        renameRefs(stmt.rhs, scop.arrays[a].name, name);
      }
    }
    std::set<std::string> keeping;
    for (const Statement &stmt : scop.statements)
      for (const Access &access : stmt.accesses)
        if (access.array == a)
          keeping.insert(stmt.name);
    cache.parts[a] = std::make_shared<const Dependences>(
        restrictToStatements(*before, keeping));
  }
}

} // namespace

std::vector<ScalarExpansion> expandScalars(Scop &scop) {
  DependenceCache cache;
  return expandScalars(scop, cache);
}

std::vector<ScalarExpansion> expandScalars(Scop &scop,
                                           DependenceCache &cache) {
  std::vector<ScalarExpansion> result;
  // Only the scalars' dependences matter here.
  std::vector<unsigned> candidates;
  for (unsigned a = 0; a < scop.arrays.size(); ++a)
    if (scop.arrays[a].rank() == 0 && scop.arrays[a].isWritten)
      candidates.push_back(a);
  if (candidates.empty())
    return result;
  // The flow decides everything here; the anti and output dependences of
  // the scalars that are renamed or expanded are cheaper to compute
  // afterwards, from their new accesses.
  Dependences deps = computeDependences(scop, cache, candidates,
                                        /*flowOnly=*/true);
  if (!deps.complete)
    return result;
  // Reads without a writer in the scop: { [S[i] -> ref[]] -> A[] }.
  const isl::union_map &liveIn = deps.taggedLiveIn;
  splitLiveRanges(scop, cache, liveIn);

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
    if (stmts.empty())
      continue; // every web was renamed
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
      isl::union_map scalarFlow = cache.parts.at(a)->flow;
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
            // Defined wherever some statement runs (max is defined only
            // where both do: an empty inner loop made the extent 0).
            extent = first ? max
                           : isl::manage(isl_pw_aff_union_max(extent.release(),
                                                              max.copy()));
            first = false;
          }
          extents.push_back(
              totalOn(extent.add(constantOn(extent.domain().get_space(), 1)),
                      scop.context));
        }
        array.extents = extents;
        array.isLocal = true;
        cache.parts[a] = std::make_shared<const Dependences>(
            expandAlongLoops(*cache.parts.at(a), depth));
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
            access.relation =
                equateLeading(isl::manage(isl_map_universe(mapSpace)), depth)
                    .intersect_domain(stmt->domain);
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
