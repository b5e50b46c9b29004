//===- AccessAnalysis.h - How threads of a kernel access memory -*- C++ -*-===//
//
// The access model of the GPU mapping: for each reference of a kernel and
// each member the mapping may bind to threads, how two threads that are
// neighbours along that member (the member one apart, every other dimension
// of the kernel's schedule equal) access the referenced array: consecutive
// elements (coalesced, Baskaran et al. 2008), the same element (broadcast,
// reuse across threads), elements a fixed distance apart (strided), or no
// single distance (irregular).
//
// GpuMapping decides the hardware order from it (threadIdx.x goes to the
// member with the most coalesced references) and records it in the kernel;
// the report reads the recorded facts, never recomputes them.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_ACCESSANALYSIS_H
#define POLYCUDA_POLYHEDRAL_ACCESSANALYSIS_H

#include "Scop.h"

#include <optional>
#include <string>
#include <vector>

namespace polycuda::polyhedral {

/// How neighbouring threads along one member access an array.
enum class AccessPattern {
  Coalesced,    ///< consecutive elements
  Broadcast,    ///< the same element (one transaction, reuse across threads)
  Strided,      ///< a constant distance apart (`stride` elements)
  Irregular,    ///< no single distance
  NoNeighbours, ///< a single thread along the member
};

/// Whether neighbouring threads with `pattern` access elements a row or
/// more apart, or no single distance apart (neither coalesced nor one
/// element).
inline bool isUncoalesced(AccessPattern pattern) {
  return pattern == AccessPattern::Strided ||
         pattern == AccessPattern::Irregular;
}

/// One reference along one member.
struct MemberAccess {
  AccessPattern pattern = AccessPattern::NoNeighbours;
  /// Strided: the distance in elements when the array's extents are
  /// constants; `movingDim` is the first array dimension that moves.
  std::optional<long> stride;
  unsigned movingDim = 0;
};

/// One reference (`Statement::accesses[access]` of statement `statement`)
/// of a kernel, per candidate member of the kernel's band.
struct ReferenceAccess {
  unsigned statement = 0; ///< index into Scop::statements
  unsigned access = 0;
  std::vector<MemberAccess> members;
};

/// The elements the neighbour along member `d` of an instance of `stmt`
/// accesses through `access`, minus those the instance accesses (`local`:
/// the statement's kernel schedule, `host`: its host loops, or null).
isl::set neighbourDeltas(const Statement &stmt, const Access &access,
                         const isl::map &local, const isl::map &host,
                         unsigned d);

/// The references of the statements in `localSchedule` (a kernel's schedule
/// `{ S[i] -> [s] }`, candidate members first) along each of its first
/// `members` dimensions, within one host iteration of `hostSchedule`
/// (`{ S[i] -> [c] }`).
std::vector<ReferenceAccess>
analyzeAccesses(const Scop &scop, const isl::union_map &localSchedule,
                const isl::union_map &hostSchedule, unsigned members);

} // namespace polycuda::polyhedral

#endif
