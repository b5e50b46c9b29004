//===- BlockSizesTest.cpp - Block sizes fitted to the GPU -----------------===//
//
// fitBlockToDevice on given bounds, instancesInBounds and boundExtent on
// isl strings, and the block sizes runGpuPipeline chooses for hand-built
// scops: trmm at PolyBench LARGE sizes (one warp per block), large spaces
// (the defaults), a small 2-D space, parametric arrays (no bound) and
// `--sizes`.
//
//===----------------------------------------------------------------------===//
#include "BlockSizes.h"
#include "Pipeline.h"

#include "IslTestSupport.h"

namespace polycuda::test {
namespace {

using polyhedral::BlockSizing;
using polyhedral::DeviceModel;
using polyhedral::fitBlockToDevice;
using polyhedral::GpuProgram;
using polyhedral::Kernel;
using polyhedral::PipelineOptions;
using polyhedral::runGpuPipeline;
using Source = BlockSizing::Source;
using Bounds = std::vector<std::optional<long>>;

using BlockSizesTest = IslTest;

/// PolyBench trmm with `A[1000][1000]`, `B[1000][1200]` and the loop
/// bounds `m`, `n` parameters (as the function's arguments are):
/// `for i < m, j < n: { for i < k < m: B[i][j] += A[k][i] * B[k][j];
///                      B[i][j] = alpha * B[i][j]; }`
std::unique_ptr<polyhedral::Scop> trmmScop(isl::ctx ctx) {
  auto scop = newScop(ctx, {"m", "n"}, "[m, n] -> { : }");
  addArray(*scop, "A", {"[m, n] -> { [(1000)] }", "[m, n] -> { [(1000)] }"});
  addArray(*scop, "B", {"[m, n] -> { [(1000)] }", "[m, n] -> { [(1200)] }"});
  addStatement(*scop, "S0",
               "[m, n] -> { S0[i, j, k] : 0 <= i < m and 0 <= j < n and "
               "i < k < m }",
               {"i", "j", "k"}, {0, 0, 0, 0},
               {{Read, "B", "[m, n] -> { S0[i, j, k] -> B[i, j] }"},
                {Read, "A", "[m, n] -> { S0[i, j, k] -> A[k, i] }"},
                {Read, "B", "[m, n] -> { S0[i, j, k] -> B[k, j] }"},
                {Write, "B", "[m, n] -> { S0[i, j, k] -> B[i, j] }"}});
  addStatement(*scop, "S1",
               "[m, n] -> { S1[i, j] : 0 <= i < m and 0 <= j < n }", {"i", "j"},
               {0, 0, 1},
               {{Read, "B", "[m, n] -> { S1[i, j] -> B[i, j] }"},
                {Write, "B", "[m, n] -> { S1[i, j] -> B[i, j] }"}});
  scop->originalSchedule =
      isl::union_map(ctx, "[m, n] -> { S0[i, j, k] -> [0, i, 0, j, 0, k, 0]; "
                          "S1[i, j] -> [0, i, 0, j, 1, 0, 0] }");
  return scop;
}

/// `for i < ni, j < nj: A[i][j] = B[i][j];` with `A`, `B` of `rows` x
/// `cols` elements (constants) and parameter loop bounds.
std::unique_ptr<polyhedral::Scop> copy2dScop(isl::ctx ctx, long rows,
                                             long cols) {
  auto scop = newScop(ctx, {"ni", "nj"}, "[ni, nj] -> { : }");
  std::vector<std::string> extents = {
      "[ni, nj] -> { [(" + std::to_string(rows) + ")] }",
      "[ni, nj] -> { [(" + std::to_string(cols) + ")] }"};
  addArray(*scop, "A", extents);
  addArray(*scop, "B", extents);
  addStatement(*scop, "S0",
               "[ni, nj] -> { S0[i, j] : 0 <= i < ni and 0 <= j < nj }",
               {"i", "j"}, {0, 0, 0},
               {{Read, "B", "[ni, nj] -> { S0[i, j] -> B[i, j] }"},
                {Write, "A", "[ni, nj] -> { S0[i, j] -> A[i, j] }"}});
  scop->originalSchedule =
      isl::union_map(ctx, "[ni, nj] -> { S0[i, j] -> [0, i, 0, j, 0] }");
  return scop;
}

/// `for i < n: A[i] = B[i];` with `A`, `B` of `size` elements.
std::unique_ptr<polyhedral::Scop> copy1dScop(isl::ctx ctx, long size) {
  auto scop = newScop(ctx, {"n"}, "[n] -> { : }");
  std::string extent = "[n] -> { [(" + std::to_string(size) + ")] }";
  addArray(*scop, "A", {extent});
  addArray(*scop, "B", {extent});
  addStatement(*scop, "S0", "[n] -> { S0[i] : 0 <= i < n }", {"i"}, {0, 0},
               {{Read, "B", "[n] -> { S0[i] -> B[i] }"},
                {Write, "A", "[n] -> { S0[i] -> A[i] }"}});
  scop->originalSchedule = isl::union_map(ctx, "[n] -> { S0[i] -> [0, i, 0] }");
  return scop;
}

/// The kernel of `program` with `mapped` mapped members (the first).
const Kernel *kernelWithMapped(const GpuProgram &program, unsigned mapped) {
  for (const Kernel &kernel : program.kernels)
    if (kernel.mapping->numMapped == mapped)
      return &kernel;
  return nullptr;
}

std::string describe(const BlockSizing &sizing) {
  std::string text = "chosen";
  for (unsigned size : sizing.chosen)
    text += " " + std::to_string(size);
  return text;
}

TEST_F(BlockSizesTest, SmallOneDimensionalSpaceShrinksToOneWarp) {
  // trmm at LARGE: ceil(1200 / 256) = 5 blocks for 132 SMs; blocks of 32
  // give 38 (PPCG's choice).
  BlockSizing sizing = fitBlockToDevice({256}, Bounds{1200}, DeviceModel());
  EXPECT_EQ(Source::Shrunk, sizing.source) << describe(sizing);
  EXPECT_EQ((std::vector<unsigned>{32}), sizing.chosen);
  EXPECT_EQ((std::vector<unsigned>{256}), sizing.requested);
  EXPECT_EQ(5, sizing.requestedBlocks);
  EXPECT_EQ(38, sizing.chosenBlocks);
  EXPECT_EQ(132u, sizing.multiprocessors);
  EXPECT_EQ(5, sizing.fittedBlocks);
  EXPECT_EQ((std::vector<unsigned>{256}), sizing.fitted);
}

TEST_F(BlockSizesTest, ShrinkingStopsOnceEverySmHasABlock) {
  // 20000 / 256 = 79 blocks; 128 threads give 157 >= 132.
  BlockSizing sizing = fitBlockToDevice({256}, Bounds{20000}, DeviceModel());
  EXPECT_EQ((std::vector<unsigned>{128}), sizing.chosen) << describe(sizing);
  EXPECT_EQ(157, sizing.chosenBlocks);
}

TEST_F(BlockSizesTest, LargeSpacesKeepTheDefaults) {
  BlockSizing one = fitBlockToDevice({256}, Bounds{40000}, DeviceModel());
  EXPECT_EQ(Source::Default, one.source) << describe(one);
  EXPECT_EQ((std::vector<unsigned>{256}), one.chosen);
  EXPECT_EQ(157, one.chosenBlocks);
  BlockSizing two =
      fitBlockToDevice({32, 8}, Bounds{1000, 1000}, DeviceModel());
  EXPECT_EQ(Source::Default, two.source) << describe(two);
  EXPECT_EQ((std::vector<unsigned>{32, 8}), two.chosen);
  EXPECT_EQ(32 * 125, two.chosenBlocks);
}

TEST_F(BlockSizesTest, TwoDimensionalSpaceShrinksYBeforeX) {
  // 100 x 100: 32 x 8 gives 4 x 13 = 52 blocks, 32 x 4 100, 32 x 2 200.
  BlockSizing sizing =
      fitBlockToDevice({32, 8}, Bounds{100, 100}, DeviceModel());
  EXPECT_EQ(Source::Shrunk, sizing.source) << describe(sizing);
  EXPECT_EQ((std::vector<unsigned>{32, 2}), sizing.chosen);
  EXPECT_EQ(200, sizing.chosenBlocks);
  // 40 x 20: y reaches 1 and x stays one warp wide.
  BlockSizing tiny = fitBlockToDevice({32, 8}, Bounds{40, 20}, DeviceModel());
  EXPECT_EQ((std::vector<unsigned>{32, 1}), tiny.chosen) << describe(tiny);
  EXPECT_EQ(40, tiny.chosenBlocks);
  // 3-D: z goes first. 64 x 16 x 16: 32 x 4 x 2 gives 2 x 4 x 8 = 64
  // blocks, 32 x 4 x 1 128, 32 x 2 x 1 256.
  BlockSizing three =
      fitBlockToDevice({32, 4, 2}, Bounds{64, 16, 16}, DeviceModel());
  EXPECT_EQ((std::vector<unsigned>{32, 2, 1}), three.chosen) << describe(three);
}

TEST_F(BlockSizesTest, MissingBoundKeepsTheDefaults) {
  BlockSizing sizing =
      fitBlockToDevice({32, 8}, Bounds{100, std::nullopt}, DeviceModel());
  EXPECT_EQ(Source::Default, sizing.source) << describe(sizing);
  EXPECT_EQ((std::vector<unsigned>{32, 8}), sizing.chosen);
  EXPECT_FALSE(sizing.chosenBlocks.has_value());
  EXPECT_FALSE(sizing.extentBound[1].has_value());
}

TEST_F(BlockSizesTest, DeviceModelDecides) {
  DeviceModel small;
  small.multiprocessors = 4;
  EXPECT_EQ((std::vector<unsigned>{256}),
            fitBlockToDevice({256}, Bounds{1200}, small).chosen);
  DeviceModel wide;
  wide.warpSize = 64;
  EXPECT_EQ((std::vector<unsigned>{64}),
            fitBlockToDevice({256}, Bounds{1200}, wide).chosen);
  DeviceModel narrow;
  narrow.maxThreadsPerBlock = 128;
  BlockSizing capped = fitBlockToDevice({256}, Bounds{100000}, narrow);
  EXPECT_EQ((std::vector<unsigned>{128}), capped.chosen) << describe(capped);
  EXPECT_EQ(Source::Shrunk, capped.source);
  DeviceModel fewResident;
  fewResident.maxThreadsPerMultiprocessor = 64;
  EXPECT_EQ((std::vector<unsigned>{32, 2}),
            fitBlockToDevice({32, 8}, Bounds{100000, 100000}, fewResident)
                .chosen);
}

TEST_F(BlockSizesTest, ArrayExtentsBoundParametricLoops) {
  auto scop = trmmScop(ctx());
  isl::union_set inside = polyhedral::instancesInBounds(*scop, scop->domain());
  EXPECT_ISL_EQ(isl::union_set(ctx(),
                               "[m, n] -> { S0[i, j, k] : 0 <= i < m and "
                               "0 <= j < n and i < k < m and k < 1000 and "
                               "j < 1200; S1[i, j] : 0 <= i < m and "
                               "0 <= j < n and i < 1000 and j < 1200 }"),
                inside);
  isl::union_map host(ctx(), "[m, n] -> { S1[i, j] -> [] }");
  isl::union_map member(ctx(), "[m, n] -> { S1[i, j] -> [j] }");
  EXPECT_EQ(1200, polyhedral::boundExtent(inside, host, member));
  EXPECT_EQ(std::nullopt,
            polyhedral::boundExtent(scop->domain(), host, member));
  // Per host iteration: the extent of j for one i.
  isl::union_map row(ctx(), "[m, n] -> { S1[i, j] -> [i] }");
  isl::union_map skewed(ctx(), "[m, n] -> { S1[i, j] -> [i + j] }");
  EXPECT_EQ(1200, polyhedral::boundExtent(inside, row, skewed));
}

TEST_F(BlockSizesTest, NonAffineReferencesBoundNothing) {
  auto scop = copy1dScop(ctx(), 1200);
  scop->statements[0].accesses[0].nonAffineSubscripts = {"idx[i]"};
  scop->statements[0].accesses[1].nonAffineSubscripts = {"idx[i]"};
  EXPECT_ISL_EQ(scop->domain(),
                polyhedral::instancesInBounds(*scop, scop->domain()));
}

TEST_F(BlockSizesTest, TrmmAtLargeSizesRunsOneWarpPerBlock) {
  auto scop = trmmScop(ctx());
  GpuProgram program = runGpuPipeline(*scop, PipelineOptions());
  const Kernel *kernel = kernelWithMapped(program, 1);
  ASSERT_TRUE(kernel);
  EXPECT_EQ((std::vector<unsigned>{32}), kernel->mapping->blockSize)
      << describe(kernel->mapping->sizing);
  EXPECT_EQ(Source::Shrunk, kernel->mapping->sizing.source);
  EXPECT_EQ(Bounds{1200}, kernel->mapping->sizing.extentBound);
  EXPECT_EQ(5, kernel->mapping->sizing.requestedBlocks);
  EXPECT_EQ(38, kernel->mapping->sizing.chosenBlocks);
  // The kernel that scales B has 1200 x 1000 iterations: 32 x 8 stays.
  const Kernel *scale = kernelWithMapped(program, 2);
  ASSERT_TRUE(scale);
  EXPECT_EQ(Source::Default, scale->mapping->sizing.source)
      << describe(scale->mapping->sizing);
  EXPECT_EQ((std::vector<unsigned>{32, 8}), scale->mapping->sizing.chosen);
}

TEST_F(BlockSizesTest, LargeArraysKeepTheDefaultBlocks) {
  auto one = copy1dScop(ctx(), 1 << 20);
  GpuProgram program = runGpuPipeline(*one, PipelineOptions());
  ASSERT_EQ(1u, program.kernels.size());
  EXPECT_EQ((std::vector<unsigned>{256}),
            program.kernels[0].mapping->blockSize);
  EXPECT_EQ(Source::Default, program.kernels[0].mapping->sizing.source);
  auto two = copy2dScop(ctx(), 2000, 2000);
  GpuProgram program2 = runGpuPipeline(*two, PipelineOptions());
  ASSERT_EQ(1u, program2.kernels.size());
  const Kernel &kernel = program2.kernels[0];
  // i on y (8), j on x (32), in member order.
  EXPECT_EQ((std::vector<unsigned>{8, 32}), kernel.mapping->blockSize)
      << describe(kernel.mapping->sizing);
  EXPECT_EQ(Source::Default, kernel.mapping->sizing.source);
  EXPECT_EQ((Bounds{2000, 2000}), kernel.mapping->sizing.extentBound);
}

TEST_F(BlockSizesTest, SmallTwoDimensionalSpaceGetsShorterBlocks) {
  auto scop = copy2dScop(ctx(), 100, 100);
  GpuProgram program = runGpuPipeline(*scop, PipelineOptions());
  ASSERT_EQ(1u, program.kernels.size());
  const Kernel &kernel = program.kernels[0];
  EXPECT_EQ((std::vector<unsigned>{2, 32}), kernel.mapping->blockSize)
      << describe(kernel.mapping->sizing);
  EXPECT_EQ(Source::Shrunk, kernel.mapping->sizing.source);
  EXPECT_EQ(200, kernel.mapping->sizing.chosenBlocks);
}

TEST_F(BlockSizesTest, ParametricArraysKeepTheDefaults) {
  auto scop = gemmScop(ctx());
  GpuProgram program = runGpuPipeline(*scop, PipelineOptions());
  ASSERT_EQ(1u, program.kernels.size());
  const Kernel &kernel = program.kernels[0];
  EXPECT_EQ((std::vector<unsigned>{8, 32}), kernel.mapping->blockSize);
  EXPECT_EQ(Source::Default, kernel.mapping->sizing.source)
      << describe(kernel.mapping->sizing);
  EXPECT_EQ((Bounds{std::nullopt, std::nullopt}),
            kernel.mapping->sizing.extentBound);
}

TEST_F(BlockSizesTest, SizesOverrideTheFit) {
  auto scop = trmmScop(ctx());
  PipelineOptions options;
  options.mapping.blockSizes["S0"] = {128};
  GpuProgram program = runGpuPipeline(*scop, options);
  const Kernel *kernel = kernelWithMapped(program, 1);
  ASSERT_TRUE(kernel);
  EXPECT_EQ((std::vector<unsigned>{128}), kernel->mapping->blockSize);
  EXPECT_EQ(Source::Sizes, kernel->mapping->sizing.source);
  // `--sizes=all=...` sets the defaults and turns the fitting off.
  PipelineOptions all;
  all.mapping.default1D = {256};
  all.mapping.fitDefaults = false;
  GpuProgram program2 = runGpuPipeline(*scop, all);
  const Kernel *kernel2 = kernelWithMapped(program2, 1);
  ASSERT_TRUE(kernel2);
  EXPECT_EQ((std::vector<unsigned>{256}), kernel2->mapping->blockSize);
  EXPECT_EQ(Source::Sizes, kernel2->mapping->sizing.source);
}

} // namespace
} // namespace polycuda::test
