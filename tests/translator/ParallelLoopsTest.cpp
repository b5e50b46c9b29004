//===- ParallelLoopsTest.cpp - Which loops of inputs/ run in parallel -----===//
//
// Pins, in source terms, the loops that are mapped to blocks and threads for
// the classic kernels: each statement is found by the array it writes and its
// depth, and a source loop counts as parallel when a mapped band member of
// its kernel is exactly that loop's iterator (isl equality).
//
//===----------------------------------------------------------------------===//
#include "Pipeline.h"
#include "ScalarExpansion.h"
#include "ScopBuilder.h"

#include "../polyhedral/IslTestSupport.h"

#include <map>
#include <set>

namespace polycuda::test {
namespace {

using polyhedral::GpuProgram;
using polyhedral::Statement;

const std::string kInputs = std::string(POLYCUDA_RUNTIME_SOURCE_DIR) + "/../inputs/";

class ParallelLoopsTest : public IslTest {
protected:
  void translate(const std::string &name,
                 const polyhedral::PipelineOptions &pipeline =
                     polyhedral::PipelineOptions()) {
    translator::FrontendOptions options;
    options.clangArgs = {"-DMINI_DATASET"};
    ASSERT_TRUE(translator::parseInput(kInputs + name + ".c", options, ctx(),
                                       input));
    ASSERT_EQ(1u, input.regions.size());
    polyhedral::expandScalars(*input.regions[0].scop);
    program = polyhedral::runGpuPipeline(*input.regions[0].scop, pipeline);
  }

  const Statement &statement(const std::string &array, unsigned depth) {
    const Statement *found = nullptr;
    for (const Statement &stmt : input.regions[0].scop->statements)
      if (stmt.lhs->name == array && stmt.iterators.size() == depth) {
        EXPECT_EQ(nullptr, found) << "several statements write " << array;
        found = &stmt;
      }
    EXPECT_NE(nullptr, found) << "no statement writes " << array;
    return *found;
  }

  /// Source loop variables of `stmt` mapped to blocks/threads.
  std::set<std::string> parallelLoops(const Statement &stmt) {
    std::set<std::string> loops;
    for (const polyhedral::Kernel &kernel : program.kernels) {
      for (const isl::union_map &member : kernel.mapping->memberSchedules) {
        isl::union_map mine =
            member.intersect_domain(isl::union_set(stmt.domain));
        if (mine.is_empty())
          continue;
        for (size_t i = 0; i < stmt.iterators.size(); ++i) {
          isl::union_map iterator(isl::manage(isl_map_intersect_domain(
              isl_map_from_pw_aff(
                  polyhedral::variableOn(stmt.domain.get_space(), i).release()),
              stmt.domain.copy())));
          isl::union_map aligned = isl::manage(isl_union_map_align_params(
              iterator.copy(), isl_union_map_get_space(mine.get())));
          if (mine.is_equal(aligned))
            loops.insert(stmt.sourceIterators[i]);
        }
      }
    }
    return loops;
  }

  /// Host loops around the kernel that runs `stmt`.
  unsigned hostDepthOf(const Statement &stmt) {
    for (const polyhedral::Kernel &kernel : program.kernels)
      if (!kernel.instances.intersect(isl::union_set(stmt.domain)).is_empty())
        return kernel.mapping->hostDepth;
    ADD_FAILURE() << "no kernel runs " << stmt.name;
    return 0;
  }

