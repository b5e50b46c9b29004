//===- Report_Reasons.cpp - Why a reference is accessed as it is ----------===//
//
// The sentences of the report, made from the decision records: why one
// array reference of a kernel is accessed as it is (its access pattern, a
// non-affine subscript's may-access, the memory it was promoted to, with
// the numbers behind the choice); why a kernel has no shared tiles, the
// register tile, block size and order of blocks it has, and why its
// reduction's lanes share a loop; why an array's device copies hold what
// they hold.
//
//===----------------------------------------------------------------------===//
#include "ReportInternal.h"

#include "DeviceModel.h"
#include "MappingPolicy.h"
#include "Persistent.h"
#include "Reductions.h"

#include "llvm/ADT/StringExtras.h"

#include <cstdio>

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

std::string expansionReason(const polyhedral::ScalarExpansion &e) {
  using Why = polyhedral::ScalarExpansion::Why;
  std::string loops = std::to_string(e.depth) + " loop(s)";
  switch (e.why) {
  case Why::UsedAfterScop:
    return "its value may be used after the scop";
  case Why::ReadBeforeWritten:
    return "it is read before it is written";
  case Why::NoCommonLoop:
    return "its accesses share no loop";
  case Why::FlowsAcrossEveryLoop:
    return "its value flows between iterations of every loop";
  case Why::Privatized:
    return "privatized along " + loops +
           ": written before read in every iteration";
  case Why::ArrayExpanded:
    return "expanded along " + loops + " into " + e.into +
           ": each iteration writes every value it reads" +
           (e.copiedBack ? "; the last iteration's values are copied back"
                         : "");
  }
  return "";
}

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

std::string reductionReason(const Scop &scop,
                            const polyhedral::BlockReduction &reduction) {
  const std::string &array = scop.arrays[reduction.array].name;
  std::string element =
      scop.arrays[reduction.array].rank() ? "element" : "scalar";
  std::size_t updates = reduction.statements.size();
  std::string reason =
      "every iteration of loop " + reduction.loop + " updates the same " +
      element + " of " + array + " with " +
      polyhedral::reductionOpName(reduction.op) +
      (updates > 1 ? " in each of its " + std::to_string(updates) +
                         " statements"
                   : std::string()) +
      (!reduction.otherReads
           ? ", whose other operand does not read " + array
           : ", whose other operand reads no element of " + array +
                 " that the kernel writes") +
      ": the threads of a block share the loop's iterations and combine "
      "their partial results (reordering them; --reductions=off keeps "
      "the sequential order)";
  for (const std::string &inits : reduction.initsSplitOff) {
    const char *s = inits.find(',') == std::string::npos ? "s" : "";
    reason += "; " + inits + ", which set" + s +
              " its elements first in the same band, run" + s +
              " before it in a kernel of its own (no dependence within an "
              "iteration of the loops around the band goes back from the "
              "reduction to it)";
  }
  if (!reduction.jamShared.empty())
    reason += "; each lane runs " + std::to_string(polyhedral::kLaneJam) +
              " of its iterations of loop " + reduction.loop +
              " together in the loops inside it (unrolled), which read " +
              reduction.jamShared +
              " once for them (--register-tiles=off: one at a time)";
  if (reduction.jamDropped)
    reason += " (not jammed: the thread's band is not its mapped loops over "
              "one band of loops)";
  return reason;
}

