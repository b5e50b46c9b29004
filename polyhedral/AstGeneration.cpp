//===- AstGeneration.cpp - Host and kernel ASTs with isl ------------------===//
//
// Stage 5: GpuProgram -> host AST + kernel ASTs (see AstGeneration.h).
// The host AST is generated from the whole marked tree; at each kernel mark
// the subtree's AST is replaced by a launch whose grid extents are computed
// from the AST build, i.e. as functions of the enclosing host iterators.
//
//===----------------------------------------------------------------------===//
#include "AstGeneration.h"

#include "Check.h"
#include "IslExtras.h"

#include <isl/ast_build.h>
#include <isl/schedule_node.h>

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
  std::string name = mark.name();
  if (name.rfind("kernel", 0) != 0)
    return isl::ast_node();
  unsigned id = std::stoul(name.substr(6));
  POLYCUDA_CHECK(id < program.kernels.size()) << "unknown kernel " << name;
  const Kernel &kernel = program.kernels[id];
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
  return makeCallNode(build.ctx(), name, args);
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
  // Coalesced, the schedule has fewer pieces to separate: the same code,
  // generated faster (adi's kernels: about a quarter of the time).
  for (Kernel &kernel : program.kernels)
    kernel.ast = buildAstFromMap(kernel.context, kernel.schedule.coalesce(),
                                 program.names.kernelIterator);
  program.host = buildAstFromSchedule(
      scop.context, program.schedule, program.names.hostIterator,
      [&](const isl::id &mark, const isl::ast_build &build) {
        return makeLaunch(program, mark, build);
      });
}

isl::ast_node generateCAst(const Scop &scop, const isl::schedule &schedule,
                           const std::string &prefix) {
  isl::schedule marked = schedule;
  isl::schedule_node root = schedule.get_root();
  if (isl_schedule_node_n_children(root.get()) > 0)
    marked = markParallel(root.child(0), prefix).get_schedule();
  return buildAstFromSchedule(
      scop.context, marked, prefix,
      [](const isl::id &, const isl::ast_build &) { return isl::ast_node(); });
}

} // namespace polycuda::polyhedral
