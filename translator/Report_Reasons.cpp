//===- Report_Reasons.cpp - Why a reference is accessed as it is ----------===//
//
// The sentences of the report that explain one array reference of a kernel:
// its access pattern (coalesced, broadcast, strided), a non-affine
// subscript's may-access, and the memory it was promoted to (registers,
// shared tiles, constant memory) with the numbers behind the choice.
//
//===----------------------------------------------------------------------===//
#include "ReportInternal.h"

#include "DeviceModel.h"
#include "MappingPolicy.h"
#include "Persistent.h"

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

namespace {

/// "a x b" of two numbers.
std::string times(unsigned a, unsigned b) {
  return std::to_string(a) + " x " + std::to_string(b);
}

/// The arrays' names, separated by commas.
std::string names(const Scop &scop, const std::vector<unsigned> &arrays) {
  std::string text;
  for (unsigned a : arrays)
    text += (text.empty() ? "" : ", ") + scop.arrays[a].name;
  return text;
}

/// What chose a gemm-shaped tile: the option, or the device model's count
/// of blocks.
std::string tileSizing(const polyhedral::RegisterTileDecision &d) {
  if (d.fromOption)
    return ": --register-tile";
  return ": " + std::to_string(d.blocks) + " blocks of " +
         times(d.block[0] * d.shown[0], d.block[1] * d.shown[1]) +
         " points per launch with " + times(d.shown[0], d.shown[1]) + " (" +
         std::to_string(d.wanted) + " wanted: " +
         std::to_string(polyhedral::kBlocksPerSmForRegisterTiles) +
         " per SM)";
}

/// The decision itself, without what memory promotion added.
std::string registerTileChoice(const Scop &scop,
                               const polyhedral::RegisterTileDecision &d) {
  using Why = polyhedral::RegisterTileDecision::Why;
  switch (d.why) {
  case Why::None:
    return "";
  case Why::Off:
    return "register tiling is off";
  case Why::NotTwoMapped:
    return "not two mapped loops without a reduction";
  case Why::Wavefront:
    return "a wavefront's tile: one point per thread and step";
  case Why::TranspositionRows: {
    std::string rows = std::to_string(d.tile[1]);
    return rows + " points per thread along y, one after the other: a "
                  "transposition's staged tile of " +
           times(d.block[0], d.block[1] * d.tile[1]) + " on " +
           std::to_string(d.block[1]) +
           " threads along y, each copying and writing " + rows +
           " of its rows";
  }
  case Why::StencilOption:
    return times(d.tile[0], d.tile[1]) +
           " consecutive points per thread (x, y), unrolled one after the "
           "other, over the neighbourhoods of " +
           names(scop, d.arrays) + ": --register-tile";
  case Why::StencilTooFewBlocks:
    return "too few blocks for a stencil's consecutive points: " +
           std::to_string(d.blocks) + " with " + std::to_string(d.tile[1]) +
           " points per thread along y (" + std::to_string(d.wanted) +
           " wanted)";
  case Why::StencilPoints:
    return times(d.tile[0], d.tile[1]) +
           " points per thread (x, y), consecutive along y and unrolled one "
           "after the other: each point reads a neighbourhood of " +
           names(scop, d.arrays) +
           " that the next point's overlaps, so the compiler loads the "
           "elements they share once (" +
           std::to_string(d.blocks) + " blocks per launch)";
  case Why::BandShape:
    return "its band is not two mapped loops and one more, permutable";
  case Why::WritesPrivate:
    return "it writes the privatized scalar " + names(scop, d.arrays);
  case Why::NoAccumulator:
    return "no element held across the band's third loop";
  case Why::NoReuse:
    return "no element read by several threads of a block";
  case Why::NotMeasuredShape:
    return "no element read in common along one mapped loop and not the "
           "other (gemm's A[i][k] along j) for each of the two: not the "
           "shape measured with register tiles";
  case Why::NotRectangle:
    return "the mapped loops' iterations are not a rectangle (triangular "
           "spaces measured slower with register tiles)";
  case Why::NoBound:
    return "the loops have no bound at translation time";
  case Why::TooFewBlocks:
    return "too few blocks with several points per thread" + tileSizing(d);
  case Why::Tiled:
    return times(d.tile[0], d.tile[1]) +
           " points per thread (x, y): an element held in a register across "
           "the band's third loop and elements that neighbouring threads "
           "share" +
           tileSizing(d);
  }
  return "";
}

} // namespace

