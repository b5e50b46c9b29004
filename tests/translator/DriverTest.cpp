//===- DriverTest.cpp - The printers through the library ------------------===//
//
// A C snippet through parseCode, the polyhedral pipeline and each printer
// (CUDA, OpenCL, C/OpenMP), checked on key substrings of the output; and the
// runtime entry points the printers name, checked against runtime/.
//
//===----------------------------------------------------------------------===//
#include "HostPrinter.h"
#include "Pipeline.h"
#include "Translation.h"
#include "RuntimeNames.h"

#include "../polyhedral/IslTestSupport.h"

#include <cctype>
#include <fstream>
#include <sstream>

namespace polycuda::test {
namespace {

using polyhedral::GpuProgram;
using polyhedral::PipelineOptions;
using translator::FrontendOptions;
using translator::ParsedInput;

const char *kGemm = R"(
void gemm(int ni, int nj, int nk, double alpha, double C[64][64],
          double A[64][64], double B[64][64]) {
#pragma scop
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++)
      for (int k = 0; k < nk; k++)
        C[i][j] += alpha * A[i][k] * B[k][j];
#pragma endscop
}
)";

class DriverTest : public IslTest {
protected:
  void parse(const char *code) {
    ASSERT_TRUE(translator::parseCode(code, "gemm.c", FrontendOptions{}, ctx(),
                                      input));
    ASSERT_EQ(1u, input.regions.size());
  }

  std::vector<GpuProgram> mapAll(const PipelineOptions &options = {}) {
    std::vector<GpuProgram> programs;
    programs.reserve(input.regions.size());
    for (const translator::ScopRegion &region : input.regions)
      programs.push_back(polyhedral::runGpuPipeline(*region.scop, options));
    EXPECT_EQ(1u, programs[0].kernels.size());
    return programs;
  }

  std::string printGpu(const translator::GpuTarget &target,
                       const PipelineOptions &options = {}) {
    return translator::printGpuFile(input, mapAll(options), target);
  }

  translator::CudaFiles printCuda() {
    return translator::printCudaFiles(input, mapAll(),
                                      *translator::makeCudaTarget());
  }

  ParsedInput input;
};

#define EXPECT_CONTAINS(text, piece)                                           \
  EXPECT_NE(std::string::npos, (text).find(piece))                             \
      << "missing '" << (piece) << "' in:\n"                                   \
      << (text)

TEST_F(DriverTest, CudaOutputHasKernelLaunchAndChecks) {
  parse(kGemm);
  translator::CudaFiles files = printCuda();
  const std::string &out = files.device;
  EXPECT_CONTAINS(out, "#include \"polycuda_cuda.h\"");
  EXPECT_CONTAINS(out, "__global__ void");
  EXPECT_CONTAINS(out, "<<<");
  EXPECT_CONTAINS(out, "polycuda_cuda_check_launch");
  EXPECT_CONTAINS(out, "polycuda_cuda_alloc");
  EXPECT_CONTAINS(out, "polycuda_cuda_copy_box_to_device");
  EXPECT_CONTAINS(out, "POLYCUDA_TRANSFERS_AUTO");
  EXPECT_CONTAINS(out, "polycuda_cuda_begin_scop");
  EXPECT_CONTAINS(out, "polycuda_cuda_end_scop");
  EXPECT_CONTAINS(out, "polycuda_cuda_copy_box_to_host");
  EXPECT_CONTAINS(out, "polycuda_cuda_free");
  EXPECT_CONTAINS(out, "blockIdx.x");
  EXPECT_CONTAINS(out, "blockIdx.y");
  EXPECT_CONTAINS(out, "threadIdx.x");
  // The host code of the scop is a C-callable launcher after the kernels.
  EXPECT_CONTAINS(out, "extern \"C\" void polycuda_launch_gemm_scop0(");
  EXPECT_LT(out.find("__global__ void"), out.find("extern \"C\"")) << out;
  // The user's code stays in the host file, C: the scop is replaced by a
  // call of the launcher, declared before the function.
  const std::string &host = files.host;
  EXPECT_EQ(std::string::npos, host.find("#pragma scop")) << host;
  EXPECT_CONTAINS(host, "void gemm(");
  EXPECT_CONTAINS(host, "void polycuda_launch_gemm_scop0(");
  EXPECT_CONTAINS(host, "(void *)C");
  EXPECT_LT(host.find("void polycuda_launch_gemm_scop0("),
            host.find("void gemm(")) << host;
  EXPECT_EQ(std::string::npos, host.find("<<<")) << host;
  EXPECT_EQ(std::string::npos, host.find("polycuda_cuda_")) << host;
  EXPECT_EQ(std::string::npos, host.find("__global__")) << host;
}

