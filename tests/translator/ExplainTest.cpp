//===- ExplainTest.cpp - Key facts of --explain / --report=json -----------===//
//
// Pins what the report says, in source terms, for gemm, jacobi-2d (the time
// loop carries the dependences, the spatial loops are parallel), a loop with
// a carried RAW (not parallelized, the dependence named) and mv against tmv
// (the same product, coalesced or not), references through index arrays
// (may-accesses of the whole array), and the reductions whose loops the
// threads of a block share (which they are, and which not).
//
//===----------------------------------------------------------------------===//
#include "Reductions.h"
#include "Report.h"

#include "../polyhedral/IslTestSupport.h"

#include <algorithm>
#include <map>

namespace polycuda::test {
namespace {

namespace json = llvm::json;

const std::string kInputs =
    std::string(POLYCUDA_RUNTIME_SOURCE_DIR) + "/../inputs/";

class ExplainTest : public IslTest {
protected:
  /// The JSON report of `file` (an inputs/ name) or of `code`.
  json::Value report(const std::string &file, const std::string &code = "",
                     const std::string &target = "cuda") {
    translator::ParsedInput input;
    translator::FrontendOptions frontend;
    frontend.clangArgs = {dataset};
    bool parsed = code.empty()
                      ? translator::parseInput(kInputs + file, frontend, ctx(),
                                               input)
                      : translator::parseCode(code, file, frontend, ctx(),
                                              input);
    EXPECT_TRUE(parsed);
    if (!parsed)
      return nullptr;
    translator::TranslationOptions options;
    options.target = target;
    options.pipeline.mapping.blockSizes = sizes;
    options.pipeline.mapping.reductions = reductions;
    options.pipeline.mapping.reductionHostMinIterations = reductionHostMin;
    options.pipeline.mapping.tiledWavefronts = tiledWavefronts;
    options.pipeline.expansion = expansion;
    translator::Translation translation;
    EXPECT_TRUE(translator::translate(input, options, translation));
    translator::ReportOptions reportOptions;
    reportOptions.target = target;
    json::Value value = translator::reportJson(input, translation, reportOptions);
    // Both renderings come from one object; the text one must not fail.
    text = translator::reportText(input, translation, reportOptions);
    EXPECT_FALSE(text.empty());
    return value;
  }

  /// The text rendering of the last `report`.
  std::string text;

  /// The PolyBench size `report` translates inputs at, and `--sizes`.
  std::string dataset = "-DMINI_DATASET";
  std::map<std::string, std::vector<unsigned>> sizes;
  /// `--reductions`, `--reduction-host-loop-min`.
  bool reductions = true;
  long reductionHostMin = 1024;
  /// `--tiled-wavefronts`.
  bool tiledWavefronts = true;
  /// `--expansion`.
  bool expansion = true;

  /// The kernels of `scop` whose loop of `statement` the block's threads
  /// share as a reduction, by statement name.
  static std::map<std::string, const json::Object *>
  reductionsOf(const json::Object &scop) {
    std::map<std::string, const json::Object *> found;
    for (const json::Value &k : *scop.getArray("kernels"))
      if (const json::Object *r = k.getAsObject()->getObject("reduction"))
        found[str(r->get("statement"))] = k.getAsObject();
    return found;
  }

  static const json::Object &scop(const json::Value &report) {
    return *report.getAsObject()->getArray("scops")->front().getAsObject();
  }

  static std::string str(const json::Value *v) {
    if (!v)
      return "<missing>";
    if (auto s = v->getAsString())
      return s->str();
    std::string text;
    llvm::raw_string_ostream os(text);
    os << *v;
    return os.str();
  }

  /// The source loops with `iterator`, as (parallel, carried dependences).
  static std::vector<const json::Object *> loops(const json::Object &scop,
                                                 const std::string &iterator) {
    std::vector<const json::Object *> result;
    for (const json::Value &v : *scop.getArray("loops"))
      if (str(v.getAsObject()->get("iterator")) == iterator)
        result.push_back(v.getAsObject());
    return result;
  }

  static const json::Object &dependence(const json::Object &scop, int64_t id) {
    return *(*scop.getArray("dependences"))[id].getAsObject();
  }

  /// The reference `text` of the first kernel that has it.
  static const json::Object *reference(const json::Object &scop,
                                       const std::string &text,
                                       const std::string &kind = "read") {
    for (const json::Value &k : *scop.getArray("kernels"))
      for (const json::Value &r : *k.getAsObject()->getArray("references"))
        if (str(r.getAsObject()->get("reference")) == text &&
            str(r.getAsObject()->get("kind")) == kind)
          return r.getAsObject();
    return nullptr;
  }

