//===- Transfers.cpp - Host/device copies of every array ------------------===//
//
// Stage 5 (see Transfers.h). Copies are boxes (a range per
// dimension), which the runtime moves as contiguous or 2-D copies. The box
// copied out may hold elements the scop does not (surely) write; those are
// copied in too, so that the copy back returns their host values.
//
//===----------------------------------------------------------------------===//
#include "Transfers.h"

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
        total = total.union_add(
            empty.pw_aff_on_domain(isl::val::negone(context.ctx())));
    }
    range.last.push_back(total);
  }
  return range;
}

bool isInRegister(const GpuProgram &program, unsigned a) {
  for (const Kernel &kernel : program.kernels)
    if (std::find(kernel.registers.begin(), kernel.registers.end(), a) !=
        kernel.registers.end())
      return true;
  return false;
}

} // namespace

namespace {

/// The smallest box that holds `elements`: bounds 0 and `emptyUpper` where
/// `elements` is empty.
ElementBox boxOf(const isl::set &elements, const isl::set &context,
                 long emptyUpper) {
  ElementBox box;
  for (unsigned d = 0; d < elements.tuple_dim(); ++d) {
    box.lower.push_back(valueOutside(dimMin(elements, d), context, 0));
    box.upper.push_back(
        valueOutside(dimMax(elements, d), context, emptyUpper));
  }
  return box;
}

/// boxOf(elements, context, 0), a dimension at a time: the extremes of
/// each dimension's coalesced projection, where many disjuncts share one.
ElementBox projectedBox(const isl::set &elements, const isl::set &context) {
  ElementBox box;
  unsigned rank = elements.tuple_dim();
  for (unsigned d = 0; d < rank; ++d) {
    isl_set *line = isl_set_project_out(elements.copy(), isl_dim_set, d + 1,
                                        rank - d - 1);
    line = isl_set_project_out(line, isl_dim_set, 0, d);
    isl::set coalesced = isl::manage(isl_set_coalesce(line));
    box.lower.push_back(valueOutside(dimMin(coalesced, 0), context, 0));
    box.upper.push_back(valueOutside(dimMax(coalesced, 0), context, 0));
  }
  return box;
}

/// The elements of `box`, in `space`.
isl::set elementsOf(const ElementBox &box, const isl::space &space,
                    const isl::set &context) {
  isl::set elements = isl::set::universe(space).intersect_params(context);
  for (unsigned d = 0; d < box.lower.size(); ++d) {
    isl::pw_aff index = variableOn(space, d);
    elements = elements.intersect(index.ge_set(liftToSpace(box.lower[d], space)))
                   .intersect(index.le_set(liftToSpace(box.upper[d], space)));
  }
  return elements;
}

/// isl operations the exact copy sets of one array may take.
constexpr unsigned long kExactTransferOperations = 5000000;

/// The exact boxes in and out of `transfer`'s array (`writes`: the
/// elements it may write, `must`: those it surely writes, `read`: those it
/// reads before writing them).
void exactBoxes(Transfer &transfer, const Array &array,
                const isl::space &space, const isl::set &context,
                const isl::set &writes, const isl::set &must,
                const isl::set &read);

/// Bands for `transfer`'s copies (see ElementBox) where the box of an
/// array's elements holds far more than they (syrk's triangle of C): for a
/// band of indices [kBandFirst, kBandLast] of the first dimension, the box
/// of the elements the band writes, and the box of those it reads before
/// writing them or may leave alone in its copy-out box; both directions
/// take the same bands. Arguments as exactBoxes'.
void bandBoxes(Transfer &transfer, const Array &array, const isl::space &space,
               const isl::set &context, const isl::set &writes,
               const isl::set &must, const isl::set &read);

/// The conservative boxes: everything the scop accesses, both ways
/// (`why`: why not the exact ones, for the report).
void wholeBoxes(Transfer &transfer, const Array &array,
                Transfer::WholeWhy why);

/// `transfer.out` over whole trailing dimensions, where that adds only
/// elements copied in (see the definition).
void widenOutBox(Transfer &transfer, const Array &array,
                 const isl::space &space, const isl::set &context);

} // namespace