// --sizes names a kernel by its statements (stable whatever the kernel's
// position) or by its position; a name that is no kernel's is an error.
TEST_F(DriverTest, SizesNameKernelsByTheirStatements) {
  // kGemm's scop is at line 4 of gemm.c.
  for (const char *key : {"S0", "S0@4", "kernel0"}) {
    parse(kGemm);
    translator::TranslationOptions options;
    options.pipeline.mapping.blockSizes[key] = {16, 4};
    translator::Translation result;
    ASSERT_TRUE(translator::translate(input, options, result)) << key;
    EXPECT_CONTAINS(result.text, "dim3 polycuda_block(16, 4, 1);");
    ASSERT_EQ(1u, result.regions[0].program.kernels.size());
    EXPECT_EQ("S0", result.regions[0].program.kernels[0].name);
    input = ParsedInput();
  }
  parse(kGemm);
  translator::TranslationOptions options;
  options.pipeline.mapping.blockSizes["S0@5"] = {16, 4};
  translator::Translation result;
  EXPECT_FALSE(translator::translate(input, options, result));
}

// A min/max subscript is bracketed inside the linearized index: `+` must
// not bind to the ternary's condition (a miscompile on CUDA and OpenCL).
TEST_F(DriverTest, ClampedSubscriptIsBracketedInLinearIndex) {
  parse(R"(
void clamp(int n, double A[64][64], double B[64][64]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      B[i][j] = A[i][(0 > j - 1 ? 0 : j - 1)] + A[i][max(j - 2, 0)];
#pragma endscop
}
)");
  // In global memory (A is read through a shared tile by default).
  PipelineOptions global;
  global.shared = false;
  for (bool cuda : {true, false}) {
    std::string out = printGpu(cuda ? *translator::makeCudaTarget()
                                    : *translator::makeOpenCLTarget(),
                               global);
    EXPECT_CONTAINS(out, "* (64) + (0 > ");
    EXPECT_CONTAINS(out, "* (64) + ((");
    EXPECT_EQ(std::string::npos, out.find("* (64) + 0 >")) << out;
  }
  // In the shared tile: the subscript bracketed before the offset.
  std::string out = printGpu(*translator::makeCudaTarget());
  EXPECT_CONTAINS(out, "polycuda_A_shared[");
  EXPECT_CONTAINS(out, " + ((0 > ");
}

// Iterators, block and thread indices, parameters and the helpers are
// 64-bit: skewed schedules multiply iterators by large coefficients.
TEST_F(DriverTest, IndexArithmeticIs64Bit) {
  parse(kGemm);
  translator::CudaFiles files = printCuda();
  EXPECT_CONTAINS(files.device, "const long b0 = blockIdx.");
  EXPECT_CONTAINS(files.device, "const long t0 = threadIdx.");
  EXPECT_CONTAINS(files.device, "for (long ");
  EXPECT_CONTAINS(files.device, "long polycuda_floord(long n, long d)");
  EXPECT_CONTAINS(files.device, "long ni, long nj, long nk");
  EXPECT_EQ(std::string::npos, files.device.find("for (int ")) << files.device;
}

// --thread-order=column:64,zigzag: the grid runs through columns (x inside
// a column, y over the columns); each block computes its indices from its
// grid position, and the kernel body is the linear order's.
TEST_F(DriverTest, ColumnOrderGridAndPrologue) {
  parse(kGemm);
  PipelineOptions column;
  column.mapping.threadOrder.kind =
      polyhedral::ThreadOrderRequest::Kind::Column;
  column.mapping.threadOrder.width = 64;
  column.mapping.threadOrder.zigzag = true;
  std::vector<GpuProgram> programs;
  programs.push_back(
      polyhedral::runGpuPipeline(*input.regions[0].scop, column));
  ASSERT_TRUE(programs[0].kernels[0].mapping->order.column);
  std::string out = translator::printCudaFiles(input, std::move(programs),
                                               *translator::makeCudaTarget())
                        .device;
  EXPECT_CONTAINS(out, "const long g0 = blockIdx.x;");
  EXPECT_CONTAINS(out, "const long g1 = blockIdx.y;");
  EXPECT_CONTAINS(out, "const long b0 = (g0 / 2);"); // rows: 2 blocks a row
  EXPECT_CONTAINS(out, "(2 * g1)"); // x: the column's first block
  EXPECT_CONTAINS(out, "dim3 polycuda_grid(polycuda_grid_0, polycuda_grid_1, 1)");
  std::string linear = printCuda().device;
  auto body = [](const std::string &text) {
    size_t start = text.find("const long t1");
    return text.substr(start, text.find("\n}\n", start) - start);
  };
  EXPECT_EQ(body(linear), body(out));
}

