//===- Report_Reasons.cpp - Why a reference is accessed as it is ----------===//
//
// The sentences of the report that explain one array reference of a kernel:
// its access pattern (coalesced, broadcast, strided), a non-affine
// subscript's may-access, and the memory it was promoted to (registers,
// shared tiles, constant memory) with the numbers behind the choice.
//
//===----------------------------------------------------------------------===//
#include "ReportInternal.h"

namespace polycuda::translator::report {

using polyhedral::AccessPattern;
using polyhedral::Scop;
using polyhedral::Statement;

namespace {

/// Why a reference is (not) coalesced, from its access pattern.
std::string patternReason(const polyhedral::Array &array,
                          const polyhedral::ReferenceFact &ref,
                          const std::string &xLoop) {
  if (ref.inRegister)
    return "privatized scalar: every value is produced and used by one "
           "thread, so it lives in a register";
  std::string along = xLoop.empty() ? "" : " (threadIdx.x runs along " +
                                               xLoop + ")";
  switch (ref.pattern) {
  case AccessPattern::Coalesced:
    return "consecutive threads of a warp access consecutive elements" + along;
  case AccessPattern::Broadcast:
    return "every thread of a warp accesses the same element: one "
           "transaction" + along;
  case AccessPattern::Strided: {
    std::string text = "uncoalesced: consecutive threads move along dimension " +
                       std::to_string(ref.movingDim) + " of " + array.name;
    if (ref.stride)
      text += ", " + std::to_string(*ref.stride) + " elements apart";
    return text + along;
  }
  case AccessPattern::Irregular:
    return "uncoalesced: consecutive threads access elements at varying "
           "distances" + along;
  case AccessPattern::NoNeighbours:
    return "the kernel runs on one thread";
  }
  return "";
}

/// Why a reference with a non-affine subscript is a may-access, e.g.
/// "subscript idx[i] is not affine: may access any element of x".
std::string mayAccessReason(const polyhedral::Array &array,
                            const polyhedral::Access &access) {
  std::string subscripts, dims;
  unsigned count = 0;
  for (unsigned d = 0; d < access.nonAffineSubscripts.size(); ++d) {
    if (access.nonAffineSubscripts[d].empty())
      continue;
    subscripts += (count ? ", " : "") + access.nonAffineSubscripts[d];
    dims += (count ? ", " : "") + std::to_string(d);
    ++count;
  }
  std::string text = (count > 1 ? "subscripts " : "subscript ") + subscripts +
                     (count > 1 ? " are" : " is") +
                     " not affine: may access any element of " + array.name;
  if (count < array.rank())
    text += " along dimension" + std::string(count > 1 ? "s " : " ") + dims;
  return text;
}

/// "8 x 32".
std::string boxText(const std::vector<long> &sizes) {
  std::string text;
  for (long size : sizes)
    text += (text.empty() ? "" : " x ") + std::to_string(size);
  return text;
}

/// Why a promoted reference lives where it does ("" if not promoted).
std::string promotionReason(const polyhedral::KernelFact &kernel,
                            const polyhedral::ReferenceFact &ref) {
  if (ref.reductionPartial)
    return "reduction: each lane accumulates its iterations of loop " +
           kernel.reduction->loop + " in register " +
           kernel.reduction->variable +
           ", the block combines the lanes' results in shared memory, and the "
           "first lane updates the element";
  if (ref.accumulator) {
    const polyhedral::RegisterAccumulator &acc =
        kernel.accumulators[*ref.accumulator];
    return "accumulator: the same element in every iteration of loop " +
           acc.loop + ", accessed by this thread only and by no other "
           "reference in the loop, so it is loaded into a register before "
           "the loop and stored after it";
  }
  if (ref.constantElements)
    return "read-only in the scop and the same element for every "
           "thread of a block (every mapped loop): the kernel reads a copy of "
           "its first " + std::to_string(*ref.constantElements) +
           " elements in constant memory, whose cache serves a warp's read "
           "in one access (--no-constant keeps it in global memory)";
  if (!ref.sharedTile)
    return "";
  const polyhedral::SharedTile &tile = kernel.sharedTiles[*ref.sharedTile];
  std::string when = kernel.sharedLoop.empty()
                         ? "once, before computing,"
                         : "per tile of loop " + kernel.sharedLoop + " (" +
                               std::to_string(kernel.sharedTileSize) +
                               " iterations)";
  if (kernel.wavefrontSteps > 0)
    return "the tile of a wavefront: the block copies its footprint in once, "
           "into a shared " + boxText(tile.sizes) + " tile with rows padded by " +
           std::to_string(tile.padding) + " (bank conflict degree " +
           std::to_string(tile.conflicts) + " over its references, " +
           std::to_string(tile.conflictsUnpadded) +
           " unpadded), its steps read and write the tile, and it copies the "
           "elements it wrote back";
  std::string why =
      tile.forCoalescing
          ? "read-only in the kernel and read uncoalesced by consecutive "
            "threads (--stage-uncoalesced): "
          : "read-only in the kernel and reused across the threads of a "
            "block: ";
  return why + when + " the block copies the elements it reads, coalesced, "
         "into a shared " + boxText(tile.sizes) + " tile with rows padded by " +
         std::to_string(tile.padding) + " (bank conflict degree " +
         std::to_string(tile.conflicts) + " over its references, " +
         std::to_string(tile.conflictsUnpadded) + " unpadded)" +
         (tile.scale.empty()
              ? std::string()
              : "; the tile holds each element times " + tile.scale +
                    ", the product every reference takes (computed once per "
                    "element, rounded the same)");

} // namespace

}

std::string referenceReason(const Scop &scop, const Statement &stmt,
                            const polyhedral::KernelFact &kernel,
                            const polyhedral::ReferenceFact &ref,
                            const std::string &xLoop) {
  const polyhedral::Access &access = stmt.accesses[ref.access];
  const polyhedral::Array &array = scop.arrays[access.array];
  std::string promoted = promotionReason(kernel, ref);
  if (!promoted.empty()) {
    polyhedral::ReferenceFact global = ref;
    global.inRegister = false;
    return promoted + "; in global memory: " +
           patternReason(array, global, xLoop);
  }
  std::string reason = patternReason(array, ref, xLoop);
  if (!access.isAffine())
    return mayAccessReason(array, access) + "; " + reason;
  return reason;
}

} // namespace polycuda::translator::report