  /// Per statement, the mapped member on hardware dimension `hw` of kernel.
  static std::string mappedLoop(const json::Object &kernel,
                                const std::string &hw,
                                const std::string &statement) {
    for (const json::Value &m : *kernel.getArray("mapped"))
      if (str(m.getAsObject()->get("hardware")) == hw)
        return str(m.getAsObject()->getObject("schedule")->get(statement));
    return "<unmapped>";
  }
};

TEST_F(ExplainTest, GemmParallelLoopsMappingAndReferences) {
  // At LARGE sizes the default 32 x 8 blocks give every SM blocks.
  dataset = "-DLARGE_DATASET";
  json::Value value = report("gemm.c");
  const json::Object &s = scop(value);
  // i and j are parallel; k carries the RAW on C (distance 1 along k).
  ASSERT_EQ(1u, loops(s, "i").size());
  EXPECT_TRUE(*loops(s, "i")[0]->getBoolean("parallel"));
  for (const json::Object *j : loops(s, "j"))
    EXPECT_TRUE(*j->getBoolean("parallel"));
  ASSERT_EQ(1u, loops(s, "k").size());
  const json::Object &k = *loops(s, "k")[0];
  EXPECT_FALSE(*k.getBoolean("parallel"));
  bool rawOnC = false;
  for (const json::Value &id : *k.getArray("carries")) {
    const json::Object &dep = dependence(s, *id.getAsInteger());
    if (str(dep.get("type")) == "RAW" && str(dep.get("array")) == "C") {
      rawOnC = true;
      EXPECT_EQ("[\"=\",\"<\",\"=\"]", str(dep.get("direction")));
      EXPECT_EQ("[0,1,0]", str(dep.get("distance")));
      EXPECT_EQ("k", str(dep.getObject("carried_by")->get("iterator")));
    }
  }
  EXPECT_TRUE(rawOnC);

  // One kernel: i on y, j on x (coalesced B and C), k inside the kernel.
  const json::Array &kernels = *s.getArray("kernels");
  ASSERT_EQ(1u, kernels.size());
  const json::Object &kernel = *kernels[0].getAsObject();
  EXPECT_EQ(0, *kernel.getInteger("host_loops"));
  EXPECT_EQ("j", mappedLoop(kernel, "x", "S1"));
  EXPECT_EQ("i", mappedLoop(kernel, "y", "S1"));
  EXPECT_EQ("[32,8]", str(kernel.get("block")));
  const json::Object &sizing = *kernel.getObject("block_size_detail");
  EXPECT_EQ("default", str(sizing.get("source")));
  EXPECT_EQ("[1100,1000]", str(sizing.get("extent_bound")));
  EXPECT_EQ("4375", str(sizing.get("blocks")));

  // A and B through shared tiles per 32 iterations of k (the pattern is
  // that of their global accesses), C[i][j] in a register across k.
  const json::Object *b = reference(s, "B[k][j]");
  ASSERT_NE(nullptr, b);
  EXPECT_EQ("shared", str(b->get("memory")));
  EXPECT_EQ("coalesced", str(b->get("pattern")));
  EXPECT_EQ("[\"y\"]", str(b->get("reused_along")));
  const json::Object *a = reference(s, "A[i][k]");
  ASSERT_NE(nullptr, a);
  EXPECT_EQ("shared", str(a->get("memory")));
  EXPECT_EQ("broadcast", str(a->get("pattern")));
  const json::Object *c = reference(s, "C[i][j]", "write");
  ASSERT_NE(nullptr, c);
  EXPECT_EQ("register", str(c->get("memory")));
  EXPECT_EQ("coalesced", str(c->get("pattern")));
  const json::Object &shared = *kernel.getObject("shared");
  EXPECT_EQ("k", str(shared.get("loop")));
  EXPECT_EQ("32", str(shared.get("tile_size")));
  ASSERT_EQ(2u, shared.getArray("tiles")->size());
  const json::Object &aTile = *(*shared.getArray("tiles"))[0].getAsObject();
  EXPECT_EQ("A", str(aTile.get("array")));
  EXPECT_EQ("[8,32]", str(aTile.get("box")));
  // One point per thread: at LARGE the tiles would leave too few blocks
  // (RegisterTileTest).
  const json::Object &tile = *kernel.getObject("register_tile");
  EXPECT_EQ("[1,1]", str(tile.get("points")));
  EXPECT_EQ(0u, str(tile.get("why")).rfind("too few blocks", 0))
      << str(tile.get("why"));
  EXPECT_NE(std::string::npos,
            text.find("    register tile: none, too few blocks"))
      << text;
  EXPECT_EQ("0", str(aTile.get("padding")));
  const json::Array &accumulators = *kernel.getArray("accumulators");
  ASSERT_EQ(1u, accumulators.size());
  EXPECT_EQ("C", str(accumulators[0].getAsObject()->get("array")));
  EXPECT_EQ("k", str(accumulators[0].getAsObject()->get("loop")));

  // The traffic estimate is exact for the rectangular gemm domain.
  EXPECT_TRUE(*kernel.getBoolean("global_bytes_exact"));
  EXPECT_NE(std::string::npos,
            str(kernel.get("global_bytes_expression")).find("ni * nj * nk"));
}

// trmm at LARGE: the loop on j is bounded by n, a parameter, but B[M][N]
// with N = 1200 bounds it; 256 threads per block would give 5 blocks for
// 132 SMs, one warp gives 38.
TEST_F(ExplainTest, SmallParallelSpaceShrinksTheBlockAndSaysWhy) {
  // Without reductions trmm's first kernel maps j alone and runs i and k
  // on each thread (with them, see the next test).
  reductions = false;
  dataset = "-DLARGE_DATASET";
  json::Value value = report("trmm.c");
  const json::Object &s = scop(value);
  const json::Object &kernel = *(*s.getArray("kernels"))[0].getAsObject();
  EXPECT_EQ("j", mappedLoop(kernel, "x", "S0"));
  EXPECT_EQ("[32]", str(kernel.get("block")));
  EXPECT_EQ("[\"ceil((n) / 32)\"]", str(kernel.get("grid")));
  const json::Object &sizing = *kernel.getObject("block_size_detail");
  EXPECT_EQ("shrunk", str(sizing.get("source")));
  EXPECT_EQ("[256]", str(sizing.get("requested")));
  EXPECT_EQ("[1200]", str(sizing.get("extent_bound")));
  EXPECT_EQ("5", str(sizing.get("requested_blocks")));
  EXPECT_EQ("38", str(sizing.get("blocks")));
  EXPECT_EQ("132", str(sizing.get("multiprocessors")));
  EXPECT_EQ("32", str(sizing.get("warp_size")));
  EXPECT_NE(std::string::npos,
            str(sizing.get("reason")).find("5 block(s) of 256 for 132 SMs"))
      << str(sizing.get("reason"));
  // The kernel that scales B (1200 x 1000) keeps 32 x 8.
  const json::Object &scale = *(*s.getArray("kernels"))[1].getAsObject();
  EXPECT_EQ("[32,8]", str(scale.get("block")));
  EXPECT_EQ("default",
            str(scale.getObject("block_size_detail")->get("source")));

  // --sizes wins, and the report says so.
  sizes["S0"] = {64};
  json::Value forced = report("trmm.c");
  const json::Object &k0 =
      *(*scop(forced).getArray("kernels"))[0].getAsObject();
  EXPECT_EQ("[64]", str(k0.get("block")));
  EXPECT_EQ("sizes", str(k0.getObject("block_size_detail")->get("source")));
  EXPECT_EQ("--sizes", str(k0.getObject("block_size_detail")->get("reason")));
}

TEST_F(ExplainTest, TrmmRunsIOnTheHostSoThatLanesShareK) {
  // B[i][j] += A[k][i] * B[k][j] over k > i in the band [j, i, k]: j gives
  // 38 warps for 132 SMs, so i goes to the host (a launch per iteration,
  // or the phases of a persistent kernel) and the lanes of each block share
  // k, 32 along y.
  dataset = "-DLARGE_DATASET";
  json::Value value = report("trmm.c");
  const json::Object &s = scop(value);
  std::map<std::string, const json::Object *> found = reductionsOf(s);
  ASSERT_EQ(1u, found.count("S0"));
  const json::Object &kernel = *found["S0"];
  const json::Object &r = *kernel.getObject("reduction");
  EXPECT_EQ("B", str(r.get("array")));
  EXPECT_EQ("k", str(r.get("loop")));
  EXPECT_EQ("y", str(r.get("hardware")));
  EXPECT_EQ(32, *r.getInteger("lanes"));
  EXPECT_EQ("j", mappedLoop(kernel, "x", "S0"));
  EXPECT_EQ("[32,32]", str(kernel.get("block")));
  EXPECT_NE(std::string::npos, text.find("band 0 over S0 (host, permutable)"))
      << text;
  EXPECT_NE(std::string::npos, text.find("member 0 [S0: i] sequential"));
  EXPECT_NE(std::string::npos,
            text.find("kernel0 (S0): statements S0, launched in 1 host loop"));

  // A parallel loop that fills the GPU keeps the loops on its threads:
  // 40,000 columns give 1,250 warps.
  dataset = "-DLARGE_DATASET";
  json::Value wide = report("trmm.c", R"(
void trmm(int m, int n, double alpha, double A[100][100],
          double B[100][40000]) {
#pragma scop
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      for (int k = i + 1; k < m; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
#pragma endscop
}
)");
  EXPECT_TRUE(reductionsOf(scop(wide)).empty());
}

TEST_F(ExplainTest, AdiCoalescesOnlyTheColumnSweepsUAndV) {
  // Both sweeps run i on threads (j is the tridiagonal solves' sequential
  // loop). The column sweep reads u[j][i +- 1] and writes v[j][i] along
  // their rows, coalesced; p[i][j] and q[i][j] are a row apart in both
  // sweeps, and the row sweep's u[i][j] and v[i][j] too: no schedule of
  // adi coalesces them, and the arrays are written, so nothing stages them.
  dataset = "-DLARGE_DATASET";
  json::Value value = report("adi.c");
  const json::Object &s = scop(value);
  for (const char *coalesced : {"u[j][i - 1]", "u[j][i]", "u[j][i + 1]"}) {
    const json::Object *r = reference(s, coalesced);
    ASSERT_NE(nullptr, r) << coalesced;
    EXPECT_EQ("coalesced", str(r->get("pattern"))) << coalesced;
  }
  const json::Object *v = reference(s, "v[j][i]", "write");
  ASSERT_NE(nullptr, v);
  EXPECT_EQ("coalesced", str(v->get("pattern")));
  for (const char *strided : {"p[i][j]", "q[i][j]", "u[i][j]"}) {
    const json::Object *r = reference(s, strided, "write");
    ASSERT_NE(nullptr, r) << strided;
    EXPECT_EQ("strided", str(r->get("pattern"))) << strided;
    EXPECT_EQ("global", str(r->get("memory"))) << strided;
  }
  for (const json::Value &k : *s.getArray("kernels"))
    EXPECT_EQ("i", mappedLoop(*k.getAsObject(), "x",
                              str(&(*k.getAsObject()->getArray("statements"))[0])));
}

TEST_F(ExplainTest, TrmmPromotesItsAccumulatorsNotItsTiles) {
  // trmm's reduction kernel holds the lanes' partial results in shared
  // memory, not tiles; A[k][i] is one element per lane and launch
  // (broadcast along j); the scaling kernel reads and writes B[i][j]
  // once: no reuse to stage.
  dataset = "-DLARGE_DATASET";
  json::Value value = report("trmm.c");
  const json::Object &s = scop(value);
  const json::Object *a = reference(s, "A[k][i]");
  ASSERT_NE(nullptr, a);
  EXPECT_EQ("broadcast", str(a->get("pattern")));
  EXPECT_EQ("global", str(a->get("memory")));
  EXPECT_NE(std::string::npos,
            text.find("shared memory: none (a reduction kernel: its shared "
                      "memory holds the partial results)"))
      << text;
  const json::Object *scaled = reference(s, "B[i][j]", "write");
  ASSERT_NE(nullptr, scaled);
  EXPECT_NE("shared", str(scaled->get("memory")));
}

TEST_F(ExplainTest, SeidelWavefrontPutsTimeOnXForFewerCacheLines) {
  // On seidel-2d's wavefront 4t + 2i + j = c, no reference is coalesced
  // along t or i. Neighbours along i are a row apart (a warp touches 32
  // cache lines per reference), neighbours along t 4 elements apart in the
  // same row (8 lines): t goes to threadIdx.x. (One launch per wavefront,
  // as --tiled-wavefronts=off has it.)
  dataset = "-DLARGE_DATASET";
  tiledWavefronts = false;
  json::Value value = report("seidel_2d.c");
  const json::Object &s = scop(value);
  const json::Array &kernels = *s.getArray("kernels");
  ASSERT_EQ(1u, kernels.size());
  const json::Object &kernel = *kernels[0].getAsObject();
  EXPECT_EQ("t", mappedLoop(kernel, "x", "S0"));
  EXPECT_EQ("i", mappedLoop(kernel, "y", "S0"));
  const json::Object *a = reference(s, "A[i][j]", "write");
  ASSERT_NE(nullptr, a);
  EXPECT_EQ("strided", str(a->get("pattern")));
  EXPECT_NE(std::string::npos, str(a->get("reason")).find("4 elements apart"))
      << str(a->get("reason"));
}

TEST_F(ExplainTest, SeidelRunsAsTilesOfItsWavefront) {
  // 4t + 2i + j carries every dependence; with i skewed by t (t + i) no
  // distance is negative, so the three tile: each block runs 32 steps of
  // its 16 x 16 tile of (t, t + i), A in a shared tile that it copies in
  // and the elements it writes back.
  dataset = "-DLARGE_DATASET";
  json::Value value = report("seidel_2d.c");
  const json::Object &s = scop(value);
  const json::Array &kernels = *s.getArray("kernels");
  ASSERT_EQ(1u, kernels.size());
  const json::Object &kernel = *kernels[0].getAsObject();
  const json::Object *tile = kernel.getObject("wavefront_tile");
  ASSERT_NE(nullptr, tile);
  EXPECT_EQ("4 * t + 2 * i + j", str(tile->get("wavefront")));
  EXPECT_EQ("t, t + i", str(tile->get("members")));
  EXPECT_EQ(32, tile->getInteger("steps").getValueOr(0));
  const json::Array &sizes = *tile->getArray("tile");
  ASSERT_EQ(2u, sizes.size());
  EXPECT_EQ(16, sizes[0].getAsInteger().getValueOr(0));
  EXPECT_EQ(16, sizes[1].getAsInteger().getValueOr(0));
  const json::Object *a = reference(s, "A[i][j]", "write");
  ASSERT_NE(nullptr, a);
  EXPECT_EQ("shared", str(a->get("memory")));
  EXPECT_NE(std::string::npos, text.find("tiled wavefront: the host loop "
                                         "4 * t + 2 * i + j carries every "
                                         "dependence"))
      << text;
}

TEST_F(ExplainTest, OnlyWavefrontsTile) {
  // jacobi-2d's time loop is no wavefront (one loop, two statements): its
  // kernels keep one launch per time step.
  json::Value value = report("jacobi_2d.c");
  for (const json::Value &k : *scop(value).getArray("kernels"))
    EXPECT_EQ(nullptr, k.getAsObject()->getObject("wavefront_tile"));
}

TEST_F(ExplainTest, JacobiTimeLoopCarriesSpatialLoopsParallel) {
  json::Value value = report("jacobi_2d.c", "", "opencl");
  const json::Object &s = scop(value);
  ASSERT_EQ(1u, loops(s, "t").size());
  const json::Object &t = *loops(s, "t")[0];
  EXPECT_FALSE(*t.getBoolean("parallel"));
  EXPECT_FALSE(t.getArray("carries")->empty());
  bool raw = false;
  for (const json::Value &id : *t.getArray("carries"))
    raw |= str(dependence(s, *id.getAsInteger()).get("type")) == "RAW";
  EXPECT_TRUE(raw);
  for (const std::string &name : {"i", "j"}) {
    ASSERT_EQ(2u, loops(s, name).size()) << name;
    for (const json::Object *loop : loops(s, name))
      EXPECT_TRUE(*loop->getBoolean("parallel")) << name;
  }
  // t stays on the host; each sweep is a kernel launched inside it.
  const json::Array &kernels = *s.getArray("kernels");
  ASSERT_EQ(2u, kernels.size());
  for (const json::Value &k : kernels) {
    EXPECT_EQ(1, *k.getAsObject()->getInteger("host_loops"));
    EXPECT_EQ(2u, k.getAsObject()->getArray("mapped")->size());
  }
  bool hostBandOnT = false;
  for (const json::Value &b : *s.getObject("schedule")->getArray("bands"))
    if (str(b.getAsObject()->get("placement")) == "host") {
      const json::Object &member =
          *b.getAsObject()->getArray("members")->front().getAsObject();
      hostBandOnT = str(member.getObject("schedule")->get("S0")) == "t" &&
                    !*member.getBoolean("parallel");
    }
  EXPECT_TRUE(hostBandOnT);
}

TEST_F(ExplainTest, CarriedRawIsNamedAndNotParallelized) {
  const char *code = R"(
void prefix(int n, double x[100], double y[100]) {
#pragma scop
  for (int i = 1; i < n; i++)
    x[i] = x[i - 1] + y[i];
#pragma endscop
}
)";
  json::Value value = report("prefix.c", code);
  const json::Object &s = scop(value);
  ASSERT_EQ(1u, loops(s, "i").size());
  const json::Object &i = *loops(s, "i")[0];
  EXPECT_FALSE(*i.getBoolean("parallel"));
  ASSERT_EQ(1u, i.getArray("carries")->size());
  const json::Object &dep =
      dependence(s, *i.getArray("carries")->front().getAsInteger());
  EXPECT_EQ("RAW", str(dep.get("type")));
  EXPECT_EQ("x", str(dep.get("array")));
  EXPECT_EQ("[1]", str(dep.get("distance")));
  EXPECT_EQ(5, *dep.getObject("source")->getInteger("line"));

  // The kernel runs on one thread and names the RAW as the reason.
  const json::Array &kernels = *s.getArray("kernels");
  ASSERT_EQ(1u, kernels.size());
  const json::Object &kernel = *kernels[0].getAsObject();
  EXPECT_TRUE(kernel.getArray("mapped")->empty());
  bool named = false;
  for (const json::Value &id : *kernel.getArray("sequential_because"))
    named |= *id.getAsInteger() == *dep.getInteger("id");
  EXPECT_TRUE(named);
}

TEST_F(ExplainTest, DecreasingLoopCarriesItsDependences) {
  // j runs down: the dependences it carries go from j to j - 1, and the
  // report named none of them and called j parallel.
  const char *code = R"(
void down(int n, int m, double c[100][100]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = m - 1; j >= i; j--)
      c[i + 2][i] *= 0.75;
#pragma endscop
}
)";
  json::Value value = report("down.c", code);
  const json::Object &s = scop(value);
  ASSERT_EQ(1u, loops(s, "j").size());
  const json::Object &j = *loops(s, "j")[0];
  EXPECT_FALSE(*j.getBoolean("parallel"));
  ASSERT_EQ(3u, j.getArray("carries")->size());
  const json::Object &dep =
      dependence(s, *j.getArray("carries")->front().getAsInteger());
  EXPECT_EQ("RAW", str(dep.get("type")));
  EXPECT_EQ("[0,-1]", str(dep.get("distance")));
  EXPECT_TRUE(*loops(s, "i")[0]->getBoolean("parallel"));
}

