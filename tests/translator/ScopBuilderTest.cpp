//===- ScopBuilderTest.cpp - Unit tests of the front end ------------------===//
//
// C snippets through parseCode; statement domains, access relations, array
// extents, parameters and the original schedule compared with isl equality.
//
//===----------------------------------------------------------------------===//
#include "ScopBuilder.h"

#include "../polyhedral/IslTestSupport.h"

#include <algorithm>
#include <stdexcept>

namespace polycuda::test {
namespace {

using polyhedral::Access;
using polyhedral::Scop;
using polyhedral::Statement;
using translator::FrontendOptions;
using translator::ParsedInput;
using translator::parseCode;

class ScopBuilderTest : public IslTest {
protected:
  /// Parses `code`, which must hold exactly one scop, and returns it.
  const Scop &parseOne(const std::string &code) {
    bool ok = parseCode(code, "t.c", FrontendOptions{}, ctx(), input);
    EXPECT_TRUE(ok) << code;
    if (input.regions.size() != 1 || !input.regions[0].scop) {
      ADD_FAILURE() << "expected one scop, got " << input.regions.size();
      throw std::runtime_error("no scop");
    }
    return *input.regions[0].scop;
  }

  const Statement &stmt(const Scop &scop, unsigned i) {
    if (i >= scop.statements.size()) {
      ADD_FAILURE() << "no statement " << i << " in\n" << scop.str();
      throw std::runtime_error("no statement");
    }
    return scop.statements[i];
  }

  /// Access relations of `s` of `kind`, in order.
  std::vector<isl::map> accessesOf(const Statement &s, Access::Kind kind) {
    std::vector<isl::map> result;
    for (const Access &access : s.accesses)
      if (access.kind == kind)
        result.push_back(access.relation);
    return result;
  }

  ~ScopBuilderTest() override { input.regions.clear(); }

