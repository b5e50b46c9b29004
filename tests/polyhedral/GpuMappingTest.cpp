//===- GpuMappingTest.cpp - Unit tests of the GPU pipeline ----------------===//
//
// runGpuPipeline on hand-built scops: kernels, mapped members, host depth,
// block sizes and hardware dimensions, and the device transfers.
//
//===----------------------------------------------------------------------===//
#include "Pipeline.h"

#include "IslTestSupport.h"

#include <isl/ast.h>

namespace polycuda::test {
namespace {

using polyhedral::GpuProgram;
using polyhedral::Kernel;
using polyhedral::PipelineOptions;
using polyhedral::runGpuPipeline;
using polyhedral::Transfer;

using GpuMappingTest = IslTest;

std::string describe(const GpuProgram &program) {
  std::string text = polyhedral::toString(program.schedule) + "\n";
  for (const Kernel &kernel : program.kernels) {
    text += "kernel" + std::to_string(kernel.id) +
            ": hostDepth=" + std::to_string(kernel.mapping->hostDepth) +
            " numMapped=" + std::to_string(kernel.mapping->numMapped) +
            " blockSize=";
    for (unsigned size : kernel.mapping->blockSize)
      text += std::to_string(size) + ",";
    text += " hardwareDim=";
    for (unsigned dim : kernel.mapping->hardwareDim)
      text += std::to_string(dim) + ",";
    text += "\n";
  }
  return text;
}

const Transfer *transferOf(const GpuProgram &program, const std::string &name) {
  for (const Transfer &transfer : program.transfers)
    if (program.scop->arrays[transfer.array].name == name)
      return &transfer;
  return nullptr;
}

/// `for i, j, k: A[i][j][k] = B[i][j][k];` (fully parallel, 3-D)
std::unique_ptr<polyhedral::Scop> copy3dScop(isl::ctx ctx) {
  auto scop = newScop(ctx, {"n"}, "[n] -> { : }");
  addArray(*scop, "A", {"[n] -> { [(n)] }", "[n] -> { [(n)] }", "[n] -> { [(n)] }"});
  addArray(*scop, "B", {"[n] -> { [(n)] }", "[n] -> { [(n)] }", "[n] -> { [(n)] }"});
  addStatement(*scop, "S0",
               "[n] -> { S0[i, j, k] : 0 <= i < n and 0 <= j < n and 0 <= k < n }",
               {"i", "j", "k"}, {0, 0, 0, 0},
               {{Read, "B", "[n] -> { S0[i, j, k] -> B[i, j, k] }"},
                {Write, "A", "[n] -> { S0[i, j, k] -> A[i, j, k] }"}});
  scop->originalSchedule =
      isl::union_map(ctx, "[n] -> { S0[i, j, k] -> [0, i, 0, j, 0, k, 0] }");
  return scop;
}

TEST_F(GpuMappingTest, GemmIsOneKernelWithTwoMappedMembers) {
  auto scop = gemmScop(ctx());
  GpuProgram program = runGpuPipeline(*scop, PipelineOptions());
  ASSERT_EQ(1u, program.kernels.size()) << describe(program);
  const Kernel &kernel = program.kernels[0];
  EXPECT_EQ(0u, kernel.id);
  EXPECT_EQ(0u, kernel.mapping->hostDepth) << describe(program);
  EXPECT_EQ(2u, kernel.mapping->numMapped) << describe(program);
  // The innermost mapped member (j) is x; the default 2-D block is 32 x 8.
  EXPECT_EQ((std::vector<unsigned>{1, 0}), kernel.mapping->hardwareDim);
  EXPECT_EQ((std::vector<unsigned>{8, 32}), kernel.mapping->blockSize);
  ASSERT_EQ(2u, kernel.mapping->memberSchedules.size());
  EXPECT_ISL_EQ(isl::union_map(ctx(), "[ni, nj, nk] -> { S0[i, j, k] -> [i] }")
                    .intersect_domain(scop->domain()),
                kernel.mapping->memberSchedules[0]);
  EXPECT_ISL_EQ(isl::union_map(ctx(), "[ni, nj, nk] -> { S0[i, j, k] -> [j] }")
                    .intersect_domain(scop->domain()),
                kernel.mapping->memberSchedules[1]);
  EXPECT_ISL_EQ(scop->domain(), kernel.instances);
  EXPECT_EQ((std::vector<unsigned>{0, 1, 2}), kernel.arrays);
  EXPECT_EQ((std::vector<std::string>{"S0"}), kernel.statements);
  EXPECT_FALSE(program.scheduleIsFallback());
  ASSERT_FALSE(program.host.is_null());
  // Launches are user nodes named after the kernel's mark.
  EXPECT_EQ("S0", kernel.name);
  EXPECT_EQ("S0", kernel.mark.name());
  // The mark carries the kernel's mapping record, the one Kernel reads.
  std::optional<polyhedral::KernelMark> mark =
      kernel.mark.try_user<polyhedral::KernelMark>();
  ASSERT_TRUE(mark.has_value());
  EXPECT_EQ(0u, mark->kernel);
  EXPECT_EQ(kernel.mapping.get(), mark->mapping.get());
  EXPECT_NE(std::string::npos, program.host.to_C_str().find("S0("))
      << program.host.to_C_str();
  ASSERT_FALSE(kernel.ast.is_null());
}

TEST_F(GpuMappingTest, GemmKernelIsATiledSubtreeUnderItsMark) {
  auto scop = gemmScop(ctx());
  // The mapping alone: no shared tiles, no registers (MemoryPromotionTest).
  PipelineOptions options;
  options.shared = options.registers = false;
  GpuProgram program = runGpuPipeline(*scop, options);
  ASSERT_EQ(1u, program.kernels.size()) << describe(program);
  isl::schedule_node mark = program.schedule.get_root().child(0);
  ASSERT_EQ(isl_schedule_node_mark, isl_schedule_node_get_type(mark.get()));
  EXPECT_EQ("S0", isl::manage(isl_schedule_node_mark_get_id(mark.get())).name());
  // mark, block filter, tile band, "shared", "thread", thread filter,
  // the scheduler's band (i, j, k), leaf.
  EXPECT_EQ((std::vector<isl_schedule_node_type>{
                isl_schedule_node_mark, isl_schedule_node_filter,
                isl_schedule_node_band, isl_schedule_node_mark,
                isl_schedule_node_mark, isl_schedule_node_filter,
                isl_schedule_node_band, isl_schedule_node_leaf}),
            spine(mark))
      << describe(program);
  isl::schedule_node tiles = mark.child(0).child(0);
  isl::multi_union_pw_aff tile =
      tiles.as<isl::schedule_node_band>().get_partial_schedule();
  // Blocks of 8 (i, y) x 32 (j, x).
  EXPECT_ISL_EQ(isl::union_map(ctx(), "[ni, nj, nk] -> { S0[i, j, k] -> "
                                      "[floor(i / 8), floor(j / 32)] }")
                    .intersect_domain(scop->domain()),
                isl::union_map::from(tile).intersect_domain(scop->domain()));
  EXPECT_EQ("shared", isl::manage(isl_schedule_node_mark_get_id(
                                      tiles.child(0).get()))
                          .name());
  EXPECT_EQ("thread", isl::manage(isl_schedule_node_mark_get_id(
                                      tiles.child(0).child(0).get()))
                          .name());
  // Block b0 runs the rows 8 * b0 .. 8 * b0 + 7 (the first tile is 0), and
  // thread t1 the columns equal to t1 modulo 32.
  isl::union_set blocks = isl::manage(
      isl_schedule_node_filter_get_filter(mark.child(0).get()));
  EXPECT_ISL_EQ(isl::union_set(ctx(), "[ni, nj, nk, b0, b1] -> { S0[i, j, k] "
                                      ": 8b0 <= i < 8b0 + 8 and "
                                      "32b1 <= j < 32b1 + 32 }")
                    .intersect(scop->domain()),
                blocks);
  // The kernel's code has one loop, k's: blocks and threads are fixed.
  std::string code = program.kernels[0].ast.to_C_str();
  EXPECT_NE(std::string::npos, code.find("for (int k2 = 0; k2 < nk; k2 += 1)"))
      << code;
  EXPECT_EQ(std::string::npos, code.find("for (int k0")) << code;
  EXPECT_EQ(std::string::npos, code.find("for (int k1")) << code;
  EXPECT_EQ(std::string::npos, code.find("k64")) << code;
}

TEST_F(GpuMappingTest, BlockSizesByStableName) {
  auto scop = gemmScop(ctx());
  PipelineOptions options;
  options.mapping.blockSizes["S0"] = {64, 2};
  GpuProgram program = runGpuPipeline(*scop, options);
  ASSERT_EQ(1u, program.kernels.size()) << describe(program);
  EXPECT_EQ((std::vector<unsigned>{2, 64}),
            program.kernels[0].mapping->blockSize);
}

TEST_F(GpuMappingTest, BlockSizeOverridesAreInHardwareOrder) {
  auto scop = gemmScop(ctx());
  PipelineOptions options;
  options.mapping.blockSizes["kernel0"] = {16, 4}; // x = 16, y = 4
  GpuProgram program = runGpuPipeline(*scop, options);
  ASSERT_EQ(1u, program.kernels.size()) << describe(program);
  EXPECT_EQ((std::vector<unsigned>{4, 16}),
            program.kernels[0].mapping->blockSize);
  EXPECT_EQ((std::vector<unsigned>{1, 0}),
            program.kernels[0].mapping->hardwareDim);
}

TEST_F(GpuMappingTest, MissingAndZeroBlockSizesBecomeOne) {
  auto scop = gemmScop(ctx());
  PipelineOptions options;
  options.mapping.blockSizes["kernel0"] = {0};
  GpuProgram program = runGpuPipeline(*scop, options);
  ASSERT_EQ(1u, program.kernels.size()) << describe(program);
  EXPECT_EQ((std::vector<unsigned>{1, 1}),
            program.kernels[0].mapping->blockSize);
}

TEST_F(GpuMappingTest, OverridesOfOtherKernelsAreIgnored) {
  auto scop = gemmScop(ctx());
  PipelineOptions options;
  options.mapping.blockSizes["kernel7"] = {2, 2};
  options.mapping.blockSizes["S1"] = {2, 2};
  options.mapping.default2D = {64, 2};
  GpuProgram program = runGpuPipeline(*scop, options);
  ASSERT_EQ(1u, program.kernels.size()) << describe(program);
  EXPECT_EQ((std::vector<unsigned>{2, 64}),
            program.kernels[0].mapping->blockSize);
}

TEST_F(GpuMappingTest, ThreeParallelLoopsMapToZYX) {
  auto scop = copy3dScop(ctx());
  GpuProgram program = runGpuPipeline(*scop, PipelineOptions());
  ASSERT_EQ(1u, program.kernels.size()) << describe(program);
  const Kernel &kernel = program.kernels[0];
  EXPECT_EQ(3u, kernel.mapping->numMapped);
  EXPECT_EQ(0u, kernel.mapping->hostDepth);
  EXPECT_EQ((std::vector<unsigned>{2, 1, 0}), kernel.mapping->hardwareDim);
  EXPECT_EQ((std::vector<unsigned>{2, 4, 32}), kernel.mapping->blockSize);
}

TEST_F(GpuMappingTest, SequentialScopIsOneKernelWithoutMappedMembers) {
  auto scop = sequentialScop(ctx());
  GpuProgram program = runGpuPipeline(*scop, PipelineOptions());
  ASSERT_EQ(1u, program.kernels.size()) << describe(program);
  const Kernel &kernel = program.kernels[0];
  EXPECT_EQ(0u, kernel.mapping->numMapped);
  EXPECT_EQ(0u, kernel.mapping->hostDepth);
  EXPECT_TRUE(kernel.mapping->blockSize.empty());
  EXPECT_TRUE(kernel.mapping->memberSchedules.empty());
  EXPECT_ISL_EQ(scop->domain(), kernel.instances);
  ASSERT_FALSE(kernel.ast.is_null());
}

TEST_F(GpuMappingTest, RecurrenceIsOneSingleThreadKernel) {
  auto scop = recurrenceScop(ctx());
  GpuProgram program = runGpuPipeline(*scop, PipelineOptions());
  ASSERT_EQ(1u, program.kernels.size()) << describe(program);
  EXPECT_EQ(0u, program.kernels[0].mapping->numMapped);
  EXPECT_EQ(0u, program.kernels[0].mapping->hostDepth);
}

TEST_F(GpuMappingTest, TimeLoopStaysOnTheHost) {
  auto scop = jacobiScop(ctx());
  GpuProgram program = runGpuPipeline(*scop, PipelineOptions());
  ASSERT_FALSE(program.kernels.empty()) << describe(program);
  isl::union_set covered = isl::union_set::empty(ctx());
  for (const Kernel &kernel : program.kernels) {
    EXPECT_EQ(1u, kernel.mapping->hostDepth) << describe(program);
    EXPECT_GE(kernel.mapping->numMapped, 1u) << describe(program);
    covered = covered.unite(kernel.instances);
    // The host iterator c0 is a parameter of the kernel's instances.
    isl::set params = isl::manage(isl_union_set_params(kernel.domain.copy()));
    EXPECT_GE(isl_set_find_dim_by_name(params.get(), isl_dim_param, "c0"), 0)
        << polyhedral::toString(kernel.domain);
  }
  EXPECT_ISL_EQ(scop->domain(), covered);
  std::string host = program.host.to_C_str();
  EXPECT_NE(std::string::npos, host.find("for (int c0")) << host;
}

TEST_F(GpuMappingTest, KernelsPartitionTheInstances) {
  auto scop = producerConsumerScop(ctx());
  GpuProgram program = runGpuPipeline(*scop, PipelineOptions());
  ASSERT_FALSE(program.kernels.empty()) << describe(program);
  isl::union_set covered = isl::union_set::empty(ctx());
  for (const Kernel &kernel : program.kernels) {
    EXPECT_TRUE(covered.intersect(kernel.instances).is_empty())
        << describe(program);
    covered = covered.unite(kernel.instances);
    EXPECT_EQ(kernel.mapping->blockSize.size(), kernel.mapping->numMapped);
    EXPECT_EQ(kernel.mapping->hardwareDim.size(), kernel.mapping->numMapped);
  }
  EXPECT_ISL_EQ(scop->domain(), covered);
}

TEST_F(GpuMappingTest, ReadOnlyArraysAreNotCopiedBack) {
  auto scop = gemmScop(ctx());
  GpuProgram program = runGpuPipeline(*scop, PipelineOptions());
  ASSERT_EQ(3u, program.transfers.size());
  const Transfer *a = transferOf(program, "A");
  const Transfer *b = transferOf(program, "B");
  const Transfer *c = transferOf(program, "C");
  ASSERT_TRUE(a && b && c);
  EXPECT_TRUE(a->toDevice);
  EXPECT_FALSE(a->toHost);
  EXPECT_TRUE(b->toDevice);
  EXPECT_FALSE(b->toHost);
  EXPECT_TRUE(c->toDevice);
  EXPECT_TRUE(c->toHost);
}

TEST_F(GpuMappingTest, TransferRangesCoverTheAccessedElements) {
  auto scop = gemmScop(ctx());
  scop->context = isl::set(ctx(), "[ni, nj, nk] -> { : ni > 0 and nj > 0 and nk > 0 }");
  GpuProgram program = runGpuPipeline(*scop, PipelineOptions());
  const Transfer *a = transferOf(program, "A");
  ASSERT_TRUE(a);
  ASSERT_EQ(2u, a->accessed.first.size());
  ASSERT_EQ(2u, a->accessed.last.size());
  isl::set context = scop->context;
  EXPECT_ISL_EQ(isl::pw_aff(ctx(), "[ni, nj, nk] -> { [(0)] }")
                    .intersect_params(context),
                a->accessed.first[0].intersect_params(context));
  EXPECT_ISL_EQ(isl::pw_aff(ctx(), "[ni, nj, nk] -> { [(0)] }")
                    .intersect_params(context),
                a->accessed.first[1].intersect_params(context));
  EXPECT_ISL_EQ(isl::pw_aff(ctx(), "[ni, nj, nk] -> { [(ni - 1)] }")
                    .intersect_params(context),
                a->accessed.last[0].intersect_params(context));
  EXPECT_ISL_EQ(isl::pw_aff(ctx(), "[ni, nj, nk] -> { [(nk - 1)] }")
                    .intersect_params(context),
                a->accessed.last[1].intersect_params(context));
}

TEST_F(GpuMappingTest, FullyOverwrittenArraysAreOnlyCopiedOut) {
  auto scop = producerConsumerScop(ctx());
  GpuProgram program = runGpuPipeline(*scop, PipelineOptions());
  const Transfer *a = transferOf(program, "A");
  const Transfer *c = transferOf(program, "C");
  ASSERT_TRUE(a && c);
  EXPECT_FALSE(a->toHost);
  EXPECT_TRUE(c->toHost);
  // S1 writes every element of C[0 .. n-2], the whole range copied out, and
  // reads none: nothing to copy in.
  EXPECT_FALSE(c->toDevice);
}

TEST_F(GpuMappingTest, LocalArraysAreNeverCopied) {
  auto scop = producerConsumerScop(ctx());
  scop->arrays[scop->findArray("B")].isLocal = true;
  GpuProgram program = runGpuPipeline(*scop, PipelineOptions());
  const Transfer *b = transferOf(program, "B");
  ASSERT_TRUE(b);
  EXPECT_FALSE(b->toDevice);
  EXPECT_FALSE(b->toHost);
}

} // namespace
} // namespace polycuda::test