TEST_F(ExplainTest, BlockScopedLocalsArePrivateWithoutExpansion) {
  // --expansion=off keeps the function's `s` shared (its loop stays
  // sequential), but `t` and `u`, declared in the loop bodies, are a new
  // object in every iteration: their loops run in parallel.
  expansion = false;
  const char *code = R"(
void blocks(int n, double a[100], double b[100], double c[100]) {
  double s;
#pragma scop
  for (int i = 0; i < n; i++) { double t = a[i] * 2.0; b[i] = t + 1.0; }
  for (int j = 0; j < n; j++) {
    double u[2];
    u[0] = a[j]; u[1] = u[0] * a[j];
    c[j] = u[0] + u[1];
  }
  for (int k = 0; k < n; k++) { s = a[k] + 1.0; c[k] += s; }
#pragma endscop
}
)";
  json::Value value = report("blocks.c", code);
  const json::Object &s = scop(value);
  EXPECT_TRUE(*loops(s, "i")[0]->getBoolean("parallel"));
  EXPECT_TRUE(*loops(s, "j")[0]->getBoolean("parallel"));
  EXPECT_FALSE(*loops(s, "k")[0]->getBoolean("parallel"));
}

TEST_F(ExplainTest, StatementsSayWhatPolycudaAdded) {
  // The stored condition of an if on data, the flag of a break on data
  // and the value a loop leaves in its variable are statements of the
  // model: each says what it stands for, and the rows stay parallel.
  const char *code = R"(
void search(int n, double A[100][100], int found[100], double B[100]) {
  int k;
#pragma scop
  for (int i = 0; i < n; i++) {
    found[i] = -1;
    for (int j = 0; j < n; j++) {
      if (A[i][j] > 0.5) {
        found[i] = j;
        break;
      }
    }
  }
  for (k = 0; k < n; k++)
    B[k] = 1.0;
  B[k] = 2.0;
#pragma endscop
}
)";
  json::Value value = report("search.c", code);
  const json::Object &s = scop(value);
  std::map<std::string, int> roles;
  for (const json::Value &v : *s.getArray("statements"))
    ++roles[str(v.getAsObject()->get("role"))];
  EXPECT_EQ(4, roles["source"]);
  EXPECT_EQ(1, roles["data_condition"]);
  EXPECT_EQ(1, roles["break_reset"]);
  EXPECT_EQ(1, roles["break_taken"]);
  // After the last iteration, and where the loop runs none.
  EXPECT_EQ(2, roles["iterator_exit"]);
  EXPECT_NE(std::string::npos, text.find("a break on data: its flag"));
  EXPECT_TRUE(*loops(s, "i")[0]->getBoolean("parallel"));
  EXPECT_FALSE(*loops(s, "j")[0]->getBoolean("parallel"));
}

