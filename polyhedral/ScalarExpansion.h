//===- ScalarExpansion.h - Privatize scalars by expansion -------*- C++ -*-===//
//
// Stage 0 (before dependences): Scop -> Scop.
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

/// What expansion did to one scalar, for the report.
struct ScalarExpansion {
  std::string array;
  unsigned depth = 0; ///< number of loops it was expanded along (0: kept)
  std::string reason; ///< why it was or was not expanded
};

/// Expands the privatizable scalars of `scop` in place; `cache` (the
/// dependence stage's, DependenceCache) follows the new accesses.
std::vector<ScalarExpansion> expandScalars(Scop &scop, DependenceCache &cache);
/// The same with a cache of its own (discarded).
std::vector<ScalarExpansion> expandScalars(Scop &scop);

} // namespace polycuda::polyhedral

#endif
