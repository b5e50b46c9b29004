//===- SchedulingTest.cpp - Unit tests of computeSchedule -----------------===//
//
// Which band members come out coincident, legality of every schedule, the
// original-order schedule and the fallback under an operation limit.
//
//===----------------------------------------------------------------------===//
#include "Scheduling.h"

#include "Isolated.h"

#include "IslTestSupport.h"

#include <chrono>
#include <stdexcept>
#include <thread>

namespace polycuda::test {
namespace {

using polyhedral::buildOriginalSchedule;
using polyhedral::computeDependences;
using polyhedral::computeSchedule;
using polyhedral::Dependences;
using polyhedral::ScheduleFallback;
using polyhedral::ScheduleResult;
using polyhedral::SchedulingOptions;

using SchedulingTest = IslTest;

std::string describe(const std::vector<BandInfo> &bands) {
  std::string text;
  for (const BandInfo &band : bands) {
    text += "band at depth " + std::to_string(band.depth) + ":";
    for (size_t i = 0; i < band.members.size(); ++i)
      text += " " + polyhedral::toString(band.members[i]) +
              (band.coincident[i] ? " (coincident)" : "");
    text += "\n";
  }
  return text;
}

/// Checks every coincident flag of the tree against the dependences: a
/// coincident member has distance zero for all dependences not carried by
/// the bands above it.
void expectCoincidenceIsSound(const isl::schedule &schedule,
                              const isl::union_map &deps) {
  struct Walker {
    const isl::union_map &deps;
    void walk(isl::schedule_node node, isl::union_map prefix) {
      if (isl_schedule_node_get_type(node.get()) == isl_schedule_node_band) {
        isl::multi_union_pw_aff partial = isl::manage(
            isl_schedule_node_band_get_partial_schedule(node.get()));
        int n = isl_schedule_node_band_n_member(node.get());
        for (int i = 0; i < n; ++i) {
          isl::union_map member =
              isl::union_map::from(isl::multi_union_pw_aff(partial.at(i)));
          if (isl_schedule_node_band_member_get_coincident(node.get(), i) ==
              isl_bool_true)
            EXPECT_TRUE(hasZeroDistance(deps, prefix, member))
                << "member " << polyhedral::toString(member)
                << " is marked coincident but carries a dependence";
        }
        isl::union_map band = isl::manage(
            isl_schedule_node_band_get_partial_schedule_union_map(node.get()));
        prefix = polyhedral::flatRangeProduct(prefix, band);
      }
      int n = isl_schedule_node_n_children(node.get());
      for (int i = 0; i < n; ++i)
        walk(node.child(i), prefix);
    }
  } walker{deps};
  isl::union_set domain = schedule.get_domain();
  isl::union_map empty =
      isl::manage(isl_union_map_from_domain(domain.copy()));
  walker.walk(schedule.get_root(), empty);
}

TEST_F(SchedulingTest, GemmIAndJAreParallelAndKIsNot) {
  auto scop = gemmScop(ctx());
  Dependences deps = computeDependences(*scop);
  ScheduleResult result = computeSchedule(*scop, deps, SchedulingOptions());
  EXPECT_FALSE(result.usedFallback()) << describe(result.fallback);
  EXPECT_TRUE(respectsDependences(result.schedule, scop->domain(), deps.all()));
  expectCoincidenceIsSound(result.schedule, deps.all());

  std::vector<BandInfo> bands = bandsOf(result.schedule);
  ASSERT_FALSE(bands.empty());
  unsigned coincident = 0;
  bool kFound = false;
  isl::union_map k(ctx(), "[ni, nj, nk] -> { S0[i, j, k] -> [k] }");
  for (const BandInfo &band : bands)
    for (size_t m = 0; m < band.members.size(); ++m) {
      coincident += band.coincident[m];
      if (band.members[m].intersect_domain(scop->domain()).is_equal(
              k.intersect_domain(scop->domain()))) {
        kFound = true;
        EXPECT_FALSE(band.coincident[m]) << describe(bands);
      }
    }
  EXPECT_EQ(2u, coincident) << describe(bands);
  EXPECT_TRUE(kFound) << describe(bands);
  // The two parallel loops are outermost.
  EXPECT_GE(bands[0].members.size(), 2u) << describe(bands);
  if (bands[0].members.size() >= 2) {
    EXPECT_TRUE(bands[0].coincident[0]) << describe(bands);
    EXPECT_TRUE(bands[0].coincident[1]) << describe(bands);
  }
}

TEST_F(SchedulingTest, TimeLoopIsSequentialAndSpaceLoopIsParallel) {
  auto scop = jacobiScop(ctx());
  Dependences deps = computeDependences(*scop);
  ScheduleResult result = computeSchedule(*scop, deps, SchedulingOptions());
  EXPECT_FALSE(result.usedFallback()) << describe(result.fallback);
  EXPECT_TRUE(respectsDependences(result.schedule, scop->domain(), deps.all()));
  expectCoincidenceIsSound(result.schedule, deps.all());

  std::vector<BandInfo> bands = bandsOf(result.schedule);
  ASSERT_FALSE(bands.empty());
  EXPECT_FALSE(bands[0].coincident[0]) << describe(bands);
  // Somewhere below the time loop there is a parallel member.
  bool innerParallel = false;
  for (const BandInfo &band : bands)
    for (size_t m = 0; m < band.members.size(); ++m)
      if (band.depth + m >= 1 && band.coincident[m])
        innerParallel = true;
  EXPECT_TRUE(innerParallel) << describe(bands);
}

TEST_F(SchedulingTest, ProducerConsumerLoopsAreParallel) {
  auto scop = producerConsumerScop(ctx());
  Dependences deps = computeDependences(*scop);
  ScheduleResult result = computeSchedule(*scop, deps, SchedulingOptions());
  EXPECT_TRUE(respectsDependences(result.schedule, scop->domain(), deps.all()));
  expectCoincidenceIsSound(result.schedule, deps.all());
  std::vector<BandInfo> bands = bandsOf(result.schedule);
  ASSERT_FALSE(bands.empty());
  bool anyParallel = false;
  for (const BandInfo &band : bands)
    for (bool c : band.coincident)
      anyParallel |= c;
  EXPECT_TRUE(anyParallel) << describe(bands);
}

TEST_F(SchedulingTest, RecurrenceHasNoCoincidentMember) {
  auto scop = recurrenceScop(ctx());
  Dependences deps = computeDependences(*scop);
  ScheduleResult result = computeSchedule(*scop, deps, SchedulingOptions());
  EXPECT_TRUE(respectsDependences(result.schedule, scop->domain(), deps.all()));
  for (const BandInfo &band : bandsOf(result.schedule))
    for (bool c : band.coincident)
      EXPECT_FALSE(c) << describe(bandsOf(result.schedule));
}

TEST_F(SchedulingTest, OriginalScheduleMarksParallelLoops) {
  auto scop = gemmScop(ctx());
  Dependences deps = computeDependences(*scop);
  isl::schedule schedule = buildOriginalSchedule(*scop, deps);
  EXPECT_TRUE(respectsDependences(schedule, scop->domain(), deps.all()));
  std::vector<BandInfo> bands = bandsOf(schedule);
  ASSERT_EQ(3u, bands.size()) << describe(bands);
  const char *expected[] = {"[ni, nj, nk] -> { S0[i, j, k] -> [i] }",
                            "[ni, nj, nk] -> { S0[i, j, k] -> [j] }",
                            "[ni, nj, nk] -> { S0[i, j, k] -> [k] }"};
  for (unsigned d = 0; d < 3; ++d) {
    ASSERT_EQ(1u, bands[d].members.size());
    EXPECT_EQ(d, bands[d].depth);
    EXPECT_ISL_EQ(isl::union_map(ctx(), expected[d])
                      .intersect_domain(scop->domain()),
                  bands[d].members[0].intersect_domain(scop->domain()));
  }
  EXPECT_TRUE(bands[0].coincident[0]) << describe(bands);
  EXPECT_TRUE(bands[1].coincident[0]) << describe(bands);
  EXPECT_FALSE(bands[2].coincident[0]) << describe(bands);
}

TEST_F(SchedulingTest, OriginalScheduleOfTimeLoopKeepsStatementOrder) {
  auto scop = jacobiScop(ctx());
  Dependences deps = computeDependences(*scop);
  isl::schedule schedule = buildOriginalSchedule(*scop, deps);
  EXPECT_TRUE(respectsDependences(schedule, scop->domain(), deps.all()));
  // Same order as the 2d+1 schedule of the scop.
  isl::union_map map = schedule.get_map().intersect_domain(scop->domain());
  isl::union_map original = scop->originalSchedule.intersect_domain(scop->domain());
  isl::union_map mapBefore = isl::manage(
      isl_union_map_lex_lt_union_map(map.copy(), map.copy()));
  isl::union_map originalBefore = isl::manage(
      isl_union_map_lex_lt_union_map(original.copy(), original.copy()));
  EXPECT_ISL_EQ(originalBefore, mapBefore);
  std::vector<BandInfo> bands = bandsOf(schedule);
  ASSERT_EQ(3u, bands.size()) << describe(bands);
  EXPECT_FALSE(bands[0].coincident[0]) << describe(bands); // t
  EXPECT_TRUE(bands[1].coincident[0]) << describe(bands);  // i of S0
  EXPECT_TRUE(bands[2].coincident[0]) << describe(bands);  // i of S1
}

TEST_F(SchedulingTest, UseOriginalOptionReturnsTheOriginalSchedule) {
  auto scop = gemmScop(ctx());
  Dependences deps = computeDependences(*scop);
  SchedulingOptions options;
  options.useOriginal = true;
  ScheduleResult result = computeSchedule(*scop, deps, options);
  EXPECT_TRUE(result.usedFallback());
  EXPECT_EQ(result.fallback.why, ScheduleFallback::Why::Requested);
  EXPECT_ISL_EQ(buildOriginalSchedule(*scop, deps).get_map(),
                result.schedule.get_map());
}

// The fallback record alone says whether the schedule is a fallback, and
// each reason is worded for itself.
TEST_F(SchedulingTest, FallbackRecordSaysWhetherAndWhy) {
  auto scop = gemmScop(ctx());
  Dependences deps = computeDependences(*scop);
  SchedulingOptions options;
  options.sequential = true;
  ScheduleResult result = computeSchedule(*scop, deps, options);
  EXPECT_TRUE(result.usedFallback());
  EXPECT_EQ(result.fallback.why, ScheduleFallback::Why::Sequential);
  EXPECT_EQ(describe(result.fallback).find("budget"), std::string::npos)
      << describe(result.fallback);
  ScheduleResult parallel = computeSchedule(*scop, deps, SchedulingOptions());
  EXPECT_FALSE(parallel.usedFallback()) << describe(parallel.fallback);
  EXPECT_EQ(describe(parallel.fallback), "");
}

TEST_F(SchedulingTest, TinyOperationLimitFallsBackToALegalSchedule) {
  auto scop = jacobiScop(ctx());
  Dependences deps = computeDependences(*scop);
  SchedulingOptions options;
  options.maxOperations = 1;
  ScheduleResult result = computeSchedule(*scop, deps, options);
  EXPECT_TRUE(result.usedFallback());
  EXPECT_EQ(result.fallback.why, ScheduleFallback::Why::SchedulerFailed);
  EXPECT_TRUE(respectsDependences(result.schedule, scop->domain(), deps.all()));
  expectCoincidenceIsSound(result.schedule, deps.all());
  EXPECT_ISL_EQ(buildOriginalSchedule(*scop, deps).get_map(),
                result.schedule.get_map());
  // The limit is lifted afterwards: the next call schedules normally.
  ScheduleResult again = computeSchedule(*scop, deps, SchedulingOptions());
  EXPECT_FALSE(again.usedFallback()) << describe(again.fallback);
}

// The scheduler runs in a child process against a deadline; its schedule
// comes back as text, coincidence and permutability included: the same
// schedule as computed here without the deadline.
TEST_F(SchedulingTest, DeadlineRunReturnsTheSameSchedule) {
  for (bool gemm : {true, false}) {
    auto scop = gemm ? gemmScop(ctx()) : jacobiScop(ctx());
    Dependences deps = computeDependences(*scop);
    SchedulingOptions here;
    here.timeLimitMs = 0;
    ScheduleResult direct = computeSchedule(*scop, deps, here);
    ScheduleResult bounded = computeSchedule(*scop, deps, SchedulingOptions());
    EXPECT_FALSE(bounded.usedFallback()) << describe(bounded.fallback);
    EXPECT_ISL_EQ(direct.schedule.get_map(), bounded.schedule.get_map());
    EXPECT_EQ(describe(bandsOf(direct.schedule)),
              describe(bandsOf(bounded.schedule)));
    EXPECT_EQ(polyhedral::toString(direct.schedule),
              polyhedral::toString(bounded.schedule));
  }
}

// Work that outlives its deadline is killed and reported as missing: work
// that computes, at its limit of processor time; work that waits (and so
// uses none), at four times the limit by the clock.
TEST_F(SchedulingTest, WorkPastItsDeadlineIsAbandoned) {
  auto start = std::chrono::steady_clock::now();
  std::optional<std::string> spinning = polyhedral::runWithDeadline(
      [] {
        volatile unsigned long sum = 0;
        for (;;)
          sum = sum + 1;
        return std::string("never");
      },
      100);
  EXPECT_FALSE(spinning.has_value());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  start = std::chrono::steady_clock::now();
  std::optional<std::string> late = polyhedral::runWithDeadline(
      [] {
        for (;;)
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        return std::string("never");
      },
      100);
  EXPECT_FALSE(late.has_value());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(std::optional<std::string>(""),
            polyhedral::runWithDeadline([] { return std::string(); }, 5000));
  EXPECT_EQ(std::optional<std::string>("ok"),
            polyhedral::runWithDeadline([] { return std::string("ok"); }, 0));
  EXPECT_FALSE(polyhedral::runWithDeadline(
                   []() -> std::string { throw std::runtime_error("x"); }, 5000)
                   .has_value());
}

// Coefficients and constants of every band member count, in every band.
TEST_F(SchedulingTest, MaxScheduleCoefficientReadsEveryBand) {
  isl::schedule schedule(ctx(), R"(
domain: "[n] -> { S[i, j] : 0 <= i, j < n; T[i] : 0 <= i < n }"
child:
  sequence:
  - filter: "[n] -> { S[i, j] }"
    child:
      schedule: "[n] -> [{ S[i, j] -> [(3i + j)] }, { S[i, j] -> [(j - 5)] }]"
  - filter: "[n] -> { T[i] }"
    child:
      schedule: "[n] -> [{ T[i] -> [(-1521i + 2n)] }]"
)");
  EXPECT_EQ(1521, polyhedral::maxScheduleCoefficient(schedule));
  EXPECT_GT(1521, polyhedral::kMaxScheduleCoefficient);
}

} // namespace
} // namespace polycuda::test