TEST_F(ExplainTest, MvIsUncoalescedTmvIsCoalesced) {
  // One thread per element (no reduction lanes, see the next test).
  reductions = false;
  // mv: y[i] = sum_j A[i][j] x[j], threads along i walk down A's rows.
  json::Value mv = report("mv.c");
  const json::Object &mvScop = scop(mv);
  const json::Object *mvA = reference(mvScop, "A[i][j]");
  ASSERT_NE(nullptr, mvA);
  EXPECT_EQ("strided", str(mvA->get("pattern")));
  EXPECT_NE(std::string::npos, str(mvA->get("reason")).find("uncoalesced"));
  const json::Object *mvX = reference(mvScop, "x[j]");
  ASSERT_NE(nullptr, mvX);
  EXPECT_EQ("broadcast", str(mvX->get("pattern")));

  // tmv: y[j] = sum_i A[i][j] x[i], threads along j read along A's rows.
  json::Value tmv = report("tmv.c");
  const json::Object &tmvScop = scop(tmv);
  const json::Object *tmvA = reference(tmvScop, "A[i][j]");
  ASSERT_NE(nullptr, tmvA);
  EXPECT_EQ("coalesced", str(tmvA->get("pattern")));
}

TEST_F(ExplainTest, ReductionLanesReadMvCoalesced) {
  // With reductions, mv's j loop is a reduction of y[i]: a warp of lanes
  // along x shares it, and reads A[i][j] along its rows, coalesced.
  json::Value mv = report("mv.c");
  const json::Object &s = scop(mv);
  std::map<std::string, const json::Object *> found = reductionsOf(s);
  ASSERT_EQ(1u, found.count("S0"));
  const json::Object &kernel = *found["S0"];
  const json::Object &r = *kernel.getObject("reduction");
  EXPECT_EQ("y", str(r.get("array")));
  EXPECT_EQ("+", str(r.get("operation")));
  EXPECT_EQ("j", str(r.get("loop")));
  EXPECT_EQ("x", str(r.get("hardware")));
  EXPECT_EQ(32, *r.getInteger("lanes"));
  EXPECT_EQ("j", mappedLoop(kernel, "x", "S0"));
  EXPECT_EQ("i", mappedLoop(kernel, "y", "S0"));
  // One block along the lanes.
  EXPECT_EQ(1, *(*kernel.getArray("grid"))[0].getAsInteger());
  const json::Object *a = reference(s, "A[i][j]");
  ASSERT_NE(nullptr, a);
  EXPECT_EQ("coalesced", str(a->get("pattern")));
  const json::Object *y = reference(s, "y[i]", "write");
  ASSERT_NE(nullptr, y);
  EXPECT_EQ("register", str(y->get("memory")));
  EXPECT_NE(std::string::npos, str(y->get("reason")).find("reduction"));

  reductions = false;
  json::Value off = report("mv.c");
  EXPECT_TRUE(reductionsOf(scop(off)).empty());
}

