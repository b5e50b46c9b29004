//===- Dependences.h - Exact dataflow dependences with isl -----*- C++ -*-===//
//
// Stage 1 of the polyhedral pipeline: Scop -> Dependences.
// Input: the statements' domains, tagged accesses and original schedule.
// Output: flow (RAW), anti (WAR) and output (WAW) dependences as union maps
// between statement instances, `{ S[i] -> T[j] }`, restricted to the context.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_POLYHEDRAL_DEPENDENCES_H
#define POLYCUDA_POLYHEDRAL_DEPENDENCES_H

#include "Scop.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace polycuda::polyhedral {

/// The dependences of one scop. Each relation is `{ S[i] -> T[j] }` with the
/// source instance executing before the sink in the original schedule.
struct Dependences {
  isl::union_map flow;   ///< RAW: exact last writer (must) plus may sources.
  isl::union_map anti;   ///< WAR: a read followed by a later write.
  isl::union_map output; ///< WAW: a write followed by a later write.
  /// Tagged flow dependences `{ [S[i] -> ref[]] -> [T[j] -> ref[]] }`.
  isl::union_map taggedFlow;
  /// Array elements read before the scop writes them (their values on
  /// entry matter): every read element when the analysis is incomplete.
  isl::union_set liveIn;
  /// The reads behind liveIn, tagged: `{ [S[i] -> ref[]] -> A[a] }`.
  isl::union_map taggedLiveIn;
  /// False when the analysis ran out of its budget: the relations are then
  /// empty and meaningless, and the scop must keep its original order with
  /// nothing run in parallel.
  bool complete = true;
  /// Why the relations are incomplete (see DependenceCache).
  std::string incompleteReason;
  /// False only for parts of a DependenceCache computed without the anti
  /// and output dependences (computeDependences' `flowOnly`).
  bool hasAntiOutput = true;
  /// The flow dependences whose source reference writes each array (an
  /// assembled result only; empty in a DependenceCache part).
  std::map<unsigned, isl::union_map> flowByArray;

  /// flow ∪ anti ∪ output: everything a legal schedule must respect.
  isl::union_map all() const { return flow.unite(anti).unite(output); }
};

/// isl's dataflow analysis: the dependences from `mustSources` and
/// `maySources` to `sinks` (access relations, tagged or not) in the order of
/// `schedule`, and in `noSource`, if given, the sinks that may have none.
/// Every caller goes through it: it analyses strided statements in their
/// compressed form, which isl 0.25 needs (Dependences.cpp).
isl::union_map dataflow(const isl::union_map &sinks,
                        const isl::union_map &mustSources,
                        const isl::union_map &maySources,
                        const isl::union_map &schedule,
                        isl::union_map *noSource = nullptr);

/// isl operations the dataflow analysis may spend on one scop.
inline constexpr unsigned long kDependenceOperationLimit = 2000000;

/// What the dependence stage keeps of a scop between its runs: each array's
/// part of the dependences of the statements as they are now (accesses to
/// different arrays never depend on each other), each computed once, and
/// whether the analysis ran out of its budget (later runs then do not spend
/// it again). Stages that change the statements keep it up to date: scalar
/// expansion and index-set splitting derive the new parts from the old
/// ones; whoever changes the statements or the original schedule otherwise
/// must call invalidate(), and whoever changes only the accesses to one
/// array, invalidate(array).
struct DependenceCache {
  std::map<unsigned, std::shared_ptr<const Dependences>> parts;
  bool budgetExceeded = false;
  /// isl operations one computeDependences call may spend (0: no limit).
  unsigned long maxOperations = kDependenceOperationLimit;
  /// Why no dependences are known once budgetExceeded is set.
  std::string incompleteReason = "dependence analysis exceeded its budget";
  void invalidate() { parts.clear(); }
  void invalidate(unsigned array) { parts.erase(array); }
};

/// Flow dependences `{ S[i] -> T[j] }` whose source reference writes array
/// `array`, from `deps` as computeDependences assembled it; empty when the
/// analysis is incomplete.
isl::union_map flowOnArray(const Scop &scop, const Dependences &deps,
                           unsigned array);

/// `deps` without the dependences from or to instances of statements
/// outside `statements`: the dependences through the accesses of those
/// statements alone, when they get an array of their own.
Dependences restrictToStatements(const Dependences &deps,
                                 const std::set<std::string> &statements);

/// `deps` of a scalar whose flow dependences all stay within iterations of
/// the `depth` loops around its accesses, once it is expanded along them:
/// the flow is unchanged (each read's last writer already wrote the element
/// of its iteration), and the memory-based WAR and WAW relations keep the
/// pairs of one iteration, which are those that share an element now.
Dependences expandAlongLoops(const Dependences &deps, unsigned depth);

/// Computes the dependences of `scop` with isl's dataflow analysis; see
/// Dependences::complete for what happens when it exceeds its budget. Each
/// array's part is kept in `cache` for the next call.
Dependences computeDependences(const Scop &scop, DependenceCache &cache);
/// A one-off analysis, with a cache of its own.
Dependences computeDependences(const Scop &scop);
/// The same, for the accesses to `arrays` only; with `flowOnly`, the anti
/// and output dependences are left out (and computed by a later call that
/// needs them, from the accesses as they are then).
Dependences computeDependences(const Scop &scop, DependenceCache &cache,
                               const std::vector<unsigned> &arrays,
                               bool flowOnly = false);

} // namespace polycuda::polyhedral

#endif
