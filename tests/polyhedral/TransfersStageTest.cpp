//===- TransfersStageTest.cpp - The transfers stage alone -----------------===//
//
// computeTransfers called directly on a GpuProgram that holds only a
// hand-built scop and its dependences (no schedule, no kernels): which
// arrays go in and out, why (Transfer::In, Out, WholeWhy), and the banded
// and widened boxes. The same stage through the whole pipeline, on inputs/
// programs: tests/translator/TransfersTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "Transfers.h"

#include "IslTestSupport.h"

namespace polycuda::test {
namespace {

using polyhedral::GpuProgram;
using polyhedral::Transfer;
using In = Transfer::In;
using Out = Transfer::Out;

using TransfersStageTest = IslTest;

/// The program of `scop` with its dependences, and its transfers.
GpuProgram transfersOf(const polyhedral::Scop &scop, bool exact = true) {
  GpuProgram program;
  program.scop = &scop;
  program.deps = polyhedral::computeDependences(scop);
  polyhedral::computeTransfers(program, polyhedral::TransferMethod::Auto,
                               exact);
  return program;
}

const Transfer *find(const polyhedral::Scop &scop, const GpuProgram &program,
                     const std::string &name) {
  for (const Transfer &t : program.transfers)
    if (scop.arrays[t.array].name == name)
      return &t;
  return nullptr;
}

TEST_F(TransfersStageTest, ReadArraysGoInAndWrittenOnesComeBack) {
  auto scop = producerConsumerScop(ctx());
  GpuProgram program = transfersOf(*scop);
  const Transfer *a = find(*scop, program, "A");
  const Transfer *b = find(*scop, program, "B");
  const Transfer *c = find(*scop, program, "C");
  ASSERT_TRUE(a && b && c);
  EXPECT_TRUE(a->toDevice);
  EXPECT_FALSE(a->toHost);
  EXPECT_EQ(In::LiveIn, a->inWhy);
  EXPECT_EQ(Out::NotWritten, a->outWhy);
  // B is written before it is read: it goes back, never in.
  EXPECT_FALSE(b->toDevice);
  EXPECT_TRUE(b->toHost);
  EXPECT_EQ(In::WrittenFirst, b->inWhy);
  EXPECT_EQ(Out::Written, b->outWhy);
  EXPECT_EQ(In::WrittenFirst, c->inWhy);
  EXPECT_FALSE(c->whole());
}

/// `for (i = 0; i < n; i++) A[2 * i] = f(A[2 * i] if read)`: the copy-out
/// box A[0..2n-2] holds odd elements that the scop does not write.
std::unique_ptr<polyhedral::Scop> everyOtherScop(isl::ctx ctx, bool read) {
  auto scop = newScop(ctx, {"n"}, "[n] -> { : n >= 2 }");
  addArray(*scop, "A", {"[n] -> { [(2 * n)] }"});
  std::vector<AccessSpec> accesses;
  if (read)
    accesses.push_back({Read, "A", "[n] -> { S0[i] -> A[2 * i] }"});
  accesses.push_back({Write, "A", "[n] -> { S0[i] -> A[2 * i] }"});
  addStatement(*scop, "S0", "[n] -> { S0[i] : 0 <= i < n }", {"i"}, {0, 0},
               accesses);
  scop->originalSchedule =
      isl::union_map(ctx, "[n] -> { S0[i] -> [0, i, 0] }");
  return scop;
}

TEST_F(TransfersStageTest, UnwrittenElementsOfTheCopyOutBoxGoIn) {
  auto scop = everyOtherScop(ctx(), false);
  GpuProgram program = transfersOf(*scop);
  const Transfer *a = find(*scop, program, "A");
  ASSERT_TRUE(a);
  EXPECT_TRUE(a->toDevice);
  EXPECT_EQ(In::KeepsUnwritten, a->inWhy);
  EXPECT_FALSE(a->outExact);

  auto both = everyOtherScop(ctx(), true);
  GpuProgram withReads = transfersOf(*both);
  ASSERT_TRUE(find(*both, withReads, "A"));
  EXPECT_EQ(In::LiveInAndKeepsUnwritten, find(*both, withReads, "A")->inWhy);
}

TEST_F(TransfersStageTest, CheapestCopiesMoveAllBothWays) {
  auto scop = producerConsumerScop(ctx());
  GpuProgram program = transfersOf(*scop, false);
  const Transfer *b = find(*scop, program, "B");
  const Transfer *a = find(*scop, program, "A");
  ASSERT_TRUE(a && b);
  EXPECT_TRUE(b->whole());
  EXPECT_TRUE(b->toDevice);
  EXPECT_EQ(In::Whole, b->inWhy);
  EXPECT_EQ(Out::Whole, b->outWhy);
  EXPECT_EQ(Transfer::WholeWhy::Cheapest, b->wholeWhy);
  // A is not written: it still only goes in.
  EXPECT_EQ(Out::NotWritten, a->outWhy);
}

/// `for i < n: for j <= i: L[i][j] = 1`: a triangle, copied back in bands
/// of rows.
TEST_F(TransfersStageTest, TriangleComesBackInBands) {
  auto scop = newScop(ctx(), {"n"}, "[n] -> { : n >= 1 }");
  addArray(*scop, "L", {"[n] -> { [(n)] }", "[n] -> { [(n)] }"});
  addStatement(*scop, "S0", "[n] -> { S0[i, j] : 0 <= j <= i < n }",
               {"i", "j"}, {0, 0, 0},
               {{Write, "L", "[n] -> { S0[i, j] -> L[i, j] }"}});
  scop->originalSchedule =
      isl::union_map(ctx(), "[n] -> { S0[i, j] -> [0, i, 0, j, 0] }");
  GpuProgram program = transfersOf(*scop);
  const Transfer *l = find(*scop, program, "L");
  ASSERT_TRUE(l);
  EXPECT_TRUE(l->out.banded());
  EXPECT_EQ(Out::Written, l->outWhy);
  EXPECT_FALSE(l->outWidened);
}

/// `B[i][j] = A[i][j]` over the whole square, then `A[i][j] = B[i][j]` over
/// its interior: the copy back of A spans whole rows.
TEST_F(TransfersStageTest, InteriorCopyBackIsWidenedToWholeRows) {
  auto scop = newScop(ctx(), {"n"}, "[n] -> { : n >= 3 }");
  addArray(*scop, "A", {"[n] -> { [(n)] }", "[n] -> { [(n)] }"});
  addArray(*scop, "B", {"[n] -> { [(n)] }", "[n] -> { [(n)] }"});
  addStatement(*scop, "S0", "[n] -> { S0[i, j] : 0 <= i, j < n }",
               {"i", "j"}, {0, 0, 0},
               {{Read, "A", "[n] -> { S0[i, j] -> A[i, j] }"},
                {Write, "B", "[n] -> { S0[i, j] -> B[i, j] }"}});
  addStatement(*scop, "S1", "[n] -> { S1[i, j] : 1 <= i, j < n - 1 }",
               {"i", "j"}, {1, 0, 0},
               {{Read, "B", "[n] -> { S1[i, j] -> B[i, j] }"},
                {Write, "A", "[n] -> { S1[i, j] -> A[i, j] }"}});
  scop->originalSchedule = isl::union_map(
      ctx(), "[n] -> { S0[i, j] -> [0, i, 0, j, 0]; S1[i, j] -> [1, i, 0, "
             "j, 0] }");
  GpuProgram program = transfersOf(*scop);
  const Transfer *a = find(*scop, program, "A");
  ASSERT_TRUE(a);
  EXPECT_EQ(In::LiveIn, a->inWhy);
  EXPECT_TRUE(a->outWidened);
  EXPECT_FALSE(a->outExact);
}

} // namespace
} // namespace polycuda::test
