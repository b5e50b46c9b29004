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
#include "GpuMapping.h"

#include "BlockSizes.h"
#include "Check.h"
#include "Explain.h"
#include "IslExtras.h"
#include "Isolated.h"
#include "MappingPolicy.h"
#include "Reductions.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace polycuda::polyhedral {

namespace {

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

/// The arrays that `refs` write.
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



/// Whether the values of a kernel's two mapped members, for each iteration
/// of its host loops, form a rectangle: the product of the values each
/// takes (gemm's `i`, `j`; not syrk's triangle `j <= i`). `point` maps the
/// kernel's instances to their host iterations and the two members.
bool mappedSpaceIsBox(const Scop &scop, const Kernel &kernel,
                      const isl::union_map &point) {
  std::vector<isl::set> sets = setsOf(
      kernel.instances.apply(point).intersect_params(scop.context));
  if (sets.size() != 1)
    return false;
  isl::set values = sets[0];
  unsigned n = values.tuple_dim();
  isl::set alongFirst = isl::manage(
      isl_set_eliminate(values.copy(), isl_dim_set, n - 1, 1));
  isl::set alongSecond = isl::manage(
      isl_set_eliminate(values.copy(), isl_dim_set, n - 2, 1));
  return alongFirst.intersect(alongSecond).is_subset(values);
}

class Mapper {
public:
  Mapper(GpuProgram &program, const GpuMappingOptions &options)
      : program(program), options(options), scop(*program.scop) {}

