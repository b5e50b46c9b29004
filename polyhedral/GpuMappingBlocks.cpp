//===- GpuMappingBlocks.cpp - A kernel's block and hardware order --------===//
//
// Part of stage 3's Mapper (see GpuMappingInternal.h).
//
//===----------------------------------------------------------------------===//
#include "GpuMappingInternal.h"

namespace polycuda::polyhedral::mapping {

namespace {

/// The 128-byte cache lines that a warp's 32 threads, neighbours along a
/// member with `access`, touch through one reference to `array`: one for
/// a broadcast, 2 for coalesced doubles, 32 for threads a line or more
/// apart, and fewer for a short stride within a row (seidel-2d's time
/// member: 4 elements apart, 8 lines).
long linesPerWarp(const Array &array, const MemberAccess &access) {
  constexpr long kLine = 128, kWarp = 32;
  long bytes = elementBytes(array.type);
  switch (access.pattern) {
  case AccessPattern::Broadcast:
  case AccessPattern::NoNeighbours:
    return 1;
  case AccessPattern::Coalesced:
    return (kWarp * bytes + kLine - 1) / kLine;
  case AccessPattern::Strided:
    if (access.stride) {
      long span = kWarp * std::abs(*access.stride) * bytes;
      return std::min(kWarp, (span + kLine - 1) / kLine);
    }
    return kWarp;
  case AccessPattern::Irregular:
    return kWarp;
  }
  return kWarp;
}

/// Hardware dimension (0 = x) of each of the `mapped` members: x goes to
/// the member along which most references are coalesced (consecutive
/// threads touch consecutive elements, Baskaran et al. 2008); where that
/// ties, to the member whose warps touch the fewest cache lines; the others
/// follow from the innermost outwards. Ties keep the innermost member on x.
/// With `stageReads`, a reference that shared memory can stage (a read of an
/// array the kernel does not write) counts only where the others tie.
std::vector<unsigned> hardwareOrder(const Scop &scop,
                                    const std::vector<ReferenceAccess> &refs,
                                    unsigned mapped, bool stageReads) {
  std::set<unsigned> written = writtenArrays(scop, refs);
  // Lexicographic: references staging cannot fix first.
  const long fixed = stageReads ? long(refs.size()) + 1 : 1;
  std::vector<long> score(mapped, 0), lines(mapped, 0);
  for (const ReferenceAccess &ref : refs) {
    const Access &access = scop.statements[ref.statement].accesses[ref.access];
    long weight = written.count(access.array) ? fixed : 1;
    for (unsigned d = 0; d < mapped; ++d) {
      if (ref.members[d].pattern == AccessPattern::Coalesced)
        score[d] += weight;
      lines[d] +=
          weight * linesPerWarp(scop.arrays[access.array], ref.members[d]);
    }
  }
  std::vector<unsigned> order; // members, x first
  for (unsigned d = mapped; d-- > 0;)
    order.push_back(d);
  std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
    return score[a] != score[b] ? score[a] > score[b] : lines[a] < lines[b];
  });
  // Only x is chosen by coalescing; y and z keep innermost-first order.
  std::vector<unsigned> hardware(mapped);
  unsigned next = 1;
  for (unsigned d = mapped; d-- > 0;)
    hardware[d] = d == order.front() ? 0 : next++;
  return hardware;
}

} // namespace

std::optional<std::vector<unsigned>>
Mapper::sizesFromOption(const Kernel &kernel, unsigned mapped) const {
  // The kernel of this scop (`S0_S1@86`: the scop's line), then the
  // kernels of that name in every scop, then the position.
  auto it = options.blockSizes.find(kernel.name + "@" +
                                    std::to_string(scop.loc.line));
  if (it == options.blockSizes.end())
    it = options.blockSizes.find(kernel.name);
  if (it == options.blockSizes.end())
    it = options.blockSizes.find("kernel" + std::to_string(kernel.id));
  if (it == options.blockSizes.end())
    return std::nullopt;
  return fitted(it->second, mapped);
}