void computeTransfers(GpuProgram &program, TransferMethod method,
                      bool exact, bool bands) {
  const Scop &scop = *program.scop;
  const isl::set &context = scop.context;
  isl::union_set accessed =
      scop.accesses(true, true, true).range().intersect_params(context);
  isl::union_set written =
      scop.accesses(false, true, true).range().intersect_params(context);
  isl::union_set mustWritten =
      scop.accesses(false, true, false).range().intersect_params(context);
  // Elements read before the scop writes them: their host values matter.
  isl::union_set liveIn = program.deps.liveIn.intersect_params(context);
  for (unsigned a = 0; a < scop.arrays.size(); ++a) {
    const Array &array = scop.arrays[a];
    isl::space space = namedSetSpace(scop.ctx, array.name, array.rank());
    isl::set elements = accessed.extract_set(space);
    // (Scalars of host code: on the host only, kernels get their values.)
    if (elements.is_empty() || isInRegister(program, a) ||
        program.isHostScalar(a))
      continue;
    Transfer transfer;
    transfer.array = a;
    transfer.method = method;
    isl::set writes = written.extract_set(space);
    transfer.toHost = !array.isLocal && !writes.is_empty();
    if (!exact) {
      // The cheapest copies. The box of the accessed elements, taken over
      // their many disjuncts at once, was most of the time of the cheapest
      // translation (3 s for one random program): a dimension at a time it
      // is the same box, and the range reported as accessed is that of its
      // corners.
      transfer.allocated = projectedBox(elements, context);
      transfer.accessed.first = transfer.allocated.lower;
      transfer.accessed.last = transfer.allocated.upper;
      wholeBoxes(transfer, array, Transfer::WholeWhy::Cheapest);
      program.transfers.push_back(std::move(transfer));
      continue;
    }
    transfer.accessed = rangeOf(elements, context);
    transfer.allocated = boxOf(elements, context, 0);
    try {
      // Exact boxes can take isl very long on may-accesses and many
      // statements (29 s for one random program); past the budget the
      // array moves as the box of all it accesses, both ways, which is
      // always right: its unwritten elements go back as they came.
      OperationLimit limit(scop.ctx, kExactTransferOperations);
      exactBoxes(transfer, array, space, context, writes,
                 mustWritten.extract_set(space), liveIn.extract_set(space));
      if (bands)
        bandBoxes(transfer, array, space, context, writes,
                  mustWritten.extract_set(space), liveIn.extract_set(space));
      if (!transfer.out.banded())
        widenOutBox(transfer, array, space, context);
    } catch (const isl::exception &) {
      resetError(scop.ctx);
      wholeBoxes(transfer, array, Transfer::WholeWhy::Budget);
    }
    program.transfers.push_back(std::move(transfer));
  }
}

