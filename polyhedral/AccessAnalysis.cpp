//===- AccessAnalysis.cpp - How threads of a kernel access memory ---------===//
//
// See AccessAnalysis.h. The distance between the elements two neighbours
// access is the set of deltas of
//
//   element(S[i]) -> element(S[i'])  where schedule(S[i']) is
//   schedule(S[i]) with member d one larger, and the same host iteration;
//
// a single value per array dimension makes the pattern.
//
//===----------------------------------------------------------------------===//
#include "AccessAnalysis.h"

#include "IslExtras.h"

namespace polycuda::polyhedral {

namespace {

/// `{ [s] -> [s'] : s'_d = s_d + 1, s'_j = s_j otherwise }` on `n` dims.
isl::map neighbourAlong(isl::ctx ctx, unsigned n, unsigned d) {
  std::string from, to, constraints = "0 = 0";
  for (unsigned j = 0; j < n; ++j) {
    std::string s = "s" + std::to_string(j), t = "t" + std::to_string(j);
    from += (j ? ", " : "") + s;
    to += (j ? ", " : "") + t;
    constraints += " and " + t + " = " + s + (j == d ? " + 1" : "");
  }
  return isl::map(ctx, "{ [" + from + "] -> [" + to + "] : " + constraints +
                           " }");
}

} // namespace

isl::set neighbourDeltas(const Statement &stmt, const Access &access,
                         const isl::map &local, const isl::map &host,
                         unsigned d) {
  isl::map next =
      local.apply_range(neighbourAlong(local.ctx(), local.range_tuple_dim(), d))
          .apply_range(local.reverse());
  if (!host.is_null() && host.range_tuple_dim() > 0)
    next = next.intersect(host.apply_range(host.reverse()));
  isl::map elements = access.relation.intersect_domain(stmt.domain);
  return next.apply_domain(elements).apply_range(elements).deltas();
}

namespace {

/// The pattern of a reference whose neighbour deltas are `deltas`.
MemberAccess classify(const Array &array, const isl::set &deltas) {
  MemberAccess result;
  if (deltas.is_null() || deltas.is_empty())
    return result;
  unsigned rank = array.rank();
  std::vector<std::optional<long>> fixed;
  bool allZero = true, single = true;
  for (unsigned j = 0; j < rank; ++j) {
    fixed.push_back(fixedValue(deltas, j));
    allZero &= fixed.back() && *fixed.back() == 0;
    single &= fixed.back().has_value();
  }
  if (allZero) {
    result.pattern = AccessPattern::Broadcast;
    return result;
  }
  if (!single) {
    result.pattern = AccessPattern::Irregular;
    return result;
  }
  bool unitLast = *fixed[rank - 1] == 1 || *fixed[rank - 1] == -1;
  bool restZero = true;
  for (unsigned j = 0; j + 1 < rank; ++j)
    restZero &= *fixed[j] == 0;
  if (unitLast && restZero) {
    result.pattern = AccessPattern::Coalesced;
    return result;
  }
  result.pattern = AccessPattern::Strided;
  for (unsigned j = 0; j < rank; ++j)
    if (*fixed[j] != 0) {
      result.movingDim = j;
      break;
    }
  // Row-major distance in elements, when the extents are constants.
  long stride = 0;
  for (unsigned j = 0; j < rank; ++j) {
    long step = *fixed[j];
    for (unsigned k = j + 1; k < rank && step != 0; ++k) {
      std::optional<long> extent = constantValue(array.extents[k]);
      if (!extent)
        return result;
      step *= *extent;
    }
    stride += step;
  }
  result.stride = stride;
  return result;
}

} // namespace

std::vector<ReferenceAccess>
analyzeAccesses(const Scop &scop, const isl::union_map &localSchedule,
                const isl::union_map &hostSchedule, unsigned members) {
  std::vector<ReferenceAccess> result;
  for (unsigned s = 0; s < scop.statements.size(); ++s) {
    const Statement &stmt = scop.statements[s];
    isl::map local = pieceOf(localSchedule, stmt.name);
    if (local.is_null())
      continue;
    isl::map host = pieceOf(hostSchedule, stmt.name);
    for (unsigned a = 0; a < stmt.accesses.size(); ++a) {
      const Access &access = stmt.accesses[a];
      ReferenceAccess ref{s, a, {}};
      for (unsigned d = 0; d < members; ++d) {
        if (!access.isAffine()) {
          // A may-access of the whole extent: which element a thread
          // touches is known only at run time; no reuse is claimed.
          ref.members.push_back({AccessPattern::Irregular, std::nullopt, 0});
          continue;
        }
        ref.members.push_back(
            classify(scop.arrays[access.array],
                     neighbourDeltas(stmt, access, local, host, d)));
      }
      result.push_back(ref);
    }
  }
  return result;
}

} // namespace polycuda::polyhedral
