//===- HostCodeTest.cpp - Scalar code kept on the host --------------------===//
//
// A scalar prologue (deriche's filter coefficients) runs on the host instead
// of one-thread kernels: which statements qualify (outside every loop, only
// the user's scalars, nothing else writes them or precedes them in a
// dependence), that their scalars get no device copy and reach the kernels
// as values, and the printed host code (CUDA's launcher through pointers,
// OpenCL's host code in place), and not with --host-scalars=off. One-thread
// kernels that follow each other become one.
//
//===----------------------------------------------------------------------===//
#include "Translation.h"

#include "../polyhedral/IslTestSupport.h"

#include <algorithm>

namespace polycuda::test {
namespace {

using translator::FrontendOptions;
using translator::ParsedInput;

const char *kPrologue = R"(
#include <math.h>
void smooth(int n, float alpha, float in[256], float out[256]) {
  float k, a1, b1;
#pragma scop
  k = (1.0f - expf(-alpha)) * (1.0f - expf(-alpha));
  a1 = k;
  b1 = 2.0f * expf(-alpha);
  for (int i = 1; i < n; i++)
    out[i] = a1 * in[i] + b1 * in[i - 1];
#pragma endscop
}
)";

// c is written again by a kernel's statement; d is computed from an array
// element the loop writes: neither stays on the host, e does.
const char *kMixed = R"(
void mixed(int n, double A[64], double B[64]) {
  double c, d, e;
#pragma scop
  e = 2.0;
  c = 1.0;
  for (int i = 0; i < n; i++)
    A[i] = A[i] * e + c;
  c = A[0];
  d = A[1] + 1.0;
  for (int i = 0; i < n; i++)
    B[i] = c + d;
#pragma endscop
}
)";

// Three statements on one thread between two parallel loops (they touch
// arrays: not host code).
const char *kOneThread = R"(
void chain(int n, double A[64], double B[64]) {
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = A[i] * 2.0;
  B[0] = A[0] + 1.0;
  B[1] = B[0] * A[1];
  B[2] = B[1] + A[2];
  for (int i = 3; i < n; i++)
    B[i] = A[i] + B[2];
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

class HostCodeTest : public IslTest {
protected:
  translator::Translation translate(const char *code,
                                    const std::string &target,
                                    bool hostScalars = true) {
    EXPECT_TRUE(translator::parseCode(code, "h.c", FrontendOptions{}, ctx(),
                                      input));
    translator::TranslationOptions options;
    options.target = target;
    options.pipeline.mapping.hostScalars = hostScalars;
    translator::Translation result;
    EXPECT_TRUE(translator::translate(input, options, result));
    return result;
  }
  std::vector<std::string>
  hostScalarNames(const polyhedral::GpuProgram &program) {
    std::vector<std::string> names;
    for (unsigned a : program.hostScalars)
      names.push_back(program.scop->arrays[a].name);
    std::sort(names.begin(), names.end());
    return names;
  }
  ParsedInput input;
};

TEST_F(HostCodeTest, ScalarPrologueStaysOnTheHost) {
  translator::Translation result = translate(kPrologue, "cuda");
  const polyhedral::GpuProgram &program = result.regions[0].program;
  EXPECT_EQ(3u, program.hostStatements.size());
  EXPECT_EQ((std::vector<std::string>{"a1", "b1", "k"}),
            hostScalarNames(program));
  // One kernel, the loop's: no one-thread kernels.
  ASSERT_EQ(1u, program.kernels.size());
  EXPECT_EQ(1u, program.kernels[0].mapping->numMapped);
  // No device copies of the scalars.
  for (const polyhedral::Transfer &t : program.transfers)
    EXPECT_FALSE(program.isHostScalar(t.array))
        << program.scop->arrays[t.array].name;
  const std::string &out = result.text;
  // The launcher computes them through the user's pointers and passes
  // their values.
  EXPECT_CONTAINS(out, "(*(float *)k) = ");
  EXPECT_CONTAINS(out, "(*(float *)a1) = (*(float *)k);");
  EXPECT_CONTAINS(out, "(*(float *)a1), (*(float *)b1)");
  EXPECT_CONTAINS(out, "float k, float a1, float b1");
  EXPECT_LACKS(out, "dev_k");
  EXPECT_LACKS(out, "k[0]");
}

TEST_F(HostCodeTest, OffTheScalarCodeRunsOnTheDevice) {
  // --host-scalars=off: the prologue is a one-thread kernel before the
  // loop's, its scalars copied to the device.
  translator::Translation result = translate(kPrologue, "cuda", false);
  const polyhedral::GpuProgram &program = result.regions[0].program;
  EXPECT_TRUE(program.hostStatements.empty());
  EXPECT_TRUE(program.hostScalars.empty());
  ASSERT_EQ(2u, program.kernels.size());
  EXPECT_EQ(0u, program.kernels[0].mapping->numMapped);
  EXPECT_EQ(1u, program.kernels[1].mapping->numMapped);
  EXPECT_CONTAINS(result.text, "dev_k");
  EXPECT_LACKS(result.text, "(*(float *)k) = ");
}

TEST_F(HostCodeTest, OpenCLRunsItInPlace) {
  translator::Translation result = translate(kPrologue, "opencl");
  const std::string &out = result.text;
  EXPECT_CONTAINS(out, "  a1 = k;");
  EXPECT_LACKS(out, "dev_a1");
}

// C converts a float argument of exp, pow or sqrt to double and computes
// in double; C++ and CUDA would pick the float overloads and round
// differently (deriche's coefficients were off by 1-2 ulps). The
// conversions are printed as casts, and OpenCL then enables doubles.
const char *kFloatMath = R"(
#include <math.h>
void coef(int n, float alpha, float in[256], float out[256]) {
  float k;
#pragma scop
  k = pow(1.0f - exp(-alpha), 2);
  for (int i = 0; i < n; i++)
    out[i] = k * sqrt(in[i]) + sqrtf(in[i]);
#pragma endscop
}
)";

