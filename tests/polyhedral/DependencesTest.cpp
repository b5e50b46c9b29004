//===- DependencesTest.cpp - Unit tests of computeDependences -------------===//
//
// Scops built from isl strings; flow, anti and output dependences compared
// exactly with isl equality.
//
//===----------------------------------------------------------------------===//
#include "Dependences.h"

#include "IslTestSupport.h"

namespace polycuda::test {
namespace {

using polyhedral::computeDependences;
using polyhedral::Dependences;

using DependencesTest = IslTest;

TEST_F(DependencesTest, RecurrenceHasFlowToTheNextIterationOnly) {
  auto scop = recurrenceScop(ctx());
  Dependences deps = computeDependences(*scop);
  EXPECT_ISL_EQ(isl::union_map(ctx(), "[n] -> { S0[i] -> S0[i + 1] : "
                                      "1 <= i and i + 1 < n }"),
                deps.flow);
  EXPECT_ISL_EQ(isl::union_map::empty(ctx()), deps.anti);
  EXPECT_ISL_EQ(isl::union_map::empty(ctx()), deps.output);
  EXPECT_ISL_EQ(deps.flow, deps.all());
}

TEST_F(DependencesTest, DependencesAreRestrictedToTheContext) {
  auto scop = recurrenceScop(ctx());
  scop->context = isl::set(ctx(), "[n] -> { : n >= 10 }");
  Dependences deps = computeDependences(*scop);
  EXPECT_ISL_EQ(isl::union_map(ctx(), "[n] -> { S0[i] -> S0[i + 1] : "
                                      "1 <= i and i + 1 < n and n >= 10 }"),
                deps.flow);
}

TEST_F(DependencesTest, GemmReductionHasFlowAlongKOnly) {
  auto scop = gemmScop(ctx());
  Dependences deps = computeDependences(*scop);
  const char *bounds = "0 <= i < ni and 0 <= j < nj";
  EXPECT_ISL_EQ(
      isl::union_map(ctx(), std::string("[ni, nj, nk] -> { S0[i, j, k] -> "
                                        "S0[i, j, k + 1] : ") +
                                bounds + " and 0 <= k and k + 1 < nk }"),
      deps.flow);
  // Memory-based: every later write of C[i][j] after a read (or write) of it.
  isl::union_map later(
      ctx(), std::string("[ni, nj, nk] -> { S0[i, j, k] -> S0[i, j, k2] : ") +
                 bounds + " and 0 <= k < k2 < nk }");
  EXPECT_ISL_EQ(later, deps.anti);
  EXPECT_ISL_EQ(later, deps.output);
}

TEST_F(DependencesTest, ProducerConsumerFlowsBetweenStatements) {
  auto scop = producerConsumerScop(ctx());
  Dependences deps = computeDependences(*scop);
  EXPECT_ISL_EQ(isl::union_map(ctx(), "[n] -> { S0[i] -> S1[i] : 0 <= i < n - 1; "
                                      "S0[i] -> S1[i - 1] : 1 <= i < n }"),
                deps.flow);
  EXPECT_ISL_EQ(isl::union_map::empty(ctx()), deps.anti);
  EXPECT_ISL_EQ(isl::union_map::empty(ctx()), deps.output);
}

TEST_F(DependencesTest, TaggedFlowNamesTheReferences) {
  auto scop = producerConsumerScop(ctx());
  Dependences deps = computeDependences(*scop);
  // S0's write of B is reference 1; S1 reads B[i] (0) and B[i + 1] (1).
  EXPECT_ISL_EQ(isl::union_map(ctx(),
                               "[n] -> { [S0[i] -> S0_ref1[]] -> "
                               "[S1[i] -> S1_ref0[]] : 0 <= i < n - 1; "
                               "[S0[i] -> S0_ref1[]] -> "
                               "[S1[i - 1] -> S1_ref1[]] : 1 <= i < n }"),
                deps.taggedFlow);
}

TEST_F(DependencesTest, OverwrittenValuesHaveNoFlowFromTheKilledWrite) {
  // for i: { A[0] = B[i]; C[i] = A[0]; }: each read sees only the write of
  // its own iteration; the older writes are killed.
  auto scop = newScop(ctx(), {"n"}, "[n] -> { : }");
  addArray(*scop, "A", {"[n] -> { [(1)] }"});
  addArray(*scop, "B", {"[n] -> { [(n)] }"});
  addArray(*scop, "C", {"[n] -> { [(n)] }"});
  addStatement(*scop, "S0", "[n] -> { S0[i] : 0 <= i < n }", {"i"}, {0, 0},
               {{Read, "B", "[n] -> { S0[i] -> B[i] }"},
                {Write, "A", "[n] -> { S0[i] -> A[0] }"}});
  addStatement(*scop, "S1", "[n] -> { S1[i] : 0 <= i < n }", {"i"}, {0, 1},
               {{Read, "A", "[n] -> { S1[i] -> A[0] }"},
                {Write, "C", "[n] -> { S1[i] -> C[i] }"}});
  scop->originalSchedule = isl::union_map(
      ctx(), "[n] -> { S0[i] -> [0, i, 0]; S1[i] -> [0, i, 1] }");
  Dependences deps = computeDependences(*scop);
  EXPECT_ISL_EQ(isl::union_map(ctx(), "[n] -> { S0[i] -> S1[i] : 0 <= i < n }"),
                deps.flow);
  EXPECT_ISL_EQ(isl::union_map(ctx(), "[n] -> { S1[i] -> S0[i2] : "
                                      "0 <= i < i2 < n }"),
                deps.anti);
  EXPECT_ISL_EQ(isl::union_map(ctx(), "[n] -> { S0[i] -> S0[i2] : "
                                      "0 <= i < i2 < n }"),
                deps.output);
}

TEST_F(DependencesTest, MayWriteKillsNoEarlierWrite) {
  // A[i] = B[i]; A[idx[i]] = 0 (a may-write of all of A); C[i] = A[i]: the
  // read of A[i] may see either write, and the may-write kills nothing.
  auto scop = newScop(ctx(), {"n"}, "[n] -> { : n <= 100 }");
  addArray(*scop, "A", {"[n] -> { [(100)] }"});
  addArray(*scop, "B", {"[n] -> { [(100)] }"});
  addArray(*scop, "C", {"[n] -> { [(100)] }"});
  constexpr auto MayWrite = polyhedral::Access::Kind::MayWrite;
  addStatement(*scop, "S0", "[n] -> { S0[i] : 0 <= i < n }", {"i"}, {0, 0},
               {{Read, "B", "[n] -> { S0[i] -> B[i] }"},
                {Write, "A", "[n] -> { S0[i] -> A[i] }"}});
  addStatement(*scop, "S1", "[n] -> { S1[i] : 0 <= i < n }", {"i"}, {1, 0},
               {{MayWrite, "A", "[n] -> { S1[i] -> A[a] : 0 <= a < 100 }"}});
  addStatement(*scop, "S2", "[n] -> { S2[i] : 0 <= i < n }", {"i"}, {2, 0},
               {{Read, "A", "[n] -> { S2[i] -> A[i] }"},
                {Write, "C", "[n] -> { S2[i] -> C[i] }"}});
  scop->originalSchedule = isl::union_map(
      ctx(), "[n] -> { S0[i] -> [0, i]; S1[i] -> [1, i]; S2[i] -> [2, i] }");
  Dependences deps = computeDependences(*scop);
  EXPECT_ISL_EQ(isl::union_map(ctx(), "[n] -> { S0[i] -> S2[i] : 0 <= i < n "
                                      "and n <= 100; S1[j] -> S2[i] : "
                                      "0 <= i < n and 0 <= j < n and "
                                      "n <= 100 }"),
                deps.flow);
  // Any two may-writes may hit one element: S1 stays sequential.
  EXPECT_ISL_EQ(isl::union_map(ctx(), "[n] -> { S0[i] -> S1[j] : 0 <= i < n "
                                      "and 0 <= j < n and n <= 100; "
                                      "S1[i] -> S1[j] : 0 <= i < j < n and "
                                      "n <= 100 }"),
                deps.output);
  // Every read of A has a must-source: nothing of A is read from before.
  EXPECT_TRUE(
      deps.liveIn.intersect(isl::union_set(isl::set(ctx(), "[n] -> { A[a] }")))
          .is_empty());
}

TEST_F(DependencesTest, StridedStatementsKeepTheirExactDependences) {
  // for (i = 0; i < n; i += 2) A[i] = ...;
  // for (i = 1; i < n; i += 3) C[i] = A[i - 1];
  // for (i = m; i < n; i += 2) C[i] = ...;
  auto scop = newScop(ctx(), {"n", "m"}, "[n, m] -> { : n <= 100 }");
  addArray(*scop, "A", {"[n, m] -> { [(100)] }"});
  addArray(*scop, "C", {"[n, m] -> { [(100)] }"});
  addStatement(*scop, "S0", "[n, m] -> { S0[i] : 0 <= i < n and i mod 2 = 0 }",
               {"i"}, {0, 0}, {{Write, "A", "[n, m] -> { S0[i] -> A[i] }"}});
  addStatement(*scop, "S1", "[n, m] -> { S1[i] : 1 <= i < n and i mod 3 = 1 }",
               {"i"}, {1, 0},
               {{Read, "A", "[n, m] -> { S1[i] -> A[i - 1] }"},
                {Write, "C", "[n, m] -> { S1[i] -> C[i] }"}});
  addStatement(*scop, "S2",
               "[n, m] -> { S2[i] : m <= i < n and (i - m) mod 2 = 0 }", {"i"},
               {2, 0}, {{Write, "C", "[n, m] -> { S2[i] -> C[i] }"}});
  scop->originalSchedule = isl::union_map(
      ctx(), "[n, m] -> { S0[i] -> [0, i]; S1[i] -> [1, i]; S2[i] -> [2, i] }");
  Dependences deps = computeDependences(*scop);
  EXPECT_ISL_EQ(isl::union_map(ctx(), "[n, m] -> { S0[i] -> S1[i + 1] : "
                                      "0 <= i and i + 1 < n and n <= 100 and "
                                      "i mod 6 = 0 }"),
                deps.flow);
  EXPECT_ISL_EQ(isl::union_map(ctx(), "[n, m] -> { S1[i] -> S2[i] : "
                                      "1 <= i < n and m <= i and n <= 100 and "
                                      "i mod 3 = 1 and (i - m) mod 2 = 0 }"),
                deps.output);
  EXPECT_ISL_EQ(isl::union_map::empty(ctx()), deps.anti);
  EXPECT_ISL_EQ(isl::union_set(ctx(), "[n, m] -> { A[a] : 0 <= a and "
                                      "a + 2 <= n <= 100 and a mod 6 = 3 }"),
                deps.liveIn.intersect(isl::union_set(
                    isl::set(ctx(), "[n, m] -> { A[a] }"))));
}

TEST_F(DependencesTest, StrideWithParametricEqualitiesAndMaySources) {
  // From inputs/random_seed5004808.c: a strided statement whose read meets
  // a may-write of a whole row, under equalities between the parameters.
  // isl 0.25 analysed it with an out-of-bounds write (isl_basic_map_swap_div)
  // unless the stride is compressed first.
  auto scop = newScop(ctx(), {"n", "m"}, "[n, m] -> { : }");
  addArray(*scop, "B", {"[n, m] -> { [(n + 6)] }", "[n, m] -> { [(17)] }"});
  const char *d3 = "i mod 2 = 0 and i < m and i < n and j < i and "
                   "((i >= 3 and j >= i - 2) or (i <= 2 and j >= 0))";
  addStatement(*scop, "S1",
               "[n, m] -> { S1[i, j] : 0 < i < n and 0 <= j <= n - 3 }",
               {"i", "j"}, {0, 0},
               {{Write, "B", "[n, m] -> { S1[i, j] -> B[i, 2 + j] }"}});
  addStatement(
      *scop, "S3", std::string("[n, m] -> { S3[i, j] : ") + d3 + " }",
      {"i", "j"}, {1, 0},
      {{Read, "B", "[n, m] -> { S3[i, j] -> B[1 + j, 2 + i] }"},
       {polyhedral::Access::Kind::MayWrite, "B",
        "[n, m] -> { S3[i, j] -> B[m - 1 - j, a] : 0 <= a <= 16 }"}});
  scop->originalSchedule = isl::union_map(
      ctx(), "[n, m] -> { S1[i, j] -> [0, -i, 0, j, 1]; "
             "S3[i, j] -> [2, i, 0, j, 0] }");
  Dependences deps = computeDependences(*scop);
  std::string d3at = std::string(d3) + " and i2 mod 2 = 0 and i2 < m and "
                     "i2 < n and j2 < i2 and ((i2 >= 3 and j2 >= i2 - 2) or "
                     "(i2 <= 2 and j2 >= 0))";
  EXPECT_ISL_EQ(
      isl::union_map(
          ctx(), "[n, m] -> { S1[a, b] -> S3[i, j] : " + std::string(d3) +
                     " and a = 1 + j and b = i and 0 < a < n and "
                     "0 <= b <= n - 3; "
                     "S3[i, j] -> S3[i2, j2] : " + d3at +
                     " and (i < i2 or (i = i2 and j < j2)) and "
                     "m - 1 - j = 1 + j2 and 0 <= 2 + i2 <= 16 }"),
      deps.flow);
}

} // namespace
} // namespace polycuda::test
