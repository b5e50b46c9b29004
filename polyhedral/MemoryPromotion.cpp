//===- MemoryPromotion.cpp - Where each array lives, host/device copies ---===//
//
// Stage 4 (see MemoryPromotion.h). Every accessed array is copied in, not
// only read ones: the copy out covers a contiguous range that may include
// elements the scop does not write, and those must keep their host values.
//
//===----------------------------------------------------------------------===//
#include "MemoryPromotion.h"

#include "IslExtras.h"

#include <algorithm>

namespace polycuda::polyhedral {

namespace {

ElementRange rangeOf(const isl::set &elements, const isl::set &context) {
  ElementRange range;
  unsigned rank = elements.tuple_dim();
  if (rank == 0)
    return range;
  isl::pw_multi_aff first = elements.lexmin_pw_multi_aff();
  isl::pw_multi_aff last = elements.lexmax_pw_multi_aff();
  for (unsigned d = 0; d < rank; ++d) {
    range.first.push_back(totalOn(first.at(d), context));
    isl::pw_aff total = totalOn(last.at(d), context);
    // Where `elements` is empty (e.g. written only under an `if` on the
    // parameters), first is (0, ..., 0) and last (0, ..., 0, -1): an empty
    // linear range, so nothing is copied.
    if (d + 1 == rank) {
      isl::set empty = total.domain().subtract(last.at(d).domain());
      if (!empty.is_empty())
        total = total.union_add(isl::manage(isl_pw_aff_val_on_domain(
            empty.release(), isl_val_negone(context.ctx().get()))));
    }
    range.last.push_back(total);
  }
  return range;
}

/// Do the elements `writes` include every element of the row-major range
/// from the first to the last of `elements` (all that is copied back)?
bool coversLinearRange(const Scop &scop, const Array &array,
                       const isl::set &writes, const isl::set &elements) {
  unsigned rank = array.rank();
  if (rank == 0)
    return !writes.is_empty();
  isl::set first = elements.lexmin();
  isl::set last = elements.lexmax();
  isl::space space = elements.get_space();
  isl::map ge = isl::manage(isl_map_lex_ge(isl_space_copy(space.get())));
  isl::map le = isl::manage(isl_map_lex_le(isl_space_copy(space.get())));
  isl::set range = ge.intersect_range(first).domain().intersect(
      le.intersect_range(last).domain());
  for (unsigned d = 1; d < rank; ++d) {
    isl::pw_aff index = variableOn(space, d);
    range = range
                .intersect(index.ge_set(constantOn(space, 0)))
                .intersect(index.lt_set(liftToSpace(array.extents[d], space)));
  }
  return range.intersect_params(scop.context).is_subset(writes);
}

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

void assignRegisters(GpuProgram &program) {
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

bool isInRegister(const GpuProgram &program, unsigned a) {
  for (const Kernel &kernel : program.kernels)
    if (std::find(kernel.registers.begin(), kernel.registers.end(), a) !=
        kernel.registers.end())
      return true;
  return false;
}

} // namespace

void computeTransfers(GpuProgram &program) {
  const Scop &scop = *program.scop;
  assignRegisters(program);
  isl::union_set accessed =
      scop.accesses(true, true, true).range().intersect_params(scop.context);
  isl::union_set written =
      scop.accesses(false, true, true).range().intersect_params(scop.context);
  isl::union_set mustWritten =
      scop.accesses(false, true, false).range().intersect_params(scop.context);
  // Elements read before the scop writes them: their host values matter.
  const isl::union_set &liveIn = program.deps.liveIn;
  for (unsigned a = 0; a < scop.arrays.size(); ++a) {
    const Array &array = scop.arrays[a];
    isl::space space = namedSetSpace(scop.ctx, array.name, array.rank());
    isl::set elements = accessed.extract_set(space);
    if (elements.is_empty() || isInRegister(program, a))
      continue;
    Transfer transfer;
    transfer.array = a;
    // Nothing to copy in when the scop reads nothing of the array and
    // surely writes every element of the range it copies back.
    transfer.toDevice =
        !array.isLocal &&
        (!liveIn.extract_set(space).is_empty() ||
         !coversLinearRange(scop, array,
                            mustWritten.extract_set(space).intersect_params(
                                scop.context),
                            elements));
    transfer.accessed = rangeOf(elements, scop.context);
    isl::set writes = written.extract_set(space);
    transfer.toHost = !array.isLocal && !writes.is_empty();
    if (transfer.toHost)
      transfer.written = rangeOf(writes, scop.context);
    else
      transfer.written = transfer.accessed;
    program.transfers.push_back(std::move(transfer));
  }
}

} // namespace polycuda::polyhedral
