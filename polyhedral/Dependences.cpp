//===- Dependences.cpp - Exact dataflow dependences with isl --------------===//
//
// Stage 1: Scop -> Dependences (see Dependences.h).
// RAW is the exact last-writer relation (isl_union_access_info with must
// sources); WAR and WAW are memory-based (any earlier access), which is what
// schedule legality needs since the arrays are not expanded.
//
//===----------------------------------------------------------------------===//
#include "Dependences.h"

#include "IslExtras.h"

#include <isl/ctx.h>

#include <memory>
#include <stdexcept>

namespace polycuda::polyhedral {

namespace {

/// Untags `{ [S[i] -> ref[]] -> [T[j] -> ref[]] }` to `{ S[i] -> T[j] }`.
isl::union_map untag(const isl::union_map &tagged) {
  return tagged.domain_factor_domain().range_factor_domain();
}

/// Dependences from `sources` to `sinks`, both tagged, under `schedule`;
/// `noSource`, if given, receives the sink accesses without a source.
isl::union_map computeTagged(const isl::union_map &sinks,
                             const isl::union_map &mustSources,
                             const isl::union_map &maySources,
                             const isl::union_map &schedule,
                             isl::union_map *noSource = nullptr) {
  isl::union_access_info info(sinks);
  info = info.set_must_source(mustSources);
  info = info.set_may_source(maySources);
  info = info.set_schedule_map(schedule);
  isl::union_flow flow = info.compute_flow();
  if (noSource)
    *noSource = flow.get_may_no_source();
  return flow.get_may_dependence();
}

} // namespace

static Dependences computeUnbounded(const Scop &scop);
static Dependences computeOnce(const Scop &scop);

isl::union_map flowOnArray(const Scop &scop, const Dependences &deps,
                           unsigned array) {
  isl::union_map result = isl::union_map::empty(scop.ctx);
  for (const isl::map &map : mapsOf(deps.taggedFlow)) {
    isl_map *source = isl_set_unwrap(isl_map_domain(map.copy()));
    std::string stmt = isl_map_get_tuple_name(source, isl_dim_in);
    std::string ref = isl_map_get_tuple_name(source, isl_dim_out);
    isl_map_free(source);
    const Statement *writer = scop.findStatement(stmt);
    unsigned index = std::stoul(ref.substr(ref.rfind("_ref") + 4));
    if (writer && writer->accesses[index].array == array)
      result = result.unite(isl::union_map(isl::manage(
          isl_map_range_factor_domain(isl_map_domain_factor_domain(map.copy())))));
  }
  return result;
}

static Dependences incomplete(const Scop &scop) {
  Dependences deps;
  deps.complete = false;
  isl::union_map empty = isl::union_map::empty(scop.ctx);
  deps.flow = deps.anti = deps.output = deps.taggedFlow = empty;
  deps.liveIn = scop.accesses(true, false, false).range();
  deps.taggedLiveIn = scop.taggedAccesses(true, false, false);
  return deps;
}

static Dependences computeOnce(const Scop &scop) {
  if (scop.dependenceBudgetExceeded)
    return incomplete(scop);
  {
    OperationLimit limit(scop.ctx, kDependenceOperationLimit);
    try {
      return computeUnbounded(scop);
    } catch (const isl::exception_quota &) {
      // Fall through: the limit must be lifted before anything else is
      // computed with this context.
    }
  }
  scop.dependenceBudgetExceeded = true;
  return incomplete(scop);
}

Dependences computeDependences(const Scop &scop) {
  if (!scop.dependenceCache)
    scop.dependenceCache = std::make_shared<const Dependences>(computeOnce(scop));
  return *scop.dependenceCache;
}

static Dependences computeUnbounded(const Scop &scop) {
  isl::union_map taggedReads = scop.taggedAccesses(true, false, false);
  isl::union_map taggedMust = scop.taggedAccesses(false, true, false);
  isl::union_map taggedMay = scop.taggedAccesses(false, false, true);
  isl::union_map taggedWrites = taggedMust.unite(taggedMay);

  // Tag the schedule too: { [S[i] -> ref[]] -> [t] }.
  isl::union_map tagDomains = taggedReads.unite(taggedWrites).domain().unwrap();
  isl::union_map taggedSchedule =
      tagDomains.domain_map().apply_range(scop.originalSchedule);

  Dependences deps;
  isl::union_map unread;
  deps.taggedFlow = computeTagged(taggedReads, taggedMust, taggedMay,
                                  taggedSchedule, &unread);
  deps.liveIn = unread.range();
  deps.taggedLiveIn = unread;
  deps.flow = untag(deps.taggedFlow);

  // Memory-based WAR and WAW: every earlier access is a source, so all of
  // them are may sources (must sources would kill older ones). Untagged:
  // the report and the scheduler need only statement instances, and one
  // access relation per statement is much cheaper than one per reference.
  isl::union_map empty = isl::union_map::empty(scop.ctx);
  isl::union_map reads = scop.accesses(true, false, false);
  isl::union_map writes = scop.accesses(false, true, true);
  deps.anti = computeTagged(writes, empty, reads, scop.originalSchedule);
  deps.output = computeTagged(writes, empty, writes, scop.originalSchedule);
  isl::set context = scop.context;
  deps.flow = deps.flow.intersect_params(context).coalesce();
  deps.anti = deps.anti.intersect_params(context).coalesce();
  deps.output = deps.output.intersect_params(context).coalesce();
  return deps;
}

} // namespace polycuda::polyhedral
