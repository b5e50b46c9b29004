//===- DelinearizationTest.cpp - Flat arrays get the kernels of 2-D ones --===//
//
// gemm and a 5-point stencil written over flat restrict pointers
// (`C[i * nj + j]`) and over `double C[ni][nj]` parameters: the front end
// reads the flat subscripts as rows and columns, so the mapping makes the
// same decisions (blocks, shared tiles, register tiles, thread order) and
// the printed kernels are the same text, with the default options and with
// register tiles forced. Only the host code differs: a flat array's first
// extent is unknown.
//
//===----------------------------------------------------------------------===//
#include "Translation.h"

#include "../polyhedral/IslTestSupport.h"

namespace polycuda::test {
namespace {

using translator::FrontendOptions;
using translator::ParsedInput;

const char *kGemm2d = R"(
void gemm(int ni, int nj, int nk, double alpha, double beta,
          double C[ni][nj], double A[ni][nk], double B[nk][nj]) {
#pragma scop
  for (int i = 0; i < ni; i++) {
    for (int j = 0; j < nj; j++)
      C[i][j] *= beta;
    for (int k = 0; k < nk; k++)
      for (int j = 0; j < nj; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
#pragma endscop
}
)";

const char *kGemmFlat = R"(
void gemm(int ni, int nj, int nk, double alpha, double beta,
          double *restrict C, const double *restrict A,
          const double *restrict B) {
#pragma scop
  for (int i = 0; i < ni; i++) {
    for (int j = 0; j < nj; j++)
      C[i * nj + j] *= beta;
    for (int k = 0; k < nk; k++)
      for (int j = 0; j < nj; j++)
        C[i * nj + j] += alpha * A[i * nk + k] * B[k * nj + j];
  }
#pragma endscop
}
)";

const char *kStencil2d = R"(
void stencil(int n, int steps, double u[n][n], double v[n][n]) {
#pragma scop
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        v[i][j] = 0.2 * (u[i][j] + u[i - 1][j] + u[i + 1][j] + u[i][j - 1] +
                         u[i][j + 1]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        u[i][j] = v[i][j];
  }
#pragma endscop
}
)";

const char *kStencilFlat = R"(
void stencil(int n, int steps, double *restrict u, double *restrict v) {
#pragma scop
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        v[i * n + j] = 0.2 * (u[i * n + j] + u[(i - 1) * n + j] +
                              u[(i + 1) * n + j] + u[i * n + j - 1] +
                              u[i * n + j + 1]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        u[i * n + j] = v[i * n + j];
  }
#pragma endscop
}
)";

class DelinearizationTest : public IslTest {
protected:
  /// The kernels of `code`'s CUDA translation: the .cu file up to the host
  /// code of its scop, without its first line (which names the input).
  std::string kernels(const char *code, bool registerTiles) {
    ParsedInput input;
    EXPECT_TRUE(
        translator::parseCode(code, "k.c", FrontendOptions{}, ctx(), input));
    translator::TranslationOptions options;
    options.target = "cuda";
    if (registerTiles) {
      options.pipeline.mapping.registerTiles = true;
      options.pipeline.mapping.registerTile = {2, 2};
    }
    translator::Translation result;
    EXPECT_TRUE(translator::translate(input, options, result));
    std::string text = result.text;
    text = text.substr(text.find('\n') + 1);
    size_t host = text.find("/* polycuda: scop at");
    EXPECT_NE(std::string::npos, host) << text;
    EXPECT_NE(std::string::npos, text.find("__global__")) << text;
    return text.substr(0, host);
  }
};

TEST_F(DelinearizationTest, FlatGemmGetsTheKernelOfTwoDimensionalGemm) {
  EXPECT_EQ(kernels(kGemm2d, false), kernels(kGemmFlat, false));
}

TEST_F(DelinearizationTest, FlatGemmGetsTheSameRegisterTiles) {
  std::string flat = kernels(kGemmFlat, true);
  EXPECT_NE(std::string::npos, flat.find("__shared__")) << flat;
  EXPECT_EQ(kernels(kGemm2d, true), flat);
}

TEST_F(DelinearizationTest, FlatStencilGetsTheKernelsOfTwoDimensionalOnes) {
  EXPECT_EQ(kernels(kStencil2d, false), kernels(kStencilFlat, false));
}

} // namespace
} // namespace polycuda::test
