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
      isl::map loop =
          original.extract_map(mapSpace(stmt->domain.get_space(), range));
      unsigned n = loop.range_tuple_dim();
      loop = projectOutOutputs(loop, 2 * depth + 2, n - (2 * depth + 2));
      loop = projectOutOutputs(loop, 0, 2 * depth + 1);
      member = member.unite(isl::union_map(loop));
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
  if (node.isa<isl::schedule_node_band>()) {
    unsigned n = node.as<isl::schedule_node_band>().n_member();
    for (unsigned i = 0; i < n; ++i)
      node = setCoincident(node, i, false);
  }
  int n = node.n_children();
  for (int i = 0; i < n; ++i)
    node = clearCoincidence(node.child(i)).parent();
  return node;
}

/// Largest |value| among the coefficients and the constant of `aff`.
long maxOf(const isl::aff &aff) {
  long most = 0;
  auto consider = [&](const isl::val &v) {
    if (!v.is_int())
      return;
    isl::val a = v.abs();
    // Beyond long: saturate.
    long value = a.cmp_si(LONG_MAX / 2) > 0 ? LONG_MAX / 2 : a.num_si();
    most = std::max(most, value);
  };
  for (const isl::val &v : coefficients(aff))
    consider(v);
  consider(aff.constant_val());
  // A quasi-affine member divides: its divisors count too.
  if (numDivs(aff) > 0)
    consider(denominator(aff));
  return most;
}

long maxCoefficientBelow(const isl::schedule_node &node) {
  long most = 0;
  if (node.isa<isl::schedule_node_band>()) {
    isl::multi_union_pw_aff partial =
        node.as<isl::schedule_node_band>().get_partial_schedule();
    for (unsigned d = 0; d < partial.size(); ++d)
      for (const isl::pw_aff &pa : pwAffsOf(partial.at(d)))
        pa.foreach_piece([&](const isl::set &, const isl::multi_aff &piece) {
          most = std::max(most, maxOf(piece.at(0)));
        });
  }
  int n = node.n_children();
  for (int i = 0; i < n; ++i)
    most = std::max(most, maxCoefficientBelow(node.child(i)));
  return most;
}

/// Sets the options of isl's scheduler on `ctx` (`serializeSccs`: see
/// SchedulingOptions).
void configureScheduler(isl::ctx ctx, bool serializeSccs) {
  SchedulerOptions scheduler;
  scheduler.outerCoincidence = true;
  // Split statements only pay off when their pieces are not fused back
  // into one band: then strongly connected components are serialized.
  scheduler.serializeSccs = serializeSccs;
  scheduler.maximizeBandDepth = true;
  scheduler.wholeComponent = false;
  scheduler.maximizeCoincidence = true;
  // Bounded schedule coefficients and constants (Polly bounds both by 20
  // too) keep isl's LPs small: adi's schedule takes about half the time,
  // and no inputs/ program's schedule changes. Affine loop nests rarely
  // need larger ones; where one would, isl still finds a legal schedule
  // with more bands.
  scheduler.maxCoefficient = 20;
  scheduler.maxConstantTerm = 20;
  setSchedulerOptions(ctx, scheduler);
  continueOnError(ctx);
}