std::vector<unsigned> Mapper::fitted(std::vector<unsigned> sizes,
                                     unsigned mapped) {
  sizes.resize(mapped, 1);
  for (unsigned &size : sizes)
    size = std::max(size, 1u);
  return sizes;
}

BlockSizing Mapper::sizeToDevice(const Kernel &kernel, unsigned mapped,
                                 std::optional<std::vector<unsigned>> block,
                                 unsigned pointsY) const {
  std::vector<unsigned> sizes = fitted(block         ? *block
                                       : mapped == 1 ? options.default1D
                                       : mapped == 2 ? options.default2D
                                                     : options.default3D,
                                       mapped);
  if (!options.fitDefaults)
    return blockFromOption(sizes);
  isl::union_set inBounds = instancesInBounds(scop, kernel.instances);
  std::vector<std::optional<long>> bounds(mapped);
  for (unsigned d = 0; d < mapped; ++d)
    bounds[kernel.mapping->hardwareDim[d]] = boundExtent(
        inBounds, kernel.hostSchedule, kernel.mapping->memberSchedules[d]);
  if (mapped > 1 && bounds[1])
    bounds[1] = (*bounds[1] + pointsY - 1) / pointsY;
  return fitBlockToDevice(sizes, bounds, options.device);
}

void Mapper::chooseMapping(Kernel &kernel, const isl::schedule_node &band) {
  unsigned mapped = kernel.mapping->numMapped;
  isl::multi_union_pw_aff partial =
      band.as<isl::schedule_node_band>().get_partial_schedule();
  for (unsigned d = 0; d < mapped; ++d)
    mappingOf(kernel).memberSchedules.push_back(
        memberMap(partial.at(d), kernel.instances));
  kernel.accesses = analyzeAccesses(scop, kernel.mapping->localSchedule,
                                    kernel.hostSchedule, mapped);
  // Where promoteToShared will stage uncoalesced reads: per tile of the
  // band's next member, or once per block in a band without one; never
  // in a reduction kernel (its shared memory holds the partial results).
  bool loopToTile = band.as<isl::schedule_node_band>().n_member() > mapped;
  bool staged = !kernel.reduction &&
                stagesUncoalesced(options.stageUncoalesced, loopToTile);
  mappingOf(kernel).hardwareDim =
      hardwareOrder(scop, kernel.accesses, mapped, staged);
  bool transposition = staged && mapped == 2 &&
                       kernel.mapping->hardwareDim[mapped - 1] != 0 &&
                       readsUncoalescedAlongX(kernel);
  std::optional<std::vector<unsigned>> requested =
      sizesFromOption(kernel, mapped);
  if (kernel.stepped()) {
    // The block is the tile of the wavefront's parallel members, which
    // the host loop's tiles of tiles count in (`--sizes` cannot change
    // it).
    std::vector<unsigned> block(mapped);
    for (unsigned d = 0; d < mapped; ++d)
      block[kernel.mapping->hardwareDim[d]] = kernel.steps.block[d];
    requested = block;
    transposition = false;
  }
  chooseBlock(kernel, requested, transposition);
  mappingOf(kernel).blockSize.resize(mapped);
  for (unsigned d = 0; d < mapped; ++d)
    mappingOf(kernel).blockSize[d] =
        mappingOf(kernel).sizing.chosen[mappingOf(kernel).hardwareDim[d]];
  mappingOf(kernel).registerTile.assign(mapped, 1);
  if (transposition && !requested &&
      kernel.mapping->blockSize[memberOnHardware(kernel, 1)] <
          kTranspositionTileRows)
    transpositionRows(kernel);
  else if (kernel.stepped())
    kernel.registerTileDecision.why = RegisterTileDecision::Why::Wavefront;
  else
    chooseRegisterTile(kernel, band);
  if (kernel.stepped())
    tileWavefrontBounds(kernel, band); // with the offsets
  else
    chooseOffsets(kernel);
  if (kernel.reduction)
    mappingOf(kernel).order.why = ThreadOrder::Why::Reduction;
  else if (kernel.stepped())
    mappingOf(kernel).order.why = ThreadOrder::Why::Wavefront;
  else
    mappingOf(kernel).order =
        chooseThreadOrder(scop, kernel, options.threadOrder, options.device);
}

