//===- SharedMemory.cpp - Shared-memory tiles of kernels ------------------===//
//
// Stage 4 (see SharedMemory.h). A kernel whose band has a member after the
// mapped ones (gemm: [i, j, k]) gets that member tiled by T, the tile loop
// kk above the threads, so that every thread of a block runs the same tile
// loop and reaches every barrier:
//
//   filter (block)                  kept as a filter node
//     band [tiles]                  one value per block
//       band [floor(k / T)]         kk: the block's tile loop
//         sequence
//           polycuda_offsets_N      first element of array N's box
//           polycuda_copy_N         this thread's share of the box
//           polycuda_sync_0         barrier
//           mark shared, mark thread, filter (thread), band [i, j, k], ...
//           polycuda_sync_1         barrier
//
// Copies and barriers are extension statements (grafted, as PPCG does).
// The barriers' instances are the block's tiles, the same for every
// thread: only the copies and the computation are guarded by conditions on
// the thread. Hoisting kk above the mapped members is legal: they are
// coincident (no dependence between two threads), and for one thread the
// order (floor(k / T), k, ...) is the order (k, ...).
//
//===----------------------------------------------------------------------===//
#include "SharedMemory.h"

#include "Check.h"
#include "IslExtras.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

namespace polycuda::polyhedral {

unsigned conflictDegree(long stride, unsigned elementBytes) {
  std::map<long, std::set<long>> words; // bank -> distinct words
  for (long k = 0; k < static_cast<long>(kBanks); ++k) {
    long first = k * stride * static_cast<long>(elementBytes);
    for (long byte = first; byte < first + static_cast<long>(elementBytes);
         byte += 4) {
      long word = byte >= 0 ? byte / 4 : -((-byte + 3) / 4);
      long bank = ((word % kBanks) + kBanks) % kBanks;
      words[bank].insert(word);
    }
  }
  size_t degree = 1;
  for (const auto &[bank, set] : words)
    degree = std::max(degree, set.size());
  return degree;
}

unsigned choosePadding(const std::vector<long> &sizes, unsigned elementBytes,
                       const std::vector<ThreadStep> &steps,
                       std::vector<unsigned> *totals) {
  unsigned best = 0, bestTotal = ~0u;
  for (unsigned p = 0; p <= kBanks; ++p) {
    unsigned total = 0;
    for (const ThreadStep &step : steps) {
      if (!step)
        continue; // no single pattern: no padding helps or hurts it
      long stride = 0, pitch = 1;
      for (size_t d = sizes.size(); d-- > 0;) {
        stride += (*step)[d] * pitch;
        pitch *= sizes[d] + (d + 1 == sizes.size() ? p : 0);
      }
      total += conflictDegree(stride, elementBytes);
    }
    if (totals)
      totals->push_back(total);
    if (total < bestTotal) {
      best = p;
      bestTotal = total;
    }
  }
  return best;
}

namespace {

/// A tree node the copy below cannot reproduce (extension, guard, ...).
struct Unsupported {};

/// Copies the subtree at `src` to the leaf `dst`, filters kept as filter
/// nodes; returns the node at `dst`'s position.
isl::schedule_node copyInto(const isl::schedule_node &src,
                            isl::schedule_node dst) {
  if (src.isa<isl::schedule_node_leaf>())
    return dst;
  if (src.isa<isl::schedule_node_band>()) {
    dst = dst.insert_partial_schedule(
        src.as<isl::schedule_node_band>().get_partial_schedule());
    dst = copyBandFlags(src, dst);
  } else if (src.isa<isl::schedule_node_filter>()) {
    dst = dst.insert_filter(src.as<isl::schedule_node_filter>().get_filter());
  } else if (src.isa<isl::schedule_node_mark>()) {
    dst = dst.insert_mark(markId(src));
  } else if (src.isa<isl::schedule_node_sequence>() ||
             src.isa<isl::schedule_node_set>()) {
    int n = src.n_children();
    isl::union_set_list filters(src.ctx(), n);
    for (int i = 0; i < n; ++i)
      filters = filters.add(
          src.child(i).as<isl::schedule_node_filter>().get_filter());
    dst = src.isa<isl::schedule_node_sequence>() ? dst.insert_sequence(filters)
                                                 : dst.insert_set(filters);
    for (int i = 0; i < n; ++i)
      dst = copyInto(src.child(i).child(0), dst.child(i).child(0))
                .parent()
                .parent();
    return dst;
  } else {
    throw Unsupported();
  }
  return copyInto(src.child(0), dst.child(0)).parent();
}

/// The mapped member along threadIdx.x (y: `hardware` 1).
unsigned memberOnHardware(const Kernel &kernel, unsigned hardware) {
  for (unsigned d = 0; d < kernel.mapping->numMapped; ++d)
    if (kernel.mapping->hardwareDim[d] == hardware)
      return d;
  return kernel.mapping->numMapped;
}

/// Promotes the arrays of one kernel; see promoteToShared.
class SharedPromoter {
public:
  SharedPromoter(const GpuProgram &program, Kernel &kernel, unsigned tileSize,
                 StageUncoalesced stage, unsigned neighbourhoodMin)
      : program(program), scop(*program.scop), kernel(kernel),
        tileSize(tileSize), stage(stage), neighbourhoodMin(neighbourhoodMin) {}

