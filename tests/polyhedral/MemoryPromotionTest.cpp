//===- MemoryPromotionTest.cpp - Shared tiles, padding, registers ---------===//
//
// Bank-conflict padding (Baskaran et al.'s Algorithm 2: a transposed read
// of a T x T tile needs rows of T + 1, gemm's tiles none), the promotion
// decisions for gemm (A and B through shared tiles per tile of k, C[i][j]
// in a register) and jacobi-2d (A's neighbourhood through a shared tile,
// copied once per block), and where the barriers land (outside every
// condition on the thread).
//
//===----------------------------------------------------------------------===//
#include "Pipeline.h"
#include "SharedMemory.h"

#include "IslTestSupport.h"

#include <isl/ast.h>

#include <functional>

namespace polycuda::test {
namespace {

using polyhedral::choosePadding;
using polyhedral::conflictDegree;
using polyhedral::GpuProgram;
using polyhedral::Kernel;
using polyhedral::NoSharedTiles;
using polyhedral::PipelineOptions;
using polyhedral::runGpuPipeline;
using polyhedral::ThreadStep;

using MemoryPromotionTest = IslTest;

TEST(ConflictDegree, WarpStrides) {
  EXPECT_EQ(1u, conflictDegree(1, 4));  // consecutive words
  EXPECT_EQ(1u, conflictDegree(0, 4));  // one word: a broadcast
  EXPECT_EQ(32u, conflictDegree(32, 4)); // a column of a 32-wide tile
  EXPECT_EQ(1u, conflictDegree(33, 4)); // the same, rows padded by one
  EXPECT_EQ(2u, conflictDegree(2, 4));  // every other word
  // 8-byte elements take two words: a warp reads 64 words, two per bank.
  EXPECT_EQ(2u, conflictDegree(1, 8));
  EXPECT_EQ(32u, conflictDegree(32, 8));
  EXPECT_EQ(2u, conflictDegree(33, 8));
}

TEST(Padding, TransposedTileGetsRowsOfTPlusOne) {
  // tile[T][T] written along rows by the copy (step (0, 1)) and read along
  // columns (step (1, 0)): B[i][j] = tile[j][i].
  std::vector<ThreadStep> steps = {std::vector<long>{0, 1},
                                   std::vector<long>{1, 0}};
  for (long t : {16L, 32L, 64L}) {
    std::vector<unsigned> totals;
    EXPECT_EQ(1u, choosePadding({t, t}, 4, steps, &totals)) << "T = " << t;
    EXPECT_LT(totals[1], totals[0]);
    EXPECT_EQ(1u, choosePadding({t, t}, 8, steps)) << "T = " << t;
  }
}

TEST(Padding, GemmTilesNeedNone) {
  // A's tile read as A[i][k]: the same element for a warp (step (0, 0));
  // B's as B[k][j]: consecutive elements (step (0, 1)); both copied along
  // rows.
  std::vector<ThreadStep> a = {std::vector<long>{0, 0},
                               std::vector<long>{0, 1}};
  std::vector<ThreadStep> b = {std::vector<long>{0, 1},
                               std::vector<long>{0, 1}};
  EXPECT_EQ(0u, choosePadding({8, 32}, 8, a));
  EXPECT_EQ(0u, choosePadding({32, 32}, 8, b));
  // A reference without a constant step counts for no padding.
  EXPECT_EQ(0u, choosePadding({32, 32}, 4, {std::nullopt}));
}

/// Each user node's name with the conditions of the `if` nodes around it.
std::vector<std::pair<std::string, std::vector<std::string>>>
guardedCalls(const isl::ast_node &root) {
  std::vector<std::pair<std::string, std::vector<std::string>>> calls;
  std::function<void(isl_ast_node *, std::vector<std::string>)> rec =
      [&](isl_ast_node *raw, std::vector<std::string> conds) {
        switch (isl_ast_node_get_type(raw)) {
        case isl_ast_node_for: {
          isl_ast_node *body = isl_ast_node_for_get_body(raw);
          rec(body, conds);
          isl_ast_node_free(body);
          break;
        }
        case isl_ast_node_if: {
          isl_ast_expr *cond = isl_ast_node_if_get_cond(raw);
          char *text = isl_ast_expr_to_C_str(cond);
          conds.push_back(text);
          free(text);
          isl_ast_expr_free(cond);
          isl_ast_node *then = isl_ast_node_if_get_then_node(raw);
          rec(then, conds);
          isl_ast_node_free(then);
          if (isl_ast_node_if_has_else_node(raw) == isl_bool_true) {
            isl_ast_node *other = isl_ast_node_if_get_else_node(raw);
            rec(other, conds);
            isl_ast_node_free(other);
          }
          break;
        }
        case isl_ast_node_block: {
          isl_ast_node_list *list = isl_ast_node_block_get_children(raw);
          for (int i = 0, n = isl_ast_node_list_n_ast_node(list); i < n; ++i) {
            isl_ast_node *child = isl_ast_node_list_get_ast_node(list, i);
            rec(child, conds);
            isl_ast_node_free(child);
          }
          isl_ast_node_list_free(list);
          break;
        }
        case isl_ast_node_mark: {
          isl_ast_node *child = isl_ast_node_mark_get_node(raw);
          rec(child, conds);
          isl_ast_node_free(child);
          break;
        }
        case isl_ast_node_user: {
          isl_ast_expr *expr = isl_ast_node_user_get_expr(raw);
          isl_ast_expr *callee = isl_ast_expr_op_get_arg(expr, 0);
          isl_id *id = isl_ast_expr_get_id(callee);
          calls.push_back({isl_id_get_name(id), conds});
          isl_id_free(id);
          isl_ast_expr_free(callee);
          isl_ast_expr_free(expr);
          break;
        }
        default:
          break;
        }
      };
  rec(root.get(), {});
  return calls;
}

std::string arrayName(const GpuProgram &program, unsigned a) {
  return program.scop->arrays[a].name;
}

TEST_F(MemoryPromotionTest, GemmReadsAAndBThroughSharedTilesCInARegister) {
  auto scop = gemmScop(ctx());
  // One point per thread (register tiles: RegisterTileTest).
  PipelineOptions options;
  options.mapping.registerTiles = false;
  GpuProgram program = runGpuPipeline(*scop, options);
  ASSERT_EQ(1u, program.kernels.size());
  const Kernel &kernel = program.kernels[0];
  // i on y (blocks of 8), j on x (32); k tiled by 32.
  EXPECT_EQ("k", kernel.sharedLoop);
  EXPECT_EQ(32u, kernel.sharedTileSize);
  ASSERT_EQ(2u, kernel.sharedTiles.size()) << int(kernel.noShared.why);
  EXPECT_EQ("A", arrayName(program, kernel.sharedTiles[0].array));
  EXPECT_EQ((std::vector<long>{8, 32}), kernel.sharedTiles[0].sizes);
  EXPECT_EQ(0u, kernel.sharedTiles[0].padding);
  EXPECT_EQ("B", arrayName(program, kernel.sharedTiles[1].array));
  EXPECT_EQ((std::vector<long>{32, 32}), kernel.sharedTiles[1].sizes);
  EXPECT_EQ(0u, kernel.sharedTiles[1].padding);
  // C[i][j], read and written, in one register across the tile loop.
  ASSERT_EQ(1u, kernel.accumulators.size());
  EXPECT_EQ("C", arrayName(program, kernel.accumulators[0].array));
  EXPECT_EQ(2u, kernel.accumulators[0].references.size());
  EXPECT_EQ("k", kernel.accumulators[0].loop);
}

TEST_F(MemoryPromotionTest, GemmBarriersAreOutsideEveryThreadCondition) {
  auto scop = gemmScop(ctx());
  // One point per thread (register tiles: RegisterTileTest).
  PipelineOptions options;
  options.mapping.registerTiles = false;
  GpuProgram program = runGpuPipeline(*scop, options);
  ASSERT_EQ(1u, program.kernels.size());
  const isl::ast_node &ast = program.kernels[0].ast;
  std::string text = ast.to_C_str();
  unsigned syncs = 0, copies = 0, statements = 0;
  for (const auto &[name, conds] : guardedCalls(ast)) {
    bool onThread = false;
    for (const std::string &cond : conds)
      onThread |= cond.find("t0") != std::string::npos ||
                  cond.find("t1") != std::string::npos;
    if (name.rfind("polycuda_sync_", 0) == 0) {
      ++syncs;
      EXPECT_FALSE(onThread) << name << " under a thread condition:\n"
                             << text;
    } else if (name.rfind("polycuda_copy_", 0) == 0) {
      ++copies;
    } else if (name == "S0") {
      ++statements;
      EXPECT_TRUE(onThread) << text; // threads past the edge do nothing
    }
  }
  EXPECT_EQ(2u, syncs) << text;
  EXPECT_EQ(2u, copies) << text;
  EXPECT_EQ(1u, statements) << text;
}

TEST_F(MemoryPromotionTest, FlagsTurnPromotionOff) {
  auto scop = gemmScop(ctx());
  PipelineOptions options;
  options.shared = false;
  GpuProgram program = runGpuPipeline(*scop, options);
  ASSERT_EQ(1u, program.kernels.size());
  EXPECT_TRUE(program.kernels[0].sharedTiles.empty());
  // Without the tile loop, C is held across the k loop itself.
  ASSERT_EQ(1u, program.kernels[0].accumulators.size());
  options.registers = false;
  GpuProgram plain = runGpuPipeline(*scop, options);
  EXPECT_TRUE(plain.kernels[0].accumulators.empty());
  EXPECT_TRUE(plain.kernels[0].deviceTree.is_null());
}

/// Jacobi 2-D: `for t: { for i, j: B[i][j] = 0.2 * (A[i][j] + A[i][j-1] +
/// A[i][j+1] + A[i+1][j] + A[i-1][j]); for i, j: A[i][j] = B[i][j]; }`
std::unique_ptr<polyhedral::Scop> jacobi2dScop(isl::ctx ctx) {
  auto scop = newScop(ctx, {"tsteps", "n"}, "[tsteps, n] -> { : }");
  const char *extent = "[tsteps, n] -> { [(n)] }";
  addArray(*scop, "A", {extent, extent});
  addArray(*scop, "B", {extent, extent});
  auto domain = [](const char *s) {
    return std::string("[tsteps, n] -> { ") + s +
           "[t, i, j] : 0 <= t < tsteps and 1 <= i < n - 1 and "
           "1 <= j < n - 1 }";
  };
  auto ref = [](const char *s, const char *array, const char *index) {
    return std::string("[tsteps, n] -> { ") + s + "[t, i, j] -> " + array +
           "[" + index + "] }";
  };
  addStatement(*scop, "S0", domain("S0"), {"t", "i", "j"}, {0, 0, 0, 0},
               {{Read, "A", ref("S0", "A", "i, j")},
                {Read, "A", ref("S0", "A", "i, j - 1")},
                {Read, "A", ref("S0", "A", "i, j + 1")},
                {Read, "A", ref("S0", "A", "i + 1, j")},
                {Read, "A", ref("S0", "A", "i - 1, j")},
                {Write, "B", ref("S0", "B", "i, j")}});
  addStatement(*scop, "S1", domain("S1"), {"t", "i", "j"}, {0, 1, 0, 0},
               {{Read, "B", ref("S1", "B", "i, j")},
                {Write, "A", ref("S1", "A", "i, j")}});
  scop->originalSchedule = isl::union_map(
      ctx, "[tsteps, n] -> { S0[t, i, j] -> [0, t, 0, i, 0, j, 0]; "
           "S1[t, i, j] -> [0, t, 1, i, 0, j, 0] }");
  return scop;
}

// By default a five-point stencil reads A from global memory (the L1 cache
// serves its reuse); from 9 references on (--shared-neighbourhood-min) the
// block copies the neighbourhood into shared memory, here from 5.
TEST_F(MemoryPromotionTest, Jacobi2dCopiesItsNeighbourhoodOncePerBlock) {
  auto scop = jacobi2dScop(ctx());
  GpuProgram plain = runGpuPipeline(*scop, PipelineOptions());
  ASSERT_EQ(2u, plain.kernels.size());
  EXPECT_TRUE(plain.kernels[0].sharedTiles.empty());
  EXPECT_EQ(NoSharedTiles::Why::NoReuse, plain.kernels[0].noShared.why);
  EXPECT_EQ(9u, plain.kernels[0].noShared.references);
  PipelineOptions options;
  options.sharedNeighbourhoodMin = 5;
  GpuProgram program = runGpuPipeline(*scop, options);
  ASSERT_EQ(2u, program.kernels.size());
  // The stencil: A read through five references, a 10 x 34 tile (the
  // block's 8 x 32 points and a halo of one), copied once (no loop to
  // tile); one barrier, outside every condition.
  const Kernel &stencil = program.kernels[0];
  EXPECT_EQ("", stencil.sharedLoop);
  ASSERT_EQ(1u, stencil.sharedTiles.size()) << int(stencil.noShared.why);
  EXPECT_EQ("A", arrayName(program, stencil.sharedTiles[0].array));
  EXPECT_EQ((std::vector<long>{10, 34}), stencil.sharedTiles[0].sizes);
  EXPECT_EQ(5u, stencil.sharedTiles[0].references.size());
  std::string text = stencil.ast.to_C_str();
  unsigned syncs = 0;
  for (const auto &[name, conds] : guardedCalls(stencil.ast))
    if (name.rfind("polycuda_sync_", 0) == 0) {
      ++syncs;
      EXPECT_TRUE(conds.empty()) << text;
    }
  EXPECT_EQ(1u, syncs) << text;
  // The copy back, A[i][j] = B[i][j]: one reference, no reuse.
  const Kernel &copy = program.kernels[1];
  EXPECT_TRUE(copy.sharedTiles.empty());
  EXPECT_EQ(NoSharedTiles::Why::NoReuse, copy.noShared.why);
  for (const Kernel &kernel : program.kernels)
    EXPECT_TRUE(kernel.accumulators.empty()) << kernel.name;
}

/// mv, `y[i] += A[i][j] * x[j]`, and tmv, `y[j] += A[i][j] * x[i]` (both
/// over 0 <= i < n, 0 <= j < m, in the source's loop order i, j).
std::unique_ptr<polyhedral::Scop> mvScop(isl::ctx ctx, bool transposed) {
  auto scop = newScop(ctx, {"n", "m"}, "[n, m] -> { : }");
  addArray(*scop, "A", {"[n, m] -> { [(n)] }", "[n, m] -> { [(m)] }"});
  addArray(*scop, "x", {transposed ? "[n, m] -> { [(n)] }"
                                   : "[n, m] -> { [(m)] }"});
  addArray(*scop, "y", {transposed ? "[n, m] -> { [(m)] }"
                                   : "[n, m] -> { [(n)] }"});
  const char *out = transposed ? "j" : "i", *in = transposed ? "i" : "j";
  auto ref = [](const char *array, const std::string &index) {
    return std::string("[n, m] -> { S0[i, j] -> ") + array + "[" + index +
           "] }";
  };
  addStatement(*scop, "S0", "[n, m] -> { S0[i, j] : 0 <= i < n and 0 <= j < m }",
               {"i", "j"}, {0, 0, 0},
               {{Read, "y", ref("y", out)},
                {Read, "A", ref("A", "i, j")},
                {Read, "x", ref("x", in)},
                {Write, "y", ref("y", out)}});
  scop->originalSchedule =
      isl::union_map(ctx, "[n, m] -> { S0[i, j] -> [0, i, 0, j, 0] }");
  return scop;
}

/// The tile of `program`'s only kernel that holds array `name`, or null.
const polyhedral::SharedTile *tileOf(const GpuProgram &program,
                                     const std::string &name) {
  for (const polyhedral::SharedTile &tile : program.kernels[0].sharedTiles)
    if (arrayName(program, tile.array) == name)
      return &tile;
  return nullptr;
}

// Baskaran et al.: mv's A[i][j] cannot be coalesced (threads run along i,
// the only parallel loop), so it is staged through shared memory, its tile
// read along columns and padded to rows of 33; tmv's A[i][j] is coalesced
// (threads along j) and stays in global memory.
TEST_F(MemoryPromotionTest, StageUncoalescedStagesMvButNotTmv) {
  PipelineOptions options;
  options.stageUncoalesced = polyhedral::StageUncoalesced::All;
  // Blocks of 64 threads: A's tile of 64 rows of 32 + 1 doubles fits in
  // 48 KB; one of 256 rows (the default block) does not.
  options.mapping.default1D = {64};
  // (The programs point to their scops, which must outlive them.)
  auto mvSource = mvScop(ctx(), false), tmvSource = mvScop(ctx(), true);
  GpuProgram mv = runGpuPipeline(*mvSource, options);
  ASSERT_EQ(1u, mv.kernels.size());
  const polyhedral::SharedTile *a = tileOf(mv, "A");
  ASSERT_NE(nullptr, a) << int(mv.kernels[0].noShared.why);
  EXPECT_TRUE(a->forCoalescing);
  EXPECT_EQ((std::vector<long>{64, 32}), a->sizes);
  EXPECT_EQ(1u, a->padding);
  EXPECT_LT(a->conflicts, a->conflictsUnpadded);
  EXPECT_EQ("j", mv.kernels[0].sharedLoop);
  // x is reused (every thread reads x[j]): staged as before, not for
  // coalescing.
  const polyhedral::SharedTile *x = tileOf(mv, "x");
  ASSERT_NE(nullptr, x);
  EXPECT_FALSE(x->forCoalescing);

  GpuProgram tmv = runGpuPipeline(*tmvSource, options);
  ASSERT_EQ(1u, tmv.kernels.size());
  EXPECT_EQ(nullptr, tileOf(tmv, "A"));

  // Off by default: mv's A stays in global memory.
  PipelineOptions off;
  off.mapping.default1D = {64};
  GpuProgram plain = runGpuPipeline(*mvSource, off);
  EXPECT_EQ(nullptr, tileOf(plain, "A"));
  // A 256 x 33 tile of doubles does not fit: A stays in global memory.
  PipelineOptions wide;
  wide.stageUncoalesced = polyhedral::StageUncoalesced::All;
  GpuProgram big = runGpuPipeline(*mvSource, wide);
  EXPECT_EQ(nullptr, tileOf(big, "A"));
}

/// B[j][i] = A[read] on an n x n square, loop i outside j: a
/// transposition with the default `read` "i, j".
std::unique_ptr<polyhedral::Scop> transposeScop(isl::ctx ctx,
                                                const std::string &read =
                                                    "i, j") {
  auto scop = newScop(ctx, {"n"}, "[n] -> { : }");
  addArray(*scop, "A", {"[n] -> { [(n)] }", "[n] -> { [(n)] }"});
  addArray(*scop, "B", {"[n] -> { [(n)] }", "[n] -> { [(n)] }"});
  addStatement(*scop, "S0", "[n] -> { S0[i, j] : 0 <= i < n and 0 <= j < n }",
               {"i", "j"}, {0, 0, 0},
               {{Read, "A", "[n] -> { S0[i, j] -> A[" + read + "] }"},
                {Write, "B", "[n] -> { S0[i, j] -> B[j, i] }"}});
  scop->originalSchedule =
      isl::union_map(ctx, "[n] -> { S0[i, j] -> [0, i, 0, j, 0] }");
  return scop;
}

// A transposition coalesces either its read or its write. Staging can fix
// only the read, so by default (--stage-uncoalesced=blocks: a kernel without
// a loop to tile) threadIdx.x runs along i (B's rows are written coalesced)
// and A goes through a shared tile that the block copies along A's rows and
// the threads read down its columns: a 32 x 32 tile, tile[32][32 + 1]
// (Baskaran et al.'s padding). With --stage-uncoalesced=off, threadIdx.x
// runs along the innermost loop j (A read coalesced) and nothing is staged.
TEST_F(MemoryPromotionTest, TranspositionWritesCoalescedAndStagesItsRead) {
  auto source = transposeScop(ctx());
  PipelineOptions options;
  options.mapping.default2D = {32, 32};
  options.mapping.fitDefaults = false;
  GpuProgram staged = runGpuPipeline(*source, options);
  ASSERT_EQ(1u, staged.kernels.size());
  const Kernel &kernel = staged.kernels[0];
  ASSERT_EQ(2u, kernel.mapping->numMapped);
  EXPECT_EQ(0u, kernel.mapping->hardwareDim[0]); // i on threadIdx.x
  EXPECT_EQ(1u, kernel.mapping->hardwareDim[1]);
  const polyhedral::SharedTile *a = tileOf(staged, "A");
  ASSERT_NE(nullptr, a) << int(kernel.noShared.why);
  EXPECT_TRUE(a->forCoalescing);
  EXPECT_EQ((std::vector<long>{32, 32}), a->sizes);
  EXPECT_EQ(1u, a->padding);
  EXPECT_LT(a->conflicts, a->conflictsUnpadded);
  EXPECT_TRUE(kernel.sharedLoop.empty()); // once per block
  EXPECT_EQ(nullptr, tileOf(staged, "B"));

  // By default a transposition's tile is 32 x 32 on 32 x 8 threads: each
  // warp of the copy reads a row of 32 elements of A, and each thread
  // copies and writes 4 rows of the tile (in a loop, not unrolled).
  GpuProgram fitted = runGpuPipeline(*source, PipelineOptions());
  ASSERT_EQ(1u, fitted.kernels.size());
  const Kernel &four = fitted.kernels[0];
  EXPECT_EQ((std::vector<unsigned>{32, 8}), four.mapping->blockSize);
  EXPECT_EQ((std::vector<unsigned>{1, 4}), four.mapping->registerTile);
  EXPECT_FALSE(four.jamPoints);
  const polyhedral::SharedTile *fittedA = tileOf(fitted, "A");
  ASSERT_NE(nullptr, fittedA) << int(four.noShared.why);
  EXPECT_EQ((std::vector<long>{32, 32}), fittedA->sizes);
  EXPECT_EQ(1u, fittedA->padding);

  // A copy whose loops run across the rows of both arrays (B[j][i] =
  // A[j][i], loop i outside) has threadIdx.x along i for both references:
  // nothing to stage, the default 32 x 8 block.
  auto across = transposeScop(ctx(), "j, i");
  GpuProgram copy = runGpuPipeline(*across, PipelineOptions());
  ASSERT_EQ(1u, copy.kernels.size());
  EXPECT_EQ(0u, copy.kernels[0].mapping->hardwareDim[0]); // i on threadIdx.x
  EXPECT_TRUE(copy.kernels[0].sharedTiles.empty());
  EXPECT_EQ((std::vector<unsigned>{32, 8}), copy.kernels[0].mapping->blockSize);

  PipelineOptions off;
  off.stageUncoalesced = polyhedral::StageUncoalesced::Off;
  off.mapping.default2D = {32, 32};
  off.mapping.fitDefaults = false;
  GpuProgram plain = runGpuPipeline(*source, off);
  ASSERT_EQ(1u, plain.kernels.size());
  EXPECT_EQ(1u, plain.kernels[0].mapping->hardwareDim[0]); // j on threadIdx.x
  EXPECT_TRUE(plain.kernels[0].sharedTiles.empty());
}

// B[i][j] = c0[0] + ... + c9[0]: ten one-element arrays that every thread
// reads alike; a kernel reads at most kConstantArraysPerKernel of them from
// constant memory (OpenCL's minimum of __constant arguments), the others
// as before.
TEST_F(MemoryPromotionTest, ConstantArraysPerKernelAreCapped) {
  auto scop = newScop(ctx(), {}, "{ : }");
  addArray(*scop, "B", {"{ [(256)] }", "{ [(256)] }"});
  std::vector<AccessSpec> accesses;
  for (int c = 0; c < 10; ++c) {
    std::string name = "c" + std::to_string(c);
    addArray(*scop, name, {"{ [(1)] }"});
    accesses.push_back({Read, name, "{ S0[i, j] -> " + name + "[0] }"});
  }
  accesses.push_back({Write, "B", "{ S0[i, j] -> B[i, j] }"});
  addStatement(*scop, "S0", "{ S0[i, j] : 0 <= i, j < 256 }", {"i", "j"},
               {0, 0, 0}, accesses);
  scop->originalSchedule =
      isl::union_map(ctx(), "{ S0[i, j] -> [0, i, 0, j, 0] }");
  GpuProgram program = runGpuPipeline(*scop, PipelineOptions());
  ASSERT_EQ(1u, program.kernels.size());
  EXPECT_EQ(polyhedral::kConstantArraysPerKernel,
            program.kernels[0].constantArrays.size());
  EXPECT_EQ(polyhedral::kConstantArraysPerKernel, program.constants.size());
  for (const GpuProgram::ConstantArray &c : program.constants)
    EXPECT_EQ(1, c.elements);
}

} // namespace
} // namespace polycuda::test
