//===- MappingStageTest.cpp - Mapping and promotion on a given tree -------===//
//
// mapToGpu, then the promotion stages, called directly on a hand-built
// scop and a schedule tree written here (no scheduler, no pipeline): the
// tree each stage leaves (the kernel's mark with its mapping record, the
// blocks' filter and tile band, the shared and thread marks, the threads'
// filter above the given band) and the records they fill. The same stages
// through the whole pipeline: GpuMappingTest.cpp, MemoryPromotionTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "GpuMapping.h"
#include "MemoryPromotion.h"
#include "SharedMemory.h"

#include "IslTestSupport.h"

#include <set>

namespace polycuda::test {
namespace {

using polyhedral::AddedOp;
using polyhedral::GpuProgram;
using polyhedral::Kernel;
using polyhedral::MarkKind;

using MappingStageTest = IslTest;

/// gemm's band [i, j, k] with i and j parallel.
const char *kGemmTree = R"(
domain: "[ni, nj, nk] -> { S0[i, j, k] : 0 <= i < ni and 0 <= j < nj and 0 <= k < nk }"
child:
  schedule: "[ni, nj, nk] -> [{ S0[i, j, k] -> [(i)] }, { S0[i, j, k] -> [(j)] }, { S0[i, j, k] -> [(k)] }]"
  permutable: 1
  coincident: [ 1, 1, 0 ]
)";

/// The same statement under a sequential loop k on the host, [i, j]
/// parallel below it.
const char *kOuterKTree = R"(
domain: "[ni, nj, nk] -> { S0[i, j, k] : 0 <= i < ni and 0 <= j < nj and 0 <= k < nk }"
child:
  schedule: "[ni, nj, nk] -> [{ S0[i, j, k] -> [(k)] }]"
  child:
    schedule: "[ni, nj, nk] -> [{ S0[i, j, k] -> [(i)] }, { S0[i, j, k] -> [(j)] }]"
    permutable: 1
    coincident: [ 1, 1 ]
)";

/// The program of `scop` with its dependences and the tree `yaml`.
GpuProgram programOf(const polyhedral::Scop &scop, const char *yaml) {
  GpuProgram program;
  program.scop = &scop;
  program.deps = polyhedral::computeDependences(scop);
  program.schedule = isl::schedule(scop.ctx, yaml);
  return program;
}

polyhedral::GpuMappingOptions noRegisterTiles() {
  polyhedral::GpuMappingOptions options;
  options.registerTiles = false;
  return options;
}

/// The first node below `node` (itself included) of type `type`.
isl::schedule_node firstOf(isl::schedule_node node,
                           isl_schedule_node_type type) {
  while (isl_schedule_node_get_type(node.get()) != type)
    node = node.child(0);
  return node;
}

/// The statements added by extension nodes of `tree`, by their tuples.
std::set<std::string> addedTuples(const isl::schedule &tree) {
  std::set<std::string> names;
  tree.get_root().foreach_descendant_top_down([&](const isl::schedule_node
                                                      &node) {
    if (node.isa<isl::schedule_node_extension>())
      for (const isl::set &set : polyhedral::setsOf(
               node.as<isl::schedule_node_extension>().get_extension().range()))
        names.insert(polyhedral::tupleName(set));
    return true;
  });
  return names;
}