  void run(const isl::schedule_node &mark) {
    // mark -> filter (block) -> band (tiles) -> mark shared -> mark thread
    // -> filter (thread) -> band (point); see GpuProgram.h.
    isl::schedule_node point = mark;
    for (int i = 0; i < 6; ++i)
      point = point.child(0);
    if (kernel.mapping->numMapped > 2 ||
        !point.isa<isl::schedule_node_band>()) {
      kernel.noShared.why = NoSharedTiles::Why::ManyMappedLoops;
      return;
    }
    // A member after the mapped ones is a loop each thread runs: tiled, its
    // tile loop above the threads. Without one, the block copies its
    // footprint once (a stencil's neighbourhood).
    isl::schedule_node_band band = point.as<isl::schedule_node_band>();
    bool tiled = band.n_member() > kernel.mapping->numMapped;
    std::vector<unsigned> arrays = candidateArrays(tiled);
    if (arrays.empty())
      return;
    isl::schedule tree = isl::schedule::from_domain(kernel.domain);
    isl::schedule_node node;
    try {
      node = copyInto(mark.child(0), tree.get_root().child(0));
    } catch (const Unsupported &) {
      kernel.noShared.why = NoSharedTiles::Why::UnsupportedTree;
      return;
    }
    // node: filter (block) -> band (tiles) -> mark shared. Without a tile
    // loop, the copies go above the block's filter, so that no condition
    // on the block guards the barrier either (the OpenCL of PoCL fails on
    // a barrier in a condition outside loops).
    isl::union_set instances = domainOf(node.child(0));
    if (tiled) {
      node = node.child(0).child(0);
      isl::union_pw_aff member =
          band.get_partial_schedule().at(kernel.mapping->numMapped);
      kernel.sharedLoop = loopName(member);
      isl::union_pw_aff tile =
          floorDiv(member.intersect_domain(kernel.instances), tileSize);
      node = node.insert_partial_schedule(isl::multi_union_pw_aff(tile));
      node = node.child(0); // the shared mark, below the tile loop
    }
    if (!promoteAt(node, instances, arrays, tiled)) {
      kernel.sharedLoop.clear();
      return;
    }
    for (SharedTile &tile : kernel.sharedTiles)
      tile.forCoalescing = forCoalescing.count(tile.array) > 0;
  }

