//===- AstGeneration.cpp - Host and kernel ASTs with isl ------------------===//
//
// Stage 5: GpuProgram -> host AST + kernel ASTs (see AstGeneration.h).
// The host AST is generated from the whole tree; at each kernel mark the
// subtree's AST is replaced by a launch whose grid extents are computed from
// the AST build, i.e. as functions of the enclosing host iterators. Each
// kernel's AST is generated from its subtree, with the host iterators, block
// and thread ids as parameters.
//
//===----------------------------------------------------------------------===//
#include "AstGeneration.h"

#include "AstVerifier.h"
#include "Check.h"
#include "IslExtras.h"
#include "Persistent.h"
#include "ThreadOrder.h"

#include <algorithm>
#include <exception>
#include <map>
#include <memory>
#include <stdexcept>
#include <thread>
#include <utility>

namespace polycuda::polyhedral {

namespace {

/// A mark callback that keeps the AST isl generated below every mark.
isl::ast_node keepMark(const isl::id &, const isl::ast_node &,
                       const isl::ast_build &) {
  return isl::ast_node();
}

/// Grid extent of mapped member `d` of `kernel` at the current host point:
/// floor(max s / T) - floor(min s / T) + 1 with T the member's tile (its
/// block size times its register tile), over the build's schedule space.
isl::pw_aff gridExtent(const Kernel &kernel, unsigned d,
                       const isl::union_map &hostSchedule) {
  isl::union_map relation =
      hostSchedule.reverse().apply_range(kernel.mapping->memberSchedules[d]);
  isl::map range = relation.as_map();
  if (kernel.isLane(d)) // one block along a reduction's lanes
    return constantOn(range.get_space().domain(), 1);
  isl::val size(range.ctx(), kernel.mapping->tileSize(d));
  isl::pw_aff lowest =
      kernel.mapping->globalOffset[d]
          ? liftToSpace(kernel.mapping->offsets[d], range.get_space().domain())
          : range.lexmin_pw_multi_aff().at(0).scale_down(size).floor();
  isl::pw_aff highest =
      range.lexmax_pw_multi_aff().at(0).scale_down(size).floor();
  return highest.sub(lowest).add(
      constantOn(range.get_space().domain(), 1));
}

isl::ast_node makeLaunch(const GpuProgram &program, const isl::id &mark,
                         const isl::ast_build &build) {
  const Kernel *found = program.kernelOf(mark);
  if (!found)
    return isl::ast_node();
  const Kernel &kernel = *found;
  const std::string &name = kernel.name;
  isl::union_map hostSchedule =
      build.get_schedule().intersect_domain(kernel.instances);
  if (kernel.stepped()) {
    // The launches of a tiled wavefront (withoutThreadMapping's group):
    // `polycuda_launch_<kernel>[s]`, its coordinates the host loops.
    isl::union_map launches = isl::union_map::empty(build.ctx());
    for (const isl::map &map : mapsOf(build.get_schedule()))
      if (map.has_domain_tuple_id() &&
          map.get_domain_tuple_id().get() == kernel.launchGroup.get())
        launches = launches.unite(isl::union_map(map));
    isl::map toPrefix = withoutTupleIds(launches.reverse().as_map());
    isl::pw_multi_aff prefix = toPrefix.as_pw_multi_aff();
    std::vector<isl::ast_expr> args;
    for (unsigned d = 0; d < kernel.mapping->numMapped; ++d) {
      isl::pw_aff first = kernel.steps.firstTile[d];
      isl::pw_aff extent = kernel.steps.lastTile[d].sub(first).add(
          constantOn(first.get_space().domain(), 1));
      args.push_back(build.expr_from(extent.pullback(prefix)));
    }
    for (unsigned i = 0; i < kernel.mapping->hostDepth; ++i)
      args.push_back(build.expr_from(prefix.at(i)));
    args.push_back(build.expr_from(launches.range().as_set()));
    return makeCallNode(kernel.mark, args);
  }
  std::vector<isl::pw_aff> extents;
  {
    for (unsigned d = 0; d < kernel.mapping->numMapped; ++d)
      extents.push_back(gridExtent(kernel, d, hostSchedule));
  }
  // Column order: the grid runs through columns (see ThreadOrder.h).
  if (kernel.mapping->order.column)
    extents = columnGrid(kernel, extents);
  std::vector<isl::ast_expr> args;
  for (const isl::pw_aff &extent : extents)
    args.push_back(build.expr_from(extent));
  // The kernel is parameterized by the values of the tree's prefix schedule.
  // isl's AST generator may shift or drop host loop dimensions (strides,
  // single values), so these values are expressed in terms of the loops it
  // actually generated rather than assumed to be its iterators.
  if (kernel.mapping->hostDepth > 0) {
    isl::map toPrefix =
        hostSchedule.reverse().apply_range(kernel.hostSchedule).as_map();
    POLYCUDA_CHECK(toPrefix.is_single_valued())
        << "host iteration does not determine the prefix of " << name;
    isl::pw_multi_aff prefix = toPrefix.as_pw_multi_aff();
    for (unsigned i = 0; i < kernel.mapping->hostDepth; ++i)
      args.push_back(build.expr_from(prefix.at(i)));
  }
  // The launch condition: the host points at which the kernel has
  // instances. The grid extents above are only defined there, and the
  // kernel's AST assumes them (its context); isl would otherwise have
  // expressed the condition through the loop bounds of the subtree that the
  // launch replaces (a skewed kernel ran where it has no instances).
  isl::set active = hostSchedule.range().as_set();
  args.push_back(build.expr_from(active));
  return makeCallNode(kernel.mark, args);
}

/// The schedule of each kernel's subtree, over its instances with the host
/// iterators as parameters, in the order of `program.kernels`.
void kernelTrees(const GpuProgram &program, const isl::schedule_node &node,
                 std::vector<isl::schedule> &trees) {
  if (node.isa<isl::schedule_node_mark>()) {
    if (const Kernel *kernel = program.kernelOf(markId(node))) {
      isl::schedule_node top = node.child(0);
      // The kernel runs one block: its band of blocks in linear order
      // (KernelMapping::tiles) gives the same code as the column order's.
      if (kernel->mapping->order.column) {
        isl::schedule_node band = deleteNode(top.child(0));
        band = band.insert_partial_schedule(kernel->mapping->tiles);
        top = band.parent();
      }
      trees[kernel->id] = subtreeAsSchedule(top, kernel->domain);
      return;
    }
  }
  for (int i = 0, n = node.n_children(); i < n; ++i)
    kernelTrees(program, node.child(i), trees);
}

/// The tree the host AST is generated from: `node`'s, with the nodes that
/// bind each kernel's tiles to blocks and threads removed (above the
/// kernel's band: a filter, the tile band, two marks, a filter). The host
/// AST replaces every kernel's subtree by a launch; with the block and
/// thread ids in it, isl would hoist conditions on them out of the kernel.
isl::schedule_node withoutThreadMapping(const GpuProgram &program,
                                        isl::schedule_node node) {
  if (node.isa<isl::schedule_node_mark>()) {
    if (const Kernel *kernel = program.kernelOf(markId(node))) {
      if (kernel->mapping->numMapped == 0)
        return node;
      node = node.child(0);
      if (kernel->stepped())
        return node.parent(); // buildHostAst replaces the whole tree
      // filter (block), band (tiles), mark, mark, filter (thread).
      for (int i = 0; i < 5; ++i)
        node = deleteNode(node);
      return node.parent();
    }
  }
  for (int i = 0, n = node.n_children(); i < n; ++i)
    node = withoutThreadMapping(program, node.child(i)).parent();
  return node;
}

/// The band `band` with its first member split from the others, if it has
/// others: the node of a band of that member alone.
isl::schedule_node splitFirstMember(isl::schedule_node band) {
  if (band.as<isl::schedule_node_band>().n_member() > 1)
    band = band.as<isl::schedule_node_band>().split(1);
  return band;
}

/// Inserts parallel marks above the outermost coincident loops.
isl::schedule_node markParallel(isl::schedule_node node,
                                const std::string &prefix) {
  if (node.isa<isl::schedule_node_band>()) {
    bool coincident = isCoincident(node, 0);
    node = splitFirstMember(node);
    if (coincident) {
      unsigned depth = scheduleDepth(node);
      std::string loop = prefix + std::to_string(depth);
      return node.insert_mark(
          gpuMark(node.ctx(), GpuMark{MarkKind::Parallel, {}, loop}));
    }
  }
  int n = node.n_children();
  for (int i = 0; i < n; ++i)
    node = markParallel(node.child(i), prefix).parent();
  return node;
}

/// The payloads of the marks of `schedule` (GpuMark), by the marks'
/// names. A tree read back from text (on the second thread, below) has
/// marks without payloads; these give them back (withPayloads).
std::map<std::string, GpuMark> markPayloads(const isl::schedule &schedule) {
  std::map<std::string, GpuMark> payloads;
  if (schedule.is_null())
    return payloads;
  schedule.get_root().foreach_descendant_top_down(
      [&](const isl::schedule_node &node) {
        if (!node.isa<isl::schedule_node_mark>())
          return true;
        isl::id id = markId(node);
        if (std::optional<GpuMark> payload = gpuMarkOf(id)) {
          auto [at, added] = payloads.emplace(id.name(), *payload);
          POLYCUDA_CHECK(added || (at->second.kind == payload->kind &&
                                   at->second.extents == payload->extents &&
                                   at->second.loop == payload->loop))
              << "two marks named " << id.name();
        }
        return true;
      });
  return payloads;
}

/// `schedule` with each mark named in `payloads` given that payload.
isl::schedule withPayloads(const isl::schedule &schedule,
                           const std::map<std::string, GpuMark> &payloads) {
  if (schedule.is_null() || payloads.empty())
    return schedule;
  isl::ctx ctx = schedule.ctx();
  return schedule.get_root()
      .map_descendant_bottom_up([&](isl::schedule_node node) {
        if (!node.isa<isl::schedule_node_mark>())
          return node;
        auto found = payloads.find(markId(node).name());
        if (found == payloads.end())
          return node;
        return deleteNode(node).insert_mark(gpuMark(ctx, found->second));
      })
      .get_schedule();
}

/// Forgets the promotions of a kernel whose AST was built without them
/// (the printer must then print every reference in global memory).
void dropPromotions(Kernel &kernel) {
  kernel.accumulators.clear();
  if (!kernel.sharedTiles.empty())
    kernel.noShared.why = NoSharedTiles::Why::AstFailed;
  kernel.sharedTiles.clear();
  kernel.sharedLoop.clear();
  kernel.sharedTileSize = 0;
  kernel.deviceTree = isl::schedule();
}

/// The kernels whose ASTs this thread builds (`here`) and those a second
/// thread builds (`there`): largest first, each to the thread with less
/// work; the host AST counts as much as the largest kernel.
void shareKernels(GpuProgram &program, std::vector<Kernel *> &here,
                  std::vector<Kernel *> &there) {
  std::vector<Kernel *> order;
  for (Kernel &kernel : program.kernels)
    order.push_back(&kernel);
  std::stable_sort(order.begin(), order.end(), [](Kernel *a, Kernel *b) {
    return a->statements.size() > b->statements.size();
  });
  size_t hereWork = order.empty() ? 0 : order.front()->statements.size();
  size_t thereWork = 0;
  for (Kernel *kernel : order) {
    bool toThere = order.size() > 1 && thereWork < hereWork;
    (toThere ? there : here).push_back(kernel);
    (toThere ? thereWork : hereWork) += kernel->statements.size();
  }
}

/// The schedule of each kernel's subtree (see kernelTrees), in the order
/// of `program.kernels`.
std::vector<isl::schedule> kernelSchedules(const GpuProgram &program) {
  std::vector<isl::schedule> trees(program.kernels.size());
  isl::schedule_node root = program.schedule.get_root();
  if (root.n_children() > 0)
    kernelTrees(program, root.child(0), trees);
  return trees;
}

/// isl operations the check of one AST may take. Reading back the loop
/// bounds isl printed for a heavily skewed schedule (nested minima and
/// maxima of disjunctions) took 10 s for some random programs; past the
/// budget the AST is printed unchecked, as it was before the check existed
/// (random program 5001953 needs about half of it).
constexpr unsigned long kVerifyOperations = 1000000;

/// Why an AST does not execute what it should (AstVerifier.h), or "".
using AstCheckFn = std::function<std::string(const isl::ast_node &)>;

/// The first AST, in isl's loop modes atomic, separate and default, that
/// passes `check`; `build` generates the AST in a mode. An error when none
/// does; the first AST whose loops end where C ends them (nonMonotoneLoop),
/// unchecked, when a check runs out of its budget or cannot read the AST.
isl::ast_node verifiedAst(isl::ctx ctx,
                          const std::function<isl::ast_node(AstLoopMode)> &build,
                          const AstCheckFn &check) {
  std::string first;
  isl::ast_node atomic;
  for (AstLoopMode mode :
       {AstLoopMode::Atomic, AstLoopMode::Separate, AstLoopMode::Default}) {
    isl::ast_node ast = build(mode);
    // A loop that C would end early is wrong whatever the check says.
    std::string problem = nonMonotoneLoop(ast);
    if (!problem.empty()) {
      if (first.empty())
        first = problem;
      continue;
    }
    if (atomic.is_null())
      atomic = ast;
    try {
      OperationLimit limit(ctx, kVerifyOperations);
      problem = check(ast);
    } catch (const isl::exception_quota &) {
      return atomic;
    } catch (const isl::exception &) {
      // isl failed reading it back: as unchecked as past the budget.
      resetError(ctx);
      return atomic;
    } catch (const UnreadableAst &) {
      return atomic;
    }
    if (problem.empty())
      return ast;
    if (first.empty())
      first = problem;
  }
  throw AstNotVerified(
      "isl's AST generator printed code that does not execute the "
      "schedule in any of its loop modes (an isl bug): its atomic code " +
      first);
}

/// What the AST must run in order: every dependence, or none when the
/// analysis is incomplete (the schedule is then the original order; only
/// what runs, and how often, can be checked).
isl::union_map dependenceOrder(const Dependences &deps, isl::ctx ctx) {
  return deps.complete ? deps.all() : isl::union_map::empty(ctx);
}

/// What a kernel's AST is checked against: the dependences between its
/// instances at one host point (with the host iterators as parameters),
/// and the parameters that are its block and thread indices.
struct KernelCheck {
  isl::union_set domain; ///< Kernel::domain (the tree's has b and t fixed)
  isl::union_map deps;
  std::vector<std::string> threadParams;
  /// Not checked (a tiled wavefront: the floors of its tile wavefront ran
  /// the check out of its isl budget after seconds, which prints the AST
  /// unchecked anyway; end-to-end tests check its code).
  bool unchecked = false;
};

/// The check of a kernel's AST: each instance once, on one thread, and the
/// dependences between the instances of one thread in order. Block and
/// thread indices become the leading time dimensions.
AstCheckFn kernelAstCheck(const isl::set &context, const KernelCheck &check) {
  isl::set outer = projectOutParams(context, check.threadParams);
  return [&context, &check, outer](const isl::ast_node &ast) {
    if (check.unchecked)
      return std::string();
    isl::union_map times = isl::union_map::empty(context.ctx());
    for (const isl::map &map :
         mapsOf(executionTimes(ast, context, statementLeaves(check.domain))))
      times = times.unite(paramsToOutputs(map, check.threadParams));
    return verifyExecution(times, check.domain, check.deps, outer,
                           {false, unsigned(check.threadParams.size())});
  };
}

/// The device AST of a kernel from its tree; from the tree flattened to one
/// map when isl fails on the tree (then with the fallbacks of
/// buildAstFromMap). Checked (kernelAstCheck).
isl::ast_node buildPlainKernelAst(const isl::set &context,
                                  const isl::schedule &tree,
                                  const std::string &prefix, unsigned tiles,
                                  const KernelCheck &check) {
  auto build = [&](AstLoopMode mode) {
    try {
      // The tile loops take one value each (the block's), so isl generates
      // no loop for them; the kernel's loops are numbered from below them.
      return buildAstFromSchedule(context, tree, prefix, keepMark, tiles,
                                  mode);
    } catch (const isl::exception_quota &) {
      throw;
    } catch (const isl::exception &) {
      resetError(context.ctx());
      return buildAstFromMap(context, coalesced(tree.get_map()), prefix);
    }
  };
  return verifiedAst(context.ctx(), build, kernelAstCheck(context, check));
}

/// The device AST of a kernel from `promoted`, its tree with the copies of
/// memory promotion, if not null; from `plain`, its tree without them,
/// when there are none, or isl fails on them, or no AST of them passes the
/// check (`dropped` is then set: the kernel must be printed without its
/// promotions). The copies run no statement instance: the check ignores
/// them.
isl::ast_node buildKernelAst(const isl::set &context,
                             const isl::schedule &promoted,
                             const isl::schedule &plain,
                             const std::string &prefix, unsigned tiles,
                             const KernelCheck &check, bool &dropped) {
  if (!promoted.is_null()) {
    auto build = [&](AstLoopMode mode) {
      return buildAstFromSchedule(context, promoted, prefix, keepMark, tiles,
                                  mode);
    };
    try {
      return verifiedAst(context.ctx(), build, kernelAstCheck(context, check));
    } catch (const isl::exception_quota &) {
      throw;
    } catch (const isl::exception &) {
      resetError(context.ctx());
      dropped = true;
    } catch (const std::runtime_error &) {
      dropped = true;
    }
  }
  return buildPlainKernelAst(context, plain, prefix, tiles, check);
}

/// The leaves of the host AST: a launch `name(grid..., prefix..., active)`
/// (see makeLaunch) runs its kernel's instances at the host point `prefix`
/// where `active` holds.
LeafInstancesFn launchLeaves(const GpuProgram &program) {
  return [&program](const isl::ast_expr_op &call,
                    const LeafReader &reader) -> isl::union_map {
    isl::id fn = call.arg(0).as<isl::ast_expr_id>().id();
    std::string name = fn.name();
    const Kernel *kernel = program.kernelOf(fn);
    if (!kernel && program.isHostStatement(name)) {
      // Scalar code on the host: a statement outside every loop.
      std::vector<isl::ast_expr> args;
      for (unsigned i = 1; i < call.n_arg(); ++i)
        args.push_back(call.arg(i));
      return isl::union_map(instanceMap(reader, name, args));
    }
    if (!kernel)
      throw std::runtime_error("AST verifier: unknown launch " + name);
    unsigned first = 1 + kernel->mapping->numMapped;
    std::vector<isl::ast_expr> prefix;
    for (unsigned i = 0; i < kernel->mapping->hostDepth; ++i)
      prefix.push_back(call.arg(first + i));
    isl::set active =
        reader.condition(call.arg(first + kernel->mapping->hostDepth));
    isl::map toPrefix = instanceMap(reader, "", prefix).intersect_domain(active);
    return isl::union_map(toPrefix)
        .apply_range(kernel->hostSchedule.reverse())
        .intersect_range(kernel->instances);
  };
}

/// The host AST: the tree without the thread mapping, each kernel's
/// subtree replaced by its launch, each persistent loop below its mark.
isl::ast_node buildHostAst(const GpuProgram &program) {
  isl::schedule host = program.schedule;
  isl::schedule_node root = program.schedule.get_root();
  bool stepped = std::any_of(program.kernels.begin(), program.kernels.end(),
                             [](const Kernel &k) { return k.stepped(); });
  if (root.n_children() > 0 && !stepped) {
    host = withoutThreadMapping(program, root.child(0)).get_schedule();
    host = markPersistentLoops(program, host.get_root().child(0))
               .get_schedule();
  }
  // A tiled wavefront is the scop's only loop (GpuMapping): its host code
  // is a loop over the tile wavefronts from the first to the last, one
  // launch each (an empty one has no block with steps).
  for (const Kernel &kernel : program.kernels)
    if (kernel.stepped()) {
      isl::pw_aff first = kernel.steps.firstLaunch;
      isl::space space = isl::manage(isl_space_set_tuple_id(
          isl_space_set_alloc(isl::ctx(program.scop->ctx).get(), 0, 1),
          isl_dim_set, kernel.launchGroup.copy()));
      space = isl::manage(
          isl_space_align_params(space.release(), first.get_space().release()));
      isl::pw_aff s = variableOn(space, 0);
      isl::set launches = s.ge_set(liftToSpace(first, space))
                              .intersect(s.le_set(liftToSpace(
                                  kernel.steps.lastLaunch, space)));
      isl::union_set domain(launches);
      isl::schedule_node root = isl::schedule::from_domain(domain).get_root();
      root = root.child(0).insert_partial_schedule(
          isl::multi_union_pw_aff(isl::union_pw_aff(s)));
      root = root.child(0).insert_mark(kernel.mark);
      host = root.get_schedule();
    }
  auto build = [&](AstLoopMode mode) {
    return buildAstFromSchedule(
        program.scop->context, host, program.names.hostIterator,
        [&](const isl::id &mark, const isl::ast_node &,
            const isl::ast_build &build) {
          return makeLaunch(program, mark, build);
        },
        0, mode);
  };
  // Instances of one launch run at the same host time: the kernel orders
  // them.
  const isl::set &context = program.scop->context;
  isl::union_map order = dependenceOrder(program.deps, context.ctx());
  return verifiedAst(context.ctx(), build, [&](const isl::ast_node &ast) {
    // A tiled wavefront's launches are a loop over its tile wavefronts
    // (above); reading their instances back through the floors of the
    // tile wavefront costs isl most of a second, so it is not checked
    // (end-to-end tests check it).
    if (stepped)
      return std::string();
    return verifyExecution(executionTimes(ast, context, launchLeaves(program)),
                           program.schedule.get_domain(), order, context,
                           {true, 0});
  });
}

/// The check of `kernel`'s AST (see KernelCheck); `order` is
/// dependenceOrder of the program's dependences, computed once for all
/// kernels.
KernelCheck kernelCheck(const GpuProgram &program, const Kernel &kernel,
                        const isl::union_map &order) {
  KernelCheck check;
  check.domain = kernel.domain;
  // Both ends in the kernel's domain, whose host iterators are parameters:
  // the dependences within one launch.
  check.deps = order.intersect_domain(kernel.domain)
                   .intersect_range(kernel.domain);
  // A reduction's kernel writes only the reduced elements, and its
  // statements' operands read none of them (reductionsAreLegal): every
  // dependence within a launch is between updates of one element, which
  // its lanes run in any order and the block's combine orders.
  if (kernel.reduction)
    check.deps = isl::union_map::empty(order.ctx());
  // A tiled wavefront's dependences within a launch join points of one
  // block at different steps, which the barrier after each step orders;
  // the AST must order each thread's own points.
  if (kernel.stepped()) {
    check.unchecked = true;
    check.domain = kernel.steps.launched;
    check.deps = order.intersect_domain(check.domain)
                     .intersect_range(check.domain);
    isl::union_map thread = kernel.mapping->memberSchedules[0];
    thread = flatRangeProduct(thread, kernel.mapping->memberSchedules[1]);
    check.deps = check.deps.intersect(thread.apply_range(thread.reverse()));
  }
  for (unsigned d = 0; d < kernel.mapping->numMapped; ++d) {
    check.threadParams.push_back(program.names.blockId + std::to_string(d));
    check.threadParams.push_back(program.names.threadId + std::to_string(d));
  }
  return check;
}

/// Builds the ASTs of some kernels on a second thread. It works in an isl
/// context of its own (isl contexts are not shared between threads), so
/// its kernels' schedules and contexts travel as text; their ASTs stay in
/// that context, which the program keeps (GpuProgram::astContext) for as
/// long as it prints them.
class KernelAstThread {
public:
  /// Starts building the ASTs of `kernels` (if any) from their subtrees in
  /// `trees`, under the operation limit `limit`, checked against `order`
  /// (see kernelCheck).
  KernelAstThread(const GpuProgram &program,
                  const std::vector<Kernel *> &kernels,
                  const std::vector<isl::schedule> &trees,
                  const std::string &prefix, unsigned long limit,
                  const isl::union_map &order)
      : kernels(kernels), asts(kernels.size()) {
    for (Kernel *kernel : kernels) {
      KernelCheck check = kernelCheck(program, *kernel, order);
      std::map<std::string, GpuMark> payloads =
          markPayloads(trees[kernel->id]);
      payloads.merge(markPayloads(kernel->deviceTree));
      jobs.push_back(
          {toString(trees[kernel->id]),
           kernel->deviceTree.is_null() ? std::string()
                                        : toString(kernel->deviceTree),
           toString(kernel->context), kernel->mapping->numMapped, false,
           toString(check.domain), toString(check.deps), check.threadParams,
           std::move(payloads)});
    }
    if (jobs.empty())
      return;
    context = makeSharedContext();
    thread = std::thread([this, prefix, limit, ctx = context.get()] {
      try {
        OperationLimit bound(isl::ctx(ctx), limit);
        for (size_t i = 0; i < jobs.size(); ++i) {
          KernelCheck check{isl::union_set(isl::ctx(ctx), jobs[i].domain),
                            isl::union_map(isl::ctx(ctx), jobs[i].deps),
                            jobs[i].threadParams};
          // (Read back from text, the trees' marks need their payloads:
          // the printer unrolls a register tile's points by them.)
          isl::schedule promoted;
          if (!jobs[i].promoted.empty())
            promoted = withPayloads(
                isl::schedule(isl::ctx(ctx), jobs[i].promoted),
                jobs[i].payloads);
          asts[i] = buildKernelAst(
              isl::set(isl::ctx(ctx), jobs[i].context), promoted,
              withPayloads(isl::schedule(isl::ctx(ctx), jobs[i].schedule),
                           jobs[i].payloads),
              prefix,
              jobs[i].tiles, check, jobs[i].dropped);
        }
      } catch (...) {
        failure = std::current_exception();
      }
    });
  }
  KernelAstThread(const KernelAstThread &) = delete;
  KernelAstThread &operator=(const KernelAstThread &) = delete;

