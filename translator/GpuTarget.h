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

/// The launch of a persistent kernel (a host loop of launches run by one
/// kernel, see polyhedral/Persistent.h) as the host printer sees it.
struct PersistentLaunchInfo {
  std::string kernelName;
  std::string where;
  unsigned threads = 1;   ///< per block (x only)
  bool cooperative = true; ///< the kernel waits for its whole grid
  /// A C expression: the most blocks any of its phases has.
  std::string wantedBlocks;
  /// Kernel arguments: (C type, host variable, addressable).
  std::vector<std::pair<std::string, std::string>> args;
};

/// A copy of a box of array elements as the host printer sees it (see
/// polyhedral::Transfer): C expressions of the parameters.
struct BoxCopyInfo {
  std::string device;   ///< the device pointer variable
  std::string host;     ///< the host array's address
  std::string type;     ///< element type
  std::string array;    ///< the array's name, for profiles
  std::vector<std::string> extents, lower, upper; ///< per dimension
  /// A banded copy (polyhedral::ElementBox::banded): the rows of the first
  /// dimension to cut into bands, and per dimension the box of a band, in
  /// terms of the variables polycuda_band_first and polycuda_band_last.
  std::string bandFirst, bandLast;
  std::vector<std::string> bandLower, bandUpper;
  bool banded() const { return !bandLower.empty(); }
  polyhedral::TransferMethod method = polyhedral::TransferMethod::Auto;
  std::string where;
};

class GpuTarget {
public:
  virtual ~GpuTarget() = default;
  virtual std::string name() const = 0;
  /// Lines at the top of the printed file.
  virtual std::string fileHeader() const = 0;
  /// `__global__ void` or `__kernel void`.
  virtual std::string kernelQualifier() const = 0;
  /// What follows the qualifier of `kernel`'s function: CUDA's launch
  /// bounds where the kernel asks for some (Kernel::minBlocksPerSm).
  virtual std::string launchBounds(const polyhedral::Kernel &) const {
    return "";
  }
  /// Qualifier of array pointer parameters of kernels.
  virtual std::string pointerQualifier() const = 0;
  /// The spelling of `restrict` after a pointer's `*`.
  virtual std::string restrictQualifier() const = 0;
  virtual std::string blockIndex(unsigned dim) const = 0;
  virtual std::string threadIndex(unsigned dim) const = 0;
  virtual std::string mathName(const std::string &name) const = 0;
  /// What precedes the definition of a function of the input that
  /// statements call (Scop::functions), in the kernels' file.
  virtual std::string functionQualifier() const = 0;
  /// `__shared__` or `__local`: an array of the block's shared memory.
  virtual std::string sharedQualifier() const = 0;
  /// The statement that waits for every thread of the block, their shared
  /// memory writes visible to all.
  virtual std::string barrier() const = 0;
  /// The same with the block's global memory writes visible to all (a
  /// tiled wavefront's steps without shared memory).
  virtual std::string globalBarrier() const { return barrier(); }
  /// Positive infinity of a floating `type` in device code (the identity
  /// of a minimum; negated, of a maximum).
  virtual std::string infinity(polyhedral::ElemType type) const = 0;
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
  /// Definitions after a scop's kernels that have the runtime load the
  /// kernels named `names` while the program starts (CUDA), or "".
  virtual std::string preloadKernels(unsigned region,
                                     const std::vector<std::string> &names) const {
    (void)region;
    (void)names;
    return "";
  }
  /// Host statements of a scop block.
  virtual std::string setup(unsigned region, const std::string &where) const = 0;
  virtual std::string alloc(const std::string &device, const std::string &type,
                            const std::string &count,
                            const std::string &where) const = 0;
  /// A statement (block) that copies `copy`'s box to the device (to the
  /// host when `!toDevice`).
  virtual std::string copyBox(const BoxCopyInfo &copy, bool toDevice) const = 0;
  /// A statement printed after the top-level part of the host code that
  /// holds the last kernel writing the device array `device`, when later
  /// parts follow: its copy to the host, printed once every kernel is
  /// launched, then waits for the kernels launched up to here only, and
  /// overlaps the later ones; empty when the target has none (its copies
  /// wait for all earlier work).
  virtual std::string markWritten(const std::string &device,
                                  const std::string &where) const {
    (void)device;
    (void)where;
    return "";
  }
  /// Constant memory (GpuProgram::constants). Where the target has
  /// variables of its own for it (CUDA's `__constant__` arrays): their
  /// definition, the statement that sets one from a device array once it
  /// is copied in (`bytes` a C expression), and kernels read the variable.
  /// Otherwise kernels read the array through a pointer parameter with
  /// constantPointerQualifier (OpenCL's `__constant`).
  virtual bool hasConstantVariables() const { return false; }
  virtual std::string constantDefinition(const std::string &type,
                                         const std::string &variable,
                                         long elements) const {
    (void)type;
    (void)variable;
    (void)elements;
    return "";
  }
  virtual std::string copyToConstant(const std::string &variable,
                                     const std::string &device,
                                     const std::string &bytes,
                                     const std::string &where) const {
    (void)variable;
    (void)device;
    (void)bytes;
    (void)where;
    return "";
  }
  virtual std::string constantPointerQualifier() const {
    return pointerQualifier();
  }
  /// The line before a kernel loop with a few iterations known at
  /// translation time (the compiler unrolls it: a constant array's
  /// subscripts become constants), or "".
  virtual std::string unrollPragma() const { return ""; }
  /// Statements that open and close a scop's host block (profiles).
  virtual std::string beginScop(const std::string &where) const = 0;
  virtual std::string endScop(const std::string &where) const = 0;
  virtual std::string release(const std::string &device,
                              const std::string &where) const = 0;
  virtual std::string finish(const std::string &where) const = 0;
  /// Type of a device pointer variable on the host.
  virtual std::string devicePointerType(const std::string &type) const = 0;
  virtual void printLaunch(const LaunchInfo &launch, unsigned region,
                           int indent, std::ostream &os) const = 0;
  /// Persistent kernels, where the target has a grid-wide barrier (CUDA;
  /// the others keep their launches and never print one): what precedes a
  /// persistent kernel's definition, the statements at the top of its body,
  /// the barrier that waits for every thread of the grid (its memory
  /// writes visible to all), the number of blocks of the grid (a C
  /// expression).
  virtual bool hasGridBarrier() const { return false; }
  virtual std::string persistentPreamble() const { return ""; }
  virtual std::string gridBarrierSetup() const { return ""; }
  virtual std::string gridBarrier() const { return ""; }
  virtual std::string gridBlocks() const { return ""; }
  /// Host code that launches a persistent kernel if the device can run it:
  /// opens a block whose `if` runs the launch, and whose `else` branch the
  /// caller prints (the former launches) and closes with "}\n}".
  virtual void printPersistentLaunch(const PersistentLaunchInfo &launch,
                                     int indent, std::ostream &os) const {
    (void)launch, (void)indent, (void)os;
  }
};