  /// A tiled wavefront's kernel (Kernel::Steps):
  ///   mark -> filter (block) -> band (tiles) -> band [w] (the steps)
  ///     -> mark shared -> mark thread -> filter (thread) -> band [y1, y2]
  /// becomes, in its device tree,
  ///   filter (block), band (tiles)
  ///     polycuda_offsets_N, polycuda_copy_N, polycuda_sync_0
  ///     band [w]
  ///       (mark shared ...), then polycuda_sync_1 after each step
  ///     polycuda_writeback_N
  /// with the array the statement writes in a shared tile of the block's
  /// footprint when `stage` and it fits (the steps exchange values through
  /// it; only the elements the block writes go back: a concurrent tile may
  /// write others of the box), else the steps exchange them through global
  /// memory with a barrier that makes the block's global writes visible
  /// (polycuda_sync_global).
  void runSteps(const isl::schedule_node &mark, bool stage) {
    isl::schedule tree = isl::schedule::from_domain(kernel.domain);
    isl::schedule_node node;
    try {
      node = copyInto(mark.child(0), tree.get_root().child(0));
    } catch (const Unsupported &) {
      kernel.noShared.why = NoSharedTiles::Why::UnsupportedTree;
      return;
    }
    isl::union_set instances = domainOf(node.child(0));
    node = node.child(0).child(0); // the steps
    isl::union_map prefix =
        node.get_prefix_schedule_union_map().intersect_domain(instances);
    isl::set tiles = prefix.range().as_set();
    isl::schedule_node body = node.child(0);
    isl::set steps = body.get_prefix_schedule_union_map()
                         .intersect_domain(instances)
                         .range()
                         .as_set();
    std::optional<unsigned> staged;
    if (stage)
      staged = stageWritten(prefix, tiles);
    // The barrier after each step: on every step of the block's range,
    // bounded without the instances' existentials (their strides would
    // guard it in isl's code, a third of isl's time on seidel-2d's kernel):
    // the steps it adds at the ends of the range only wait, and its
    // bounds, like the steps', are the block's, the same for all threads.
    steps = isl::manage(isl_set_remove_divs(steps.release()));
    body = body.graft_after(
        barrier(steps, staged ? kernel.addStatement(AddedOp::BlockBarrier, 1)
                              : kernel.addStatement(AddedOp::GridBarrier)));
    // Up through the graft's filter, sequence and extension: the steps.
    node = body.parent();
    while (!node.isa<isl::schedule_node_band>())
      node = node.parent();
    if (staged) {
      for (const isl::map &map : stepCopies)
        node = node.graft_before(isl::schedule_node::from_extension(map));
      node = node.graft_before(
          barrier(tiles, kernel.addStatement(AddedOp::BlockBarrier, 0)));
      node = node.graft_after(
          isl::schedule_node::from_extension(stepWriteback));
    } else if (!kernel.noShared.decided()) {
      kernel.noShared.why = NoSharedTiles::Why::WavefrontGlobal;
    }
    kernel.deviceTree = node.get_schedule();
  }

private:
  /// runSteps' grafts: the offsets and the copy in, and the copy back.
  std::vector<isl::map> stepCopies;
  isl::map stepWriteback;

  /// The one array that the kernel's statements write, or nothing.
  std::optional<unsigned> onlyWrittenArray() const {
    std::optional<unsigned> array;
    for (const std::string &name : kernel.statements)
      for (const Access &access : scop.findStatement(name)->accesses) {
        if (access.kind != Access::Kind::Read) {
          if (array && *array != access.array)
            array.reset();
          else
            array = access.array;
        }
      }
    return array;
  }

  /// The sizes of `shared`'s tile (of its array) from `box`, its padding
  /// and bank conflicts; false (with the reason) when it does not fit in
  /// shared memory.
  bool sizeStepTile(const isl::fixed_box &box, SharedTile &shared) {
    unsigned a = shared.array;
    isl::multi_val size = box.size();
    for (unsigned d = 0; d < size.size(); ++d)
      shared.sizes.push_back(size.at(d).num_si());
    unsigned eb = elementBytes(scop.arrays[a].type);
    if (padTile(shared) * eb > kSharedBytes) {
      kernel.noShared.why = NoSharedTiles::Why::WavefrontTooLarge;
      return false;
    }
    return true;
  }