  ParsedInput input;
};

TEST_F(ScopBuilderTest, RectangularNestWithVlaParameter) {
  const Scop &scop = parseOne(R"(
void f(int n, int m, double A[n][m]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      A[i][j] = A[i][j] * 2.0;
#pragma endscop
}
)");
  EXPECT_EQ((std::vector<std::string>{"n", "m"}), scop.params);
  EXPECT_EQ("f", scop.functionName);
  ASSERT_EQ(1u, scop.statements.size()) << scop.str();
  const Statement &s = stmt(scop, 0);
  EXPECT_EQ("S0", s.name);
  EXPECT_EQ((std::vector<std::string>{"i", "j"}), s.iterators);
  EXPECT_EQ((std::vector<std::string>{"i", "j"}), s.sourceIterators);
  isl::set domain(ctx(), "[n, m] -> { S0[i, j] : 0 <= i < n and 0 <= j < m }");
  EXPECT_ISL_EQ(domain, s.domain);
  isl::map access(ctx(), "[n, m] -> { S0[i, j] -> A[i, j] }");
  access = access.intersect_domain(domain);
  ASSERT_EQ(1u, accessesOf(s, Access::Kind::Read).size());
  ASSERT_EQ(1u, accessesOf(s, Access::Kind::MustWrite).size());
  EXPECT_ISL_EQ(access, accessesOf(s, Access::Kind::Read)[0]);
  EXPECT_ISL_EQ(access, accessesOf(s, Access::Kind::MustWrite)[0]);
  EXPECT_EQ("=", s.op);

  ASSERT_EQ(1u, scop.arrays.size());
  const polyhedral::Array &a = scop.arrays[0];
  EXPECT_EQ("A", a.name);
  EXPECT_EQ(polyhedral::ElemType::Double, a.type);
  EXPECT_TRUE(a.isVariableLength);
  EXPECT_TRUE(a.isRead);
  EXPECT_TRUE(a.isWritten);
  EXPECT_FALSE(a.isLocal);
  ASSERT_EQ(2u, a.rank());
  EXPECT_ISL_EQ(isl::pw_aff(ctx(), "[n, m] -> { [(n)] }"), a.extents[0]);
  EXPECT_ISL_EQ(isl::pw_aff(ctx(), "[n, m] -> { [(m)] }"), a.extents[1]);
  EXPECT_ISL_EQ(isl::union_map(ctx(), "[n, m] -> { S0[i, j] -> [0, i, 0, j, 0] }")
                    .intersect_domain(isl::union_set(domain)),
                scop.originalSchedule.intersect_domain(scop.domain()));
}

TEST_F(ScopBuilderTest, ConstantExtentsAndLoopVariablesDeclaredOutside) {
  const Scop &scop = parseOne(R"(
void f(int n, float A[100][20]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < 20; j++)
      A[i][j] = 0.0f;
#pragma endscop
}
)");
  EXPECT_EQ((std::vector<std::string>{"n"}), scop.params);
  EXPECT_ISL_EQ(isl::set(ctx(), "[n] -> { S0[i, j] : 0 <= i < n and 0 <= j < 20 }"),
                stmt(scop, 0).domain);
  ASSERT_EQ(1u, scop.arrays.size());
  const polyhedral::Array &a = scop.arrays[0];
  EXPECT_EQ(polyhedral::ElemType::Float, a.type);
  EXPECT_FALSE(a.isVariableLength);
  EXPECT_FALSE(a.isRead);
  EXPECT_TRUE(a.isWritten);
  ASSERT_EQ(2u, a.rank());
  EXPECT_ISL_EQ(isl::pw_aff(ctx(), "[n] -> { [(100)] }"), a.extents[0]);
  EXPECT_ISL_EQ(isl::pw_aff(ctx(), "[n] -> { [(20)] }"), a.extents[1]);
}

TEST_F(ScopBuilderTest, TriangularNest) {
  const Scop &scop = parseOne(R"(
void f(int n, double L[n][n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      L[i][j] = L[j][i];
#pragma endscop
}
)");
  isl::set domain(ctx(), "[n] -> { S0[i, j] : 0 <= i < n and 0 <= j < i }");
  const Statement &s = stmt(scop, 0);
  EXPECT_ISL_EQ(domain, s.domain);
  ASSERT_EQ(1u, accessesOf(s, Access::Kind::Read).size());
  EXPECT_ISL_EQ(isl::map(ctx(), "[n] -> { S0[i, j] -> L[j, i] }").intersect_domain(domain),
                accessesOf(s, Access::Kind::Read)[0]);
}

TEST_F(ScopBuilderTest, TernaryMinAndMaxBounds) {
  const Scop &scop = parseOne(R"(
void f(int n, int m, double A[n][n]) {
#pragma scop
  for (int i = 0; i < (n < m ? n : m); i++)
    for (int j = (i > 2 ? i : 2); j <= (m >= i + 4 ? i + 4 : m); j++)
      A[i][j] = 1.0;
#pragma endscop
}
)");
  EXPECT_ISL_EQ(isl::set(ctx(), "[n, m] -> { S0[i, j] : 0 <= i and i < n and "
                                "i < m and j >= i and j >= 2 and j <= i + 4 "
                                "and j <= m }"),
                stmt(scop, 0).domain);
}

TEST_F(ScopBuilderTest, NegativeStrideLoopIsReversedInTheSchedule) {
  const Scop &scop = parseOne(R"(
void f(int n, double A[n]) {
#pragma scop
  for (int i = n - 1; i >= 0; i--)
    A[i] = A[i + 1];
#pragma endscop
}
)");
  isl::set domain(ctx(), "[n] -> { S0[i] : 0 <= i <= n - 1 }");
  EXPECT_ISL_EQ(domain, stmt(scop, 0).domain);
  EXPECT_ISL_EQ(isl::map(ctx(), "[n] -> { S0[i] -> A[i + 1] }").intersect_domain(domain),
                accessesOf(stmt(scop, 0), Access::Kind::Read)[0]);
  EXPECT_ISL_EQ(isl::union_map(ctx(), "[n] -> { S0[i] -> [0, -i, 0] }")
                    .intersect_domain(isl::union_set(domain)),
                scop.originalSchedule.intersect_domain(scop.domain()));
}

TEST_F(ScopBuilderTest, StrideTwoLoop) {
  const Scop &scop = parseOne(R"(
void f(int n, double A[n]) {
#pragma scop
  for (int i = 1; i < n; i += 2)
    A[i] = 0.0;
  for (int j = n; j > 0; j = j - 3)
    A[j - 1] = 1.0;
#pragma endscop
}
)");
  EXPECT_ISL_EQ(isl::set(ctx(), "[n] -> { S0[i] : 1 <= i < n and "
                                "exists (e: i = 1 + 2 e) }"),
                stmt(scop, 0).domain);
  EXPECT_ISL_EQ(isl::set(ctx(), "[n] -> { S1[j] : 0 < j <= n and "
                                "exists (e: j = n - 3 e) }"),
                stmt(scop, 1).domain);
}

TEST_F(ScopBuilderTest, IfConditionsWithLogicalOperatorsAndElse) {
  const Scop &scop = parseOne(R"(
void f(int n, double A[n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    if ((i > 2 && i < n - 1) || !(i != 1))
      A[i] = 0.0;
    else
      A[i] = 1.0;
#pragma endscop
}
)");
  ASSERT_EQ(2u, scop.statements.size()) << scop.str();
  EXPECT_ISL_EQ(isl::set(ctx(), "[n] -> { S0[i] : 0 <= i < n and "
                                "((2 < i < n - 1) or i = 1) }"),
                stmt(scop, 0).domain);
  EXPECT_ISL_EQ(isl::set(ctx(), "[n] -> { S1[i] : 0 <= i < n and "
                                "not ((2 < i < n - 1) or i = 1) }"),
                stmt(scop, 1).domain);
}

TEST_F(ScopBuilderTest, ContinueAndBreakOnIteratorsAreExactDomains) {
  const Scop &scop = parseOne(R"(
void f(int n, double A[n][n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      A[i][j] = 1.0;
      if (i == j)
        continue;
      A[i][j] += 2.0;
      if (j >= i + 3)
        break;
      A[i][j] *= 3.0;
    }
#pragma endscop
}
)");
  ASSERT_EQ(3u, scop.statements.size()) << scop.str();
  // Up to the first iteration that breaks (j = i + 3, where it is taken).
  EXPECT_ISL_EQ(isl::set(ctx(), "[n] -> { S0[i, j] : 0 <= i < n and "
                                "0 <= j < n and j <= i + 3 }"),
                stmt(scop, 0).domain);
  EXPECT_ISL_EQ(isl::set(ctx(), "[n] -> { S1[i, j] : 0 <= i < n and "
                                "0 <= j < n and j <= i + 3 and j != i }"),
                stmt(scop, 1).domain);
  EXPECT_ISL_EQ(isl::set(ctx(), "[n] -> { S2[i, j] : 0 <= i < n and "
                                "0 <= j < n and j < i + 3 and j != i }"),
                stmt(scop, 2).domain);
}

TEST_F(ScopBuilderTest, BreakOnDataKeepsAFlag) {
  const Scop &scop = parseOne(R"(
void f(int n, double A[n][n], int found[n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      if (A[i][j] > 0.5) {
        found[i] = j;
        break;
      }
      A[i][j] = 0.0;
    }
#pragma endscop
}
)");
  // polycuda_break0 = 0 at j = 0, the condition stored, found[i] = j under
  // it, the flag set, A[i][j] = 0.0 under both.
  ASSERT_EQ(5u, scop.statements.size()) << scop.str();
  EXPECT_ISL_EQ(isl::set(ctx(), "[n] -> { S0[i, 0] : 0 <= i < n and n > 0 }"),
                stmt(scop, 0).domain);
  EXPECT_GE(scop.findArray("polycuda_break0"), 0);
  for (unsigned s = 2; s < 5; ++s)
    EXPECT_TRUE(stmt(scop, s).guard != nullptr) << stmt(scop, s).name;
}

TEST_F(ScopBuilderTest, DivisionAndModuloByConstants) {
  const Scop &scop = parseOne(R"(
void f(int n, double A[n][n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < (i + 1) / 2; j++)
      if (i % 3 == 0)
        A[i][j / 2] = A[i % 4][j];
#pragma endscop
}
)");
  isl::set domain(ctx(), "[n] -> { S0[i, j] : 0 <= i < n and "
                         "0 <= j < floor((i + 1) / 2) and i mod 3 = 0 }");
  const Statement &s = stmt(scop, 0);
  EXPECT_ISL_EQ(domain, s.domain);
  ASSERT_EQ(1u, accessesOf(s, Access::Kind::Read).size());
  EXPECT_ISL_EQ(isl::map(ctx(), "[n] -> { S0[i, j] -> A[i mod 4, j] }")
                    .intersect_domain(domain),
                accessesOf(s, Access::Kind::Read)[0]);
  EXPECT_ISL_EQ(isl::map(ctx(), "[n] -> { S0[i, j] -> A[i, floor(j / 2)] }")
                    .intersect_domain(domain),
                accessesOf(s, Access::Kind::MustWrite)[0]);
}

TEST_F(ScopBuilderTest, DivisionOfANegativeValueTruncatesTowardZero) {
  // C rounds (i - 3) / 2 toward zero: for i = 0 the loop starts at j = -1,
  // not at floor(-3 / 2) = -2. Either model that or refuse the bound.
  bool ok = parseCode(R"(
void f(int n, double A[n][n + 2]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = (i - 3) / 2; j < n; j++)
      A[i][j + 2] = 0.0;
#pragma endscop
}
)",
                      "t.c", FrontendOptions{}, ctx(), input);
  if (!ok)
    return; // refused with a diagnostic: acceptable
  ASSERT_EQ(1u, input.regions.size());
  const Scop &scop = *input.regions[0].scop;
  EXPECT_ISL_EQ(isl::set(ctx(), "[n] -> { S0[i, j] : 0 <= i < n and j < n and "
                                "((i >= 3 and j >= floor((i - 3) / 2)) or "
                                "(i < 3 and j >= -floor((3 - i) / 2))) }"),
                stmt(scop, 0).domain);
}

TEST_F(ScopBuilderTest, ModuloOfANegativeValueKeepsTheSignOfTheDividend) {
  // In C, (i - 5) % 3 is -1 for i = 1 and i = 4. Model that, refuse the
  // condition, or compute it as C does (a condition on data: stored by a
  // statement of its own, the assignment under it).
  bool ok = parseCode(R"(
void f(int n, double A[n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    if ((i - 5) % 3 == -1)
      A[i] = 0.0;
#pragma endscop
}
)",
                      "t.c", FrontendOptions{}, ctx(), input);
  if (!ok)
    return; // refused with a diagnostic: acceptable
  ASSERT_EQ(1u, input.regions.size());
  const Scop &scop = *input.regions[0].scop;
  if (scop.statements.size() == 2) {
    EXPECT_FALSE(stmt(scop, 0).guard);
    EXPECT_TRUE(stmt(scop, 1).guard);
    EXPECT_EQ(Access::Kind::MayWrite, stmt(scop, 1).accesses[0].kind);
    return;
  }
  EXPECT_ISL_EQ(isl::set(ctx(), "[n] -> { S0[i] : 0 <= i < n and "
                                "(i = 1 or i = 4) }"),
                stmt(scop, 0).domain);
}

TEST_F(ScopBuilderTest, ParametersAreIntegerVariablesReadButNotWritten) {
  const Scop &scop = parseOne(R"(
void f(int n, int k, double alpha, double A[100], int B[100]) {
  int s;
#pragma scop
  for (int i = 0; i < n; i++) {
    s = i + k;
    B[i] = s;
    A[i] = alpha * A[i] + k;
  }
#pragma endscop
}
)");
  EXPECT_EQ((std::vector<std::string>{"n", "k"}), scop.params);
  EXPECT_EQ((std::vector<std::string>{"n", "k"}), scop.paramSourceNames);
  // `s` is written: a 0-d array, not a parameter.
  int s = scop.findArray("s");
  ASSERT_GE(s, 0);
  EXPECT_EQ(0u, scop.arrays[s].rank());
  EXPECT_EQ(polyhedral::ElemType::Int, scop.arrays[s].type);
  ASSERT_EQ(3u, scop.statements.size()) << scop.str();
  isl::set domain(ctx(), "[n, k] -> { S0[i] : 0 <= i < n }");
  EXPECT_ISL_EQ(isl::map(ctx(), "[n, k] -> { S0[i] -> s[] }").intersect_domain(domain),
                accessesOf(stmt(scop, 0), Access::Kind::MustWrite)[0]);
  EXPECT_EQ(-1, scop.findArray("k"));
  EXPECT_EQ(-1, scop.findArray("n"));
}

TEST_F(ScopBuilderTest, IslKeywordsAreRenamed) {
  const Scop &scop = parseOne(R"(
void f(int min, double A[100]) {
#pragma scop
  for (int i = 0; i < min; i++)
    A[i] = 0.0;
#pragma endscop
}
)");
  ASSERT_EQ(1u, scop.params.size());
  EXPECT_NE("min", scop.params[0]);
  EXPECT_EQ((std::vector<std::string>{"min"}), scop.paramSourceNames);
  isl::set expected(ctx(), "[" + scop.params[0] + "] -> { S0[i] : 0 <= i < " +
                               scop.params[0] + " }");
  EXPECT_ISL_EQ(expected, stmt(scop, 0).domain);
}

TEST_F(ScopBuilderTest, IncrementAndCompoundAssignmentReadAndWrite) {
  const Scop &scop = parseOne(R"(
void f(int n, double A[n], double B[n]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    A[i]++;
    B[i] += A[i];
  }
#pragma endscop
}
)");
  ASSERT_EQ(2u, scop.statements.size()) << scop.str();
  isl::set d0(ctx(), "[n] -> { S0[i] : 0 <= i < n }");
  isl::set d1(ctx(), "[n] -> { S1[i] : 0 <= i < n }");
  const Statement &s0 = stmt(scop, 0);
  EXPECT_EQ("+=", s0.op);
  ASSERT_EQ(1u, accessesOf(s0, Access::Kind::Read).size());
  ASSERT_EQ(1u, accessesOf(s0, Access::Kind::MustWrite).size());
  isl::map a0 = isl::map(ctx(), "[n] -> { S0[i] -> A[i] }").intersect_domain(d0);
  EXPECT_ISL_EQ(a0, accessesOf(s0, Access::Kind::Read)[0]);
  EXPECT_ISL_EQ(a0, accessesOf(s0, Access::Kind::MustWrite)[0]);

