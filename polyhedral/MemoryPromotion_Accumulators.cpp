//===- MemoryPromotion_Accumulators.cpp - Accumulators in registers -------===//
//
// Part of stage 4 (see MemoryPromotion.h): a reference that one thread
// reads and writes at the same element across a loop (gemm's C[i][j] in
// its k loop) is loaded into a register before the loop and stored after
// it; the loads and stores are extension nodes grafted around the loop.
//
//===----------------------------------------------------------------------===//
#include "MemoryPromotionInternal.h"

#include "IslExtras.h"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

namespace polycuda::polyhedral {

namespace {

/// The schedule of `band`'s ancestors and its first `members` members,
/// `{ S[i] -> [p] }` over the instances that reach it.
isl::union_map prefixAt(const isl::schedule_node &band, unsigned members) {
  isl::union_map prefix = band.get_prefix_schedule_union_map();
  if (members == 0)
    return prefix;
  isl::multi_union_pw_aff partial =
      band.as<isl::schedule_node_band>().get_partial_schedule();
  isl::union_map inner = memberMap(partial.at(0));
  for (unsigned m = 1; m < members; ++m)
    inner = flatRangeProduct(inner, memberMap(partial.at(m)));
  return flatRangeProduct(prefix, inner.intersect_domain(domainOf(band)));
}

/// Finds register accumulators in one kernel's subtree and rewrites the
/// subtree: `polycuda_load_N` before and `polycuda_store_N` after each
/// loop that keeps a reference in a register (extension nodes, grafted as
/// PPCG grafts its copies). Loops are considered outermost first; a
/// reference kept in a register across a loop is not considered again
/// inside it.
class AccumulatorFinder {
public:
  /// `points`: in a register-tiled kernel whose thread band was jammed
  /// (jamRegisterTile), the point of each instance in its thread's
  /// register tile, `{ S[i] -> [r0, r1] }`; otherwise null.
  AccumulatorFinder(const Scop &scop, Kernel &kernel,
                    const isl::union_set &threadFilter,
                    const std::optional<isl::union_map> &points)
      : scop(scop), kernel(kernel), threadFilter(threadFilter),
        points(points) {
    // Which thread of the launch runs an instance: the mapped members,
    // with the host iterators as parameters (one launch).
    thread = kernel.mapping->memberSchedules[0];
    for (unsigned d = 1; d < kernel.mapping->memberSchedules.size(); ++d)
      thread = flatRangeProduct(thread, kernel.mapping->memberSchedules[d]);
    thread = thread.intersect_domain(kernel.domain);
  }

  /// Where a node is in the kernel's tree: above the tile band (blocks),
  /// between it and the thread mark (a block's loops: shared memory's
  /// tile loop), at the band of the threads, or below it.
  enum class Level { Block, Tiles, Point, Inner };

  isl::schedule_node visit(isl::schedule_node node, Level level) {
    if (isMark(node, MarkKind::Thread))
      return visit(node.child(0), Level::Point).parent();
    // A register tile's points: no loop to hold anything across.
    if (isMark(node, MarkKind::Unroll))
      return node;
    if (node.isa<isl::schedule_node_band>()) {
      if (level == Level::Block) {
        level = Level::Tiles; // the tile band: one value per block
      } else {
        // The thread's band starts with the mapped members, unless they
        // were moved into the unrolled band below it (jamRegisterTile).
        node = promoteMembers(node, level == Level::Point && !points
                                        ? kernel.mapping->numMapped
                                        : 0);
        if (level == Level::Point)
          level = Level::Inner;
      }
    }
    for (int i = 0, n = node.n_children(); i < n; ++i)
      node = visit(node.child(i), level).parent();
    return node;
  }

private:
  const Scop &scop;
  Kernel &kernel;
  /// The instances of this thread (parameters: block and thread ids).
  isl::union_set threadFilter;
  std::optional<isl::union_map> points;
  isl::union_map thread;
  std::set<std::pair<unsigned, unsigned>> promoted;

  /// The register of each point of a thread's register tile:
  /// `{ S[i] -> [r0 * R1 + r1] }` from `points`.
  isl::union_map slotOfPoint() const {
    unsigned inner = kernel.mapping->registerTile.size() > 1
                         ? kernel.mapping->registerTile[1]
                         : 1;
    isl::union_map slot = isl::union_map::empty(scop.ctx);
    for (const isl::map &map : mapsOf(*points)) {
      isl::space space = map.get_space().range();
      isl::pw_aff r0 = variableOn(space, 0), r1 = variableOn(space, 1);
      isl::pw_aff value = r0.scale(isl::val(scop.ctx, long(inner))).add(r1);
      slot = slot.unite(isl::union_map(map.apply_range(value.as_map())));
    }
    return slot;
  }

