//===- IndexSetSplitting.cpp - Split statements on broadcast planes -------===//
//
// Stage 0b (see IndexSetSplitting.h). A plane is an equality between two or
// more iterators (`j = k`) that holds on the sources of a self flow
// dependence whose sinks are full-dimensional: a broadcast from a thin set
// to the whole domain. The pieces keep the body, the accesses (restricted)
// and the original schedule, so the program's meaning is unchanged; only
// the scheduler sees separate statements. A few rounds handle planes that
// appear inside a piece (the corner k = i = j of Floyd-Warshall).
//
//===----------------------------------------------------------------------===//
#include "IndexSetSplitting.h"

#include "Dependences.h"
#include "IslExtras.h"

#include <isl/constraint.h>

#include <map>
#include <memory>
#include <set>

namespace polycuda::polyhedral {

namespace {

constexpr int kMaxRounds = 3;
constexpr size_t kMaxStatements = 64;

/// Planes `{ S[i] : e(i) = 0 }` (equalities of >= 2 iterators) on which the
/// sources of broadcasting self dependences of `stmt` lie.
std::vector<isl::set> broadcastPlanes(const Statement &stmt,
                                      const isl::union_map &flow) {
  std::vector<isl::set> planes;
  std::set<std::string> seen;
  int dims = stmt.iterators.size();
  if (dims == 0)
    return planes;
  unsigned domainEqs = affineHullEqualities(stmt.domain).size();
  for (const isl::map &map : mapsOf(flow)) {
    if (stmt.name != domainTupleName(map) || stmt.name != rangeTupleName(map))
      continue;
    isl::map sameOuter = equateLeading(map, 1);
    for (const isl::basic_map &piece : basicMapsOf(map)) {
      // Only broadcasts within one iteration of the outermost loop: those
      // carried by it are no obstacle to parallelism inside it.
      if (!isl::map(piece).is_subset(sameOuter))
        continue;
      // Sinks must fill the statement's dimension: a broadcast, not a
      // chain along a line.
      if (affineHullEqualities(piece.range()).size() > domainEqs)
        continue;
      for (const HullEquality &equality :
           affineHullEqualities(piece.domain())) {
        if (equality.variables < 2)
          continue;
        isl::set inside = stmt.domain.intersect(equality.plane);
        if (!inside.is_empty() && !stmt.domain.is_subset(equality.plane) &&
            seen.insert(toString(equality.plane)).second)
          planes.push_back(equality.plane);
      }
    }
  }
  return planes;
}

/// `{ x : e(x) < 0 }` (sign -1) or `{ x : e(x) > 0 }` (sign +1) for the plane
/// `{ x : e(x) = 0 }`.
isl::set sideOf(const isl::set &plane, int sign) {
  isl::pw_aff e = firstHullEquality(plane);
  isl::pw_aff zero = constantOn(plane.get_space(), 0);
  return sign > 0 ? e.gt_set(zero) : e.lt_set(zero);
}

/// `stmt` restricted to `part`, renamed `name`.
Statement restrictTo(const Statement &stmt, const isl::set &part,
                     const std::string &name) {
  Statement piece = stmt;
  piece.name = name;
  isl::set domain =
      withTupleName(coalesced(stmt.domain.intersect(part)), name);
  piece.domain = domain;
  for (Access &access : piece.accesses)
    access.relation =
        withDomainName(access.relation, name).intersect_domain(domain);
  return piece;
}

/// `{ [S[i] -> S_refk[]] -> [P[i] -> P_refk[]] }` for every reference k of
/// `stmt`, from `rename` = `{ S[i] -> P[i] }`.
isl::union_map renameTags(const isl::map &rename, const std::string &from,
                          const std::string &to, size_t refs) {
  isl::union_map result = isl::union_map::empty(rename.ctx());
  for (size_t k = 0; k < refs; ++k) {
    std::string suffix = "_ref" + std::to_string(k);
    isl::set source = isl::set::universe(
        namedSetSpace(rename.ctx(), from + suffix, 0));
    isl::set target =
        isl::set::universe(namedSetSpace(rename.ctx(), to + suffix, 0));
    result = result.unite(isl::union_map(
        rename.product(mapFromDomainAndRange(source, target))));
  }
  return result;
}

/// The dependences of the original statements, carried over to the pieces:
/// the instances and their order are unchanged, only their names differ.
Dependences renameDependences(const Dependences &deps,
                              const isl::union_map &rename,
                              const isl::union_map &renameTagged) {
  Dependences result = deps;
  result.flow = deps.flow.apply_domain(rename).apply_range(rename);
  result.anti = deps.anti.apply_domain(rename).apply_range(rename);
  result.output = deps.output.apply_domain(rename).apply_range(rename);
  result.taggedFlow =
      deps.taggedFlow.apply_domain(renameTagged).apply_range(renameTagged);
  result.taggedLiveIn = deps.taggedLiveIn.apply_domain(renameTagged);
  return result;
}

} // namespace

std::vector<std::string> splitIndexSets(Scop &scop) {
  DependenceCache cache;
  return splitIndexSets(scop, cache);
}

namespace {

/// The state of the splitting rounds. The dependence analysis runs once, on
/// the original statements; later rounds rename its result. `rename` maps
/// each original statement's instances to the piece that now holds them,
/// `origin` names the original statement of each piece.
class Splitter {
public:
  Splitter(Scop &scop, DependenceCache &cache) : scop(scop), cache(cache) {
    originalParts = cache.parts;
    for (const Statement &stmt : scop.statements) {
      isl::map identity = isl::set::universe(stmt.domain.get_space())
                              .identity()
                              .intersect_domain(stmt.domain);
      rename.emplace(stmt.name, identity);
      origin[stmt.name] = stmt.name;
      refs[stmt.name] = stmt.accesses.size();
    }
  }