TEST_F(HostCodeTest, MathArgumentsAreConvertedAsInC) {
  translator::Translation cuda = translate(kFloatMath, "cuda");
  EXPECT_CONTAINS(cuda.text, "- exp((double)-alpha), (double)2)");
  EXPECT_CONTAINS(cuda.text, "sqrt((double)in[");
  // sqrtf takes the float it is given: no cast.
  EXPECT_CONTAINS(cuda.text, "+ sqrtf(in[");
  translator::Translation opencl = translate(kFloatMath, "opencl");
  EXPECT_CONTAINS(opencl.text, "cl_khr_fp64 : enable");
  EXPECT_CONTAINS(opencl.text, "sqrt((double)in[");
}

TEST_F(HostCodeTest, OpenCLEnablesDoublesOnlyWhenTheyAreUsed) {
  translator::Translation opencl = translate(kPrologue, "opencl");
  EXPECT_LACKS(opencl.text, "cl_khr_fp64");
}

TEST_F(HostCodeTest, OnlyWhatNothingElseWritesOrPrecedes) {
  translator::Translation result = translate(kMixed, "cuda");
  const polyhedral::GpuProgram &program = result.regions[0].program;
  EXPECT_EQ((std::vector<std::string>{"e"}), hostScalarNames(program));
  ASSERT_EQ(1u, program.hostStatements.size());
}

TEST_F(HostCodeTest, OneThreadKernelsThatFollowEachOtherAreOne) {
  translator::Translation result = translate(kOneThread, "cuda");
  const polyhedral::GpuProgram &program = result.regions[0].program;
  EXPECT_TRUE(program.hostStatements.empty());
  ASSERT_EQ(3u, program.kernels.size());
  // isl's scheduler puts B[0] = ... in the first loop's band (at i = 0);
  // the other two are one kernel, not two.
  unsigned oneThread = 0;
  for (const polyhedral::Kernel &kernel : program.kernels)
    if (kernel.mapping->numMapped == 0) {
      ++oneThread;
      EXPECT_EQ(2u, kernel.statements.size()) << kernel.name;
    }
  EXPECT_EQ(1u, oneThread);
}

} // namespace
} // namespace polycuda::test