  const Statement &s1 = stmt(scop, 1);
  EXPECT_EQ("+=", s1.op);
  std::vector<isl::map> reads = accessesOf(s1, Access::Kind::Read);
  ASSERT_EQ(2u, reads.size());
  isl::union_map readSet = isl::union_map(reads[0]).unite(isl::union_map(reads[1]));
  EXPECT_ISL_EQ(isl::union_map(ctx(), "[n] -> { S1[i] -> A[i]; S1[i] -> B[i] }")
                    .intersect_domain(isl::union_set(d1)),
                readSet);
  EXPECT_ISL_EQ(isl::map(ctx(), "[n] -> { S1[i] -> B[i] }").intersect_domain(d1),
                accessesOf(s1, Access::Kind::MustWrite)[0]);
  // Statements of one loop body are ordered by their beta position.
  EXPECT_EQ((std::vector<int>{0, 0}), s0.beta);
  EXPECT_EQ((std::vector<int>{0, 1}), s1.beta);
}

TEST_F(ScopBuilderTest, EveryCompoundAssignmentReadsAndWritesItsTarget) {
  const Scop &scop = parseOne(R"(
void f(int n, unsigned A[n], long B[n]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    int s = 5;
    A[i] += B[i];
    A[i] -= B[i];
    A[i] *= B[i];
    A[i] /= B[i];
    A[i] %= B[i];
    A[i] &= B[i];
    A[i] |= B[i];
    A[i] ^= B[i];
    A[i] <<= B[i];
    A[i] >>= B[i];
    s %= 3;
    s--;
  }
#pragma endscop
}
)");
  const std::vector<std::string> ops = {"=",  "+=", "-=", "*=", "/=",  "%=",
                                        "&=", "|=", "^=", "<<=", ">>=", "%=",
                                        "-="};
  ASSERT_EQ(ops.size(), scop.statements.size()) << scop.str();
  for (unsigned k = 1; k < ops.size(); ++k) {
    const Statement &s = stmt(scop, k);
    EXPECT_EQ(ops[k], s.op) << "statement " << k;
    bool onScalar = k + 2 >= ops.size();
    isl::set domain(ctx(), "[n] -> { " + s.name + "[i] : 0 <= i < n }");
    isl::map target(ctx(), onScalar
                               ? "[n] -> { " + s.name + "[i] -> s[] }"
                               : "[n] -> { " + s.name + "[i] -> A[i] }");
    target = target.intersect_domain(domain);
    std::vector<isl::map> writes = accessesOf(s, Access::Kind::MustWrite);
    ASSERT_EQ(1u, writes.size()) << "statement " << k;
    EXPECT_ISL_EQ(target, writes[0]);
    // The target is read first (read-modify-write), and B[i] with it.
    std::vector<isl::map> reads = accessesOf(s, Access::Kind::Read);
    ASSERT_EQ(onScalar ? 1u : 2u, reads.size()) << "statement " << k;
    EXPECT_TRUE(std::any_of(reads.begin(), reads.end(),
                            [&](const isl::map &m) { return m.is_equal(target); }))
        << "statement " << k;
  }
}

