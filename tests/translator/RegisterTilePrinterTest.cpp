//===- RegisterTilePrinterTest.cpp - A register tile's printed code -------===//
//
// gemm through translate() with register tiles (--register-tile=2x2): the
// accumulator is an array of one register per point, every index into it
// is built from constants (the printer unrolls the points' loops, so nvcc
// keeps the array in registers), and the same holds for OpenCL, also for
// a kernel whose AST the second thread builds; the test
// of a full tile goes around the loop over k, which CUDA bounds in
// registers and partly unrolls; A's shared tile holds alpha * A.
//
//===----------------------------------------------------------------------===//
#include "Translation.h"

#include "../polyhedral/IslTestSupport.h"

#include <regex>

namespace polycuda::test {
namespace {

using translator::FrontendOptions;
using translator::ParsedInput;

const char *kGemm = R"(
void gemm(int n, double alpha, double C[512][512], double A[512][512],
          double B[512][512]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        C[i][j] += alpha * A[i][k] * B[k][j];
#pragma endscop
}
)";

#define EXPECT_CONTAINS(text, piece)                                           \
  EXPECT_NE(std::string::npos, (text).find(piece))                             \
      << "missing '" << (piece) << "' in:\n"                                   \
      << (text)

/// Two accumulators of one loop nest: two kernels, whose ASTs are built on
/// two threads (generateGpuAsts).
const char *kTwoKernels = R"(
void two(int n, int m, int k, double D[n][m], double E[n][m],
         double A[n][k], double B[k][m]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int p = 0; p < k; p++) {
        D[i][j] -= A[i][p] * B[p][j];
        E[i][j] += A[i][p] * A[i][p] * B[p][j];
      }
#pragma endscop
}
)";

class RegisterTilePrinterTest : public IslTest {
protected:
  translator::Translation translate(const std::string &target,
                                    const char *code = kGemm) {
    EXPECT_TRUE(translator::parseCode(code, "g.c", FrontendOptions{}, ctx(),
                                      input));
    translator::TranslationOptions options;
    options.target = target;
    options.pipeline.mapping.registerTiles = true;
    options.pipeline.mapping.registerTile = {2, 2};
    translator::Translation result;
    EXPECT_TRUE(translator::translate(input, options, result));
    return result;
  }
  ParsedInput input;
};

TEST_F(RegisterTilePrinterTest, AccumulatorIsAnArrayWithConstantIndices) {
  for (const std::string target : {"cuda", "opencl"}) {
    translator::Translation result = translate(target);
    const polyhedral::GpuProgram &program = result.regions[0].program;
    ASSERT_EQ(1u, program.kernels.size());
    EXPECT_TRUE(program.kernels[0].mapping->registerTiled());
    const std::string &out = result.text;
    EXPECT_CONTAINS(out, "double polycuda_C_reg[4];");
    // Each unrolled copy of a point's loop fixes its iterator.
    EXPECT_CONTAINS(out, " = 0;");
    EXPECT_CONTAINS(out, " = 1;");
    // Every use of the array is indexed by iterators that an unrolled copy
    // declared constant: `const long kN = v;` before it.
    std::regex use("polycuda_C_reg\\[([^\\]]*)\\]");
    unsigned uses = 0;
    for (auto it = std::sregex_iterator(out.begin(), out.end(), use);
         it != std::sregex_iterator(); ++it) {
      std::string index = (*it)[1];
      if (index == "4")
        continue; // the declaration
      ++uses;
      std::regex iterator("k[0-9]+");
      for (auto name = std::sregex_iterator(index.begin(), index.end(),
                                            iterator);
           name != std::sregex_iterator(); ++name) {
        std::string declared = "const long " + (*name)[0].str() + " = ";
        size_t at = out.rfind(declared, it->position());
        ASSERT_NE(std::string::npos, at) << index << " in " << target;
        char value = out[at + declared.size()];
        EXPECT_TRUE(value >= '0' && value <= '9')
            << "not a constant: " << out.substr(at, 60);
      }
    }
    // Loads, updates and stores of the four registers.
    EXPECT_GE(uses, 3u) << out;
  }
}

// The kernel whose AST the second thread builds reads its tree back from
// text: its unroll marks get their payloads again, so the printer unrolls
// its points too (it failed its own check on a register without an index,
// and the driver's retry put the scop on one thread).
TEST_F(RegisterTilePrinterTest, EveryKernelUnrollsItsPoints) {
  for (const std::string target : {"cuda", "opencl"}) {
    translator::Translation result = translate(target, kTwoKernels);
    const polyhedral::GpuProgram &program = result.regions[0].program;
    EXPECT_FALSE(program.scheduleIsFallback());
    ASSERT_EQ(2u, program.kernels.size()) << target;
    for (const polyhedral::Kernel &kernel : program.kernels)
      EXPECT_TRUE(kernel.mapping->registerTiled()) << kernel.name;
    for (const char *array : {"D", "E"}) {
      std::string reg = std::string("polycuda_") + array + "_reg";
      EXPECT_CONTAINS(result.text, "double " + reg + "[4];");
      // Indexed by the unrolled copies' constant iterators.
      EXPECT_TRUE(std::regex_search(result.text,
                                    std::regex(reg + R"(\[[^\]]*k[0-9])")))
          << reg << " in " << target;
    }
  }
}