  isl::schedule_node visit(isl::schedule_node node) {
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
    if (node.isa<isl::schedule_node_mark>() &&
        markId(node).name() == kStepsMark)
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

private:
  GpuProgram &program;
  const GpuMappingOptions &options;
  const Scop &scop;
  /// Per reduction statement, the statements splitReductionInits ordered
  /// before it.
  std::map<std::string, std::string> initsSplitOff;

  /// trmm's band [j, i, k]: one parallel member, then a sequential one,
  /// then the loop of a reduction that every statement updates (B[i][j] +=
  /// A[k][i] * B[k][j]), permutable. Mapped as it is, each thread runs
  /// both loops, and the parallel member gives too few blocks for the SMs
  /// (trmm: 38 warps). The sequential member then goes to the host, [i]
  /// and below it [j, k], so that the reduction's lanes share k in each
  /// launch (or phase of a persistent kernel). Legal: any order of a
  /// permutable band's members is, and the reduction is checked as
  /// findReduction checks it. Returns the host band, or nothing.
  std::optional<isl::schedule_node>
  hoistAroundReduction(const isl::schedule_node &node,
                       unsigned parallel) const {
    isl::schedule_node_band band = node.as<isl::schedule_node_band>();
    if (!options.reductions || parallel != 1 || band.n_member() != 3 ||
        !band.permutable() || isCoincident(node, 2) ||
        !onlyStatementsBelow(node.child(0)))
      return std::nullopt;
    isl::union_set instances = domainOf(node);
    std::optional<std::vector<Update>> updates = reductionUpdates(instances);
    if (!updates)
      return std::nullopt;
    isl::multi_union_pw_aff partial = band.get_partial_schedule();
    auto member = [&](unsigned d) {
      return memberMap(partial.at(d), instances);
    };
    isl::union_map outer =
        node.get_prefix_schedule_union_map().intersect_domain(instances);
    // Few blocks of a warp along the parallel member.
    std::optional<long> bound = boundExtent(
        instancesInBounds(scop, instances), outer, member(0));
    if (!bound || (*bound + options.device.warpSize - 1) /
                          options.device.warpSize >=
                      options.device.multiprocessors)
      return std::nullopt;
    isl::union_map host = flatRangeProduct(outer, member(1));
    if (!reductionsAreLegal(*updates, instances, host,
                            flatRangeProduct(host, member(0))))
      return std::nullopt;
    isl::union_pw_aff_list order(scop.ctx, 3);
    order = order.add(partial.at(1)).add(partial.at(0)).add(partial.at(2));
    isl::schedule_node at = deleteNode(node).insert_partial_schedule(
        isl::multi_union_pw_aff(partial.get_space(), order));
    at = at.as<isl::schedule_node_band>().set_permutable(1);
    at = setCoincident(at, 0, false);
    at = setCoincident(at, 1, true);
    at = setCoincident(at, 2, false);
    return at.as<isl::schedule_node_band>().split(1);
  }

  /// Whether the subtree at `node` (a child of a sequence) would be a
  /// one-thread kernel of its own.
  bool oneThread(const isl::schedule_node &node) const {
    return !hasCoincidentMember(node) && !hasLongReduction(node) &&
           !mayBeReduction(node);
  }

  /// Whether the subtree at `node` (below its filter) could be a kernel
  /// whose lanes share a reduction (findReduction with no parallel
  /// member): one band of one member over statements only, every
  /// statement a reduction's update. Such a kernel is not grouped with
  /// others, which would lose its lanes (gramschmidt's norm).
  bool mayBeReduction(isl::schedule_node node) const {
    if (!options.reductions)
      return false;
    if (node.isa<isl::schedule_node_filter>())
      node = node.child(0);
    if (!node.isa<isl::schedule_node_band>() ||
        node.as<isl::schedule_node_band>().n_member() != 1 ||
        !onlyStatementsBelow(node.child(0)))
      return false;
    return reductionUpdates(domainOf(node)).has_value();
  }

  /// A sequence below `node` with a run of two or more consecutive
  /// children that would each be a one-thread kernel, not all of them; a
  /// null node when there is none. Subtrees that are one kernel already,
  /// and the host's scalar code, are not searched.
  isl::schedule_node runToGroup(const isl::schedule_node &node) const {
    if (node.isa<isl::schedule_node_mark>() &&
        markId(node).name() == kHostMark)
      return isl::schedule_node();
    if (!node.isa<isl::schedule_node_domain>() &&
        !node.isa<isl::schedule_node_filter>() && oneThread(node))
      return isl::schedule_node();
    if (node.isa<isl::schedule_node_sequence>()) {
      int n = node.n_children();
      for (int a = 0; a + 1 < n; ++a)
        if (oneThread(node.child(a)) && oneThread(node.child(a + 1)))
          return node;
    }
    for (int i = 0, n = node.n_children(); i < n; ++i) {
      isl::schedule_node found = runToGroup(node.child(i));
      if (!found.is_null())
        return found;
    }
    return isl::schedule_node();
  }

public:
  /// The tree at `root` with every run of two or more consecutive children
  /// of a sequence that would each be a one-thread kernel grouped below
  /// one filter (a sequence of its own, which becomes one kernel: one
  /// launch instead of several). isl's order_before and order_after split
  /// the sequence at the run's ends; the statements keep their order, so
  /// it is legal.
  isl::schedule_node groupOneThreadKernels(isl::schedule_node root) {
    for (isl::schedule_node node = runToGroup(root); !node.is_null();
         node = runToGroup(root)) {
      int n = node.n_children();
      int a = 0;
      while (!(oneThread(node.child(a)) && oneThread(node.child(a + 1))))
        ++a;
      int b = a + 1;
      while (b + 1 < n && oneThread(node.child(b + 1)))
        ++b;
      auto filterOf = [&](int first, int last) {
        isl::union_set filter = isl::union_set::empty(scop.ctx);
        for (int i = first; i <= last; ++i)
          filter = filter.unite(
              node.child(i).as<isl::schedule_node_filter>().get_filter());
        return filter;
      };
      isl::union_set run = filterOf(a, b);
      isl::union_set after = b + 1 < n ? filterOf(b + 1, n - 1)
                                       : isl::union_set::empty(scop.ctx);
      // [before | run + after], then [run | after] (isl splices the new
      // sequences into their parent sequence; the run stays one child).
      if (a > 0)
        node = node.order_after(run.unite(after));
      root = node.root();
      if (b + 1 < n) {
        isl::schedule_node sequence = findSequenceOf(root, run);
        if (sequence.is_null())
          break;
        root = sequence.order_before(run).root();
      }
    }
    return root;
  }

  /// The tree at `root` with the statements that set a reduction's
  /// elements before it ordered before the reduction, where isl fused them
  /// into the reduction's band (mv's `y[i] = 0` with `y[i] += A[i][j] *
  /// x[j]`, band [i; 0 | j]): they become a kernel of their own, and the
  /// reduction a kernel whose lanes share its loop (findReduction), instead
  /// of one thread per element running the whole loop. isl's order_before
  /// splits the band; legal because no dependence within one iteration of
  /// the loops around the band goes from the reduction to them.
  isl::schedule_node splitReductionInits(isl::schedule_node root) {
    isl::union_set inits;
    for (isl::schedule_node node = bandWithInits(root, inits);
         !node.is_null(); node = bandWithInits(root, inits)) {
      std::string names;
      for (const isl::set &set : setsOf(inits))
        names += (names.empty() ? "" : ", ") + tupleName(set);
      for (const isl::set &set : setsOf(domainOf(node).subtract(inits)))
        initsSplitOff[tupleName(set)] = names;
      root = node.order_before(inits).root();
    }
    return root;
  }

private:
  /// The first band below `node` that splitReductionInits splits, with
  /// its `inits` (initsOf).
  isl::schedule_node bandWithInits(const isl::schedule_node &node,
                                   isl::union_set &inits) const {
    if (node.isa<isl::schedule_node_mark>() &&
        markId(node).name() == kHostMark)
      return isl::schedule_node();
    if (node.isa<isl::schedule_node_band>())
      if (std::optional<isl::union_set> found = initsOf(node)) {
        inits = *found;
        return node;
      }
    for (int i = 0, n = node.n_children(); i < n; ++i) {
      isl::schedule_node found = bandWithInits(node.child(i), inits);
      if (!found.is_null())
        return found;
    }
    return isl::schedule_node();
  }

  /// For a band of at most one parallel member and one more over
  /// statements only, some of them updates of a reduction and the others
  /// writes of the arrays the updates reduce (their initial values): the
  /// others, if no dependence within one iteration of the outer loops
  /// goes from an update to them.
  std::optional<isl::union_set> initsOf(const isl::schedule_node &node) const {
    if (!options.reductions || !program.deps.complete)
      return std::nullopt;
    unsigned members = node.as<isl::schedule_node_band>().n_member();
    if (leadingCoincident(node) + 1 != members || members > 3 ||
        (members < 3 && !onlyStatementsBelow(node.child(0))))
      return std::nullopt;
    isl::union_set instances = domainOf(node);
    isl::union_set updates = isl::union_set::empty(scop.ctx);
    isl::union_set inits = isl::union_set::empty(scop.ctx);
    std::set<unsigned> reduced;
    std::vector<const Statement *> others;
    for (const isl::set &set : setsOf(instances)) {
      const Statement *stmt = scop.findStatement(tupleName(set));
      if (!stmt)
        return std::nullopt;
      std::optional<ReductionForm> form = reductionForm(*stmt);
      if (form && isBounded(stmt->domain)) {
        updates = updates.unite(isl::union_set(set));
        reduced.insert(stmt->accesses[form->write].array);
      } else {
        inits = inits.unite(isl::union_set(set));
        others.push_back(stmt);
      }
    }
    if (updates.is_empty() || inits.is_empty() ||
        (members == 3 && !lanesPayBesideTwoMembers(node, updates)))
      return std::nullopt;
    for (const Statement *stmt : others)
      for (const Access &access : stmt->accesses)
        if (access.kind != Access::Kind::Read && !reduced.count(access.array))
          return std::nullopt;
    isl::union_map prefix =
        node.get_prefix_schedule_union_map().intersect_domain(instances);
    isl::union_map backwards = program.deps.flow.unite(program.deps.anti)
                                   .unite(program.deps.output)
                                   .intersect_domain(updates)
                                   .intersect_range(inits)
                                   .intersect(prefix.apply_range(
                                       prefix.reverse()));
    if (!backwards.is_empty())
      return std::nullopt;
    return inits;
  }

  /// The sequence below `node` whose first two or more children, not all,
  /// are together `run` (splitting it after them keeps the order), or a
  /// null node.
  static isl::schedule_node findSequenceOf(const isl::schedule_node &node,
                                           const isl::union_set &run) {
    if (node.isa<isl::schedule_node_sequence>()) {
      isl::union_set prefix = isl::union_set::empty(run.ctx());
      for (int i = 0, n = node.n_children(); i + 1 < n; ++i) {
        prefix = prefix.unite(
            node.child(i).as<isl::schedule_node_filter>().get_filter());
        if (!prefix.is_subset(run))
          break;
        if (i > 0 && prefix.is_equal(run))
          return node;
      }
    }
    for (int i = 0, n = node.n_children(); i < n; ++i) {
      isl::schedule_node found = findSequenceOf(node.child(i), run);
      if (!found.is_null())
        return found;
    }
    return isl::schedule_node();
  }

  /// The block `--sizes` sets for `kernel` (hardware order, one size per
  /// mapped member), if any.
  std::optional<std::vector<unsigned>> sizesFromOption(const Kernel &kernel,
                                                       unsigned mapped) const {
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

  /// `sizes` with one entry (at least 1) per mapped member.
  static std::vector<unsigned> fitted(std::vector<unsigned> sizes,
                                      unsigned mapped) {
    sizes.resize(mapped, 1);
    for (unsigned &size : sizes)
      size = std::max(size, 1u);
    return sizes;
  }

  /// The default block for `mapped` members, fitted to the bound of the
  /// kernel's parallel extent along each hardware dimension.
  /// `pointsY`: each thread runs that many points of the member on y (a
  /// transposition's rows), so it fits a block to that many times fewer.
  BlockSizing sizeToDevice(const Kernel &kernel, unsigned mapped,
                           std::optional<std::vector<unsigned>> block =
                               std::nullopt,
                           unsigned pointsY = 1) const {
    std::vector<unsigned> sizes = fitted(block           ? *block
                                         : mapped == 1   ? options.default1D
                                         : mapped == 2   ? options.default2D
                                                         : options.default3D,
                                         mapped);
    if (!options.fitDefaults)
      return blockFromOption(sizes);
    isl::union_set inBounds = instancesInBounds(scop, kernel.instances);
    std::vector<std::optional<long>> bounds(mapped);
    for (unsigned d = 0; d < mapped; ++d)
      bounds[kernel.hardwareDim[d]] =
          boundExtent(inBounds, kernel.hostSchedule, kernel.memberSchedules[d]);
    if (mapped > 1 && bounds[1])
      bounds[1] = (*bounds[1] + pointsY - 1) / pointsY;
    return fitBlockToDevice(sizes, bounds, options.device);
  }

  /// A name for a kernel of `statements` that no other kernel has.
  std::string uniqueName(const std::vector<std::string> &statements) {
    std::string base;
    for (const std::string &name : statements)
      base += (base.empty() ? "" : "_") + name;
    std::string name = base;
    for (unsigned n = 2; program.findKernel(name); ++n)
      name = base + "_" + std::to_string(n);
    return name;
  }

  /// The kernel's statements and the arrays they access.
  void recordStatements(Kernel &kernel, const isl::union_set &instances) {
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

  isl::schedule_node markKernel(isl::schedule_node node, unsigned mapped) {
    isl::union_set instances = domainOf(node);
    if (instances.is_empty())
      return node;
    Kernel &kernel = program.kernels.emplace_back();
    kernel.id = program.kernels.size() - 1;
    kernel.numMapped = mapped;
    recordStatements(kernel, instances);
    kernel.name = uniqueName(kernel.statements);
    kernel.mark = isl::id(scop.ctx, kernel.name);

    isl::union_map prefix =
        node.get_prefix_schedule_union_map().intersect_domain(instances);
    kernel.hostDepth = scheduleDepth(node);
    std::vector<std::string> hostNames =
        numberedNames(program.names.hostIterator, kernel.hostDepth);
    // Instances with the host iterators as parameters.
    isl::union_set domain = isl::union_set::empty(scop.ctx);
    for (const isl::map &map : mapsOf(prefix))
      domain = domain.unite(
          isl::union_set(outputsToParams(map, hostNames).domain()));
    kernel.domain = domain;
    kernel.instances = instances;
    kernel.hostSchedule = prefix;
    kernel.localSchedule = subtreeSchedule(node).intersect_domain(instances);
    kernel.context = coalesced(scop.context.intersect(paramsOf(domain)));
    if (std::optional<BlockReduction> reduction =
            findReduction(kernel, node, mapped)) {
      kernel.reduction = std::move(*reduction);
      kernel.numMapped = ++mapped;
    }
    if (mapped > 0)
      node = mapBand(kernel, node);
    return node.insert_mark(kernel.mark);
  }


  /// A host band of one member `w` over a band of two parallel members
  /// [x1, x2] over one statement, where `w` is a wavefront (a combination
  /// of two or more of the statement's loops, seidel-2d's 4t + 2i + j) and
  /// carries every dependence the outer loops do not: the band [w, y1, y2],
  /// with y1 = x1 + b x2 + a1 w and y2 = x2 + c x1 + a2 w skewed until no
  /// dependence distance is negative (the least skew that does), is
  /// permutable, so it tiles. Rewrites `node` to
  ///   band [floor(w/Tw) + floor(y1/T) + floor(y2/T)]   host: tile wavefront
  ///     mark polycuda_steps
  ///       band [w]                                     a tile's steps
  ///         band [y1, y2]                              parallel (coincident)
  /// (tiles in one wavefront of tiles are independent: a dependence
  /// between two tiles has no negative tile distance and a positive one);
  /// returns the host band, or nothing.
  std::optional<isl::schedule_node>
  tileWavefront(const isl::schedule_node &node) const {
    // The wavefront is the scop's outermost loop (the host code of its
    // launches is then one loop over the tile wavefronts, AstGeneration).
    if (!options.tiledWavefronts || !program.deps.complete ||
        node.as<isl::schedule_node_band>().n_member() != 1 ||
        !node.parent().isa<isl::schedule_node_domain>())
      return std::nullopt;
    isl::schedule_node inner = node.child(0);
    if (!inner.isa<isl::schedule_node_band>() ||
        inner.as<isl::schedule_node_band>().n_member() != 2 ||
        !isCoincident(inner, 0) || !isCoincident(inner, 1) ||
        !inner.child(0).isa<isl::schedule_node_leaf>())
      return std::nullopt;
    isl::union_set instances = domainOf(node);
    std::vector<isl::set> sets = setsOf(instances);
    if (sets.size() != 1 || !isBounded(sets[0]))
      return std::nullopt;
    isl::union_pw_aff w =
        node.as<isl::schedule_node_band>().get_partial_schedule().at(0);
    isl::multi_union_pw_aff x =
        inner.as<isl::schedule_node_band>().get_partial_schedule();
    // A wavefront: two or more loops in the one affine piece of w.
    std::vector<isl::pw_aff> pieces = pwAffsOf(w.intersect_domain(instances));
    std::optional<isl::aff> aff =
        pieces.size() == 1 ? onlyPiece(pieces[0]) : std::nullopt;
    std::optional<AffineTerms> terms =
        aff ? affineTerms(*aff) : std::nullopt;
    if (!terms)
      return std::nullopt;
    unsigned loops = 0;
    for (long c : terms->inputs)
      loops += c != 0;
    if (loops < 2)
      return std::nullopt;
    // The distances in [w, x1, x2] of the dependences within one iteration
    // of the outer loops.
    isl::union_map prefix =
        node.get_prefix_schedule_union_map().intersect_domain(instances);
    isl::union_map deps = program.deps.all()
                              .intersect_domain(instances)
                              .intersect_range(instances)
                              .intersect(prefix.apply_range(prefix.reverse()));
    isl::union_map band = flatRangeProduct(
        memberMap(w, instances),
        flatRangeProduct(memberMap(x.at(0), instances),
                         memberMap(x.at(1), instances)));
    isl::set distances(scop.ctx, "{ [d0, d1, d2] : 1 = 0 }");
    if (!deps.is_empty())
      distances =
          deps.apply_domain(band).apply_range(band).deltas().as_set();
    isl::pw_aff d0 = variableOn(distances.get_space(), 0);
    isl::pw_aff d1 = variableOn(distances.get_space(), 1);
    isl::pw_aff d2 = variableOn(distances.get_space(), 2);
    isl::pw_aff zero = constantOn(distances.get_space(), 0);
    if (!distances.intersect(d0.le_set(zero)).is_empty())
      return std::nullopt; // w does not carry every dependence
    auto scale = [&](const isl::pw_aff &v, long k) {
      return v.scale(isl::val(scop.ctx, k));
    };
    // Skews in order of cost: by the other member first (a wider tile
    // wavefront), by w last (w's range is the largest).
    struct Skew {
      long b, c, a1, a2;
    };
    std::optional<Skew> chosen;
    for (long cost = 0; cost <= 6 && !chosen; ++cost)
      for (long a1 = 0; a1 <= 2 && !chosen; ++a1)
        for (long a2 = 0; a2 <= 2 && !chosen; ++a2)
          for (long b = 0; b <= 2 && !chosen; ++b)
            for (long c = 0; c <= 2 && !chosen; ++c) {
              if ((b && c) || b + c + 2 * (a1 + a2) != cost)
                continue;
              isl::pw_aff y1 = d1.add(scale(d2, b)).add(scale(d0, a1));
              isl::pw_aff y2 = d2.add(scale(d1, c)).add(scale(d0, a2));
              if (distances.intersect(y1.lt_set(zero)).is_empty() &&
                  distances.intersect(y2.lt_set(zero)).is_empty())
                chosen = Skew{b, c, a1, a2};
            }
    if (!chosen)
      return std::nullopt;
    isl::union_pw_aff x1 = x.at(0).intersect_domain(instances);
    isl::union_pw_aff x2 = x.at(1).intersect_domain(instances);
    isl::union_pw_aff wi = w.intersect_domain(instances);
    isl::union_pw_aff y1 =
        x1.add(scaled(x2, chosen->b)).add(scaled(wi, chosen->a1));
    isl::union_pw_aff y2 =
        x2.add(scaled(x1, chosen->c)).add(scaled(wi, chosen->a2));
    isl::union_pw_aff s = floorDiv(wi, kWavefrontSteps)
                              .add(floorDiv(y1, kWavefrontTile))
                              .add(floorDiv(y2, kWavefrontTile));
    isl::schedule_node at = deleteNode(deleteNode(node));
    isl::union_pw_aff_list members(scop.ctx, 2);
    members = members.add(y1).add(y2);
    at = at.insert_partial_schedule(
        isl::multi_union_pw_aff(x.get_space(), members));
    at = at.as<isl::schedule_node_band>().set_permutable(1);
    at = setCoincident(setCoincident(at, 0, true), 1, true);
    at = at.insert_partial_schedule(isl::multi_union_pw_aff(wi));
    at = at.insert_mark(isl::id(scop.ctx, kStepsMark));
    return at.insert_partial_schedule(isl::multi_union_pw_aff(s));
  }

  /// The kernel of a tiled wavefront (see tileWavefront) at its mark:
  /// blocks are the tiles of [y1, y2], and each block runs its steps of w
  /// as a loop above its threads. Returns the kernel's mark, in `mark`'s
  /// place.
  isl::schedule_node markSteppedKernel(isl::schedule_node mark) {
    isl::schedule_node steps = mark.child(0), band = steps.child(0);
    isl::union_set instances = domainOf(steps);
    Kernel &kernel = program.kernels.emplace_back();
    kernel.id = program.kernels.size() - 1;
    kernel.numMapped = 2;
    recordStatements(kernel, instances);
    kernel.name = uniqueName(kernel.statements);
    kernel.mark = isl::id(scop.ctx, kernel.name);
    isl::union_map prefix =
        steps.get_prefix_schedule_union_map().intersect_domain(instances);
    kernel.hostDepth = scheduleDepth(steps);
    std::vector<std::string> hostNames =
        numberedNames(program.names.hostIterator, kernel.hostDepth);
    // The host loop as a parameter that does not constrain the instances:
    // the blocks' filter binds it (mapBand), without the floors of the
    // tile wavefront.
    std::string params;
    for (const std::string &name : hostNames)
      params += (params.empty() ? "" : ", ") + name;
    isl::union_set domain =
        instances.intersect_params(isl::set(scop.ctx, "[" + params + "] -> { : }"));
    kernel.domain = domain;
    kernel.steps.launched = isl::union_set::empty(scop.ctx);
    for (const isl::map &map : mapsOf(prefix))
      kernel.steps.launched = kernel.steps.launched.unite(
          isl::union_set(outputsToParams(map, hostNames).domain()));
    kernel.instances = instances;
    kernel.hostSchedule = prefix;
    isl::union_pw_aff w =
        steps.as<isl::schedule_node_band>().get_partial_schedule().at(0);
    // Each thread's points in the order [y1, y2, w]: the mapped members
    // first, as the access analysis reads them.
    kernel.localSchedule =
        flatRangeProduct(subtreeSchedule(band), memberMap(w, instances))
            .intersect_domain(instances);
    kernel.context = coalesced(scop.context.intersect(paramsOf(domain)));
    kernel.steps.size = kWavefrontSteps;
    kernel.steps.block = {kWavefrontTile, kWavefrontTile};
    kernel.steps.wavefront = memberMap(w, instances);
    kernel.steps.member = w;
    const Statement &stmt = *scop.findStatement(kernel.statements[0]);
    kernel.steps.text = memberText(stmt, w);
    isl::multi_union_pw_aff y =
        band.as<isl::schedule_node_band>().get_partial_schedule();
    kernel.steps.members =
        memberText(stmt, y.at(0)) + ", " + memberText(stmt, y.at(1));
    isl::schedule_node node = mapBand(kernel, band);
    // The steps go below the blocks' tiles, above the threads: every
    // thread of a block runs the same steps (the block's, bounded by its
    // tile) and reaches the barrier after each.
    isl::schedule_node stepsBand = node.parent();
    isl::multi_union_pw_aff partial =
        stepsBand.as<isl::schedule_node_band>().get_partial_schedule();
    node = deleteNode(stepsBand);               // the block's filter
    node = node.child(0).child(0);              // the shared mark
    node = node.insert_partial_schedule(partial).parent().parent();
    node = deleteNode(node.parent());           // the steps mark
    return node.insert_mark(kernel.mark);
  }

  /// A tiled wavefront's tiles per launch (Kernel::Steps::firstTile,
  /// lastTile) and its offsets, on the host space of the prefix of `band`
  /// (its host loop and the steps).
  void tileWavefrontBounds(Kernel &kernel, const isl::schedule_node &band) {
    auto range = [&](const isl::union_map &member, long size) {
      isl::set values = member.intersect_domain(kernel.instances).range()
                            .as_set();
      isl::val t(scop.ctx, size);
      return std::make_pair(
          values.lexmin_pw_multi_aff().at(0).scale_down(t).floor(),
          values.lexmax_pw_multi_aff().at(0).scale_down(t).floor());
    };
    auto [w0, w1] = range(kernel.steps.wavefront, kernel.steps.size);
    auto [a0, a1] = range(kernel.memberSchedules[0], kernel.blockSize[0]);
    auto [b0, b1] = range(kernel.memberSchedules[1], kernel.blockSize[1]);
    // Tiles (W, Y1, Y2) with W + Y1 + Y2 = s, each within its range: the
    // last tile of member d at s.
    auto lastTile = [&](const isl::space &space, unsigned d) {
      isl::pw_aff s = variableOn(space, 0);
      auto on = [&](const isl::pw_aff &pa) { return liftToSpace(pa, space); };
      const isl::pw_aff &own1 = d == 0 ? a1 : b1;
      const isl::pw_aff &other0 = d == 0 ? b0 : a0;
      return on(own1).min(s.sub(on(w0)).sub(on(other0)));
    };
    // Blocks count from the first tile over all launches: a block index
    // that depends on the host loop (max(...) pieces of s) makes isl's
    // code for the kernel far too costly. The blocks of a launch before
    // its first tile have no steps and return at once.
    kernel.steps.firstLaunch = coalesced(w0.add(a0).add(b0));
    kernel.steps.lastLaunch = coalesced(w1.add(a1).add(b1));
    // The host loop's values, in the kernel's AST context (the domain does
    // not bind it).
    std::string c = program.names.hostIterator + "0";
    isl::pw_aff launch(scop.ctx, "[" + c + "] -> { [(" + c + ")] }");
    kernel.context = coalesced(kernel.context.intersect(
        kernel.steps.firstLaunch.le_set(launch).intersect(
            launch.le_set(kernel.steps.lastLaunch))));
    isl::space host =
        kernel.hostSchedule.range().as_set().get_space();
    for (unsigned d = 0; d < kernel.numMapped; ++d) {
      const isl::pw_aff &first = d == 0 ? a0 : b0;
      kernel.steps.firstTile.push_back(liftToSpace(first, host));
      kernel.steps.lastTile.push_back(coalesced(lastTile(host, d)));
      kernel.offsets.push_back(totalOn(first, scop.context));
      kernel.globalOffset.push_back(true);
    }
  }

  /// The instances where `upa` is nonnegative.
  static isl::union_set nonnegative(const isl::union_pw_aff &upa) {
    isl::union_set result = isl::union_set::empty(upa.ctx());
    for (const isl::pw_aff &pa : pwAffsOf(upa))
      result = result.unite(isl::union_set(
          pa.ge_set(constantOn(pa.get_space().domain(), 0))));
    return result;
  }

  /// A statement with its reduction form.
  using Update = std::pair<const Statement *, ReductionForm>;

  /// The statements `names` with their reduction forms; nothing when one
  /// has none, or has a loop without an upper bound (it runs on one
  /// thread, as it did).
  std::optional<std::vector<Update>>
  reductionUpdates(const std::vector<std::string> &names) const {
    std::vector<Update> updates;
    for (const std::string &name : names) {
      const Statement *stmt = scop.findStatement(name);
      std::optional<ReductionForm> form = reductionForm(*stmt);
      if (!form || !isBounded(stmt->domain))
        return std::nullopt;
      updates.push_back({stmt, *form});
    }
    return updates;
  }
  /// reductionUpdates of the statements of `instances`.
  std::optional<std::vector<Update>>
  reductionUpdates(const isl::union_set &instances) const {
    std::vector<std::string> names;
    for (const isl::set &set : setsOf(instances))
      names.push_back(tupleName(set));
    return reductionUpdates(names);
  }


  /// Whether the subtree at `node` has no band: statements only (a leaf,
  /// or a sequence or set of filters of such subtrees).
  static bool onlyStatementsBelow(const isl::schedule_node &node) {
    if (node.isa<isl::schedule_node_band>())
      return false;
    for (int i = 0, n = node.n_children(); i < n; ++i)
      if (!onlyStatementsBelow(node.child(i)))
        return false;
    return true;
  }

  /// Whether the subtree at `node` (below a sequential band) has a band of
  /// one statement, one member and nothing inside that would be a
  /// reduction kernel on its own, were the loops around it on the host,
  /// with at least `options.reductionHostMinIterations` iterations per
  /// launch (or no bound at translation time).
  bool hasLongReduction(const isl::schedule_node &node) const {
    if (!options.reductions)
      return false;
    if (node.isa<isl::schedule_node_band>()) {
      isl::union_set instances = domainOf(node);
      std::vector<isl::set> sets = setsOf(instances);
      if (sets.size() != 1 ||
          node.as<isl::schedule_node_band>().n_member() != 1 ||
          !node.child(0).isa<isl::schedule_node_leaf>())
        return false;
      std::optional<std::vector<Update>> updates =
          reductionUpdates({tupleName(sets[0])});
      if (!updates)
        return false;
      isl::union_map host =
          node.get_prefix_schedule_union_map().intersect_domain(instances);
      if (!reductionsAreLegal(*updates, instances, host, host))
        return false;
      isl::union_map member =
          isl::union_map::from(
              node.as<isl::schedule_node_band>().get_partial_schedule())
              .intersect_domain(instances);
      std::optional<long> bound = boundExtent(
          instancesInBounds(scop, instances), host, member);
      return !bound || *bound >= options.reductionHostMinIterations;
    }
    for (int i = 0, n = node.n_children(); i < n; ++i)
      if (hasLongReduction(node.child(i)))
        return true;
    return false;
  }

  /// Whether the band at `node`, two parallel members and a third one
  /// (sumprod's [x, z, w], loop y inside), over the reduction's `updates`,
  /// has few elements for the device and long reductions: the two members
  /// have at most the device's threads / kLanesBesideTwoMembers values per
  /// launch together, and the instances that update one element span at
  /// least kMinIterationsPerElementForLanes points (the box of their
  /// differences, within the arrays' bounds). Otherwise one thread per
  /// element (gemm, 2mm: many elements, register tiles) keeps the loop.
  bool lanesPayBesideTwoMembers(const isl::schedule_node &node,
                                const isl::union_set &updates) const {
    isl::schedule_node_band band = node.as<isl::schedule_node_band>();
    if (band.n_member() != 3 || !isCoincident(node, 0) ||
        !isCoincident(node, 1) || isCoincident(node, 2))
      return false;
    isl::union_set inBounds = instancesInBounds(scop, updates);
    isl::union_map outer =
        node.get_prefix_schedule_union_map().intersect_domain(updates);
    isl::multi_union_pw_aff partial = band.get_partial_schedule();
    long elements = 1;
    isl::union_map prefix = outer;
    for (unsigned d = 0; d < 2; ++d) {
      isl::union_map member = memberMap(partial.at(d), updates);
      std::optional<long> bound = boundExtent(inBounds, outer, member);
      if (!bound)
        return false;
      elements *= *bound;
      prefix = flatRangeProduct(prefix, member);
    }
    long threads = long(options.device.multiprocessors) *
                   options.device.maxThreadsPerMultiprocessor;
    if (elements * kLanesBesideTwoMembers > threads)
      return false;
    // Per statement, the box of the instances that update one element: its
    // widths bound how many there are.
    long perElement = 0;
    for (const isl::map &piece : mapsOf(prefix.intersect_domain(inBounds))) {
      std::optional<std::vector<long>> widths =
          rangeWidthsPerKey(piece.reverse());
      if (!widths)
        return false;
      long points = 1;
      for (long width : *widths)
        points = std::min(
            points * std::min(width, kMinIterationsPerElementForLanes),
            kMinIterationsPerElementForLanes);
      perElement = std::max(perElement, points);
    }
    return perElement >= kMinIterationsPerElementForLanes;
  }

  /// A reduction whose iterations the threads of a block can share: every
  /// statement of the kernel updates the same element with the same
  /// operation (one statement, or nussinov's maxima), its band has
  /// `mapped` parallel members and one more, the reduction's loop: at
  /// most one parallel member with no loop inside the band, or two with
  /// few elements and long reductions (lanesPayBesideTwoMembers)
  /// (Reductions.h).
  std::optional<BlockReduction> findReduction(const Kernel &kernel,
                                              const isl::schedule_node &node,
                                              unsigned mapped) const {
    if (!options.reductions || mapped > 2 ||
        !node.isa<isl::schedule_node_band>() ||
        node.as<isl::schedule_node_band>().n_member() != mapped + 1)
      return std::nullopt;
    if (mapped == 2 ? !lanesPayBesideTwoMembers(node, kernel.instances)
                    : !onlyStatementsBelow(node.child(0)))
      return std::nullopt;
    // Every statement updates the reduced element (Reductions.h).
    std::optional<std::vector<Update>> found =
        reductionUpdates(kernel.statements);
    if (!found)
      return std::nullopt;
    const std::vector<Update> &updates = *found;
    isl::multi_union_pw_aff partial =
        node.as<isl::schedule_node_band>().get_partial_schedule();
    isl::union_map prefix = kernel.hostSchedule;
    for (unsigned d = 0; d < mapped; ++d)
      prefix = flatRangeProduct(
          prefix, memberMap(partial.at(d), kernel.instances));
    if (!reductionsAreLegal(updates, kernel.instances, kernel.hostSchedule,
                            prefix))
      return std::nullopt;
    BlockReduction reduction;
    reduction.owners = kernel.instances; // set by mapBand (never null:
                                         // isl objects copy only then)
    const ReductionForm &first = updates.front().second;
    reduction.array = updates.front().first->accesses[first.write].array;
    reduction.op = first.op;
    reduction.member = mapped;
    bool others = false;
    for (const auto &[stmt, form] : updates) {
      unsigned index = stmt - scop.statements.data();
      reduction.statements.push_back(index);
      for (unsigned access : form.references)
        reduction.references.push_back({index, access});
      others |= !form.others.empty();
      // The loop: the first iterator that instances with one prefix
      // differ in, in a statement that has several.
      if (!reduction.loop.empty())
        continue;
      isl::map byPrefix = pieceOf(prefix, stmt->name);
      isl::set deltas = byPrefix.apply_range(byPrefix.reverse()).deltas();
      for (unsigned d = 0; d < stmt->sourceIterators.size(); ++d)
        if (!fixedValue(deltas, d)) {
          reduction.loop = stmt->sourceIterators[d];
          break;
        }
    }
    const std::string &array = scop.arrays[reduction.array].name;
    reduction.variable = "polycuda_" + array + "_red";
    reduction.buffer = "polycuda_" + array + "_red_shared";
    std::string element = scop.arrays[reduction.array].rank() ? "element"
                                                              : "scalar";
    reduction.reason =
        std::string("every iteration of loop ") + reduction.loop +
        " updates the same " + element + " of " + array + " with " +
        reductionOpName(first.op) +
        (updates.size() > 1
             ? " in each of its " + std::to_string(updates.size()) +
                   " statements"
             : std::string()) +
        (!others
             ? std::string(", whose other operand does not read ") + array
             : ", whose other operand reads no element of " + array +
                   " that the kernel writes") +
        ": the threads of a block share the loop's iterations and combine "
        "their partial results (reordering them; --reductions=off keeps "
        "the sequential order)";
    for (const std::string &name : kernel.statements) {
      auto split = initsSplitOff.find(name);
      if (split == initsSplitOff.end())
        continue;
      const char *s =
          split->second.find(',') == std::string::npos ? "s" : "";
      reduction.reason +=
          "; " + split->second + ", which set" + s +
          " its elements first in the same band, run" + s +
          " before it in a kernel of its own (no dependence within an "
          "iteration of the loops around the band goes back from the "
          "reduction to it)";
    }
    return reduction;
  }

  /// A read of the reduction of `kernel` (beside two parallel members)
  /// whose element does not depend on the reduction's loop, and of which
  /// one lane reads several elements for one iteration of it (in the loops
  /// inside the band): sumprod's f[x][y][z], the same for every w, several
  /// along y. Jammed (BlockReduction::jam), the lane's iterations of the
  /// loop share each such element. Its text, or nothing.
  std::optional<std::string> readSharedAlongLanes(const Kernel &kernel) const {
    const BlockReduction &reduction = *kernel.reduction;
    isl::union_map thread = kernel.hostSchedule;
    for (const isl::union_map &member : kernel.memberSchedules)
      thread = flatRangeProduct(thread, member);
    for (unsigned index : reduction.statements) {
      const Statement &stmt = scop.statements[index];
      auto loop = std::find(stmt.sourceIterators.begin(),
                            stmt.sourceIterators.end(), reduction.loop);
      if (loop == stmt.sourceIterators.end())
        continue;
      isl::set instances =
          kernel.instances.intersect(isl::union_set(stmt.domain))
              .extract_set(stmt.domain.get_space());
      // Instances that differ at most in the reduction's loop.
      unsigned along = loop - stmt.sourceIterators.begin();
      isl::map alongLoop =
          equateAllBut(mapFromDomainAndRange(instances, instances), along);
      isl::map byThread = pieceOf(thread, stmt.name);
      for (const Access &access : stmt.accesses) {
        if (access.kind != Access::Kind::Read || !access.isAffine() ||
            access.array == reduction.array)
          continue;
        isl::map read = access.relation.intersect_domain(instances);
        if (alongLoop.is_subset(read.apply_range(read.reverse())) &&
            !byThread.reverse().apply_range(read).is_single_valued())
          return accessText(scop, stmt, access);
      }
    }
    return std::nullopt;
  }

  /// Chooses block sizes and the hardware order of the first
  /// `kernel.numMapped` members of `band`, and the first tile of each.
  void chooseMapping(Kernel &kernel, const isl::schedule_node &band) {
    unsigned mapped = kernel.numMapped;
    isl::multi_union_pw_aff partial =
        band.as<isl::schedule_node_band>().get_partial_schedule();
    for (unsigned d = 0; d < mapped; ++d)
      kernel.memberSchedules.push_back(
          memberMap(partial.at(d), kernel.instances));
    kernel.accesses = analyzeAccesses(scop, kernel.localSchedule,
                                      kernel.hostSchedule, mapped);
    // Where promoteToShared will stage uncoalesced reads: per tile of the
    // band's next member, or once per block in a band without one; never
    // in a reduction kernel (its shared memory holds the partial results).
    bool loopToTile =
        band.as<isl::schedule_node_band>().n_member() > mapped;
    bool staged = !kernel.reduction &&
                  stagesUncoalesced(options.stageUncoalesced, loopToTile);
    kernel.hardwareDim = hardwareOrder(scop, kernel.accesses, mapped, staged);
    bool transposition = staged && mapped == 2 &&
                         kernel.hardwareDim[mapped - 1] != 0 &&
                         readsUncoalescedAlongX(kernel);
    std::optional<std::vector<unsigned>> requested =
        sizesFromOption(kernel, mapped);
    if (kernel.stepped()) {
      // The block is the tile of the wavefront's parallel members, which
      // the host loop's tiles of tiles count in (`--sizes` cannot change
      // it).
      std::vector<unsigned> block(mapped);
      for (unsigned d = 0; d < mapped; ++d)
        block[kernel.hardwareDim[d]] = kernel.steps.block[d];
      requested = block;
      transposition = false;
    }
    if (kernel.reduction) {
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
          kernel.hardwareDim[kernel.reduction->member] == 2)
        std::swap(kernel.hardwareDim[kernel.reduction->member],
                  kernel.hardwareDim[memberOnHardware(kernel, 1)]);
      unsigned lane = kernel.hardwareDim[kernel.reduction->member];
      // Lanes along y beside a parallel member on x: as many as fill the
      // device's threads, from 8 up to 32. Each lane reads its own rows,
      // coalesced, so more lanes keep more loads in flight.
      // With two parallel members (sumprod's x and z), the one not on x
      // runs along z, a block of one.
      std::optional<long> bound;
      std::vector<std::optional<long>> extents(mapped); // hardware order
      unsigned fill = 8;
      if (!requested && mapped >= 2 && lane == 1) {
        isl::union_set inBounds = instancesInBounds(scop, kernel.instances);
        long blocks = 1;
        for (unsigned d = 0; d < mapped && blocks > 0; ++d) {
          unsigned hw = kernel.hardwareDim[d];
          if (d == kernel.reduction->member)
            continue;
          extents[hw] = boundExtent(inBounds, kernel.hostSchedule,
                                    kernel.memberSchedules[d]);
          blocks = extents[hw] ? blocks * ((*extents[hw] + sizes[hw] - 1) /
                                           sizes[hw])
                               : 0;
        }
        bound = extents[0];
        if (mapped == 3 && extents[0] && extents[2])
          bound = *extents[0] * *extents[2];
        long threads = long(options.device.multiprocessors) *
                       options.device.maxThreadsPerMultiprocessor;
        unsigned most = std::max(
            1u, std::min(32u, options.device.maxThreadsPerBlock / sizes[0]));
        std::optional<std::string> shared;
        if (options.registerTiles && mapped == 3)
          shared = readSharedAlongLanes(kernel);
        if (shared && kJammedLanes <= most) {
          // Each lane runs kLaneJam iterations together: fewer lanes,
          // each with more work in flight.
          BlockReduction &reduction = *kernel.reduction;
          reduction.jam = kLaneJam;
          reduction.reason +=
              "; each lane runs " + std::to_string(kLaneJam) +
              " of its iterations of loop " + reduction.loop +
              " together in the loops inside it (unrolled), which read " +
              *shared + " once for them (--register-tiles=off: one at a "
              "time)";
          sizes[1] = kJammedLanes;
        } else {
          while (bound && fill * 2 <= most &&
                 blocks * sizes[0] * fill * 2 <= threads)
            fill *= 2;
          sizes[1] = std::min(std::max(sizes[1], fill), most);
        }
      }
      unsigned &lanes = sizes[lane];
      while (lanes & (lanes - 1)) // a power of two, for the tree
        lanes &= lanes - 1;
      kernel.sizing = blockFromOption(sizes);
      if (!requested) {
        kernel.sizing.source = BlockSizing::Source::Default;
        kernel.sizing.multiprocessors = options.device.multiprocessors;
        kernel.sizing.warpSize = options.device.warpSize;
        kernel.sizing.maxThreadsPerBlock =
            std::min(options.device.maxThreadsPerBlock,
                     options.device.maxThreadsPerMultiprocessor);
        kernel.sizing.reason =
            "a reduction: " + std::to_string(lanes) + " lanes along " +
            std::string(1, "xyz"[lane]) + " share loop " +
            kernel.reduction->loop + ", one block along it";
        if (bound) {
          kernel.sizing.extentBound = extents;
          kernel.sizing.reason +=
              "; at most " + std::to_string(*bound) +
              (mapped == 3 ? " iterations of the parallel loops"
                           : " iterations of the parallel loop") +
              " per launch" +
              (lanes == 8 ? ""
                          : ": " + std::to_string(lanes) +
                                " lanes fill the device's threads");
        }
      }
    } else if (kernel.stepped()) {
      kernel.sizing = blockFromOption(*requested);
      kernel.sizing.source = BlockSizing::Source::Default;
      kernel.sizing.multiprocessors = options.device.multiprocessors;
      kernel.sizing.warpSize = options.device.warpSize;
      kernel.sizing.maxThreadsPerBlock =
          std::min(options.device.maxThreadsPerBlock,
                   options.device.maxThreadsPerMultiprocessor);
      kernel.sizing.reason =
          "the tile of a wavefront's parallel members (" +
          kernel.steps.members + "), " +
          std::to_string(kernel.steps.block[0]) + " x " +
          std::to_string(kernel.steps.block[1]) +
          ": the host loop runs wavefronts of such tiles";
    } else if (requested) {
      kernel.sizing = blockFromOption(*requested);
    } else if (transposition) {
      // A transposition: threadIdx.x runs along the outer member to write
      // coalesced, and its read is staged once per block, a tile of 32 x
      // 32 (below): each warp of the block's copy reads a row of 32
      // elements.
      unsigned rows = std::max(
          1u, kTranspositionTileRows / options.default2D[1]);
      kernel.sizing = sizeToDevice(kernel, mapped, std::nullopt, rows);
      kernel.sizing.reason +=
          " (a transposition, whose read shared memory stages: counted in "
          "threads, each runs the rows of a tile of " +
          std::to_string(kTranspositionTileRows) + " along y)";
    } else {
      kernel.sizing = sizeToDevice(kernel, mapped);
    }
    kernel.blockSize.resize(mapped);
    for (unsigned d = 0; d < mapped; ++d)
      kernel.blockSize[d] = kernel.sizing.chosen[kernel.hardwareDim[d]];
    kernel.registerTile.assign(mapped, 1);
    if (transposition && !requested &&
        kernel.blockSize[memberOnHardware(kernel, 1)] <
            kTranspositionTileRows) {
      // Several rows per thread: a tile of 32 x 32 on 32 x 8 threads, as a
      // hand-written transposition has.
      unsigned y = memberOnHardware(kernel, 1);
      unsigned points =
          std::max(1u, kTranspositionTileRows / kernel.blockSize[y]);
      std::string rows = std::to_string(points);
      kernel.registerTile[y] = points;
      kernel.jamPoints = false;
      kernel.registerTileReason =
          rows + " points per thread along y, one after the other: a "
          "transposition's staged tile of " +
          std::to_string(kernel.blockSize[memberOnHardware(kernel, 0)]) +
          " x " + std::to_string(kernel.tileSize(y)) + " on " +
          std::to_string(kernel.blockSize[y]) +
          " threads along y, each copying and writing " + rows +
          " of its rows";
    } else if (kernel.stepped()) {
      kernel.registerTileReason =
          "a wavefront's tile: one point per thread and step";
    } else {
      chooseRegisterTile(kernel, band);
    }
    if (kernel.stepped())
      tileWavefrontBounds(kernel, band); // with the offsets
    for (unsigned d = 0; d < mapped && !kernel.stepped(); ++d) {
      isl::map range = kernel.hostSchedule.reverse()
                           .apply_range(kernel.memberSchedules[d])
                           .as_map();
      isl::val size(scop.ctx, kernel.tileSize(d));
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
      kernel.globalOffset.push_back(global);
      kernel.offsets.push_back(offset);
    }
    if (kernel.reduction)
      kernel.order.reason = "a reduction kernel: its lanes are one block";
    else if (kernel.stepped())
      kernel.order.reason = "a wavefront's tiles: one launch per wavefront "
                            "of tiles, in any order";
    else
      kernel.order = chooseThreadOrder(scop, kernel, options.threadOrder,
                                       options.device);
  }

  /// Whether a reference of `kernel` to an array it only reads runs a row
  /// or more apart along threadIdx.x (what promoteToShared stages).
  bool readsUncoalescedAlongX(const Kernel &kernel) const {
    std::set<unsigned> written = writtenArrays(scop, kernel.accesses);
    unsigned x = memberOnHardware(kernel, 0);
    for (const ReferenceAccess &ref : kernel.accesses) {
      const Access &access =
          scop.statements[ref.statement].accesses[ref.access];
      if (!written.count(access.array) &&
          isUncoalesced(ref.members[x].pattern))
        return true;
    }
    return false;
  }

  /// The arrays that the kernel only reads, through affine references,
  /// whose references read at least kStencilReadsPerPoint elements per
  /// point (the mapped members' values) together, in a window of at least
  /// two elements along the dimension that the member on y moves (a
  /// stencil's `A[i + a - 4][j + b - 4]` over loops a and b inside the
  /// thread): neighbouring points along y read overlapping elements.
  std::vector<unsigned> neighbourhoodArrays(const Kernel &kernel) const {
    std::set<unsigned> written = writtenArrays(scop, kernel.accesses);
    unsigned y = memberOnHardware(kernel, 1);
    isl::union_map point = kernel.hostSchedule;
    for (unsigned d = 0; d < kernel.numMapped; ++d)
      point = flatRangeProduct(point, kernel.memberSchedules[d]);
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
        if (along.pattern != AccessPattern::Broadcast &&
            along.movingDim == d && (*widths)[d] >= 2)
          tall.insert(a);
      }
      reads[a] += count;
    }
    std::vector<unsigned> arrays;
    for (const auto &[a, count] : reads)
      if (!refused.count(a) && tall.count(a) &&
          count >= kStencilReadsPerPoint)
        arrays.push_back(a);
    return arrays;
  }