namespace {

void exactBoxes(Transfer &transfer, const Array &array,
                const isl::space &space, const isl::set &context,
                const isl::set &writes, const isl::set &must,
                const isl::set &read) {
    transfer.written =
        transfer.toHost ? rangeOf(writes, context) : transfer.accessed;
    transfer.out = boxOf(writes, context, -1);
    isl::set outElements = elementsOf(transfer.out, space, context);
    transfer.outExact = outElements.is_subset(writes);
    // Elements copied back that the scop may leave alone: the copy back
    // returns whatever the device holds, so it must hold their host values.
    isl::set kept = transfer.toHost ? outElements.subtract(must)
                                    : isl::set::empty(space);
    isl::set needed = read.unite(kept).intersect_params(context);
    transfer.toDevice = !array.isLocal && !needed.is_empty();
    transfer.in = boxOf(needed, context, -1);
    transfer.inExact = elementsOf(transfer.in, space, context).is_subset(needed);
    using In = Transfer::In;
    using Out = Transfer::Out;
    transfer.inWhy = array.isLocal         ? In::Local
                     : !transfer.toDevice  ? In::WrittenFirst
                     : kept.is_empty()     ? In::LiveIn
                     : read.is_empty()     ? In::KeepsUnwritten
                                           : In::LiveInAndKeepsUnwritten;
    transfer.outWhy = array.isLocal    ? Out::Local
                      : transfer.toHost ? Out::Written
                                        : Out::NotWritten;
}

/// `set` with the parameters kBandFirst and kBandLast added.
isl::set withBandParameters(const isl::set &set) {
  isl_size n = isl_set_dim(set.get(), isl_dim_param);
  isl_set *s = isl_set_add_dims(set.copy(), isl_dim_param, 2);
  s = isl_set_set_dim_name(s, isl_dim_param, n, kBandFirst);
  s = isl_set_set_dim_name(s, isl_dim_param, n + 1, kBandLast);
  return isl::manage(s);
}

/// Whether `pa`, where `some` holds, is a function of kBandFirst or
/// kBandLast with a coefficient (not only piecewise on them).
bool growsWithBand(const isl::pw_aff &pa, const isl::set &some) {
  bool grows = false;
  isl::pw_aff within = pa.intersect_params(some);
  isl_pw_aff_foreach_piece(
      within.get(),
      [](isl_set *set, isl_aff *aff, void *user) -> isl_stat {
        for (const char *name : {kBandFirst, kBandLast}) {
          int pos = isl_aff_find_dim_by_name(aff, isl_dim_param, name);
          if (pos >= 0 && isl_aff_involves_dims(aff, isl_dim_param, pos, 1))
            *static_cast<bool *>(user) = true;
        }
        isl_set_free(set);
        isl_aff_free(aff);
        return isl_stat_ok;
      },
      &grows);
  return grows;
}

/// Whether the box of a band of rows, `band` (where `elements`, the band's
/// elements, are not empty), follows its rows in a dimension after the
/// first (a triangle: the band of rows [bf, bl] of syrk's C spans columns
/// 0..bl), so that the bands' boxes hold far fewer elements than the box
/// of all. A border that only the first or last band reads (jacobi-2d's)
/// changes a band's box by a constant: not worth the bands.
bool followsRows(const ElementBox &band, const isl::set &elements) {
  isl::set some = elements.params();
  for (size_t d = 1; d < band.lower.size(); ++d)
    if (growsWithBand(band.lower[d], some) ||
        growsWithBand(band.upper[d], some))
      return true;
  return false;
}

void bandBoxes(Transfer &transfer, const Array &array, const isl::space &space,
               const isl::set &context, const isl::set &writes,
               const isl::set &must, const isl::set &read) {
  unsigned rank = array.rank();
  if (rank < 2 || array.isLocal || (!transfer.toDevice && !transfer.toHost))
    return;
  isl::ctx ctx = context.ctx();
  std::string band = std::string("[") + kBandFirst + ", " + kBandLast +
                     "] -> { " + array.name + "[e0";
  for (unsigned d = 1; d < rank; ++d)
    band += ", e" + std::to_string(d);
  band += std::string("] : ") + kBandFirst + " <= e0 <= " + kBandLast + " }";
  isl::set rows(ctx, band);
  isl::set bandContext = withBandParameters(context).intersect(
      isl::set(ctx, std::string("[") + kBandFirst + ", " + kBandLast +
                        "] -> { : " + kBandFirst + " <= " + kBandLast + " }"));
  rows = rows.intersect_params(bandContext);
  isl::space bandSpace = rows.get_space();
  // The band's written elements, and its copy-out box.
  isl::set written = withBandParameters(writes).intersect(rows);
  ElementBox out = boxOf(written, bandContext, -1);
  isl::set outElements = transfer.toHost
                             ? elementsOf(out, bandSpace, bandContext)
                             : isl::set::empty(bandSpace);
  isl::set kept = outElements.subtract(withBandParameters(must));
  isl::set needed = withBandParameters(read).intersect(rows).unite(kept);
  ElementBox in = boxOf(needed, bandContext, -1);
  if (!(transfer.toHost && followsRows(out, written)) &&
      !(transfer.toDevice && followsRows(in, needed)))
    return;
  auto setBands = [&](ElementBox &box, const ElementBox &bands) {
    box.bandLower = bands.lower;
    box.bandUpper = bands.upper;
    box.bandContext = bandContext;
  };
  if (transfer.toDevice) {
    setBands(transfer.in, in);
    transfer.inExact = false;
  }
  if (transfer.toHost) {
    setBands(transfer.out, out);
    transfer.outExact = false;
  }
}

/// The copy back of an interior (heat-3d writes A[1..n-2][1..n-2][1..n-2])
/// is a 2-D copy per plane, which into pageable memory ran at 1 GB/s. Where
/// the elements between its rows were copied in and are not written, the
/// device holds their host values, and copying them back too changes
/// nothing: the box then spans the copy-in box's trailing dimensions, and
/// when those are whole (n = N at run time) the runtime copies one
/// contiguous range.
void widenOutBox(Transfer &transfer, const Array &array,
                 const isl::space &space, const isl::set &context) {
  if (!transfer.toHost || !transfer.toDevice || array.isLocal)
    return;
  isl::set in = elementsOf(transfer.in, space, context);
  isl::set out = elementsOf(transfer.out, space, context);
  ElementBox widened = transfer.out;
  bool changed = false;
  for (unsigned d = array.rank(); d-- > 1;) {
    // As far as the copy-in box reaches: the runtime copies a box that
    // spans a dimension's whole extent (at run time) as one range.
    ElementBox candidate = widened;
    candidate.lower[d] = widened.lower[d].min(transfer.in.lower[d]);
    candidate.upper[d] = widened.upper[d].max(transfer.in.upper[d]);
    isl::set added = elementsOf(candidate, space, context).subtract(out);
    if (!added.is_subset(in))
      break;
    changed |= !added.is_empty();
    widened = candidate;
  }
  if (!changed)
    return;
  transfer.out = widened;
  transfer.outExact = false;
  transfer.outWidened = true;
}

void wholeBoxes(Transfer &transfer, const Array &array,
                Transfer::WholeWhy why) {
  transfer.written = transfer.accessed;
  transfer.out = transfer.allocated;
  transfer.outExact = false;
  transfer.outWidened = false;
  transfer.toDevice = !array.isLocal;
  transfer.in = transfer.allocated;
  transfer.inExact = false;
  transfer.wholeWhy = why;
  using In = Transfer::In;
  using Out = Transfer::Out;
  transfer.inWhy = array.isLocal ? In::Local : In::Whole;
  transfer.outWhy = array.isLocal    ? Out::Local
                    : transfer.toHost ? Out::Whole
                                      : Out::NotWritten;
}

} // namespace

