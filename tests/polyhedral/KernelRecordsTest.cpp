//===- KernelRecordsTest.cpp - Kernels and added statements by record ----===//
//
// A kernel is found from its mark's id (GpuProgram::kernelOf), never from a
// name; a statement a GPU pass added to a kernel's tree is found in the
// kernel's registry (Kernel::added) with what it does. On hand-built scops
// through runGpuPipeline: every leaf of a kernel's AST is a statement of the
// kernel or a registered addition, and every launch of the host AST calls
// its kernel's mark.
//
//===----------------------------------------------------------------------===//
#include "Pipeline.h"

#include "IslTestSupport.h"

#include <algorithm>
#include <functional>

namespace polycuda::test {
namespace {

using polyhedral::AddedOp;
using polyhedral::GpuProgram;
using polyhedral::Kernel;
using polyhedral::PipelineOptions;
using polyhedral::runGpuPipeline;

using KernelRecordsTest = IslTest;

/// Calls `fn` on the call expression of every leaf below `node`.
void forEachLeaf(const isl::ast_node &node,
                 const std::function<void(const isl::ast_expr_op &)> &fn) {
  if (node.is_null())
    return;
  if (node.isa<isl::ast_node_for>()) {
    forEachLeaf(node.as<isl::ast_node_for>().body(), fn);
  } else if (node.isa<isl::ast_node_if>()) {
    isl::ast_node_if branch = node.as<isl::ast_node_if>();
    forEachLeaf(branch.then_node(), fn);
    if (branch.has_else_node())
      forEachLeaf(branch.else_node(), fn);
  } else if (node.isa<isl::ast_node_block>()) {
    isl::ast_node_list list = node.as<isl::ast_node_block>().children();
    for (unsigned i = 0; i < list.size(); ++i)
      forEachLeaf(list.at(i), fn);
  } else if (node.isa<isl::ast_node_mark>()) {
    forEachLeaf(node.as<isl::ast_node_mark>().node(), fn);
  } else if (node.isa<isl::ast_node_user>()) {
    fn(node.as<isl::ast_node_user>().expr().as<isl::ast_expr_op>());
  }
}

isl::id functionOf(const isl::ast_expr_op &call) {
  return call.arg(0).as<isl::ast_expr_id>().id();
}

TEST(AddedStatementTest, RegistryGivesWhatEachStatementDoes) {
  Kernel kernel;
  std::string load = kernel.addStatement(AddedOp::RegisterLoad, 3);
  std::string copy = kernel.addStatement(AddedOp::SharedCopy, 1);
  std::string barrier = kernel.addStatement(AddedOp::BlockBarrier, 1);
  EXPECT_NE(load, copy);
  EXPECT_NE(copy, barrier);
  ASSERT_NE(nullptr, kernel.addedStatement(load));
  EXPECT_EQ(AddedOp::RegisterLoad, kernel.addedStatement(load)->op);
  EXPECT_EQ(3u, kernel.addedStatement(load)->index);
  ASSERT_NE(nullptr, kernel.addedStatement(copy));
  EXPECT_EQ(AddedOp::SharedCopy, kernel.addedStatement(copy)->op);
  EXPECT_EQ(1u, kernel.addedStatement(copy)->index);
  ASSERT_NE(nullptr, kernel.addedStatement(barrier));
  EXPECT_EQ(AddedOp::BlockBarrier, kernel.addedStatement(barrier)->op);
  // A statement of the scop is not an addition, whatever its name.
  EXPECT_EQ(nullptr, kernel.addedStatement("S0"));
  // Another kernel's registry is its own.
  Kernel other;
  EXPECT_EQ(nullptr, other.addedStatement(load));
}

TEST_F(KernelRecordsTest, KernelsAreFoundByTheirMarkNotTheirName) {
  auto scop = jacobiScop(ctx());
  GpuProgram program = runGpuPipeline(*scop, PipelineOptions());
  ASSERT_FALSE(program.kernels.empty());
  for (const Kernel &kernel : program.kernels) {
    EXPECT_EQ(&kernel, program.kernelOf(kernel.mark));
    // An id of the same name is not the kernel's mark.
    EXPECT_EQ(nullptr, program.kernelOf(isl::id(ctx(), kernel.name)));
  }
  // Every launch of the host AST calls its kernel's mark.
  unsigned launches = 0;
  forEachLeaf(program.host, [&](const isl::ast_expr_op &call) {
    isl::id fn = functionOf(call);
    if (program.isHostStatement(fn.name()))
      return;
    const Kernel *kernel = program.kernelOf(fn);
    ASSERT_NE(nullptr, kernel) << fn.name();
    EXPECT_EQ(kernel->name, fn.name());
    ++launches;
  });
  EXPECT_EQ(program.kernels.size(), launches);
}

TEST_F(KernelRecordsTest, KernelLeavesAreStatementsOrRegisteredAdditions) {
  auto scop = gemmScop(ctx());
  GpuProgram program = runGpuPipeline(*scop, PipelineOptions());
  ASSERT_FALSE(program.kernels.empty());
  unsigned added = 0;
  for (const Kernel &kernel : program.kernels) {
    forEachLeaf(kernel.ast, [&](const isl::ast_expr_op &call) {
      std::string name = functionOf(call).name();
      bool statement =
          std::find(kernel.statements.begin(), kernel.statements.end(),
                    name) != kernel.statements.end();
      EXPECT_TRUE(statement || kernel.addedStatement(name)) << name;
      added += kernel.addedStatement(name) != nullptr;
    });
    // Each shared tile and register accumulator left in the kernel has its
    // copies registered.
    for (unsigned t = 0; t < kernel.sharedTiles.size(); ++t)
      EXPECT_TRUE(std::any_of(
          kernel.added.begin(), kernel.added.end(), [&](const auto &entry) {
            return entry.second.op == AddedOp::SharedCopy &&
                   entry.second.index == t;
          }));
    for (unsigned a = 0; a < kernel.accumulators.size(); ++a)
      EXPECT_TRUE(std::any_of(
          kernel.added.begin(), kernel.added.end(), [&](const auto &entry) {
            return entry.second.op == AddedOp::RegisterLoad &&
                   entry.second.index == a;
          }));
  }
  // gemm's accumulation keeps C[i][j] in a register across k.
  EXPECT_GT(added, 0u);
}

} // namespace
} // namespace polycuda::test
