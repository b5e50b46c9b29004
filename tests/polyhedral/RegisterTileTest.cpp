//===- RegisterTileTest.cpp - Several points per thread -------------------===//
//
// Register tiling (--register-tiles): which kernels qualify (gemm: an
// accumulator across k and operands shared along i and j; not a copy, not
// a stencil, not a triangle, nothing when it is off), the tiles it gives
// the blocks, the jammed thread band (k outside the unroll mark of the
// points), the accumulator as a register array with one element per
// point, and the sizes the model chooses for the space and element size.
//
//===----------------------------------------------------------------------===//
#include "IslExtras.h"
#include "Pipeline.h"

#include "IslTestSupport.h"

#include <functional>

namespace polycuda::test {
namespace {

using polyhedral::GpuProgram;
using polyhedral::Kernel;
using polyhedral::PipelineOptions;
using polyhedral::runGpuPipeline;

using RegisterTileTest = IslTest;
using Why = polyhedral::RegisterTileDecision::Why;

PipelineOptions tiled() {
  PipelineOptions options;
  options.mapping.registerTiles = true;
  return options;
}

/// gemm with constant sizes `n` x `n` x `n` (the model bounds them).
std::unique_ptr<polyhedral::Scop> squareGemm(isl::ctx ctx, int n) {
  auto scop = gemmScop(ctx);
  std::string size = std::to_string(n);
  scop->context =
      isl::set(ctx, "[ni, nj, nk] -> { : ni = " + size + " and nj = " + size +
                        " and nk = " + size + " }");
  return scop;
}

/// The first node below `node` (itself included) that `match` accepts.
isl::schedule_node
findNode(const isl::schedule_node &node,
         const std::function<bool(const isl::schedule_node &)> &match) {
  if (match(node))
    return node;
  for (int i = 0, n = node.n_children(); i < n; ++i) {
    isl::schedule_node found = findNode(node.child(i), match);
    if (!found.is_null())
      return found;
  }
  return isl::schedule_node();
}

/// Whether `node` is an unroll mark (its payload, not its name) of
/// `extents`.
bool isUnrollMark(const isl::schedule_node &node,
                  const std::vector<long> &extents) {
  return polyhedral::isMark(node, polyhedral::MarkKind::Unroll) &&
         polyhedral::gpuMarkOf(polyhedral::markId(node))->extents == extents;
}

TEST_F(RegisterTileTest, OnByDefaultAndOffOnRequest) {
  auto scop = squareGemm(ctx(), 2048);
  GpuProgram program = runGpuPipeline(*scop, PipelineOptions());
  ASSERT_EQ(1u, program.kernels.size());
  EXPECT_TRUE(program.kernels[0].mapping->registerTiled());
  PipelineOptions off;
  off.mapping.registerTiles = false;
  GpuProgram plain = runGpuPipeline(*scop, off);
  ASSERT_EQ(1u, plain.kernels.size());
  EXPECT_FALSE(plain.kernels[0].mapping->registerTiled());
  EXPECT_EQ(Why::Off, plain.kernels[0].registerTileDecision.why);
}

TEST_F(RegisterTileTest, GemmGetsFourByFourPointsPerThread) {
  auto scop = squareGemm(ctx(), 2048);
  GpuProgram program = runGpuPipeline(*scop, tiled());
  ASSERT_EQ(1u, program.kernels.size());
  const Kernel &kernel = program.kernels[0];
  // i on y (8 threads), j on x (32): tiles of 32 x 128 points.
  EXPECT_EQ((std::vector<unsigned>{8, 32}), kernel.mapping->blockSize);
  EXPECT_EQ((std::vector<unsigned>{4, 4}), kernel.mapping->registerTile);
  EXPECT_EQ(32u, kernel.mapping->tileSize(0));
  EXPECT_EQ(128u, kernel.mapping->tileSize(1));
  EXPECT_EQ(Why::Tiled, kernel.registerTileDecision.why);
  EXPECT_EQ((std::vector<unsigned>{4, 4}), kernel.registerTileDecision.tile);
  // A block's shared tiles cover its tile: A 32 x 32, B 32 x 128.
  ASSERT_EQ(2u, kernel.sharedTiles.size());
  EXPECT_EQ((std::vector<long>{32, 32}), kernel.sharedTiles[0].sizes);
  EXPECT_EQ((std::vector<long>{32, 128}), kernel.sharedTiles[1].sizes);
  // C[i][j] across k: one register per point.
  ASSERT_EQ(1u, kernel.accumulators.size());
  EXPECT_EQ(16u, kernel.accumulators[0].slots);
  EXPECT_EQ("k", kernel.accumulators[0].loop);
}

TEST_F(RegisterTileTest, ThreadBandIsJammed) {
  auto scop = squareGemm(ctx(), 2048);
  GpuProgram program = runGpuPipeline(*scop, tiled());
  ASSERT_EQ(1u, program.kernels.size());
  const Kernel &kernel = program.kernels[0];
  ASSERT_FALSE(kernel.deviceTree.is_null());
  isl::schedule_node root = kernel.deviceTree.get_root();
  // Below the thread mark: the filter, then the band of k alone, then the
  // unroll mark of the points (4 x 4) and their band.
  isl::schedule_node thread = findNode(root, [](const isl::schedule_node &n) {
    return polyhedral::isMark(n, polyhedral::MarkKind::Thread);
  });
  ASSERT_FALSE(thread.is_null());
  isl::schedule_node loop = thread.child(0).child(0);
  ASSERT_TRUE(loop.isa<isl::schedule_node_band>());
  EXPECT_EQ(1u, loop.as<isl::schedule_node_band>().n_member());
  isl::schedule_node unroll = loop.child(0);
  ASSERT_TRUE(isUnrollMark(unroll, {4, 4}))
      << polyhedral::toString(kernel.deviceTree);
  isl::schedule_node points = unroll.child(0);
  ASSERT_TRUE(points.isa<isl::schedule_node_band>());
  EXPECT_EQ(2u, points.as<isl::schedule_node_band>().n_member());
  // The points of S0[i, j, k] are floor(i / 8) mod 4 and floor(j / 32) mod
  // 4: S0[8 * 5 + 3, 32 * 6 + 1, 0] is point (1, 2).
  isl::union_map map = isl::union_map::from(
      points.as<isl::schedule_node_band>().get_partial_schedule());
  isl::union_set instance(ctx(), "[ni, nj, nk] -> { S0[43, 193, 0] }");
  EXPECT_TRUE(instance.apply(map).is_equal(
      isl::union_set(ctx(), "[ni, nj, nk] -> { [1, 2] }")))
      << polyhedral::toString(map);
  // The loads and stores of the registers: one statement each, below an
  // unroll mark of the 16 registers.
  isl::schedule_node loads = findNode(root, [](const isl::schedule_node &n) {
    return isUnrollMark(n, {16});
  });
  EXPECT_FALSE(loads.is_null()) << polyhedral::toString(kernel.deviceTree);
}

TEST_F(RegisterTileTest, ShrinksForASmallSpace) {
  // 1024 x 1024: 4 x 4 points give 8 x 32 = 256 blocks, 4 x 2 give 512:
  // fewer than six per SM of the H100 (792), so one point per thread.
  auto scop = squareGemm(ctx(), 1024);
  GpuProgram program = runGpuPipeline(*scop, tiled());
  ASSERT_EQ(1u, program.kernels.size());
  EXPECT_FALSE(program.kernels[0].mapping->registerTiled());
  EXPECT_EQ(Why::TooFewBlocks, program.kernels[0].registerTileDecision.why);
  // 1536 x 2048 (i x j): 4 x 4 points give 16 x 48 = 768 blocks, one row
  // short of 792; 4 x 2 (y halved) give 1,536.
  auto scop2 = gemmScop(ctx());
  scop2->context = isl::set(
      ctx(), "[ni, nj, nk] -> { : ni = 1536 and nj = 2048 and nk = 64 }");
  GpuProgram more = runGpuPipeline(*scop2, tiled());
  ASSERT_EQ(1u, more.kernels.size());
  const Kernel &kernel = more.kernels[0];
  EXPECT_EQ(4u, kernel.mapping->registerTile[1]); // j, on x
  EXPECT_EQ(2u, kernel.mapping->registerTile[0]); // i, on y
}

TEST_F(RegisterTileTest, WiderTilesForFourByteAccumulators) {
  // fp32 gemm at 4096: 8 x 8 points (256 x 64 per block, 1,024 blocks).
  auto scop = squareGemm(ctx(), 4096);
  for (polyhedral::Array &array : scop->arrays)
    array.type = polyhedral::ElemType::Float;
  GpuProgram program = runGpuPipeline(*scop, tiled());
  ASSERT_EQ(1u, program.kernels.size());
  EXPECT_EQ(8u, program.kernels[0].mapping->registerTile[0]); // i, on y
  EXPECT_EQ(8u, program.kernels[0].mapping->registerTile[1]); // j, on x
  // fp64 at 4096: 4 x 8 (x, y), 128 x 64 per block, 2,048 blocks.
  auto doubles = squareGemm(ctx(), 4096);
  GpuProgram fp64 = runGpuPipeline(*doubles, tiled());
  EXPECT_EQ((std::vector<unsigned>{8, 4}),
            fp64.kernels[0].mapping->registerTile);
  // At 2048 neither has enough blocks for its wider tile: 4 x 4.
  auto small = squareGemm(ctx(), 2048);
  GpuProgram fp64Small = runGpuPipeline(*small, tiled());
  EXPECT_EQ((std::vector<unsigned>{4, 4}),
            fp64Small.kernels[0].mapping->registerTile);
  auto smallFloat = squareGemm(ctx(), 2048);
  for (polyhedral::Array &array : smallFloat->arrays)
    array.type = polyhedral::ElemType::Float;
  GpuProgram fp32Small = runGpuPipeline(*smallFloat, tiled());
  EXPECT_EQ((std::vector<unsigned>{4, 4}),
            fp32Small.kernels[0].mapping->registerTile);
}

TEST_F(RegisterTileTest, NotForATriangle) {
  // syrk's C[i][j] += A[i][k] * A[j][k] for j <= i at 4096.
  auto scop = newScop(ctx(), {}, "{ : }");
  addArray(*scop, "A", {"{ [(4096)] }", "{ [(4096)] }"});
  addArray(*scop, "C", {"{ [(4096)] }", "{ [(4096)] }"});
  addStatement(*scop, "S0",
               "{ S0[i, j, k] : 0 <= j <= i < 4096 and 0 <= k < 4096 }",
               {"i", "j", "k"}, {0, 0, 0, 0},
               {{Read, "C", "{ S0[i, j, k] -> C[i, j] }"},
                {Read, "A", "{ S0[i, j, k] -> A[i, k] }"},
                {Read, "A", "{ S0[i, j, k] -> A[j, k] }"},
                {Write, "C", "{ S0[i, j, k] -> C[i, j] }"}});
  scop->originalSchedule =
      isl::union_map(ctx(), "{ S0[i, j, k] -> [0, i, 0, j, 0, k, 0] }");
  GpuProgram program = runGpuPipeline(*scop, tiled());
  ASSERT_EQ(1u, program.kernels.size());
  EXPECT_FALSE(program.kernels[0].mapping->registerTiled());
  EXPECT_EQ(Why::NotRectangle, program.kernels[0].registerTileDecision.why);
}

/// B[i][j] += W[d] * A[i + d][j] over d < 9, i < rows, j < cols.
std::unique_ptr<polyhedral::Scop> weightedStencil(isl::ctx ctx, int rows,
                                                  int cols) {
  auto scop = newScop(ctx, {}, "{ : }");
  std::string r = std::to_string(rows), c = std::to_string(cols);
  addArray(*scop, "A", {"{ [(" + std::to_string(rows + 8) + ")] }",
                        "{ [(" + c + ")] }"});
  addArray(*scop, "B", {"{ [(" + r + ")] }", "{ [(" + c + ")] }"});
  addArray(*scop, "W", {"{ [(9)] }"});
  addStatement(*scop, "S0",
               "{ S0[i, j, d] : 0 <= i < " + r + " and 0 <= j < " + c +
                   " and 0 <= d < 9 }",
               {"i", "j", "d"}, {0, 0, 0, 0},
               {{Read, "B", "{ S0[i, j, d] -> B[i, j] }"},
                {Read, "W", "{ S0[i, j, d] -> W[d] }"},
                {Read, "A", "{ S0[i, j, d] -> A[i + d, j] }"},
                {Write, "B", "{ S0[i, j, d] -> B[i, j] }"}});
  scop->originalSchedule =
      isl::union_map(ctx, "{ S0[i, j, d] -> [0, i, 0, j, 0, d, 0] }");
  return scop;
}

TEST_F(RegisterTileTest, AWeightedStencilGetsConsecutiveRows) {
  // At 4096: not gemm's shape (nothing shared along one member only), but
  // each point reads 9 rows of A that the next row's point reads 8 of: 4
  // consecutive points along y (i), not jammed, A's neighbourhood staged
  // for the block.
  auto scop = weightedStencil(ctx(), 4096, 4096);
  GpuProgram program = runGpuPipeline(*scop, tiled());
  ASSERT_EQ(1u, program.kernels.size());
  const Kernel &kernel = program.kernels[0];
  EXPECT_TRUE(kernel.blockedPoints);
  EXPECT_FALSE(kernel.jamPoints);
  ASSERT_EQ(2u, kernel.mapping->registerTile.size());
  unsigned y = kernel.mapping->hardwareDim[0] == 1 ? 0 : 1;
  EXPECT_EQ(4u, kernel.mapping->registerTile[y]);
  EXPECT_EQ(1u, kernel.mapping->registerTile[1 - y]);
  EXPECT_EQ(Why::StencilPoints, kernel.registerTileDecision.why);
  ASSERT_EQ(1u, kernel.neighbourhoods.size());
  EXPECT_EQ("A", scop->arrays[kernel.neighbourhoods[0]].name);
}

// At 256 x 64: 8 x 2 blocks of 32 x 32 points are too few for the SMs.
TEST_F(RegisterTileTest, NoConsecutiveRowsForFewBlocks) {
  auto scop = weightedStencil(ctx(), 256, 64);
  GpuProgram program = runGpuPipeline(*scop, tiled());
  ASSERT_EQ(1u, program.kernels.size());
  EXPECT_FALSE(program.kernels[0].mapping->registerTiled());
  EXPECT_EQ(Why::StencilTooFewBlocks,
            program.kernels[0].registerTileDecision.why);
}

TEST_F(RegisterTileTest, RequestedSizes) {
  auto scop = squareGemm(ctx(), 256);
  PipelineOptions options = tiled();
  options.mapping.registerTile = {2, 4}; // x, y
  GpuProgram program = runGpuPipeline(*scop, options);
  ASSERT_EQ(1u, program.kernels.size());
  EXPECT_EQ((std::vector<unsigned>{4, 2}),
            program.kernels[0].mapping->registerTile);
  EXPECT_EQ(8u, program.kernels[0].accumulators.at(0).slots);
}

TEST_F(RegisterTileTest, NotWithoutAnAccumulatorOrReuse) {
  // A stencil: no loop inside the kernel to hold anything across.
  auto stencil = jacobiScop(ctx());
  GpuProgram program = runGpuPipeline(*stencil, tiled());
  for (const Kernel &kernel : program.kernels)
    EXPECT_FALSE(kernel.mapping->registerTiled()) << kernel.name;
  // Registers off: no register tiles either.
  auto scop = squareGemm(ctx(), 2048);
  PipelineOptions options = tiled();
  options.registers = false;
  GpuProgram plain = runGpuPipeline(*scop, options);
  ASSERT_EQ(1u, plain.kernels.size());
  EXPECT_FALSE(plain.kernels[0].mapping->registerTiled());
}

} // namespace
} // namespace polycuda::test
