//===- CudaTarget.cpp - CUDA spellings of kernels and host code -----------===//
#include "CodePrinter.h"
#include "GpuTarget.h"
#include "Persistent.h"
#include "RuntimeNames.h"

namespace polycuda::translator {

namespace {

class CudaTarget : public GpuTarget {
public:
  explicit CudaTarget(bool fpContract) : fpContract(fpContract) {}
  std::string name() const override { return "cuda"; }
  std::string fileHeader() const override {
    return std::string("#include \"") + runtime::kCudaHeader + "\"\n" +
           guardedHelperDefinitions(
               "__host__ __device__ static inline __attribute__((unused))");
  }
  std::string kernelQualifier() const override { return "__global__ void"; }
  std::string launchBounds(const polyhedral::Kernel &kernel) const override {
    if (kernel.minBlocksPerSm == 0)
      return "";
    return " __launch_bounds__(" +
           std::to_string(polyhedral::blockThreads(kernel)) + ", " +
           std::to_string(kernel.minBlocksPerSm) + ")";
  }
  std::string pointerQualifier() const override { return ""; }
  std::string restrictQualifier() const override { return "__restrict__"; }
  std::string blockIndex(unsigned dim) const override {
    return std::string("blockIdx.") + "xyz"[dim];
  }
  std::string threadIndex(unsigned dim) const override {
    return std::string("threadIdx.") + "xyz"[dim];
  }
  std::string mathName(const std::string &name) const override { return name; }
  std::string functionQualifier() const override {
    return "__host__ __device__ static inline";
  }
  std::string sharedQualifier() const override { return "__shared__"; }
  std::string barrier() const override { return "__syncthreads();"; }
  std::string infinity(polyhedral::ElemType type) const override {
    return type == polyhedral::ElemType::Float
               ? "__int_as_float(0x7f800000)"
               : "__longlong_as_double(0x7ff0000000000000LL)";
  }
  /// nvcc contracts `a * b + c` into an FMA unless told -fmad=false; its
  /// round-to-nearest multiplication intrinsics are never contracted, so
  /// the printed kernels round like the sequential build whatever the
  /// flags they are compiled with.
  std::string exactProduct(polyhedral::ElemType type) const override {
    if (fpContract)
      return "";
    return type == polyhedral::ElemType::Float ? "__fmul_rn" : "__dmul_rn";
  }
  std::string kernelDefinitions(unsigned, const std::vector<std::string> &kernels,
                                bool) const override {
    std::string text;
    for (const std::string &kernel : kernels)
      text += kernel + "\n";
    return text;
  }
  /// A static initializer registers the kernels with the runtime, whose
  /// own thread loads them while the program starts (lazy module loading
  /// would load each at its first launch).
  std::string preloadKernels(unsigned region,
                             const std::vector<std::string> &names) const override {
    if (names.empty())
      return "";
    std::string list = "polycuda_kernels_" + std::to_string(region);
    std::string text = "/* polycuda: loaded by the runtime while the program "
                       "starts, not at their first launch */\n"
                       "static const void *const " + list + "[] = {";
    for (size_t i = 0; i < names.size(); ++i)
      text += (i ? ", " : "") + std::string("(const void *)") + names[i];
    return text + "};\nstatic const int polycuda_preloaded_" +
           std::to_string(region) + " __attribute__((unused)) = (" +
           runtime::kCudaPreload + "(" + list + ", " +
           std::to_string(names.size()) + "), 0);\n";
  }
  std::string setup(unsigned, const std::string &) const override {
    return "";
  }
  std::string alloc(const std::string &device, const std::string &type,
                    const std::string &count,
                    const std::string &where) const override {
    return type + " *" + device + " = (" + type + " *)" + runtime::kCudaAlloc +
           "(sizeof(" + type + ") * (size_t)(" + count + "), " + where + ");";
  }
  std::string copyBox(const BoxCopyInfo &copy, bool toDevice) const override {
    static const char *methods[] = {"POLYCUDA_TRANSFERS_AUTO",
                                    "POLYCUDA_TRANSFERS_PLAIN",
                                    "POLYCUDA_TRANSFERS_STAGED"};
    std::string pointers =
        toDevice ? copy.device + ", (const void *)(" + copy.host + ")"
                 : "(void *)(" + copy.host + "), " + copy.device;
    return "{\n" + boxArrays(copy) + "  " +
           (copy.banded() ? (toDevice ? runtime::kCudaCopyBoxesToDevice
                                      : runtime::kCudaCopyBoxesToHost)
            : toDevice   ? runtime::kCudaCopyBoxToDevice
                         : runtime::kCudaCopyBoxToHost) +
           "(" + pointers + ", sizeof(" + copy.type + "), " +
           boxArguments(copy) + ", " + methods[(int)copy.method] + ", \"" +
           copy.array + "\", " + copy.where + ");\n}";
  }
  std::string markWritten(const std::string &device,
                          const std::string &where) const override {
    return std::string(runtime::kCudaMarkWritten) + "(" + device + ", " +
           where + ");";
  }
  bool hasConstantVariables() const override { return true; }
  std::string constantDefinition(const std::string &type,
                                 const std::string &variable,
                                 long elements) const override {
    return "__constant__ " + type + " " + variable + "[" +
           std::to_string(elements) + "];\n";
  }
  std::string copyToConstant(const std::string &variable,
                             const std::string &device,
                             const std::string &bytes,
                             const std::string &where) const override {
    return std::string(runtime::kCudaCopyToConstant) + "((const void *)" +
           variable + ", " + device + ", " + bytes + ", " + where + ");";
  }
  std::string unrollPragma() const override { return "#pragma unroll"; }
  std::string beginScop(const std::string &where) const override {
    return std::string(runtime::kCudaBeginScop) + "(" + where + ");";
  }
  std::string endScop(const std::string &where) const override {
    return std::string(runtime::kCudaEndScop) + "(" + where + ");";
  }
  std::string release(const std::string &device,
                      const std::string &where) const override {
    return std::string(runtime::kCudaFree) + "(" + device + ", " + where + ");";
  }
  std::string finish(const std::string &where) const override {
    return std::string(runtime::kCudaSynchronize) + "(" + where + ");";
  }
  std::string devicePointerType(const std::string &type) const override {
    return type + " *";
  }
  void printLaunch(const LaunchInfo &launch, unsigned, int indent,
                   std::ostream &os) const override {
    std::string in = indentBy(indent);
    os << in << "{\n";
    os << in << "  dim3 polycuda_grid(" << launch.grid[0] << ", "
       << launch.grid[1] << ", " << launch.grid[2] << ");\n";
    os << in << "  dim3 polycuda_block(" << launch.block[0] << ", "
       << launch.block[1] << ", " << launch.block[2] << ");\n";
    os << in << "  " << launch.kernelName
       << "<<<polycuda_grid, polycuda_block>>>(";
    for (size_t i = 0; i < launch.args.size(); ++i)
      os << (i ? ", " : "") << launch.args[i].second;
    os << ");\n";
    os << in << "  " << runtime::kCudaCheckLaunch << "(\"" << launch.kernelName
       << "\", " << launch.where << ");\n";
    os << in << "}\n";
  }