TEST_F(MappingStageTest, MapsTheGivenBandToBlocksAndThreads) {
  auto scop = gemmScop(ctx());
  GpuProgram program = programOf(*scop, kGemmTree);
  polyhedral::mapToGpu(program, noRegisterTiles());
  ASSERT_EQ(1u, program.kernels.size());
  const Kernel &kernel = program.kernels[0];
  const polyhedral::KernelMapping &mapping = *kernel.mapping;
  EXPECT_EQ(0u, mapping.hostDepth);
  EXPECT_EQ(2u, mapping.numMapped);
  // j is x (it coalesces C, B); the default 2-D block is 32 x 8.
  EXPECT_EQ((std::vector<unsigned>{1, 0}), mapping.hardwareDim);
  EXPECT_EQ((std::vector<unsigned>{8, 32}), mapping.blockSize);
  // domain, the kernel's mark, the blocks' filter, the tile band, the
  // shared and thread marks, the threads' filter, the given band.
  isl::schedule_node root = program.schedule.get_root();
  EXPECT_EQ((std::vector<isl_schedule_node_type>{
                isl_schedule_node_domain, isl_schedule_node_mark,
                isl_schedule_node_filter, isl_schedule_node_band,
                isl_schedule_node_mark, isl_schedule_node_mark,
                isl_schedule_node_filter, isl_schedule_node_band,
                isl_schedule_node_leaf}),
            spine(root));
  isl::schedule_node mark = root.child(0);
  EXPECT_EQ(kernel.mark.get(), polyhedral::markId(mark).get());
  std::optional<polyhedral::KernelMark> payload =
      kernel.mark.try_user<polyhedral::KernelMark>();
  ASSERT_TRUE(payload.has_value());
  EXPECT_EQ(kernel.mapping.get(), payload->mapping.get());
  isl::schedule_node tiles = mark.child(0).child(0);
  EXPECT_EQ(2, isl_schedule_node_band_n_member(tiles.get()));
  EXPECT_TRUE(polyhedral::isMark(tiles.child(0), MarkKind::Shared));
  EXPECT_TRUE(polyhedral::isMark(tiles.child(0).child(0), MarkKind::Thread));
  // The given band is below the threads' filter, unchanged.
  isl::schedule_node band =
      firstOf(tiles.child(0).child(0).child(0), isl_schedule_node_band);
  EXPECT_EQ(3, isl_schedule_node_band_n_member(band.get()));
  // The block and thread ids are bounded in the kernel's context.
  EXPECT_NE(std::string::npos,
            polyhedral::toString(kernel.context).find("t1 <= 31"))
      << polyhedral::toString(kernel.context);
}

TEST_F(MappingStageTest, KeepsTheGivenHostLoop) {
  // The tree decides the order: k stays on the host around the launch.
  auto scop = gemmScop(ctx());
  GpuProgram program = programOf(*scop, kOuterKTree);
  polyhedral::mapToGpu(program, noRegisterTiles());
  ASSERT_EQ(1u, program.kernels.size());
  const Kernel &kernel = program.kernels[0];
  EXPECT_EQ(1u, kernel.mapping->hostDepth);
  EXPECT_EQ(2u, kernel.mapping->numMapped);
  isl::schedule_node host = program.schedule.get_root().child(0);
  ASSERT_EQ(isl_schedule_node_band, isl_schedule_node_get_type(host.get()));
  EXPECT_EQ(kernel.mark.get(), polyhedral::markId(host.child(0)).get());
  // The host loop's iterator is a parameter of the kernel's instances.
  EXPECT_NE(std::string::npos, polyhedral::toString(kernel.domain).find("c0"))
      << polyhedral::toString(kernel.domain);
}

TEST_F(MappingStageTest, PromotionAddsTypedStatementsToTheKernelsTree) {
  auto scop = gemmScop(ctx());
  GpuProgram program = programOf(*scop, kGemmTree);
  polyhedral::mapToGpu(program, noRegisterTiles());
  polyhedral::promoteToShared(program);
  polyhedral::promoteAccumulators(program);
  const Kernel &kernel = program.kernels[0];
  // A and B through shared tiles per tile of k; C in a register across k.
  std::set<std::string> shared;
  for (const polyhedral::SharedTile &tile : kernel.sharedTiles)
    shared.insert(scop->arrays[tile.array].name);
  EXPECT_EQ((std::set<std::string>{"A", "B"}), shared);
  ASSERT_EQ(1u, kernel.accumulators.size());
  EXPECT_EQ("C", scop->arrays[kernel.accumulators[0].array].name);
  // Promotion rewrote the kernel's own tree, not the program's: every
  // statement it added is an extension of that tree, known by its record.
  ASSERT_FALSE(kernel.deviceTree.is_null());
  EXPECT_TRUE(addedTuples(program.schedule).empty());
  std::set<AddedOp> ops;
  for (const std::string &name : addedTuples(kernel.deviceTree)) {
    const polyhedral::AddedStatement *added = kernel.addedStatement(name);
    ASSERT_NE(nullptr, added) << name;
    ops.insert(added->op);
  }
  EXPECT_EQ((std::set<AddedOp>{AddedOp::RegisterLoad, AddedOp::RegisterStore,
                               AddedOp::SharedOffsets, AddedOp::SharedCopy,
                               AddedOp::BlockBarrier}),
            ops);
}

} // namespace
} // namespace polycuda::test
