//===- ScalarExpansion.h - Privatize scalars by expansion -------*- C++ -*-===//
//
// Stage 0 (before dependences): Scop -> Scop. Scalars, then arrays.
// A scalar written in the scop serializes every loop around its accesses
// through false (WAR/WAW) dependences. When its value never flows from one
// iteration of the l outermost common loops to another, is not read before
// it is written, and is not needed after the scop, it is expanded into an
// array indexed by those l iterators: each iteration gets its own copy, the
// false dependences disappear, and the loops can run in parallel.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_SCALAREXPANSION_H
#define POLYCUDA_POLYHEDRAL_SCALAREXPANSION_H

#include "Dependences.h"

namespace polycuda::polyhedral {

/// What expansion did to one scalar or array, for the report (which words
/// it: translator/Report_Reasons.cpp, expansionReason).
struct ScalarExpansion {
  /// Why it was (not) expanded.
  enum class Why {
    UsedAfterScop,        ///< kept: its value may be used after the scop
    ReadBeforeWritten,    ///< kept: the scop reads its value on entry
    NoCommonLoop,         ///< kept: its accesses share no loop
    FlowsAcrossEveryLoop, ///< kept: its value flows between iterations
    Privatized,           ///< a scalar, written before read in every iteration
    ArrayExpanded,        ///< an array, into `into`
  };
  std::string array;
  unsigned depth = 0; ///< number of loops it was expanded along (0: kept)
  Why why = Why::FlowsAcrossEveryLoop;
  std::string into;        ///< the expanded array (ArrayExpanded)
  bool copiedBack = false; ///< the last iteration's values copied back
};

/// Expands the privatizable scalars of `scop` in place; `cache` (the
/// dependence stage's, DependenceCache) follows the new accesses.
/// `localOnly`: only those declared inside the scop (Array::isLocal), which
/// C makes a new object in every iteration of the loops around their
/// declaration (--expansion=off keeps the others).
std::vector<ScalarExpansion> expandScalars(Scop &scop, DependenceCache &cache,
                                           bool localOnly = false);
/// The same with a cache of its own (discarded).
std::vector<ScalarExpansion> expandScalars(Scop &scop);

/// Array expansion: an array whose every value is written and read within
/// one iteration of the loops around its accesses (doitgen's `sum[p]`, a
/// temporary per `(r, q)`), and whose reuse across those iterations is what
/// keeps them sequential, gets a copy per iteration: `sum_x[r][q][p]`. When
/// its values may be used after the scop, a statement after the scop's
/// others copies the last iteration's values back (`sum[p] =
/// sum_x[nr - 1][nq - 1][p]`). Records one entry per array expanded.
std::vector<ScalarExpansion> expandArrays(Scop &scop, DependenceCache &cache,
                                          bool localOnly = false);

} // namespace polycuda::polyhedral

#endif