TEST_F(ScopBuilderTest, StatementAfterALoopIsOrderedAfterIt) {
  const Scop &scop = parseOne(R"(
void f(int n, double A[n], double x[1]) {
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = 0.0;
  x[0] = 1.0;
  for (int i = 0; i < n; i++)
    A[i] = x[0];
#pragma endscop
}
)");
  ASSERT_EQ(3u, scop.statements.size()) << scop.str();
  EXPECT_ISL_EQ(isl::union_map(ctx(), "[n] -> { S0[i] -> [0, i, 0]; "
                                      "S1[] -> [1, 0, 0]; S2[i] -> [2, i, 0] }")
                    .intersect_domain(scop.domain()),
                scop.originalSchedule.intersect_domain(scop.domain()));
  EXPECT_ISL_EQ(isl::set(ctx(), "[n] -> { S1[] }"), stmt(scop, 1).domain);
}

TEST_F(ScopBuilderTest, SeveralScopsInOneFile) {
  bool ok = parseCode(R"(
void f(int n, double A[n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = 0.0;
#pragma endscop
}

void g(int m, double B[m]) {
#pragma scop
  for (int j = 1; j < m; j++)
    B[j] = B[j - 1];
#pragma endscop
#pragma scop
  for (int j = 0; j < m; j++)
    B[j] = 2.0 * B[j];
#pragma endscop
}
)",
                      "t.c", FrontendOptions{}, ctx(), input);
  ASSERT_TRUE(ok);
  ASSERT_EQ(3u, input.regions.size());
  EXPECT_EQ("f", input.regions[0].scop->functionName);
  EXPECT_EQ("g", input.regions[1].scop->functionName);
  EXPECT_EQ("g", input.regions[2].scop->functionName);
  EXPECT_ISL_EQ(isl::set(ctx(), "[n] -> { S0[i] : 0 <= i < n }"),
                stmt(*input.regions[0].scop, 0).domain);
  EXPECT_ISL_EQ(isl::set(ctx(), "[m] -> { S0[j] : 1 <= j < m }"),
                stmt(*input.regions[1].scop, 0).domain);
  EXPECT_ISL_EQ(isl::set(ctx(), "[m] -> { S0[j] : 0 <= j < m }"),
                stmt(*input.regions[2].scop, 0).domain);
  for (size_t r = 0; r < input.regions.size(); ++r) {
    const translator::ScopRegion &region = input.regions[r];
    EXPECT_LT(region.beginOffset, region.endOffset);
    EXPECT_LE(region.functionOffset, region.beginOffset);
    EXPECT_EQ(0u, input.source.compare(region.beginOffset, 12, "#pragma scop"))
        << input.source.substr(region.beginOffset, 20);
    if (r > 0)
      EXPECT_LE(input.regions[r - 1].endOffset, region.beginOffset);
  }
  EXPECT_EQ(input.regions[1].functionOffset, input.regions[2].functionOffset);
}