  /// Stages the one array a wavefront's statement writes; the index of
  /// its tile, or nothing (with the reason) when it cannot.
  std::optional<unsigned> stageWritten(const isl::union_map &prefix,
                                       const isl::set &tiles) {
    std::optional<unsigned> array = onlyWrittenArray();
    isl::union_map accesses = isl::union_map::empty(scop.ctx);
    isl::union_map writes = isl::union_map::empty(scop.ctx);
    if (!array) {
      kernel.noShared.why = NoSharedTiles::Why::WavefrontWritesSeveral;
      return std::nullopt;
    }
    unsigned a = *array;
    bool affine = true;
    for (const std::string &name : kernel.statements)
      for (const Access &access : scop.findStatement(name)->accesses)
        if (access.array == a) {
          affine &= access.isAffine() && access.kind != Access::Kind::MayWrite;
          accesses = accesses.unite(isl::union_map(access.relation));
          if (access.kind != Access::Kind::Read)
            writes = writes.unite(isl::union_map(access.relation));
        }
    if (!affine || scop.arrays[a].rank() == 0) {
      kernel.noShared.why = NoSharedTiles::Why::WavefrontNotAffine;
      kernel.noShared.array = a;
      return std::nullopt;
    }
    isl::union_set instances = prefix.domain();
    isl::map footprint =
        prefix.reverse().apply_range(accesses.intersect_domain(instances))
            .as_map();
    isl::fixed_box box = footprint.range_simple_fixed_box_hull();
    if (!box.is_valid()) {
      kernel.noShared.why = NoSharedTiles::Why::WavefrontNoBox;
      return std::nullopt;
    }
    SharedTile shared;
    shared.array = a;
    if (!sizeStepTile(box, shared))
      return std::nullopt;
    unsigned index = kernel.sharedTiles.size();
    const std::string &name = scop.arrays[a].name;
    shared.variable = "polycuda_" + name + "_shared";
    shared.offset = "polycuda_" + name + "_off";
    std::string tuple = rangeTupleName(footprint);
    isl::set share = threadShare(tuple, scop.arrays[a].rank());
    stepCopies.push_back(withRangeName(
        box.offset().as_map().intersect_domain(tiles),
        kernel.addStatement(AddedOp::SharedOffsets, index)));
    // Within what the scop accesses over all launches (the launch's own
    // elements would cost isl the floors of its tile wavefront).
    isl::set accessed =
        accesses.intersect_domain(kernel.instances).range().as_set();
    stepCopies.push_back(withRangeName(
        boxCopy(box, shared.sizes, tuple, accessed)
            .intersect_domain(tiles)
            .intersect_range(share),
        kernel.addStatement(AddedOp::SharedCopy, index)));
    stepWriteback = withRangeName(
        prefix.reverse()
            .apply_range(writes.intersect_domain(instances))
            .as_map()
            .intersect_range(share),
        kernel.addStatement(AddedOp::SharedWriteback, index));
    kernel.sharedTiles.push_back(shared);
    kernel.noShared = NoSharedTiles();
    return index;
  }

  const GpuProgram &program;
  const Scop &scop;
  Kernel &kernel;
  unsigned tileSize;
  StageUncoalesced stage;
  unsigned neighbourhoodMin;
  /// Candidates without reuse, staged because they are uncoalesced.
  std::set<unsigned> forCoalescing;

  /// Arrays the kernel only reads, through affine subscripts, that its
  /// threads reuse: one reference reads an element for neighbouring
  /// threads (broadcast), or `neighbourhoodMin` or more references read
  /// the array (a stencil's neighbourhood). As `stage` says, also those
  /// with a reference that consecutive threads of a warp read a row or
  /// more apart (a transposition's A[i][j] with threadIdx.x along i, once
  /// per block; with All, mv's A[i][j] with threadIdx.x along i, per tile
  /// of j): the block's copy reads its rows coalesced (Baskaran et al.:
  /// stage through shared memory what no schedule coalesces).
  std::vector<unsigned> candidateArrays(bool tiled) {
    std::vector<unsigned> result;
    unsigned x = memberOnHardware(kernel, 0);
    for (unsigned a : kernel.arrays) {
      bool readOnly = true, affine = true, broadcast = false,
           uncoalesced = false;
      unsigned references = 0;
      for (const ReferenceAccess &ref : kernel.accesses) {
        const Access &access =
            scop.statements[ref.statement].accesses[ref.access];
        if (access.array != a)
          continue;
        ++references;
        readOnly &= access.kind == Access::Kind::Read;
        affine &= access.isAffine();
        for (const MemberAccess &m : ref.members)
          broadcast |= m.pattern == AccessPattern::Broadcast;
        if (x < ref.members.size())
          uncoalesced |= isUncoalesced(ref.members[x].pattern);
      }
      if (references == 0 || !readOnly || !affine ||
          scop.arrays[a].rank() == 0 || kernel.readsConstant(a))
        continue;
      // A few references (jacobi-2d's five points) are served as well by
      // the L1 cache (kMinNeighbourhoodReferences).
      bool neighbourhood =
          std::find(kernel.neighbourhoods.begin(), kernel.neighbourhoods.end(),
                    a) != kernel.neighbourhoods.end();
      if (broadcast || references >= neighbourhoodMin || neighbourhood) {
        result.push_back(a);
      } else if (uncoalesced && stagesUncoalesced(stage, tiled)) {
        result.push_back(a);
        forCoalescing.insert(a);
      }
    }
    if (result.empty()) {
      kernel.noShared.why = NoSharedTiles::Why::NoReuse;
      kernel.noShared.references = neighbourhoodMin;
      kernel.noShared.orUncoalesced = stagesUncoalesced(stage, tiled);
    }
    return result;
  }

