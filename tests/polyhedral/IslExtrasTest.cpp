//===- IslExtrasTest.cpp - Unit tests of the isl helpers ------------------===//
//
// Nested operation limits, an expression of parameters built in a context
// whose parameters come in another order, and that an exception thrown from
// an AST mark callback leaves no isl object behind (the context can be
// freed).
//
//===----------------------------------------------------------------------===//
#include "IslExtras.h"

#include "IslTestSupport.h"

#include <stdexcept>

namespace polycuda::test {
namespace {

using polyhedral::OperationLimit;

using IslExtrasTest = IslTest;

TEST_F(IslExtrasTest, OperationLimitNeverRaisesALimitSetOnTheContext) {
  isl_ctx *raw = ctx().get();
  isl_ctx_set_max_operations(raw, 1000);
  {
    OperationLimit larger(ctx(), 5000000);
    EXPECT_EQ(isl_ctx_get_max_operations(raw), 1000u);
    {
      OperationLimit smaller(ctx(), 10);
      EXPECT_EQ(isl_ctx_get_max_operations(raw), 10u);
    }
    EXPECT_EQ(isl_ctx_get_max_operations(raw), 1000u);
    OperationLimit none(ctx(), 0);
    EXPECT_EQ(isl_ctx_get_max_operations(raw), 1000u);
  }
  EXPECT_EQ(isl_ctx_get_max_operations(raw), 1000u);
  isl_ctx_set_max_operations(raw, 0);
}

TEST_F(IslExtrasTest, InnerOperationLimitRestoresTheOuterOne) {
  isl_ctx *raw = ctx().get();
  OperationLimit outer(ctx(), 2000);
  { OperationLimit inner(ctx(), 100); }
  EXPECT_EQ(isl_ctx_get_max_operations(raw), 2000u);
}

TEST_F(IslExtrasTest, ExpressionOfParametersInAContextOfAnotherOrder) {
  isl::set context(ctx(), "[n, m] -> { : n > 0 and m > 0 }");
  isl::pw_aff pa(ctx(), "[m, k, n] -> { [(m + 2 * n + floor(k / 2))] }");
  isl::ast_expr expr = polyhedral::buildExprFromParams(context, pa);
  ASSERT_FALSE(expr.is_null());
  EXPECT_EQ(expr.to_C_str(), "m + 2 * n + floord(k, 2)");
}

TEST(IslExtrasContextTest, ExceptionFromAMarkCallbackLeavesNoIslObject) {
  isl_ctx *raw = isl_ctx_alloc();
  isl_options_set_on_error(raw, ISL_ON_ERROR_CONTINUE);
  {
    isl::ctx ctx(raw);
    isl::schedule schedule(
        ctx, "{ domain: \"{ S[i] : 0 <= i < 10 }\", child: { mark: \"kernel\", "
             "child: { schedule: \"[{ S[i] -> [(i)] }]\" } } }");
    isl::set context(ctx, "{ : }");
    auto fail = [](const isl::id &, const isl::ast_node &,
                   const isl::ast_build &) -> isl::ast_node {
      throw std::runtime_error("mark callback failed");
    };
    EXPECT_THROW(polyhedral::buildAstFromSchedule(context, schedule, "c", fail),
                 std::runtime_error);
  }
  // isl_ctx_free refuses to free a context that objects still reference,
  // and says so as a warning.
  isl_options_set_on_error(raw, ISL_ON_ERROR_WARN);
  ::testing::internal::CaptureStderr();
  isl_ctx_free(raw);
  std::string warnings = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(warnings.find("isl_ctx not freed"), std::string::npos) << warnings;
}

} // namespace
} // namespace polycuda::test