TEST_F(ScopBuilderTest, QuadraticSubscriptIsMayWriteOfWholeArray) {
  const Scop &scop = parseOne(R"(
void f(int n, double A[n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    A[i * i] = 0.0;
#pragma endscop
}
)");
  const Statement &s = stmt(scop, 0);
  ASSERT_EQ(1u, s.accesses.size()) << scop.str();
  const Access &write = s.accesses[0];
  EXPECT_EQ(Access::Kind::MayWrite, write.kind);
  EXPECT_FALSE(write.isAffine());
  EXPECT_EQ((std::vector<std::string>{"i * i"}), write.nonAffineSubscripts);
  EXPECT_ISL_EQ(isl::map(ctx(), "[n] -> { S0[i] -> A[a] : 0 <= i < n and "
                                "0 <= a < n }"),
                write.relation);
  // The body keeps the subscript as written.
  ASSERT_EQ(1u, s.lhs->args.size());
  EXPECT_EQ(polyhedral::Expr::Kind::Binary, s.lhs->args[0]->kind);
  EXPECT_EQ("*", s.lhs->args[0]->op);
}

TEST_F(ScopBuilderTest, IndirectSubscriptReadsTheIndexArray) {
  const Scop &scop = parseOne(R"(
void f(int n, double x[100], double y[n], int idx[n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    y[i] = x[idx[i]];
#pragma endscop
}
)");
  const Statement &s = stmt(scop, 0);
  std::vector<isl::map> reads = accessesOf(s, Access::Kind::Read);
  ASSERT_EQ(2u, reads.size()) << scop.str();
  isl::set domain(ctx(), "[n] -> { S0[i] : 0 <= i < n }");
  EXPECT_ISL_EQ(
      isl::map(ctx(), "[n] -> { S0[i] -> idx[i] }").intersect_domain(domain),
      reads[0]);
  EXPECT_ISL_EQ(isl::map(ctx(), "[n] -> { S0[i] -> x[a] : 0 <= a < 100 }")
                    .intersect_domain(domain),
                reads[1]);
  ASSERT_EQ(1u, accessesOf(s, Access::Kind::MustWrite).size());
  // The ArrayRef of x has the ArrayRef of idx as its subscript.
  const polyhedral::Expr &x = *s.rhs;
  ASSERT_EQ(polyhedral::Expr::Kind::ArrayRef, x.kind);
  ASSERT_EQ(1u, x.args.size());
  EXPECT_EQ(polyhedral::Expr::Kind::ArrayRef, x.args[0]->kind);
  EXPECT_EQ("idx", x.args[0]->name);
  EXPECT_FALSE(s.accesses[x.access].isAffine());
  EXPECT_TRUE(s.accesses[x.args[0]->access].isAffine());
}

TEST_F(ScopBuilderTest, HistogramReadsIndexOnceAndMayWritesBins) {
  const Scop &scop = parseOne(R"(
void f(int n, int a[n], int h[16]) {
#pragma scop
  for (int i = 0; i < n; i++)
    h[a[i]]++;
#pragma endscop
}
)");
  const Statement &s = stmt(scop, 0);
  // a[i] once (C evaluates the subscript once), h read and may-written.
  ASSERT_EQ(3u, s.accesses.size()) << scop.str();
  EXPECT_EQ(Access::Kind::Read, s.accesses[0].kind);
  EXPECT_TRUE(s.accesses[0].isAffine());
  EXPECT_EQ(Access::Kind::Read, s.accesses[1].kind);
  EXPECT_EQ(Access::Kind::MayWrite, s.accesses[2].kind);
  isl::map bins(ctx(), "[n] -> { S0[i] -> h[b] : 0 <= i < n and 0 <= b < 16 }");
  EXPECT_ISL_EQ(bins, s.accesses[1].relation);
  EXPECT_ISL_EQ(bins, s.accesses[2].relation);
  EXPECT_EQ(2, s.lhs->access);
  EXPECT_EQ("+=", s.op);
}

TEST_F(ScopBuilderTest, AffineDimensionsOfANonAffineReferenceStayExact) {
  const Scop &scop = parseOne(R"(
void f(int n, int m, double B[n][m], int idx[n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      B[i][idx[j]] = 1.0;
#pragma endscop
}
)");
  const Statement &s = stmt(scop, 0);
  std::vector<isl::map> writes = accessesOf(s, Access::Kind::MayWrite);
  ASSERT_EQ(1u, writes.size()) << scop.str();
  EXPECT_ISL_EQ(isl::map(ctx(), "[n, m] -> { S0[i, j] -> B[i, b] : 0 <= i < n "
                                "and 0 <= j < n and 0 <= b < m }"),
                writes[0]);
}

TEST_F(ScopBuilderTest, WrittenScalarInSubscriptIsRead) {
  const Scop &scop = parseOne(R"(
void f(int n, double A[100], int idx[100]) {
  int k;
#pragma scop
  for (int i = 0; i < n; i++) {
    k = idx[i] + 1;
    A[k] = 0.0;
  }
#pragma endscop
}
)");
  const Statement &s = stmt(scop, 1);
  ASSERT_EQ(2u, s.accesses.size()) << scop.str();
  EXPECT_EQ("k", scop.arrays[s.accesses[0].array].name);
  EXPECT_EQ(Access::Kind::Read, s.accesses[0].kind);
  EXPECT_EQ(Access::Kind::MayWrite, s.accesses[1].kind);
  EXPECT_TRUE(std::find(scop.params.begin(), scop.params.end(), "k") ==
              scop.params.end());
}

TEST_F(ScopBuilderTest, NonAffineSubscriptWithoutFirstExtentIsRejected) {
  bool ok = parseCode(R"(
void f(int n, double A[], int idx[100]) {
#pragma scop
  for (int i = 0; i < n; i++)
    A[idx[i]] = 0.0;
#pragma endscop
}
)",
                      "t.c", FrontendOptions{}, ctx(), input);
  EXPECT_FALSE(ok);
  EXPECT_TRUE(input.regions.empty());
}

TEST_F(ScopBuilderTest, WrittenLoopBoundIsRejected) {
  bool ok = parseCode(R"(
void f(int n, double A[100]) {
#pragma scop
  for (int i = 0; i < n; i++)
    n = 3;
#pragma endscop
}
)",
                      "t.c", FrontendOptions{}, ctx(), input);
  EXPECT_FALSE(ok);
}

} // namespace
TEST_F(ScopBuilderTest, IteratorReadAfterItsLoopGetsItsExitValue) {
  // `i` is read after its loop: the last iteration leaves `i + 2` in it,
  // and where no iteration runs, the initial value.
  const Scop &scop = parseOne(R"(
void f(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 1; i < n; i += 2)
    A[i] = 0.0;
  A[0] = i;
#pragma endscop
}
)");
  ASSERT_EQ(4u, scop.statements.size()) << scop.str();
  const Statement &last = stmt(scop, 1);
  EXPECT_ISL_EQ(isl::set(ctx(), "[n] -> { S1[i] : i >= 1 and n - 2 <= i < n "
                                "and (i - 1) mod 2 = 0 }"),
                last.domain);
  EXPECT_ISL_EQ(isl::map(ctx(), "[n] -> { S1[i] -> i[] : i >= 1 and "
                                "n - 2 <= i < n and (i - 1) mod 2 = 0 }"),
                accessesOf(last, Access::Kind::MustWrite).at(0));
  const Statement &none = stmt(scop, 2);
  EXPECT_ISL_EQ(isl::set(ctx(), "[n] -> { S2[] : n <= 1 }"), none.domain);
  EXPECT_EQ((std::vector<int>{1}), none.beta); // after the loop, at 0
}