  /// The source loop of `member`: in a statement whose instances it does
  /// not all give one value, the first iterator that two instances with
  /// the same value share.
  std::string loopName(const isl::union_pw_aff &member) {
    isl::union_map values = memberMap(member, kernel.instances);
    for (const isl::map &piece : mapsOf(values)) {
      const Statement *stmt = scop.findStatement(domainTupleName(piece));
      if (!stmt || piece.range().is_singleton())
        continue;
      isl::set deltas = piece.apply_range(piece.reverse()).deltas();
      for (unsigned d = 0; d < stmt->sourceIterators.size(); ++d)
        if (fixedValue(deltas, d))
          return stmt->sourceIterators[d];
    }
    return "";
  }

  /// The scalar argument every reference of `shared` (read-only) is
  /// multiplied by, as the operand of a product (SharedTile::scale), when
  /// there is one and it has the array's type: then the product rounds the
  /// same wherever it is computed. Empty otherwise.
  std::string commonScale(const SharedTile &shared) const {
    ElemType type = scop.arrays[shared.array].type;
    if (type != ElemType::Double && type != ElemType::Float)
      return "";
    std::optional<std::string> scale;
    bool valid = !shared.references.empty();
    // Whether each node that is one of the references has a product with a
    // scalar argument as its parent.
    std::function<void(const Expr &, const Expr *, unsigned)> visit =
        [&](const Expr &e, const Expr *parent, unsigned access) {
          if (e.kind == Expr::Kind::ArrayRef && e.access == int(access)) {
            const Expr *other = nullptr;
            if (parent && parent->kind == Expr::Kind::Binary &&
                parent->op == "*")
              other = parent->args[0].get() == &e ? parent->args[1].get()
                                                   : parent->args[0].get();
            std::string name;
            if (other && other->kind == Expr::Kind::Param)
              for (const auto &[arg, argType] : scop.scalarArgs)
                if (arg == other->name && argType == type)
                  name = arg;
            if (name.empty() || (scale && *scale != name))
              valid = false;
            scale = name;
          }
          for (const ExprPtr &arg : e.args)
            if (arg)
              visit(*arg, &e, access);
        };
    for (const auto &[s, access] : shared.references) {
      const Statement &stmt = scop.statements[s];
      if (!stmt.lhs || !stmt.rhs)
        return ""; // (a model built without bodies)
      visit(*stmt.lhs, nullptr, access);
      visit(*stmt.rhs, nullptr, access);
    }
    return valid && scale ? *scale : "";
  }

  /// Steps of `a`'s references along threadIdx.x, and of the copy
  /// (consecutive threads, consecutive elements of the last dimension).
  std::vector<ThreadStep> threadSteps(unsigned a, SharedTile &shared) {
    unsigned x = memberOnHardware(kernel, 0);
    std::vector<ThreadStep> steps;
    for (const ReferenceAccess &ref : kernel.accesses) {
      const Statement &stmt = scop.statements[ref.statement];
      const Access &access = stmt.accesses[ref.access];
      if (access.array != a)
        continue;
      shared.references.push_back({ref.statement, ref.access});
      isl::map local = pieceOf(kernel.mapping->localSchedule, stmt.name);
      isl::map host = pieceOf(kernel.hostSchedule, stmt.name);
      isl::set deltas = neighbourDeltas(stmt, access, local, host, x);
      std::vector<long> step;
      for (unsigned d = 0; d < scop.arrays[a].rank() && !deltas.is_empty();
           ++d)
        if (std::optional<long> v = fixedValue(deltas, d))
          step.push_back(*v);
      steps.push_back(step.size() == scop.arrays[a].rank() ? ThreadStep(step)
                                                           : std::nullopt);
    }
    std::vector<long> copy(scop.arrays[a].rank(), 0);
    copy.back() = 1;
    steps.push_back(copy);
    return steps;
  }