// --fp-contract=off: CUDA multiplies with the intrinsics nvcc never fuses
// into an FMA (in the type of the product), OpenCL says FP_CONTRACT OFF.
TEST_F(DriverTest, FpContractOffPrintsUnfusedProducts) {
  parse(R"(
void mixed(int n, float x[64], double y[64], double z[64]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    x[i] = x[i] * x[i] + 1.0f;
    y[i] = y[i] * z[i] + x[i] * 2;
    z[i] = (double)(i * 3) + y[i];
    x[i] *= 0.5;
    y[i] *= x[i];
  }
#pragma endscop
}
)");
  std::string fast = printGpu(*translator::makeCudaTarget());
  EXPECT_EQ(std::string::npos, fast.find("_rn(")) << fast;
  std::string cuda = printGpu(*translator::makeCudaTarget(false));
  EXPECT_CONTAINS(cuda, "__fmul_rn(x[");
  EXPECT_CONTAINS(cuda, "__dmul_rn(y[");
  // float * int is float; the integer product of the subscript stays `*`.
  EXPECT_CONTAINS(cuda, "], 2)");
  EXPECT_CONTAINS(cuda, "+ __fmul_rn(x[");
  EXPECT_CONTAINS(cuda, ") * 3)");
  // `x *= v` in the type of `x * v`: float * double is double.
  EXPECT_CONTAINS(cuda, "] = __dmul_rn(x[");
  EXPECT_CONTAINS(cuda, "] = __dmul_rn(y[");
  EXPECT_EQ(std::string::npos, cuda.find("*=")) << cuda;
  std::string opencl = printGpu(*translator::makeOpenCLTarget(false));
  EXPECT_CONTAINS(opencl, "#pragma OPENCL FP_CONTRACT OFF");
  EXPECT_EQ(std::string::npos, opencl.find("_rn(")) << opencl;
  EXPECT_EQ(std::string::npos,
            printGpu(*translator::makeOpenCLTarget()).find("FP_CONTRACT"));
}

// A kernel is launched only where it has instances: the launch condition
// comes from isl (here the parameter condition of the triangle), not from
// the loop bounds of the subtree the launch replaces. Without it a skewed
// kernel ran where its grid extent is undefined (inputs/skewed_guard.c).
TEST_F(DriverTest, LaunchIsGuardedByTheKernelsInstances) {
  parse(R"(
void skew(int n, double A[64][64], double B[64][64]) {
#pragma scop
  for (int j = 1; j < n; j++) {
    A[j][j] = B[j - 1][j] + 1.0;
    for (int k = 0; k <= j; k++)
      B[j][k] = A[k][k] * 0.5 + B[j - 1][k];
  }
#pragma endscop
}
)");
  std::string out = printGpu(*translator::makeCudaTarget());
  EXPECT_CONTAINS(out, "if ((n >= 2) && polycuda_grid_0 > 0)");
}

// C++ has no variable-length arrays: they stay in the host file, and the
// .cu file sees only pointers and sizes.
TEST_F(DriverTest, CudaHostFileKeepsVariableLengthArrays) {
  parse(R"(
void scale(int n, double a, double A[n][n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i][j] *= a;
#pragma endscop
}
)");
  translator::CudaFiles files = printCuda();
  EXPECT_CONTAINS(files.host, "double A[n][n]");
  EXPECT_CONTAINS(files.host, "polycuda_launch_scale_scop0(n, a, (void *)A);");
  EXPECT_CONTAINS(files.host,
                  "void polycuda_launch_scale_scop0(long, double, void *);");
  EXPECT_CONTAINS(files.device, "extern \"C\" void "
                                "polycuda_launch_scale_scop0(long n, double a, "
                                "void *A)");
  EXPECT_EQ(std::string::npos, files.device.find("[n]")) << files.device;
}

