//===- GpuMapping.cpp - Kernels, blocks and threads from a schedule -------===//
//
// Stage 3: schedule tree -> GpuProgram kernels (see GpuMapping.h).
//
//   domain
//     sequential band (host loop)         <- stays on the host
//       mark <kernel>                     <- its statements, e.g. "S0_S1"
//         filter, tile band               <- blocks (see GpuProgram.h)
//           mark "shared", mark "thread", filter
//             band (coincident members first) <- s = T * (b + offset) + t
//               ...                       <- loops inside the kernel
//
// A mapped member s with block size T is tiled: its tile floor(s / T) minus
// `offset` is the block index b and its point s - T * floor(s / T) the
// thread index t; `offset` = floor(min s / T) over the kernel's instances
// for the current host iteration, so the grid covers the bounding box of the
// tiles and starts at block 0 whatever the sign of s.
//
//===----------------------------------------------------------------------===//
#include "GpuMappingInternal.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace polycuda::polyhedral::mapping {

bool hasCoincidentMember(const isl::schedule_node &node) {
  if (node.isa<isl::schedule_node_band>()) {
    unsigned n = node.as<isl::schedule_node_band>().n_member();
    for (unsigned i = 0; i < n; ++i)
      if (isCoincident(node, i))
        return true;
  }
  int n = node.n_children();
  for (int i = 0; i < n; ++i)
    if (hasCoincidentMember(node.child(i)))
      return true;
  return false;
}

unsigned leadingCoincident(const isl::schedule_node &band) {
  unsigned n = band.as<isl::schedule_node_band>().n_member();
  unsigned p = 0;
  while (p < n && isCoincident(band, p))
    ++p;
  return p;
}

std::vector<std::string> numberedNames(const std::string &prefix, unsigned n) {
  std::vector<std::string> names;
  for (unsigned i = 0; i < n; ++i)
    names.push_back(prefix + std::to_string(i));
  return names;
}

std::set<unsigned> writtenArrays(const Scop &scop,
                                 const std::vector<ReferenceAccess> &refs) {
  std::set<unsigned> written;
  for (const ReferenceAccess &ref : refs) {
    const Access &access = scop.statements[ref.statement].accesses[ref.access];
    if (access.kind != Access::Kind::Read)
      written.insert(access.array);
  }
  return written;
}

isl::schedule_node Mapper::visit(isl::schedule_node node) {
  if (node.isa<isl::schedule_node_leaf>())
    return markKernel(node, 0);
  if (node.isa<isl::schedule_node_band>()) {
    if (!hasCoincidentMember(node)) {
      if (!hasLongReduction(node.child(0)))
        return markKernel(node, 0);
      // A sequential loop around a long reduction: the loop goes to the
      // host, so that the reduction's lanes share its iterations in a
      // launch per iteration, instead of one thread running both.
      isl::schedule_node_band band = node.as<isl::schedule_node_band>();
      if (band.n_member() > 1)
        node = band.split(1);
      return visit(node.child(0)).parent();
    }
    unsigned parallel = leadingCoincident(node);
    if (parallel > 0) {
      if (std::optional<isl::schedule_node> host =
              hoistAroundReduction(node, parallel))
        return visit(host->child(0)).parent();
      return markKernel(node, std::min(parallel, 3u));
    }
    // The outer member carries a dependence: it becomes a host loop.
    isl::schedule_node_band band = node.as<isl::schedule_node_band>();
    if (band.n_member() > 1)
      node = band.split(1);
    if (std::optional<isl::schedule_node> tiles = tileWavefront(node)) {
      noteInChild(kTiledWavefrontNote);
      node = *tiles;
    }
    return visit(node.child(0)).parent();
  }
  if (isMark(node, MarkKind::Steps))
    return markSteppedKernel(node);
  if (node.isa<isl::schedule_node_sequence>() ||
      node.isa<isl::schedule_node_set>()) {
    if (!hasCoincidentMember(node) && !hasLongReduction(node))
      return markKernel(node, 0);
    int n = node.n_children();
    for (int i = 0; i < n; ++i)
      node = visit(node.child(i)).parent();
    return node;
  }
  if (node.n_children() == 0)
    return node;
  return visit(node.child(0)).parent();
}

