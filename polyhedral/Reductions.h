//===- Reductions.h - Reductions shared by the threads of a block -*- C++ -*-===//
//
// Recognition (for the mapping, stage 3) and code (stage 4) of reductions
// whose iterations the threads of a block share (Kernel::reduction).
// Input: a statement's body and the kernel's instances. Output: the
// statement's reduction form; the kernel's tree with the block's combine.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_REDUCTIONS_H
#define POLYCUDA_POLYHEDRAL_REDUCTIONS_H

#include "GpuProgram.h"

#include <optional>
#include <utility>
#include <vector>

namespace polycuda::polyhedral {

/// A statement that updates one element with an associative, commutative
/// operation: `x += e`, `x -= e`, `x *= e`, `x = x + e`, `x = e + x`,
/// `x = x - e`, `x = x * e`, `x = e * x`, and the maxima and minima
/// `x = (x > e) ? x : e` (any comparison of x and e choosing one of them),
/// `x = fmax(x, e)`, `x = fmin(e, x)`, and the bitwise `x &= e`, `x |= e`,
/// `x ^= e` (x an affine reference, e not reading x through `references`).
struct ReductionForm {
  /// '+' (also for subtractions), '*', '>' (maximum), '<' (minimum), or
  /// '&', '|', '^' (integer x: C converts `x | e` back to x's type by its
  /// low bits, which the bitwise operations compute alike in any order).
  char op = '+';
  /// The accesses of x: its write and the reads of its old value.
  std::vector<unsigned> references;
  unsigned write = 0;
  /// The other accesses of x's array in e (they must not read an element
  /// that the kernel writes, see reductionIsLegal).
  std::vector<unsigned> others;
};

/// "+", "*", "max", "min", "&", "|" or "^" for ReductionForm::op.
const char *reductionOpName(char op);

/// The reduction form of `stmt`, if it has one.
std::optional<ReductionForm> reductionForm(const Statement &stmt);

/// Whether the instances `instances` of `stmt` (one kernel launch per
/// value of `host`, `{ S[i] -> [c] }`) may share the iterations of the
/// member after `prefix` (`{ S[i] -> [c, p] }`: the host loops and the
/// parallel members before it) among the threads of a block: every
/// instance with the same prefix updates the same element, some prefix
/// has more than one instance, and no other reference of the statement
/// reads an element that the launch writes.
bool reductionIsLegal(const Statement &stmt,
                      const ReductionForm &form,
                      const isl::union_set &instances,
                      const isl::union_map &host,
                      const isl::union_map &prefix);

/// The same for several statements that update the same element (per
/// prefix) with the same operation, in any order (nussinov's maxima): each
/// of them reads no element that any of them writes in the launch.
bool reductionsAreLegal(
    const std::vector<std::pair<const Statement *, ReductionForm>> &updates,
    const isl::union_set &instances, const isl::union_map &host,
    const isl::union_map &prefix);

/// For each kernel with a reduction, grafts after the block's subtree the
/// block's combine: `polycuda_reduce_N()` (the partials into the shared
/// buffer, a tree of barriers) and `polycuda_combine_N(e)` (element e
/// updated with the total, by the first lane of the thread that owns it).
void insertBlockReductions(GpuProgram &program);

} // namespace polycuda::polyhedral

#endif
