//===- IndexSetSplitting.h - Split statements on broadcast planes -*- C++ -*-===//
//
// Stage 0b (after scalar expansion, before dependences): Scop -> Scop.
// A statement whose instances on a hyperplane (e.g. row k and column k of
// Floyd-Warshall's iteration k) feed all its other instances has no parallel
// loop under any affine schedule of the whole statement: isl then skews it
// into a wavefront, with one launch per diagonal. Splitting the statement
// into the plane and the rest lets the scheduler run the plane first and
// the rest in parallel.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_INDEXSETSPLITTING_H
#define POLYCUDA_POLYHEDRAL_INDEXSETSPLITTING_H

#include "Dependences.h"

namespace polycuda::polyhedral {

/// Splits statements of `scop` in place; returns one line per split for the
/// report (statement, plane). `cache` (DependenceCache) follows the pieces.
std::vector<std::string> splitIndexSets(Scop &scop, DependenceCache &cache);
/// The same with a cache of its own (discarded).
std::vector<std::string> splitIndexSets(Scop &scop);

} // namespace polycuda::polyhedral

#endif