namespace {

std::string bytesText(double bytes) {
  char text[32];
  if (bytes >= 1024.0 * 1024)
    std::snprintf(text, sizeof text, "%.1f MiB", bytes / (1024.0 * 1024));
  else
    std::snprintf(text, sizeof text, "%.0f KiB", bytes / 1024.0);
  return text;
}

/// The references that every row of blocks reads, as "A (S1), B (S2)".
std::string rowReferences(const polyhedral::ThreadOrder &order) {
  return llvm::join(order.references, ", ");
}

/// What auto found when every row of blocks reads the same data.
std::string rowReuseFacts(const polyhedral::ThreadOrder &order) {
  return "auto (" + order.device + "): " + rowReferences(order) +
         " read along a sequential loop by every row of blocks; reused "
         "between block rows: " +
         bytesText(order.linearFootprint) + " in linear order (width " +
         std::to_string(order.rowWidth) + ")";
}

/// Why `order` (column or linear) was chosen, before a note on its width.
std::string orderChoice(const polyhedral::ThreadOrder &order) {
  using Why = polyhedral::ThreadOrder::Why;
  std::string w = std::to_string(order.requestedWidth);
  switch (order.why) {
  case Why::None:
    return "";
  case Why::Default:
    return "--thread-order=linear (the default)";
  case Why::OneThread:
    return "one thread: no order of blocks";
  case Why::OneDimension:
    return "one parallel dimension: column order needs two";
  case Why::Requested:
    return "--thread-order=column:" + w + (order.zigzag ? ",zigzag" : "");
  case Why::Reduction:
    return "a reduction kernel: its lanes are one block";
  case Why::Wavefront:
    return "a wavefront's tiles: one launch per wavefront of tiles, in any "
           "order";
  case Why::Neighbourhood:
    return "auto (" + order.device +
           "): neighbouring rows of threads read common elements (a "
           "neighbourhood) and blocks of " +
           std::to_string(order.threads) + " threads leave at most " +
           std::to_string(order.blocksPerSm) +
           " per SM: columns one block wide (measured faster than linear for "
           "such blocks, within noise of it for smaller ones): column:" +
           w;
  case Why::NoRowReuse:
    return "auto: no reference is read along a sequential loop of the kernel "
           "by every row of blocks (stencil-like reuse between neighbouring "
           "blocks favours linear order)";
  case Why::UnknownSize:
    return "auto: " + rowReferences(order) +
           " shared by every row of blocks, but its size is not known at "
           "translation time: linear";
  case Why::FitsL1:
    return rowReuseFacts(order) + " <= L1 " + bytesText(order.l1Budget) +
           " per SM: linear";
  case Why::ColumnL1:
    return rowReuseFacts(order) + " > L1 " + bytesText(order.l1Budget) +
           " per SM; " + bytesText(order.columnFootprint) +
           " in columns of " + w + " <= L1: column:" + w;
  case Why::ColumnL2:
    return rowReuseFacts(order) + " > " + bytesText(order.l2Budget) +
           " of L2; " + bytesText(order.columnFootprint) + " in columns of " +
           w + ": column:" + w;
  case Why::NoWidth:
    return rowReuseFacts(order) +
           " > L1, but no column width brings it under L1 or a fitting L2 "
           "share: linear";
  }
  return "";
}

} // namespace

std::string threadOrderReason(const polyhedral::ThreadOrder &order) {
  std::string text = orderChoice(order);
  if (order.column && order.width != order.requestedWidth)
    text += "; W = " + std::to_string(order.requestedWidth) +
            " is not a multiple of the block's " +
            std::to_string(order.width / order.widthBlocks) +
            " points along x: columns of " + std::to_string(order.widthBlocks) +
            " block(s), " + std::to_string(order.width) + " elements";
  return text;
}

namespace {

std::string blockText(const std::vector<unsigned> &block) {
  std::string text;
  for (unsigned size : block)
    text += (text.empty() ? "" : " x ") + std::to_string(size);
  return text;
}

/// Why a block fills the device as it does.
std::string fillReason(const polyhedral::BlockSizing &sizing) {
  std::string what = "the default " + blockText(sizing.requested);
  if (sizing.fitted != sizing.requested)
    what += ", halved to " + blockText(sizing.fitted) + " (at most " +
            std::to_string(sizing.maxThreadsPerBlock) + " threads per block)";
  const char *const hardware[] = {"x", "y", "z"};
  std::string bounds;
  for (unsigned h = 0; h < sizing.extentBound.size(); ++h) {
    if (!sizing.extentBound[h])
      return what + ": the iterations along " + hardware[h] +
             " have no bound at translation time";
    bounds += (bounds.empty() ? "" : " x ") +
              std::to_string(*sizing.extentBound[h]);
  }
  long sms = sizing.multiprocessors;
  long before = sizing.fittedBlocks.value_or(0);
  long after = sizing.chosenBlocks.value_or(0);
  std::string facts = "at most " + bounds + " iterations per launch give " +
                      std::to_string(before) + " block(s) of " +
                      blockText(sizing.fitted) + " for " +
                      std::to_string(sms) + " SMs";
  if (sizing.chosen == sizing.requested)
    return what + ": " + facts +
           (before < sms ? " (already one warp per block)"
                         : ", at least one per SM");
  if (before >= sms)
    return what + ": " + facts + ", at least one per SM";
  return "shrunk from " + what + ": " + facts + "; " +
         blockText(sizing.chosen) + " gives " + std::to_string(after) +
         " block(s)" + (after < sms ? " (one warp per block, the smallest)" : "");
}

} // namespace