std::string registerTileReason(const Scop &scop,
                               const polyhedral::RegisterTileDecision &d) {
  std::string text = registerTileChoice(scop, d);
  if (d.notUnrolled)
    text += "; not unrolled: the thread's band is not its mapped loops and "
            "one more";
  if (d.boundBlocks)
    text += "; on CUDA compiled for " + std::to_string(d.boundBlocks) +
            " blocks per SM (at most " +
            std::to_string(polyhedral::kJammedRegisters) +
            " registers a thread, " + std::to_string(d.accumulatorWords) +
            " of them accumulators)";
  return text;
}

} // namespace polycuda::translator::report

namespace polycuda::translator {

std::string persistentReason(const polyhedral::GpuProgram &program,
                             const polyhedral::PersistentLoop &loop) {
  using Why = polyhedral::PersistentLoop::Why;
  std::string launches = std::to_string(loop.kernels.size()) + " kernel(s)";
  switch (loop.why) {
  case Why::Off:
    return "turned off (--persistent=off)";
  case Why::HostCode:
    return "the loop runs host code besides its launches";
  case Why::Wavefront:
    return "it launches the tiles of a wavefront (kernel " +
           program.kernels[loop.kernel].name +
           "): one launch per wavefront of tiles";
  case Why::SharedMemory:
    return "its kernels declare " + std::to_string(loop.sharedBytes) +
           " bytes of shared memory together, more than one block may have (" +
           std::to_string(polyhedral::kPersistentSharedBytes) + ")";
  case Why::WaitsForBlock: {
    const polyhedral::Kernel &kernel = program.kernels[loop.kernel];
    return "kernel " + kernel.name + " waits for its block (" +
           (kernel.reduction ? "a reduction" : "shared-memory tiles") +
           ") with " + std::to_string(polyhedral::blockThreads(kernel)) +
           " threads, fewer than the persistent block's " +
           std::to_string(loop.threads);
  }
  case Why::OneBlock:
    return "its " + launches +
           " run on one thread each: one block runs the whole loop, a block "
           "barrier after each phase, instead of a launch per iteration";
  case Why::Cooperative:
    return "its " + launches +
           " run as phases of one cooperative launch of at most the "
           "co-resident blocks of " +
           std::to_string(loop.threads) +
           " threads, a grid barrier after each phase, instead of a launch "
           "per iteration";
  }
  return "";
}

} // namespace polycuda::translator

namespace polycuda::translator::report {

std::string noSharedReason(const Scop &scop,
                           const polyhedral::NoSharedTiles &decision) {
  using Why = polyhedral::NoSharedTiles::Why;
  switch (decision.why) {
  case Why::None:
    return "";
  case Why::ManyMappedLoops:
    return "more than two mapped loops";
  case Why::UnsupportedTree:
    return "unsupported node in the kernel's tree";
  case Why::WavefrontGlobal:
    return "a wavefront's tile exchanges its values through global memory "
           "(--no-shared)";
  case Why::WavefrontTooLarge:
    return "the footprint of a wavefront's tile does not fit in shared memory";
  case Why::WavefrontWritesSeveral:
    return "a wavefront's tile writes more than one array";
  case Why::WavefrontNotAffine:
    return "a wavefront's tile writes " + scop.arrays[decision.array].name +
           " through a subscript that is not affine";
  case Why::WavefrontNoBox:
    return "the footprint of a wavefront's tile has no box of fixed size";
  case Why::NoReuse:
    return "no array that the kernel only reads is reused across the threads "
           "of a block (read by one thread's neighbours, or through " +
           std::to_string(decision.references) + " references or more)" +
           (decision.orUncoalesced ? " or read uncoalesced" : "");
  case Why::NoBoxFits: {
    std::string text =
        "no footprint has a box of fixed size that fits in shared memory";
    for (unsigned a : decision.narrow)
      text += "; the block's rows of " + scop.arrays[a].name +
              " are narrower than a " +
              std::to_string(polyhedral::kSectorBytes) +
              "-byte sector, so a copy would read them as uncoalesced";
    return text;
  }
  case Why::OneThread:
    return "the kernel runs on one thread";
  case Why::Reduction:
    return "a reduction kernel: its shared memory holds the partial results";
  case Why::AstFailed:
    return "isl could not generate the kernel's code with the copies";
  }
  return "";
}

} // namespace polycuda::translator::report