  /// This thread's share of a box of `rank` dimensions named `name`: the
  /// last dimension strided over threadIdx.x, the one before over
  /// threadIdx.y (when the block has a y dimension).
  isl::set threadShare(const std::string &name, unsigned rank) {
    std::string dims, constraints = "0 = 0", params;
    for (unsigned d = 0; d < rank; ++d)
      dims += (d ? ", " : "") + std::string("e") + std::to_string(d);
    for (unsigned hw = 0; hw < kernel.mapping->numMapped; ++hw) {
      unsigned d = memberOnHardware(kernel, hw);
      std::string t = program.names.threadId + std::to_string(d);
      params += (params.empty() ? "" : ", ") + t;
      if (hw < rank)
        constraints += " and (e" + std::to_string(rank - 1 - hw) + " - " + t +
                       ") mod " + std::to_string(kernel.mapping->blockSize[d]) +
                       " = 0";
      else
        constraints += " and " + t + " = 0";
    }
    return isl::set(scop.ctx, "[" + params + "] -> { " + name + "[" + dims +
                                  "] : " + constraints + " }");
  }

  /// Chooses the arrays' boxes and grafts the copies and barriers around
  /// `node` (the shared mark below the tile loop if `tiled`, else the
  /// block's filter), for the block's `instances`. False if no array fits.
  bool promoteAt(isl::schedule_node node, const isl::union_set &instances,
                 const std::vector<unsigned> &arrays, bool tiled) {
    isl::union_map prefix =
        node.get_prefix_schedule_union_map().intersect_domain(instances);
    isl::set tiles = prefix.range().as_set();
    std::vector<isl::map> offsets, copies;
    std::vector<unsigned> narrow; // staged for coalescing, but too narrow
    unsigned bytes = 0;
    for (unsigned a : arrays) {
      isl::union_map accesses = isl::union_map::empty(scop.ctx);
      for (const std::string &name : kernel.statements)
        for (const Access &access : scop.findStatement(name)->accesses)
          if (access.array == a)
            accesses = accesses.unite(isl::union_map(access.relation));
      isl::map footprint = prefix.reverse()
                               .apply_range(
                                   accesses.intersect_domain(instances))
                               .as_map();
      isl::fixed_box box = footprint.range_simple_fixed_box_hull();
      if (!box.is_valid())
        continue;
      SharedTile shared;
      shared.array = a;
      isl::multi_val size = box.size();
      for (unsigned d = 0; d < size.size(); ++d)
        shared.sizes.push_back(size.at(d).num_si());
      unsigned eb = elementBytes(scop.arrays[a].type);
      // Staged for coalescing, the copy must read whole 32-byte sectors
      // along its rows: a column of the block (A[i][k] with k fixed) is
      // read as uncoalesced by the copy as by the threads.
      if (forCoalescing.count(a) &&
          shared.sizes.back() * long(eb) < long(kSectorBytes)) {
        narrow.push_back(a);
        continue;
      }
      long elements = padTile(shared);
      if (bytes + elements * eb > kSharedBytes)
        continue;
      bytes += elements * eb;
      unsigned index = kernel.sharedTiles.size();
      const std::string &name = scop.arrays[a].name;
      shared.variable = "polycuda_" + name + "_shared";
      shared.offset = "polycuda_" + name + "_off";
      std::string tuple = rangeTupleName(footprint);
      offsets.push_back(withRangeName(
          box.offset().as_map().intersect_domain(tiles),
          kernel.addStatement(AddedOp::SharedOffsets, index)));
      isl::set accessed =
          accesses.intersect_domain(kernel.domain).range().as_set();
      copies.push_back(withRangeName(
          boxCopy(box, shared.sizes, tuple, accessed)
              .intersect_domain(tiles) // where the offsets are set
              .intersect_range(threadShare(tuple, scop.arrays[a].rank())),
          kernel.addStatement(AddedOp::SharedCopy, index)));
      shared.scale = commonScale(shared);
      kernel.sharedTiles.push_back(shared);
    }
    if (kernel.sharedTiles.empty()) {
      kernel.noShared.why = NoSharedTiles::Why::NoBoxFits;
      kernel.noShared.narrow = narrow;
      return false;
    }
    kernel.sharedTileSize = tiled ? tileSize : 0;
    graftCopies(node, offsets, copies, tiles, tiled);
    return true;
  }

