//===- GpuProgram.cpp - The records of the mapped program -----------------===//
//
// The methods of GpuProgram.h's records: the statements a pass adds to a
// kernel's tree, kernels found from their marks, the payloads of the
// marks passes insert.
//
//===----------------------------------------------------------------------===//
#include "GpuProgram.h"

#include "Check.h"
#include "IslExtras.h"

namespace polycuda::polyhedral {

const Kernel *GpuProgram::findKernel(const std::string &name) const {
  for (const Kernel &kernel : kernels)
    if (kernel.name == name)
      return &kernel;
  return nullptr;
}

std::string Kernel::addStatement(AddedOp op, unsigned index) {
  std::string number = std::to_string(index);
  std::string name;
  switch (op) {
  case AddedOp::RegisterLoad:
    name = "polycuda_load_" + number;
    break;
  case AddedOp::RegisterStore:
    name = "polycuda_store_" + number;
    break;
  case AddedOp::SharedOffsets:
    name = "polycuda_offsets_" + number;
    break;
  case AddedOp::SharedCopy:
    name = "polycuda_copy_" + number;
    break;
  case AddedOp::SharedWriteback:
    name = "polycuda_writeback_" + number;
    break;
  case AddedOp::BlockBarrier:
    name = "polycuda_sync_" + number;
    break;
  case AddedOp::GridBarrier:
    name = "polycuda_sync_global";
    break;
  case AddedOp::Reduce:
    name = "polycuda_reduce_" + number;
    break;
  case AddedOp::Combine:
    name = "polycuda_combine_" + number;
    break;
  }
  added[name] = {op, index};
  return name;
}

const Kernel *GpuProgram::kernelOf(const isl::id &mark) const {
  std::optional<KernelMark> found = mark.try_user<KernelMark>();
  if (!found)
    return nullptr;
  POLYCUDA_CHECK(found->kernel < kernels.size() &&
                 kernels[found->kernel].mark.get() == mark.get())
      << "a kernel mark of another program: " << mark.name();
  return &kernels[found->kernel];
}

isl::schedule_node findKernelMark(const isl::schedule_node &node,
                                  const Kernel &kernel) {
  if (node.isa<isl::schedule_node_mark>() &&
      markId(node).get() == kernel.mark.get())
    return node;
  for (int i = 0, n = node.n_children(); i < n; ++i) {
    isl::schedule_node found = findKernelMark(node.child(i), kernel);
    if (!found.is_null())
      return found;
  }
  return isl::schedule_node();
}

std::vector<isl::ast_node> topLevelParts(const isl::ast_node &host) {
  std::vector<isl::ast_node> parts;
  if (host.is_null())
    return parts;
  if (host.isa<isl::ast_node_block>()) {
    isl::ast_node_list children = host.as<isl::ast_node_block>().children();
    for (unsigned i = 0; i < children.size(); ++i)
      parts.push_back(children.at(i));
  } else {
    parts.push_back(host);
  }
  return parts;
}

isl::id gpuMark(isl::ctx ctx, GpuMark mark) {
  std::string name;
  switch (mark.kind) {
  case MarkKind::Host:
    name = "host";
    break;
  case MarkKind::Shared:
    name = "shared";
    break;
  case MarkKind::Thread:
    name = "thread";
    break;
  case MarkKind::Steps:
    name = "polycuda_steps";
    break;
  case MarkKind::Unroll:
    name = "polycuda_unroll";
    for (long extent : mark.extents)
      name += "_" + std::to_string(extent);
    break;
  case MarkKind::Parallel:
    name = "omp_parallel_" + mark.loop;
    break;
  }
  return isl::id(ctx, name, std::move(mark));
}

std::optional<GpuMark> gpuMarkOf(const isl::id &id) {
  return id.try_user<GpuMark>();
}

bool isMark(const isl::schedule_node &node, MarkKind kind) {
  if (!node.isa<isl::schedule_node_mark>())
    return false;
  std::optional<GpuMark> mark = gpuMarkOf(markId(node));
  return mark && mark->kind == kind;
}

} // namespace polycuda::polyhedral
