//===- PersistentPrinterTest.cpp - Host loops as persistent kernels -------===//
//
// C snippets through translate(): which host loops become persistent
// kernels (polyhedral/Persistent.h), why the others do not, and what the
// CUDA printer makes of them; OpenCL keeps its launches.
//
//===----------------------------------------------------------------------===//
#include "Report.h"
#include "Translation.h"

#include "../polyhedral/IslTestSupport.h"

namespace polycuda::test {
namespace {

using translator::FrontendOptions;
using translator::ParsedInput;

const char *kTrisolv = R"(
void trisolv(int n, double L[64][64], double x[64], double b[64]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    x[i] = b[i];
    for (int j = 0; j < i; j++)
      x[i] -= L[i][j] * x[j];
    x[i] = x[i] / L[i][i];
  }
#pragma endscop
}
)";

const char *kJacobi = R"(
void jacobi(int tsteps, int n, double A[64][64], double B[64][64]) {
#pragma scop
  for (int t = 0; t < tsteps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] +
                         A[i - 1][j]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] +
                         B[i - 1][j]);
  }
#pragma endscop
}
)";

#define EXPECT_CONTAINS(text, piece)                                           \
  EXPECT_NE(std::string::npos, (text).find(piece))                             \
      << "missing '" << (piece) << "' in:\n"                                   \
      << (text)
#define EXPECT_LACKS(text, piece)                                              \
  EXPECT_EQ(std::string::npos, (text).find(piece))                             \
      << "unexpected '" << (piece) << "' in:\n"                                \
      << (text)

class PersistentPrinterTest : public IslTest {
protected:
  /// Translates `code` for `target`; `--persistent=auto` unless `off`.
  translator::Translation translate(const char *code, const std::string &target,
                                    bool off = false,
                                    const std::string &sizesKey = "",
                                    std::vector<unsigned> sizes = {}) {
    EXPECT_TRUE(translator::parseCode(code, "p.c", FrontendOptions{}, ctx(),
                                      input));
    translator::TranslationOptions options;
    options.target = target;
    options.pipeline.persistent.enabled = !off;
    // The snippets' arrays are small: on a GPU of one SM their kernels keep
    // the default blocks (256, 32 x 8) instead of shrinking to fill it.
    options.pipeline.mapping.device.multiprocessors = 1;
    // The five-point stencils read their neighbourhood through shared
    // tiles (by default only stencils of 9 points or more do).
    options.pipeline.sharedNeighbourhoodMin = 2;
    if (off)
      options.pipeline.persistent.recordOff = true;
    if (!sizesKey.empty())
      options.pipeline.mapping.blockSizes[sizesKey] = sizes;
    translator::Translation result;
    EXPECT_TRUE(translator::translate(input, options, result));
    return result;
  }

  ParsedInput input;
};

TEST_F(PersistentPrinterTest, TrisolvLoopBecomesOnePersistentKernel) {
  translator::Translation result = translate(kTrisolv, "cuda");
  const polyhedral::GpuProgram &program = result.regions[0].program;
  ASSERT_EQ(1u, program.persistentLoops.size());
  const polyhedral::PersistentLoop &loop = program.persistentLoops[0];
  EXPECT_TRUE(loop.persistent) << int(loop.why);
  EXPECT_EQ("c0", loop.loop);
  EXPECT_EQ(2u, loop.kernels.size());
  EXPECT_EQ(256u, loop.threads);
  EXPECT_FALSE(loop.singleBlock);
  const std::string &out = result.text;
  EXPECT_CONTAINS(out, "#include <cooperative_groups.h>");
  EXPECT_CONTAINS(out, "__global__ void __launch_bounds__(256) "
                       "trisolv_scop0_persistent_0(");
  // One phase runs on one thread: the other threads sit it out.
  EXPECT_CONTAINS(out, "if (polycuda_thread < 1) {");
  EXPECT_CONTAINS(out, "polycuda_grid.sync();");
  EXPECT_CONTAINS(out, "polycuda_cuda_persistent_blocks((const void "
                       "*)trisolv_scop0_persistent_0, 256, polycuda_most, 1,");
  // The former launches stay as the fallback where the device cannot.
  EXPECT_CONTAINS(out, "} else {");
  EXPECT_CONTAINS(out, "trisolv_scop0_kernel2<<<");
}

TEST_F(PersistentPrinterTest, OffKeepsTheLaunchesAndSaysWhy) {
  translator::Translation result = translate(kTrisolv, "cuda", true);
  const polyhedral::GpuProgram &program = result.regions[0].program;
  ASSERT_EQ(1u, program.persistentLoops.size());
  EXPECT_FALSE(program.persistentLoops[0].persistent);
  EXPECT_EQ(polyhedral::PersistentLoop::Why::Off,
            program.persistentLoops[0].why);
  EXPECT_LACKS(result.text, "persistent");
  EXPECT_CONTAINS(result.text, "trisolv_scop0_kernel2<<<");
}

TEST_F(PersistentPrinterTest, OpenCLHasNoPersistentKernels) {
  translator::Translation result = translate(kTrisolv, "opencl");
  EXPECT_TRUE(result.regions[0].program.persistentLoops.empty());
  EXPECT_LACKS(result.text, "persistent");
}

// Both stencil kernels read through shared tiles with 256 threads, as many
// as the persistent block: every thread reaches their barriers, and a
// block barrier ends each virtual block before the next one's copies.
TEST_F(PersistentPrinterTest, SharedTilesWithAsManyThreadsAreFused) {
  translator::Translation result = translate(kJacobi, "cuda");
  const polyhedral::GpuProgram &program = result.regions[0].program;
  ASSERT_EQ(1u, program.persistentLoops.size());
  EXPECT_TRUE(program.persistentLoops[0].persistent)
      << int(program.persistentLoops[0].why);
  EXPECT_LACKS(result.text, "if (polycuda_thread <");
  EXPECT_CONTAINS(result.text, "__syncthreads();\n        }\n      }\n"
                               "      polycuda_grid.sync();");
}

// A kernel that waits for its block with fewer threads than another kernel
// of the loop would leave threads of the persistent block away from its
// barriers: the loop keeps its launches.
TEST_F(PersistentPrinterTest, SharedTilesWithFewerThreadsAreNotFused) {
  translator::Translation result =
      translate(kJacobi, "cuda", false, "kernel0", {16, 4});
  const polyhedral::GpuProgram &program = result.regions[0].program;
  ASSERT_EQ(1u, program.persistentLoops.size());
  const polyhedral::PersistentLoop &loop = program.persistentLoops[0];
  ASSERT_FALSE(program.kernels[0].sharedTiles.empty());
  EXPECT_FALSE(loop.persistent);
  EXPECT_EQ(256u, loop.threads);
  EXPECT_EQ(polyhedral::PersistentLoop::Why::WaitsForBlock, loop.why);
  std::string why = translator::persistentReason(program, loop);
  EXPECT_CONTAINS(why, "waits for its block");
  EXPECT_CONTAINS(why, "64 threads");
  EXPECT_LACKS(result.text, "persistent_0");
}

} // namespace
} // namespace polycuda::test