void Mapper::chooseBlock(Kernel &kernel,
                         const std::optional<std::vector<unsigned>> &requested,
                         bool transposition) {
  unsigned mapped = kernel.mapping->numMapped;
  if (kernel.reduction) {
    reductionBlock(kernel, requested);
  } else if (kernel.stepped()) {
    mappingOf(kernel).sizing = deviceDefault(blockFromOption(*requested));
    mappingOf(kernel).sizing.purpose = BlockSizing::Purpose::Wavefront;
  } else if (requested) {
    mappingOf(kernel).sizing = blockFromOption(*requested);
  } else if (transposition) {
    // A transposition: threadIdx.x runs along the outer member to write
    // coalesced, and its read is staged once per block, a tile of 32 x
    // 32 (below): each warp of the block's copy reads a row of 32
    // elements.
    unsigned rows = std::max(1u, kTranspositionTileRows / options.default2D[1]);
    mappingOf(kernel).sizing = sizeToDevice(kernel, mapped, std::nullopt, rows);
    mappingOf(kernel).sizing.purpose = BlockSizing::Purpose::Transposition;
  } else {
    mappingOf(kernel).sizing = sizeToDevice(kernel, mapped);
  }
}

BlockSizing Mapper::deviceDefault(BlockSizing sizing) const {
  sizing.source = BlockSizing::Source::Default;
  sizing.multiprocessors = options.device.multiprocessors;
  sizing.warpSize = options.device.warpSize;
  sizing.maxThreadsPerBlock =
      std::min(options.device.maxThreadsPerBlock,
               options.device.maxThreadsPerMultiprocessor);
  return sizing;
}

void Mapper::reductionBlock(
    Kernel &kernel, const std::optional<std::vector<unsigned>> &requested) {
  unsigned mapped = kernel.mapping->numMapped;
  // One block along the lanes: a block of 256 threads, 32 of them
  // along x (a warp) when a parallel member shares it.
  std::vector<unsigned> sizes =
      requested ? *requested
                : fitted(mapped == 1 ? std::vector<unsigned>{256}
                                     : std::vector<unsigned>{32, 8},
                         mapped);
  // Beside two parallel members, lanes along y rather than z (the
  // default block has one thread along z).
  if (mapped == 3 &&
      kernel.mapping->hardwareDim[kernel.reduction->member] == 2) {
    std::vector<unsigned> &dims = mappingOf(kernel).hardwareDim;
    std::swap(dims[kernel.reduction->member],
              dims[memberOnHardware(kernel, 1)]);
  }
  unsigned lane = kernel.mapping->hardwareDim[kernel.reduction->member];
  std::optional<long> bound;
  std::vector<std::optional<long>> extents(mapped); // hardware order
  if (!requested && mapped >= 2 && lane == 1)
    bound = fillLanes(kernel, sizes, extents);
  unsigned &lanes = sizes[lane];
  while (lanes & (lanes - 1)) // a power of two, for the tree
    lanes &= lanes - 1;
  mappingOf(kernel).sizing = blockFromOption(sizes);
  mappingOf(kernel).sizing.purpose = BlockSizing::Purpose::Reduction;
  mappingOf(kernel).sizing.laneDim = lane;
  if (requested)
    return;
  mappingOf(kernel).sizing = deviceDefault(mappingOf(kernel).sizing);
  if (bound) {
    mappingOf(kernel).sizing.extentBound = extents;
    mappingOf(kernel).sizing.parallelBound = bound;
  }
}

