//===- OpenCLTarget.cpp - OpenCL spellings of kernels and host code -------===//
#include "CodePrinter.h"
#include "GpuTarget.h"
#include "RuntimeNames.h"

#include <sstream>

namespace polycuda::translator {

namespace {

std::string programVar(unsigned region) {
  return "polycuda_cl_program_" + std::to_string(region);
}

std::string quoteLines(const std::string &text) {
  std::ostringstream os;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    os << "  \"";
    for (char c : line) {
      if (c == '"' || c == '\\')
        os << '\\';
      os << c;
    }
    os << "\\n\"\n";
  }
  return os.str();
}

class OpenCLTarget : public GpuTarget {
public:
  explicit OpenCLTarget(bool fpContract) : fpContract(fpContract) {}
  std::string name() const override { return "opencl"; }
  std::string fileHeader() const override {
    return std::string("#include \"") + runtime::kOpenCLHeader + "\"\n" +
           guardedHelperDefinitions("static inline");
  }
  std::string kernelQualifier() const override { return "__kernel void"; }
  std::string pointerQualifier() const override { return "__global "; }
  std::string constantPointerQualifier() const override {
    return "__constant ";
  }
  std::string restrictQualifier() const override { return "restrict"; }
  std::string blockIndex(unsigned dim) const override {
    return "get_group_id(" + std::to_string(dim) + ")";
  }
  std::string threadIndex(unsigned dim) const override {
    return "get_local_id(" + std::to_string(dim) + ")";
  }
  std::string sharedQualifier() const override { return "__local"; }
  std::string barrier() const override {
    return "barrier(CLK_LOCAL_MEM_FENCE);";
  }
  std::string globalBarrier() const override {
    return "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);";
  }
  std::string infinity(polyhedral::ElemType type) const override {
    return type == polyhedral::ElemType::Float ? "INFINITY"
                                               : "((double)INFINITY)";
  }
  std::string functionQualifier() const override { return "static inline"; }
  std::string mathName(const std::string &name) const override {
    // OpenCL's math built-ins are overloaded: sqrtf is spelled sqrt.
    static const char *floatVariants[] = {
        "sqrtf", "expf", "exp2f", "logf", "log2f", "log10f", "powf",
        "fabsf", "floorf", "ceilf", "sinf", "cosf", "tanf", "tanhf",
        "fminf", "fmaxf", "roundf", "fmodf", "atanf", "cbrtf", "truncf",
        "erff", "atan2f"};
    for (const char *variant : floatVariants)
      if (name == variant)
        return name.substr(0, name.size() - 1);
    return name;
  }
  std::string kernelDefinitions(unsigned region,
                                const std::vector<std::string> &kernels,
                                bool usesDouble) const override {
    std::string source;
    if (usesDouble)
      source += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
    source += contractionPragma(fpContract);
    source += helperDefinitions("static inline");
    for (const std::string &kernel : kernels)
      source += kernel + "\n";
    return "static const char " + programVar(region) + "_source[] =\n" +
           quoteLines(source) + "  ;\nstatic " + runtime::kCLProgram + " *" +
           programVar(region) + ";\n";
  }
  std::string setup(unsigned region, const std::string &where) const override {
    std::string p = programVar(region);
    return "if (!" + p + ")\n  " + p + " = " + runtime::kCLCreate + "(" + p +
           "_source, " + where + ");\n" + runtime::kCLProgram + " *" +
           programVarHolder + " = " + p + ";";
  }
  std::string alloc(const std::string &device, const std::string &type,
                    const std::string &count,
                    const std::string &where) const override {
    return "void *" + device + " = " + runtime::kCLAlloc + "(" +
           programVarHolder + ", sizeof(" + type + ") * (size_t)(" + count +
           "), " + where + ");";
  }
  std::string copyBox(const BoxCopyInfo &copy, bool toDevice) const override {
    std::string pointers =
        toDevice ? copy.device + ", (const void *)(" + copy.host + ")"
                 : "(void *)(" + copy.host + "), " + copy.device;
    return "{\n" + boxArrays(copy) + "  " +
           (copy.banded() ? (toDevice ? runtime::kCLCopyBoxesToDevice
                                      : runtime::kCLCopyBoxesToHost)
            : toDevice   ? runtime::kCLCopyBoxToDevice
                         : runtime::kCLCopyBoxToHost) +
           "(" + programVarHolder + ", " + pointers + ", sizeof(" + copy.type +
           "), " + boxArguments(copy) + ", " + copy.where + ");\n}";
  }
  std::string beginScop(const std::string &) const override { return ""; }
  std::string endScop(const std::string &) const override { return ""; }
  std::string release(const std::string &device,
                      const std::string &) const override {
    return std::string(runtime::kCLFree) + "(" + programVarHolder + ", " +
           device + ");";
  }
  std::string finish(const std::string &where) const override {
    return std::string(runtime::kCLFinish) + "(" + programVarHolder + ", " +
           where + ");";
  }
  std::string devicePointerType(const std::string &) const override {
    return "void *";
  }
  void printLaunch(const LaunchInfo &launch, unsigned, int indent,
                   std::ostream &os) const override {
    std::string in = indentBy(indent);
    os << in << "{\n";
    os << in << "  size_t polycuda_local[3] = {" << launch.block[0] << ", "
       << launch.block[1] << ", " << launch.block[2] << "};\n";
    os << in << "  size_t polycuda_global[3] = {";
    for (int d = 0; d < 3; ++d)
      os << (d ? ", " : "") << "(size_t)(" << launch.grid[d] << ") * "
         << launch.block[d];
    os << "};\n";
    os << in << "  " << runtime::kCLArg << " polycuda_args[] = {";
    for (size_t i = 0; i < launch.args.size(); ++i)
      os << (i ? ", " : "") << "{sizeof(" << launch.args[i].first << "), &"
         << launch.args[i].second << "}";
    if (launch.args.empty())
      os << "{0, 0}";
    os << "};\n";
    os << in << "  " << runtime::kCLLaunch << "(" << programVarHolder << ", \""
       << launch.kernelName << "\", 3, polycuda_global, polycuda_local, "
       << launch.args.size() << ", polycuda_args, " << launch.where << ");\n";
    os << in << "}\n";
  }

  /// The host variable holding the program of the region being printed.
  static inline std::string programVarHolder = "polycuda_program";
  bool fpContract;
};

} // namespace

std::string contractionPragma(bool fpContract) {
  return fpContract ? "" : "#pragma OPENCL FP_CONTRACT OFF\n";
}

std::unique_ptr<GpuTarget> makeOpenCLTarget(bool fpContract) {
  return std::make_unique<OpenCLTarget>(fpContract);
}

} // namespace polycuda::translator
