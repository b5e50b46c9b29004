//===- MemoryPromotion.cpp - Arrays moved closer to the threads -----------===//
//
// Stage 4 (see MemoryPromotion.h).
//
//===----------------------------------------------------------------------===//
#include "MemoryPromotion.h"

#include "IslExtras.h"
#include "SharedMemory.h"

#include <algorithm>
#include <set>

namespace polycuda::polyhedral {

namespace {

/// Can local array `a`, accessed only by `kernel`, live in a register?
bool fitsInRegister(const Scop &scop, const Dependences &deps,
                    const Kernel &kernel, unsigned a) {
  // Thread coordinates of an instance: host iteration and mapped members.
  isl::union_map thread = kernel.hostSchedule;
  for (const isl::union_map &member : kernel.memberSchedules)
    thread = flatRangeProduct(thread, member);
  isl::union_map sameThread = thread.apply_range(thread.reverse());
  if (!flowOnArray(scop, deps, a).is_subset(sameThread))
    return false;
  isl::union_map access = isl::union_map::empty(scop.ctx);
  for (const Statement &stmt : scop.statements)
    for (const Access &acc : stmt.accesses)
      if (acc.array == a)
        access = access.unite(isl::union_map(acc.relation));
  access = access.intersect_domain(kernel.instances);
  return thread.reverse().apply_range(access).is_single_valued();
}

/// The schedule of `band`'s ancestors and its first `members` members,
/// `{ S[i] -> [p] }` over the instances that reach it.
isl::union_map prefixAt(const isl::schedule_node &band, unsigned members) {
  isl::union_map prefix = band.get_prefix_schedule_union_map();
  if (members == 0)
    return prefix;
  isl::multi_union_pw_aff partial =
      band.as<isl::schedule_node_band>().get_partial_schedule();
  isl::union_map inner = isl::union_map::from(isl::multi_union_pw_aff(
      partial.at(0)));
  for (unsigned m = 1; m < members; ++m)
    inner = flatRangeProduct(
        inner, isl::union_map::from(isl::multi_union_pw_aff(partial.at(m))));
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
  AccumulatorFinder(const Scop &scop, Kernel &kernel,
                    const isl::union_set &threadFilter)
      : scop(scop), kernel(kernel), threadFilter(threadFilter) {
    // Which thread of the launch runs an instance: the mapped members,
    // with the host iterators as parameters (one launch).
    thread = kernel.memberSchedules[0];
    for (unsigned d = 1; d < kernel.memberSchedules.size(); ++d)
      thread = flatRangeProduct(thread, kernel.memberSchedules[d]);
    thread = thread.intersect_domain(kernel.domain);
  }

  /// Where a node is in the kernel's tree: above the tile band (blocks),
  /// between it and the thread mark (a block's loops: shared memory's
  /// tile loop), at the band of the threads, or below it.
  enum class Level { Block, Tiles, Point, Inner };

  isl::schedule_node visit(isl::schedule_node node, Level level) {
    if (node.isa<isl::schedule_node_mark>() &&
        markId(node).name() == kThreadMark)
      return visit(node.child(0), Level::Point).parent();
    if (node.isa<isl::schedule_node_band>()) {
      if (level == Level::Block) {
        level = Level::Tiles; // the tile band: one value per block
      } else {
        node = promoteMembers(node, level == Level::Point ? kernel.numMapped
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
  isl::union_map thread;
  std::set<std::pair<unsigned, unsigned>> promoted;

  /// Tries each member of `band` from `first` on; at the first member that
  /// keeps some reference in a register, splits the band so that this
  /// member is a band of its own and grafts the loads and stores around
  /// it. Returns the node at `band`'s position.
  isl::schedule_node promoteMembers(isl::schedule_node band, unsigned first) {
    unsigned n = band.as<isl::schedule_node_band>().n_member();
    for (unsigned m = first; m < n; ++m) {
      std::vector<RegisterAccumulator> found;
      std::vector<isl::map> elements;
      isl::union_map prefix = prefixAt(band, m);
      isl::union_map member =
          isl::union_map::from(isl::multi_union_pw_aff(
              band.as<isl::schedule_node_band>().get_partial_schedule().at(
                  m)));
      // Above the threads (a block's loop), the instances of this thread.
      isl::union_set domain = domainOf(band).intersect(threadFilter);
      for (unsigned a = 0; a < scop.arrays.size(); ++a)
        if (std::optional<isl::map> element =
                accumulatorOf(a, prefix, member, domain, found))
          elements.push_back(*element);
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
        loop = graft(loop, elements[i], "polycuda_load_", index, true);
        loop = graft(loop, elements[i], "polycuda_store_", index, false);
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

  /// `node` with a statement `name`index over `element` (`{ [p] -> A[e] }`)
  /// grafted before (after) it; returns the node at `node`'s position.
  isl::schedule_node graft(isl::schedule_node node, const isl::map &element,
                           const std::string &name, unsigned index,
                           bool before) {
    isl::map copy = withRangeName(element, name + std::to_string(index));
    isl::schedule_node graft =
        isl::schedule_node::from_extension(isl::union_map(copy));
    return before ? node.graft_before(graft) : node.graft_after(graft);
  }

  /// A register accumulator of array `a` across the loop after `prefix`
  /// (`{ S[i] -> [p] }` over `domain`), appended to `found`, and the element
  /// it holds, `{ [p] -> A[e] }`; nothing when there is none.
  std::optional<isl::map>
  accumulatorOf(unsigned a, const isl::union_map &prefix,
                const isl::union_map &member, const isl::union_set &domain,
                std::vector<RegisterAccumulator> &found) {
    if (std::find(kernel.registers.begin(), kernel.registers.end(), a) !=
        kernel.registers.end())
      return std::nullopt;
    isl::union_map byPrefix = prefix.reverse();
    isl::union_map candidates = isl::union_map::empty(scop.ctx);
    isl::union_map others = isl::union_map::empty(scop.ctx);
    isl::union_map candidateAccesses = isl::union_map::empty(scop.ctx);
    RegisterAccumulator accumulator;
    accumulator.array = a;
    bool writes = false;
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
          others = others.unite(element);
          continue;
        }
        candidates = candidates.unite(element);
        candidateAccesses = candidateAccesses.unite(relation);
        writes |= access.kind != Access::Kind::Read;
        accumulator.references.push_back({s, i});
        if (accumulator.loop.empty())
          accumulator.loop = loopOf(stmt, prefix, relation);
      }
    }
    // Reuse: the element is accessed in more than one iteration of the
    // loop (a single access gains nothing from a register).
    isl::union_set instances = candidateAccesses.domain();
    isl::union_map iterations =
        prefix.intersect_domain(instances).reverse().apply_range(
            member.intersect_domain(instances));
    if (!writes || iterations.is_single_valued() ||
        !candidates.is_single_valued() ||
        !candidates.intersect(others).is_empty() ||
        !oneThreadAccesses(a, candidateAccesses.range()))
      return std::nullopt;
    for (const auto &reference : accumulator.references)
      promoted.insert(reference);
    accumulator.variable = variableName(a);
    found.push_back(accumulator);
    return candidates.as_map();
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
      if (!fixedValue(deltas, d))
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

void promoteAccumulators(GpuProgram &program) {
  isl::schedule_node root = program.schedule.get_root();
  if (root.n_children() == 0)
    return;
  for (Kernel &kernel : program.kernels) {
    if (kernel.numMapped == 0)
      continue;
    isl::schedule_node mark = findKernelMark(root.child(0), kernel);
    if (mark.is_null())
      continue;
    // (isl/cpp.h objects cannot be copied while null.)
    isl::schedule tree = kernel.deviceTree.is_null()
                             ? subtreeAsSchedule(mark.child(0), kernel.domain)
                             : kernel.deviceTree;
    // mark -> filter (block) -> band -> mark -> mark -> filter (thread).
    isl::schedule_node filter = mark;
    for (int i = 0; i < 5; ++i)
      filter = filter.child(0);
    AccumulatorFinder finder(
        *program.scop, kernel,
        filter.as<isl::schedule_node_filter>().get_filter());
    isl::schedule_node node =
        finder.visit(tree.get_root(), AccumulatorFinder::Level::Block);
    if (!kernel.accumulators.empty())
      kernel.deviceTree = node.get_schedule();
  }
}

void promoteToRegisters(GpuProgram &program) {
  const Scop &scop = *program.scop;
  if (!program.deps.complete)
    return;
  for (unsigned a = 0; a < scop.arrays.size(); ++a) {
    if (!scop.arrays[a].isLocal)
      continue;
    Kernel *owner = nullptr;
    unsigned users = 0;
    for (Kernel &kernel : program.kernels)
      if (std::find(kernel.arrays.begin(), kernel.arrays.end(), a) !=
          kernel.arrays.end()) {
        owner = &kernel;
        ++users;
      }
    if (users != 1 || !fitsInRegister(scop, program.deps, *owner, a))
      continue;
    owner->registers.push_back(a);
    owner->arrays.erase(
        std::find(owner->arrays.begin(), owner->arrays.end(), a));
  }
}

} // namespace polycuda::polyhedral
