//===- MemoryPromotion.cpp - Where each array lives, host/device copies ---===//
//
// Stage 4 (see MemoryPromotion.h). Every accessed array is copied in, not
// only read ones: the copy out covers a contiguous range that may include
// elements the scop does not write, and those must keep their host values.
//
//===----------------------------------------------------------------------===//
#include "MemoryPromotion.h"

#include "IslExtras.h"

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
    range.last.push_back(totalOn(last.at(d), context));
  }
  return range;
}

} // namespace

void computeTransfers(GpuProgram &program) {
  const Scop &scop = *program.scop;
  isl::union_set accessed =
      scop.accesses(true, true, true).range().intersect_params(scop.context);
  isl::union_set written =
      scop.accesses(false, true, true).range().intersect_params(scop.context);
  for (unsigned a = 0; a < scop.arrays.size(); ++a) {
    const Array &array = scop.arrays[a];
    isl::space space = namedSetSpace(scop.ctx, array.name, array.rank());
    isl::set elements = accessed.extract_set(space);
    if (elements.is_empty())
      continue;
    Transfer transfer;
    transfer.array = a;
    transfer.toDevice = !array.isLocal;
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
