//===- KernelPrinter.h - Device code of one kernel --------------*- C++ -*-===//
#ifndef POLYCUDA_TRANSLATOR_KERNELPRINTER_H
#define POLYCUDA_TRANSLATOR_KERNELPRINTER_H

#include "GpuTarget.h"

#include <functional>
#include <ostream>

namespace polycuda::translator {

/// Name of kernel `kernel` of the scop numbered `region` in the file.
std::string kernelName(const polyhedral::Scop &scop, unsigned region,
                       const polyhedral::Kernel &kernel);

/// The variable in constant memory that holds a copy of `array` of the scop
/// (GpuProgram::constants), where the target has such variables.
std::string constantVariable(const polyhedral::Scop &scop,
                             const polyhedral::Array &array);

/// Parameters of a kernel in order: (C type, name) for arrays (as device
/// pointers), scop parameters and host iterators.
std::vector<std::pair<std::string, std::string>>
kernelParameters(const polyhedral::GpuProgram &program,
                 const polyhedral::Kernel &kernel, const GpuTarget &target);

/// How a kernel's code reads its block and thread index along hardware
/// dimension `dim` (C expressions).
struct KernelIndices {
  std::function<std::string(unsigned dim)> block;
  std::function<std::string(unsigned dim)> thread;
};

/// The code of one block of `kernel` (its index prologue, private and
/// shared variables, its AST) at `indent`, indices read as `indices` says.
void printKernelBody(const polyhedral::GpuProgram &program,
                     const polyhedral::Kernel &kernel, const GpuTarget &target,
                     const KernelIndices &indices, int indent,
                     std::ostream &os);

/// The definition of `kernel` in the target's language.
std::string printKernel(const polyhedral::GpuProgram &program,
                        const polyhedral::Kernel &kernel, unsigned region,
                        const GpuTarget &target);

} // namespace polycuda::translator

#endif