  bool hasGridBarrier() const override { return true; }
  std::string persistentPreamble() const override {
    return "#include <cooperative_groups.h>\n";
  }
  std::string gridBarrierSetup() const override {
    return "cooperative_groups::grid_group polycuda_grid = "
           "cooperative_groups::this_grid();";
  }
  std::string gridBarrier() const override { return "polycuda_grid.sync();"; }
  std::string gridBlocks() const override { return "gridDim.x"; }
  void printPersistentLaunch(const PersistentLaunchInfo &launch, int indent,
                             std::ostream &os) const override {
    std::string in = indentBy(indent);
    std::string kernel = "(const void *)" + launch.kernelName;
    os << in << "const int polycuda_blocks = "
       << runtime::kCudaPersistentBlocks << "(" << kernel << ", "
       << launch.threads << ", " << launch.wantedBlocks << ", "
       << (launch.cooperative ? 1 : 0) << ", " << launch.where << ");\n";
    os << in << "if (polycuda_blocks > 0) {\n";
    os << in << "  void *polycuda_args[] = {";
    for (size_t i = 0; i < launch.args.size(); ++i)
      os << (i ? ", " : "") << "(void *)&" << launch.args[i].second;
    os << "};\n";
    os << in << "  " << runtime::kCudaLaunchPersistent << "(" << kernel
       << ", polycuda_blocks, " << launch.threads << ", polycuda_args, "
       << (launch.cooperative ? 1 : 0) << ", \"" << launch.kernelName
       << "\", " << launch.where << ");\n";
    os << in << "} else {\n";
  }

private:
  bool fpContract;
};

} // namespace

std::unique_ptr<GpuTarget> makeCudaTarget(bool fpContract) {
  return std::make_unique<CudaTarget>(fpContract);
}

} // namespace polycuda::translator
