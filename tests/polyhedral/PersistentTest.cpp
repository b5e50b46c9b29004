//===- PersistentTest.cpp - Unit tests of the persistent-loop decision ----===//
//
// choosePersistentLoops and the marks AST generation places (through
// runGpuPipeline) on hand-built scops: one record per outermost host loop,
// persistent or not and why, and a mark node above exactly the persistent
// loops in the host AST.
//
//===----------------------------------------------------------------------===//
#include "Pipeline.h"

#include "IslTestSupport.h"

namespace polycuda::test {
namespace {

using polyhedral::GpuProgram;
using polyhedral::PipelineOptions;
using polyhedral::runGpuPipeline;

using PersistentTest = IslTest;

/// The names of the mark nodes of `node`, in preorder.
void collectMarks(const isl::ast_node &node, std::vector<std::string> &marks,
                  std::vector<isl::ast_node> &children) {
  if (node.isa<isl::ast_node_mark>()) {
    isl::ast_node_mark mark = node.as<isl::ast_node_mark>();
    marks.push_back(mark.id().name());
    children.push_back(mark.node());
    collectMarks(mark.node(), marks, children);
  } else if (node.isa<isl::ast_node_for>()) {
    collectMarks(node.as<isl::ast_node_for>().body(), marks, children);
  } else if (node.isa<isl::ast_node_if>()) {
    isl::ast_node_if branch = node.as<isl::ast_node_if>();
    collectMarks(branch.then_node(), marks, children);
    if (branch.has_else_node())
      collectMarks(branch.else_node(), marks, children);
  } else if (node.isa<isl::ast_node_block>()) {
    isl::ast_node_list list = node.as<isl::ast_node_block>().children();
    for (unsigned i = 0; i < list.size(); ++i)
      collectMarks(list.at(i), marks, children);
  }
}

/// Whether `node` holds nothing but loops, conditions and launches.
bool onlyLaunches(const GpuProgram &program, const isl::ast_node &node) {
  if (node.isa<isl::ast_node_for>())
    return onlyLaunches(program, node.as<isl::ast_node_for>().body());
  if (node.isa<isl::ast_node_if>()) {
    isl::ast_node_if branch = node.as<isl::ast_node_if>();
    return onlyLaunches(program, branch.then_node()) &&
           (!branch.has_else_node() ||
            onlyLaunches(program, branch.else_node()));
  }
  if (node.isa<isl::ast_node_block>()) {
    isl::ast_node_list list = node.as<isl::ast_node_block>().children();
    for (unsigned i = 0; i < list.size(); ++i)
      if (!onlyLaunches(program, list.at(i)))
        return false;
    return true;
  }
  if (node.isa<isl::ast_node_user>()) {
    isl::ast_expr call = node.as<isl::ast_node_user>().expr();
    std::string name =
        call.as<isl::ast_expr_op>().arg(0).as<isl::ast_expr_id>().id().name();
    return program.findKernel(name) != nullptr;
  }
  return false;
}

TEST_F(PersistentTest, TimeLoopOfLaunchesIsMarkedPersistent) {
  auto scop = jacobiScop(ctx());
  PipelineOptions options;
  options.persistent.enabled = true;
  GpuProgram program = runGpuPipeline(*scop, options);
  ASSERT_EQ(1u, program.persistentLoops.size());
  const polyhedral::PersistentLoop &loop = program.persistentLoops[0];
  EXPECT_TRUE(loop.persistent) << int(loop.why);
  EXPECT_EQ("c0", loop.loop);
  EXPECT_EQ(2u, loop.kernels.size());
  EXPECT_EQ(256u, loop.threads);
  EXPECT_FALSE(loop.singleBlock);
  EXPECT_EQ(loop.kernels.size(), program.kernels.size());
  // The host AST holds the loop below the mark, and nothing but launches
  // below it.
  std::vector<std::string> marks;
  std::vector<isl::ast_node> children;
  collectMarks(program.host, marks, children);
  ASSERT_EQ(std::vector<std::string>{"persistent_0"}, marks);
  EXPECT_TRUE(children[0].isa<isl::ast_node_for>());
  EXPECT_TRUE(onlyLaunches(program, children[0]));
  EXPECT_EQ(&loop, program.findPersistentLoop(loop.mark));
}

TEST_F(PersistentTest, DisabledLoopIsRecordedWithItsReasonAndNotMarked) {
  auto scop = jacobiScop(ctx());
  PipelineOptions options;
  options.persistent.recordOff = true;
  GpuProgram program = runGpuPipeline(*scop, options);
  ASSERT_EQ(1u, program.persistentLoops.size());
  EXPECT_FALSE(program.persistentLoops[0].persistent);
  EXPECT_EQ(polyhedral::PersistentLoop::Why::Off,
            program.persistentLoops[0].why);
  EXPECT_EQ(2u, program.persistentLoops[0].kernels.size());
  std::vector<std::string> marks;
  std::vector<isl::ast_node> children;
  collectMarks(program.host, marks, children);
  EXPECT_TRUE(marks.empty());
}

TEST_F(PersistentTest, TargetsWithoutGridBarrierRecordNothing) {
  auto scop = jacobiScop(ctx());
  GpuProgram program = runGpuPipeline(*scop, PipelineOptions());
  EXPECT_TRUE(program.persistentLoops.empty());
}

// Without a host loop there is nothing to run persistently: gemm is one
// launch, the accumulation one kernel on one thread with its loop inside.
TEST_F(PersistentTest, ScopsWithoutHostLoopsHaveNoRecord) {
  PipelineOptions options;
  options.persistent.enabled = true;
  auto gemm = gemmScop(ctx());
  EXPECT_TRUE(runGpuPipeline(*gemm, options).persistentLoops.empty());
  auto sequential = sequentialScop(ctx());
  EXPECT_TRUE(runGpuPipeline(*sequential, options).persistentLoops.empty());
}

} // namespace
} // namespace polycuda::test