std::string blockSizingReason(const polyhedral::KernelFact &kernel) {
  using Purpose = polyhedral::BlockSizing::Purpose;
  const polyhedral::BlockSizing &sizing = kernel.sizing;
  if (sizing.requested.empty()) // (never sized)
    return "";
  if (sizing.source == polyhedral::BlockSizing::Source::Sizes)
    return "--sizes";
  switch (sizing.purpose) {
  case Purpose::Fill:
    return fillReason(sizing);
  case Purpose::Transposition:
    return fillReason(sizing) +
           " (a transposition, whose read shared memory stages: counted in "
           "threads, each runs the rows of a tile of " +
           std::to_string(polyhedral::kTranspositionTileRows) + " along y)";
  case Purpose::Wavefront:
    return "the tile of a wavefront's parallel members (" +
           kernel.wavefrontMembers + "), " +
           std::to_string(kernel.wavefrontTile[0]) + " x " +
           std::to_string(kernel.wavefrontTile[1]) +
           ": the host loop runs wavefronts of such tiles";
  case Purpose::Reduction:
    break;
  }
  unsigned lanes = sizing.chosen[sizing.laneDim];
  std::string text = "a reduction: " + std::to_string(lanes) + " lanes along " +
                     std::string(1, "xyz"[sizing.laneDim]) + " share loop " +
                     (kernel.reduction ? kernel.reduction->loop : "") +
                     ", one block along it";
  if (sizing.parallelBound)
    text += "; at most " + std::to_string(*sizing.parallelBound) +
            (kernel.numMapped == 3 ? " iterations of the parallel loops"
                                   : " iterations of the parallel loop") +
            " per launch" +
            (lanes == 8 ? ""
                        : ": " + std::to_string(lanes) +
                              " lanes fill the device's threads");
  return text;
}

namespace {

using Transfer = polyhedral::Transfer;

std::string wholeReason(Transfer::WholeWhy why) {
  switch (why) {
  case Transfer::WholeWhy::Cheapest:
    return "the cheapest fallbacks: the translation exceeded its "
           "processor-time budget";
  case Transfer::WholeWhy::Budget:
    return "the exact copy sets exceeded their isl budget";
  }
  return "";
}

/// What a copy in bands adds to its reason.
std::string bandsReason() {
  return " (in at most " + std::to_string(polyhedral::kCopyBands) +
         " bands of rows, each band the box of its own elements: fewer than "
         "this box)";
}

} // namespace

std::string copyInReason(const polyhedral::TransferFact &transfer) {
  const std::string keeps = "keeps the host values of elements of the "
                            "copy-out box that the scop may not write";
  std::string text;
  switch (transfer.inWhy) {
  case Transfer::In::Local:
    return "local to the scop";
  case Transfer::In::WrittenFirst:
    text = "written before it is read";
    break;
  case Transfer::In::LiveIn:
    text = "read before it is written (live-in)";
    break;
  case Transfer::In::KeepsUnwritten:
    text = keeps;
    break;
  case Transfer::In::LiveInAndKeepsUnwritten:
    text = "read before it is written (live-in), and " + keeps;
    break;
  case Transfer::In::Whole:
    return "all it accesses (" + wholeReason(transfer.wholeWhy) + ")";
  }
  return transfer.in.banded() ? text + bandsReason() : text;
}

std::string copyOutReason(const polyhedral::TransferFact &transfer) {
  std::string text;
  switch (transfer.outWhy) {
  case Transfer::Out::Local:
    return "local to the scop";
  case Transfer::Out::Written:
    text = "written";
    break;
  case Transfer::Out::NotWritten:
    return "not written";
  case Transfer::Out::Whole:
    return "written (all it accesses: " + wholeReason(transfer.wholeWhy) + ")";
  }
  if (transfer.out.banded())
    text += bandsReason();
  if (transfer.outWidened)
    text += " (widened to the rows of the copy-in box: the elements between "
            "the written ones were copied in and are not written; whole rows "
            "are copied as one range)";
  return text;
}

} // namespace polycuda::translator::report
