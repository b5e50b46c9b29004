//===- TransfersTest.cpp - The host/device copy sets of a scop ------------===//
//
// Pins the boxes copied in and out (polyhedral::Transfer, Transfers.h)
// for deriche (only imgIn is read before it is written), jacobi-2d and
// heat-3d (the border is read, only the interior written: the copy back
// widened to whole rows), gemm, lu (row 0 is never
// written), syrk (C's triangle copied in bands of rows) and
// inputs/interior.c (arrays written only inside a border, or in full
// before they are read). Boxes are compared as isl sets under the
// scop's context.
//
//===----------------------------------------------------------------------===//
#include "IslExtras.h"
#include "Transfers.h"
#include "Translation.h"

#include "../polyhedral/IslTestSupport.h"

#include <algorithm>
#include <map>

namespace polycuda::test {
namespace {

const std::string kInputs =
    std::string(POLYCUDA_RUNTIME_SOURCE_DIR) + "/../inputs/";

class TransfersTest : public IslTest {
protected:
  /// Translates inputs/`file` (MINI sizes) and keeps its first scop.
  void translate(const std::string &file,
                 polyhedral::TransferMethod method =
                     polyhedral::TransferMethod::Auto) {
    translator::FrontendOptions frontend;
    frontend.clangArgs = {"-DMINI_DATASET"};
    ASSERT_TRUE(translator::parseInput(kInputs + file, frontend, ctx(), input));
    translator::TranslationOptions options;
    options.pipeline.transfers = method;
    ASSERT_TRUE(translator::translate(input, options, translation));
    ASSERT_FALSE(translation.regions.empty());
  }

  const polyhedral::Scop &scop() const {
    return *translation.regions.front().program.scop;
  }

  /// Where `what` first appears in the printed code (a failure if nowhere).
  size_t at(const std::string &what) const {
    size_t pos = translation.text.find(what);
    EXPECT_NE(std::string::npos, pos) << what;
    return pos;
  }

  /// Where 3mm's kernel of `product` (dev_F, dev_C, dev_D: F = C D) is
  /// launched.
  size_t launchOf(const std::string &product) const {
    return at("<<<polycuda_grid, polycuda_block>>>(" + product);
  }

  /// The transfer of `array`, or null when the array needs no device copy.
  const polyhedral::Transfer *transfer(const std::string &array) const {
    const polyhedral::GpuProgram &program = translation.regions.front().program;
    for (const polyhedral::Transfer &t : program.transfers)
      if (scop().arrays[t.array].name == array)
        return &t;
    return nullptr;
  }

  /// The elements of `box` of `array`, under the scop's context.
  isl::set elements(const std::string &array,
                    const polyhedral::ElementBox &box) const {
    isl::space space = polyhedral::namedSetSpace(ctx(), array, box.lower.size());
    isl::set set = isl::set::universe(space).intersect_params(scop().context);
    for (size_t d = 0; d < box.lower.size(); ++d) {
      isl::pw_aff index = polyhedral::variableOn(space, d);
      set = set.intersect(index.ge_set(polyhedral::liftToSpace(box.lower[d], space)))
                .intersect(index.le_set(polyhedral::liftToSpace(box.upper[d], space)));
    }
    return set;
  }

  isl::set expected(const std::string &text) const {
    return isl::set(ctx(), text).intersect_params(scop().context);
  }

  /// Arrays copied in (with rank > 0 or not).
  std::vector<std::string> copiedIn() const {
    std::vector<std::string> names;
    for (const polyhedral::Transfer &t :
         translation.regions.front().program.transfers)
      if (t.toDevice)
        names.push_back(scop().arrays[t.array].name);
    return names;
  }