/// `const long long name[] = {...};` lines of a box copy, or nothing for a
/// scalar (rank 0).
inline std::string boxArrays(const BoxCopyInfo &copy) {
  std::string text;
  auto list = [&](const char *name, const std::vector<std::string> &values) {
    text += "  const long long " + std::string(name) + "[] = {";
    for (size_t i = 0; i < values.size(); ++i)
      text += (i ? ", " : "") + std::string("(long long)(") + values[i] + ")";
    text += "};\n";
  };
  if (copy.extents.empty())
    return text;
  list("polycuda_extent", copy.extents);
  if (!copy.banded()) {
    list("polycuda_lower", copy.lower);
    list("polycuda_upper", copy.upper);
    return text;
  }
  // At most kCopyBands bands of `polycuda_rows` consecutive rows each.
  std::string rank = std::to_string(copy.extents.size());
  std::string bands = std::to_string(polyhedral::kCopyBands);
  std::string first = polyhedral::kBandFirst, last = polyhedral::kBandLast;
  text += "  long long polycuda_lower[" + bands + " * " + rank +
          "], polycuda_upper[" + bands + " * " + rank + "];\n"
          "  int polycuda_boxes = 0;\n"
          "  const long long polycuda_rows_first = (long long)(" +
          copy.bandFirst + "), polycuda_rows_last = (long long)(" +
          copy.bandLast + ");\n"
          "  const long long polycuda_rows = (polycuda_rows_last - "
          "polycuda_rows_first) / " + bands + " + 1;\n"
          "  for (long long " + first + " = polycuda_rows_first; " + first +
          " <= polycuda_rows_last; " + first + " += polycuda_rows) {\n"
          "    const long long " + last + " = " + first +
          " + polycuda_rows - 1 < polycuda_rows_last ? " + first +
          " + polycuda_rows - 1 : polycuda_rows_last;\n";
  for (size_t d = 0; d < copy.bandLower.size(); ++d) {
    std::string at = "polycuda_boxes * " + rank + " + " + std::to_string(d);
    text += "    polycuda_lower[" + at + "] = (long long)(" + copy.bandLower[d] +
            ");\n    polycuda_upper[" + at + "] = (long long)(" +
            copy.bandUpper[d] + ");\n";
  }
  text += "    ++polycuda_boxes;\n  }\n";
  return text;
}

/// The box arguments after the element size: rank, extents, lower, upper.
inline std::string boxArguments(const BoxCopyInfo &copy) {
  if (copy.extents.empty())
    return "0, (const long long *)0, (const long long *)0, "
           "(const long long *)0";
  return std::to_string(copy.extents.size()) +
         (copy.banded() ? ", polycuda_extent, polycuda_boxes, "
                        : ", polycuda_extent, ") +
         "polycuda_lower, polycuda_upper";
}

/// `fpContract`: may the compiler fuse a multiplication and an addition
/// into one instruction (FMA), which rounds once instead of twice?
std::unique_ptr<GpuTarget> makeCudaTarget(bool fpContract = true);
std::unique_ptr<GpuTarget> makeOpenCLTarget(bool fpContract = true);
/// OpenCL C's pragma that forbids contraction, or "" (OpenCL C's default
/// allows it).
std::string contractionPragma(bool fpContract);

} // namespace polycuda::translator

#endif