TEST_F(ExplainTest, TmvLanesFillTheDevice) {
  // y[j] += A[i][j] * x[i]: threads along j (x), lanes along y share i.
  // The lanes grow from 8 to 32 while the blocks' threads fit the device
  // (132 SMs of 2,048 threads): 32 at 4,000 columns (125 blocks of 32),
  // 16 at 10,000 (313 blocks), 8 at 40,000 (1,250 blocks).
  for (auto [columns, lanes] : std::vector<std::pair<int, int>>{
           {4000, 32}, {10000, 16}, {40000, 8}}) {
    dataset = "-DN=" + std::to_string(columns);
    json::Value tmv = report("tmv.c");
    std::map<std::string, const json::Object *> found =
        reductionsOf(scop(tmv));
    ASSERT_EQ(1u, found.size()) << columns;
    const json::Object &r = *found.begin()->second->getObject("reduction");
    EXPECT_EQ("y", str(r.get("hardware"))) << columns;
    EXPECT_EQ(lanes, *r.getInteger("lanes")) << columns;
  }
  EXPECT_NE(std::string::npos, text.find("at most 40000 iterations"));
  dataset = "-DN=4000";
  report("tmv.c");
  EXPECT_NE(std::string::npos, text.find("32 lanes fill the device's threads"))
      << text;
}

