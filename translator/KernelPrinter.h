//===- KernelPrinter.h - Device code of one kernel --------------*- C++ -*-===//
#ifndef POLYCUDA_TRANSLATOR_KERNELPRINTER_H
#define POLYCUDA_TRANSLATOR_KERNELPRINTER_H

#include "GpuTarget.h"

namespace polycuda::translator {

/// Name of kernel `kernel` of the scop numbered `region` in the file.
std::string kernelName(const polyhedral::Scop &scop, unsigned region,
                       const polyhedral::Kernel &kernel);

/// Parameters of a kernel in order: (C type, name) for arrays (as device
/// pointers), scop parameters and host iterators.
std::vector<std::pair<std::string, std::string>>
kernelParameters(const polyhedral::GpuProgram &program,
                 const polyhedral::Kernel &kernel, const GpuTarget &target);

/// The definition of `kernel` in the target's language.
std::string printKernel(const polyhedral::GpuProgram &program,
                        const polyhedral::Kernel &kernel, unsigned region,
                        const GpuTarget &target);

} // namespace polycuda::translator

#endif