TEST_F(RegisterTilePrinterTest, GridCountsTilesNotBlocksOfThreads) {
  // 2 x 2 points on 32 x 8 threads: tiles of 64 (j, on x) by 16 (i, on
  // y). The grid has one block per tile, no blocks without points.
  translator::Translation result = translate("cuda");
  const polyhedral::Kernel &kernel = result.regions[0].program.kernels[0];
  ASSERT_EQ(2u, kernel.mapping->numMapped);
  EXPECT_EQ(16u, kernel.mapping->tileSize(0));
  EXPECT_EQ(64u, kernel.mapping->tileSize(1));
  const std::string &out = result.text;
  EXPECT_CONTAINS(out, "polycuda_grid_0 = (((n - 1) / 16) + 1);");
  EXPECT_CONTAINS(out, "polycuda_grid_1 = (((n - 1) / 64) + 1);");
  EXPECT_CONTAINS(out, "dim3 polycuda_block(32, 8, 1);");
}

TEST_F(RegisterTilePrinterTest, FullTileTestIsOutsideThePartlyUnrolledLoop) {
  // The loop over k holds only the points: whether the tile is full does
  // not change along it, so the test goes around two copies of the loop,
  // the first (no guards) partly unrolled on CUDA.
  translator::Translation result = translate("cuda");
  const std::string &out = result.text;
  std::regex hoisted(R"(\n( *)if \((.*)\) \{\n#pragma unroll 4\n\1  )"
                     R"(for \(long (k[0-9]+) = (.*)\n)");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(out, match, hoisted)) << out;
  std::string k = match[3];
  // The test does not read the loop's iterator, and the loop's body starts
  // with a copy of the points, not with a test.
  EXPECT_FALSE(
      std::regex_search(match[2].str(), std::regex("\\b" + k + "\\b")))
      << match[0];
  std::string after = out.substr(match.position() + match.length());
  EXPECT_EQ('{', after[after.find_first_not_of(' ')]) << after.substr(0, 200);
  // The guarded copy of the loop follows in the else branch.
  EXPECT_CONTAINS(after, "} else {\n" + match[1].str() + "  for (long " + k +
                             " = " + match[4].str());
  // OpenCL: the same structure, without the pragma.
  translator::Translation cl = translate("opencl");
  EXPECT_EQ(std::string::npos, cl.text.find("#pragma unroll 4"));
  std::string loop = "for (long " + k + " = " + match[4].str();
  EXPECT_CONTAINS(cl.text, "if (" + match[2].str() + ") {\\n\"\n  \"" +
                               match[1].str() + "  " + loop);
}

TEST_F(RegisterTilePrinterTest, BoundsTheRegistersOfAJammedTileOnCuda) {
  // 2 x 2 points of double on 32 x 8 threads: 8 words of accumulators,
  // two blocks of 256 threads per SM (at most 128 registers a thread).
  translator::Translation result = translate("cuda");
  const polyhedral::Kernel &kernel = result.regions[0].program.kernels[0];
  EXPECT_EQ(2u, kernel.minBlocksPerSm);
  EXPECT_CONTAINS(result.text, "__global__ void __launch_bounds__(256, 2) "
                               "gemm_scop0_kernel0(");
  translator::Translation cl = translate("opencl");
  EXPECT_EQ(std::string::npos, cl.text.find("launch_bounds"));
}

TEST_F(RegisterTilePrinterTest, SharedTileOfAHoldsItsProductsWithAlpha) {
  // Every reference of A is `alpha * A[i][k]`: the copy stores the
  // products, the update reads them (the same multiplication, rounded the
  // same, once per element of the tile instead of once per use).
  for (const std::string target : {"cuda", "opencl"}) {
    translator::Translation result = translate(target);
    const polyhedral::Kernel &kernel = result.regions[0].program.kernels[0];
    const polyhedral::Scop &scop = *result.regions[0].program.scop;
    unsigned scaled = 0;
    for (const polyhedral::SharedTile &tile : kernel.sharedTiles) {
      const std::string &name = scop.arrays[tile.array].name;
      EXPECT_EQ(name == "A" ? "alpha" : "", tile.scale) << name;
      scaled += !tile.scale.empty();
    }
    EXPECT_EQ(1u, scaled) << target;
    const std::string &out = result.text;
    EXPECT_TRUE(std::regex_search(
        out, std::regex(R"(polycuda_A_shared\[.*\] = alpha \* A\[)")))
        << out;
    EXPECT_EQ(std::string::npos, out.find("alpha * polycuda_A_shared"))
        << target;
    EXPECT_CONTAINS(out, "+= polycuda_A_shared[");
  }
}

} // namespace
} // namespace polycuda::test