  /// Tries each member of `band` from `first` on; at the first member that
  /// keeps some reference in a register, splits the band so that this
  /// member is a band of its own and grafts the loads and stores around
  /// it. Returns the node at `band`'s position.
  isl::schedule_node promoteMembers(isl::schedule_node band, unsigned first) {
    unsigned n = band.as<isl::schedule_node_band>().n_member();
    for (unsigned m = first; m < n; ++m) {
      std::vector<RegisterAccumulator> found;
      std::vector<isl::map> elements;
      std::vector<std::optional<isl::map>> slots;
      isl::union_map prefix = prefixAt(band, m);
      isl::union_map member = memberMap(
          band.as<isl::schedule_node_band>().get_partial_schedule().at(m));
      // Above the threads (a block's loop), the instances of this thread.
      isl::union_set domain = domainOf(band).intersect(threadFilter);
      for (unsigned a = 0; a < scop.arrays.size(); ++a)
        if (std::optional<Held> held =
                accumulatorOf(a, prefix, member, domain, found)) {
          elements.push_back(held->element);
          slots.push_back(held->slot);
        }
      if (found.empty())
        continue;
      unsigned depth = band.tree_depth();
      isl::schedule_node loop = band;
      if (m > 0)
        loop = loop.as<isl::schedule_node_band>().split(m).child(0);
      if (loop.as<isl::schedule_node_band>().n_member() > 1)
        loop = loop.as<isl::schedule_node_band>().split(1);
      for (size_t i = 0; i < found.size(); ++i) {
        unsigned index = kernel.accumulators.size();
        loop = graft(loop, elements[i], slots[i],
                     kernel.addStatement(AddedOp::RegisterLoad, index), true);
        loop = graft(loop, elements[i], slots[i],
                     kernel.addStatement(AddedOp::RegisterStore, index),
                     false);
        kernel.accumulators.push_back(found[i]);
      }
      // Back to `band`'s position: the band of the members before `m`,
      // or the sequence that the grafts put the loop in.
      while (loop.tree_depth() > depth)
        loop = loop.parent();
      return loop;
    }
    return band;
  }

  /// `node` with the statement `statement` over `element` (`{ [p] -> A[e] }`)
  /// grafted before (after) it; returns the node at `node`'s position.
  /// With several elements per `p` (a register tile's, `slot`:
  /// `{ A[e] -> [r] }` their registers), the statement's instances run in
  /// a band of their registers, below an unroll mark (MarkKind::Unroll).
  isl::schedule_node graft(isl::schedule_node node, const isl::map &element,
                           const std::optional<isl::map> &slot,
                           const std::string &statement, bool before) {
    isl::map copy = withRangeName(element, statement);
    isl::schedule_node graft =
        isl::schedule_node::from_extension(isl::union_map(copy));
    node = before ? node.graft_before(graft) : node.graft_after(graft);
    if (!slot)
      return node;
    // The grafted statement is the neighbour of `node`'s filter in the
    // sequence that holds both.
    isl::schedule_node filter = node.parent();
    int position = filter.child_position();
    isl::schedule_node leaf =
        filter.parent().child(before ? position - 1 : position + 1).child(0);
    isl::union_pw_aff registers(
        withDomainName(*slot, statement).as_pw_multi_aff().at(0));
    isl::schedule_node band =
        leaf.insert_partial_schedule(isl::multi_union_pw_aff(registers));
    band = band.insert_mark(
        gpuMark(scop.ctx, GpuMark{MarkKind::Unroll,
                                  {long(kernel.mapping->pointsPerThread())},
                                  {}}));
    // Back to `node`: the mark's filter is still the neighbour.
    return band.parent().parent().child(position).child(0);
  }

  /// The references to array `a` in `domain` that could share a register
  /// across the loop after `key` (`{ S[i] -> [p] }`): affine, one element
  /// per `p`, not already promoted.
  struct Candidates {
    RegisterAccumulator accumulator; ///< with the candidate references
    isl::union_map elements;  ///< `{ [p] -> A[e] }` of the candidates
    isl::union_map others;    ///< the same of the other references
    isl::union_map accesses;  ///< `{ S[i] -> A[e] }` of the candidates
    bool writes = false;      ///< whether a candidate writes
  };
  Candidates candidatesOf(unsigned a, const isl::union_map &key,
                          const isl::union_set &domain) {
    Candidates c;
    c.elements = c.others = c.accesses = isl::union_map::empty(scop.ctx);
    c.accumulator.array = a;
    isl::union_map byPrefix = key.reverse();
    for (unsigned s = 0; s < scop.statements.size(); ++s) {
      const Statement &stmt = scop.statements[s];
      for (unsigned i = 0; i < stmt.accesses.size(); ++i) {
        const Access &access = stmt.accesses[i];
        if (access.array != a)
          continue;
        isl::union_map relation =
            isl::union_map(access.relation).intersect_domain(domain);
        if (relation.is_empty())
          continue;
        isl::union_map element = byPrefix.apply_range(relation);
        if (promoted.count({s, i}) || !access.isAffine() ||
            !element.is_single_valued()) {
          c.others = c.others.unite(element);
          continue;
        }
        c.elements = c.elements.unite(element);
        c.accesses = c.accesses.unite(relation);
        c.writes |= access.kind != Access::Kind::Read;
        c.accumulator.references.push_back({s, i});
        if (c.accumulator.loop.empty())
          c.accumulator.loop = loopOf(stmt, key, relation);
      }
    }
    return c;
  }

