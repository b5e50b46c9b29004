//===- ScalarExpansionTest.cpp - Unit tests of expandScalars --------------===//
//
// Which scalars of hand-built scops are expanded, along how many loops, and
// what becomes of them: their extents, their accesses and the references in
// the statement bodies; which are kept, and why (a value carried from one
// iteration to the next, read before it is written, used after the scop);
// and the live-range split of a scalar reused for unrelated values; with
// --expansion=off (PipelineOptions::expansion), nothing.
//
//===----------------------------------------------------------------------===//
#include "ScalarExpansion.h"

#include "Dependences.h"
#include "Pipeline.h"

#include "IslTestSupport.h"

namespace polycuda::test {
namespace {

using polyhedral::Expr;
using polyhedral::ExprPtr;
using polyhedral::ScalarExpansion;
using polyhedral::Scop;

using ScalarExpansionTest = IslTest;

/// A reference to `array` (no subscripts: a scalar) for access `access`.
ExprPtr scalarRef(const std::string &array, int access) {
  auto ref = std::make_shared<Expr>();
  ref->kind = Expr::Kind::ArrayRef;
  ref->name = array;
  ref->access = access;
  return ref;
}

/// Adds the scalar `name` (a local of the function: not used after the scop
/// unless `usedAfter`).
void addScalar(Scop &scop, const std::string &name, bool usedAfter = false) {
  addArray(scop, name, {});
  scop.arrays.back().usedAfterScop = usedAfter;
}

const polyhedral::Array &array(const Scop &scop, const std::string &name) {
  int id = scop.findArray(name);
  EXPECT_GE(id, 0) << "no array " << name;
  return scop.arrays.at(id < 0 ? 0 : id);
}

/// The access of statement `stmt` number `index`.
const polyhedral::Access &access(const Scop &scop, const std::string &stmt,
                                 unsigned index) {
  const polyhedral::Statement *found = scop.findStatement(stmt);
  EXPECT_NE(nullptr, found) << "no statement " << stmt;
  return found->accesses.at(index);
}

/// The names of the subscripts of an ArrayRef (iterators only).
std::vector<std::string> subscripts(const ExprPtr &ref) {
  std::vector<std::string> names;
  for (const ExprPtr &arg : ref->args) {
    EXPECT_EQ(Expr::Kind::Iterator, arg->kind);
    names.push_back(arg->name);
  }
  return names;
}

/// `for i < n, j < m: { S0: t = A[i][j];  S1: B[i][j] = t * t; }`
std::unique_ptr<Scop> temporaryScop(isl::ctx ctx, bool usedAfter = false) {
  auto scop = newScop(ctx, {"n", "m"}, "[n, m] -> { : }");
  addArray(*scop, "A", {"[n, m] -> { [(n)] }", "[n, m] -> { [(m)] }"});
  addArray(*scop, "B", {"[n, m] -> { [(n)] }", "[n, m] -> { [(m)] }"});
  addScalar(*scop, "t", usedAfter);
  auto domain = [](const std::string &name) {
    return "[n, m] -> { " + name + "[i, j] : 0 <= i < n and 0 <= j < m }";
  };
  addStatement(*scop, "S0", domain("S0"), {"i", "j"}, {0, 0, 0},
               {{Read, "A", "[n, m] -> { S0[i, j] -> A[i, j] }"},
                {Write, "t", "[n, m] -> { S0[i, j] -> t[] }"}});
  addStatement(*scop, "S1", domain("S1"), {"i", "j"}, {0, 0, 1},
               {{Read, "t", "[n, m] -> { S1[i, j] -> t[] }"},
                {Read, "t", "[n, m] -> { S1[i, j] -> t[] }"},
                {Write, "B", "[n, m] -> { S1[i, j] -> B[i, j] }"}});
  scop->statements[0].lhs = scalarRef("t", 1);
  scop->statements[1].rhs = std::make_shared<Expr>();
  scop->statements[1].rhs->kind = Expr::Kind::Binary;
  scop->statements[1].rhs->op = "*";
  scop->statements[1].rhs->args = {scalarRef("t", 0), scalarRef("t", 1)};
  scop->originalSchedule = isl::union_map(
      ctx,
      "[n, m] -> { S0[i, j] -> [0, i, 0, j, 0]; S1[i, j] -> [0, i, 0, j, 1] }");
  return scop;
}

TEST_F(ScalarExpansionTest, PerIterationTemporaryIsExpandedAlongBothLoops) {
  auto scop = temporaryScop(ctx());
  std::vector<ScalarExpansion> result = polyhedral::expandScalars(*scop);
  ASSERT_EQ(1u, result.size());
  EXPECT_EQ("t", result[0].array);
  EXPECT_EQ(2u, result[0].depth);
  EXPECT_EQ(ScalarExpansion::Why::Privatized, result[0].why);

  // t becomes t[n][m], local to the scop (never copied to or from the host).
  const polyhedral::Array &t = array(*scop, "t");
  EXPECT_TRUE(t.isLocal);
  ASSERT_EQ(2u, t.rank());
  isl::set nonEmpty(ctx(), "[n, m] -> { : n > 0 and m > 0 }");
  EXPECT_ISL_EQ(
      isl::pw_aff(ctx(), "[n, m] -> { [(n)] }").intersect_params(nonEmpty),
      t.extents[0].intersect_params(nonEmpty));
  EXPECT_ISL_EQ(
      isl::pw_aff(ctx(), "[n, m] -> { [(m)] }").intersect_params(nonEmpty),
      t.extents[1].intersect_params(nonEmpty));

  // Every access to t is now t[i][j], in the relations and in the bodies.
  EXPECT_ISL_EQ(isl::map(ctx(), "[n, m] -> { S0[i, j] -> t[i, j] : 0 <= i < n "
                                "and 0 <= j < m }"),
                access(*scop, "S0", 1).relation);
  for (unsigned k : {0u, 1u})
    EXPECT_ISL_EQ(isl::map(ctx(), "[n, m] -> { S1[i, j] -> t[i, j] : 0 <= i < "
                                  "n and 0 <= j < m }"),
                  access(*scop, "S1", k).relation);
  EXPECT_ISL_EQ(isl::map(ctx(), "[n, m] -> { S0[i, j] -> A[i, j] }"),
                access(*scop, "S0", 0).relation);
  EXPECT_EQ((std::vector<std::string>{"i", "j"}),
            subscripts(scop->statements[0].lhs));
  for (const ExprPtr &ref : scop->statements[1].rhs->args)
    EXPECT_EQ((std::vector<std::string>{"i", "j"}), subscripts(ref));

  // No dependence is left between different iterations (i, j): both loops
  // can run in parallel.
  polyhedral::Dependences deps = polyhedral::computeDependences(*scop);
  ASSERT_TRUE(deps.complete);
  EXPECT_ISL_EQ(isl::union_map(ctx(), "[n, m] -> { S0[i, j] -> S1[i, j] : "
                                      "0 <= i < n and 0 <= j < m }"),
                deps.flow);
  EXPECT_TRUE(deps.anti.is_empty()) << polyhedral::toString(deps.anti);
  EXPECT_TRUE(deps.output.is_empty()) << polyhedral::toString(deps.output);
}

TEST_F(ScalarExpansionTest, ScalarUsedAfterTheScopIsKept) {
  auto scop = temporaryScop(ctx(), /*usedAfter=*/true);
  std::vector<ScalarExpansion> result = polyhedral::expandScalars(*scop);
  ASSERT_EQ(1u, result.size());
  EXPECT_EQ("t", result[0].array);
  EXPECT_EQ(0u, result[0].depth);
  EXPECT_EQ(ScalarExpansion::Why::UsedAfterScop, result[0].why);
  EXPECT_EQ(0u, array(*scop, "t").rank());
  EXPECT_FALSE(array(*scop, "t").isLocal);
  EXPECT_ISL_EQ(isl::map(ctx(), "[n, m] -> { S0[i, j] -> t[] }"),
                access(*scop, "S0", 1).relation);
  EXPECT_TRUE(subscripts(scop->statements[0].lhs).empty());
}

/// `for i < n: { S0: s = 0;  for j < m: S1: s = s + A[i][j];  S2: B[i] = s; }`
std::unique_ptr<Scop> accumulatorScop(isl::ctx ctx) {
  auto scop = newScop(ctx, {"n", "m"}, "[n, m] -> { : }");
  addArray(*scop, "A", {"[n, m] -> { [(n)] }", "[n, m] -> { [(m)] }"});
  addArray(*scop, "B", {"[n, m] -> { [(n)] }"});
  addScalar(*scop, "s");
  addStatement(*scop, "S0", "[n, m] -> { S0[i] : 0 <= i < n }", {"i"}, {0, 0},
               {{Write, "s", "[n, m] -> { S0[i] -> s[] }"}});
  addStatement(*scop, "S1",
               "[n, m] -> { S1[i, j] : 0 <= i < n and 0 <= j < m }", {"i", "j"},
               {0, 1, 0},
               {{Read, "s", "[n, m] -> { S1[i, j] -> s[] }"},
                {Read, "A", "[n, m] -> { S1[i, j] -> A[i, j] }"},
                {Write, "s", "[n, m] -> { S1[i, j] -> s[] }"}});
  addStatement(*scop, "S2", "[n, m] -> { S2[i] : 0 <= i < n }", {"i"}, {0, 2},
               {{Read, "s", "[n, m] -> { S2[i] -> s[] }"},
                {Write, "B", "[n, m] -> { S2[i] -> B[i] }"}});
  scop->originalSchedule = isl::union_map(
      ctx, "[n, m] -> { S0[i] -> [0, i, 0, 0, 0]; S1[i, j] -> [0, i, 1, j, "
           "0]; S2[i] -> [0, i, 2, 0, 0] }");
  return scop;
}

TEST_F(ScalarExpansionTest, AccumulatorIsExpandedAlongTheOuterLoopOnly) {
  auto scop = accumulatorScop(ctx());
  std::vector<ScalarExpansion> result = polyhedral::expandScalars(*scop);
  ASSERT_EQ(1u, result.size());
  EXPECT_EQ("s", result[0].array);
  // The value flows from one j to the next, never from one i to the next.
  EXPECT_EQ(1u, result[0].depth);
  const polyhedral::Array &s = array(*scop, "s");
  ASSERT_EQ(1u, s.rank());
  EXPECT_TRUE(s.isLocal);
  // (Only where every statement has instances: see the disabled test below.)
  isl::set nonEmpty(ctx(), "[n, m] -> { : n > 0 and m > 0 }");
  EXPECT_ISL_EQ(
      isl::pw_aff(ctx(), "[n, m] -> { [(n)] }").intersect_params(nonEmpty),
      s.extents[0].intersect_params(nonEmpty));
  EXPECT_ISL_EQ(isl::map(ctx(), "[n, m] -> { S0[i] -> s[i] : 0 <= i < n }"),
                access(*scop, "S0", 0).relation);
  EXPECT_ISL_EQ(isl::map(ctx(), "[n, m] -> { S1[i, j] -> s[i] : 0 <= i < n "
                                "and 0 <= j < m }"),
                access(*scop, "S1", 2).relation);
  EXPECT_ISL_EQ(isl::map(ctx(), "[n, m] -> { S2[i] -> s[i] : 0 <= i < n }"),
                access(*scop, "S2", 0).relation);
}

// s[i] is written and read for every 0 <= i < n, also when the inner loop
// has no iteration (m <= 0); its extent must then still be n. (The maximum
// of the statements' bounds was once taken only where all of them have
// instances and completed with 0 elsewhere: the C target then allocated `s`
// with 0 elements and wrote s[0 .. n - 1].)
TEST_F(ScalarExpansionTest, AccumulatorExtentHoldsWhenTheInnerLoopIsEmpty) {
  auto scop = accumulatorScop(ctx());
  std::vector<ScalarExpansion> result = polyhedral::expandScalars(*scop);
  ASSERT_EQ(1u, result.size());
  ASSERT_EQ(1u, array(*scop, "s").rank());
  isl::set someRows(ctx(), "[n, m] -> { : n > 0 }");
  EXPECT_ISL_EQ(
      isl::pw_aff(ctx(), "[n, m] -> { [(n)] }").intersect_params(someRows),
      array(*scop, "s").extents[0].intersect_params(someRows));
}

/// `for i < n: { S0: if (i == 0) s = 0;  S1: B[i] = s;  S2: s = A[i]; }`:
/// S1 reads the value of the previous iteration.
TEST_F(ScalarExpansionTest, ValueCarriedAcrossIterationsIsNotExpanded) {
  auto scop = newScop(ctx(), {"n"}, "[n] -> { : }");
  addArray(*scop, "A", {"[n] -> { [(n)] }"});
  addArray(*scop, "B", {"[n] -> { [(n)] }"});
  addScalar(*scop, "s");
  addStatement(*scop, "S0", "[n] -> { S0[i] : i = 0 and n > 0 }", {"i"}, {0, 0},
               {{Write, "s", "[n] -> { S0[i] -> s[] }"}});
  addStatement(*scop, "S1", "[n] -> { S1[i] : 0 <= i < n }", {"i"}, {0, 1},
               {{Read, "s", "[n] -> { S1[i] -> s[] }"},
                {Write, "B", "[n] -> { S1[i] -> B[i] }"}});
  addStatement(*scop, "S2", "[n] -> { S2[i] : 0 <= i < n }", {"i"}, {0, 2},
               {{Read, "A", "[n] -> { S2[i] -> A[i] }"},
                {Write, "s", "[n] -> { S2[i] -> s[] }"}});
  scop->originalSchedule = isl::union_map(
      ctx(), "[n] -> { S0[i] -> [0, i, 0]; S1[i] -> [0, i, 1]; S2[i] -> [0, "
             "i, 2] }");
  std::vector<ScalarExpansion> result = polyhedral::expandScalars(*scop);
  ASSERT_EQ(1u, result.size());
  EXPECT_EQ("s", result[0].array);
  EXPECT_EQ(0u, result[0].depth);
  EXPECT_EQ(ScalarExpansion::Why::FlowsAcrossEveryLoop, result[0].why);
  EXPECT_EQ(0u, array(*scop, "s").rank());
  EXPECT_ISL_EQ(isl::map(ctx(), "[n] -> { S2[i] -> s[] }"),
                access(*scop, "S2", 1).relation);
  // The flow that forbids it: S2 of iteration i to S1 of iteration i + 1.
  polyhedral::Dependences deps = polyhedral::computeDependences(*scop);
  EXPECT_ISL_EQ(isl::union_map(ctx(), "[n] -> { S0[0] -> S1[0] : n > 0; "
                                      "S2[i] -> S1[i + 1] : 0 <= i < n - 1 }"),
                polyhedral::flowOnArray(*scop, deps, scop->findArray("s")));
}

/// `for i < n: { S0: B[i] = s;  S1: s = A[i]; }`: iteration 0 reads the
/// value s had before the scop.
TEST_F(ScalarExpansionTest, ScalarReadBeforeItIsWrittenIsKept) {
  auto scop = newScop(ctx(), {"n"}, "[n] -> { : }");
  addArray(*scop, "A", {"[n] -> { [(n)] }"});
  addArray(*scop, "B", {"[n] -> { [(n)] }"});
  addScalar(*scop, "s");
  addStatement(*scop, "S0", "[n] -> { S0[i] : 0 <= i < n }", {"i"}, {0, 0},
               {{Read, "s", "[n] -> { S0[i] -> s[] }"},
                {Write, "B", "[n] -> { S0[i] -> B[i] }"}});
  addStatement(*scop, "S1", "[n] -> { S1[i] : 0 <= i < n }", {"i"}, {0, 1},
               {{Read, "A", "[n] -> { S1[i] -> A[i] }"},
                {Write, "s", "[n] -> { S1[i] -> s[] }"}});
  scop->originalSchedule = isl::union_map(
      ctx(), "[n] -> { S0[i] -> [0, i, 0]; S1[i] -> [0, i, 1] }");
  std::vector<ScalarExpansion> result = polyhedral::expandScalars(*scop);
  ASSERT_EQ(1u, result.size());
  EXPECT_EQ(0u, result[0].depth);
  EXPECT_EQ(ScalarExpansion::Why::ReadBeforeWritten, result[0].why);
  EXPECT_EQ(0u, array(*scop, "s").rank());
}

/// `for i < n: { S0: t = A[i];  S1: B[i] = t; }
///  for i < n: { S2: t = B[i];  S3: C[i] = t; }`: two unrelated values.
TEST_F(ScalarExpansionTest, UnrelatedValuesGetVariablesOfTheirOwn) {
  auto scop = newScop(ctx(), {"n"}, "[n] -> { : }");
  for (const char *name : {"A", "B", "C"})
    addArray(*scop, name, {"[n] -> { [(n)] }"});
  addScalar(*scop, "t");
  addStatement(*scop, "S0", "[n] -> { S0[i] : 0 <= i < n }", {"i"}, {0, 0},
               {{Read, "A", "[n] -> { S0[i] -> A[i] }"},
                {Write, "t", "[n] -> { S0[i] -> t[] }"}});
  addStatement(*scop, "S1", "[n] -> { S1[i] : 0 <= i < n }", {"i"}, {0, 1},
               {{Read, "t", "[n] -> { S1[i] -> t[] }"},
                {Write, "B", "[n] -> { S1[i] -> B[i] }"}});
  addStatement(*scop, "S2", "[n] -> { S2[i] : 0 <= i < n }", {"i"}, {1, 0},
               {{Read, "B", "[n] -> { S2[i] -> B[i] }"},
                {Write, "t", "[n] -> { S2[i] -> t[] }"}});
  addStatement(*scop, "S3", "[n] -> { S3[i] : 0 <= i < n }", {"i"}, {1, 1},
               {{Read, "t", "[n] -> { S3[i] -> t[] }"},
                {Write, "C", "[n] -> { S3[i] -> C[i] }"}});
  scop->originalSchedule =
      isl::union_map(ctx(), "[n] -> { S0[i] -> [0, i, 0]; S1[i] -> [0, i, 1]; "
                            "S2[i] -> [1, i, 0]; S3[i] -> [1, i, 1] }");
  std::vector<ScalarExpansion> result = polyhedral::expandScalars(*scop);
  // Neither web reads t's value from before the scop: both are renamed,
  // and each is privatized along its own loop.
  ASSERT_EQ(2u, result.size());
  EXPECT_EQ("t_1", result[0].array);
  EXPECT_EQ(1u, result[0].depth);
  EXPECT_EQ("t_2", result[1].array);
  EXPECT_EQ(1u, result[1].depth);
  EXPECT_ISL_EQ(isl::map(ctx(), "[n] -> { S0[i] -> t_1[i] : 0 <= i < n }"),
                access(*scop, "S0", 1).relation);
  EXPECT_ISL_EQ(isl::map(ctx(), "[n] -> { S1[i] -> t_1[i] : 0 <= i < n }"),
                access(*scop, "S1", 0).relation);
  EXPECT_ISL_EQ(isl::map(ctx(), "[n] -> { S2[i] -> t_2[i] : 0 <= i < n }"),
                access(*scop, "S2", 1).relation);
  EXPECT_ISL_EQ(isl::map(ctx(), "[n] -> { S3[i] -> t_2[i] : 0 <= i < n }"),
                access(*scop, "S3", 0).relation);
  EXPECT_TRUE(array(*scop, "t_1").isLocal);
  EXPECT_TRUE(array(*scop, "t_2").isLocal);
}

TEST_F(ScalarExpansionTest, ScopWithoutWrittenScalarsIsUnchanged) {
  auto scop = gemmScop(ctx());
  std::vector<ScalarExpansion> result = polyhedral::expandScalars(*scop);
  EXPECT_TRUE(result.empty());
  EXPECT_EQ(3u, scop->arrays.size());
}

/// doitgen: `for r, q: { for p: { S0: sum[p] = 0; for s: S1: sum[p] +=
/// A[r][q][s] * C4[s][p]; }  for p: S2: A[r][q][p] = sum[p]; }`, with `sum`
/// a parameter of the function (its values may be used after the scop).
std::unique_ptr<Scop> doitgenScop(isl::ctx ctx) {
  auto scop = newScop(ctx, {"nr", "nq", "np"}, "[nr, nq, np] -> { : }");
  const char *P = "[nr, nq, np] -> ";
  auto with = [&](const std::string &text) { return P + text; };
  addArray(*scop, "A", {with("{ [(nr)] }"), with("{ [(nq)] }"),
                        with("{ [(np)] }")});
  addArray(*scop, "C4", {with("{ [(np)] }"), with("{ [(np)] }")});
  addArray(*scop, "sum", {with("{ [(np)] }")});
  std::string rq = "0 <= r < nr and 0 <= q < nq and 0 <= p < np";
  addStatement(*scop, "S0", with("{ S0[r, q, p] : " + rq + " }"),
               {"r", "q", "p"}, {0, 0, 0, 0},
               {{Write, "sum", with("{ S0[r, q, p] -> sum[p] }")}});
  addStatement(*scop, "S1",
               with("{ S1[r, q, p, s] : " + rq + " and 0 <= s < np }"),
               {"r", "q", "p", "s"}, {0, 0, 0, 1, 0},
               {{Read, "sum", with("{ S1[r, q, p, s] -> sum[p] }")},
                {Read, "A", with("{ S1[r, q, p, s] -> A[r, q, s] }")},
                {Read, "C4", with("{ S1[r, q, p, s] -> C4[s, p] }")},
                {Write, "sum", with("{ S1[r, q, p, s] -> sum[p] }")}});
  addStatement(*scop, "S2", with("{ S2[r, q, p] : " + rq + " }"),
               {"r", "q", "p"}, {0, 0, 1, 0},
               {{Read, "sum", with("{ S2[r, q, p] -> sum[p] }")},
                {Write, "A", with("{ S2[r, q, p] -> A[r, q, p] }")}});
  scop->originalSchedule = isl::union_map(
      ctx, with("{ S0[r, q, p] -> [0, r, 0, q, 0, p, 0, 0, 0]; "
                "S1[r, q, p, s] -> [0, r, 0, q, 0, p, 1, s, 0]; "
                "S2[r, q, p] -> [0, r, 0, q, 1, p, 0, 0, 0] }"));
  return scop;
}

TEST_F(ScalarExpansionTest, ExpansionOffLeavesTheScopAsItIs) {
  // --expansion=off: prepareScop expands nothing; on, doitgen's sum.
  polyhedral::PipelineOptions options;
  options.expansion = false;
  auto scop = doitgenScop(ctx());
  polyhedral::PreparedScop off = polyhedral::prepareScop(scop, options);
  EXPECT_TRUE(off.expansions.empty());
  EXPECT_EQ(3u, scop->statements.size());
  for (const polyhedral::Array &a : scop->arrays)
    EXPECT_NE("sum_x", a.name);

  options.expansion = true;
  auto expanded = doitgenScop(ctx());
  polyhedral::PreparedScop on = polyhedral::prepareScop(expanded, options);
  ASSERT_FALSE(on.expansions.empty());
  EXPECT_EQ("sum", on.expansions.back().array);
  EXPECT_EQ(4u, expanded->statements.size());
}

TEST_F(ScalarExpansionTest, DoitgenSumIsExpandedAlongRAndQ) {
  auto scop = doitgenScop(ctx());
  polyhedral::DependenceCache cache;
  std::vector<ScalarExpansion> result = polyhedral::expandArrays(*scop, cache);
  ASSERT_EQ(1u, result.size());
  EXPECT_EQ("sum", result[0].array);
  EXPECT_EQ(2u, result[0].depth);
  // sum_x[r][q][p]: nr x nq x np (where the loops run at all).
  const polyhedral::Array &copy = array(*scop, "sum_x");
  ASSERT_EQ(3u, copy.rank());
  EXPECT_TRUE(copy.isLocal);
  isl::set some(ctx(), "[nr, nq, np] -> { : nr > 0 and nq > 0 and np > 0 }");
  EXPECT_ISL_EQ(isl::pw_aff(ctx(), "[nr, nq, np] -> { [(nr)] }")
                    .intersect_params(some),
                copy.extents[0].intersect_params(some));
  EXPECT_ISL_EQ(isl::pw_aff(ctx(), "[nr, nq, np] -> { [(nq)] }")
                    .intersect_params(some),
                copy.extents[1].intersect_params(some));
  EXPECT_ISL_EQ(isl::map(ctx(), "[nr, nq, np] -> { S1[r, q, p, s] -> "
                                "sum_x[r, q, p] : 0 <= r < nr and 0 <= q < nq "
                                "and 0 <= p < np and 0 <= s < np }"),
                access(*scop, "S1", 3).relation);
  EXPECT_ISL_EQ(isl::map(ctx(), "[nr, nq, np] -> { S2[r, q, p] -> "
                                "sum_x[r, q, p] : 0 <= r < nr and 0 <= q < nq "
                                "and 0 <= p < np }"),
                access(*scop, "S2", 0).relation);
  // The last iteration's row goes back to sum, after everything else.
  ASSERT_EQ(4u, scop->statements.size());
  const polyhedral::Statement &back = scop->statements.back();
  ASSERT_EQ(2u, back.accesses.size());
  EXPECT_ISL_EQ(isl::map(ctx(), "[nr, nq, np] -> { " + back.name +
                                    "[e0] -> sum_x[nr - 1, nq - 1, e0] : "
                                    "0 <= e0 < np and nr > 0 and nq > 0 }"),
                back.accesses[0].relation);
  EXPECT_ISL_EQ(isl::map(ctx(), "[nr, nq, np] -> { " + back.name +
                                    "[e0] -> sum[e0] : 0 <= e0 < np and "
                                    "nr > 0 and nq > 0 }"),
                back.accesses[1].relation);
  EXPECT_EQ(1, back.beta[0]);
  // With the expansion, r and q carry no dependence any more.
  polyhedral::Dependences deps = polyhedral::computeDependences(*scop, cache);
  ASSERT_TRUE(deps.complete);
  isl::union_map inLoops = deps.all().intersect_domain(
      isl::union_set(ctx(), "[nr, nq, np] -> { S0[r, q, p]; S1[r, q, p, s]; "
                            "S2[r, q, p] }"));
  for (const isl::map &map : polyhedral::mapsOf(
           inLoops.intersect_range(isl::union_set(
               ctx(), "[nr, nq, np] -> { S0[r, q, p]; S1[r, q, p, s]; "
                      "S2[r, q, p] }"))))
    EXPECT_TRUE(map.is_subset(polyhedral::equateLeading(map, 2)))
        << polyhedral::toString(map);
}

TEST_F(ScalarExpansionTest, ArrayCarryingValuesAcrossIterationsIsKept) {
  // for t: for i: B[i] = A[i] + B[i]: B's value flows from t to t + 1.
  auto scop = newScop(ctx(), {"n", "T"}, "[n, T] -> { : }");
  addArray(*scop, "A", {"[n, T] -> { [(n)] }"});
  addArray(*scop, "B", {"[n, T] -> { [(n)] }"});
  addStatement(*scop, "S0", "[n, T] -> { S0[t, i] : 0 <= t < T and 0 <= i < n }",
               {"t", "i"}, {0, 0, 0},
               {{Read, "A", "[n, T] -> { S0[t, i] -> A[i] }"},
                {Read, "B", "[n, T] -> { S0[t, i] -> B[i] }"},
                {Write, "B", "[n, T] -> { S0[t, i] -> B[i] }"}});
  scop->originalSchedule =
      isl::union_map(ctx(), "[n, T] -> { S0[t, i] -> [0, t, 0, i, 0] }");
  polyhedral::DependenceCache cache;
  EXPECT_TRUE(polyhedral::expandArrays(*scop, cache).empty());
  EXPECT_EQ(1u, scop->statements.size());
}

} // namespace
} // namespace polycuda::test