  /// However the building thread leaves (an isl error there too): the
  /// worker is joined and what it built but nobody took is freed, before
  /// the context.
  ~KernelAstThread() {
    if (thread.joinable())
      thread.join();
    for (isl::ast_node &ast : asts)
      ast = isl::ast_node();
  }

  /// Waits for the thread, gives the ASTs to their kernels and their
  /// context to `program`, and rethrows what the thread failed with.
  void finish(GpuProgram &program) {
    if (thread.joinable())
      thread.join();
    program.astContext = context;
    // (isl/cpp.h objects cannot be copied while null.)
    for (size_t i = 0; i < asts.size(); ++i) {
      kernels[i]->ast = asts[i].is_null() ? isl::ast_node() : asts[i];
      asts[i] = isl::ast_node();
      if (jobs[i].dropped)
        dropPromotions(*kernels[i]);
    }
    if (failure)
      std::rethrow_exception(failure);
  }

private:
  /// A kernel's tree, AST context and check, as text, and its tile loops.
  struct Job {
    std::string schedule, promoted, context;
    unsigned tiles;
    bool dropped;
    std::string domain, deps; ///< KernelCheck's
    std::vector<std::string> threadParams;
    /// The payloads of the trees' marks (markPayloads).
    std::map<std::string, GpuMark> payloads;
  };
  std::vector<Kernel *> kernels;
  std::vector<Job> jobs;
  /// The AST of each kernel, in the thread's context, once built.
  std::vector<isl::ast_node> asts;
  std::exception_ptr failure;
  std::shared_ptr<isl_ctx> context;
  std::thread thread;
};

/// Column order: the prologue expressions of the kernel's block indices
/// from its grid position (KernelMapping::blockOfGrid), where g >= 0.
void blockExpressions(Kernel &kernel) {
  kernel.blockExprs.clear();
  for (const isl::pw_aff &block : kernel.mapping->blockOfGrid)
    kernel.blockExprs.push_back(buildExprFromParams(
        coalesced(block.domain().params()), block));
}

} // namespace

void generateGpuAsts(GpuProgram &program) {
  // Kernel ASTs are independent of each other and of the host AST, and
  // generating them is a good part of the translation time: a second
  // thread builds about half of them (KernelAstThread) while this one
  // builds the rest and the host AST.
  // Coalesced, a schedule has fewer pieces to separate: the same code,
  // generated faster (adi's kernels: about a quarter of the time).
  std::vector<Kernel *> here, there;
  shareKernels(program, here, there);
  std::vector<isl::schedule> trees = kernelSchedules(program);
  std::string prefix = program.names.kernelIterator;
  isl::union_map order = dependenceOrder(program.deps, program.scop->ctx);
  KernelAstThread worker(program, there, trees, prefix,
                         maxOperations(program.scop->ctx), order);
  for (Kernel *kernel : here) {
    bool dropped = false;
    kernel->ast =
        buildKernelAst(kernel->context, kernel->deviceTree, trees[kernel->id],
                       prefix, kernel->mapping->numMapped,
                       kernelCheck(program, *kernel, order), dropped);
    if (dropped)
      dropPromotions(*kernel);
  }
  program.host = buildHostAst(program);
  for (Kernel &kernel : program.kernels)
    blockExpressions(kernel);
  worker.finish(program);
  // A reduction's kernel without its combine would lose the partials.
  for (const Kernel &kernel : program.kernels)
    if (kernel.reduction && kernel.deviceTree.is_null())
      throw ReductionCodeFailed();
}

isl::ast_node generateCAst(const Scop &scop, const isl::schedule &schedule,
                           const Dependences &deps, const std::string &prefix) {
  isl::schedule marked = schedule;
  isl::schedule_node root = schedule.get_root();
  if (root.n_children() > 0)
    marked = markParallel(root.child(0), prefix).get_schedule();
  auto build = [&](AstLoopMode mode) {
    return buildAstFromSchedule(scop.context, marked, prefix, keepMark, 0,
                                mode);
  };
  isl::union_map order = dependenceOrder(deps, scop.ctx);
  return verifiedAst(scop.ctx, build, [&](const isl::ast_node &ast) {
    return verifyExecution(executionTimes(ast, scop.context,
                                          statementLeaves(schedule.get_domain())),
                           schedule.get_domain(), order, scop.context,
                           {false, 0});
  });
}

} // namespace polycuda::polyhedral
