//===- IslTestSupport.h - Shared helpers of the polyhedral unit tests -*- C++ -*-===//
//
// An isl context per test, isl equality with both values printed on failure
// (Halide `check`), hand-built Scops from isl strings and a schedule tree
// walker. Used by tests/polyhedral and tests/translator.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_TESTS_ISLTESTSUPPORT_H
#define POLYCUDA_TESTS_ISLTESTSUPPORT_H

#include "IslExtras.h"
#include "Scop.h"

#include <gtest/gtest.h>
#include <isl/aff.h>
#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/schedule.h>
#include <isl/schedule_node.h>
#include <isl/set.h>
#include <isl/union_map.h>

#include <memory>
#include <string>
#include <vector>

namespace polycuda::test {

/// Owns an isl context for the lifetime of one test. Every isl object of the
/// test must be destroyed before this fixture, so tests keep them in locals.
class IslTest : public ::testing::Test {
protected:
  IslTest() : rawCtx(isl_ctx_alloc()) {
    isl_options_set_on_error(rawCtx, ISL_ON_ERROR_CONTINUE);
  }
  ~IslTest() override { isl_ctx_free(rawCtx); }
  isl::ctx ctx() const { return isl::ctx(rawCtx); }

private:
  isl_ctx *rawCtx;
};

/// isl equality for EXPECT_PRED_FORMAT2, printing both values on failure.
template <typename T>
::testing::AssertionResult islEqual(const char *expectedText,
                                    const char *actualText, const T &expected,
                                    const T &actual) {
  if (actual.is_null())
    return ::testing::AssertionFailure() << actualText << " is null";
  if (expected.is_equal(actual))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << actualText << " differs from " << expectedText
         << "\n  expected: " << polyhedral::toString(expected)
         << "\n    actual: " << polyhedral::toString(actual);
}

inline ::testing::AssertionResult islEqual(const char *expectedText,
                                           const char *actualText,
                                           const isl::pw_aff &expected,
                                           const isl::pw_aff &actual) {
  if (actual.is_null())
    return ::testing::AssertionFailure() << actualText << " is null";
  // `[n] -> { [(n)] }` parses with a 0-d set domain; functions of the
  // parameters alone may have a parameter domain instead.
  isl::pw_aff e = expected, a = actual;
  bool eParams = isl_set_is_params(e.domain().get()) == isl_bool_true;
  bool aParams = isl_set_is_params(a.domain().get()) == isl_bool_true;
  if (aParams && !eParams)
    e = isl::manage(isl_pw_aff_project_domain_on_params(e.release()));
  else if (eParams && !aParams)
    a = isl::manage(isl_pw_aff_project_domain_on_params(a.release()));
  if (isl_pw_aff_is_equal(e.get(), a.get()) == isl_bool_true)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << actualText << " differs from " << expectedText
         << "\n  expected: " << polyhedral::toString(expected)
         << "\n    actual: " << polyhedral::toString(actual);
}

#define EXPECT_ISL_EQ(expected, actual)                                        \
  EXPECT_PRED_FORMAT2(::polycuda::test::islEqual, expected, actual)

// --- Hand-built scops --------------------------------------------------------

struct AccessSpec {
  polyhedral::Access::Kind kind;
  std::string array;
  std::string relation; ///< `[params] -> { S[i] -> A[a] }`
};

inline void addArray(polyhedral::Scop &scop, const std::string &name,
                     const std::vector<std::string> &extents) {
  polyhedral::Array array;
  array.name = name;
  for (const std::string &extent : extents)
    array.extents.push_back(isl::pw_aff(scop.ctx, extent));
  scop.arrays.push_back(array);
}

/// Adds a statement; arrays must exist already. Also sets the arrays'
/// isRead/isWritten flags.
inline void addStatement(polyhedral::Scop &scop, const std::string &name,
                         const std::string &domain,
                         const std::vector<std::string> &iterators,
                         const std::vector<int> &beta,
                         const std::vector<AccessSpec> &accesses) {
  polyhedral::Statement stmt;
  stmt.name = name;
  stmt.domain = isl::set(scop.ctx, domain);
  stmt.iterators = iterators;
  stmt.sourceIterators = iterators;
  stmt.beta = beta;
  stmt.op = "=";
  for (const AccessSpec &spec : accesses) {
    polyhedral::Access access;
    access.kind = spec.kind;
    int id = scop.findArray(spec.array);
    EXPECT_GE(id, 0) << "unknown array " << spec.array;
    access.array = id < 0 ? 0 : id;
    access.relation = isl::map(scop.ctx, spec.relation);
    if (id >= 0) {
      if (spec.kind == polyhedral::Access::Kind::Read)
        scop.arrays[id].isRead = true;
      else
        scop.arrays[id].isWritten = true;
    }
    stmt.accesses.push_back(access);
  }
  scop.statements.push_back(stmt);
}

inline std::unique_ptr<polyhedral::Scop>
newScop(isl::ctx ctx, const std::vector<std::string> &params,
        const std::string &context) {
  auto scop = std::make_unique<polyhedral::Scop>(ctx);
  scop->functionName = "test";
  scop->loc = {"test.c", 1, 1};
  scop->params = params;
  scop->paramSourceNames = params;
  scop->context = isl::set(ctx, context);
  scop->originalSchedule = isl::union_map::empty(ctx);
  return scop;
}

constexpr auto Read = polyhedral::Access::Kind::Read;
constexpr auto Write = polyhedral::Access::Kind::MustWrite;

/// The node types on the path from `node` down its first children.
inline std::vector<isl_schedule_node_type> spine(isl::schedule_node node) {
  std::vector<isl_schedule_node_type> types;
  for (;;) {
    types.push_back(isl_schedule_node_get_type(node.get()));
    if (isl_schedule_node_n_children(node.get()) == 0)
      return types;
    node = node.child(0);
  }
}

/// `for (i = 1; i < n; i++) A[i] = A[i - 1];`
inline std::unique_ptr<polyhedral::Scop> recurrenceScop(isl::ctx ctx) {
  auto scop = newScop(ctx, {"n"}, "[n] -> { : }");
  addArray(*scop, "A", {"[n] -> { [(n)] }"});
  addStatement(*scop, "S0", "[n] -> { S0[i] : 1 <= i < n }", {"i"}, {0, 0},
               {{Read, "A", "[n] -> { S0[i] -> A[i - 1] }"},
                {Write, "A", "[n] -> { S0[i] -> A[i] }"}});
  scop->originalSchedule = isl::union_map(ctx, "[n] -> { S0[i] -> [0, i, 0] }");
  return scop;
}

/// `for i, j, k: C[i][j] += A[i][k] * B[k][j];`
inline std::unique_ptr<polyhedral::Scop> gemmScop(isl::ctx ctx) {
  auto scop = newScop(ctx, {"ni", "nj", "nk"}, "[ni, nj, nk] -> { : }");
  addArray(*scop, "C", {"[ni, nj, nk] -> { [(ni)] }", "[ni, nj, nk] -> { [(nj)] }"});
  addArray(*scop, "A", {"[ni, nj, nk] -> { [(ni)] }", "[ni, nj, nk] -> { [(nk)] }"});
  addArray(*scop, "B", {"[ni, nj, nk] -> { [(nk)] }", "[ni, nj, nk] -> { [(nj)] }"});
  const char *domain = "[ni, nj, nk] -> { S0[i, j, k] : 0 <= i < ni and "
                       "0 <= j < nj and 0 <= k < nk }";
  addStatement(*scop, "S0", domain, {"i", "j", "k"}, {0, 0, 0, 0},
               {{Read, "C", "[ni, nj, nk] -> { S0[i, j, k] -> C[i, j] }"},
                {Read, "A", "[ni, nj, nk] -> { S0[i, j, k] -> A[i, k] }"},
                {Read, "B", "[ni, nj, nk] -> { S0[i, j, k] -> B[k, j] }"},
                {Write, "C", "[ni, nj, nk] -> { S0[i, j, k] -> C[i, j] }"}});
  scop->originalSchedule = isl::union_map(
      ctx, "[ni, nj, nk] -> { S0[i, j, k] -> [0, i, 0, j, 0, k, 0] }");
  return scop;
}

/// `for i: B[i] = A[i];  for i < n - 1: C[i] = B[i] + B[i + 1];`
inline std::unique_ptr<polyhedral::Scop> producerConsumerScop(isl::ctx ctx) {
  auto scop = newScop(ctx, {"n"}, "[n] -> { : }");
  addArray(*scop, "A", {"[n] -> { [(n)] }"});
  addArray(*scop, "B", {"[n] -> { [(n)] }"});
  addArray(*scop, "C", {"[n] -> { [(n)] }"});
  addStatement(*scop, "S0", "[n] -> { S0[i] : 0 <= i < n }", {"i"}, {0, 0},
               {{Read, "A", "[n] -> { S0[i] -> A[i] }"},
                {Write, "B", "[n] -> { S0[i] -> B[i] }"}});
  addStatement(*scop, "S1", "[n] -> { S1[i] : 0 <= i < n - 1 }", {"i"}, {1, 0},
               {{Read, "B", "[n] -> { S1[i] -> B[i] }"},
                {Read, "B", "[n] -> { S1[i] -> B[i + 1] }"},
                {Write, "C", "[n] -> { S1[i] -> C[i] }"}});
  scop->originalSchedule = isl::union_map(
      ctx, "[n] -> { S0[i] -> [0, i, 0]; S1[i] -> [1, i, 0] }");
  return scop;
}

/// Jacobi 1-D with a time loop:
/// `for t: { for 1 <= i < n-1: B[i] = A[i-1] + A[i] + A[i+1];
///           for 1 <= i < n-1: A[i] = B[i]; }`
inline std::unique_ptr<polyhedral::Scop> jacobiScop(isl::ctx ctx) {
  auto scop = newScop(ctx, {"tsteps", "n"}, "[tsteps, n] -> { : }");
  addArray(*scop, "A", {"[tsteps, n] -> { [(n)] }"});
  addArray(*scop, "B", {"[tsteps, n] -> { [(n)] }"});
  addStatement(
      *scop, "S0",
      "[tsteps, n] -> { S0[t, i] : 0 <= t < tsteps and 1 <= i < n - 1 }",
      {"t", "i"}, {0, 0, 0},
      {{Read, "A", "[tsteps, n] -> { S0[t, i] -> A[i - 1] }"},
       {Read, "A", "[tsteps, n] -> { S0[t, i] -> A[i] }"},
       {Read, "A", "[tsteps, n] -> { S0[t, i] -> A[i + 1] }"},
       {Write, "B", "[tsteps, n] -> { S0[t, i] -> B[i] }"}});
  addStatement(
      *scop, "S1",
      "[tsteps, n] -> { S1[t, i] : 0 <= t < tsteps and 1 <= i < n - 1 }",
      {"t", "i"}, {0, 1, 0},
      {{Read, "B", "[tsteps, n] -> { S1[t, i] -> B[i] }"},
       {Write, "A", "[tsteps, n] -> { S1[t, i] -> A[i] }"}});
  scop->originalSchedule = isl::union_map(
      ctx, "[tsteps, n] -> { S0[t, i] -> [0, t, 0, i, 0]; "
           "S1[t, i] -> [0, t, 1, i, 0] }");
  return scop;
}

/// `for i: s[0] = s[0] + A[i];` (a scalar-like accumulation: no parallelism)
inline std::unique_ptr<polyhedral::Scop> sequentialScop(isl::ctx ctx) {
  auto scop = newScop(ctx, {"n"}, "[n] -> { : }");
  addArray(*scop, "A", {"[n] -> { [(n)] }"});
  addArray(*scop, "s", {"[n] -> { [(1)] }"});
  addStatement(*scop, "S0", "[n] -> { S0[i] : 0 <= i < n }", {"i"}, {0, 0},
               {{Read, "s", "[n] -> { S0[i] -> s[0] }"},
                {Read, "A", "[n] -> { S0[i] -> A[i] }"},
                {Write, "s", "[n] -> { S0[i] -> s[0] }"}});
  scop->originalSchedule = isl::union_map(ctx, "[n] -> { S0[i] -> [0, i, 0] }");
  return scop;
}

// --- Schedule trees ----------------------------------------------------------

/// One band of a schedule tree, in preorder.
struct BandInfo {
  std::vector<isl::union_map> members; ///< `{ S[i] -> [s] }` per member
  std::vector<bool> coincident;
  unsigned depth = 0; ///< number of band members above this band
};

inline void collectBands(isl::schedule_node node, unsigned depth,
                         std::vector<BandInfo> &bands) {
  if (isl_schedule_node_get_type(node.get()) == isl_schedule_node_band) {
    BandInfo band;
    band.depth = depth;
    isl::multi_union_pw_aff partial = isl::manage(
        isl_schedule_node_band_get_partial_schedule(node.get()));
    int n = isl_schedule_node_band_n_member(node.get());
    for (int i = 0; i < n; ++i) {
      band.members.push_back(
          isl::union_map::from(isl::multi_union_pw_aff(partial.at(i))));
      band.coincident.push_back(
          isl_schedule_node_band_member_get_coincident(node.get(), i) ==
          isl_bool_true);
    }
    depth += n;
    bands.push_back(band);
  }
  int n = isl_schedule_node_n_children(node.get());
  for (int i = 0; i < n; ++i)
    collectBands(node.child(i), depth, bands);
}

inline std::vector<BandInfo> bandsOf(const isl::schedule &schedule) {
  std::vector<BandInfo> bands;
  collectBands(schedule.get_root(), 0, bands);
  return bands;
}

/// Every dependence goes forward in `schedule`, and every instance of
/// `domain` is scheduled.
inline ::testing::AssertionResult
respectsDependences(const isl::schedule &schedule, const isl::union_set &domain,
                    const isl::union_map &deps) {
  if (schedule.is_null())
    return ::testing::AssertionFailure() << "null schedule";
  isl::union_set scheduled = schedule.get_domain();
  isl::union_map map = schedule.get_map().intersect_domain(scheduled);
  if (!scheduled.is_equal(domain) || !map.domain().is_equal(domain))
    return ::testing::AssertionFailure()
           << "schedule covers " << polyhedral::toString(map.domain())
           << " instead of " << polyhedral::toString(domain);
  isl::union_map before = isl::manage(
      isl_union_map_lex_lt_union_map(map.copy(), map.copy()));
  if (deps.is_subset(before))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "dependences " << polyhedral::toString(deps.subtract(before))
         << " are violated by " << polyhedral::toString(schedule);
}

/// No dependence of `deps` that `prefix` (the members above) leaves
/// uncarried has a non-zero distance along `member`.
inline bool hasZeroDistance(const isl::union_map &deps,
                            const isl::union_map &prefix,
                            const isl::union_map &member) {
  isl::union_map live = deps;
  if (!prefix.is_null())
    live = live.intersect(prefix.apply_range(prefix.reverse()));
  isl::union_map distance = live.apply_domain(member).apply_range(member);
  return distance.is_subset(member.range().identity());
}

} // namespace polycuda::test

#endif