  /// A stencil's register tile: kStencilPointsY consecutive points per
  /// thread along y (Kernel::blockedPoints) in a kernel of two mapped
  /// members that reads a neighbourhood (neighbourhoodArrays), where the
  /// tiles still give kBlocksPerSmForRegisterTiles blocks per SM. Returns
  /// whether it chose one.
  bool chooseStencilPoints(Kernel &kernel) {
    std::vector<unsigned> arrays = neighbourhoodArrays(kernel);
    if (arrays.empty())
      return false;
    std::string names;
    for (unsigned a : arrays)
      names += (names.empty() ? "" : ", ") + scop.arrays[a].name;
    kernel.registerTileConsidered = true;
    kernel.neighbourhoods = arrays;
    if (!options.registerTile.empty()) {
      // --register-tile: that many consecutive points along x and y.
      std::vector<unsigned> tile = options.registerTile;
      tile.resize(2, 1);
      for (unsigned d = 0; d < 2; ++d)
        kernel.registerTile[d] =
            std::max(1u, std::min(tile[kernel.hardwareDim[d]], 16u));
      kernel.blockedPoints = kernel.registerTiled();
      kernel.jamPoints = false;
      kernel.registerTileReason =
          std::to_string(tile[0]) + " x " + std::to_string(tile[1]) +
          " consecutive points per thread (x, y), unrolled one after the "
          "other, over the neighbourhoods of " + names + ": --register-tile";
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
      std::optional<long> bound = boundExtent(
          inBounds, kernel.hostSchedule, kernel.memberSchedules[d]);
      if (!bound)
        return false;
      long size = long(kernel.blockSize[d]) *
                  (kernel.hardwareDim[d] == 1 ? kStencilPointsY : 1);
      blocks *= (*bound + size - 1) / size;
    }
    long wanted = long(kBlocksPerSmForRegisterTiles) *
                  options.device.multiprocessors;
    if (blocks < wanted) {
      kernel.neighbourhoods.clear();
      kernel.registerTileReason =
          "too few blocks for a stencil's consecutive points: " +
          std::to_string(blocks) + " with " +
          std::to_string(kStencilPointsY) + " points per thread along y (" +
          std::to_string(wanted) + " wanted)";
      return true;
    }
    unsigned y = memberOnHardware(kernel, 1);
    kernel.registerTile[y] = kStencilPointsY;
    kernel.blockedPoints = true;
    kernel.jamPoints = false;
    kernel.registerTileReason =
        "1 x " + std::to_string(kStencilPointsY) +
        " points per thread (x, y), consecutive along y and unrolled one "
        "after the other: each point reads a neighbourhood of " + names +
        " that the next point's overlaps, so the compiler loads the "
        "elements they share once (" + std::to_string(blocks) +
        " blocks per launch)";
    return true;
  }