std::string Mapper::uniqueName(const std::vector<std::string> &statements) {
  std::string base;
  for (const std::string &name : statements)
    base += (base.empty() ? "" : "_") + name;
  std::string name = base;
  for (unsigned n = 2; program.findKernel(name); ++n)
    name = base + "_" + std::to_string(n);
  return name;
}

void Mapper::recordStatements(Kernel &kernel, const isl::union_set &instances) {
  std::set<unsigned> arrays;
  for (const isl::set &set : setsOf(instances)) {
    std::string name = tupleName(set);
    const Statement *stmt = scop.findStatement(name);
    POLYCUDA_CHECK(stmt) << "unknown statement " << name;
    kernel.statements.push_back(name);
    for (const Access &access : stmt->accesses)
      arrays.insert(access.array);
  }
  kernel.arrays.assign(arrays.begin(), arrays.end());
}

Kernel &Mapper::addKernel(const isl::union_set &instances, unsigned mapped) {
  Kernel &kernel = program.kernels.emplace_back();
  kernel.id = program.kernels.size() - 1;
  auto mapping = std::make_shared<KernelMapping>();
  mappings[kernel.id] = mapping;
  kernel.mapping = mapping;
  mapping->numMapped = mapped;
  recordStatements(kernel, instances);
  kernel.name = uniqueName(kernel.statements);
  kernel.mark = isl::id(scop.ctx, kernel.name, KernelMark{kernel.id, mapping});
  kernel.launchGroup = isl::id(scop.ctx, kLaunchGroupPrefix + kernel.name,
                               LaunchGroup{kernel.id});
  return kernel;
}

isl::schedule_node Mapper::markKernel(isl::schedule_node node,
                                      unsigned mapped) {
  isl::union_set instances = domainOf(node);
  if (instances.is_empty())
    return node;
  Kernel &kernel = addKernel(instances, mapped);

  isl::union_map prefix =
      node.get_prefix_schedule_union_map().intersect_domain(instances);
  mappingOf(kernel).hostDepth = scheduleDepth(node);
  std::vector<std::string> hostNames =
      numberedNames(program.names.hostIterator, kernel.mapping->hostDepth);
  // Instances with the host iterators as parameters.
  isl::union_set domain = isl::union_set::empty(scop.ctx);
  for (const isl::map &map : mapsOf(prefix))
    domain =
        domain.unite(isl::union_set(outputsToParams(map, hostNames).domain()));
  kernel.domain = domain;
  kernel.instances = instances;
  kernel.hostSchedule = prefix;
  mappingOf(kernel).localSchedule =
      subtreeSchedule(node).intersect_domain(instances);
  kernel.context = coalesced(scop.context.intersect(paramsOf(domain)));
  if (std::optional<BlockReduction> reduction =
          findReduction(kernel, node, mapped)) {
    kernel.reduction = std::move(*reduction);
    mappingOf(kernel).numMapped = ++mapped;
  }
  if (mapped > 0)
    node = mapBand(kernel, node);
  return node.insert_mark(kernel.mark);
}

isl::union_pw_aff_list
Mapper::blockBand(Kernel &kernel, const isl::union_pw_aff_list &tiles,
                  const std::vector<isl::union_pw_aff> &relative) {
  if (!kernel.mapping->order.column)
    return tiles;
  isl::union_pw_aff z;
  if (kernel.mapping->numMapped == 3)
    z = relative[memberOnHardware(kernel, 2)];
  std::vector<std::string> grid =
      numberedNames(program.names.gridId, kernel.mapping->numMapped);
  mappingOf(kernel).blockOfGrid = blocksOfGrid(kernel, grid);
  return columnBand(relative[memberOnHardware(kernel, 0)],
                    relative[memberOnHardware(kernel, 1)], z,
                    kernel.mapping->order.widthBlocks,
                    kernel.mapping->order.zigzag);
}