TEST_F(ExplainTest, MvtReadsAAlongItsRowsInBothKernels) {
  // x1[i] += A[i][j] * y1[j] and x2[i] += A[j][i] * y2[j]: the first
  // kernel's lanes share j along x (A[i][j] along a row), the second maps
  // i to x (A[j][i] along a row); both read A coalesced. Without the
  // reductions the first reads A down its columns, uncoalesced.
  json::Value value = report("mvt.c");
  const json::Object &s = scop(value);
  const json::Object *a1 = reference(s, "A[i][j]");
  ASSERT_NE(nullptr, a1);
  EXPECT_EQ("coalesced", str(a1->get("pattern")));
  const json::Object *a2 = reference(s, "A[j][i]");
  ASSERT_NE(nullptr, a2);
  EXPECT_EQ("coalesced", str(a2->get("pattern")));
  reductions = false;
  json::Value off = report("mvt.c");
  const json::Object *a1off = reference(scop(off), "A[i][j]");
  ASSERT_NE(nullptr, a1off);
  EXPECT_EQ("strided", str(a1off->get("pattern")));
  const json::Object *a2off = reference(scop(off), "A[j][i]");
  ASSERT_NE(nullptr, a2off);
  EXPECT_EQ("coalesced", str(a2off->get("pattern")));
}