  /// Register tiling (MemoryPromotion.h): a kernel with two mapped members
  /// and one more loop in its band (gemm's `i`, `j` and `k`), permutable,
  /// that holds an element in a register across that loop (written, the
  /// same for every iteration: `C[i][j]`) and reads an element that
  /// neighbouring threads share (`A[i][k]` along `j`): each thread then
  /// computes `registerTile` points of each member, so that one value read
  /// from memory serves several of its points. The model takes the first
  /// of 8 x 4 (4-byte accumulators only), 4 x 4 and 4 x 2 points (x, y)
  /// whose tiles give `kBlocksPerSmForRegisterTiles` blocks per SM, and
  /// only for a rectangle of mapped iterations with, along each mapped
  /// member, a read its threads share (gemm's shape); otherwise one point.
  void chooseRegisterTile(Kernel &kernel, const isl::schedule_node &band) {
    auto no = [&](const std::string &why) {
      kernel.registerTileReason = why;
    };
    // A kernel of gemm's shape that gets no tile: the report says why.
    auto weighedNo = [&](const std::string &why) {
      kernel.registerTileConsidered = true;
      no(why);
    };
    if (!options.registerTiles)
      return no("register tiling is off");
    if (kernel.numMapped != 2 || kernel.reduction)
      return no("not two mapped loops without a reduction");
    if (chooseStencilPoints(kernel))
      return;
    isl::schedule_node_band b = band.as<isl::schedule_node_band>();
    if (b.n_member() != 3 || !b.permutable())
      return no("its band is not two mapped loops and one more, "
                "permutable");
    isl::multi_union_pw_aff partial = b.get_partial_schedule();
    isl::union_map point = flatRangeProduct(
        kernel.hostSchedule,
        flatRangeProduct(kernel.memberSchedules[0],
                         kernel.memberSchedules[1]));
    isl::union_map inner = memberMap(partial.at(2), kernel.instances);
    bool accumulator = false, reuse = false;
    unsigned accumulatorBytes = 0;
    for (const std::string &name : kernel.statements)
      for (const Access &access : scop.findStatement(name)->accesses)
        if (access.kind != Access::Kind::Read &&
            scop.arrays[access.array].isLocal)
          // A privatized scalar lives in one register of the thread
          // (MemoryPromotion), which its points would share.
          return weighedNo("it writes the privatized scalar " +
                    scop.arrays[access.array].name);
    for (const std::string &name : kernel.statements) {
      const Statement *stmt = scop.findStatement(name);
      isl::union_map byPoint =
          point.intersect_domain(isl::union_set(stmt->domain)).reverse();
      if (byPoint.apply_range(inner).is_single_valued())
        continue; // not in the loop
      for (const Access &access : stmt->accesses)
        if (access.kind != Access::Kind::Read && access.isAffine() &&
            byPoint.apply_range(isl::union_map(access.relation))
                .is_single_valued()) {
          accumulator = true;
          accumulatorBytes =
              std::max(accumulatorBytes,
                       elementBytes(scop.arrays[access.array].type));
        }
    }
    // alongOne[d]: a read the threads along member d share and those
    // along the other member do not (gemm's A[i][k] along j, B[k][j]
    // along i), so that a thread's points along d share it.
    std::vector<bool> alongOne(2, false);
    for (const ReferenceAccess &ref : kernel.accesses) {
      const Access &access =
          scop.statements[ref.statement].accesses[ref.access];
      if (access.kind != Access::Kind::Read)
        continue;
      for (unsigned d = 0; d < kernel.numMapped; ++d) {
        bool shared = ref.members[d].pattern == AccessPattern::Broadcast;
        reuse |= shared;
        alongOne[d] = alongOne[d] ||
                      (shared && ref.members[1 - d].pattern !=
                                     AccessPattern::Broadcast);
      }
    }
    if (!accumulator)
      return no("no element held across the band's third loop");
    if (!reuse)
      return no("no element read by several threads of a block");
    // Hardware order x, y.
    std::vector<unsigned> tile = options.registerTile;
    bool requested = !tile.empty();
    std::string why;
    if (requested) {
      tile.resize(2, 1);
      for (unsigned &r : tile)
        r = std::max(1u, std::min(r, 16u));
      why = ": --register-tile";
    } else {
      // The measured kernels (gemm, 2mm, 3mm) have such a read along each
      // member; a kernel whose shared reads are shared by every thread (a
      // stencil's weights) was not measured with register tiles.
      if (!alongOne[0] || !alongOne[1])
        return no("no element read in common along one mapped loop and "
                  "not the other (gemm's A[i][k] along j) for each of the "
                  "two: not the shape measured with register tiles");
      if (!mappedSpaceIsBox(scop, kernel, point))
        return weighedNo("the mapped loops' iterations are not a rectangle "
                  "(triangular spaces measured slower with register "
                  "tiles)");
      std::vector<std::optional<long>> bounds(2);
      for (unsigned d = 0; d < 2; ++d)
        bounds[kernel.hardwareDim[d]] =
            boundExtent(instancesInBounds(scop, kernel.instances),
                        kernel.hostSchedule, kernel.memberSchedules[d]);
      if (!bounds[0] || !bounds[1])
        return weighedNo("the loops have no bound at translation time");
      std::vector<unsigned> block(2);
      for (unsigned d = 0; d < 2; ++d)
        block[kernel.hardwareDim[d]] = kernel.blockSize[d];
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
      long wanted = long(kBlocksPerSmForRegisterTiles) *
                    options.device.multiprocessors;
      tile = {1, 1};
      for (const std::vector<unsigned> &points : candidates)
        if (blocks(points) >= wanted) {
          tile = points;
          break;
        }
      const std::vector<unsigned> &shown =
          tile[0] * tile[1] > 1 ? tile : candidates.back();
      why = ": " + std::to_string(blocks(shown)) + " blocks of " +
            std::to_string(block[0] * shown[0]) + " x " +
            std::to_string(block[1] * shown[1]) + " points per launch with " +
            std::to_string(shown[0]) + " x " + std::to_string(shown[1]) +
            " (" + std::to_string(wanted) + " wanted: " +
            std::to_string(kBlocksPerSmForRegisterTiles) + " per SM)";
    }
    if (tile[0] * tile[1] == 1)
      return weighedNo("too few blocks with several points per thread" + why);
    for (unsigned d = 0; d < 2; ++d)
      kernel.registerTile[d] = tile[kernel.hardwareDim[d]];
    kernel.registerTileConsidered = true;
    kernel.registerTileReason =
        std::to_string(tile[0]) + " x " + std::to_string(tile[1]) +
        " points per thread (x, y): an element held in a register across "
        "the band's third loop and elements that neighbouring threads "
        "share" +
        why;
  }

