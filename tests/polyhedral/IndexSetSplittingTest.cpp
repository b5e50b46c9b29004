//===- IndexSetSplittingTest.cpp - Unit tests of splitIndexSets -----------===//
//
// The planes splitIndexSets finds on Floyd-Warshall (j = k, then i = k in
// each piece), the nine pieces it leaves (domains, accesses, original
// schedule, dependences carried over), and no split on scops without a
// broadcast (gemm's reduction, a stencil, a recurrence).
//
//===----------------------------------------------------------------------===//
#include "IndexSetSplitting.h"

#include "Dependences.h"

#include "IslTestSupport.h"

#include <set>

namespace polycuda::test {
namespace {

using polyhedral::Scop;

using IndexSetSplittingTest = IslTest;

/// `for k, i, j < n: path[i][j] = min(path[i][j], path[i][k] + path[k][j]);`
std::unique_ptr<Scop> floydWarshallScop(isl::ctx ctx) {
  auto scop = newScop(ctx, {"n"}, "[n] -> { : }");
  addArray(*scop, "path", {"[n] -> { [(n)] }", "[n] -> { [(n)] }"});
  addStatement(
      *scop, "S0",
      "[n] -> { S0[k, i, j] : 0 <= k < n and 0 <= i < n and 0 <= j < n }",
      {"k", "i", "j"}, {0, 0, 0, 0},
      {{Read, "path", "[n] -> { S0[k, i, j] -> path[i, j] }"},
       {Read, "path", "[n] -> { S0[k, i, j] -> path[i, k] }"},
       {Read, "path", "[n] -> { S0[k, i, j] -> path[k, j] }"},
       {Write, "path", "[n] -> { S0[k, i, j] -> path[i, j] }"}});
  scop->statements[0].loc = {"fw.c", 7, 9};
  scop->originalSchedule =
      isl::union_map(ctx, "[n] -> { S0[k, i, j] -> [0, k, 0, i, 0, j, 0] }");
  return scop;
}

/// `set` with its tuple renamed to `name`.
isl::set renamed(const isl::set &set, const std::string &name) {
  return isl::manage(isl_set_set_tuple_name(set.copy(), name.c_str()));
}

/// The plane of a report line `S (loc) split on <plane>`.
isl::set planeOf(isl::ctx ctx, const std::string &line) {
  size_t at = line.find(" split on ");
  EXPECT_NE(std::string::npos, at) << line;
  return isl::set(ctx, line.substr(at + 10));
}

TEST_F(IndexSetSplittingTest, FloydWarshallSplitsOnRowAndColumnK) {
  auto scop = floydWarshallScop(ctx());
  isl::set original = scop->statements[0].domain;
  std::vector<std::string> report = polyhedral::splitIndexSets(*scop);

  // Round 1 splits S0 on j = k (iteration k's column k is read by every
  // instance of iteration k); round 2 splits each piece on i = k (row k).
  ASSERT_EQ(4u, report.size());
  EXPECT_EQ(0u, report[0].rfind("S0 (fw.c:7:9) split on ", 0)) << report[0];
  EXPECT_ISL_EQ(isl::set(ctx(), "[n] -> { S0[k, i, j] : j = k }"),
                planeOf(ctx(), report[0]));
  const char *pieces[] = {"S0_p", "S0_l", "S0_g"};
  for (int p = 0; p < 3; ++p) {
    EXPECT_EQ(0u, report[p + 1].rfind(std::string(pieces[p]) + " (", 0))
        << report[p + 1];
    EXPECT_ISL_EQ(isl::set(ctx(), "[n] -> { " + std::string(pieces[p]) +
                                      "[k, i, j] : i = k }"),
                  planeOf(ctx(), report[p + 1]));
  }

  // Nine pieces: on the plane (_p), below it (_l) and above it (_g), for
  // j against k, then i against k.
  std::set<std::string> names;
  for (const polyhedral::Statement &stmt : scop->statements)
    names.insert(stmt.name);
  EXPECT_EQ(
      (std::set<std::string>{"S0_p_p", "S0_p_l", "S0_p_g", "S0_l_p", "S0_l_l",
                             "S0_l_g", "S0_g_p", "S0_g_l", "S0_g_g"}),
      names);
  // E.g. the corner k = i = j, the rest of row k left of the corner, and
  // the instances off row and column k after both.
  EXPECT_ISL_EQ(isl::set(ctx(), "[n] -> { S0_p_p[k, k, k] : 0 <= k < n }"),
                scop->findStatement("S0_p_p")->domain);
  EXPECT_ISL_EQ(isl::set(ctx(), "[n] -> { S0_l_p[k, k, j] : 0 <= j < k < n }"),
                scop->findStatement("S0_l_p")->domain);
  EXPECT_ISL_EQ(isl::set(ctx(), "[n] -> { S0_g_g[k, i, j] : 0 <= k < n and "
                                "k < i < n and k < j < n }"),
                scop->findStatement("S0_g_g")->domain);

  // The pieces partition the instances of S0 and keep their original
  // order and their accesses, restricted.
  isl::set covered = isl::set::empty(original.get_space());
  for (const polyhedral::Statement &stmt : scop->statements) {
    isl::set mine = renamed(stmt.domain, "S0");
    EXPECT_TRUE(covered.intersect(mine).is_empty()) << stmt.name;
    covered = covered.unite(mine);
    EXPECT_EQ(4u, stmt.accesses.size());
    EXPECT_ISL_EQ(
        isl::map(ctx(), "[n] -> { " + stmt.name + "[k, i, j] -> path[i, k] }")
            .intersect_domain(stmt.domain),
        stmt.accesses[1].relation);
    isl::union_map mineScheduled =
        scop->originalSchedule.intersect_domain(isl::union_set(stmt.domain));
    EXPECT_ISL_EQ(
        isl::union_map(
            isl::map(ctx(), "[n] -> { " + stmt.name +
                                "[k, i, j] -> [0, k, 0, i, 0, j, 0] }"))
            .intersect_domain(isl::union_set(stmt.domain)),
        mineScheduled);
  }
  EXPECT_ISL_EQ(original, covered);
}

TEST_F(IndexSetSplittingTest, FloydWarshallPiecesKeepTheirDependences) {
  auto scop = floydWarshallScop(ctx());
  polyhedral::DependenceCache cache;
  ASSERT_EQ(4u, polyhedral::splitIndexSets(*scop, cache).size());
  // The flow carried over to the pieces is that of the split scop (anti
  // and output dependences are renamed the same way; recomputing them
  // would take most of a second). The tagged flow carried over has every
  // reference of a piece; a fresh analysis lets the first of references
  // with equal relations stand for the others (e.g. in S0_p_p, where
  // path[i][j], path[i][k] and path[k][j] are all path[k][k]).
  polyhedral::Dependences carried =
      polyhedral::computeDependences(*scop, cache);
  polyhedral::DependenceCache none;
  polyhedral::Dependences fresh =
      polyhedral::computeDependences(*scop, none, {0}, /*flowOnly=*/true);
  ASSERT_TRUE(carried.complete && fresh.complete);
  EXPECT_ISL_EQ(fresh.flow, carried.flow);
  EXPECT_TRUE(fresh.taggedFlow.is_subset(carried.taggedFlow))
      << polyhedral::toString(fresh.taggedFlow.subtract(carried.taggedFlow));
}

/// Leaves `scop` unsplit: no report line, the same statements.
void expectNoSplit(Scop &scop) {
  std::vector<std::string> names;
  std::vector<isl::set> domains;
  for (const polyhedral::Statement &stmt : scop.statements) {
    names.push_back(stmt.name);
    domains.push_back(stmt.domain);
  }
  isl::union_map schedule = scop.originalSchedule;
  std::vector<std::string> report = polyhedral::splitIndexSets(scop);
  EXPECT_TRUE(report.empty()) << report.front();
  ASSERT_EQ(names.size(), scop.statements.size());
  for (size_t s = 0; s < names.size(); ++s) {
    EXPECT_EQ(names[s], scop.statements[s].name);
    EXPECT_ISL_EQ(domains[s], scop.statements[s].domain);
  }
  EXPECT_ISL_EQ(schedule, scop.originalSchedule);
}

TEST_F(IndexSetSplittingTest, GemmReductionIsNotSplit) {
  // C[i][j] flows from k to k + 1: a chain along k, not a broadcast.
  auto scop = gemmScop(ctx());
  expectNoSplit(*scop);
}

TEST_F(IndexSetSplittingTest, StencilIsNotSplit) {
  // Flow between two statements only, none from a statement to itself.
  auto scop = jacobiScop(ctx());
  expectNoSplit(*scop);
}

TEST_F(IndexSetSplittingTest, RecurrenceIsNotSplit) {
  auto scop = recurrenceScop(ctx());
  expectNoSplit(*scop);
}

} // namespace
} // namespace polycuda::test
