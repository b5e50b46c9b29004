//===- Dependences.cpp - Exact dataflow dependences with isl --------------===//
//
// Stage 1: Scop -> Dependences (see Dependences.h).
// RAW is the exact last-writer relation (isl_union_access_info with must
// sources); WAR and WAW are memory-based (any earlier access), which is what
// schedule legality needs since the arrays are not expanded.
//
//===----------------------------------------------------------------------===//
#include "Dependences.h"

#include "Check.h"
#include "IslExtras.h"

#include <isl/ctx.h>

#include <functional>
#include <memory>
#include <stdexcept>

namespace polycuda::polyhedral {

namespace {

/// Untags `{ [S[i] -> ref[]] -> [T[j] -> ref[]] }` to `{ S[i] -> T[j] }`.
isl::union_map untag(const isl::union_map &tagged) {
  return tagged.domain_factor_domain().range_factor_domain();
}

/// `{ S[i'] -> S[i] }`, a one-to-one map from a copy of `domain` without its
/// strides onto `domain`: a dimension that takes only the values
/// `offset + stride * k` (a loop with a step, a test `i % 2 == 0`) becomes
/// `k`. Null where `domain` has no stride.
isl::map strideCompression(const isl::set &domain) {
  unsigned dims = domain.tuple_dim();
  isl::multi_aff compress =
      isl::multi_aff::identity_on_domain(domain.get_space());
  bool strided = false;
  for (unsigned pos = 0; pos < dims; ++pos) {
    isl::aff value = strideValue(domain, pos);
    if (value.is_null())
      continue;
    // The offset names the original outer dimensions: express it in the
    // compressed ones.
    compress = compress.set_at(pos, value.pullback(compress));
    strided = true;
  }
  if (!strided)
    return isl::map();
  isl::map onto = compress.as_map().intersect_range(domain);
  if (!onto.range().is_equal(domain) || !onto.is_injective())
    return isl::map();
  return onto;
}

/// The stride compression of every statement in `domains` (statement
/// instances, or their tagged accesses `[S[i] -> ref[]]`); empty where no
/// statement has a stride.
isl::union_map strideCompressions(const isl::union_set &domains) {
  isl::union_map result = isl::union_map::empty(domains.ctx());
  bool any = false;
  for (const isl::set &set : setsOf(domains)) {
    bool tagged = set.is_wrapping();
    isl::set statement = tagged ? set.unwrap().domain() : set;
    isl::map compress = strideCompression(statement);
    if (compress.is_null())
      compress = statement.identity();
    else
      any = true;
    if (tagged)
      compress = compress.product(set.unwrap().range().identity())
                     .intersect_range(set);
    result = result.unite(compress);
  }
  return any ? result : isl::union_map::empty(domains.ctx());
}

} // namespace

/// Strided statements are analysed in their compressed form (see
/// strideCompression), where their domains need no existential variables:
/// isl 0.25's dataflow analysis reads and writes out of bounds
/// (isl_basic_map_swap_div from align_context_divs) when a domain it
/// derives holds two equal integer divisions, which strides combined with
/// equalities between the parameters produce. The compression is exact.
isl::union_map dataflow(const isl::union_map &sinks,
                        const isl::union_map &mustSources,
                        const isl::union_map &maySources,
                        const isl::union_map &schedule,
                        isl::union_map *noSource) {
  isl::union_map compress = strideCompressions(schedule.domain());
  bool compressed = !compress.is_empty();
  isl::union_map expand = compress.reverse();
  // Coalesced: uncoalesced, the compressed relations keep many disjuncts
  // with divisions of the parameters, on which isl's analysis exceeded the
  // dependence budget (10 of random programs 700000-700149).
  auto in = [&](const isl::union_map &m) {
    return compressed ? m.apply_domain(expand).coalesce() : m;
  };
  isl::union_access_info info(in(sinks));
  info = info.set_must_source(in(mustSources));
  info = info.set_may_source(in(maySources));
  info = info.set_schedule_map(in(schedule));
  isl::union_flow flow = info.compute_flow();
  isl::union_map deps = flow.get_may_dependence();
  isl::union_map unread = flow.get_may_no_source();
  if (compressed) {
    deps = deps.apply_domain(compress).apply_range(compress);
    unread = unread.apply_domain(compress);
  }
  if (noSource)
    *noSource = unread;
  return deps;
}

/// The flow dependences and live-in reads of array `array` alone, without
/// a budget.
static Dependences computeFlow(const Scop &scop, unsigned array);
/// Adds the anti and output dependences of array `array` to `deps`.
static void computeAntiOutput(const Scop &scop, unsigned array,
                              Dependences &deps);

isl::union_map flowOnArray(const Scop &scop, const Dependences &deps,
                           unsigned array) {
  if (!deps.complete)
    return isl::union_map::empty(scop.ctx);
  auto part = deps.flowByArray.find(array);
  POLYCUDA_CHECK(part != deps.flowByArray.end())
      << "no dependences computed for array " << scop.arrays[array].name;
  return part->second;
}

namespace {

/// The maps of `relation` whose statements (tuple names of the domain and
/// range, or of the wrapped domains' domains when tagged) pass `keep`.
isl::union_map filterStatements(
    const isl::union_map &relation, bool tagged,
    const std::function<bool(const std::string &, const std::string &)>
        &keep) {
  isl::union_map result = isl::union_map::empty(relation.ctx());
  for (const isl::map &map : mapsOf(relation)) {
    std::string from, to;
    if (tagged) {
      // `[S[i] -> ref[]] -> [T[j] -> ref[]]`, or `[S[i] -> ref[]] -> A[a]`.
      from = domainTupleName(map.domain().unwrap());
      isl::set range = map.range();
      to = range.is_wrapping() ? domainTupleName(range.unwrap()) : from;
    } else {
      from = domainTupleName(map);
      to = rangeTupleName(map);
    }
    if (keep(from, to))
      result = result.unite(isl::union_map(map));
  }
  return result;
}

} // namespace

Dependences restrictToStatements(const Dependences &deps,
                                 const std::set<std::string> &statements) {
  auto both = [&](const std::string &from, const std::string &to) {
    return statements.count(from) && statements.count(to);
  };
  Dependences result = deps;
  result.flow = filterStatements(deps.flow, false, both);
  result.anti = filterStatements(deps.anti, false, both);
  result.output = filterStatements(deps.output, false, both);
  result.taggedFlow = filterStatements(deps.taggedFlow, true, both);
  result.taggedLiveIn = filterStatements(deps.taggedLiveIn, true, both);
  result.liveIn = result.taggedLiveIn.range();
  return result;
}

Dependences expandAlongLoops(const Dependences &deps, unsigned depth) {
  auto sameIterations = [depth](const isl::union_map &relation) {
    isl::union_map result = isl::union_map::empty(relation.ctx());
    for (const isl::map &map : mapsOf(relation))
      result = result.unite(isl::union_map(equateLeading(map, depth)));
    return result;
  };
  Dependences result = deps;
  result.anti = sameIterations(deps.anti);
  result.output = sameIterations(deps.output);
  return result;
}

static Dependences incomplete(const Scop &scop, const DependenceCache &cache) {
  Dependences deps;
  deps.complete = false;
  deps.incompleteReason = cache.incompleteReason;
  isl::union_map empty = isl::union_map::empty(scop.ctx);
  deps.flow = deps.anti = deps.output = deps.taggedFlow = empty;
  deps.liveIn = scop.accesses(true, false, false).range();
  deps.taggedLiveIn = scop.taggedAccesses(true, false, false);
  return deps;
}

Dependences computeDependences(const Scop &scop) {
  DependenceCache cache;
  return computeDependences(scop, cache);
}

Dependences computeDependences(const Scop &scop, DependenceCache &cache) {
  std::vector<unsigned> all(scop.arrays.size());
  for (unsigned a = 0; a < all.size(); ++a)
    all[a] = a;
  return computeDependences(scop, cache, all);
}

Dependences computeDependences(const Scop &scop, DependenceCache &cache,
                               const std::vector<unsigned> &arrays,
                               bool flowOnly) {
  if (cache.budgetExceeded)
    return incomplete(scop, cache);
  bool exceeded = false;
  {
    // One budget for the parts this call computes.
    OperationLimit limit(scop.ctx, cache.maxOperations);
    try {
      for (unsigned a : arrays) {
        auto cached = cache.parts.find(a);
        if (cached == cache.parts.end()) {
          Dependences part = computeFlow(scop, a);
          if (!flowOnly)
            computeAntiOutput(scop, a, part);
          cache.parts[a] = std::make_shared<const Dependences>(part);
        } else if (!flowOnly && !cached->second->hasAntiOutput) {
          Dependences part = *cached->second;
          computeAntiOutput(scop, a, part);
          cached->second = std::make_shared<const Dependences>(part);
        }
      }
    } catch (const isl::exception_quota &) {
      // The limit must be lifted before anything else is computed with
      // this context, so the fallback is built below.
      exceeded = true;
    }
  }
  if (exceeded) {
    cache.budgetExceeded = true;
    return incomplete(scop, cache);
  }
  Dependences deps;
  isl::union_map empty = isl::union_map::empty(scop.ctx);
  deps.flow = deps.anti = deps.output = deps.taggedFlow = deps.taggedLiveIn =
      empty;
  deps.liveIn = isl::union_set::empty(scop.ctx);
  for (unsigned a : arrays) {
    const Dependences &part = *cache.parts.at(a);
    deps.flowByArray[a] = part.flow;
    deps.flow = deps.flow.unite(part.flow);
    deps.anti = deps.anti.unite(part.anti);
    deps.output = deps.output.unite(part.output);
    deps.taggedFlow = deps.taggedFlow.unite(part.taggedFlow);
    deps.liveIn = deps.liveIn.unite(part.liveIn);
    deps.taggedLiveIn = deps.taggedLiveIn.unite(part.taggedLiveIn);
  }
  // Not coalesced: the result of coalescing depends on the order of the
  // disjuncts, and isl's scheduler is very sensitive to it (one order made
  // heat-3d's schedule take 20 times as long); the parts as isl's dataflow
  // analysis returns them schedule as fast as the best order did.
  return deps;
}

static Dependences computeFlow(const Scop &scop, unsigned array) {
  int a = array;
  isl::union_map taggedReads = scop.taggedAccesses(true, false, false, a);
  isl::union_map taggedMust = scop.taggedAccesses(false, true, false, a);
  isl::union_map taggedMay = scop.taggedAccesses(false, false, true, a);
  isl::union_map taggedWrites = taggedMust.unite(taggedMay);
  Dependences deps;
  deps.hasAntiOutput = false;
  isl::union_map empty = isl::union_map::empty(scop.ctx);
  deps.anti = deps.output = empty;
  if (taggedWrites.is_empty()) {
    // Read-only: no dependences, every read is live-in.
    deps.flow = deps.taggedFlow = empty;
    deps.taggedLiveIn = taggedReads;
    deps.liveIn = taggedReads.range();
    return deps;
  }

  // Tag the schedule too: { [S[i] -> ref[]] -> [t] }.
  isl::union_map tagDomains = taggedReads.unite(taggedWrites).domain().unwrap();
  isl::union_map taggedSchedule =
      tagDomains.domain_map().apply_range(scop.originalSchedule);

  isl::union_map unread;
  deps.taggedFlow = dataflow(taggedReads, taggedMust, taggedMay,
                             taggedSchedule, &unread);
  deps.liveIn = unread.range();
  deps.taggedLiveIn = unread;
  deps.flow = untag(deps.taggedFlow).intersect_params(scop.context);
  return deps;
}

static void computeAntiOutput(const Scop &scop, unsigned array,
                              Dependences &deps) {
  // Memory-based WAR and WAW: every earlier access is a source, so all of
  // them are may sources (must sources would kill older ones). Untagged:
  // the report and the scheduler need only statement instances, and one
  // access relation per statement is much cheaper than one per reference.
  int a = array;
  isl::union_map empty = isl::union_map::empty(scop.ctx);
  isl::union_map reads = scop.accesses(true, false, false, a);
  isl::union_map writes = scop.accesses(false, true, true, a);
  deps.hasAntiOutput = true;
  if (writes.is_empty()) {
    deps.anti = deps.output = empty;
    return;
  }
  deps.anti = dataflow(writes, empty, reads, scop.originalSchedule)
                  .intersect_params(scop.context);
  deps.output = dataflow(writes, empty, writes, scop.originalSchedule)
                    .intersect_params(scop.context);
}

} // namespace polycuda::polyhedral
