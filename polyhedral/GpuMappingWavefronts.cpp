//===- GpuMappingWavefronts.cpp - Tiled wavefronts -----------------------===//
//
// Part of stage 3's Mapper (see GpuMappingInternal.h).
//
//===----------------------------------------------------------------------===//
#include "GpuMappingInternal.h"

namespace polycuda::polyhedral::mapping {

namespace {

/// A skew of a wavefront's band [w, x1, x2]: y1 = x1 + b x2 + a1 w and
/// y2 = x2 + c x1 + a2 w.
struct Skew {
  long b, c, a1, a2;
};

/// The least skew that leaves no dependence distance (`distances`, in
/// [w, x1, x2]) negative along y1 and y2, or nothing. Skews in order of
/// cost: by the other member first (a wider tile wavefront), by w last
/// (w's range is the largest).
std::optional<Skew> leastSkew(const isl::set &distances) {
  isl::pw_aff d0 = variableOn(distances.get_space(), 0);
  isl::pw_aff d1 = variableOn(distances.get_space(), 1);
  isl::pw_aff d2 = variableOn(distances.get_space(), 2);
  isl::pw_aff zero = constantOn(distances.get_space(), 0);
  if (!distances.intersect(d0.le_set(zero)).is_empty())
    return std::nullopt; // w does not carry every dependence
  auto scale = [&](const isl::pw_aff &v, long k) {
    return v.scale(isl::val(distances.ctx(), k));
  };
  for (long cost = 0; cost <= 6; ++cost)
    for (long a1 = 0; a1 <= 2; ++a1)
      for (long a2 = 0; a2 <= 2; ++a2)
        for (long b = 0; b <= 2; ++b)
          for (long c = 0; c <= 2; ++c) {
            if ((b && c) || b + c + 2 * (a1 + a2) != cost)
              continue;
            isl::pw_aff y1 = d1.add(scale(d2, b)).add(scale(d0, a1));
            isl::pw_aff y2 = d2.add(scale(d1, c)).add(scale(d0, a2));
            if (distances.intersect(y1.lt_set(zero)).is_empty() &&
                distances.intersect(y2.lt_set(zero)).is_empty())
              return Skew{b, c, a1, a2};
          }
  return std::nullopt;
}

} // namespace

std::optional<isl::schedule_node>
Mapper::tileWavefront(const isl::schedule_node &node) const {
  // The wavefront is the scop's outermost loop (the host code of its
  // launches is then one loop over the tile wavefronts, AstGeneration).
  if (!options.tiledWavefronts || !program.deps.complete ||
      node.as<isl::schedule_node_band>().n_member() != 1 ||
      !node.parent().isa<isl::schedule_node_domain>())
    return std::nullopt;
  isl::schedule_node inner = node.child(0);
  if (!inner.isa<isl::schedule_node_band>() ||
      inner.as<isl::schedule_node_band>().n_member() != 2 ||
      !isCoincident(inner, 0) || !isCoincident(inner, 1) ||
      !inner.child(0).isa<isl::schedule_node_leaf>())
    return std::nullopt;
  isl::union_set instances = domainOf(node);
  std::vector<isl::set> sets = setsOf(instances);
  if (sets.size() != 1 || !isBounded(sets[0]))
    return std::nullopt;
  isl::union_pw_aff w =
      node.as<isl::schedule_node_band>().get_partial_schedule().at(0);
  isl::multi_union_pw_aff x =
      inner.as<isl::schedule_node_band>().get_partial_schedule();
  // A wavefront: two or more loops in the one affine piece of w.
  std::vector<isl::pw_aff> pieces = pwAffsOf(w.intersect_domain(instances));
  std::optional<isl::aff> aff =
      pieces.size() == 1 ? onlyPiece(pieces[0]) : std::nullopt;
  std::optional<AffineTerms> terms = aff ? affineTerms(*aff) : std::nullopt;
  if (!terms)
    return std::nullopt;
  unsigned loops = 0;
  for (long c : terms->inputs)
    loops += c != 0;
  if (loops < 2)
    return std::nullopt;
  // The distances in [w, x1, x2] of the dependences within one iteration
  // of the outer loops.
  isl::union_map prefix =
      node.get_prefix_schedule_union_map().intersect_domain(instances);
  isl::union_map deps = program.deps.all()
                            .intersect_domain(instances)
                            .intersect_range(instances)
                            .intersect(prefix.apply_range(prefix.reverse()));
  isl::union_map band = flatRangeProduct(
      memberMap(w, instances), flatRangeProduct(memberMap(x.at(0), instances),
                                                memberMap(x.at(1), instances)));
  isl::set distances(scop.ctx, "{ [d0, d1, d2] : 1 = 0 }");
  if (!deps.is_empty())
    distances = deps.apply_domain(band).apply_range(band).deltas().as_set();
  std::optional<Skew> chosen = leastSkew(distances);
  if (!chosen)
    return std::nullopt;
  isl::union_pw_aff x1 = x.at(0).intersect_domain(instances);
  isl::union_pw_aff x2 = x.at(1).intersect_domain(instances);
  isl::union_pw_aff wi = w.intersect_domain(instances);
  isl::union_pw_aff y1 =
      x1.add(scaled(x2, chosen->b)).add(scaled(wi, chosen->a1));
  isl::union_pw_aff y2 =
      x2.add(scaled(x1, chosen->c)).add(scaled(wi, chosen->a2));
  isl::union_pw_aff s = floorDiv(wi, kWavefrontSteps)
                            .add(floorDiv(y1, kWavefrontTile))
                            .add(floorDiv(y2, kWavefrontTile));
  isl::schedule_node at = deleteNode(deleteNode(node));
  isl::union_pw_aff_list members(scop.ctx, 2);
  members = members.add(y1).add(y2);
  at = at.insert_partial_schedule(
      isl::multi_union_pw_aff(x.get_space(), members));
  at = at.as<isl::schedule_node_band>().set_permutable(1);
  at = setCoincident(setCoincident(at, 0, true), 1, true);
  at = at.insert_partial_schedule(isl::multi_union_pw_aff(wi));
  at = at.insert_mark(gpuMark(scop.ctx, MarkKind::Steps));
  return at.insert_partial_schedule(isl::multi_union_pw_aff(s));
}

isl::schedule_node Mapper::markSteppedKernel(isl::schedule_node mark) {
  isl::schedule_node steps = mark.child(0), band = steps.child(0);
  isl::union_set instances = domainOf(steps);
  Kernel &kernel = addKernel(instances, 2);
  isl::union_map prefix =
      steps.get_prefix_schedule_union_map().intersect_domain(instances);
  mappingOf(kernel).hostDepth = scheduleDepth(steps);
  std::vector<std::string> hostNames =
      numberedNames(program.names.hostIterator, kernel.mapping->hostDepth);
  // The host loop as a parameter that does not constrain the instances:
  // the blocks' filter binds it (mapBand), without the floors of the
  // tile wavefront.
  std::string params;
  for (const std::string &name : hostNames)
    params += (params.empty() ? "" : ", ") + name;
  isl::union_set domain = instances.intersect_params(
      isl::set(scop.ctx, "[" + params + "] -> { : }"));
  kernel.domain = domain;
  kernel.steps.launched = isl::union_set::empty(scop.ctx);
  for (const isl::map &map : mapsOf(prefix))
    kernel.steps.launched = kernel.steps.launched.unite(
        isl::union_set(outputsToParams(map, hostNames).domain()));
  kernel.instances = instances;
  kernel.hostSchedule = prefix;
  isl::union_pw_aff w =
      steps.as<isl::schedule_node_band>().get_partial_schedule().at(0);
  // Each thread's points in the order [y1, y2, w]: the mapped members
  // first, as the access analysis reads them.
  mappingOf(kernel).localSchedule =
      flatRangeProduct(subtreeSchedule(band), memberMap(w, instances))
          .intersect_domain(instances);
  kernel.context = coalesced(scop.context.intersect(paramsOf(domain)));
  kernel.steps.size = kWavefrontSteps;
  kernel.steps.block = {kWavefrontTile, kWavefrontTile};
  kernel.steps.wavefront = memberMap(w, instances);
  kernel.steps.member = w;
  const Statement &stmt = *scop.findStatement(kernel.statements[0]);
  kernel.steps.text = memberText(stmt, w);
  isl::multi_union_pw_aff y =
      band.as<isl::schedule_node_band>().get_partial_schedule();
  kernel.steps.members =
      memberText(stmt, y.at(0)) + ", " + memberText(stmt, y.at(1));
  isl::schedule_node node = mapBand(kernel, band);
  // The steps go below the blocks' tiles, above the threads: every
  // thread of a block runs the same steps (the block's, bounded by its
  // tile) and reaches the barrier after each.
  isl::schedule_node stepsBand = node.parent();
  isl::multi_union_pw_aff partial =
      stepsBand.as<isl::schedule_node_band>().get_partial_schedule();
  node = deleteNode(stepsBand);  // the block's filter
  node = node.child(0).child(0); // the shared mark
  node = node.insert_partial_schedule(partial).parent().parent();
  node = deleteNode(node.parent()); // the steps mark
  return node.insert_mark(kernel.mark);
}

void Mapper::tileWavefrontBounds(Kernel &kernel,
                                 const isl::schedule_node &band) {
  auto range = [&](const isl::union_map &member, long size) {
    isl::set values =
        member.intersect_domain(kernel.instances).range().as_set();
    isl::val t(scop.ctx, size);
    return std::make_pair(
        values.lexmin_pw_multi_aff().at(0).scale_down(t).floor(),
        values.lexmax_pw_multi_aff().at(0).scale_down(t).floor());
  };
  auto [w0, w1] = range(kernel.steps.wavefront, kernel.steps.size);
  auto [a0, a1] =
      range(kernel.mapping->memberSchedules[0], kernel.mapping->blockSize[0]);
  auto [b0, b1] =
      range(kernel.mapping->memberSchedules[1], kernel.mapping->blockSize[1]);
  // Tiles (W, Y1, Y2) with W + Y1 + Y2 = s, each within its range: the
  // last tile of member d at s.
  auto lastTile = [&](const isl::space &space, unsigned d) {
    isl::pw_aff s = variableOn(space, 0);
    auto on = [&](const isl::pw_aff &pa) { return liftToSpace(pa, space); };
    const isl::pw_aff &own1 = d == 0 ? a1 : b1;
    const isl::pw_aff &other0 = d == 0 ? b0 : a0;
    return on(own1).min(s.sub(on(w0)).sub(on(other0)));
  };
  // Blocks count from the first tile over all launches: a block index
  // that depends on the host loop (max(...) pieces of s) makes isl's
  // code for the kernel far too costly. The blocks of a launch before
  // its first tile have no steps and return at once.
  kernel.steps.firstLaunch = coalesced(w0.add(a0).add(b0));
  kernel.steps.lastLaunch = coalesced(w1.add(a1).add(b1));
  // The host loop's values, in the kernel's AST context (the domain does
  // not bind it).
  std::string c = program.names.hostIterator + "0";
  isl::pw_aff launch(scop.ctx, "[" + c + "] -> { [(" + c + ")] }");
  kernel.context = coalesced(kernel.context.intersect(
      kernel.steps.firstLaunch.le_set(launch).intersect(
          launch.le_set(kernel.steps.lastLaunch))));
  isl::space host = kernel.hostSchedule.range().as_set().get_space();
  for (unsigned d = 0; d < kernel.mapping->numMapped; ++d) {
    const isl::pw_aff &first = d == 0 ? a0 : b0;
    kernel.steps.firstTile.push_back(liftToSpace(first, host));
    kernel.steps.lastTile.push_back(coalesced(lastTile(host, d)));
    mappingOf(kernel).offsets.push_back(totalOn(first, scop.context));
    mappingOf(kernel).globalOffset.push_back(true);
  }
}

isl::union_set Mapper::nonnegative(const isl::union_pw_aff &upa) {
  isl::union_set result = isl::union_set::empty(upa.ctx());
  for (const isl::pw_aff &pa : pwAffsOf(upa))
    result = result.unite(
        isl::union_set(pa.ge_set(constantOn(pa.get_space().domain(), 0))));
  return result;
}

} // namespace polycuda::polyhedral::mapping
