//===- Scheduling.cpp - A legal, parallel schedule from isl ---------------===//
//
// Stage 2: Scop + Dependences -> isl schedule tree (see Scheduling.h).
// isl's scheduler (Pluto-like, Feautrier fallback) is asked for validity on
// all dependences, proximity on all of them (reuse) and coincidence on all of
// them (parallel band members). Outer coincidence is required so that outer
// parallel loops are found before skewing for tilability.
//
//===----------------------------------------------------------------------===//
#include "Scheduling.h"

#include "IslExtras.h"
#include "Isolated.h"

#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/schedule.h>

#include <algorithm>
#include <climits>
#include <map>

namespace polycuda::polyhedral {

namespace {

/// Is `member` (a partial schedule `{ S[i] -> [x] }`) free of dependences
/// that are not already carried by `prefix` (`{ S[i] -> [p] }`)?
bool isCoincident(const isl::union_map &deps, const isl::union_map &prefix,
                  const isl::union_map &member) {
  isl::union_map sameOuter = prefix.apply_range(prefix.reverse());
  isl::union_map live = deps.intersect(sameOuter);
  if (live.is_empty())
    return true;
  isl::union_map distance = live.apply_domain(member).apply_range(member);
  return distance.is_subset(member.range().identity());
}

/// Builds the tree below `node` for statements `stmts` at loop depth `depth`,
/// with `prefix` the loop iterators fixed so far.
isl::schedule_node buildLevel(isl::schedule_node node,
                              const std::vector<const Statement *> &stmts,
                              unsigned depth, const isl::union_map &prefix,
                              const isl::union_map &deps,
                              const isl::union_map &original) {
  isl::ctx ctx = node.ctx();
  // Group statements by their position at this depth.
  std::map<int, std::vector<const Statement *>> groups;
  for (const Statement *stmt : stmts)
    groups[stmt->beta[depth]].push_back(stmt);

  auto filterOf = [](const std::vector<const Statement *> &group) {
    isl::union_set filter = isl::union_set::empty(group[0]->domain.ctx());
    for (const Statement *stmt : group)
      filter = filter.unite(isl::union_set(stmt->domain));
    return filter;
  };

  auto buildGroup = [&](isl::schedule_node at,
                        const std::vector<const Statement *> &group) {
    // Statements of one group share the loop at this depth, if any.
    if (group[0]->iterators.size() <= depth)
      return at;
    isl::union_map member = isl::union_map::empty(ctx);
    for (const Statement *stmt : group) {
      // The loop's dimension of the 2d+1 schedule (i, or -i for a loop
      // that counts down).
      isl::space range = mapsOf(original).front().get_space().range();
      isl_map *loop = isl_union_map_extract_map(
          original.get(),
          isl_space_map_from_domain_and_range(
              stmt->domain.get_space().release(), range.release()));
      isl_size n = isl_map_dim(loop, isl_dim_out);
      loop = isl_map_project_out(loop, isl_dim_out, 2 * depth + 2,
                                 n - (2 * depth + 2));
      loop = isl_map_project_out(loop, isl_dim_out, 0, 2 * depth + 1);
      member = member.unite(isl::union_map(isl::manage(loop)));
    }
    isl::multi_union_pw_aff mupa =
        member.as_union_pw_multi_aff().as_multi_union_pw_aff();
    at = at.insert_partial_schedule(mupa);
    bool coincident = isCoincident(deps, prefix, member);
    at = setCoincident(at, 0, coincident);
    isl::union_map innerPrefix = flatRangeProduct(prefix, member);
    at = buildLevel(at.child(0), group, depth + 1, innerPrefix, deps, original);
    return at.parent();
  };

  if (groups.size() == 1)
    return buildGroup(node, groups.begin()->second);

  isl::union_set_list filters(ctx, groups.size());
  for (auto &[position, group] : groups)
    filters = filters.add(filterOf(group));
  node = node.insert_sequence(filters);
  unsigned i = 0;
  for (auto &[position, group] : groups) {
    node = node.child(i).child(0);
    node = buildGroup(node, group);
    node = node.parent().parent();
    ++i;
  }
  return node;
}

isl::schedule_node clearCoincidence(isl::schedule_node node) {
  if (isl_schedule_node_get_type(node.get()) == isl_schedule_node_band) {
    unsigned n = isl_schedule_node_band_n_member(node.get());
    for (unsigned i = 0; i < n; ++i)
      node = setCoincident(node, i, false);
  }
  int n = isl_schedule_node_n_children(node.get());
  for (int i = 0; i < n; ++i)
    node = clearCoincidence(node.child(i)).parent();
  return node;
}

/// Largest |value| among the coefficients and the constant of `aff`.
long maxOf(const isl::aff &aff) {
  long most = 0;
  auto consider = [&](isl_val *v) {
    if (isl_val_is_int(v) == isl_bool_true) {
      isl_val *a = isl_val_abs(v);
      long value = isl_val_get_num_si(a);
      // Beyond long: saturate.
      if (isl_val_cmp_si(a, LONG_MAX / 2) > 0)
        value = LONG_MAX / 2;
      most = std::max(most, value);
      isl_val_free(a);
    } else {
      isl_val_free(v);
    }
  };
  for (isl_dim_type type : {isl_dim_in, isl_dim_param}) {
    isl_size n = isl_aff_dim(aff.get(), type);
    for (isl_size i = 0; i < n; ++i)
      consider(isl_aff_get_coefficient_val(aff.get(), type, i));
  }
  consider(isl_aff_get_constant_val(aff.get()));
  // A quasi-affine member divides: its divisors count too.
  isl_size divs = isl_aff_dim(aff.get(), isl_dim_div);
  for (isl_size i = 0; i < divs; ++i)
    consider(isl_aff_get_denominator_val(aff.get()));
  return most;
}

long maxCoefficientBelow(const isl::schedule_node &node) {
  long most = 0;
  if (isl_schedule_node_get_type(node.get()) == isl_schedule_node_band) {
    isl::multi_union_pw_aff partial =
        node.as<isl::schedule_node_band>().get_partial_schedule();
    auto onPwAff = [](isl_pw_aff *pa, void *user) {
      isl_stat stat = isl_pw_aff_foreach_piece(
          pa, +[](isl_set *set, isl_aff *aff, void *user) {
            long &most = *static_cast<long *>(user);
            most = std::max(most, maxOf(isl::manage(aff)));
            isl_set_free(set);
            return isl_stat_ok;
          }, user);
      isl_pw_aff_free(pa);
      return stat;
    };
    for (unsigned d = 0; d < partial.size(); ++d)
      isl_union_pw_aff_foreach_pw_aff(partial.at(d).get(), onPwAff, &most);
  }
  int n = isl_schedule_node_n_children(node.get());
  for (int i = 0; i < n; ++i)
    most = std::max(most, maxCoefficientBelow(node.child(i)));
  return most;
}

} // namespace

long maxScheduleCoefficient(const isl::schedule &schedule) {
  return maxCoefficientBelow(schedule.get_root());
}

isl::schedule buildOriginalSchedule(const Scop &scop, const Dependences &deps) {
  isl::union_set domain = scop.domain();
  isl::schedule schedule = isl::schedule::from_domain(domain);
  std::vector<const Statement *> stmts;
  for (const Statement &stmt : scop.statements)
    stmts.push_back(&stmt);
  if (stmts.empty())
    return schedule;
  isl::union_map prefix = isl::union_map::empty(scop.ctx);
  for (const Statement &stmt : scop.statements)
    prefix = prefix.unite(isl::union_map(mapFromDomainAndRange(
        stmt.domain, isl::set::universe(namedSetSpace(scop.ctx, "", 0)))));
  isl::schedule_node node = schedule.get_root().child(0);
  node = buildLevel(node, stmts, 0, prefix, deps.all(), scop.originalSchedule);
  return node.get_schedule();
}

ScheduleResult computeSchedule(const Scop &scop, const Dependences &deps,
                               const SchedulingOptions &options) {
  ScheduleResult result;
  if (!deps.complete || options.sequential) {
    // Without dependences nothing may run in parallel or be reordered.
    result.schedule = buildOriginalSchedule(scop, deps);
    isl::schedule_node root = result.schedule.get_root();
    result.schedule = clearCoincidence(root).get_schedule();
    result.usedFallback = true;
    result.fallbackReason =
        "dependence analysis exceeded its budget; the scop runs in its "
        "original order on one GPU thread";
    return result;
  }
  if (options.useOriginal || scop.statements.empty()) {
    result.schedule = buildOriginalSchedule(scop, deps);
    result.usedFallback = options.useOriginal;
    result.fallbackReason = "the original schedule was requested";
    return result;
  }
  isl::ctx ctx = scop.ctx;
  isl_options_set_schedule_outer_coincidence(ctx.get(), 1);
  // Split statements only pay off when their pieces are not fused back
  // into one band: then strongly connected components are serialized.
  isl_options_set_schedule_serialize_sccs(ctx.get(), options.serializeSccs);
  isl_options_set_schedule_maximize_band_depth(ctx.get(), 1);
  isl_options_set_schedule_whole_component(ctx.get(), 0);
  isl_options_set_schedule_maximize_coincidence(ctx.get(), 1);
  isl_options_set_on_error(ctx.get(), ISL_ON_ERROR_CONTINUE);
  // Bounded schedule coefficients and constants (Polly bounds both by 20
  // too) keep isl's LPs small: adi's schedule takes about half the time,
  // and no inputs/ program's schedule changes. Affine loop nests rarely
  // need larger ones; where one would, isl still finds a legal schedule
  // with more bands.
  isl_options_set_schedule_max_coefficient(ctx.get(), 20);
  isl_options_set_schedule_max_constant_term(ctx.get(), 20);

  // Not coalesced (see computeDependences).
  isl::union_map all = deps.all();
  isl_schedule_constraints *sc = isl_schedule_constraints_on_domain(
      scop.domain().release());
  sc = isl_schedule_constraints_set_context(sc, scop.context.copy());
  sc = isl_schedule_constraints_set_validity(sc, all.copy());
  sc = isl_schedule_constraints_set_proximity(sc, all.copy());
  sc = isl_schedule_constraints_set_coincidence(sc, all.copy());
  // isl's operation limit does not count all of the scheduler's LP work
  // (one program took 25 s within it): the scheduler also runs against a
  // wall-clock deadline, in a child process, and its schedule comes back
  // as text. A failure comes back as "!" and the reason.
  std::optional<std::string> text = runWithDeadline(
      [&]() -> std::string {
        OperationLimit limit(ctx, options.maxOperations);
        isl_schedule *computed = isl_schedule_constraints_compute_schedule(
            isl_schedule_constraints_copy(sc));
        if (!computed)
          return isl_ctx_last_error(ctx.get()) == isl_error_quota
                     ? "!isl's scheduler exceeded its operation limit"
                     : "!isl's scheduler failed";
        return toString(isl::manage(computed));
      },
      options.timeLimitMs);
  isl_schedule_constraints_free(sc);
  if (!text || text->empty() || (*text)[0] == '!') {
    result.usedFallback = true;
    result.fallbackReason =
        text ? (text->empty() ? "isl's scheduler failed" : text->substr(1))
             : "isl's scheduler exceeded its time limit (" +
                   std::to_string(options.timeLimitMs) + " ms)";
    result.schedule = buildOriginalSchedule(scop, deps);
    return result;
  }
  result.schedule = isl::schedule(ctx, *text);
  long most = maxScheduleCoefficient(result.schedule);
  if (most > kMaxScheduleCoefficient) {
    result.schedule = buildOriginalSchedule(scop, deps);
    result.usedFallback = true;
    result.fallbackReason =
        "isl's schedule has a coefficient of " + std::to_string(most) +
        " (more than " + std::to_string(kMaxScheduleCoefficient) +
        "): its loops would enumerate mostly empty iterations";
  }
  return result;
}

} // namespace polycuda::polyhedral
