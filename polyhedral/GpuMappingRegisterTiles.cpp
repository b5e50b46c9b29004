//===- GpuMappingRegisterTiles.cpp - Several points per thread -----------===//
//
// Part of stage 3's Mapper (see GpuMappingInternal.h).
//
//===----------------------------------------------------------------------===//
#include "GpuMappingInternal.h"

namespace polycuda::polyhedral::mapping {

namespace {

/// Whether the values of a kernel's two mapped members, for each iteration
/// of its host loops, form a rectangle: the product of the values each
/// takes (gemm's `i`, `j`; not syrk's triangle `j <= i`). `point` maps the
/// kernel's instances to their host iterations and the two members.
bool mappedSpaceIsBox(const Scop &scop, const Kernel &kernel,
                      const isl::union_map &point) {
  std::vector<isl::set> sets =
      setsOf(kernel.instances.apply(point).intersect_params(scop.context));
  if (sets.size() != 1)
    return false;
  isl::set values = sets[0];
  unsigned n = values.tuple_dim();
  isl::set alongFirst =
      isl::manage(isl_set_eliminate(values.copy(), isl_dim_set, n - 1, 1));
  isl::set alongSecond =
      isl::manage(isl_set_eliminate(values.copy(), isl_dim_set, n - 2, 1));
  return alongFirst.intersect(alongSecond).is_subset(values);
}

} // namespace

std::vector<unsigned> Mapper::neighbourhoodArrays(const Kernel &kernel) const {
  std::set<unsigned> written = writtenArrays(scop, kernel.accesses);
  unsigned y = memberOnHardware(kernel, 1);
  isl::union_map point = kernel.hostSchedule;
  for (unsigned d = 0; d < kernel.mapping->numMapped; ++d)
    point = flatRangeProduct(point, kernel.mapping->memberSchedules[d]);
  std::map<unsigned, long> reads;
  std::set<unsigned> refused, tall;
  for (const ReferenceAccess &ref : kernel.accesses) {
    const Statement &stmt = scop.statements[ref.statement];
    const Access &access = stmt.accesses[ref.access];
    unsigned a = access.array;
    if (written.count(a) || scop.arrays[a].rank() == 0)
      continue;
    if (!access.isAffine() || y >= ref.members.size()) {
      refused.insert(a);
      continue;
    }
    // { p -> e }: the elements one point reads; the widths of their box
    // bound how many.
    isl::union_map elements =
        point.intersect_domain(isl::union_set(stmt.domain))
            .reverse()
            .apply_range(isl::union_map(access.relation));
    if (elements.is_empty())
      continue;
    std::optional<std::vector<long>> widths =
        rangeWidthsPerKey(elements.as_map());
    if (!widths) {
      refused.insert(a);
      continue;
    }
    long count = 1;
    const MemberAccess &along = ref.members[y];
    for (unsigned d = 0; d < widths->size(); ++d) {
      count *= std::min<long>((*widths)[d], 1024);
      if (along.pattern != AccessPattern::Broadcast && along.movingDim == d &&
          (*widths)[d] >= 2)
        tall.insert(a);
    }
    reads[a] += count;
  }
  std::vector<unsigned> arrays;
  for (const auto &[a, count] : reads)
    if (!refused.count(a) && tall.count(a) && count >= kStencilReadsPerPoint)
      arrays.push_back(a);
  return arrays;
}

bool Mapper::chooseStencilPoints(Kernel &kernel) {
  std::vector<unsigned> arrays = neighbourhoodArrays(kernel);
  if (arrays.empty())
    return false;
  RegisterTileDecision &decision = kernel.registerTileDecision;
  decision.arrays = arrays;
  kernel.registerTileConsidered = true;
  kernel.neighbourhoods = arrays;
  if (!options.registerTile.empty()) {
    // --register-tile: that many consecutive points along x and y.
    std::vector<unsigned> tile = options.registerTile;
    tile.resize(2, 1);
    for (unsigned d = 0; d < 2; ++d)
      mappingOf(kernel).registerTile[d] =
          std::max(1u, std::min(tile[kernel.mapping->hardwareDim[d]], 16u));
    kernel.blockedPoints = kernel.mapping->registerTiled();
    kernel.jamPoints = false;
    decision.why = RegisterTileDecision::Why::StencilOption;
    decision.tile = tile;
    return true;
  }
  // The extents of the statements that read the neighbourhood (those
  // that only set a privatized scalar have no array to bound them).
  isl::union_set readers = isl::union_set::empty(scop.ctx);
  for (const std::string &name : kernel.statements) {
    const Statement *stmt = scop.findStatement(name);
    for (const Access &access : stmt->accesses)
      if (access.array == arrays.front())
        readers = readers.unite(isl::union_set(stmt->domain));
  }
  isl::union_set inBounds =
      instancesInBounds(scop, kernel.instances.intersect(readers));
  long blocks = 1;
  for (unsigned d = 0; d < 2; ++d) {
    std::optional<long> bound = boundExtent(inBounds, kernel.hostSchedule,
                                            kernel.mapping->memberSchedules[d]);
    if (!bound)
      return false;
    long size = long(kernel.mapping->blockSize[d]) *
                (kernel.mapping->hardwareDim[d] == 1 ? kStencilPointsY : 1);
    blocks *= (*bound + size - 1) / size;
  }
  long wanted =
      long(kBlocksPerSmForRegisterTiles) * options.device.multiprocessors;
  if (blocks < wanted) {
    kernel.neighbourhoods.clear();
    decision.why = RegisterTileDecision::Why::StencilTooFewBlocks;
    decision.tile = {1, kStencilPointsY};
    decision.blocks = blocks;
    decision.wanted = wanted;
    return true;
  }
  unsigned y = memberOnHardware(kernel, 1);
  mappingOf(kernel).registerTile[y] = kStencilPointsY;
  kernel.blockedPoints = true;
  kernel.jamPoints = false;
  decision.why = RegisterTileDecision::Why::StencilPoints;
  decision.tile = {1, kStencilPointsY};
  decision.blocks = blocks;
  return true;
}

void Mapper::chooseRegisterTile(Kernel &kernel,
                                const isl::schedule_node &band) {
  using Why = RegisterTileDecision::Why;
  RegisterTileDecision &decision = kernel.registerTileDecision;
  auto no = [&](Why why) { decision.why = why; };
  // A kernel of gemm's shape that gets no tile: the report says why.
  auto weighedNo = [&](Why why) {
    kernel.registerTileConsidered = true;
    no(why);
  };
  if (!options.registerTiles)
    return no(Why::Off);
  if (kernel.mapping->numMapped != 2 || kernel.reduction)
    return no(Why::NotTwoMapped);
  if (chooseStencilPoints(kernel))
    return;
  isl::schedule_node_band b = band.as<isl::schedule_node_band>();
  if (b.n_member() != 3 || !b.permutable())
    return no(Why::BandShape);
  isl::multi_union_pw_aff partial = b.get_partial_schedule();
  isl::union_map point =
      flatRangeProduct(kernel.hostSchedule,
                       flatRangeProduct(kernel.mapping->memberSchedules[0],
                                        kernel.mapping->memberSchedules[1]));
  isl::union_map inner = memberMap(partial.at(2), kernel.instances);
  for (const std::string &name : kernel.statements)
    for (const Access &access : scop.findStatement(name)->accesses)
      if (access.kind != Access::Kind::Read &&
          scop.arrays[access.array].isLocal) {
        // A privatized scalar lives in one register of the thread
        // (MemoryPromotion), which its points would share.
        decision.arrays = {access.array};
        return weighedNo(Why::WritesPrivate);
      }
  std::optional<unsigned> accumulatorBytes =
      heldAcrossLoop(kernel, point, inner);
  bool reuse = false;
  std::vector<bool> alongOne = readAlongOne(kernel, reuse);
  if (!accumulatorBytes)
    return no(Why::NoAccumulator);
  if (!reuse)
    return no(Why::NoReuse);
  // Hardware order x, y.
  std::vector<unsigned> tile = options.registerTile;
  if (!tile.empty()) {
    tile.resize(2, 1);
    for (unsigned &r : tile)
      r = std::max(1u, std::min(r, 16u));
    decision.fromOption = true;
  } else {
    tile = registerTileForDevice(kernel, point, alongOne, *accumulatorBytes);
    if (tile.empty())
      return; // its reason is set
  }
  decision.tile = tile;
  if (tile[0] * tile[1] == 1)
    return weighedNo(Why::TooFewBlocks);
  for (unsigned d = 0; d < 2; ++d)
    mappingOf(kernel).registerTile[d] = tile[mappingOf(kernel).hardwareDim[d]];
  kernel.registerTileConsidered = true;
  decision.why = Why::Tiled;
}

std::optional<unsigned>
Mapper::heldAcrossLoop(const Kernel &kernel, const isl::union_map &point,
                       const isl::union_map &inner) const {
  std::optional<unsigned> bytes;
  for (const std::string &name : kernel.statements) {
    const Statement *stmt = scop.findStatement(name);
    isl::union_map byPoint =
        point.intersect_domain(isl::union_set(stmt->domain)).reverse();
    if (byPoint.apply_range(inner).is_single_valued())
      continue; // not in the loop
    for (const Access &access : stmt->accesses)
      if (access.kind != Access::Kind::Read && access.isAffine() &&
          byPoint.apply_range(isl::union_map(access.relation))
              .is_single_valued())
        bytes = std::max(bytes.value_or(0u),
                         elementBytes(scop.arrays[access.array].type));
  }
  return bytes;
}

std::vector<bool> Mapper::readAlongOne(const Kernel &kernel,
                                       bool &reuse) const {
  std::vector<bool> alongOne(2, false);
  for (const ReferenceAccess &ref : kernel.accesses) {
    const Access &access = scop.statements[ref.statement].accesses[ref.access];
    if (access.kind != Access::Kind::Read)
      continue;
    for (unsigned d = 0; d < kernel.mapping->numMapped; ++d) {
      bool shared = ref.members[d].pattern == AccessPattern::Broadcast;
      reuse |= shared;
      alongOne[d] = alongOne[d] || (shared && ref.members[1 - d].pattern !=
                                                  AccessPattern::Broadcast);
    }
  }
  return alongOne;
}

std::vector<unsigned>
Mapper::registerTileForDevice(Kernel &kernel, const isl::union_map &point,
                              const std::vector<bool> &alongOne,
                              unsigned accumulatorBytes) {
  using Why = RegisterTileDecision::Why;
  RegisterTileDecision &decision = kernel.registerTileDecision;
  auto no = [&](Why why, bool weighed) {
    kernel.registerTileConsidered |= weighed;
    decision.why = why;
    return std::vector<unsigned>();
  };
  // The measured kernels (gemm, 2mm, 3mm) have such a read along each
  // member; a kernel whose shared reads are shared by every thread (a
  // stencil's weights) was not measured with register tiles.
  if (!alongOne[0] || !alongOne[1])
    return no(Why::NotMeasuredShape, false);
  if (!mappedSpaceIsBox(scop, kernel, point))
    return no(Why::NotRectangle, true);
  std::vector<std::optional<long>> bounds(2);
  for (unsigned d = 0; d < 2; ++d)
    bounds[kernel.mapping->hardwareDim[d]] =
        boundExtent(instancesInBounds(scop, kernel.instances),
                    kernel.hostSchedule, kernel.mapping->memberSchedules[d]);
  if (!bounds[0] || !bounds[1])
    return no(Why::NoBound, true);
  std::vector<unsigned> block(2);
  for (unsigned d = 0; d < 2; ++d)
    block[kernel.mapping->hardwareDim[d]] = kernel.mapping->blockSize[d];
  auto blocks = [&](const std::vector<unsigned> &points) {
    long n = 1;
    for (unsigned hw = 0; hw < 2; ++hw) {
      long size = long(block[hw]) * points[hw];
      n *= (*bounds[hw] + size - 1) / size;
    }
    return n;
  };
  // The largest candidate that leaves kBlocksPerSmForRegisterTiles
  // blocks per SM (docs/mapping.md, "The mapping's numbers").
  std::vector<std::vector<unsigned>> candidates = {{4, 4}, {4, 2}};
  if (accumulatorBytes <= 4)
    candidates.insert(candidates.begin(), {{8, 8}, {8, 4}});
  else
    candidates.insert(candidates.begin(), {4, 8});
  long wanted =
      long(kBlocksPerSmForRegisterTiles) * options.device.multiprocessors;
  std::vector<unsigned> tile = {1, 1};
  for (const std::vector<unsigned> &points : candidates)
    if (blocks(points) >= wanted) {
      tile = points;
      break;
    }
  const std::vector<unsigned> &shown =
      tile[0] * tile[1] > 1 ? tile : candidates.back();
  decision.blocks = blocks(shown);
  decision.wanted = wanted;
  decision.shown = shown;
  decision.block = block;
  return tile;
}
} // namespace polycuda::polyhedral::mapping