/// isl's schedule of `scop` under `deps` as text: "!" and the reason when
/// the scheduler failed, nothing when it ran out of time.
std::optional<std::string> runScheduler(const Scop &scop,
                                        const Dependences &deps,
                                        const SchedulingOptions &options) {
  isl::ctx ctx = scop.ctx;
  configureScheduler(ctx, options.serializeSccs);
  // Not coalesced (see computeDependences).
  isl::union_map all = deps.all();
  isl::schedule_constraints constraints =
      isl::schedule_constraints::on_domain(scop.domain())
          .set_context(scop.context)
          .set_validity(all)
          .set_proximity(all)
          .set_coincidence(all);
  // isl's operation limit does not count all of the scheduler's LP work
  // (one program took 25 s within it): the scheduler also runs against a
  // wall-clock deadline, in a child process, and its schedule comes back
  // as text. A failure comes back as "!" and the reason.
  return runWithDeadline(
      [&]() -> std::string {
        OperationLimit limit(ctx, options.maxOperations);
        try {
          return toString(constraints.compute_schedule());
        } catch (const isl::exception_quota &) {
          return "!isl's scheduler exceeded its operation limit";
        } catch (const isl::exception &) {
          return "!isl's scheduler failed";
        }
      },
      options.timeLimitMs);
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

std::string describe(const ScheduleFallback &fallback) {
  using Why = ScheduleFallback::Why;
  const std::string oneThread =
      "; the scop runs in its original order on one GPU thread";
  switch (fallback.why) {
  case Why::None:
    return "";
  case Why::NoDependences:
    return fallback.detail + oneThread;
  case Why::Sequential:
    return "the original order on one thread was requested";
  case Why::Requested:
    return "the original schedule was requested";
  case Why::SchedulerFailed:
    return fallback.detail.empty() ? "isl's scheduler failed"
                                   : fallback.detail;
  case Why::SchedulerTimeLimit:
    return "isl's scheduler exceeded its time limit (" +
           std::to_string(fallback.value) + " ms)";
  case Why::LargeCoefficient:
    return "isl's schedule has a coefficient of " +
           std::to_string(fallback.value) + " (more than " +
           std::to_string(kMaxScheduleCoefficient) +
           "): its loops would enumerate mostly empty iterations";
  case Why::CCodeNotVerified:
    return "isl's code for the parallel schedule failed its check in every "
           "loop mode; the scop runs in its original order";
  case Why::GpuCodeNotVerified:
    return "isl's code for the parallel mapping failed its check in every "
           "loop mode" + oneThread;
  case Why::GpuCodeBudget:
    return "generating code for the parallel mapping exceeded its budget" +
           oneThread;
  }
  return "";
}

ScheduleResult computeSchedule(const Scop &scop, const Dependences &deps,
                               const SchedulingOptions &options) {
  ScheduleResult result;
  if (!deps.complete || options.sequential) {
    // Without dependences nothing may run in parallel or be reordered.
    result.schedule = buildOriginalSchedule(scop, deps);
    isl::schedule_node root = result.schedule.get_root();
    result.schedule = clearCoincidence(root).get_schedule();
    result.fallback.why = options.sequential
                              ? ScheduleFallback::Why::Sequential
                              : ScheduleFallback::Why::NoDependences;
    if (!options.sequential)
      result.fallback.detail = deps.incompleteReason;
    return result;
  }
  if (options.useOriginal || scop.statements.empty()) {
    result.schedule = buildOriginalSchedule(scop, deps);
    if (options.useOriginal)
      result.fallback.why = ScheduleFallback::Why::Requested;
    return result;
  }
  std::optional<std::string> text = runScheduler(scop, deps, options);
  if (!text || text->empty() || (*text)[0] == '!') {
    if (!text) {
      result.fallback.why = ScheduleFallback::Why::SchedulerTimeLimit;
      result.fallback.value = options.timeLimitMs;
    } else {
      result.fallback.why = ScheduleFallback::Why::SchedulerFailed;
      if (!text->empty())
        result.fallback.detail = text->substr(1);
    }
    result.schedule = buildOriginalSchedule(scop, deps);
    return result;
  }
  result.schedule = isl::schedule(scop.ctx, *text);
  long most = maxScheduleCoefficient(result.schedule);
  if (most > kMaxScheduleCoefficient) {
    result.schedule = buildOriginalSchedule(scop, deps);
    result.fallback.why = ScheduleFallback::Why::LargeCoefficient;
    result.fallback.value = most;
  }
  return result;
}

} // namespace polycuda::polyhedral
