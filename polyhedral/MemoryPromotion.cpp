//===- MemoryPromotion.cpp - Arrays moved closer to the threads -----------===//
//
// Stage 4 (see MemoryPromotion.h).
//
//===----------------------------------------------------------------------===//
#include "MemoryPromotionInternal.h"

#include "DeviceModel.h"
#include "IslExtras.h"
#include "MappingPolicy.h"
#include "Persistent.h"
#include "SharedMemory.h"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

namespace polycuda::polyhedral {

namespace {

/// `{ S[i] -> [thread coordinates] }` of `kernel`'s instances: the host
/// iteration and the mapped members.
isl::union_map threadOf(const Kernel &kernel) {
  isl::union_map thread = kernel.hostSchedule;
  for (const isl::union_map &member : kernel.mapping->memberSchedules)
    thread = flatRangeProduct(thread, member);
  return thread;
}

/// Does every value that a read of local array `a` gets come from a write
/// of the same thread of `kernel` in the same launch? Where it does not,
/// the array stays in global memory.
bool flowsStayInThread(const Scop &scop, const Dependences &deps,
                       const Kernel &kernel, unsigned a) {
  isl::union_map thread = threadOf(kernel);
  return flowOnArray(scop, deps, a)
      .is_subset(thread.apply_range(thread.reverse()));
}

/// Can local array `a`, accessed only by `kernel` and whose flows stay in
/// one thread (flowsStayInThread), live in one register of each thread?
bool fitsInRegister(const Scop &scop, const Kernel &kernel, unsigned a) {
  isl::union_map thread = threadOf(kernel);
  isl::union_map access = isl::union_map::empty(scop.ctx);
  for (const Statement &stmt : scop.statements)
    for (const Access &acc : stmt.accesses)
      if (acc.array == a)
        access = access.unite(isl::union_map(acc.relation));
  access = access.intersect_domain(kernel.instances);
  return thread.reverse().apply_range(access).is_single_valued();
}


/// Whether a set node of `schedule` (children in any order) has two
/// children with statements among `statements`: the AST generator may
/// print them in either order, which one copy of a variable per thread
/// would make visible (random program 606934: `s1 = A[i]` of iteration
/// i + 1 printed before `A[2 * i] = s1` of iteration i).
bool unorderedBetween(const isl::schedule &schedule,
                      const std::set<std::string> &statements) {
  bool found = false;
  auto visit = [&](isl::schedule_node node) {
    if (found)
      return false;
    if (!node.isa<isl::schedule_node_set>())
      return true;
    int touching = 0;
    for (int c = 0; c < node.n_children(); ++c) {
      isl::union_set filter =
          node.child(c).as<isl::schedule_node_filter>().get_filter();
      bool touches = false;
      filter.foreach_set([&](isl::set set) {
        touches |= statements.count(tupleName(set)) > 0;
      });
      touching += touches;
    }
    found = touching >= 2;
    return !found;
  };
  schedule.get_root().foreach_descendant_top_down(visit);
  return found;
}

/// What the reads of `reads` get from the writes of `writes` in the order
/// of `schedule`: the dependences and the reads without a source.
std::pair<isl::union_map, isl::union_map>
readsFrom(const isl::union_map &reads, const isl::union_map &writes,
          const isl::union_map &schedule) {
  isl::union_map unread;
  isl::union_map deps = dataflow(reads, writes,
                                 isl::union_map::empty(reads.ctx()), schedule,
                                 &unread);
  return {deps, unread};
}

/// Array contraction: the extents of the copy of the variable that array
/// `a` (made by expansion) privatizes, when each thread of `kernel` can
/// keep its own copy of it, `double u[4]` for `u_x[i][4]`, indexed by the
/// dimensions after Array::expandedDims. It can when the variable has
/// constant extents (at most kPrivateElements elements) and every read of
/// the kernel gets its value from the same write with one copy per thread,
/// in the kernel's order, as it does from the expanded array: isl's
/// dataflow analysis of both, compared, after checking that the schedule
/// orders every two instances that access it. The comparison sees one
/// thread at a time (the kernel's instances have the thread as
/// parameters), where a value written by another thread, or in an earlier
/// launch of a host loop, would look like one that no write gives (random
/// program 606614): the caller checks flowsStayInThread first.
std::optional<std::vector<long>> privateCopyShape(const GpuProgram &program,
                                                  const Kernel &kernel,
                                                  unsigned a) {
  const Scop &scop = *program.scop;
  const Array &array = scop.arrays[a];
  if (array.expandedDims == 0 || kernel.mapping->registerTiled() ||
      kernel.reduction || program.schedule.is_null())
    return std::nullopt;
  std::vector<long> shape;
  long elements = 1;
  for (unsigned d = array.expandedDims; d < array.rank(); ++d) {
    std::optional<long> extent = constantValue(array.extents[d]);
    if (!extent || *extent <= 0 || (elements *= *extent) > kPrivateElements)
      return std::nullopt;
    shape.push_back(*extent);
  }
  isl::union_map thread = threadOf(kernel);
  std::set<std::string> statements;
  for (const Statement &stmt : scop.statements)
    for (const Access &access : stmt.accesses)
      if (access.array == a)
        statements.insert(stmt.name);
  if (unorderedBetween(program.schedule, statements))
    return std::nullopt;
  isl::union_map reads = isl::union_map::empty(scop.ctx);
  isl::union_map writes = reads, privateReads = reads, privateWrites = reads;
  for (const Statement &stmt : scop.statements)
    for (const Access &access : stmt.accesses) {
      if (access.array != a)
        continue;
      if (!access.isAffine() || access.kind == Access::Kind::MayWrite)
        return std::nullopt;
      isl::union_map relation =
          isl::union_map(access.relation.intersect_domain(stmt.domain))
              .intersect_domain(kernel.instances);
      isl::map kept = isl::manage(isl_map_project_out(
          access.relation.copy(), isl_dim_out, 0, array.expandedDims));
      isl::union_map copy = flatRangeProduct(
          thread.intersect_domain(isl::union_set(stmt.domain)),
          isl::union_map(kept));
      copy = isl::union_map(withRangeName(mapsOf(copy).front(), "private"))
                 .intersect_domain(kernel.instances);
      bool read = access.kind == Access::Kind::Read;
      (read ? reads : writes) = (read ? reads : writes).unite(relation);
      (read ? privateReads : privateWrites) =
          (read ? privateReads : privateWrites).unite(copy);
    }
  isl::union_map order =
      program.schedule.get_map().intersect_domain(kernel.instances);
  // Instances at the same point of the schedule run in an order the AST
  // generator chooses (a band's statements without a sequence below it).
  if (!order.intersect_domain(reads.domain().unite(writes.domain()))
           .is_injective())
    return std::nullopt;
  auto expanded = readsFrom(reads, writes, order);
  auto contracted = readsFrom(privateReads, privateWrites, order);
  if (!expanded.first.is_equal(contracted.first) ||
      !expanded.second.domain().is_equal(contracted.second.domain()))
    return std::nullopt;
  return shape;
}

/// The thread mark below `node`, or a null node.
isl::schedule_node findThreadMark(const isl::schedule_node &node) {
  if (isMark(node, MarkKind::Thread))
    return node;
  for (int i = 0, n = node.n_children(); i < n; ++i) {
    isl::schedule_node found = findThreadMark(node.child(i));
    if (!found.is_null())
      return found;
  }
  return isl::schedule_node();
}

/// The thread's band of a kernel's tree: below the thread mark, the thread
/// filter (a copy of the mapped subtree has it in its domain instead,
/// subtreeAsSchedule), then the band; a null node when the tree has
/// another shape.
isl::schedule_node threadBand(const isl::schedule &tree) {
  isl::schedule_node mark = findThreadMark(tree.get_root());
  if (mark.is_null())
    return isl::schedule_node();
  isl::schedule_node below = mark.child(0);
  if (below.isa<isl::schedule_node_filter>())
    below = below.child(0);
  if (!below.isa<isl::schedule_node_band>())
    return isl::schedule_node();
  return below;
}

/// `points` inserted at `at` as a band of parallel, permutable members
/// below a mark that has the kernel printer unroll its loops, member m
/// taking extents[m] values (MarkKind::Unroll). Returns the mark.
isl::schedule_node insertUnrolledPoints(isl::schedule_node at,
                                        const isl::multi_union_pw_aff &points,
                                        const std::vector<long> &extents) {
  at = at.insert_partial_schedule(points);
  for (unsigned d = 0; d < extents.size(); ++d)
    at = setCoincident(at, d, true);
  at = at.as<isl::schedule_node_band>().set_permutable(1);
  return at.insert_mark(
      gpuMark(at.ctx(), GpuMark{MarkKind::Unroll, extents, {}}));
}

/// Unroll-and-jam of a register-tiled kernel (KernelMapping::registerTile): the
/// thread's band `[s0, s1, k]` below the thread filter (its points t,
/// t + T, ... of each mapped member s, then the loop k) becomes `[k]`
/// and, inside it, `[r0, r1]`, the point of each instance in the thread's
/// register tile (`r = floor(s / T) mod R`; below each child of a sequence
/// there), below a mark that has the kernel printer unroll its loops
/// (MarkKind::Unroll): every iteration of
/// k runs all the thread's points, so that a value read in it serves
/// several of them, and the points' accumulators are registers. Legal:
/// the band is permutable, and its mapped members are parallel. Returns
/// the tree's root and the points (`{ S[i] -> [r0, r1] }`), or nothing
/// when the tree has another shape.
std::optional<std::pair<isl::schedule_node, isl::union_map>>
jamRegisterTile(const isl::schedule &tree, const Kernel &kernel) {
  isl::schedule_node below = threadBand(tree);
  if (below.is_null())
    return std::nullopt;
  isl::schedule_node_band band = below.as<isl::schedule_node_band>();
  unsigned mapped = kernel.mapping->numMapped;
  // (Its permutability was checked on the mapped band, GpuMapping's
  // chooseRegisterTile: a copy of the subtree may not carry the flag.)
  if (band.n_member() != mapped + 1)
    return std::nullopt;
  isl::multi_union_pw_aff partial = band.get_partial_schedule();
  isl::space space = partial.get_space();
  isl::union_pw_aff_list point(space.ctx(), mapped);
  for (unsigned d = 0; d < mapped; ++d) {
    isl::union_pw_aff s = partial.at(d);
    long size = kernel.mapping->blockSize[d],
         tile = kernel.mapping->tileSize(d);
    point = point.add(
        floorDiv(s, size).sub(scaled(floorDiv(s, tile), tile / size)));
  }
  isl::multi_union_pw_aff tilePoints(dropSetDims(space, mapped, 1), point);
  isl::multi_union_pw_aff loop(
      dropSetDims(space, 0, mapped),
      isl::union_pw_aff_list(space.ctx(), 1).add(partial.at(mapped)));
  isl::union_set domain = domainOf(band);
  std::vector<long> extents(kernel.mapping->registerTile.begin(),
                            kernel.mapping->registerTile.begin() + mapped);
  // The points' band below `at`, under the unroll mark.
  auto insertPoints = [&](const isl::schedule_node &at) {
    return insertUnrolledPoints(at, tilePoints, extents);
  };
  isl::schedule_node node = deleteNode(band);
  if (node.isa<isl::schedule_node_sequence>()) {
    // Below each statement of a sequence (gemm's C *= beta, then its
    // update): the copies of one statement run one after the other, under
    // the guards they share, so that the compiler shares their loads.
    // The points are parallel: any order of them is legal.
    for (int i = 0, n = node.n_children(); i < n; ++i)
      node = insertPoints(node.child(i).child(0)).parent().parent();
  } else {
    node = insertPoints(node);
  }
  node = node.insert_partial_schedule(loop);
  return std::make_pair(
      node.root(),
      isl::union_map::from(tilePoints).intersect_domain(domain));
}

/// The lanes of a jammed reduction (BlockReduction::jam, L lanes): the
/// thread's band below the thread filter, its mapped members with the
/// lane member w among them, over a band of the loops inside (sumprod's
/// [x, z, w] over [y]), becomes [floor(w / (L jam))] over those loops,
/// with [floor(w / L) mod jam] below them under a mark that has the
/// kernel printer unroll its loop (MarkKind::Unroll): each iteration of the
/// inner loops runs jam of the lane's iterations. The other mapped
/// members take one value per thread (its block and thread fix them).
/// Returns the tree's root, or nothing when the tree has another shape.
std::optional<isl::schedule_node> jamLanes(const isl::schedule &tree,
                                           const Kernel &kernel) {
  isl::schedule_node below = threadBand(tree);
  if (below.is_null())
    return std::nullopt;
  isl::schedule_node_band band = below.as<isl::schedule_node_band>();
  unsigned mapped = kernel.mapping->numMapped, lane = kernel.reduction->member;
  if (band.n_member() != mapped || lane >= mapped ||
      !below.child(0).isa<isl::schedule_node_band>() ||
      !below.child(0).child(0).isa<isl::schedule_node_leaf>())
    return std::nullopt;
  isl::multi_union_pw_aff partial = band.get_partial_schedule();
  isl::space one = dropSetDims(partial.get_space(), 1, mapped - 1);
  isl::union_pw_aff w = partial.at(lane);
  long lanes = kernel.mapping->blockSize[lane], jam = kernel.reduction->jam;
  isl::union_pw_aff group = floorDiv(w, lanes * jam);
  isl::union_pw_aff point =
      floorDiv(w, lanes).sub(scaled(floorDiv(w, lanes * jam), jam));
  isl::schedule_node node = deleteNode(band);
  node = node.insert_partial_schedule(isl::multi_union_pw_aff(
      one, isl::union_pw_aff_list(tree.ctx(), 1).add(group)));
  return insertUnrolledPoints(
             node.child(0).child(0),
             isl::multi_union_pw_aff(
                 one, isl::union_pw_aff_list(tree.ctx(), 1).add(point)),
             {jam})
      .root();
}

/// The statements of `domain` (a kernel's) in two groups, when both have
/// some: those that write only the thread's private scalars
/// (Kernel::registers: a stencil's sum), then the others (its store),
/// where no dependence within one host iteration goes from the second to
/// the first. Run in that order for all of a thread's points (each with
/// its own private scalars), no store separates the points' reads, so
/// that the compiler may load an element that several of them read once
/// (a store through a pointer parameter could alias shared memory).
std::optional<isl::union_set_list>
privateThenStores(const GpuProgram &program, const Kernel &kernel,
                  const isl::union_set &domain) {
  const Scop &scop = *program.scop;
  if (!program.deps.complete || kernel.registers.empty())
    return std::nullopt;
  isl::union_set first = isl::union_set::empty(domain.ctx());
  isl::union_set second = first;
  // The same statements among the kernel's instances (without the host
  // iterators as parameters), for the dependences.
  isl::union_set firstInstances = first, secondInstances = first;
  for (const isl::set &set : setsOf(domain)) {
    const Statement *stmt = scop.findStatement(tupleName(set));
    if (!stmt)
      return std::nullopt;
    bool privateOnly = true;
    for (const Access &access : stmt->accesses)
      privateOnly &= access.kind == Access::Kind::Read ||
                     std::find(kernel.registers.begin(),
                               kernel.registers.end(),
                               access.array) != kernel.registers.end();
    isl::union_set &group = privateOnly ? first : second;
    isl::union_set &groupInstances =
        privateOnly ? firstInstances : secondInstances;
    group = group.unite(isl::union_set(set));
    groupInstances = groupInstances.unite(
        kernel.instances.intersect(isl::union_set(stmt->domain)));
  }
  if (first.is_empty() || second.is_empty())
    return std::nullopt;
  isl::union_map sameHost =
      kernel.hostSchedule.apply_range(kernel.hostSchedule.reverse());
  isl::union_map backwards = program.deps.all()
                                 .intersect_domain(secondInstances)
                                 .intersect_range(firstInstances)
                                 .intersect(sameHost);
  if (!backwards.is_empty())
    return std::nullopt;
  return isl::union_set_list(domain.ctx(), 2).add(first).add(second);
}

/// The points of a kernel with blocked points (Kernel::blockedPoints): the
/// thread's band `[s0, s1, ...]` below the thread filter gets above it a
/// band `[r0, r1]`, r = s mod R (the point of each instance among the
/// thread's R consecutive ones), below a mark that has the kernel printer
/// unroll its loops (MarkKind::Unroll). The thread ran its points one after the
/// other already (its band's outer members are the mapped ones): the order
/// is the same, with the loops over the points unrolled, so that the
/// compiler sees the elements that neighbouring points share. Returns the
/// tree's root and the points, or nothing when the tree has another shape.
std::optional<std::pair<isl::schedule_node, isl::union_map>>
unrollBlockedPoints(const isl::schedule &tree, const GpuProgram &program,
                    const Kernel &kernel) {
  isl::schedule_node below = threadBand(tree);
  if (below.is_null())
    return std::nullopt;
  isl::schedule_node_band band = below.as<isl::schedule_node_band>();
  unsigned mapped = kernel.mapping->numMapped;
  if (band.n_member() < mapped)
    return std::nullopt;
  // Only the members with several points: the printer unrolls one AST
  // loop per member of the mark, and isl prints no loop for one value.
  isl::multi_union_pw_aff partial = band.get_partial_schedule();
  isl::space space = partial.get_space();
  std::vector<unsigned> several;
  for (unsigned d = 0; d < mapped; ++d)
    if (kernel.mapping->registerTile[d] > 1)
      several.push_back(d);
  if (several.empty())
    return std::nullopt;
  isl::union_pw_aff_list point(space.ctx(), several.size());
  std::vector<long> extents;
  for (unsigned d : several) {
    isl::union_pw_aff s = partial.at(d);
    long points = kernel.mapping->registerTile[d];
    point = point.add(s.sub(scaled(floorDiv(s, points), points)));
    extents.push_back(points);
  }
  isl::multi_union_pw_aff tilePoints(
      dropSetDims(space, several.size(), band.n_member() - several.size()),
      point);
  isl::union_set domain = domainOf(band);
  auto insertPoints = [&](const isl::schedule_node &at) {
    return insertUnrolledPoints(at, tilePoints, extents);
  };
  isl::schedule_node node = below;
  if (std::optional<isl::union_set_list> groups =
          privateThenStores(program, kernel, domain)) {
    node = node.insert_sequence(*groups);
    for (int i = 0; i < 2; ++i)
      node = insertPoints(node.child(i).child(0)).parent().parent();
  } else {
    node = insertPoints(node);
  }
  return std::make_pair(
      node.root(),
      isl::union_map::from(tilePoints).intersect_domain(domain));
}


/// Has the compiler keep a jammed register tile's kernel within
/// kJammedRegisters a thread (Kernel::minBlocksPerSm), where its
/// accumulators take at most half of them (ptxas would otherwise leave one
/// block per SM; docs/mapping.md, "The mapping's numbers").
void boundRegisters(const Scop &scop, Kernel &kernel) {
  unsigned threads = blockThreads(kernel);
  unsigned words = 0;
  for (const RegisterAccumulator &acc : kernel.accumulators)
    words += acc.slots *
             std::max(1u, elementBytes(scop.arrays[acc.array].type) / 4);
  unsigned blocks = kRegistersPerSm / (kJammedRegisters * threads);
  if (blocks == 0 || words > kJammedRegisters / 2)
    return;
  kernel.minBlocksPerSm = blocks;
  kernel.registerTileDecision.boundBlocks = blocks;
  kernel.registerTileDecision.accumulatorWords = words;
}

} // namespace

void promoteAccumulators(GpuProgram &program) {
  isl::schedule_node root = program.schedule.get_root();
  if (root.n_children() == 0)
    return;
  for (Kernel &kernel : program.kernels) {
    if (kernel.mapping->numMapped == 0 || kernel.stepped())
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
    std::optional<isl::union_map> points;
    bool isJammed = false;
    isl::schedule_node root = tree.get_root();
    if (kernel.reduction && kernel.reduction->jam > 1) {
      if (std::optional<isl::schedule_node> jammed = jamLanes(tree, kernel)) {
        root = *jammed;
      } else {
        kernel.reduction->jam = 1;
        kernel.reduction->jamDropped = true;
      }
    }
    // (A privatized scalar in a register would be shared by the points
    // of a jammed tile; GpuMapping does not register tile such kernels.)
    if (kernel.mapping->registerTiled() && kernel.blockedPoints) {
      if (auto unrolled = unrollBlockedPoints(tree, program, kernel)) {
        root = unrolled->first;
        points = unrolled->second;
      }
    } else if (kernel.mapping->registerTiled() && kernel.jamPoints &&
               kernel.registers.empty()) {
      if (auto jammed = jamRegisterTile(tree, kernel)) {
        root = jammed->first;
        points = jammed->second;
        isJammed = true;
      } else
        kernel.registerTileDecision.notUnrolled = true;
    }
    isl::schedule_node node = promoteAccumulatorsBelow(
        *program.scop, kernel, root,
        filter.as<isl::schedule_node_filter>().get_filter(), points);
    bool lanesJammed = kernel.reduction && kernel.reduction->jam > 1;
    if (!kernel.accumulators.empty() || points || lanesJammed)
      kernel.deviceTree = node.get_schedule();
    if (isJammed)
      boundRegisters(*program.scop, kernel);
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
    if (users != 1)
      continue;
    if (!flowsStayInThread(scop, program.deps, *owner, a))
      continue;
    if (!fitsInRegister(scop, *owner, a)) {
      std::optional<std::vector<long>> shape;
      try {
        shape = privateCopyShape(program, *owner, a);
      } catch (const isl::exception &) {
        resetError(scop.ctx);
      }
      if (!shape)
        continue;
      if (!shape->empty()) // else one element, as fitsInRegister's
        owner->privateShapes[a] = *shape;
    }
    owner->registers.push_back(a);
    owner->arrays.erase(
        std::find(owner->arrays.begin(), owner->arrays.end(), a));
  }
}

} // namespace polycuda::polyhedral