TEST_F(ExplainTest, ReductionsOfGramschmidtAndDurbin) {
  // gramschmidt: nrm += A[i][k] * A[i][k] over i (one thread before: 256
  // lanes now) and R[k][j] += Q[i][k] * A[i][j] over i (threads along j,
  // 8 lanes along y each).
  json::Value gs = report("gramschmidt.c");
  std::map<std::string, const json::Object *> found = reductionsOf(scop(gs));
  ASSERT_EQ(2u, found.size());
  ASSERT_EQ(1u, found.count("S1"));
  const json::Object &norm = *found["S1"]->getObject("reduction");
  EXPECT_EQ("i", str(norm.get("loop")));
  EXPECT_EQ("x", str(norm.get("hardware")));
  EXPECT_EQ(256, *norm.getInteger("lanes"));
  ASSERT_EQ(1u, found.count("S5"));
  const json::Object &dot = *found["S5"]->getObject("reduction");
  EXPECT_EQ("R", str(dot.get("array")));
  EXPECT_EQ("y", str(dot.get("hardware")));
  EXPECT_EQ("j", mappedLoop(*found["S5"], "x", "S5"));
  // durbin: sum += r[k - i - 1] * y[i] over i.
  json::Value durbin = report("durbin.c");
  bool sum = false;
  for (const auto &[name, kernel] : reductionsOf(scop(durbin)))
    sum |= str(kernel->getObject("reduction")->get("loop")) == "i";
  EXPECT_TRUE(sum);
}

TEST_F(ExplainTest, LongReductionsLeaveTheirSequentialLoopToTheHost) {
  // ludcmp's back substitution: for i (sequential) { w = y[i]; for j > i:
  // w -= A[i][j] * x[j]; x[i] = w / A[i][i]; } ran on one thread. At LARGE
  // (2,000 iterations of j at most) the i loop goes to the host and the
  // lanes of a block share each j loop.
  dataset = "-DLARGE_DATASET";
  auto backSubstitution = [&]() {
    json::Value value = report("ludcmp.c");
    for (const auto &[name, kernel] : reductionsOf(scop(value)))
      if (str(kernel->getObject("reduction")->get("loop")) == "j" &&
          *kernel->getInteger("host_loops") == 1)
        return true;
    return false;
  };
  EXPECT_TRUE(backSubstitution());
  // Below the threshold the loop stays in the one-thread kernel.
  reductionHostMin = 1000000;
  EXPECT_FALSE(backSubstitution());
}

TEST_F(ExplainTest, NussinovsMaximaAreOneReduction) {
  // Five statements take the maximum of table[i][j] and another value, the
  // fifth over k: one reduction, its lanes sharing k, the others' values
  // on the first lane.
  json::Value value = report("nussinov.c");
  const json::Object *kernel = nullptr;
  for (const json::Value &k : *scop(value).getArray("kernels"))
    if (k.getAsObject()->getObject("reduction"))
      kernel = k.getAsObject();
  ASSERT_NE(nullptr, kernel);
  const json::Object &r = *kernel->getObject("reduction");
  EXPECT_EQ("max", str(r.get("operation")));
  EXPECT_EQ("table", str(r.get("array")));
  EXPECT_EQ("k", str(r.get("loop")));
  EXPECT_EQ(5u, kernel->getArray("statements")->size());
  std::string statements = str(r.get("statement"));
  EXPECT_EQ(4, std::count(statements.begin(), statements.end(), ','));
  reductions = false;
  json::Value off = report("nussinov.c");
  EXPECT_TRUE(reductionsOf(scop(off)).empty());
}

TEST_F(ExplainTest, TrisolvSubstitutionIsAReductionWithIOnTheHost) {
  // trisolv: x[i] -= L[i][j] * x[j] for j < i. With i on the host (the
  // source's order) it reduces x[i] over j, reading only elements x[j]
  // that the launch does not write; with both loops in one launch it
  // reads what the launch writes. (polycuda's scheduler runs j on the host
  // and i in parallel instead, so no kernel of trisolv has the reduction.)
  translator::ParsedInput input;
  translator::FrontendOptions frontend;
  frontend.clangArgs = {dataset};
  ASSERT_TRUE(
      translator::parseInput(kInputs + "trisolv.c", frontend, ctx(), input));
  const polyhedral::Scop &s = *input.regions.at(0).scop;
  const polyhedral::Statement *update = nullptr;
  for (const polyhedral::Statement &stmt : s.statements)
    if (stmt.op == "-=")
      update = &stmt;
  ASSERT_NE(nullptr, update);
  std::optional<polyhedral::ReductionForm> form =
      polyhedral::reductionForm(*update);
  ASSERT_TRUE(form.has_value());
  EXPECT_EQ('+', form->op);
  EXPECT_EQ(2u, form->references.size()); // the read and the write of x[i]
  EXPECT_EQ(1u, form->others.size());     // x[j]
  isl::union_set instances(update->domain);
  isl::union_map byI(isl::map(
      ctx(), "{ " + update->name + "[i, j] -> [i] }"));
  EXPECT_TRUE(polyhedral::reductionIsLegal(*update, *form, instances, byI, byI));
  isl::union_map oneLaunch(isl::map(
      ctx(), "{ " + update->name + "[i, j] -> [] }"));
  EXPECT_FALSE(polyhedral::reductionIsLegal(*update, *form, instances,
                                            oneLaunch, byI));
}

