//===- GpuMapping.cpp - Kernels, blocks and threads from a schedule -------===//
//
// Stage 3: schedule tree -> GpuProgram kernels (see GpuMapping.h).
//
//   domain
//     sequential band (host loop)         <- stays on the host
//       mark "kernel0"
//         band (coincident members first) <- mapped: s = T * (b + offset) + t
//           ...                           <- loops inside the kernel
//
// A mapped member s with block size T is split into a block index b and a
// thread index t; `offset` = floor(min s / T) over the kernel's instances for
// the current host iteration, so the grid covers the bounding box of the
// tiles and starts at block 0 whatever the sign of s.
//
//===----------------------------------------------------------------------===//
#include "GpuMapping.h"

#include "Check.h"
#include "IslExtras.h"

#include <isl/schedule_node.h>

#include <algorithm>
#include <set>

namespace polycuda::polyhedral {

namespace {

bool hasCoincidentMember(const isl::schedule_node &node) {
  if (isl_schedule_node_get_type(node.get()) == isl_schedule_node_band) {
    unsigned n = isl_schedule_node_band_n_member(node.get());
    for (unsigned i = 0; i < n; ++i)
      if (isCoincident(node, i))
        return true;
  }
  int n = isl_schedule_node_n_children(node.get());
  for (int i = 0; i < n; ++i)
    if (hasCoincidentMember(node.child(i)))
      return true;
  return false;
}

unsigned leadingCoincident(const isl::schedule_node &band) {
  unsigned n = isl_schedule_node_band_n_member(band.get());
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

/// The iterator of `stmt` that `member` (restricted to `stmt`) equals, or -1.
int iteratorOf(const Statement &stmt, const isl::union_map &member) {
  isl::union_map mine = member.intersect_domain(isl::union_set(stmt.domain));
  if (mine.is_empty())
    return -1;
  for (size_t k = 0; k < stmt.iterators.size(); ++k) {
    isl::union_map iterator(
        variableOn(stmt.domain.get_space(), k).as_map().intersect_domain(
            stmt.domain));
    if (mine.is_equal(iterator))
      return k;
  }
  return -1;
}

/// Does `access` walk its array's last dimension with unit stride, and no
/// other dimension, as iterator `k` advances?
bool isUnitStride(const Access &access, unsigned k) {
  if (!access.isAffine())
    return false;
  isl::pw_multi_aff function = isl::manage(
      isl_pw_multi_aff_from_map(access.relation.copy()));
  unsigned rank = access.relation.range_tuple_dim();
  if (rank == 0)
    return false;
  bool unit = true;
  for (unsigned d = 0; d < rank && unit; ++d) {
    isl::pw_aff index = function.at(d);
    index.foreach_piece([&](isl::set, isl::multi_aff piece) {
      isl::aff aff = piece.at(0);
      isl_val *v = isl_aff_get_coefficient_val(aff.get(), isl_dim_in, k);
      bool expected = d + 1 == rank ? (isl_val_is_one(v) || isl_val_is_negone(v))
                                    : isl_val_is_zero(v);
      unit &= expected;
      isl_val_free(v);
    });
  }
  return unit;
}

/// Hardware dimension (0 = x) of each mapped member: x goes to the member
/// along which most references are coalesced (consecutive threads touch
/// consecutive elements, Baskaran et al. 2008); the others follow from the
/// innermost outwards. Ties keep the innermost member on x.
std::vector<unsigned> hardwareOrder(const Scop &scop,
                                    const std::vector<isl::union_map> &members) {
  unsigned mapped = members.size();
  std::vector<int> score(mapped, 0);
  for (unsigned d = 0; d < mapped; ++d)
    for (const Statement &stmt : scop.statements) {
      int k = iteratorOf(stmt, members[d]);
      if (k < 0)
        continue;
      for (const Access &access : stmt.accesses)
        score[d] += isUnitStride(access, k);
    }
  std::vector<unsigned> order; // members, x first
  for (unsigned d = mapped; d-- > 0;)
    order.push_back(d);
  std::stable_sort(order.begin(), order.end(),
                   [&](unsigned a, unsigned b) { return score[a] > score[b]; });
  // Only x is chosen by coalescing; y and z keep innermost-first order.
  std::vector<unsigned> hardware(mapped);
  unsigned next = 1;
  for (unsigned d = mapped; d-- > 0;)
    hardware[d] = d == order.front() ? 0 : next++;
  return hardware;
}

class Mapper {
public:
  Mapper(GpuProgram &program, const GpuMappingOptions &options)
      : program(program), options(options), scop(*program.scop) {}

  isl::schedule_node visit(isl::schedule_node node) {
    switch (isl_schedule_node_get_type(node.get())) {
    case isl_schedule_node_leaf:
      return markKernel(node, 0);
    case isl_schedule_node_band: {
      if (!hasCoincidentMember(node))
        return markKernel(node, 0);
      unsigned parallel = leadingCoincident(node);
      if (parallel > 0)
        return markKernel(node, std::min(parallel, 3u));
      // The outer member carries a dependence: it becomes a host loop.
      if (isl_schedule_node_band_n_member(node.get()) > 1)
        node = isl::manage(isl_schedule_node_band_split(node.release(), 1));
      return visit(node.child(0)).parent();
    }
    case isl_schedule_node_sequence:
    case isl_schedule_node_set: {
      if (!hasCoincidentMember(node))
        return markKernel(node, 0);
      int n = isl_schedule_node_n_children(node.get());
      for (int i = 0; i < n; ++i)
        node = visit(node.child(i)).parent();
      return node;
    }
    default:
      if (isl_schedule_node_n_children(node.get()) == 0)
        return node;
      return visit(node.child(0)).parent();
    }
  }

private:
  GpuProgram &program;
  const GpuMappingOptions &options;
  const Scop &scop;

  std::vector<unsigned> sizesFor(unsigned id, unsigned mapped) const {
    auto it = options.blockSizes.find(id);
    std::vector<unsigned> sizes;
    if (it != options.blockSizes.end())
      sizes = it->second;
    else if (mapped == 1)
      sizes = options.default1D;
    else if (mapped == 2)
      sizes = options.default2D;
    else
      sizes = options.default3D;
    sizes.resize(mapped, 1);
    for (unsigned &size : sizes)
      size = std::max(size, 1u);
    return sizes;
  }

  isl::schedule_node markKernel(isl::schedule_node node, unsigned mapped) {
    isl::union_set instances =
        isl::manage(isl_schedule_node_get_domain(node.get()));
    if (instances.is_empty())
      return node;
    Kernel &kernel = program.kernels.emplace_back();
    kernel.id = program.kernels.size() - 1;
    kernel.numMapped = mapped;
    node = node.insert_mark("kernel" + std::to_string(kernel.id));
    isl::schedule_node body = node.child(0);

    isl::union_map prefix =
        node.get_prefix_schedule_union_map().intersect_domain(instances);
    kernel.hostDepth = 0;
    for (const isl::map &map : mapsOf(prefix))
      kernel.hostDepth = map.range_tuple_dim();
    std::vector<std::string> hostNames =
        numberedNames(program.names.hostIterator, kernel.hostDepth);

    // Instances with the host iterators as parameters.
    isl::union_set domain = isl::union_set::empty(scop.ctx);
    for (const isl::map &map : mapsOf(prefix))
      domain = domain.unite(isl::union_set(outputsToParams(map, hostNames).domain()));
    kernel.domain = domain;
    kernel.instances = instances;
    kernel.hostSchedule = prefix;

    std::vector<isl::union_map> members;
    if (mapped > 0) {
      isl::multi_union_pw_aff partial =
          body.as<isl::schedule_node_band>().get_partial_schedule();
      for (unsigned d = 0; d < mapped; ++d)
        members.push_back(
            isl::union_map::from(isl::multi_union_pw_aff(partial.at(d)))
                .intersect_domain(instances));
    }
    std::vector<unsigned> sizes = sizesFor(kernel.id, mapped);
    kernel.blockSize.resize(mapped);
    kernel.hardwareDim = hardwareOrder(scop, members);
    for (unsigned d = 0; d < mapped; ++d)
      kernel.blockSize[d] = sizes[kernel.hardwareDim[d]];

    isl::union_map schedule = subtreeSchedule(body).intersect_domain(instances);
    kernel.localSchedule = schedule;
    isl::set context = scop.context.intersect(
        isl::manage(isl_union_set_params(domain.copy())));
    if (mapped > 0) {
      std::vector<isl::pw_aff> offsets;
      for (unsigned d = 0; d < mapped; ++d) {
        isl::union_map member = members[d];
        kernel.memberSchedules.push_back(member);
        isl::map range =
            prefix.reverse().apply_range(member).as_map();
        isl::pw_aff lowest = range.lexmin_pw_multi_aff().at(0);
        isl::val size(scop.ctx, kernel.blockSize[d]);
        isl::pw_aff offset = lowest.scale_down(size).floor();
        // A piecewise first tile (skewed wavefronts) makes the kernel's AST
        // expensive to build and its guards long; the first tile over all
        // host iterations is then used instead (some blocks idle).
        bool global = isl_pw_aff_n_piece(offset.get()) > 1;
        kernel.globalOffset.push_back(global);
        if (global) {
          isl::pw_aff first = range.range().lexmin_pw_multi_aff().at(0);
          offset = totalOn(first.scale_down(size).floor(), scop.context);
          kernel.offsets.push_back(offset);
          offsets.push_back(offset);
        } else {
          kernel.offsets.push_back(offset);
          offsets.push_back(inputsToParams(offset, hostNames));
        }
      }
      isl::union_map pinned = isl::union_map::empty(scop.ctx);
      for (isl::map map : mapsOf(schedule)) {
        isl::space space = map.get_space().range();
        isl::set constraint = isl::set::universe(space);
        for (unsigned d = 0; d < mapped; ++d) {
          std::string b = program.names.blockId + std::to_string(d);
          std::string t = program.names.threadId + std::to_string(d);
          isl::pw_aff s = variableOn(space, d);
          isl::val size(scop.ctx, kernel.blockSize[d]);
          isl::pw_aff start = paramOn(space, b)
                                  .add(liftToSpace(offsets[d], space))
                                  .scale(size);
          constraint = constraint.intersect(
              s.eq_set(start.add(paramOn(space, t))));
          isl::pw_aff tp = paramOn(space, t);
          isl::pw_aff bp = paramOn(space, b);
          isl::set bounds =
              tp.ge_set(constantOn(space, 0))
                  .intersect(tp.lt_set(constantOn(space, kernel.blockSize[d])))
                  .intersect(bp.ge_set(constantOn(space, 0)));
          context = context.intersect(bounds.params());
        }
        pinned = pinned.unite(isl::union_map(map.intersect_range(constraint)));
      }
      schedule = pinned;
    }
    kernel.schedule = coalesced(schedule.intersect_domain(domain));
    kernel.context = coalesced(context);

    std::set<unsigned> arrays;
    for (const isl::set &set : setsOf(instances)) {
      std::string name = isl_set_get_tuple_name(set.get());
      const Statement *stmt = scop.findStatement(name);
      POLYCUDA_CHECK(stmt) << "unknown statement " << name;
      kernel.statements.push_back(name);
      for (const Access &access : stmt->accesses)
        arrays.insert(access.array);
    }
    kernel.arrays.assign(arrays.begin(), arrays.end());
    return node;
  }
};

} // namespace

void mapToGpu(GpuProgram &program, const GpuMappingOptions &options) {
  POLYCUDA_CHECK(program.scop) << "mapToGpu needs a scop";
  Mapper mapper(program, options);
  isl::schedule_node root = program.schedule.get_root();
  if (isl_schedule_node_n_children(root.get()) == 0)
    return;
  isl::schedule_node node = mapper.visit(root.child(0));
  program.schedule = node.get_schedule();
}

} // namespace polycuda::polyhedral
