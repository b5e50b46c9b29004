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

#include "Check.h"
#include "IslExtras.h"

#include <isl/ast_build.h>
#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/schedule_node.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <thread>
#include <utility>

namespace polycuda::polyhedral {

namespace {

/// Grid extent of mapped member `d` of `kernel` at the current host point:
/// floor(max s / T) - floor(min s / T) + 1, over the build's schedule space.
isl::pw_aff gridExtent(const Kernel &kernel, unsigned d,
                       const isl::union_map &hostSchedule) {
  isl::union_map relation =
      hostSchedule.reverse().apply_range(kernel.memberSchedules[d]);
  isl::map range = relation.as_map();
  isl::val size(range.ctx(), kernel.blockSize[d]);
  isl::pw_aff lowest =
      kernel.globalOffset[d]
          ? liftToSpace(kernel.offsets[d], range.get_space().domain())
          : range.lexmin_pw_multi_aff().at(0).scale_down(size).floor();
  isl::pw_aff highest =
      range.lexmax_pw_multi_aff().at(0).scale_down(size).floor();
  return highest.sub(lowest).add(
      constantOn(range.get_space().domain(), 1));
}

isl::ast_node makeLaunch(const GpuProgram &program, const isl::id &mark,
                         const isl::ast_build &build) {
  const Kernel *found = program.findKernel(mark.name());
  if (!found)
    return isl::ast_node();
  const Kernel &kernel = *found;
  const std::string &name = kernel.name;
  isl::union_map hostSchedule =
      build.get_schedule().intersect_domain(kernel.instances);
  std::vector<isl::ast_expr> args;
  for (unsigned d = 0; d < kernel.numMapped; ++d)
    args.push_back(build.expr_from(gridExtent(kernel, d, hostSchedule)));
  // The kernel is parameterized by the values of the tree's prefix schedule.
  // isl's AST generator may shift or drop host loop dimensions (strides,
  // single values), so these values are expressed in terms of the loops it
  // actually generated rather than assumed to be its iterators.
  if (kernel.hostDepth > 0) {
    isl::map toPrefix =
        hostSchedule.reverse().apply_range(kernel.hostSchedule).as_map();
    POLYCUDA_CHECK(toPrefix.is_single_valued())
        << "host iteration does not determine the prefix of " << name;
    isl::pw_multi_aff prefix =
        isl::manage(isl_pw_multi_aff_from_map(toPrefix.release()));
    for (unsigned i = 0; i < kernel.hostDepth; ++i)
      args.push_back(build.expr_from(prefix.at(i)));
  }
  // The launch condition: the host points at which the kernel has
  // instances. The grid extents above are only defined there, and the
  // kernel's AST assumes them (its context); isl would otherwise have
  // expressed the condition through the loop bounds of the subtree that the
  // launch replaces (a skewed kernel ran where it has no instances).
  isl::set active =
      isl::manage(isl_set_from_union_set(hostSchedule.range().release()));
  args.push_back(isl::manage(
      isl_ast_build_expr_from_set(build.get(), active.release())));
  return makeCallNode(build.ctx(), name, args);
}

/// The schedule of each kernel's subtree, over its instances with the host
/// iterators as parameters, in the order of `program.kernels`.
void kernelTrees(const GpuProgram &program, const isl::schedule_node &node,
                 std::vector<isl::schedule> &trees) {
  if (isl_schedule_node_get_type(node.get()) == isl_schedule_node_mark) {
    isl::id id = isl::manage(isl_schedule_node_mark_get_id(node.get()));
    if (const Kernel *kernel = program.findKernel(id.name())) {
      trees[kernel->id] = subtreeAsSchedule(node.child(0), kernel->domain);
      return;
    }
  }
  for (int i = 0, n = isl_schedule_node_n_children(node.get()); i < n; ++i)
    kernelTrees(program, node.child(i), trees);
}

/// The tree the host AST is generated from: `node`'s, with the nodes that
/// bind each kernel's tiles to blocks and threads removed (above the
/// kernel's band: a filter, the tile band, two marks, a filter). The host
/// AST replaces every kernel's subtree by a launch; with the block and
/// thread ids in it, isl would hoist conditions on them out of the kernel.
isl::schedule_node withoutThreadMapping(const GpuProgram &program,
                                        isl::schedule_node node) {
  if (isl_schedule_node_get_type(node.get()) == isl_schedule_node_mark) {
    isl::id id = isl::manage(isl_schedule_node_mark_get_id(node.get()));
    if (const Kernel *kernel = program.findKernel(id.name())) {
      if (kernel->numMapped == 0)
        return node;
      node = node.child(0);
      for (int i = 0; i < 5; ++i)
        node = isl::manage(isl_schedule_node_delete(node.release()));
      return node.parent();
    }
  }
  for (int i = 0, n = isl_schedule_node_n_children(node.get()); i < n; ++i)
    node = withoutThreadMapping(program, node.child(i)).parent();
  return node;
}

/// The device AST of a kernel from its tree; from the tree flattened to one
/// map when isl fails on the tree (then with the fallbacks of
/// buildAstFromMap).
isl::ast_node buildKernelAst(const isl::set &context,
                             const isl::schedule &tree,
                             const std::string &prefix, unsigned tiles) {
  auto none = [](const isl::id &, const isl::ast_node &,
                 const isl::ast_build &) { return isl::ast_node(); };
  try {
    // The tile loops take one value each (the block's), so isl generates
    // no loop for them; the kernel's loops are numbered from below them.
    return buildAstFromSchedule(context, tree, prefix, none, tiles);
  } catch (const isl::exception_quota &) {
    throw;
  } catch (const isl::exception &) {
    isl_ctx_reset_error(context.ctx().get());
    return buildAstFromMap(context, coalesced(tree.get_map()), prefix);
  }
}

/// Inserts parallel marks above the outermost coincident loops.
isl::schedule_node markParallel(isl::schedule_node node,
                                const std::string &prefix) {
  if (isl_schedule_node_get_type(node.get()) == isl_schedule_node_band) {
    if (isCoincident(node, 0)) {
      if (isl_schedule_node_band_n_member(node.get()) > 1)
        node = isl::manage(isl_schedule_node_band_split(node.release(), 1));
      unsigned depth = isl_schedule_node_get_schedule_depth(node.get());
      return node.insert_mark(parallelMark(prefix + std::to_string(depth)));
    }
    if (isl_schedule_node_band_n_member(node.get()) > 1)
      node = isl::manage(isl_schedule_node_band_split(node.release(), 1));
  }
  int n = isl_schedule_node_n_children(node.get());
  for (int i = 0; i < n; ++i)
    node = markParallel(node.child(i), prefix).parent();
  return node;
}

} // namespace

std::string parallelMark(const std::string &iterator) {
  return std::string(kParallelMark) + "_" + iterator;
}

void generateGpuAsts(GpuProgram &program) {
  const Scop &scop = *program.scop;
  // Kernel ASTs are independent of each other and of the host AST, and
  // generating them is a good part of the translation time: a second
  // thread builds about half of them while this one builds the rest and
  // the host AST. It works in an isl context of its own (isl contexts are
  // not shared between threads), so its kernels' schedules and contexts
  // travel as text; their ASTs stay in that context, which the program
  // keeps (GpuProgram::astContext) for as long as it prints them.
  // Coalesced, a schedule has fewer pieces to separate: the same code,
  // generated faster (adi's kernels: about a quarter of the time).
  std::vector<Kernel *> here, there;
  {
    // Largest first, each to the thread with less work; the host AST
    // counts as much as the largest kernel.
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
  std::vector<isl::schedule> trees(program.kernels.size());
  isl::schedule_node root = program.schedule.get_root();
  if (isl_schedule_node_n_children(root.get()) > 0)
    kernelTrees(program, root.child(0), trees);
  struct Job {
    std::string schedule, context;
    unsigned tiles;
    isl_ast_node *ast = nullptr;
  };
  std::vector<Job> jobs;
  for (Kernel *kernel : there)
    jobs.push_back({toString(trees[kernel->id]), toString(kernel->context),
                    kernel->numMapped});
  std::string prefix = program.names.kernelIterator;
  unsigned long limit = isl_ctx_get_max_operations(isl::ctx(scop.ctx).get());
  std::exception_ptr failure;
  std::shared_ptr<isl_ctx> other;
  std::thread worker;
  if (!jobs.empty()) {
    other.reset(isl_ctx_alloc(), isl_ctx_free);
    isl_options_set_on_error(other.get(), ISL_ON_ERROR_CONTINUE);
    worker = std::thread([&jobs, &failure, prefix, limit, ctx = other.get()] {
      try {
        OperationLimit bound(isl::ctx(ctx), limit);
        for (Job &job : jobs)
          job.ast = buildKernelAst(isl::set(isl::ctx(ctx), job.context),
                                   isl::schedule(isl::ctx(ctx), job.schedule),
                                   prefix, job.tiles)
                        .release();
      } catch (...) {
        failure = std::current_exception();
      }
    });
  }
  // However this thread leaves (an isl error here too): the worker is
  // joined and what it built but nobody took is freed, before `other`.
  struct Cleanup {
    std::thread &thread;
    std::vector<Job> &jobs;
    ~Cleanup() {
      if (thread.joinable())
        thread.join();
      for (Job &job : jobs)
        isl_ast_node_free(job.ast);
    }
  } cleanup{worker, jobs};
  for (Kernel *kernel : here)
    kernel->ast = buildKernelAst(kernel->context, trees[kernel->id], prefix,
                                 kernel->numMapped);
  isl::schedule host = program.schedule;
  if (isl_schedule_node_n_children(root.get()) > 0)
    host = withoutThreadMapping(program, root.child(0)).get_schedule();
  program.host = buildAstFromSchedule(
      scop.context, host, program.names.hostIterator,
      [&](const isl::id &mark, const isl::ast_node &,
          const isl::ast_build &build) {
        return makeLaunch(program, mark, build);
      });
  if (worker.joinable())
    worker.join();
  program.astContext = other;
  for (size_t i = 0; i < jobs.size(); ++i)
    there[i]->ast = isl::manage(std::exchange(jobs[i].ast, nullptr));
  if (failure)
    std::rethrow_exception(failure);
}

isl::ast_node generateCAst(const Scop &scop, const isl::schedule &schedule,
                           const std::string &prefix) {
  isl::schedule marked = schedule;
  isl::schedule_node root = schedule.get_root();
  if (isl_schedule_node_n_children(root.get()) > 0)
    marked = markParallel(root.child(0), prefix).get_schedule();
  return buildAstFromSchedule(
      scop.context, marked, prefix,
      [](const isl::id &, const isl::ast_node &, const isl::ast_build &) {
        return isl::ast_node();
      });
}

} // namespace polycuda::polyhedral