  translator::ParsedInput input;
  translator::Translation translation;
};

TEST_F(TransfersTest, DericheCopiesInOnlyImgIn) {
  translate("deriche.c");
  EXPECT_EQ(std::vector<std::string>{"imgIn"}, copiedIn());
  const polyhedral::Transfer *in = transfer("imgIn");
  ASSERT_TRUE(in);
  EXPECT_ISL_EQ(expected("[w, h] -> { imgIn[i, j] : 0 <= i < w and 0 <= j < h }"),
                elements("imgIn", in->in));
  EXPECT_FALSE(in->toHost);
  for (const char *name : {"imgOut", "y1", "y2"}) {
    const polyhedral::Transfer *t = transfer(name);
    ASSERT_TRUE(t) << name;
    EXPECT_FALSE(t->toDevice) << name;
    EXPECT_TRUE(t->toHost) << name;
    EXPECT_ISL_EQ(expected("[w, h] -> { " + std::string(name) +
                           "[i, j] : 0 <= i < w and 0 <= j < h }"),
                  elements(name, t->out));
  }
}

TEST_F(TransfersTest, Jacobi2dCopiesTheInteriorBack) {
  translate("jacobi_2d.c");
  for (const char *name : {"A", "B"}) {
    const polyhedral::Transfer *t = transfer(name);
    ASSERT_TRUE(t) << name;
    // The border is read: the box of the whole array goes in (corners
    // included, which the scop never reads).
    EXPECT_TRUE(t->toDevice) << name;
    EXPECT_FALSE(t->inExact) << name;
    EXPECT_ISL_EQ(expected("[tsteps, n] -> { " + std::string(name) +
                           "[i, j] : tsteps > 0 and n >= 3 and 0 <= i < n and "
                           "0 <= j < n }"),
                  elements(name, t->in));
    // Only the interior is written, but the border columns between its
    // rows were copied in and are not written: the copy back takes whole
    // rows, one contiguous range.
    EXPECT_ISL_EQ(expected("[tsteps, n] -> { " + std::string(name) +
                           "[i, j] : tsteps > 0 and n >= 3 and 1 <= i < n - 1 "
                           "and 0 <= j < n }"),
                  elements(name, t->out));
    EXPECT_FALSE(t->outExact) << name;
    EXPECT_TRUE(t->outWidened) << name;
  }
}

TEST_F(TransfersTest, Heat3dCopiesWholePlanesBack) {
  translate("heat_3d.c");
  for (const char *name : {"A", "B"}) {
    const polyhedral::Transfer *t = transfer(name);
    ASSERT_TRUE(t) << name;
    isl::set active = expected("[tsteps, n] -> { " + std::string(name) +
                               "[i, j, k] : n >= 3 and tsteps >= 1 }");
    EXPECT_ISL_EQ(expected("[tsteps, n] -> { " + std::string(name) +
                           "[i, j, k] : 0 <= i < n and 0 <= j < n and "
                           "0 <= k < n }")
                      .intersect(active),
                  elements(name, t->in).intersect(active));
    EXPECT_ISL_EQ(expected("[tsteps, n] -> { " + std::string(name) +
                           "[i, j, k] : n >= 3 and tsteps >= 1 and "
                           "1 <= i < n - 1 and 0 <= j < n and 0 <= k < n }"),
                  elements(name, t->out));
  }
}

TEST_F(TransfersTest, GemmCopiesCBothWaysAndAAndBIn) {
  translate("gemm.c");
  std::vector<std::string> in = copiedIn();
  std::sort(in.begin(), in.end());
  EXPECT_EQ((std::vector<std::string>{"A", "B", "C"}), in);
  EXPECT_FALSE(transfer("A")->toHost);
  EXPECT_FALSE(transfer("B")->toHost);
  EXPECT_ISL_EQ(
      expected("[ni, nj, nk] -> { C[i, j] : 0 <= i < ni and 0 <= j < nj }"),
      elements("C", transfer("C")->out));
  EXPECT_EQ(polyhedral::Transfer::In::LiveIn, transfer("A")->inWhy);
}

TEST_F(TransfersTest, SyrkCopiesTheTriangleOfCInBandsOfRows) {
  translate("syrk.c");
  const polyhedral::Transfer *c = transfer("C");
  ASSERT_TRUE(c);
  ASSERT_TRUE(c->in.banded());
  ASSERT_TRUE(c->out.banded());
  // A band of rows [bf, bl] writes C[i][0..i] for its rows: its box is
  // rows bf..bl, columns 0..bl, both ways (the part above the diagonal
  // goes in so that its host values come back).
  const std::string band = "[n, m, polycuda_band_first, polycuda_band_last] "
                           "-> { C[i, j] : ";
  const std::string rows = "0 <= polycuda_band_first <= polycuda_band_last < n";
  for (const polyhedral::ElementBox *box : {&c->in, &c->out}) {
    isl::space space = isl::set(ctx(), band + "0 = 0 }").get_space();
    isl::set set = isl::set::universe(space)
                       .intersect_params(*box->bandContext)
                       .intersect(isl::set(ctx(), band + rows + " }"));
    for (size_t d = 0; d < box->bandLower.size(); ++d) {
      isl::pw_aff index = polyhedral::variableOn(space, d);
      set = set.intersect(index.ge_set(
                              polyhedral::liftToSpace(box->bandLower[d], space)))
                .intersect(index.le_set(
                    polyhedral::liftToSpace(box->bandUpper[d], space)));
    }
    EXPECT_ISL_EQ(isl::set(ctx(), band + rows +
                                      " and polycuda_band_first <= i <= "
                                      "polycuda_band_last and 0 <= j <= "
                                      "polycuda_band_last }")
                      .intersect_params(*box->bandContext),
                  set);
  }
  EXPECT_TRUE(c->out.banded());
  // A's box is the rectangle it reads: no bands.
  ASSERT_TRUE(transfer("A"));
  EXPECT_FALSE(transfer("A")->in.banded());
  at("polycuda_cuda_copy_boxes_to_device(dev_C");
  at("polycuda_cuda_copy_boxes_to_host((void *)(C), dev_C");
  at("polycuda_cuda_copy_box_to_device(dev_A");
}

TEST_F(TransfersTest, GemmCopiesRectanglesWithoutBands) {
  translate("gemm.c");
  for (const polyhedral::Transfer &t :
       translation.regions.front().program.transfers) {
    EXPECT_FALSE(t.in.banded()) << scop().arrays[t.array].name;
    EXPECT_FALSE(t.out.banded()) << scop().arrays[t.array].name;
  }
}

TEST_F(TransfersTest, LuNeverCopiesBackRowZero) {
  translate("lu.c");
  const polyhedral::Transfer *t = transfer("A");
  ASSERT_TRUE(t);
  EXPECT_ISL_EQ(expected("[n] -> { A[i, j] : 1 <= i < n and 0 <= j < n }"),
                elements("A", t->out));
  // With n = 1 nothing is read or written.
  EXPECT_ISL_EQ(
      expected("[n] -> { A[i, j] : n >= 2 and 0 <= i < n and 0 <= j < n }"),
      elements("A", t->in));
}

TEST_F(TransfersTest, InteriorWritesCopyBoxesAndSkipWrittenFirstArrays) {
  translate("interior.c", polyhedral::TransferMethod::Staged);
  // B is only written, inside a border; T is written in full before it
  // is read: neither is copied in.
  const polyhedral::Transfer *b = transfer("B");
  ASSERT_TRUE(b);
  EXPECT_FALSE(b->toDevice);
  EXPECT_EQ(polyhedral::Transfer::In::WrittenFirst, b->inWhy);
  EXPECT_ISL_EQ(
      expected("[n, m, k] -> { B[i, j] : 1 <= i < n - 1 and 1 <= j < m - 1 }"),
      elements("B", b->out));
  EXPECT_FALSE(transfer("T")->toDevice);
  // C: a 3-D box in and out.
  const polyhedral::Transfer *c = transfer("C");
  ASSERT_TRUE(c);
  isl::set box = expected("[n, m, k] -> { C[p, i, j] : 1 <= p < k - 1 and "
                          "2 <= i < n - 2 and 1 <= j < m - 1 }");
  EXPECT_ISL_EQ(box, elements("C", c->in));
  EXPECT_ISL_EQ(box, elements("C", c->out));
  EXPECT_EQ(polyhedral::TransferMethod::Staged, c->method);
  // The printed copies are box copies with the chosen method.
  EXPECT_NE(std::string::npos,
            translation.text.find("polycuda_cuda_copy_box_to_host((void *)(B)"));
  EXPECT_NE(std::string::npos, translation.text.find("POLYCUDA_TRANSFERS_STAGED"));
  EXPECT_EQ(std::string::npos,
            translation.text.find("polycuda_cuda_copy_box_to_device(dev_B"));
}

// 3mm computes F = C D first, then E = A B, then G = E F. C and D are
// copied in before F's kernel, A and B after it and before E's (their
// packing overlaps F's kernel).
TEST_F(TransfersTest, ThreeMmCopiesEachArrayInBeforeItsFirstKernel) {
  translate("3mm.c");
  size_t copyC = at("polycuda_cuda_copy_box_to_device(dev_C");
  size_t copyD = at("polycuda_cuda_copy_box_to_device(dev_D");
  size_t copyA = at("polycuda_cuda_copy_box_to_device(dev_A");
  size_t copyB = at("polycuda_cuda_copy_box_to_device(dev_B");
  size_t kernelF = launchOf("dev_F, dev_C, dev_D");
  size_t kernelE = launchOf("dev_E, dev_A, dev_B");
  EXPECT_LT(copyC, kernelF);
  EXPECT_LT(copyD, kernelF);
  EXPECT_LT(kernelF, copyA);
  EXPECT_LT(kernelF, copyB);
  EXPECT_LT(copyA, kernelE);
  EXPECT_LT(copyB, kernelE);
}

// Every array copied out once all kernels are launched, in the order of
// their last writers, each marked written after its writer: F (kernel 0)
// and E (kernel 1) wait for those only and leave while G is computed; G,
// written last, is not marked.
TEST_F(TransfersTest, ThreeMmMarksEachArrayWrittenAfterItsLastWriter) {
  translate("3mm.c");
  size_t kernelF = launchOf("dev_F, dev_C, dev_D");
  size_t kernelE = launchOf("dev_E, dev_A, dev_B");
  size_t kernelG = launchOf("dev_E, dev_F, dev_G");
  size_t markF = at("polycuda_cuda_mark_written(dev_F");
  size_t markE = at("polycuda_cuda_mark_written(dev_E");
  size_t outF = at("polycuda_cuda_copy_box_to_host((void *)(F), dev_F");
  size_t outE = at("polycuda_cuda_copy_box_to_host((void *)(E), dev_E");
  size_t outG = at("polycuda_cuda_copy_box_to_host((void *)(G), dev_G");
  EXPECT_LT(kernelF, markF);
  EXPECT_LT(markF, at("polycuda_cuda_copy_box_to_device(dev_A"));
  EXPECT_LT(kernelE, markE);
  EXPECT_LT(markE, kernelG);
  EXPECT_LT(kernelG, outF);
  EXPECT_LT(outF, outE);
  EXPECT_LT(outE, outG);
  EXPECT_EQ(std::string::npos,
            translation.text.find("polycuda_cuda_mark_written(dev_G"));
}

// The same decisions in the record that placeTransfers leaves for the host
// printer (TransferPlacement), per top-level part of the host AST: the
// printer only prints them.
TEST_F(TransfersTest, ThreeMmPlacementIsARecord) {
  translate("3mm.c");
  polyhedral::GpuProgram &program = translation.regions.front().program;
  auto names = [&](const std::vector<unsigned> &transfers) {
    std::vector<std::string> result;
    for (unsigned i : transfers)
      result.push_back(scop().arrays[program.transfers[i].array].name);
    return result;
  };
  const polyhedral::TransferPlacement &place = program.placement;
  ASSERT_EQ(polyhedral::topLevelParts(program.host).size() + 1,
            place.copyInBefore.size());
  ASSERT_LE(3u, place.markWrittenAfter.size());
  std::vector<std::string> in0 = names(place.copyInBefore[0]);
  std::vector<std::string> in1 = names(place.copyInBefore[1]);
  std::sort(in0.begin(), in0.end());
  std::sort(in1.begin(), in1.end());
  EXPECT_EQ((std::vector<std::string>{"C", "D"}), in0);
  EXPECT_EQ((std::vector<std::string>{"A", "B"}), in1);
  EXPECT_EQ(std::vector<std::string>{"F"}, names(place.markWrittenAfter[0]));
  EXPECT_EQ(std::vector<std::string>{"E"}, names(place.markWrittenAfter[1]));
  EXPECT_EQ((std::vector<std::string>{"F", "E", "G"}),
            names(place.copyOutOrder));
  // Placed again from the same host AST: the same record.
  polyhedral::TransferPlacement before = place;
  polyhedral::placeTransfers(program);
  EXPECT_EQ(before.copyInBefore, program.placement.copyInBefore);
  EXPECT_EQ(before.copyOutOrder, program.placement.copyOutOrder);
}

} // namespace
} // namespace polycuda::test