TEST_F(ScopBuilderTest, UnsignedComparisonAssumesItsOperandsFit) {
  // `i < n` converts `n` to unsigned: the model is exact for n >= 0, which
  // the scop assumes (and its printed code checks).
  const Scop &scop = parseOne(R"(
void f(int n, int m, double A[100]) {
#pragma scop
  for (unsigned i = 0; i < n; i++)
    A[i] = 0.0;
  for (int j = 0; j < m; j++)
    A[j] = 1.0;
#pragma endscop
}
)");
  ASSERT_TRUE(scop.assumed.has_value());
  EXPECT_ISL_EQ(isl::set(ctx(), "[n, m] -> { : n >= 0 }"), *scop.assumed);
  EXPECT_ISL_EQ(isl::set(ctx(), "[n, m] -> { : n >= 0 }"), scop.context);
}

TEST_F(ScopBuilderTest, FlatSubscriptsAreReadAsRowsAndColumns) {
  // Delinearization: the strides m (and n * m) of the subscripts give x the
  // shape [][n][m] and A [][m]; (i + 1) * m + j is row i + 1, column j.
  const Scop &scop = parseOne(R"(
void f(int n, int m, double *restrict A, const double *restrict x) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      A[(i + 1) * m + j] = x[(i * n + j) * m + j] + A[i * m + j];
#pragma endscop
}
)");
  ASSERT_EQ(2u, scop.arrays.size()) << scop.str();
  for (const polyhedral::Array &array : scop.arrays) {
    EXPECT_TRUE(array.delinearized) << array.name;
    EXPECT_FALSE(array.firstExtentKnown) << array.name;
  }
  const Statement &s = stmt(scop, 0);
  std::vector<isl::map> reads = accessesOf(s, Access::Kind::Read);
  std::vector<isl::map> writes = accessesOf(s, Access::Kind::MustWrite);
  ASSERT_EQ(2u, reads.size()) << scop.str();
  ASSERT_EQ(1u, writes.size()) << scop.str();
  std::string domain = "0 <= i < n and 0 <= j < m";
  EXPECT_ISL_EQ(isl::map(ctx(), "[n, m] -> { S0[i, j] -> x[i, j, j] : " +
                                    domain + " }"),
                reads[0]);
  EXPECT_ISL_EQ(isl::map(ctx(), "[n, m] -> { S0[i, j] -> A[i, j] : " +
                                    domain + " }"),
                reads[1]);
  EXPECT_ISL_EQ(isl::map(ctx(), "[n, m] -> { S0[i, j] -> A[i + 1, j] : " +
                                    domain + " }"),
                writes[0]);
  // x's column j stays within its rows of m only where j < m, which the
  // loops give, but its middle index j must stay below n: assumed.
  ASSERT_TRUE(scop.assumed.has_value());
  EXPECT_TRUE(scop.assumesInRows);
  EXPECT_FALSE(scop.assumesNoWrap);
  EXPECT_ISL_EQ(isl::set(ctx(), "[n, m] -> { : n <= 0 or m <= n }"),
                *scop.assumed);
}