isl::schedule_node Mapper::mapBand(Kernel &kernel, isl::schedule_node band) {
  chooseMapping(kernel, band);
  isl::multi_union_pw_aff partial =
      band.as<isl::schedule_node_band>().get_partial_schedule();
  isl::multi_union_pw_aff host = band.get_prefix_schedule_multi_union_pw_aff();
  BandBinding binding(kernel.instances, scop.ctx, kernel.mapping->numMapped);
  std::string ids, bounds;
  for (unsigned d = 0; d < kernel.mapping->numMapped; ++d) {
    std::string b = program.names.blockId + std::to_string(d);
    std::string t = program.names.threadId + std::to_string(d);
    isl::union_pw_aff s = partial.at(d).intersect_domain(kernel.instances);
    if (kernel.stepped())
      bindSteppedMember(kernel, d, s, host, b, t, binding);
    else
      bindMember(kernel, d, s, host, b, t, binding);
    ids += (d ? ", " : "") + b + ", " + t;
    bounds += (d ? " and " : "") + b + " >= 0 and 0 <= " + t + " < " +
              std::to_string(kernel.mapping->blockSize[d]);
  }
  if (kernel.stepped())
    bindSteps(kernel, binding);
  isl::schedule_node node =
      band.insert_filter(binding.threads)
          .insert_mark(gpuMark(scop.ctx, MarkKind::Thread))
          .insert_mark(gpuMark(scop.ctx, MarkKind::Shared));
  isl::space space = partial.get_space();
  unsigned members = setDims(space);
  space = dropSetDims(space, kernel.mapping->numMapped,
                      members - kernel.mapping->numMapped);
  mappingOf(kernel).tiles = isl::multi_union_pw_aff(space, binding.tiles);
  isl::multi_union_pw_aff tileSchedule(
      space, blockBand(kernel, binding.tiles, binding.relative));
  node = node.insert_partial_schedule(tileSchedule);
  node = node.as<isl::schedule_node_band>().set_permutable(1);
  for (unsigned d = 0; d < kernel.mapping->numMapped; ++d)
    node = setCoincident(node, d, true);
  isl::set context(scop.ctx, "[" + ids + "] -> { : " + bounds + " }");
  kernel.context = coalesced(kernel.context.intersect(context));
  if (kernel.reduction)
    kernel.reduction->owners = binding.owners;
  // The bounds of the ids would be a context node above the filter; isl
  // 0.25's AST generator fails on context nodes ("spaces don't match"),
  // so they are in the kernel's AST context instead.
  return node.insert_filter(binding.blocks);
}

void Mapper::bindSteppedMember(const Kernel &kernel, unsigned d,
                               const isl::union_pw_aff &s,
                               const isl::multi_union_pw_aff &host,
                               const std::string &b, const std::string &t,
                               BandBinding &binding) const {
  long size = kernel.mapping->blockSize[d];
  // A tiled wavefront: block b runs tile first + b of the member,
  // thread t its point T (first + b) + t, and the band's tile is
  // first + b too (the member's floor on the block's instances), all
  // without floors: isl's code for the kernel costs far more with
  // the floors of the tile wavefront (see tileWavefrontBounds).
  isl::union_pw_aff first =
      applyToSchedule(host,
                      liftToSpace(kernel.mapping->offsets[d], host.get_space()))
          .add(paramOnDomain(kernel.instances, b));
  isl::union_pw_aff within = s.sub(scaled(first, size));
  binding.blocks =
      binding.blocks.intersect(nonnegative(within))
          .intersect(nonnegative(
              constantOnDomain(kernel.instances, size - 1).sub(within)));
  binding.threads = binding.threads.intersect(
      zeroSet(within.sub(paramOnDomain(kernel.instances, t))));
  binding.relative.push_back(paramOnDomain(kernel.instances, b));
  binding.tiles = binding.tiles.add(first);
  binding.stepTiles.push_back(first);
}

