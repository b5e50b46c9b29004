//===- AstVerifierTest.cpp - Unit tests of the AST verifier ---------------===//
//
// executionTimes reads what an AST runs, verifyExecution checks it: on the
// schedule of random program 3937, whose atomic AST isl 0.25 gets wrong and
// whose separating AST is right, and on hand-made execution times that run
// an instance twice, skip one, or run a dependence backwards. runInChild
// survives a crash of its work, bounds its processor time, and passes its
// notes back.
//
//===----------------------------------------------------------------------===//
#include "AstVerifier.h"
#include "Isolated.h"

#include "IslTestSupport.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <optional>

namespace polycuda::test {
namespace {

using polyhedral::AstLoopMode;
using polyhedral::executionTimes;
using polyhedral::statementLeaves;
using polyhedral::verifyExecution;

using AstVerifierTest = IslTest;

/// The schedule isl's scheduler chose for random program 3937 (C target).
const char *kSchedule3937 = R"(domain: "[n, m] -> { S3[i, j] : (1 + i) mod 2 = 0 and 0 <= i < m and i <= j <= -3 + n; S0[i, j] : 0 <= i < m and i < n and i <= j <= -3 + n; S2[i, j] : (i) mod 2 = 0 and 0 <= i < m and i <= j <= -3 + n; S1[i, j] : 0 <= i < m and i < n and i <= j <= -3 + n }"
child:
  schedule: "[n, m] -> [{ S3[i, j] -> [(i)]; S0[i, j] -> [(0)]; S2[i, j] -> [(i)]; S1[i, j] -> [(i)] }]"
  child:
    sequence:
    - filter: "[n, m] -> { S3[i, j]; S0[i, j]; S1[i, j] }"
      child:
        schedule: "[n, m] -> [{ S3[i, j] -> [(1 + j)]; S0[i, j] -> [(2i)]; S1[i, j] -> [(1 + i)] }]"
        child:
          set:
          - filter: "[n, m] -> { S3[i, j]; S1[i, j] }"
            child:
              schedule: "[n, m] -> [{ S3[i, j] -> [(0)]; S1[i, j] -> [(-i + j)] }]"
              child:
                sequence:
                - filter: "[n, m] -> { S1[i, j] }"
                - filter: "[n, m] -> { S3[i, j] }"
          - filter: "[n, m] -> { S0[i, j] }"
            child:
              schedule: "[n, m] -> [{ S0[i, j] -> [(j)] }]"
              permutable: 1
              coincident: [ 1 ]
    - filter: "[n, m] -> { S2[i, j] }"
      child:
        schedule: "[n, m] -> [{ S2[i, j] -> [(j)] }]"
)";

/// Every pair of S1 and S3 instances in the order of `schedule`: they share
/// a sequence, so the AST must keep it.
isl::union_map orderOfS1AndS3(const isl::schedule &schedule) {
  isl::union_set s1s3(schedule.ctx(), "[n, m] -> { S1[i, j]; S3[i, j] }");
  isl::union_map times = schedule.get_map().intersect_domain(s1s3);
  isl::space time = times.range().as_set().get_space();
  return times.apply_range(isl::union_map(polyhedral::lexOrder(time, false)))
      .apply_range(times.reverse());
}

isl::ast_node astOf(const isl::schedule &schedule, const isl::set &context,
                    AstLoopMode mode) {
  return polyhedral::buildAstFromSchedule(
      context, schedule, "c",
      [](const isl::id &, const isl::ast_node &, const isl::ast_build &) {
        return isl::ast_node();
      },
      0, mode);
}

TEST_F(AstVerifierTest, RejectsTheAtomicAstOfRandomProgram3937) {
  isl::schedule schedule(ctx(), kSchedule3937);
  isl::set context(ctx(), "[n, m] -> { : n >= 0 and m >= 0 }");
  isl::union_map deps = orderOfS1AndS3(schedule);
  isl::union_set domain = schedule.get_domain();

  isl::ast_node atomic = astOf(schedule, context, AstLoopMode::Atomic);
  std::string problem = verifyExecution(
      executionTimes(atomic, context, statementLeaves(schedule.get_domain())), domain, deps,
      context, {false, 0});
  EXPECT_NE(problem.find("backwards"), std::string::npos)
      << "atomic AST accepted:\n" << atomic.to_C_str();

  isl::ast_node separate = astOf(schedule, context, AstLoopMode::Separate);
  EXPECT_EQ(verifyExecution(executionTimes(separate, context,
                                           statementLeaves(schedule.get_domain())),
                            domain, deps, context, {false, 0}),
            "")
      << separate.to_C_str();
}

TEST_F(AstVerifierTest, ReadsEveryInstanceOfACorrectAstOnce) {
  isl::schedule schedule(ctx(), kSchedule3937);
  isl::set context(ctx(), "[n, m] -> { : }");
  isl::ast_node ast = astOf(schedule, context, AstLoopMode::Separate);
  isl::union_map times = executionTimes(ast, context, statementLeaves(schedule.get_domain()));
  EXPECT_PRED_FORMAT2(islEqual, schedule.get_domain(), times.domain());
  EXPECT_TRUE(times.is_single_valued());
}

TEST_F(AstVerifierTest, FindsEachKindOfWrongExecution) {
  isl::set context(ctx(), "[n] -> { : n >= 4 }");
  isl::union_set domain(ctx(), "[n] -> { S[i] : 0 <= i < n }");
  isl::union_map deps(ctx(), "[n] -> { S[i] -> S[i + 1] : 0 <= i < n - 1 }");
  isl::union_map right(ctx(), "[n] -> { S[i] -> [i, 0] : 0 <= i < n }");
  EXPECT_EQ(verifyExecution(right, domain, deps, context, {false, 0}), "");

  isl::union_map twice(ctx(), "[n] -> { S[i] -> [i, 0] : 0 <= i < n; S[i] -> [i, 1] : i = 2 }");
  EXPECT_EQ(verifyExecution(twice, domain, deps, context, {false, 0}),
            "runs an instance more than once");

  isl::union_map skips(ctx(), "[n] -> { S[i] -> [i, 0] : 0 <= i < n and i != 1 }");
  EXPECT_EQ(verifyExecution(skips, domain, deps, context, {false, 0}).rfind(
                "never runs", 0),
            0u);

  isl::union_map extra(ctx(), "[n] -> { S[i] -> [i, 0] : 0 <= i <= n }");
  EXPECT_EQ(verifyExecution(extra, domain, deps, context, {false, 0}).rfind(
                "runs instances that do not exist", 0),
            0u);

  isl::union_map reversed(ctx(), "[n] -> { S[i] -> [-i, 0] : 0 <= i < n }");
  EXPECT_EQ(verifyExecution(reversed, domain, deps, context, {false, 0}).rfind(
                "runs a dependence backwards", 0),
            0u);

  // The same time: wrong for statements, right for the instances of one
  // kernel launch.
  isl::union_map together(ctx(), "[n] -> { S[i] -> [0, 0] : 0 <= i < n }");
  EXPECT_NE(verifyExecution(together, domain, deps, context, {false, 0}), "");
  EXPECT_EQ(verifyExecution(together, domain, deps, context, {true, 0}), "");
}

TEST_F(AstVerifierTest, KernelThreadsMustNotDependOnEachOther) {
  // S[i] runs on thread i % 4 at step i / 4: [t, k].
  isl::set context(ctx(), "[n] -> { : n >= 8 }");
  isl::union_set domain(ctx(), "[n] -> { S[i] : 0 <= i < n }");
  isl::union_map times(
      ctx(), "[n] -> { S[i] -> [t, k] : 0 <= i < n and 0 <= t < 4 and i = 4k + t }");
  polyhedral::ExecutionOrder threads{false, 1};
  // S[i] -> S[i + 4]: the same thread, one step later.
  isl::union_map sameThread(ctx(), "[n] -> { S[i] -> S[i + 4] : 0 <= i < n - 4 }");
  EXPECT_EQ(verifyExecution(times, domain, sameThread, context, threads), "");
  // S[i] -> S[i + 1]: another thread, which runs at the same time.
  isl::union_map otherThread(ctx(), "[n] -> { S[i] -> S[i + 1] : 0 <= i < n - 1 }");
  EXPECT_EQ(verifyExecution(times, domain, otherThread, context, threads)
                .rfind("runs a dependence backwards", 0),
            0u);
}

TEST(RunInChildTest, ReportsTheResultOrTheCrash) {
  polyhedral::ChildOutcome done =
      polyhedral::runInChild([] { return std::string("result"); });
  ASSERT_TRUE(done.result.has_value());
  EXPECT_EQ(*done.result, "result");
  EXPECT_EQ(done.signal, 0);

  polyhedral::ChildOutcome crashed = polyhedral::runInChild([]() -> std::string {
    std::abort();
  });
  EXPECT_FALSE(crashed.result.has_value());
  EXPECT_EQ(crashed.signal, SIGABRT);
}

/// Spins for `ms` milliseconds of processor time.
void spin(unsigned ms) {
  std::clock_t end = std::clock() + ms * (CLOCKS_PER_SEC / 1000);
  while (std::clock() < end) {
  }
}

TEST(RunInChildTest, KillsAChildPastItsProcessorTime) {
  // Within its budget: the result.
  polyhedral::ChildOutcome quick = polyhedral::runInChild(
      [] { return std::string("result"); }, 2000);
  ASSERT_TRUE(quick.result.has_value());
  EXPECT_FALSE(quick.overTime);

  // Past it: killed, long before it would have ended.
  auto start = std::chrono::steady_clock::now();
  polyhedral::ChildOutcome slow = polyhedral::runInChild(
      []() -> std::string {
        spin(20000);
        return "late";
      },
      100);
  EXPECT_FALSE(slow.result.has_value());
  EXPECT_TRUE(slow.overTime);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(15));

