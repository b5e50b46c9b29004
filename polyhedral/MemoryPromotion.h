//===- MemoryPromotion.h - Arrays moved closer to the threads --*- C++ -*-===//
//
// Stage 4: GpuProgram -> GpuProgram with arrays promoted from global memory
// to registers. Input: the kernels and their mapping, the dependences.
// Output: each kernel's `registers` (and those arrays removed from its
// `arrays`).
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_MEMORYPROMOTION_H
#define POLYCUDA_POLYHEDRAL_MEMORYPROMOTION_H

#include "GpuProgram.h"

namespace polycuda::polyhedral {

/// Arrays local to the scop (privatized scalars) whose every value is
/// produced and consumed by one thread in one launch, one element per
/// thread, live in a register of that thread and need no device memory.
void promoteToRegisters(GpuProgram &program);

/// Register accumulators (Kernel::accumulators): a reference whose element
/// stays the same across a loop of a kernel, that no other reference in
/// the loop touches and no other thread of the launch accesses, is loaded
/// into a register before the loop and stored after it. Records them and
/// the kernel's rewritten tree (`Kernel::deviceTree`): statements
/// `polycuda_load_N[e]` and `polycuda_store_N[e]` (N: the accumulator's
/// position, e: the element) grafted before and after the loop.
void promoteAccumulators(GpuProgram &program);

} // namespace polycuda::polyhedral

#endif