void Mapper::bindMember(const Kernel &kernel, unsigned d,
                        const isl::union_pw_aff &s,
                        const isl::multi_union_pw_aff &host,
                        const std::string &b, const std::string &t,
                        BandBinding &binding) const {
  long size = kernel.mapping->blockSize[d];
  // A thread runs the points t, t + T, ... of a tile of
  // `registerTile` blocks (s mod T = t), or with blocked points the
  // points tR, ..., tR + R - 1 (floor(s / R) mod T = t).
  isl::union_pw_aff tile = floorDiv(s, kernel.mapping->tileSize(d));
  isl::union_pw_aff run =
      kernel.blockedPoints ? floorDiv(s, kernel.mapping->registerTile[d]) : s;
  isl::union_set thread = zeroSet(run.sub(scaled(floorDiv(run, size), size))
                                      .sub(paramOnDomain(kernel.instances, t)));
  binding.threads = binding.threads.intersect(thread);
  if (kernel.isLane(d)) {
    // The lanes deal the member's iterations round-robin: one block.
    isl::union_pw_aff zero = constantOnDomain(kernel.instances, 0);
    binding.relative.push_back(zero);
    binding.blocks = binding.blocks.intersect(
        zeroSet(zero.sub(paramOnDomain(kernel.instances, b))));
    binding.tiles = binding.tiles.add(zero);
    binding.owners = binding.owners.intersect(
        zeroSet(zero.sub(paramOnDomain(kernel.instances, b))));
    return;
  }
  isl::pw_aff offset = kernel.mapping->offsets[d];
  if (kernel.mapping->globalOffset[d])
    offset = liftToSpace(offset, host.get_space());
  isl::union_pw_aff first = applyToSchedule(host, offset);
  binding.relative.push_back(tile.sub(first));
  isl::union_set block =
      zeroSet(binding.relative.back().sub(paramOnDomain(kernel.instances, b)));
  binding.blocks = binding.blocks.intersect(block);
  binding.owners = binding.owners.intersect(block).intersect(thread);
  binding.tiles = binding.tiles.add(tile);
}

void Mapper::bindSteps(const Kernel &kernel, BandBinding &binding) const {
  // The block's steps: w in [Tw W, Tw W + Tw - 1] with W the tile
  // wavefront's host loop less the block's tiles.
  isl::union_pw_aff w = kernel.steps.member.intersect_domain(kernel.instances);
  isl::union_pw_aff tileW =
      paramOnDomain(kernel.instances, program.names.hostIterator + "0")
          .sub(binding.stepTiles[0])
          .sub(binding.stepTiles[1]);
  isl::union_pw_aff within = w.sub(scaled(tileW, kernel.steps.size));
  binding.blocks =
      binding.blocks.intersect(nonnegative(within))
          .intersect(nonnegative(
              constantOnDomain(kernel.instances, kernel.steps.size - 1)
                  .sub(within)));
}

} // namespace polycuda::polyhedral::mapping

