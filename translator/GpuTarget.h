//===- GpuTarget.h - What differs between CUDA and OpenCL -------*- C++ -*-===//
//
// CUDA and OpenCL output differ only in spellings (qualifiers, thread ids,
// launches, runtime calls); the host and kernel printers ask a GpuTarget.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_TRANSLATOR_GPUTARGET_H
#define POLYCUDA_TRANSLATOR_GPUTARGET_H

#include "GpuProgram.h"

#include <memory>
#include <string>
#include <vector>

namespace polycuda::translator {

/// A kernel launch as the host printer sees it.
struct LaunchInfo {
  std::string kernelName;
  std::string where;              ///< scop location for runtime messages
  std::vector<std::string> grid;  ///< per hardware dim x, y, z (C exprs)
  std::vector<unsigned> block;    ///< per hardware dim x, y, z
  /// Kernel arguments: (C type, host value expression).
  std::vector<std::pair<std::string, std::string>> args;
};

class GpuTarget {
public:
  virtual ~GpuTarget() = default;
  virtual std::string name() const = 0;
  /// Lines at the top of the printed file.
  virtual std::string fileHeader() const = 0;
  /// `__global__ void` or `__kernel void`.
  virtual std::string kernelQualifier() const = 0;
  /// Qualifier of array pointer parameters of kernels.
  virtual std::string pointerQualifier() const = 0;
  /// The spelling of `restrict` after a pointer's `*`.
  virtual std::string restrictQualifier() const = 0;
  virtual std::string blockIndex(unsigned dim) const = 0;
  virtual std::string threadIndex(unsigned dim) const = 0;
  virtual std::string mathName(const std::string &name) const = 0;
  /// The function that multiplies two `type` values and is never
  /// contracted with an addition (`--fp-contract=off`), or "" for `*`.
  virtual std::string exactProduct(polyhedral::ElemType type) const {
    (void)type;
    return "";
  }
  /// The definitions placed before a function whose scops have `kernels`
  /// (CUDA: the kernels; OpenCL: the kernel source string).
  virtual std::string kernelDefinitions(unsigned region,
                                        const std::vector<std::string> &kernels,
                                        bool usesDouble) const = 0;
  /// Host statements of a scop block.
  virtual std::string setup(unsigned region, const std::string &where) const = 0;
  virtual std::string alloc(const std::string &device, const std::string &type,
                            const std::string &count,
                            const std::string &where) const = 0;
  virtual std::string copyIn(const std::string &device, const std::string &host,
                             const std::string &type, const std::string &offset,
                             const std::string &count,
                             const std::string &where) const = 0;
  virtual std::string copyOut(const std::string &device, const std::string &host,
                              const std::string &type, const std::string &offset,
                              const std::string &count,
                              const std::string &where) const = 0;
  virtual std::string release(const std::string &device,
                              const std::string &where) const = 0;
  virtual std::string finish(const std::string &where) const = 0;
  /// Type of a device pointer variable on the host.
  virtual std::string devicePointerType(const std::string &type) const = 0;
  virtual void printLaunch(const LaunchInfo &launch, unsigned region,
                           int indent, std::ostream &os) const = 0;
};

/// `fpContract`: may the compiler fuse a multiplication and an addition
/// into one instruction (FMA), which rounds once instead of twice?
std::unique_ptr<GpuTarget> makeCudaTarget(bool fpContract = true);
std::unique_ptr<GpuTarget> makeOpenCLTarget(bool fpContract = true);
/// OpenCL C's pragma that forbids contraction, or "" (OpenCL C's default
/// allows it).
std::string contractionPragma(bool fpContract);

} // namespace polycuda::translator

#endif