  /// Grafts the tiles' `offsets` and `copies` before `node` (promoteAt's),
  /// then a barrier, and with `tiled` a barrier after it (the next tile's
  /// copies wait until every thread is done); the kernel's device tree.
  void graftCopies(isl::schedule_node node,
                   const std::vector<isl::map> &offsets,
                   const std::vector<isl::map> &copies, const isl::set &tiles,
                   bool tiled) {
    for (const isl::map &map : offsets)
      node = node.graft_before(isl::schedule_node::from_extension(map));
    for (const isl::map &map : copies)
      node = node.graft_before(isl::schedule_node::from_extension(map));
    // Once per block: every thread of every block reaches the barrier. Over
    // the hull of the tiles, not the tiles: a union of them would guard the
    // barriers with conditions that are the same for all threads of a block
    // (legal, but PoCL then runs the kernel wrongly: random seed 851112); a
    // barrier on a tile without copies only waits. The tiles depend on no
    // thread, so neither does the hull; it may be unbounded, as the tile
    // loop above bounds it (an extension runs within its outer loops).
    isl::set hull = isl::manage(isl_set_from_basic_set(
        isl_set_simple_hull(isl_set_remove_divs(tiles.copy()))));
    node = node.graft_before(barrier(
        tiled ? hull : isl::set::universe(tiles.get_space()),
        kernel.addStatement(AddedOp::BlockBarrier, 0)));
    if (tiled)
      node = node.graft_after(
          barrier(hull, kernel.addStatement(AddedOp::BlockBarrier, 1)));
    kernel.deviceTree = node.get_schedule();
  }

  /// Pads the tile `shared` (its array and sizes set) against bank
  /// conflicts over the threads' steps (choosePadding) and records the
  /// conflicts; returns its elements, padding included.
  long padTile(SharedTile &shared) {
    unsigned eb = elementBytes(scop.arrays[shared.array].type);
    std::vector<ThreadStep> steps = threadSteps(shared.array, shared);
    std::vector<unsigned> totals;
    shared.padding = choosePadding(shared.sizes, eb, steps, &totals);
    shared.conflicts = totals[shared.padding];
    shared.conflictsUnpadded = totals[0];
    long elements = shared.sizes.back() + shared.padding;
    for (size_t d = 0; d + 1 < shared.sizes.size(); ++d)
      elements *= shared.sizes[d];
    return elements;
  }

  /// The elements a block copies per tile: the box of its footprint (the
  /// box's `offset` and `sizes`), within the bounding box of the elements
  /// the kernel `accessed` (allocated on the device: no copy reads past the
  /// array). A box, not the footprint itself: a stencil's footprint is a
  /// cross whose exact copy needs loops with many pieces; the elements of
  /// the box outside it are copied but never read.
  isl::map boxCopy(const isl::fixed_box &box, const std::vector<long> &sizes,
                   const std::string &tuple, const isl::set &accessed) {
    std::string from, to, constraints = "0 = 0";
    for (size_t d = 0; d < sizes.size(); ++d) {
      std::string o = "o" + std::to_string(d), e = "e" + std::to_string(d);
      from += (d ? ", " : "") + o;
      to += (d ? ", " : "") + e;
      constraints += " and " + o + " <= " + e + " <= " + o + " + " +
                     std::to_string(sizes[d] - 1);
    }
    isl::map within(scop.ctx, "{ " + tuple + "[" + from + "] -> " + tuple +
                                  "[" + to + "] : " + constraints + " }");
    isl::set bounds = isl::set::universe(accessed.get_space());
    for (unsigned d = 0; d < sizes.size(); ++d) {
      isl::pw_aff e = variableOn(accessed.get_space(), d);
      bounds = bounds
                   .intersect(e.ge_set(liftToSpace(dimMin(accessed, d),
                                                   accessed.get_space())))
                   .intersect(e.le_set(liftToSpace(dimMax(accessed, d),
                                                   accessed.get_space())));
    }
    return box.offset().as_map().apply_range(within).intersect_range(bounds);
  }

