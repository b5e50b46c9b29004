//===- GpuMappingReductions.cpp - Reductions shared by a block's lanes ---===//
//
// Part of stage 3's Mapper (see GpuMappingInternal.h).
//
//===----------------------------------------------------------------------===//
#include "GpuMappingInternal.h"

namespace polycuda::polyhedral::mapping {

std::optional<isl::schedule_node>
Mapper::hoistAroundReduction(const isl::schedule_node &node,
                             unsigned parallel) const {
  isl::schedule_node_band band = node.as<isl::schedule_node_band>();
  if (!options.reductions || parallel != 1 || band.n_member() != 3 ||
      !band.permutable() || isCoincident(node, 2) ||
      !onlyStatementsBelow(node.child(0)))
    return std::nullopt;
  isl::union_set instances = domainOf(node);
  std::optional<std::vector<Update>> updates = reductionUpdates(instances);
  if (!updates)
    return std::nullopt;
  isl::multi_union_pw_aff partial = band.get_partial_schedule();
  auto member = [&](unsigned d) { return memberMap(partial.at(d), instances); };
  isl::union_map outer =
      node.get_prefix_schedule_union_map().intersect_domain(instances);
  // Few blocks of a warp along the parallel member.
  std::optional<long> bound =
      boundExtent(instancesInBounds(scop, instances), outer, member(0));
  if (!bound ||
      (*bound + options.device.warpSize - 1) / options.device.warpSize >=
          options.device.multiprocessors)
    return std::nullopt;
  isl::union_map host = flatRangeProduct(outer, member(1));
  if (!reductionsAreLegal(*updates, instances, host,
                          flatRangeProduct(host, member(0))))
    return std::nullopt;
  isl::union_pw_aff_list order(scop.ctx, 3);
  order = order.add(partial.at(1)).add(partial.at(0)).add(partial.at(2));
  isl::schedule_node at = deleteNode(node).insert_partial_schedule(
      isl::multi_union_pw_aff(partial.get_space(), order));
  at = at.as<isl::schedule_node_band>().set_permutable(1);
  at = setCoincident(at, 0, false);
  at = setCoincident(at, 1, true);
  at = setCoincident(at, 2, false);
  return at.as<isl::schedule_node_band>().split(1);
}

bool Mapper::oneThread(const isl::schedule_node &node) const {
  return !hasCoincidentMember(node) && !hasLongReduction(node) &&
         !mayBeReduction(node);
}

bool Mapper::mayBeReduction(isl::schedule_node node) const {
  if (!options.reductions)
    return false;
  if (node.isa<isl::schedule_node_filter>())
    node = node.child(0);
  if (!node.isa<isl::schedule_node_band>() ||
      node.as<isl::schedule_node_band>().n_member() != 1 ||
      !onlyStatementsBelow(node.child(0)))
    return false;
  return reductionUpdates(domainOf(node)).has_value();
}

isl::schedule_node Mapper::runToGroup(const isl::schedule_node &node) const {
  if (isMark(node, MarkKind::Host))
    return isl::schedule_node();
  if (!node.isa<isl::schedule_node_domain>() &&
      !node.isa<isl::schedule_node_filter>() && oneThread(node))
    return isl::schedule_node();
  if (node.isa<isl::schedule_node_sequence>()) {
    int n = node.n_children();
    for (int a = 0; a + 1 < n; ++a)
      if (oneThread(node.child(a)) && oneThread(node.child(a + 1)))
        return node;
  }
  for (int i = 0, n = node.n_children(); i < n; ++i) {
    isl::schedule_node found = runToGroup(node.child(i));
    if (!found.is_null())
      return found;
  }
  return isl::schedule_node();
}

isl::schedule_node Mapper::groupOneThreadKernels(isl::schedule_node root) {
  for (isl::schedule_node node = runToGroup(root); !node.is_null();
       node = runToGroup(root)) {
    int n = node.n_children();
    int a = 0;
    while (!(oneThread(node.child(a)) && oneThread(node.child(a + 1))))
      ++a;
    int b = a + 1;
    while (b + 1 < n && oneThread(node.child(b + 1)))
      ++b;
    auto filterOf = [&](int first, int last) {
      isl::union_set filter = isl::union_set::empty(scop.ctx);
      for (int i = first; i <= last; ++i)
        filter = filter.unite(
            node.child(i).as<isl::schedule_node_filter>().get_filter());
      return filter;
    };
    isl::union_set run = filterOf(a, b);
    isl::union_set after =
        b + 1 < n ? filterOf(b + 1, n - 1) : isl::union_set::empty(scop.ctx);
    // [before | run + after], then [run | after] (isl splices the new
    // sequences into their parent sequence; the run stays one child).
    if (a > 0)
      node = node.order_after(run.unite(after));
    root = node.root();
    if (b + 1 < n) {
      isl::schedule_node sequence = findSequenceOf(root, run);
      if (sequence.is_null())
        break;
      root = sequence.order_before(run).root();
    }
  }
  return root;
}

isl::schedule_node Mapper::splitReductionInits(isl::schedule_node root) {
  isl::union_set inits;
  for (isl::schedule_node node = bandWithInits(root, inits); !node.is_null();
       node = bandWithInits(root, inits)) {
    std::string names;
    for (const isl::set &set : setsOf(inits))
      names += (names.empty() ? "" : ", ") + tupleName(set);
    for (const isl::set &set : setsOf(domainOf(node).subtract(inits)))
      initsSplitOff[tupleName(set)] = names;
    root = node.order_before(inits).root();
  }
  return root;
}

isl::schedule_node Mapper::bandWithInits(const isl::schedule_node &node,
                                         isl::union_set &inits) const {
  if (isMark(node, MarkKind::Host))
    return isl::schedule_node();
  if (node.isa<isl::schedule_node_band>())
    if (std::optional<isl::union_set> found = initsOf(node)) {
      inits = *found;
      return node;
    }
  for (int i = 0, n = node.n_children(); i < n; ++i) {
    isl::schedule_node found = bandWithInits(node.child(i), inits);
    if (!found.is_null())
      return found;
  }
  return isl::schedule_node();
}

std::optional<isl::union_set>
Mapper::initsOf(const isl::schedule_node &node) const {
  if (!options.reductions || !program.deps.complete)
    return std::nullopt;
  unsigned members = node.as<isl::schedule_node_band>().n_member();
  if (leadingCoincident(node) + 1 != members || members > 3 ||
      (members < 3 && !onlyStatementsBelow(node.child(0))))
    return std::nullopt;
  isl::union_set instances = domainOf(node);
  isl::union_set updates = isl::union_set::empty(scop.ctx);
  isl::union_set inits = isl::union_set::empty(scop.ctx);
  std::set<unsigned> reduced;
  std::vector<const Statement *> others;
  for (const isl::set &set : setsOf(instances)) {
    const Statement *stmt = scop.findStatement(tupleName(set));
    if (!stmt)
      return std::nullopt;
    std::optional<ReductionForm> form = reductionForm(*stmt);
    if (form && isBounded(stmt->domain)) {
      updates = updates.unite(isl::union_set(set));
      reduced.insert(stmt->accesses[form->write].array);
    } else {
      inits = inits.unite(isl::union_set(set));
      others.push_back(stmt);
    }
  }
  if (updates.is_empty() || inits.is_empty() ||
      (members == 3 && !lanesPayBesideTwoMembers(node, updates)))
    return std::nullopt;
  for (const Statement *stmt : others)
    for (const Access &access : stmt->accesses)
      if (access.kind != Access::Kind::Read && !reduced.count(access.array))
        return std::nullopt;
  isl::union_map prefix =
      node.get_prefix_schedule_union_map().intersect_domain(instances);
  isl::union_map backwards =
      program.deps.flow.unite(program.deps.anti)
          .unite(program.deps.output)
          .intersect_domain(updates)
          .intersect_range(inits)
          .intersect(prefix.apply_range(prefix.reverse()));
  if (!backwards.is_empty())
    return std::nullopt;
  return inits;
}

isl::schedule_node Mapper::findSequenceOf(const isl::schedule_node &node,
                                          const isl::union_set &run) {
  if (node.isa<isl::schedule_node_sequence>()) {
    isl::union_set prefix = isl::union_set::empty(run.ctx());
    for (int i = 0, n = node.n_children(); i + 1 < n; ++i) {
      prefix = prefix.unite(
          node.child(i).as<isl::schedule_node_filter>().get_filter());
      if (!prefix.is_subset(run))
        break;
      if (i > 0 && prefix.is_equal(run))
        return node;
    }
  }
  for (int i = 0, n = node.n_children(); i < n; ++i) {
    isl::schedule_node found = findSequenceOf(node.child(i), run);
    if (!found.is_null())
      return found;
  }
  return isl::schedule_node();
}

std::optional<std::vector<Mapper::Update>>
Mapper::reductionUpdates(const std::vector<std::string> &names) const {
  std::vector<Update> updates;
  for (const std::string &name : names) {
    const Statement *stmt = scop.findStatement(name);
    std::optional<ReductionForm> form = reductionForm(*stmt);
    if (!form || !isBounded(stmt->domain))
      return std::nullopt;
    updates.push_back({stmt, *form});
  }
  return updates;
}

std::optional<std::vector<Mapper::Update>>
Mapper::reductionUpdates(const isl::union_set &instances) const {
  std::vector<std::string> names;
  for (const isl::set &set : setsOf(instances))
    names.push_back(tupleName(set));
  return reductionUpdates(names);
}

bool Mapper::onlyStatementsBelow(const isl::schedule_node &node) {
  if (node.isa<isl::schedule_node_band>())
    return false;
  for (int i = 0, n = node.n_children(); i < n; ++i)
    if (!onlyStatementsBelow(node.child(i)))
      return false;
  return true;
}

bool Mapper::hasLongReduction(const isl::schedule_node &node) const {
  if (!options.reductions)
    return false;
  if (node.isa<isl::schedule_node_band>()) {
    isl::union_set instances = domainOf(node);
    std::vector<isl::set> sets = setsOf(instances);
    if (sets.size() != 1 ||
        node.as<isl::schedule_node_band>().n_member() != 1 ||
        !node.child(0).isa<isl::schedule_node_leaf>())
      return false;
    std::optional<std::vector<Update>> updates =
        reductionUpdates({tupleName(sets[0])});
    if (!updates)
      return false;
    isl::union_map host =
        node.get_prefix_schedule_union_map().intersect_domain(instances);
    if (!reductionsAreLegal(*updates, instances, host, host))
      return false;
    isl::union_map member =
        isl::union_map::from(
            node.as<isl::schedule_node_band>().get_partial_schedule())
            .intersect_domain(instances);
    std::optional<long> bound =
        boundExtent(instancesInBounds(scop, instances), host, member);
    return !bound || *bound >= options.reductionHostMinIterations;
  }
  for (int i = 0, n = node.n_children(); i < n; ++i)
    if (hasLongReduction(node.child(i)))
      return true;
  return false;
}

bool Mapper::lanesPayBesideTwoMembers(const isl::schedule_node &node,
                                      const isl::union_set &updates) const {
  isl::schedule_node_band band = node.as<isl::schedule_node_band>();
  if (band.n_member() != 3 || !isCoincident(node, 0) ||
      !isCoincident(node, 1) || isCoincident(node, 2))
    return false;
  isl::union_set inBounds = instancesInBounds(scop, updates);
  isl::union_map outer =
      node.get_prefix_schedule_union_map().intersect_domain(updates);
  isl::multi_union_pw_aff partial = band.get_partial_schedule();
  long elements = 1;
  isl::union_map prefix = outer;
  for (unsigned d = 0; d < 2; ++d) {
    isl::union_map member = memberMap(partial.at(d), updates);
    std::optional<long> bound = boundExtent(inBounds, outer, member);
    if (!bound)
      return false;
    elements *= *bound;
    prefix = flatRangeProduct(prefix, member);
  }
  long threads = long(options.device.multiprocessors) *
                 options.device.maxThreadsPerMultiprocessor;
  if (elements * kLanesBesideTwoMembers > threads)
    return false;
  // Per statement, the box of the instances that update one element: its
  // widths bound how many there are.
  long perElement = 0;
  for (const isl::map &piece : mapsOf(prefix.intersect_domain(inBounds))) {
    std::optional<std::vector<long>> widths =
        rangeWidthsPerKey(piece.reverse());
    if (!widths)
      return false;
    long points = 1;
    for (long width : *widths)
      points =
          std::min(points * std::min(width, kMinIterationsPerElementForLanes),
                   kMinIterationsPerElementForLanes);
    perElement = std::max(perElement, points);
  }
  return perElement >= kMinIterationsPerElementForLanes;
}

std::optional<BlockReduction>
Mapper::findReduction(const Kernel &kernel, const isl::schedule_node &node,
                      unsigned mapped) const {
  if (!options.reductions || mapped > 2 ||
      !node.isa<isl::schedule_node_band>() ||
      node.as<isl::schedule_node_band>().n_member() != mapped + 1)
    return std::nullopt;
  if (mapped == 2 ? !lanesPayBesideTwoMembers(node, kernel.instances)
                  : !onlyStatementsBelow(node.child(0)))
    return std::nullopt;
  // Every statement updates the reduced element (Reductions.h).
  std::optional<std::vector<Update>> found =
      reductionUpdates(kernel.statements);
  if (!found)
    return std::nullopt;
  const std::vector<Update> &updates = *found;
  isl::multi_union_pw_aff partial =
      node.as<isl::schedule_node_band>().get_partial_schedule();
  isl::union_map prefix = kernel.hostSchedule;
  for (unsigned d = 0; d < mapped; ++d)
    prefix =
        flatRangeProduct(prefix, memberMap(partial.at(d), kernel.instances));
  if (!reductionsAreLegal(updates, kernel.instances, kernel.hostSchedule,
                          prefix))
    return std::nullopt;
  BlockReduction reduction;
  reduction.owners = kernel.instances; // set by mapBand (never null:
                                       // isl objects copy only then)
  const ReductionForm &first = updates.front().second;
  reduction.array = updates.front().first->accesses[first.write].array;
  reduction.op = first.op;
  reduction.member = mapped;
  bool others = false;
  for (const auto &[stmt, form] : updates) {
    unsigned index = stmt - scop.statements.data();
    reduction.statements.push_back(index);
    for (unsigned access : form.references)
      reduction.references.push_back({index, access});
    others |= !form.others.empty();
    // The loop: the first iterator that instances with one prefix
    // differ in, in a statement that has several.
    if (!reduction.loop.empty())
      continue;
    isl::map byPrefix = pieceOf(prefix, stmt->name);
    isl::set deltas = byPrefix.apply_range(byPrefix.reverse()).deltas();
    for (unsigned d = 0; d < stmt->sourceIterators.size(); ++d)
      if (!fixedValue(deltas, d)) {
        reduction.loop = stmt->sourceIterators[d];
        break;
      }
  }
  const std::string &array = scop.arrays[reduction.array].name;
  reduction.variable = "polycuda_" + array + "_red";
  reduction.buffer = "polycuda_" + array + "_red_shared";
  reduction.otherReads = others;
  reduction.initsSplitOff = splitInits(kernel);
  return reduction;
}

std::vector<std::string> Mapper::splitInits(const Kernel &kernel) const {
  std::vector<std::string> inits;
  for (const std::string &name : kernel.statements)
    if (auto split = initsSplitOff.find(name); split != initsSplitOff.end())
      inits.push_back(split->second);
  return inits;
}

std::optional<std::string>
Mapper::readSharedAlongLanes(const Kernel &kernel) const {
  const BlockReduction &reduction = *kernel.reduction;
  isl::union_map thread = kernel.hostSchedule;
  for (const isl::union_map &member : kernel.mapping->memberSchedules)
    thread = flatRangeProduct(thread, member);
  for (unsigned index : reduction.statements) {
    const Statement &stmt = scop.statements[index];
    auto loop = std::find(stmt.sourceIterators.begin(),
                          stmt.sourceIterators.end(), reduction.loop);
    if (loop == stmt.sourceIterators.end())
      continue;
    isl::set instances = kernel.instances.intersect(isl::union_set(stmt.domain))
                             .extract_set(stmt.domain.get_space());
    // Instances that differ at most in the reduction's loop.
    unsigned along = loop - stmt.sourceIterators.begin();
    isl::map alongLoop =
        equateAllBut(mapFromDomainAndRange(instances, instances), along);
    isl::map byThread = pieceOf(thread, stmt.name);
    for (const Access &access : stmt.accesses) {
      if (access.kind != Access::Kind::Read || !access.isAffine() ||
          access.array == reduction.array)
        continue;
      isl::map read = access.relation.intersect_domain(instances);
      if (alongLoop.is_subset(read.apply_range(read.reverse())) &&
          !byThread.reverse().apply_range(read).is_single_valued())
        return accessText(scop, stmt, access);
    }
  }
  return std::nullopt;
}

} // namespace polycuda::polyhedral::mapping
