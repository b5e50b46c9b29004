//===- HostPrinter.h - Output files: host code around the kernels -*- C++ -*-===//
#ifndef POLYCUDA_TRANSLATOR_HOSTPRINTER_H
#define POLYCUDA_TRANSLATOR_HOSTPRINTER_H

#include "GpuTarget.h"
#include "ScopBuilder.h"

namespace polycuda::translator {

/// The input file with each scop replaced by host code that allocates,
/// copies, launches the kernels and copies back; kernels (CUDA) or their
/// source string (OpenCL) are placed before the enclosing function.
/// `programs[i]` belongs to `input.regions[i]`.
std::string printGpuFile(const ParsedInput &input,
                         const std::vector<polyhedral::GpuProgram> &programs,
                         const GpuTarget &target);

/// CUDA output, in two files: `host` is the input file, still C, with each
/// scop replaced by a call of an `extern "C"` launcher; `device` holds the
/// kernels and the launchers, which allocate, copy, launch and copy back.
/// The user's C (variable-length arrays included) thus never meets a C++
/// compiler: `nvcc out.cu out.host.c` compiles each half with its language.
struct CudaFiles {
  std::string device; ///< .cu
  std::string host;   ///< .c
};
CudaFiles printCudaFiles(const ParsedInput &input,
                         const std::vector<polyhedral::GpuProgram> &programs,
                         const GpuTarget &target);

/// The kernels of all scops, as an OpenCL program (for --emit-cl).
std::string printOpenCLKernels(const ParsedInput &input,
                               const std::vector<polyhedral::GpuProgram> &programs,
                               bool fpContract = true);

/// The input file with each scop replaced by the transformed schedule as C
/// with OpenMP pragmas on parallel loops. `asts[i]` belongs to region i.
std::string printCFile(const ParsedInput &input,
                       const std::vector<isl::ast_node> &asts);

} // namespace polycuda::translator

#endif