  translator::ParsedInput input;
  GpuProgram program;
};

using Loops = std::set<std::string>;

TEST_F(ParallelLoopsTest, GemmRunsIAndJInParallel) {
  translate("gemm");
  EXPECT_EQ((Loops{"i", "j"}), parallelLoops(statement("C", 3)));
}

TEST_F(ParallelLoopsTest, TwoMmRunsIAndJOfBothProductsInParallel) {
  translate("2mm");
  EXPECT_EQ((Loops{"i", "j"}), parallelLoops(statement("tmp", 3)));
  EXPECT_EQ((Loops{"i", "j"}), parallelLoops(statement("D", 3)));
}

// Rows, then columns; the products' initializations run in kernels of
// their own, so that lanes share each product's reduced loop (j, then i).
TEST_F(ParallelLoopsTest, AtaxRunsRowsThenColumnsInParallel) {
  translate("atax");
  EXPECT_EQ((Loops{"i", "j"}), parallelLoops(statement("tmp", 2)));
  EXPECT_EQ((Loops{"i", "j"}), parallelLoops(statement("y", 2)));
}

// Each product's initialization (s[j] = 0, q[i] = 0) runs in a kernel of
// its own, so that the lanes of a block share the reduction's loop: both
// loops of each product are mapped, the reduced one to the lanes.
TEST_F(ParallelLoopsTest, BicgRunsEachReductionOverItsOwnIndex) {
  translate("bicg");
  EXPECT_EQ((Loops{"i", "j"}), parallelLoops(statement("s", 2)));
  EXPECT_EQ((Loops{"i", "j"}), parallelLoops(statement("q", 2)));
  unsigned reductions = 0;
  for (const polyhedral::Kernel &kernel : program.kernels)
    if (kernel.reduction) {
      ++reductions;
      EXPECT_EQ(1u, kernel.reduction->initsSplitOff.size());
    }
  EXPECT_EQ(2u, reductions);
}

// Few outputs (32 x 32 at MINI), each a sum of 1,024 products: beside the
// parallel x and z, the lanes of a block share w (loop y inside it), on
// threadIdx.y; k's initialization runs in a kernel of its own first.
TEST_F(ParallelLoopsTest, SumprodLanesShareWBesideXAndZ) {
  translate("sumprod");
  EXPECT_EQ((Loops{"x", "z", "w"}), parallelLoops(statement("k", 4)));
  const polyhedral::Kernel *lanes = nullptr;
  for (const polyhedral::Kernel &kernel : program.kernels)
    if (kernel.reduction)
      lanes = &kernel;
  ASSERT_NE(nullptr, lanes);
  EXPECT_EQ("w", lanes->reduction->loop);
  ASSERT_EQ(3u, lanes->mapping->numMapped);
  EXPECT_EQ(1u, lanes->mapping->hardwareDim[lanes->reduction->member]);
  EXPECT_EQ(32u, lanes->mapping->sizing.chosen[0]);
  EXPECT_EQ(1u, lanes->mapping->sizing.chosen[2]);
  EXPECT_GE(lanes->mapping->sizing.chosen[1], 8u);
  EXPECT_EQ((Loops{"x", "z"}), parallelLoops(statement("k", 2)));
}

// f[x][y][z] is the same for every w: each of 8 lanes runs 4 of its
// iterations of w together inside y (their order within the lane changes,
// which the reduction allows), unrolled below a mark; with register tiles
// off, one at a time.
TEST_F(ParallelLoopsTest, SumprodLanesRunFourIterationsOfWTogether) {
  translate("sumprod");
  const polyhedral::Kernel *lanes = nullptr;
  for (const polyhedral::Kernel &kernel : program.kernels)
    if (kernel.reduction)
      lanes = &kernel;
  ASSERT_NE(nullptr, lanes);
  EXPECT_EQ(4u, lanes->reduction->jam);
  EXPECT_EQ(8u, lanes->mapping->sizing.chosen[1]);
  EXPECT_EQ("f[x][y][z]", lanes->reduction->jamShared);
  // Below the thread mark and its filter: [floor(w / 32)], then [y], then
  // the unroll mark and [floor(w / 8) mod 4].
  ASSERT_FALSE(lanes->deviceTree.is_null());
  std::string tree = polyhedral::toString(lanes->deviceTree);
  EXPECT_NE(std::string::npos, tree.find("mark: \"polycuda_unroll_4\""))
      << tree;
  EXPECT_NE(std::string::npos, tree.find("(floor((w)/32))")) << tree;
  EXPECT_LT(tree.find("(floor((w)/32))"), tree.find("[(y)]")) << tree;
  EXPECT_LT(tree.find("[(y)]"), tree.find("polycuda_unroll_4")) << tree;
}

TEST_F(ParallelLoopsTest, SumprodLanesRunOneIterationAtATimeWithoutRegisterTiles) {
  polyhedral::PipelineOptions off;
  off.mapping.registerTiles = false;
  translate("sumprod", off);
  for (const polyhedral::Kernel &kernel : program.kernels)
    if (kernel.reduction) {
      EXPECT_EQ(1u, kernel.reduction->jam);
      EXPECT_EQ(std::string::npos,
                polyhedral::toString(kernel.deviceTree.is_null()
                                         ? program.schedule
                                         : kernel.deviceTree)
                    .find("polycuda_unroll"));
    }
}

// The weights and the bias are read alike by every thread: constant memory
// (their accessed elements, 25 and 2), nothing staged in shared memory; A,
// read at neighbouring elements, is not (its reads differ per thread).
TEST_F(ParallelLoopsTest, ConvolutionReadsWeightsFromConstantMemory) {
  translate("convolution");
  std::map<std::string, long> constants;
  for (const polyhedral::GpuProgram::ConstantArray &c : program.constants)
    constants[input.regions[0].scop->arrays[c.array].name] = c.elements;
  EXPECT_EQ((std::map<std::string, long>{{"W", 25}, {"bias", 2}}), constants);
  ASSERT_EQ(1u, program.kernels.size());
  const polyhedral::Kernel &kernel = program.kernels[0];
  EXPECT_EQ(2u, kernel.constantArrays.size());
  EXPECT_TRUE(kernel.sharedTiles.empty());
}

// gemm's sums are short at MINI (30 products per element of C): one
// thread per element keeps its k loop, no lanes.
TEST_F(ParallelLoopsTest, GemmShortSumsKeepOneThreadPerElement) {
  translate("gemm");
  for (const polyhedral::Kernel &kernel : program.kernels)
    EXPECT_FALSE(kernel.reduction) << kernel.name;
}

TEST_F(ParallelLoopsTest, Jacobi2dKeepsTimeOnTheHostAndSpaceParallel) {
  translate("jacobi2d");
  for (const char *array : {"A", "B"}) {
    const Statement &stmt = statement(array, 3);
    EXPECT_EQ((Loops{"i", "j"}), parallelLoops(stmt)) << array;
    EXPECT_EQ(1u, hostDepthOf(stmt)) << array;
  }
}

TEST_F(ParallelLoopsTest, Fdtd2dRunsEveryFieldUpdateInParallel) {
  translate("fdtd_2d");
  for (const char *array : {"ey", "ex", "hz"}) {
    const Statement &stmt = statement(array, 3);
    EXPECT_EQ((Loops{"i", "j"}), parallelLoops(stmt)) << array;
    EXPECT_EQ(1u, hostDepthOf(stmt)) << array;
  }
}

TEST_F(ParallelLoopsTest, CovarianceRunsItsOuterLoopsInParallel) {
  translate("covariance");
  EXPECT_EQ((Loops{"i", "j"}), parallelLoops(statement("cov", 3)));
  EXPECT_EQ((Loops{"i", "j"}), parallelLoops(statement("data", 2)));
}

TEST_F(ParallelLoopsTest, HistogramUpdatesStaySequentialRowsRunInParallel) {
  translate("histogram");
  // Each bin update may hit a bin an earlier iteration hit.
  EXPECT_EQ(Loops{}, parallelLoops(statement("h", 1)));
  EXPECT_EQ(Loops{}, parallelLoops(statement("w", 1)));
  // The row of H is affine: rows are distinct, bins within one are not.
  EXPECT_EQ((Loops{"j"}), parallelLoops(statement("H", 2)));
  EXPECT_EQ((Loops{"i"}), parallelLoops(statement("s", 1)));
}

TEST_F(ParallelLoopsTest, GathersRunInParallel) {
  translate("gather");
  EXPECT_EQ((Loops{"i"}), parallelLoops(statement("y", 1)));
  EXPECT_EQ((Loops{"i", "j"}), parallelLoops(statement("C", 2)));
  EXPECT_EQ((Loops{"i"}), parallelLoops(statement("z", 1)));
}

TEST_F(ParallelLoopsTest, ScattersStaySequential) {
  translate("scatter");
  EXPECT_EQ(Loops{}, parallelLoops(statement("y", 1)));
  EXPECT_EQ((Loops{"i"}), parallelLoops(statement("idx", 1)));
  EXPECT_EQ(Loops{}, parallelLoops(statement("z", 1)));
  EXPECT_EQ((Loops{"i"}), parallelLoops(statement("v", 1)));
}

TEST_F(ParallelLoopsTest, QuadraticWritesStaySequentialReadsRunInParallel) {
  translate("quadratic");
  EXPECT_EQ(Loops{}, parallelLoops(statement("A", 1)));
  EXPECT_EQ((Loops{"i"}), parallelLoops(statement("y", 1)));
  EXPECT_EQ(Loops{}, parallelLoops(statement("B", 1)));
  EXPECT_EQ((Loops{"i"}), parallelLoops(statement("C", 2)));
}

} // namespace
} // namespace polycuda::test