namespace polycuda::polyhedral {

using mapping::Mapper;

namespace {

/// The statements of scalar code that can stay on the host (see
/// GpuMapping.h) and the scalars they write; empty when there are none or
/// when every statement would.
std::pair<std::set<unsigned>, std::set<unsigned>>
hostScalarCode(const GpuProgram &program) {
  const Scop &scop = *program.scop;
  std::set<unsigned> code, scalars;
  if (!program.deps.complete)
    return {};
  auto scalarOnly = [&](const Statement &stmt) {
    if (setDims(stmt.domain.get_space()) != 0)
      return false;
    for (const Access &access : stmt.accesses) {
      const Array &array = scop.arrays[access.array];
      if (array.rank() != 0 || array.isLocal)
        return false;
    }
    return true;
  };
  // The scalars that the statements `code` write.
  auto writtenBy = [&](const std::set<unsigned> &code) {
    std::set<unsigned> written;
    for (unsigned s : code)
      for (const Access &access : scop.statements[s].accesses)
        if (access.kind != Access::Kind::Read)
          written.insert(access.array);
    return written;
  };
  for (unsigned s = 0; s < scop.statements.size(); ++s)
    if (scalarOnly(scop.statements[s]))
      code.insert(s);
  isl::union_map deps = program.deps.all();
  for (bool changed = true; changed && !code.empty();) {
    changed = false;
    isl::union_set inside = isl::union_set::empty(scop.ctx);
    for (unsigned s : code)
      inside = inside.unite(isl::union_set(scop.statements[s].domain));
    // Written on the host only: no other statement writes them.
    scalars = writtenBy(code);
    std::set<unsigned> drop;
    for (unsigned s = 0; s < scop.statements.size(); ++s) {
      if (code.count(s))
        continue;
      for (const Access &access : scop.statements[s].accesses)
        if (access.kind != Access::Kind::Read && scalars.count(access.array))
          for (unsigned h : code)
            for (const Access &other : scop.statements[h].accesses)
              if (other.array == access.array)
                drop.insert(h);
    }
    // Nothing outside precedes them in a dependence.
    isl::union_set sinks =
        deps.subtract_domain(inside).intersect_range(inside).range();
    for (unsigned s : code)
      if (!sinks.intersect(isl::union_set(scop.statements[s].domain))
               .is_empty())
        drop.insert(s);
    for (unsigned s : drop)
      code.erase(s);
    changed = !drop.empty();
  }
  if (code.size() == scop.statements.size())
    code.clear(); // no kernel at all: the scop stays as it is
  return {code, writtenBy(code)};
}

} // namespace

void mapToGpu(GpuProgram &program, const GpuMappingOptions &options) {
  POLYCUDA_CHECK(program.scop) << "mapToGpu needs a scop";
  const Scop &scop = *program.scop;
  Mapper mapper(program, options);
  isl::schedule_node root = program.schedule.get_root();
  if (root.n_children() == 0)
    return;
  // One-thread kernels that follow each other become one; the host's
  // scalar code is then split off the whole tree (below).
  root = mapper.splitReductionInits(root);
  root = mapper.groupOneThreadKernels(root);
  auto [code, scalars] =
      options.hostScalars ? hostScalarCode(program)
                          : std::pair<std::set<unsigned>, std::set<unsigned>>();
  if (code.empty()) {
    isl::schedule_node node = mapper.visit(root.child(0));
    program.schedule = node.get_schedule();
    return;
  }
  // The host's statements first (nothing outside them precedes them in a
  // dependence), below a mark that keeps them out of every kernel.
  isl::union_set filter = isl::union_set::empty(scop.ctx);
  for (unsigned s : code) {
    filter = filter.unite(isl::union_set(scop.statements[s].domain));
    program.hostStatements.push_back(scop.statements[s].name);
  }
  program.hostScalars.assign(scalars.begin(), scalars.end());
  // order_before puts a sequence of the two parts in the node's place.
  isl::schedule_node sequence =
      root.child(0).order_before(filter).get_schedule().get_root().child(0);
  POLYCUDA_CHECK(sequence.isa<isl::schedule_node_sequence>() &&
                 sequence.n_children() == 2)
      << "order_before gave no sequence";
  sequence = sequence.child(0)
                 .child(0)
                 .insert_mark(gpuMark(scop.ctx, MarkKind::Host))
                 .parent()
                 .parent();
  isl::schedule_node rest = mapper.visit(sequence.child(1));
  program.schedule = rest.get_schedule();
  // Kernels read those scalars as arguments, not from device memory.
  for (Kernel &kernel : program.kernels)
    kernel.arrays.erase(
        std::remove_if(kernel.arrays.begin(), kernel.arrays.end(),
                       [&](unsigned a) { return program.isHostScalar(a); }),
        kernel.arrays.end());
}

} // namespace polycuda::polyhedral