  /// The band that orders the blocks: the tiles of the mapped members
  /// (linear), or their columns and positions in a column (column order,
  /// from the tiles relative to the first, `relative`).
  isl::union_pw_aff_list
  blockBand(Kernel &kernel, const isl::union_pw_aff_list &tiles,
            const std::vector<isl::union_pw_aff> &relative) {
    if (!kernel.order.column)
      return tiles;
    isl::union_pw_aff z;
    if (kernel.numMapped == 3)
      z = relative[memberOnHardware(kernel, 2)];
    std::vector<std::string> grid =
        numberedNames(program.names.gridId, kernel.numMapped);
    kernel.blockOfGrid = blocksOfGrid(kernel, grid);
    return columnBand(relative[memberOnHardware(kernel, 0)],
                      relative[memberOnHardware(kernel, 1)], z,
                      kernel.order.widthBlocks, kernel.order.zigzag);
  }

  /// Tiles the first `kernel.numMapped` members of `band` by the block
  /// sizes and binds tiles to blocks and points to threads (see
  /// GpuProgram.h for the subtree). Returns the node at `band`'s position.
  isl::schedule_node mapBand(Kernel &kernel, isl::schedule_node band) {
    chooseMapping(kernel, band);
    isl::multi_union_pw_aff partial =
        band.as<isl::schedule_node_band>().get_partial_schedule();
    isl::multi_union_pw_aff host =
        band.get_prefix_schedule_multi_union_pw_aff();
    isl::space hostSpace = host.get_space(); // the host loops, `[c]`
    isl::union_set blocks = kernel.instances, threads = kernel.instances;
    isl::union_set owners = kernel.instances; // all lanes of a reduction
    isl::union_pw_aff_list tiles(scop.ctx, kernel.numMapped);
    std::vector<isl::union_pw_aff> relative;
    std::vector<isl::union_pw_aff> stepTiles; // a tiled wavefront's tiles
    std::string ids, bounds;
    for (unsigned d = 0; d < kernel.numMapped; ++d) {
      long size = kernel.blockSize[d];
      std::string b = program.names.blockId + std::to_string(d);
      std::string t = program.names.threadId + std::to_string(d);
      isl::union_pw_aff s = partial.at(d).intersect_domain(kernel.instances);
      if (kernel.stepped()) {
        // A tiled wavefront: block b runs tile first + b of the member,
        // thread t its point T (first + b) + t, and the band's tile is
        // first + b too (the member's floor on the block's instances), all
        // without floors: isl's code for the kernel costs far more with
        // the floors of the tile wavefront (see tileWavefrontBounds).
        isl::union_pw_aff first =
            applyToSchedule(host, liftToSpace(kernel.offsets[d], hostSpace))
                .add(paramOnDomain(kernel.instances, b));
        isl::union_pw_aff within = s.sub(scaled(first, size));
        blocks = blocks.intersect(nonnegative(within)).intersect(nonnegative(
            constantOnDomain(kernel.instances, size - 1).sub(within)));
        threads = threads.intersect(
            zeroSet(within.sub(paramOnDomain(kernel.instances, t))));
        relative.push_back(paramOnDomain(kernel.instances, b));
        tiles = tiles.add(first);
        stepTiles.push_back(first);
      } else {
        // A thread runs the points t, t + T, ... of a tile of
        // `registerTile` blocks (s mod T = t), or with blocked points the
        // points tR, ..., tR + R - 1 (floor(s / R) mod T = t).
        isl::union_pw_aff tile = floorDiv(s, kernel.tileSize(d));
        isl::union_pw_aff run =
            kernel.blockedPoints ? floorDiv(s, kernel.registerTile[d]) : s;
        isl::union_set thread =
            zeroSet(run.sub(scaled(floorDiv(run, size), size))
                        .sub(paramOnDomain(kernel.instances, t)));
        threads = threads.intersect(thread);
        if (kernel.isLane(d)) {
          // The lanes deal the member's iterations round-robin: one block.
          isl::union_pw_aff zero = constantOnDomain(kernel.instances, 0);
          relative.push_back(zero);
          blocks = blocks.intersect(
              zeroSet(zero.sub(paramOnDomain(kernel.instances, b))));
          tiles = tiles.add(zero);
          owners = owners.intersect(
              zeroSet(zero.sub(paramOnDomain(kernel.instances, b))));
        } else {
          isl::pw_aff offset = kernel.offsets[d];
          if (kernel.globalOffset[d])
            offset = liftToSpace(offset, hostSpace);
          isl::union_pw_aff first = applyToSchedule(host, offset);
          relative.push_back(tile.sub(first));
          isl::union_set block = zeroSet(
              relative.back().sub(paramOnDomain(kernel.instances, b)));
          blocks = blocks.intersect(block);
          owners = owners.intersect(block).intersect(thread);
          tiles = tiles.add(tile);
        }
      }
      ids += (d ? ", " : "") + b + ", " + t;
      bounds += (d ? " and " : "") + b + " >= 0 and 0 <= " + t + " < " +
                std::to_string(size);
    }
    if (kernel.stepped()) {
      // The block's steps: w in [Tw W, Tw W + Tw - 1] with W the tile
      // wavefront's host loop less the block's tiles.
      isl::union_pw_aff w = kernel.steps.member.intersect_domain(
          kernel.instances);
      isl::union_pw_aff tileW =
          paramOnDomain(kernel.instances, program.names.hostIterator + "0")
              .sub(stepTiles[0])
              .sub(stepTiles[1]);
      isl::union_pw_aff within =
          w.sub(scaled(tileW, kernel.steps.size));
      blocks = blocks.intersect(nonnegative(within)).intersect(nonnegative(
          constantOnDomain(kernel.instances, kernel.steps.size - 1)
              .sub(within)));
    }
    isl::schedule_node node = band.insert_filter(threads)
                                  .insert_mark(isl::id(scop.ctx, kThreadMark))
                                  .insert_mark(isl::id(scop.ctx, kSharedMark));
    isl::space space = partial.get_space();
    unsigned members = setDims(space);
    space = dropSetDims(space, kernel.numMapped, members - kernel.numMapped);
    kernel.tiles = isl::multi_union_pw_aff(space, tiles);
    isl::multi_union_pw_aff tileSchedule(
        space, blockBand(kernel, tiles, relative));
    node = node.insert_partial_schedule(tileSchedule);
    node = node.as<isl::schedule_node_band>().set_permutable(1);
    for (unsigned d = 0; d < kernel.numMapped; ++d)
      node = setCoincident(node, d, true);
    isl::set context(scop.ctx, "[" + ids + "] -> { : " + bounds + " }");
    kernel.context = coalesced(kernel.context.intersect(context));
    if (kernel.reduction)
      kernel.reduction->owners = owners;
    // The bounds of the ids would be a context node above the filter; isl
    // 0.25's AST generator fails on context nodes ("spaces don't match"),
    // so they are in the kernel's AST context instead.
    return node.insert_filter(blocks);
  }
};

} // namespace

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
  auto [code, scalars] = options.hostScalars
                             ? hostScalarCode(program)
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
  sequence = sequence.child(0).child(0).insert_mark(
                                           isl::id(scop.ctx, kHostMark))
                 .parent()
                 .parent();
  isl::schedule_node rest = mapper.visit(sequence.child(1));
  program.schedule = rest.get_schedule();
  std::string names;
  for (unsigned a : program.hostScalars)
    names += (names.empty() ? "" : ", ") + scop.arrays[a].name;
  program.hostReason =
      "statements outside every loop that access only scalars (" + names +
      "), which no other statement writes or precedes in a dependence: "
      "they run first, on the host, and kernels receive the scalars' "
      "values as arguments";
  // Kernels read those scalars as arguments, not from device memory.
  for (Kernel &kernel : program.kernels)
    kernel.arrays.erase(
        std::remove_if(kernel.arrays.begin(), kernel.arrays.end(),
                       [&](unsigned a) { return program.isHostScalar(a); }),
        kernel.arrays.end());
}

const Kernel *GpuProgram::findKernel(const std::string &name) const {
  for (const Kernel &kernel : kernels)
    if (kernel.name == name)
      return &kernel;
  return nullptr;
}

Kernel *GpuProgram::findKernel(const std::string &name) {
  return const_cast<Kernel *>(std::as_const(*this).findKernel(name));
}

} // namespace polycuda::polyhedral