TEST_F(ScopBuilderTest, FlatSubscriptsOfTwoRowLengthsAreRejected) {
  bool ok = parseCode(R"(
void f(int n, int m, double *restrict A) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      A[i * m + j] = A[i * n + j];
#pragma endscop
}
)",
                      "t.c", FrontendOptions{}, ctx(), input);
  EXPECT_FALSE(ok);
}

TEST_F(ScopBuilderTest, ArrayFieldsOfStructsAreArraysOfTheirOwn) {
  // g->val and s.w are arrays named after their struct and field, each
  // with its host source; s.p's structs add the field as a dimension.
  const Scop &scop = parseOne(R"(
struct grid { double val[8][8]; };
struct pt { double x, y; };
struct set { struct pt p[8]; double w[8]; };
void f(int n, struct grid *restrict g, struct set s) {
#pragma scop
  for (int i = 0; i < n; i++)
    g->val[i][i] = s.p[i].y + s.w[i];
#pragma endscop
}
)");
  ASSERT_EQ(3u, scop.arrays.size()) << scop.str();
  EXPECT_EQ("s_p", scop.arrays[0].name);
  EXPECT_EQ("s.p", scop.arrays[0].source);
  EXPECT_EQ(2u, scop.arrays[0].rank());
  EXPECT_EQ("s_w", scop.arrays[1].name);
  EXPECT_EQ("g_val", scop.arrays[2].name);
  EXPECT_EQ("g->val", scop.arrays[2].source);
  const Statement &s0 = stmt(scop, 0);
  std::vector<isl::map> reads = accessesOf(s0, Access::Kind::Read);
  ASSERT_EQ(2u, reads.size());
  EXPECT_ISL_EQ(isl::map(ctx(), "[n] -> { S0[i] -> s_p[i, 1] : 0 <= i < n }"),
                reads[0]);
  std::vector<isl::map> writes = accessesOf(s0, Access::Kind::MustWrite);
  ASSERT_EQ(1u, writes.size());
  EXPECT_ISL_EQ(
      isl::map(ctx(), "[n] -> { S0[i] -> g_val[i, i] : 0 <= i < n }"),
      writes[0]);
}

