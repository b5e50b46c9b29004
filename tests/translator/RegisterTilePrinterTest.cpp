//===- RegisterTilePrinterTest.cpp - A register tile's printed code -------===//
//
// gemm through translate() with register tiles (--register-tile=2x2): the
// accumulator is an array of one register per point, every index into it
// is built from constants (the printer unrolls the points' loops, so nvcc
// keeps the array in registers), and the same holds for OpenCL.
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

class RegisterTilePrinterTest : public IslTest {
protected:
  translator::Translation translate(const std::string &target) {
    EXPECT_TRUE(translator::parseCode(kGemm, "g.c", FrontendOptions{}, ctx(),
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
    EXPECT_TRUE(program.kernels[0].registerTiled());
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

TEST_F(RegisterTilePrinterTest, GridCountsTilesNotBlocksOfThreads) {
  // 2 x 2 points on 32 x 8 threads: tiles of 64 (j, on x) by 16 (i, on
  // y). The grid has one block per tile, no blocks without points.
  translator::Translation result = translate("cuda");
  const polyhedral::Kernel &kernel = result.regions[0].program.kernels[0];
  ASSERT_EQ(2u, kernel.numMapped);
  EXPECT_EQ(16u, kernel.tileSize(0));
  EXPECT_EQ(64u, kernel.tileSize(1));
  const std::string &out = result.text;
  EXPECT_CONTAINS(out, "polycuda_grid_0 = (((n - 1) / 16) + 1);");
  EXPECT_CONTAINS(out, "polycuda_grid_1 = (((n - 1) / 64) + 1);");
  EXPECT_CONTAINS(out, "dim3 polycuda_block(32, 8, 1);");
}

} // namespace
} // namespace polycuda::test
