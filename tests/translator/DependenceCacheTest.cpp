//===- DependenceCacheTest.cpp - Derived dependences equal recomputed ones ===//
//
// Scalar expansion computes the scalars' flow alone, then renames and
// expands scalars and carries their flow over (restrictToStatements,
// expandAlongLoops) instead of computing it again; anti and output
// dependences come later, one part per array. For the inputs/ programs with
// scalars, the dependences assembled that way must equal those computed
// from scratch on the transformed scop.
//
//===----------------------------------------------------------------------===//
#include "Dependences.h"
#include "ScalarExpansion.h"
#include "ScopBuilder.h"

#include "../polyhedral/IslTestSupport.h"

namespace polycuda::test {
namespace {

const std::string kInputs =
    std::string(POLYCUDA_RUNTIME_SOURCE_DIR) + "/../inputs/";

class DependenceCacheTest : public IslTest,
                            public ::testing::WithParamInterface<const char *> {
};

TEST_P(DependenceCacheTest, DerivedDependencesEqualRecomputedOnes) {
  translator::FrontendOptions options;
  options.clangArgs = {"-DMINI_DATASET"};
  translator::ParsedInput input;
  ASSERT_TRUE(translator::parseInput(kInputs + GetParam() + ".c", options,
                                     ctx(), input));
  for (translator::ScopRegion &region : input.regions) {
    polyhedral::Scop &scop = *region.scop;
    polyhedral::DependenceCache cache;
    polyhedral::expandScalars(scop, cache);
    polyhedral::Dependences derived = polyhedral::computeDependences(scop, cache);
    ASSERT_TRUE(derived.complete);
    polyhedral::Dependences fresh = polyhedral::computeDependences(scop);
    ASSERT_TRUE(fresh.complete);
    EXPECT_TRUE(derived.flow.is_equal(fresh.flow));
    EXPECT_TRUE(derived.anti.is_equal(fresh.anti));
    EXPECT_TRUE(derived.output.is_equal(fresh.output));
    EXPECT_TRUE(derived.taggedFlow.is_equal(fresh.taggedFlow));
    EXPECT_TRUE(derived.taggedLiveIn.is_equal(fresh.taggedLiveIn));
    EXPECT_TRUE(derived.liveIn.is_equal(fresh.liveIn));
  }
}

// Programs whose scalars are renamed (live-range splitting), expanded, or
// neither.
INSTANTIATE_TEST_SUITE_P(Inputs, DependenceCacheTest,
                         ::testing::Values("adi", "chained", "cholesky",
                                           "correlation", "deriche", "durbin",
                                           "gramschmidt", "ludcmp", "minmax",
                                           "nussinov", "random_seed5",
                                           "random_seed112", "scalarparam",
                                           "symm", "trisolv"));

} // namespace
} // namespace polycuda::test