TEST_F(ExplainTest, ReductionForms) {
  const char *code = R"(
#include <math.h>
void g(int n, int m, double A[50][60], double x[60], double p[50],
       double self[50], double sol[50], double L[50][50], double q[50],
       double mx[50], double mn[50], double mz[50], double bad[50]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      p[i] *= 1 + A[i][j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      self[i] = self[i] + self[i] * A[i][j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      q[i] = q[i] / A[i][j];
  for (int i = 0; i < 25; i++)
    for (int j = 0; j < 25; j++)
      sol[i] = sol[i] - L[i][j] * sol[j + 25];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      mx[i] = (A[i][j] > mx[i]) ? A[i][j] : mx[i];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      mn[i] = fmin(A[i][j], mn[i]);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      mz[i] = (mz[i] > A[i][j]) ? A[i][j] : mz[i];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      bad[i] = (bad[i] > A[i][j]) ? A[i][j] + 1 : bad[i];
#pragma endscop
}
)";
  json::Value value = report("forms.c", code);
  std::map<std::string, const json::Object *> found = reductionsOf(scop(value));
  // A product.
  ASSERT_EQ(1u, found.count("S0"));
  EXPECT_EQ("*", str(found["S0"]->getObject("reduction")->get("operation")));
  // Its operand reads the element it updates: not a reduction.
  EXPECT_EQ(0u, found.count("S1"));
  // Division does not associate.
  EXPECT_EQ(0u, found.count("S2"));
  // sol[i] = sol[i] - L[i][j] * sol[j + 25]: it reads other elements of
  // sol, none that the kernel writes.
  ASSERT_EQ(1u, found.count("S3"));
  const json::Object &r = *found["S3"]->getObject("reduction");
  EXPECT_EQ("+", str(r.get("operation")));
  EXPECT_NE(std::string::npos, str(r.get("why")).find("reads no element"));
  // Maxima and minima: a conditional that chooses the larger (smaller) of
  // x and e, whichever way it compares them, or fmax / fmin.
  ASSERT_EQ(1u, found.count("S4"));
  EXPECT_EQ("max", str(found["S4"]->getObject("reduction")->get("operation")));
  ASSERT_EQ(1u, found.count("S5"));
  EXPECT_EQ("min", str(found["S5"]->getObject("reduction")->get("operation")));
  ASSERT_EQ(1u, found.count("S6"));
  EXPECT_EQ("min", str(found["S6"]->getObject("reduction")->get("operation")));
  // Its branches are not the two operands it compares.
  EXPECT_EQ(0u, found.count("S7"));
}

TEST_F(ExplainTest, BitwiseCompoundAssignmentsAreReductions) {
  const char *code = R"(
void g(int n, int m, unsigned A[50][60], unsigned o[50], long x[50],
       unsigned char a[50], int r[50]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      o[i] |= A[i][j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      x[i] ^= A[i][j] << 3;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i] &= A[i][j] + 1;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      r[i] %= A[i][j] + 1;
#pragma endscop
}
)";
  json::Value value = report("bitwise.c", code);
  std::map<std::string, const json::Object *> found = reductionsOf(scop(value));
  ASSERT_EQ(1u, found.count("S0"));
  EXPECT_EQ("|", str(found["S0"]->getObject("reduction")->get("operation")));
  ASSERT_EQ(1u, found.count("S1"));
  EXPECT_EQ("^", str(found["S1"]->getObject("reduction")->get("operation")));
  ASSERT_EQ(1u, found.count("S2"));
  EXPECT_EQ("&", str(found["S2"]->getObject("reduction")->get("operation")));
  // A remainder does not associate.
  EXPECT_EQ(0u, found.count("S3"));
}

TEST_F(ExplainTest, NonAffineReferencesAreMayAccessesOfTheWholeArray) {
  const char *code = R"(
void g(int n, double x[100], double y[100], int idx[100], int h[16]) {
#pragma scop
  for (int i = 0; i < n; i++)
    y[i] = x[idx[i]];
  for (int j = 0; j < n; j++)
    h[idx[j] % 16] += 1;
#pragma endscop
}
)";
  json::Value value = report("indirect.c", code);
  const json::Object &s = scop(value);
  ASSERT_EQ(1u, loops(s, "i").size());
  EXPECT_TRUE(*loops(s, "i")[0]->getBoolean("parallel"));
  // Any two bin updates may hit one bin.
  ASSERT_EQ(1u, loops(s, "j").size());
  EXPECT_FALSE(*loops(s, "j")[0]->getBoolean("parallel"));

  const json::Object *x = reference(s, "x[idx[i]]");
  ASSERT_NE(nullptr, x);
  EXPECT_TRUE(*x->getBoolean("may_access"));
  EXPECT_EQ("irregular", str(x->get("pattern")));
  EXPECT_NE(std::string::npos,
            str(x->get("reason")).find("may access any element of x"))
      << str(x->get("reason"));
  const json::Object *index = reference(s, "idx[i]");
  ASSERT_NE(nullptr, index);
  EXPECT_FALSE(*index->getBoolean("may_access"));
  EXPECT_EQ("coalesced", str(index->get("pattern")));
  const json::Object *h = reference(s, "h[idx[j] % 16]", "write");
  ASSERT_NE(nullptr, h);
  EXPECT_TRUE(*h->getBoolean("may_access"));
}

} // namespace
} // namespace polycuda::test
