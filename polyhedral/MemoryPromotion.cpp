//===- MemoryPromotion.cpp - Arrays moved closer to the threads -----------===//
//
// Stage 4 (see MemoryPromotion.h).
//
//===----------------------------------------------------------------------===//
#include "MemoryPromotion.h"

#include "IslExtras.h"

#include <algorithm>

namespace polycuda::polyhedral {

namespace {

/// Can local array `a`, accessed only by `kernel`, live in a register?
bool fitsInRegister(const Scop &scop, const Dependences &deps,
                    const Kernel &kernel, unsigned a) {
  // Thread coordinates of an instance: host iteration and mapped members.
  isl::union_map thread = kernel.hostSchedule;
  for (const isl::union_map &member : kernel.memberSchedules)
    thread = flatRangeProduct(thread, member);
  isl::union_map sameThread = thread.apply_range(thread.reverse());
  if (!flowOnArray(scop, deps, a).is_subset(sameThread))
    return false;
  isl::union_map access = isl::union_map::empty(scop.ctx);
  for (const Statement &stmt : scop.statements)
    for (const Access &acc : stmt.accesses)
      if (acc.array == a)
        access = access.unite(isl::union_map(acc.relation));
  access = access.intersect_domain(kernel.instances);
  return thread.reverse().apply_range(access).is_single_valued();
}

} // namespace

void promoteToRegisters(GpuProgram &program) {
  const Scop &scop = *program.scop;
  if (!program.deps.complete)
    return;
  for (unsigned a = 0; a < scop.arrays.size(); ++a) {
    if (!scop.arrays[a].isLocal)
      continue;
    Kernel *owner = nullptr;
    unsigned users = 0;
    for (Kernel &kernel : program.kernels)
      if (std::find(kernel.arrays.begin(), kernel.arrays.end(), a) !=
          kernel.arrays.end()) {
        owner = &kernel;
        ++users;
      }
    if (users != 1 || !fitsInRegister(scop, program.deps, *owner, a))
      continue;
    owner->registers.push_back(a);
    owner->arrays.erase(
        std::find(owner->arrays.begin(), owner->arrays.end(), a));
  }
}

} // namespace polycuda::polyhedral