  /// A register accumulator of array `a` across the loop after `prefix`
  /// (`{ S[i] -> [p] }` over `domain`), appended to `found`, the element
  /// it holds, `{ [p] -> A[e] }`, and in a jammed register tile each
  /// element's register, `{ A[e] -> [r] }` (null otherwise); nothing when
  /// there is none. In a register tile the element is a function of the
  /// prefix and the instance's point (`points`): one register per point.
  struct Held {
    isl::map element;
    std::optional<isl::map> slot;
  };
  std::optional<Held>
  accumulatorOf(unsigned a, const isl::union_map &prefix,
                const isl::union_map &member, const isl::union_set &domain,
                std::vector<RegisterAccumulator> &found) {
    if (std::find(kernel.registers.begin(), kernel.registers.end(), a) !=
        kernel.registers.end())
      return std::nullopt;
    // Only an element that the loop writes is held (cheap to rule out
    // first: the checks below are not).
    bool written = false;
    for (const Statement &stmt : scop.statements)
      for (const Access &access : stmt.accesses)
        written |= access.array == a && access.kind != Access::Kind::Read &&
                   !isl::union_map(access.relation)
                        .intersect_domain(domain)
                        .is_empty();
    if (!written)
      return std::nullopt;
    bool tiled = points.has_value();
    // In a register tile the element is a function of the prefix and the
    // point, which the mapped members (`thread`) fix as well (the thread's
    // points are t, t + T, ...): affine, they keep isl's checks below
    // cheap.
    isl::union_map key =
        tiled ? flatRangeProduct(prefix, thread.intersect_domain(domain))
              : prefix;
    Candidates c = candidatesOf(a, key, domain);
    RegisterAccumulator &accumulator = c.accumulator;
    // Reuse: the element is accessed in more than one iteration of the
    // loop (a single access gains nothing from a register).
    isl::union_set instances = c.accesses.domain();
    isl::union_map iterations =
        key.intersect_domain(instances).reverse().apply_range(
            member.intersect_domain(instances));
    if (!c.writes || iterations.is_single_valued() ||
        !c.elements.is_single_valued() ||
        !c.elements.intersect(c.others).is_empty() ||
        !oneThreadAccesses(a, c.accesses.range()))
      return std::nullopt;
    isl::map element = c.elements.as_map();
    std::optional<isl::map> slot;
    if (tiled) {
      // One register per point: each element has one point's register.
      isl::union_map ofPoint = slotOfPoint();
      isl::union_map elementSlot =
          c.accesses.reverse().apply_range(ofPoint);
      if (!elementSlot.is_single_valued() || elementSlot.is_empty())
        return std::nullopt;
      slot = elementSlot.as_map();
      unsigned dims = setDims(element.get_space().domain());
      element = projectOutInputs(element, dims - 2, 2);
      accumulator.slots = kernel.mapping->pointsPerThread();
    }
    for (const auto &reference : accumulator.references)
      promoted.insert(reference);
    accumulator.variable = variableName(a);
    found.push_back(accumulator);
    return Held{element, slot};
  }

  /// The loop of `stmt` (its source iterator) that the first member after
  /// `prefix` runs: the first iterator the prefix does not fix.
  std::string loopOf(const Statement &stmt, const isl::union_map &prefix,
                     const isl::union_map &relation) {
    isl::map instances = prefix.intersect_domain(relation.domain())
                             .as_map(); // one statement
    isl::map same = instances.apply_range(instances.reverse());
    isl::set deltas = same.deltas();
    for (unsigned d = 0; d < stmt.sourceIterators.size(); ++d)
      if (!isZeroDim(deltas, d)) // the deltas of one prefix include 0
        return stmt.sourceIterators[d];
    return ""; // one iteration for this statement: ask the next one
  }

  /// Whether each element of `elements` of array `a` is accessed by one
  /// thread only in one launch of the kernel.
  bool oneThreadAccesses(unsigned a, const isl::union_set &elements) {
    isl::union_map accesses = isl::union_map::empty(scop.ctx);
    for (const Statement &stmt : scop.statements)
      for (const Access &access : stmt.accesses)
        if (access.array == a)
          accesses = accesses.unite(isl::union_map(access.relation));
    accesses = accesses.intersect_domain(kernel.domain)
                   .intersect_range(elements);
    return accesses.reverse().apply_range(thread).is_single_valued();
  }

  std::string variableName(unsigned a) const {
    std::string base = "polycuda_" + scop.arrays[a].name + "_reg";
    unsigned same = 0;
    for (const RegisterAccumulator &other : kernel.accumulators)
      same += other.array == a;
    return same ? base + std::to_string(same) : base;
  }
};

} // namespace

isl::schedule_node
promoteAccumulatorsBelow(const Scop &scop, Kernel &kernel,
                         const isl::schedule_node &root,
                         const isl::union_set &threadFilter,
                         const std::optional<isl::union_map> &points) {
  AccumulatorFinder finder(scop, kernel, threadFilter, points);
  return finder.visit(root, AccumulatorFinder::Level::Block);
}

} // namespace polycuda::polyhedral