  // The processor time of the processes it starts counts too (the
  // scheduler's, which runs in a child of its own), and they are killed
  // with it.
  polyhedral::ChildOutcome nested = polyhedral::runInChild(
      []() -> std::string {
        std::optional<std::string> inner = polyhedral::runWithDeadline(
            []() -> std::string {
              spin(20000);
              return "late";
            },
            60000);
        return inner ? *inner : "none";
      },
      100);
  EXPECT_FALSE(nested.result.has_value());
  EXPECT_TRUE(nested.overTime);
}

TEST(RunInChildTest, NotesRaiseTheLimitAndReachTheCaller) {
  // 4 s for work that noted note 3, 100 ms otherwise.
  auto more = [](unsigned notes) { return notes & (1u << 3) ? 4000u : 100u; };
  polyhedral::ChildOutcome noted = polyhedral::runInChild(
      []() -> std::string {
        polyhedral::noteInChild(3);
        spin(400);
        return "done";
      },
      100, more);
  ASSERT_TRUE(noted.result.has_value());
  EXPECT_EQ(noted.notes, 1u << 3);

  // Killed past its limit, the notes it made still reach the caller.
  polyhedral::ChildOutcome killed = polyhedral::runInChild(
      []() -> std::string {
        polyhedral::noteInChild(1);
        spin(20000);
        return "late";
      },
      100, more);
  EXPECT_TRUE(killed.overTime);
  EXPECT_EQ(killed.notes, 1u << 1);

  // Outside a child a note goes nowhere.
  polyhedral::noteInChild(2);
  polyhedral::ChildOutcome none =
      polyhedral::runInChild([] { return std::string("result"); });
  EXPECT_EQ(none.notes, 0u);
}

} // namespace
} // namespace polycuda::test