  /// Splits every statement with a broadcast plane under `flow` on its
  /// first plane; false when none has one.
  bool round(const isl::union_map &flow) {
    std::vector<Statement> next;
    isl::union_map schedule = isl::union_map::empty(scop.ctx);
    bool changed = false;
    for (const Statement &stmt : scop.statements) {
      isl::map original = originalScheduleOf(stmt);
      std::vector<isl::set> planes = broadcastPlanes(stmt, flow);
      if (planes.empty() ||
          scop.statements.size() + next.size() >= kMaxStatements) {
        next.push_back(stmt);
        schedule = schedule.unite(isl::union_map(original));
        continue;
      }
      // One plane per round; the next round sees the pieces.
      split(stmt, planes.front(), original, next, schedule);
      changed = true;
    }
    if (!changed)
      return false;
    scop.statements = next;
    scop.originalSchedule = schedule;
    carryDependences();
    return true;
  }

  std::vector<std::string> report;

private:
  Scop &scop;
  DependenceCache &cache;
  std::map<unsigned, std::shared_ptr<const Dependences>> originalParts;
  std::map<std::string, isl::map> rename;
  std::map<std::string, std::string> origin;
  std::map<std::string, size_t> refs;

  isl::map originalScheduleOf(const Statement &stmt) const {
    isl::space range = mapsOf(scop.originalSchedule).front().get_space().range();
    isl::space space =
        mapFromDomainAndRange(isl::set::universe(stmt.domain.get_space()),
                              isl::set::universe(range))
            .get_space();
    return scop.originalSchedule.intersect_domain(isl::union_set(stmt.domain))
        .extract_map(space);
  }

  /// Replaces `stmt` by the plane and both sides of it: on each side, the
  /// plane's instances run either all before or all after the side's
  /// instances in the original order, so each piece's dependences have one
  /// direction.
  void split(const Statement &stmt, const isl::set &plane,
             const isl::map &original, std::vector<Statement> &next,
             isl::union_map &schedule) {
    std::vector<std::pair<isl::set, std::string>> parts = {{plane, "_p"}};
    isl::set rest = stmt.domain.subtract(plane);
    for (auto [side, suffix] : {std::pair{sideOf(plane, -1), "_l"},
                                std::pair{sideOf(plane, +1), "_g"}}) {
      isl::set part = rest.intersect(side);
      if (!part.is_empty())
        parts.push_back({part, suffix});
    }
    for (auto &[part, suffix] : parts) {
      Statement piece = restrictTo(stmt, part, stmt.name + suffix);
      rename.emplace(piece.name,
                     withRangeName(rename.at(stmt.name).intersect_range(part),
                                   piece.name));
      origin[piece.name] = origin.at(stmt.name);
      schedule = schedule.unite(isl::union_map(
          withDomainName(original, piece.name).intersect_domain(piece.domain)));
      next.push_back(piece);
    }
    report.push_back(stmt.name + " (" + stmt.loc.str() + ") split on " +
                     toString(plane));
  }

  /// The original statements' dependences, renamed to the pieces.
  void carryDependences() {
    isl::union_map all = isl::union_map::empty(scop.ctx);
    isl::union_map allTagged = isl::union_map::empty(scop.ctx);
    for (const Statement &piece : scop.statements) {
      const isl::map &map = rename.at(piece.name);
      const std::string &from = origin.at(piece.name);
      all = all.unite(isl::union_map(map));
      allTagged = allTagged.unite(
          renameTags(map, from, piece.name, refs.at(from)));
    }
    for (auto &[array, part] : originalParts)
      cache.parts[array] = std::make_shared<const Dependences>(
          renameDependences(*part, all, allTagged));
  }
};

} // namespace

std::vector<std::string> splitIndexSets(Scop &scop, DependenceCache &cache) {
  Dependences deps = computeDependences(scop, cache);
  if (!deps.complete)
    return {};
  Splitter splitter(scop, cache);
  for (int round = 0; round < kMaxRounds && splitter.round(deps.flow); ++round)
    deps = computeDependences(scop, cache);
  return splitter.report;
}

} // namespace polycuda::polyhedral
