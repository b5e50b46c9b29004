//===- ThreadOrderTest.cpp - Column order of a kernel's blocks ------------===//
//
// --thread-order: parsing, the column order map, and the mapped tree of a
// 2-D (and 3-D) parallel space in column order: every instance runs on
// exactly one (grid position, thread), and the grid's linear order visits
// the blocks column by column (narrow last column, zigzag); auto's model
// on a matmul and a stencil.
//
//===----------------------------------------------------------------------===//
#include "Pipeline.h"
#include "ThreadOrder.h"

#include "IslTestSupport.h"

#include <isl/map.h>

#include <utility>

namespace polycuda::test {
namespace {

using polyhedral::GpuProgram;
using polyhedral::Kernel;
using polyhedral::PipelineOptions;
using polyhedral::ThreadOrder;
using polyhedral::ThreadOrderRequest;

using ThreadOrderTest = IslTest;

/// `for i < rows, j < cols: A[i][j] = B[i][j];` with constant sizes.
std::unique_ptr<polyhedral::Scop> copy2dScop(isl::ctx ctx, int rows, int cols) {
  auto scop = newScop(ctx, {}, "{ : }");
  std::string r = std::to_string(rows), c = std::to_string(cols);
  addArray(*scop, "A", {"{ [(" + r + ")] }", "{ [(" + c + ")] }"});
  addArray(*scop, "B", {"{ [(" + r + ")] }", "{ [(" + c + ")] }"});
  addStatement(*scop, "S0",
               "{ S0[i, j] : 0 <= i < " + r + " and 0 <= j < " + c + " }",
               {"i", "j"}, {0, 0, 0},
               {{Read, "B", "{ S0[i, j] -> B[i, j] }"},
                {Write, "A", "{ S0[i, j] -> A[i, j] }"}});
  scop->originalSchedule =
      isl::union_map(ctx, "{ S0[i, j] -> [0, i, 0, j, 0] }");
  return scop;
}

/// Column order of `width` on blocks of 32 x 8 (set: the spaces here are
/// small enough that the default block would shrink to fill the GPU).
PipelineOptions columnOptions(unsigned width, bool zigzag) {
  PipelineOptions options;
  options.mapping.blockSizes["S0"] = {32, 8};
  options.mapping.registerTiles = false; // tiles of one block
  options.mapping.threadOrder.kind = ThreadOrderRequest::Kind::Column;
  options.mapping.threadOrder.width = width;
  options.mapping.threadOrder.zigzag = zigzag;
  return options;
}

/// `map` with its parameters `names` moved to the end of its input
/// (`type` isl_dim_in) or output dimensions.
isl::map paramsToDims(isl::map map, isl_dim_type type,
                      const std::vector<std::string> &names) {
  isl_map *m = map.release();
  for (const std::string &name : names) {
    int pos = isl_map_find_dim_by_name(m, isl_dim_param, name.c_str());
    EXPECT_GE(pos, 0) << name;
    m = isl_map_move_dims(m, type, isl_map_dim(m, type), isl_dim_param, pos,
                          1);
  }
  return isl::manage(m);
}

std::vector<std::string> numbered(const std::string &prefix, unsigned n) {
  std::vector<std::string> names;
  for (unsigned i = 0; i < n; ++i)
    names.push_back(prefix + std::to_string(i));
  return names;
}

/// `{ [g0, g1, ...] -> [b0, b1, ...] }` from the kernel's block indices as
/// functions of its grid position (KernelMapping::blockOfGrid).
isl::map gridToBlocks(const Kernel &kernel) {
  std::vector<std::string> grid = numbered("g", kernel.mapping->numMapped);
  std::vector<std::string> blocks = numbered("b", kernel.mapping->numMapped);
  isl::space space = kernel.mapping->blockOfGrid[0].get_space().domain();
  isl::set points = isl::set::universe(space);
  for (unsigned d = 0; d < kernel.mapping->numMapped; ++d)
    points = points.intersect(kernel.mapping->blockOfGrid[d].eq_set(
        polyhedral::paramOn(space, blocks[d])));
  isl::map map = isl::manage(
      isl_map_from_domain(isl_set_from_params(points.release())));
  return paramsToDims(paramsToDims(map, isl_dim_in, grid), isl_dim_out,
                      blocks);
}

/// The filter of the node `path` steps below the kernel's mark (`0`s).
isl::union_set filterBelow(const isl::schedule_node &mark, unsigned steps) {
  isl::schedule_node node = mark;
  for (unsigned i = 0; i < steps; ++i)
    node = node.child(0);
  return isl::manage(isl_schedule_node_filter_get_filter(node.get()));
}

/// Instance -> (grid position, thread) from the kernel's tree: the block
/// filter (b), the thread filter (t) and the grid -> block functions.
isl::union_map executedBy(const GpuProgram &program) {
  const Kernel &kernel = program.kernels[0];
  isl::schedule_node mark = program.schedule.get_root().child(0);
  std::vector<std::string> bt = numbered("b", kernel.mapping->numMapped);
  for (const std::string &t : numbered("t", kernel.mapping->numMapped))
    bt.push_back(t);
  isl::union_set both = filterBelow(mark, 1).intersect(filterBelow(mark, 5));
  isl::union_map toBlockThread = isl::union_map::empty(both.ctx());
  for (const isl::set &piece : polyhedral::setsOf(both))
    toBlockThread = toBlockThread.unite(isl::union_map(paramsToDims(
        isl::manage(isl_map_from_domain(piece.copy())), isl_dim_out, bt)));
  std::string id = "{ [";
  for (unsigned d = 0; d < kernel.mapping->numMapped; ++d)
    id += std::string(d ? ", " : "") + "t" + std::to_string(d);
  id += "] -> [";
  for (unsigned d = 0; d < kernel.mapping->numMapped; ++d)
    id += std::string(d ? ", " : "") + "t" + std::to_string(d);
  id += "] }";
  isl::map threads(both.ctx(), id);
  isl::map gridThread = isl::manage(
      isl_map_flat_product(gridToBlocks(kernel).release(), threads.release()));
  return toBlockThread.apply_range(isl::union_map(gridThread.reverse()));
}

/// The blocks (x, y) in the order of the grid's linear index
/// g0 + gridX * g1, skipping positions without a block (x >= blocksX).
std::vector<std::pair<long, long>> launchOrder(const Kernel &kernel,
                                               long gridX, long gridY,
                                               long blocksX) {
  isl::map toBlocks = gridToBlocks(kernel);
  unsigned x = polyhedral::memberOnHardware(kernel, 0);
  unsigned y = polyhedral::memberOnHardware(kernel, 1);
  std::vector<std::pair<long, long>> order;
  for (long l = 0; l < gridX * gridY; ++l) {
    isl::set point(toBlocks.ctx(), "{ [" + std::to_string(l % gridX) + ", " +
                                       std::to_string(l / gridX) + "] }");
    isl::set block = toBlocks.intersect_domain(point).range();
    std::optional<long> bx = polyhedral::fixedValue(block, x);
    std::optional<long> by = polyhedral::fixedValue(block, y);
    EXPECT_TRUE(bx && by) << polyhedral::toString(block);
    if (bx && by && *bx < blocksX)
      order.push_back({*bx, *by});
  }
  return order;
}

/// Column order by hand: columns of `wb` blocks, rows inside, left to
/// right (right to left in odd rows with `zigzag`).
std::vector<std::pair<long, long>> expectedOrder(long blocksX, long blocksY,
                                                 long wb, bool zigzag) {
  std::vector<std::pair<long, long>> order;
  for (long c = 0; c * wb < blocksX; ++c)
    for (long y = 0; y < blocksY; ++y)
      for (long i = 0; i < wb; ++i) {
        long x = c * wb + (zigzag && y % 2 ? wb - 1 - i : i);
        if (x < blocksX)
          order.push_back({x, y});
      }
  return order;
}

/// Every instance on exactly one grid position and thread of the launch
/// grid (gridX, gridY): the map is a function, injective (one point per
/// thread: all members mapped), defined on every instance.
void expectBijection(const GpuProgram &program, long gridX, long gridY) {
  isl::union_map executed = executedBy(program);
  const Kernel &kernel = program.kernels[0];
  EXPECT_TRUE(executed.is_single_valued()) << polyhedral::toString(executed);
  EXPECT_TRUE(executed.is_injective()) << polyhedral::toString(executed);
  EXPECT_ISL_EQ(kernel.instances, executed.domain());
  isl::set box(executed.ctx(),
               "{ [g0, g1, t0, t1] : 0 <= g0 < " + std::to_string(gridX) +
                   " and 0 <= g1 < " + std::to_string(gridY) + " }");
  for (const isl::set &range : polyhedral::setsOf(executed.range()))
    EXPECT_TRUE(range.is_subset(box)) << polyhedral::toString(range);
}

TEST_F(ThreadOrderTest, ParsesTheOption) {
  ThreadOrderRequest request;
  std::string error;
  ASSERT_TRUE(polyhedral::parseThreadOrder("linear", request, error));
  EXPECT_EQ(ThreadOrderRequest::Kind::Linear, request.kind);
  ASSERT_TRUE(polyhedral::parseThreadOrder("auto", request, error));
  EXPECT_EQ(ThreadOrderRequest::Kind::Auto, request.kind);
  ASSERT_TRUE(polyhedral::parseThreadOrder("column:64,zigzag", request, error));
  EXPECT_EQ(ThreadOrderRequest::Kind::Column, request.kind);
  EXPECT_EQ(64u, request.width);
  EXPECT_TRUE(request.zigzag);
  ASSERT_TRUE(polyhedral::parseThreadOrder("column:32", request, error));
  EXPECT_FALSE(request.zigzag);
  for (const char *bad : {"", "column", "column:", "column:0", "column:-4",
                          "column:32,", "column:32,zag", "rows", "Linear",
                          "column:99999999"})
    EXPECT_FALSE(polyhedral::parseThreadOrder(bad, request, error)) << bad;
}

TEST_F(ThreadOrderTest, ColumnOrderMapIsABijectionOfTheQuadrant) {
  for (unsigned wb : {1u, 2u, 3u, 4u})
    for (bool zigzag : {false, true}) {
      isl::map order = polyhedral::columnOrderMap(ctx(), wb, zigzag);
      EXPECT_TRUE(order.is_single_valued()) << wb << zigzag;
      EXPECT_TRUE(order.is_injective()) << wb << zigzag;
      EXPECT_TRUE(order.domain().is_equal(
          isl::set(ctx(), "{ [x, y] : x >= 0 and y >= 0 }")));
      EXPECT_TRUE(order.range().is_equal(
          isl::set(ctx(), "{ [c, q] : c >= 0 and q >= 0 }")));
    }
}

TEST_F(ThreadOrderTest, LinearIsTheDefault) {
  auto scop = copy2dScop(ctx(), 16, 200);
  GpuProgram program = polyhedral::runGpuPipeline(*scop, PipelineOptions());
  ASSERT_EQ(1u, program.kernels.size());
  EXPECT_FALSE(program.kernels[0].mapping->order.column);
  EXPECT_TRUE(program.kernels[0].mapping->blockOfGrid.empty());
}

// 16 x 200 with blocks of 8 x 32: 2 rows of 7 blocks. Columns of 64
// elements (2 blocks): 3 full columns and a last one of 1 block.
TEST_F(ThreadOrderTest, ColumnsOfTwoBlocksWithANarrowLastColumn) {
  auto scop = copy2dScop(ctx(), 16, 200);
  GpuProgram program =
      polyhedral::runGpuPipeline(*scop, columnOptions(64, false));
  ASSERT_EQ(1u, program.kernels.size());
  const Kernel &kernel = program.kernels[0];
  ASSERT_TRUE(kernel.mapping->order.column);
  EXPECT_EQ(2u, kernel.mapping->order.widthBlocks);
  EXPECT_EQ(64u, kernel.mapping->order.width);
  // Grid: x = 2 blocks * 2 rows, y = 4 columns.
  expectBijection(program, 4, 4);
  EXPECT_EQ(expectedOrder(7, 2, 2, false), launchOrder(kernel, 4, 4, 7));
  // (0,0) (1,0) (0,1) (1,1) (2,0) ...: the second row of the first column
  // runs before the first row of the second.
  std::vector<std::pair<long, long>> order = launchOrder(kernel, 4, 4, 7);
  ASSERT_GE(order.size(), 5u);
  EXPECT_EQ(std::make_pair(0L, 1L), order[2]);
  EXPECT_EQ(std::make_pair(2L, 0L), order[4]);
  // The last column holds block 6 alone, in both rows.
  EXPECT_EQ(std::make_pair(6L, 0L), order[12]);
  EXPECT_EQ(std::make_pair(6L, 1L), order[13]);
}

TEST_F(ThreadOrderTest, ZigzagReversesOddRowsInsideAColumn) {
  auto scop = copy2dScop(ctx(), 32, 200);
  GpuProgram program =
      polyhedral::runGpuPipeline(*scop, columnOptions(96, true));
  ASSERT_EQ(1u, program.kernels.size());
  const Kernel &kernel = program.kernels[0];
  ASSERT_TRUE(kernel.mapping->order.column);
  EXPECT_TRUE(kernel.mapping->order.zigzag);
  EXPECT_EQ(3u, kernel.mapping->order.widthBlocks);
  // 4 rows of 7 blocks; columns of 3: 3 + 3 + 1. Grid x = 3 * 4, y = 3.
  expectBijection(program, 12, 3);
  std::vector<std::pair<long, long>> order = launchOrder(kernel, 12, 3, 7);
  EXPECT_EQ(expectedOrder(7, 4, 3, true), order);
  ASSERT_GE(order.size(), 6u);
  EXPECT_EQ(std::make_pair(2L, 0L), order[2]);
  EXPECT_EQ(std::make_pair(2L, 1L), order[3]); // row 1 from the right
  EXPECT_EQ(std::make_pair(0L, 1L), order[5]);
}

TEST_F(ThreadOrderTest, WidthRoundsUpToWholeBlocks) {
  auto scop = copy2dScop(ctx(), 16, 200);
  GpuProgram program =
      polyhedral::runGpuPipeline(*scop, columnOptions(40, false));
  const Kernel &kernel = program.kernels[0];
  ASSERT_TRUE(kernel.mapping->order.column);
  EXPECT_EQ(2u, kernel.mapping->order.widthBlocks);
  EXPECT_EQ(64u, kernel.mapping->order.width);
  EXPECT_EQ(40u, kernel.mapping->order.requestedWidth);
  expectBijection(program, 4, 4);
}

TEST_F(ThreadOrderTest, WidthOfOneBlockIsOneBlockColumn) {
  auto scop = copy2dScop(ctx(), 24, 100);
  GpuProgram program =
      polyhedral::runGpuPipeline(*scop, columnOptions(32, false));
  const Kernel &kernel = program.kernels[0];
  EXPECT_EQ(1u, kernel.mapping->order.widthBlocks);
  // 3 rows of 4 blocks: each column is one block wide, 3 high.
  expectBijection(program, 3, 4);
  EXPECT_EQ(expectedOrder(4, 3, 1, false), launchOrder(kernel, 3, 4, 4));
}

TEST_F(ThreadOrderTest, OneParallelDimensionStaysLinear) {
  auto scop = recurrenceScop(ctx());
  GpuProgram program =
      polyhedral::runGpuPipeline(*scop, columnOptions(64, false));
  for (const Kernel &kernel : program.kernels)
    EXPECT_FALSE(kernel.mapping->order.column);
}

TEST_F(ThreadOrderTest, GemmBandIsColumnThenPosition) {
  auto scop = gemmScop(ctx());
  GpuProgram program =
      polyhedral::runGpuPipeline(*scop, columnOptions(64, false));
  ASSERT_EQ(1u, program.kernels.size());
  isl::schedule_node band =
      program.schedule.get_root().child(0).child(0).child(0);
  isl::multi_union_pw_aff partial =
      band.as<isl::schedule_node_band>().get_partial_schedule();
  // Blocks of 8 rows (i, y) x 32 columns (j, x); columns of 2 blocks:
  // c = floor(j / 64), q = 2 * floor(i / 8) + floor(j / 32) mod 2.
  EXPECT_ISL_EQ(isl::union_map(ctx(),
                               "[ni, nj, nk] -> { S0[i, j, k] -> "
                               "[floor(j / 64), 2 * floor(i / 8) + "
                               "floor(j / 32) - 2 * floor(j / 64)] }")
                    .intersect_domain(scop->domain()),
                isl::union_map::from(partial).intersect_domain(scop->domain()));
  // The generated body does not change: the block indices come from the
  // grid position in the prologue.
  EXPECT_EQ(2u, program.kernels[0].blockExprs.size());
}

/// A 3-D parallel space: z outermost, columns of x and y inside each z.
TEST_F(ThreadOrderTest, ThreeMappedMembersKeepZ) {
  auto scop = newScop(ctx(), {}, "{ : }");
  addArray(*scop, "A", {"{ [(4)] }", "{ [(12)] }", "{ [(100)] }"});
  addStatement(*scop, "S0",
               "{ S0[i, j, k] : 0 <= i < 4 and 0 <= j < 12 and 0 <= k < 100 }",
               {"i", "j", "k"}, {0, 0, 0, 0},
               {{Write, "A", "{ S0[i, j, k] -> A[i, j, k] }"}});
  scop->originalSchedule =
      isl::union_map(ctx(), "{ S0[i, j, k] -> [0, i, 0, j, 0, k, 0] }");
  GpuProgram program =
      polyhedral::runGpuPipeline(*scop, columnOptions(64, false));
  ASSERT_EQ(1u, program.kernels.size());
  const Kernel &kernel = program.kernels[0];
  ASSERT_EQ(3u, kernel.mapping->numMapped);
  ASSERT_TRUE(kernel.mapping->order.column);
  isl::union_map executed = executedBy(program);
  EXPECT_TRUE(executed.is_single_valued());
  EXPECT_TRUE(executed.is_injective());
  EXPECT_ISL_EQ(kernel.instances, executed.domain());
}

/// `for i, j: C[i][j] = sum_k A[i][k] * B[k][j]` at n x n, constant.
std::unique_ptr<polyhedral::Scop> matmulScop(isl::ctx ctx, int n) {
  auto scop = newScop(ctx, {}, "{ : }");
  std::string e = "{ [(" + std::to_string(n) + ")] }";
  for (const char *name : {"A", "B", "C"})
    addArray(*scop, name, {e, e});
  scop->arrays[scop->findArray("A")].type = polyhedral::ElemType::Float;
  scop->arrays[scop->findArray("B")].type = polyhedral::ElemType::Float;
  scop->arrays[scop->findArray("C")].type = polyhedral::ElemType::Float;
  std::string m = std::to_string(n);
  addStatement(*scop, "S0",
               "{ S0[i, j, k] : 0 <= i < " + m + " and 0 <= j < " + m +
                   " and 0 <= k < " + m + " }",
               {"i", "j", "k"}, {0, 0, 0, 0},
               {{Read, "C", "{ S0[i, j, k] -> C[i, j] }"},
                {Read, "A", "{ S0[i, j, k] -> A[i, k] }"},
                {Read, "B", "{ S0[i, j, k] -> B[k, j] }"},
                {Write, "C", "{ S0[i, j, k] -> C[i, j] }"}});
  scop->originalSchedule =
      isl::union_map(ctx, "{ S0[i, j, k] -> [0, i, 0, j, 0, k, 0] }");
  return scop;
}

PipelineOptions autoOptions() {
  PipelineOptions options;
  options.mapping.threadOrder.kind = ThreadOrderRequest::Kind::Auto;
  return options;
}

TEST_F(ThreadOrderTest, AutoChoosesColumnsForMatmul) {
  // B (1024 x 1024 floats, 4 MiB) is read by every row of blocks; a
  // column of 64 holds 256 KiB of it, the L1 of an SM.
  auto scop = matmulScop(ctx(), 1024);
  GpuProgram program = polyhedral::runGpuPipeline(*scop, autoOptions());
  ASSERT_EQ(1u, program.kernels.size());
  const Kernel &kernel = program.kernels[0];
  EXPECT_TRUE(kernel.mapping->order.automatic);
  ASSERT_TRUE(kernel.mapping->order.column);
  EXPECT_EQ(64u, kernel.mapping->order.width);
  EXPECT_DOUBLE_EQ(4.0 * 1024 * 1024, kernel.mapping->order.linearFootprint);
  EXPECT_DOUBLE_EQ(256.0 * 1024, kernel.mapping->order.columnFootprint);
  EXPECT_EQ(ThreadOrder::Why::ColumnL1, kernel.mapping->order.why);
  EXPECT_EQ(std::vector<std::string>{"B (S0)"},
            kernel.mapping->order.references);
}

TEST_F(ThreadOrderTest, AutoKeepsSmallMatmulLinear) {
  // 64 x 64: B is 16 KiB, it stays in L1 in linear order.
  auto scop = matmulScop(ctx(), 64);
  GpuProgram program = polyhedral::runGpuPipeline(*scop, autoOptions());
  EXPECT_FALSE(program.kernels[0].mapping->order.column);
}

/// A 3 x 3 stencil on 2048 x 2048: every reference moves with both
/// parallel members, and neighbouring rows read common elements.
std::unique_ptr<polyhedral::Scop> stencilScop(isl::ctx ctx) {
  auto scop = newScop(ctx, {}, "{ : }");
  addArray(*scop, "A", {"{ [(2048)] }", "{ [(2048)] }"});
  addArray(*scop, "B", {"{ [(2048)] }", "{ [(2048)] }"});
  std::vector<AccessSpec> accesses;
  for (int di = -1; di <= 1; ++di)
    for (int dj = -1; dj <= 1; ++dj)
      accesses.push_back({Read, "A",
                          "{ S0[i, j] -> A[i + " + std::to_string(di) +
                              ", j + " + std::to_string(dj) + "] }"});
  accesses.push_back({Write, "B", "{ S0[i, j] -> B[i, j] }"});
  addStatement(*scop, "S0", "{ S0[i, j] : 1 <= i < 2047 and 1 <= j < 2047 }",
               {"i", "j"}, {0, 0, 0}, accesses);
  scop->originalSchedule =
      isl::union_map(ctx, "{ S0[i, j] -> [0, i, 0, j, 0] }");
  return scop;
}

TEST_F(ThreadOrderTest, AutoKeepsStencilsLinear) {
  // With the default 32 x 8 blocks (eight per SM).
  auto scop = stencilScop(ctx());
  GpuProgram program = polyhedral::runGpuPipeline(*scop, autoOptions());
  ASSERT_EQ(1u, program.kernels.size());
  EXPECT_FALSE(program.kernels[0].mapping->order.column);
  EXPECT_EQ(ThreadOrder::Why::NoRowReuse,
            program.kernels[0].mapping->order.why);
}

TEST_F(ThreadOrderTest, AutoPutsStencilsWithLargeBlocksInColumnsOfOneBlock) {
  // 32 x 32 blocks leave two per SM: columns one block wide.
  auto scop = stencilScop(ctx());
  PipelineOptions options = autoOptions();
  options.mapping.blockSizes["S0"] = {32, 32};
  GpuProgram program = polyhedral::runGpuPipeline(*scop, options);
  ASSERT_EQ(1u, program.kernels.size());
  const polyhedral::ThreadOrder &order = program.kernels[0].mapping->order;
  EXPECT_TRUE(order.automatic);
  ASSERT_TRUE(order.column);
  EXPECT_EQ(32u, order.width);
  EXPECT_EQ(1u, order.widthBlocks);
  EXPECT_FALSE(order.zigzag);
  EXPECT_EQ(ThreadOrder::Why::Neighbourhood, order.why);
  EXPECT_EQ(2u, order.blocksPerSm);
}

TEST_F(ThreadOrderTest, AutoKeepsPointwiseKernelsWithLargeBlocksLinear) {
  // No element is read by two rows of threads: nothing to share.
  auto scop = copy2dScop(ctx(), 2048, 2048);
  PipelineOptions options = autoOptions();
  options.mapping.blockSizes["S0"] = {32, 32};
  GpuProgram program = polyhedral::runGpuPipeline(*scop, options);
  ASSERT_EQ(1u, program.kernels.size());
  EXPECT_FALSE(program.kernels[0].mapping->order.column);
}

} // namespace
} // namespace polycuda::test