TEST_F(ScopBuilderTest, SignedArithmeticAssumesNothing) {
  const Scop &scop = parseOne(R"(
void f(int n, double A[100]) {
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = i - 5;
#pragma endscop
}
)");
  EXPECT_FALSE(scop.assumed.has_value());
}

TEST_F(ScopBuilderTest, IteratorNotReadAfterItsLoopGetsNoExitValue) {
  const Scop &scop = parseOne(R"(
void f(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = 0.0;
  for (i = 0; i < n; i++)
    A[i] += 1.0;
#pragma endscop
}
)");
  EXPECT_EQ(2u, scop.statements.size()) << scop.str();
}

TEST_F(ScopBuilderTest, SameNamedLocalsOfSiblingBlocksAreDistinct) {
  // Each declaration is its own variable; a local that shadows a variable
  // the scop also uses gets a fresh name.
  const Scop &scop = parseOne(R"(
void f(int n, double A[100], double B[100]) {
  double t = 1.0;
#pragma scop
  for (int i = 0; i < n; i++) { double t = A[i]; B[i] = t; }
  for (int i = 0; i < n; i++) { double t = B[i]; A[i] = t; }
  t = A[0];
#pragma endscop
}
)");
  std::vector<std::string> names;
  for (const polyhedral::Array &array : scop.arrays)
    names.push_back(array.name);
  std::sort(names.begin(), names.end());
  EXPECT_EQ((std::vector<std::string>{"A", "B", "t", "t_1", "t_2"}), names);
  int outer = scop.findArray("t");
  ASSERT_GE(outer, 0);
  EXPECT_FALSE(scop.arrays[outer].isLocal);
}

} // namespace polycuda::test