std::optional<long>
Mapper::fillLanes(Kernel &kernel, std::vector<unsigned> &sizes,
                  std::vector<std::optional<long>> &extents) {
  // Lanes along y beside a parallel member on x: as many as fill the
  // device's threads, from 8 up to 32. Each lane reads its own rows,
  // coalesced, so more lanes keep more loads in flight.
  // With two parallel members (sumprod's x and z), the one not on x
  // runs along z, a block of one.
  unsigned mapped = kernel.mapping->numMapped;
  isl::union_set inBounds = instancesInBounds(scop, kernel.instances);
  long blocks = 1;
  for (unsigned d = 0; d < mapped && blocks > 0; ++d) {
    unsigned hw = kernel.mapping->hardwareDim[d];
    if (d == kernel.reduction->member)
      continue;
    extents[hw] = boundExtent(inBounds, kernel.hostSchedule,
                              kernel.mapping->memberSchedules[d]);
    blocks =
        extents[hw] ? blocks * ((*extents[hw] + sizes[hw] - 1) / sizes[hw]) : 0;
  }
  std::optional<long> bound = extents[0];
  if (mapped == 3 && extents[0] && extents[2])
    bound = *extents[0] * *extents[2];
  long threads = long(options.device.multiprocessors) *
                 options.device.maxThreadsPerMultiprocessor;
  unsigned most =
      std::max(1u, std::min(32u, options.device.maxThreadsPerBlock / sizes[0]));
  std::optional<std::string> shared;
  if (options.registerTiles && mapped == 3)
    shared = readSharedAlongLanes(kernel);
  if (shared && kJammedLanes <= most) {
    // Each lane runs kLaneJam iterations together: fewer lanes,
    // each with more work in flight.
    BlockReduction &reduction = *kernel.reduction;
    reduction.jam = kLaneJam;
    reduction.jamShared = *shared;
    sizes[1] = kJammedLanes;
    return bound;
  }
  unsigned fill = 8;
  while (bound && fill * 2 <= most && blocks * sizes[0] * fill * 2 <= threads)
    fill *= 2;
  sizes[1] = std::min(std::max(sizes[1], fill), most);
  return bound;
}

void Mapper::transpositionRows(Kernel &kernel) {
  // Several rows per thread: a tile of 32 x 32 on 32 x 8 threads, as a
  // hand-written transposition has.
  unsigned y = memberOnHardware(kernel, 1);
  unsigned points =
      std::max(1u, kTranspositionTileRows / kernel.mapping->blockSize[y]);
  mappingOf(kernel).registerTile[y] = points;
  kernel.jamPoints = false;
  RegisterTileDecision &decision = kernel.registerTileDecision;
  decision.why = RegisterTileDecision::Why::TranspositionRows;
  decision.tile = {1, points};
  decision.block = {kernel.mapping->blockSize[memberOnHardware(kernel, 0)],
                    kernel.mapping->blockSize[y]};
}

void Mapper::chooseOffsets(Kernel &kernel) {
  for (unsigned d = 0; d < kernel.mapping->numMapped; ++d) {
    isl::map range = kernel.hostSchedule.reverse()
                         .apply_range(kernel.mapping->memberSchedules[d])
                         .as_map();
    isl::val size(scop.ctx, kernel.mapping->tileSize(d));
    isl::pw_aff offset =
        range.lexmin_pw_multi_aff().at(0).scale_down(size).floor();
    // A piecewise first tile (skewed wavefronts) makes the kernel's AST
    // expensive to build and its guards long; the first tile over all
    // host iterations is then used instead (some blocks idle).
    bool global = offset.n_piece() > 1;
    if (global) {
      isl::pw_aff first = range.range().lexmin_pw_multi_aff().at(0);
      offset = totalOn(first.scale_down(size).floor(), scop.context);
    }
    mappingOf(kernel).globalOffset.push_back(global);
    mappingOf(kernel).offsets.push_back(offset);
  }
}

bool Mapper::readsUncoalescedAlongX(const Kernel &kernel) const {
  std::set<unsigned> written = writtenArrays(scop, kernel.accesses);
  unsigned x = memberOnHardware(kernel, 0);
  for (const ReferenceAccess &ref : kernel.accesses) {
    const Access &access = scop.statements[ref.statement].accesses[ref.access];
    if (!written.count(access.array) && isUncoalesced(ref.members[x].pattern))
      return true;
  }
  return false;
}

} // namespace polycuda::polyhedral::mapping