const char *transferMethodName(TransferMethod method) {
  switch (method) {
  case TransferMethod::Plain:
    return "plain";
  case TransferMethod::Staged:
    return "staged";
  case TransferMethod::Auto:
    break;
  }
  return "auto";
}

bool parseTransferMethod(const std::string &name, TransferMethod &method) {
  for (TransferMethod m :
       {TransferMethod::Auto, TransferMethod::Plain, TransferMethod::Staged})
    if (name == transferMethodName(m)) {
      method = m;
      return true;
    }
  return false;
}

namespace {

/// Marks in `used` the arrays that the kernels launched below `node` use,
/// and in `written` those they write.
void collectKernelArrays(const GpuProgram &program, const isl::ast_node &node,
                         std::vector<bool> &used, std::vector<bool> &written) {
  forEachAstNode(node, [&](const isl::ast_node &child) {
    if (!child.isa<isl::ast_node_user>())
      return true;
    // Host statements touch only the user's scalars (GpuMapping.h).
    const Kernel *kernel =
        program.kernelOf(callId(child.as<isl::ast_node_user>().expr()));
    if (!kernel)
      return false;
    for (unsigned a : kernel->arrays) {
      used[a] = true;
      written[a] = written[a] || kernel->writes(*program.scop, a);
    }
    return false;
  });
}

} // namespace

void placeTransfers(GpuProgram &program) {
  const Scop &scop = *program.scop;
  std::vector<isl::ast_node> parts = topLevelParts(program.host);
  size_t n = program.transfers.size();
  TransferPlacement &place = program.placement;
  place = TransferPlacement();
  place.copyInBefore.resize(parts.size() + 1);
  place.markWrittenAfter.resize(parts.size());
  std::vector<bool> copiedIn(n, false);
  std::vector<size_t> lastWriter(n, parts.size());
  for (size_t p = 0; p < parts.size(); ++p) {
    std::vector<bool> used(scop.arrays.size(), false);
    std::vector<bool> written(scop.arrays.size(), false);
    collectKernelArrays(program, parts[p], used, written);
    for (unsigned i = 0; i < n; ++i) {
      const Transfer &t = program.transfers[i];
      if (t.toDevice && !copiedIn[i] && used[t.array]) {
        copiedIn[i] = true;
        place.copyInBefore[p].push_back(i);
      }
      if (written[t.array])
        lastWriter[i] = p;
    }
  }
  for (unsigned i = 0; i < n; ++i)
    if (program.transfers[i].toDevice && !copiedIn[i])
      place.copyInBefore.back().push_back(i);
  // An array written last before the last part is marked written there.
  auto marked = [&](unsigned i) {
    const Transfer &t = program.transfers[i];
    return t.toHost && scop.arrays[t.array].rank() > 0 &&
           lastWriter[i] + 1 < parts.size();
  };
  for (unsigned i = 0; i < n; ++i) {
    if (marked(i))
      place.markWrittenAfter[lastWriter[i]].push_back(i);
    if (program.transfers[i].toHost)
      place.copyOutOrder.push_back(i);
  }
  std::stable_sort(place.copyOutOrder.begin(), place.copyOutOrder.end(),
                   [&](unsigned a, unsigned b) {
                     return (marked(a) ? lastWriter[a] : parts.size()) <
                            (marked(b) ? lastWriter[b] : parts.size());
                   });
}

} // namespace polycuda::polyhedral