  /// A graft of one barrier `name` per tile of `tiles`.
  isl::schedule_node barrier(const isl::set &tiles, const std::string &name) {
    isl::set sync =
        isl::set::universe(namedSetSpace(scop.ctx, name, 0));
    return isl::schedule_node::from_extension(
        isl::union_map(mapFromDomainAndRange(tiles, sync)));
  }
};

} // namespace

void placeInConstantMemory(GpuProgram &program) {
  const Scop &scop = *program.scop;
  long total = 0;
  for (unsigned a = 0; a < scop.arrays.size(); ++a) {
    const Array &array = scop.arrays[a];
    if (array.rank() == 0 || array.isWritten || array.isLocal)
      continue;
    bool readOnly = true;
    isl::union_set accessed = isl::union_set::empty(scop.ctx);
    for (const Statement &stmt : scop.statements)
      for (const Access &access : stmt.accesses)
        if (access.array == a) {
          readOnly &= access.kind == Access::Kind::Read && access.isAffine();
          accessed = accessed.unite(isl::union_set(
              access.relation.intersect_domain(stmt.domain).range()));
        }
    accessed = accessed.intersect_params(scop.context);
    if (!readOnly || accessed.is_empty())
      continue;
    // The linear index of the largest subscript of each dimension (over
    // every value of the parameters) bounds every accessed element's.
    isl::set elements = accessed.as_set();
    std::optional<long> last = 0;
    for (unsigned d = 0; d < array.rank() && last; ++d) {
      isl::val low = elements.dim_min_val(d), high = elements.dim_max_val(d);
      std::optional<long> extent =
          d == 0 ? std::optional<long>(0) : constantValue(array.extents[d]);
      if (!low.is_int() || !high.is_int() || low.is_neg() || !extent ||
          (d > 0 && high.get_num_si() >= *extent) ||
          high.get_num_si() > kConstantArrayBytes)
        last = std::nullopt;
      else
        last = (d == 0 ? 0 : *last * *extent) + high.get_num_si();
    }
    if (!last)
      continue;
    long bytes = (*last + 1) * long(elementBytes(array.type));
    if (bytes > kConstantArrayBytes || total + bytes > kConstantScopBytes)
      continue;
    bool used = false;
    for (Kernel &kernel : program.kernels) {
      if (kernel.mapping->numMapped == 0 ||
          std::find(kernel.arrays.begin(), kernel.arrays.end(), a) ==
              kernel.arrays.end())
        continue;
      bool uniform = true;
      for (const ReferenceAccess &ref : kernel.accesses) {
        if (scop.statements[ref.statement].accesses[ref.access].array != a)
          continue;
        for (unsigned d = 0; d < kernel.mapping->numMapped; ++d)
          uniform &= d < ref.members.size() &&
                     ref.members[d].pattern == AccessPattern::Broadcast;
      }
      if (uniform &&
          kernel.constantArrays.size() < kConstantArraysPerKernel) {
        kernel.constantArrays.push_back(a);
        used = true;
      }
    }
    if (used) {
      program.constants.push_back({a, *last + 1});
      total += bytes;
    }
  }
}

void promoteToShared(GpuProgram &program, unsigned tileSize,
                     StageUncoalesced stage, unsigned neighbourhoodMin) {
  isl::schedule_node root = program.schedule.get_root();
  if (root.n_children() == 0)
    return;
  for (Kernel &kernel : program.kernels) {
    if (kernel.mapping->numMapped == 0) {
      kernel.noShared.why = NoSharedTiles::Why::OneThread;
      continue;
    }
    if (kernel.reduction) {
      kernel.noShared.why = NoSharedTiles::Why::Reduction;
      continue;
    }
    isl::schedule_node mark = findKernelMark(root.child(0), kernel);
    if (mark.is_null())
      continue;
    if (kernel.stepped())
      continue; // promoteSteps
    SharedPromoter(program, kernel, tileSize, stage, neighbourhoodMin)
        .run(mark);
  }
}

void promoteSteps(GpuProgram &program, bool stage) {
  isl::schedule_node root = program.schedule.get_root();
  if (root.n_children() == 0)
    return;
  for (Kernel &kernel : program.kernels) {
    if (!kernel.stepped())
      continue;
    isl::schedule_node mark = findKernelMark(root.child(0), kernel);
    POLYCUDA_CHECK(!mark.is_null()) << "no mark for kernel " << kernel.name;
    SharedPromoter(program, kernel, 0, StageUncoalesced::Off, 0)
        .runSteps(mark, stage);
  }
}

} // namespace polycuda::polyhedral