TEST_F(DriverTest, OpenCLOutputHasKernelSourceAndLaunch) {
  parse(kGemm);
  std::string out = printGpu(*translator::makeOpenCLTarget());
  EXPECT_CONTAINS(out, "#include \"polycuda_opencl.h\"");
  EXPECT_CONTAINS(out, "__kernel");
  EXPECT_CONTAINS(out, "get_group_id(0)");
  EXPECT_CONTAINS(out, "get_local_id(0)");
  EXPECT_CONTAINS(out, "polycuda_cl_create");
  EXPECT_CONTAINS(out, "polycuda_cl_launch");
  EXPECT_CONTAINS(out, "polycuda_cl_copy_box_to_host");
  EXPECT_EQ(std::string::npos, out.find("<<<")) << out;
  EXPECT_EQ(std::string::npos, out.find("blockIdx")) << out;
}

TEST_F(DriverTest, OpenCLKernelsFileHoldsOnlyKernels) {
  parse(kGemm);
  std::vector<GpuProgram> programs;
  programs.push_back(
      polyhedral::runGpuPipeline(*input.regions[0].scop, PipelineOptions()));
  std::string cl = translator::printOpenCLKernels(input, programs);
  EXPECT_CONTAINS(cl, "__kernel void");
  EXPECT_CONTAINS(cl, "get_group_id(");
  EXPECT_EQ(std::string::npos, cl.find("polycuda_cl_launch")) << cl;
}

TEST_F(DriverTest, COutputHasOpenMPParallelLoop) {
  parse(kGemm);
  polyhedral::Dependences deps;
  polyhedral::ScheduleResult result = polyhedral::runSchedulePipeline(
      *input.regions[0].scop, deps, PipelineOptions());
  std::vector<isl::ast_node> asts;
  asts.push_back(
      polyhedral::generateCAst(*input.regions[0].scop, result.schedule,
                                 deps, "c"));
  std::string out = translator::printCFile(input, asts);
  EXPECT_CONTAINS(out, "#pragma omp parallel for");
  EXPECT_CONTAINS(out, "void gemm(");
  EXPECT_CONTAINS(out, "C[");
  EXPECT_EQ(std::string::npos, out.find("#pragma scop")) << out;
  EXPECT_EQ(std::string::npos, out.find("__global__")) << out;
}

TEST_F(DriverTest, COutputOfARecurrenceHasNoParallelLoop) {
  parse(R"(
void f(int n, double A[100]) {
#pragma scop
  for (int i = 1; i < n; i++)
    A[i] = A[i - 1] + 1.0;
#pragma endscop
}
)");
  polyhedral::Dependences deps;
  polyhedral::ScheduleResult result = polyhedral::runSchedulePipeline(
      *input.regions[0].scop, deps, PipelineOptions());
  std::vector<isl::ast_node> asts;
  asts.push_back(
      polyhedral::generateCAst(*input.regions[0].scop, result.schedule,
                                 deps, "c"));
  std::string out = translator::printCFile(input, asts);
  EXPECT_EQ(std::string::npos, out.find("#pragma omp")) << out;
  EXPECT_CONTAINS(out, "for (");
}

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

/// Whether `name` occurs in `text` as a whole identifier.
bool hasIdentifier(const std::string &text, const std::string &name) {
  auto isIdent = [](char c) { return std::isalnum((unsigned char)c) || c == '_'; };
  for (size_t pos = text.find(name); pos != std::string::npos;
       pos = text.find(name, pos + 1)) {
    bool startOk = pos == 0 || !isIdent(text[pos - 1]);
    size_t end = pos + name.size();
    bool endOk = end == text.size() || !isIdent(text[end]);
    if (startOk && endOk)
      return true;
  }
  return false;
}

TEST(RuntimeNamesTest, EveryNameIsDeclaredByTheRuntimeHeaders) {
  std::string dir = POLYCUDA_RUNTIME_SOURCE_DIR;
  std::string cuda = readFile(dir + "/" + translator::runtime::kCudaHeader);
  std::string opencl = readFile(dir + "/" + translator::runtime::kOpenCLHeader);
  ASSERT_FALSE(cuda.empty()) << dir;
  ASSERT_FALSE(opencl.empty()) << dir;
  for (const char *name : translator::runtime::kAllNames) {
    std::string n = name;
    const std::string &header = n.rfind("polycuda_cuda_", 0) == 0 ? cuda : opencl;
    EXPECT_TRUE(hasIdentifier(header, n)) << n << " is not in the runtime header";
  }
}

} // namespace
} // namespace polycuda::test
