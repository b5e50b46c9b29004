//===- BlockSizes.cpp - Block sizes that fill the GPU ---------------------===//
//
// Part of stage 3 (GPU mapping), see BlockSizes.h. A launch of fewer blocks
// than SMs leaves the others idle, so small parallel spaces get smaller
// blocks, down to one warp (PPCG's choice; docs/mapping.md, "The mapping's
// numbers"). Larger spaces keep the defaults, whose x extent keeps warps
// coalesced and whose y extent gives shared tiles reuse.
//
//===----------------------------------------------------------------------===//
#include "BlockSizes.h"

#include "Check.h"
#include "IslExtras.h"

#include <algorithm>

namespace polycuda::polyhedral {

namespace {

/// Bounds and block counts saturate here: far beyond any GPU's SM count,
/// and small enough that products of three never overflow.
constexpr long kHugeCount = 1L << 20;

/// `{ A[a] : 0 <= a_k < extent_k }` over the dimensions of `array` with a
/// declared extent, in the space `space` of its elements.
isl::set extentBox(const Array &array, const isl::space &space) {
  isl::set box = isl::set::universe(space);
  for (unsigned k = 0; k < array.rank(); ++k) {
    if (k == 0 && !array.firstExtentKnown)
      continue;
    isl::pw_aff x = variableOn(space, k);
    box = box.intersect(x.ge_set(constantOn(space, 0)))
              .intersect(x.lt_set(liftToSpace(array.extents[k], space)));
  }
  return box;
}

unsigned long threadsOf(const std::vector<unsigned> &block) {
  unsigned long threads = 1;
  for (unsigned size : block)
    threads *= size;
  return threads;
}

/// Blocks per launch for `block` when the member on hardware dimension h
/// has at most `bounds[h]` iterations (all known).
long blocksOf(const std::vector<unsigned> &block,
              const std::vector<std::optional<long>> &bounds) {
  long blocks = 1;
  for (unsigned h = 0; h < block.size(); ++h)
    blocks = std::min(kHugeCount,
                      blocks * ((*bounds[h] + block[h] - 1) / long(block[h])));
  return blocks;
}

/// Halves the outermost hardware dimension of `block` that has more than
/// one thread (z, then y, then x): x, whose consecutive threads make
/// coalesced accesses, keeps its width longest.
void halveBlock(std::vector<unsigned> &block) {
  for (unsigned h = block.size(); h-- > 0;)
    if (block[h] > 1) {
      block[h] /= 2;
      return;
    }
}

} // namespace

isl::union_set instancesInBounds(const Scop &scop,
                                 const isl::union_set &instances) {
  isl::union_set inside = isl::union_set::empty(scop.ctx);
  for (isl::set set : setsOf(instances)) {
    const Statement *stmt = scop.findStatement(tupleName(set));
    POLYCUDA_CHECK(stmt) << "unknown statement " << tupleName(set);
    for (const Access &access : stmt->accesses) {
      const Array &array = scop.arrays[access.array];
      if (!access.isAffine() || array.rank() == 0)
        continue;
      isl::set box = extentBox(array, access.relation.get_space().range());
      set = set.intersect(access.relation.intersect_range(box).domain());
    }
    inside = inside.unite(isl::union_set(set));
  }
  return inside;
}

std::optional<long> boundExtent(const isl::union_set &instances,
                                const isl::union_map &hostSchedule,
                                const isl::union_map &member) {
  isl::union_map values =
      hostSchedule.intersect_domain(instances).reverse().apply_range(
          member.intersect_domain(instances));
  if (values.is_empty())
    return std::nullopt;
  isl::map perHost = values.as_map(); // { [c] -> [s] }
  // { [s'] -> [s] } of one host iteration; its deltas are the distances
  // s - s' between two values of one launch. isl maximises them as an
  // integer program over the set with the parameters as variables (the
  // largest width over all their values; infinite when a parameter bounds
  // the loop unboundedly); unlike the maximum of lexmax - lexmin, this
  // also holds where the bounds of s are quasi-affine.
  isl::set distances = perHost.reverse().apply_range(perHost).deltas();
  isl::val width = distances.dim_max_val(0);
  if (!width.is_int())
    return std::nullopt;
  if (width.ge(isl::val(width.ctx(), kHugeCount)))
    return kHugeCount;
  return width.get_num_si() + 1;
}

BlockSizing fitBlockToDevice(const std::vector<unsigned> &requested,
                             const std::vector<std::optional<long>> &bounds,
                             const DeviceModel &device) {
  POLYCUDA_CHECK(requested.size() == bounds.size() && !requested.empty())
      << "one bound per mapped member";
  BlockSizing sizing;
  sizing.requested = requested;
  sizing.extentBound = bounds;
  sizing.multiprocessors = device.multiprocessors;
  sizing.warpSize = device.warpSize;
  // A block runs on one SM: it can hold no more threads than one SM does.
  sizing.maxThreadsPerBlock = std::max(
      1u,
      std::min(device.maxThreadsPerBlock, device.maxThreadsPerMultiprocessor));
  std::vector<unsigned> block = requested;
  while (threadsOf(block) > sizing.maxThreadsPerBlock)
    halveBlock(block);
  sizing.fitted = block;
  // Smaller blocks for more SMs only where every mapped member is bounded.
  if (std::all_of(bounds.begin(), bounds.end(),
                  [](const std::optional<long> &b) { return b.has_value(); })) {
    sizing.requestedBlocks = blocksOf(requested, bounds);
    sizing.fittedBlocks = blocksOf(block, bounds);
    while (blocksOf(block, bounds) < long(device.multiprocessors) &&
           threadsOf(block) >= 2ul * device.warpSize)
      halveBlock(block);
    sizing.chosenBlocks = blocksOf(block, bounds);
  }
  sizing.chosen = block;
  sizing.source = block == requested ? BlockSizing::Source::Default
                                     : BlockSizing::Source::Shrunk;
  return sizing;
}

BlockSizing blockFromOption(const std::vector<unsigned> &sizes) {
  BlockSizing sizing;
  sizing.source = BlockSizing::Source::Sizes;
  sizing.requested = sizing.fitted = sizing.chosen = sizes;
  sizing.extentBound.assign(sizes.size(), std::nullopt);
  return sizing;
}

} // namespace polycuda::polyhedral
