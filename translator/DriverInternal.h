//===- DriverInternal.h - Shared by Driver.cpp and its parts --*-*- C++ -*-===//
//
// Private to the command line: the options (LLVM's cl) and what they settle
// into, the translation's result as the steps after it see it, and the
// entry points of Driver_Options.cpp (checking the options),
// Driver_Translate.cpp (the guarded translation) and Driver_Run.cpp
// (`polycuda run`).
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_TRANSLATOR_DRIVERINTERNAL_H
#define POLYCUDA_TRANSLATOR_DRIVERINTERNAL_H

#include "Pipeline.h"
#include "ScopBuilder.h"

#include <llvm/Support/CommandLine.h>

#include <string>
#include <utility>
#include <vector>

namespace polycuda::translator::driver {

namespace cl = llvm::cl;

/// The category of every polycuda option (the others are removed).
extern cl::OptionCategory category;


/// Processor time the translation may take before it is done again with
/// the cheapest fallbacks (--cpu-budget): with those, random programs
/// translate in about 2 s at most on the 2-core development machine
/// (bench/translation/measure.sh at 20731c6), while the slowest
/// PolyBench kernel (deriche, 0.7-1 s with --explain, loaded or not)
/// stays clear of it.
/// Sanitizers slow isl down several times: they get more.
/// A translation that tiles a wavefront (kTiledWavefrontNote) gets more:
/// isl's code for the tiles takes 0.6-0.8 s of seidel-2d's 1.0-1.3 s;
/// past the larger budget, it is translated again without them.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr unsigned kTranslationCpuBudgetMs = 15000;
inline constexpr unsigned kTiledWavefrontCpuMs = 10000;
#else
inline constexpr unsigned kTranslationCpuBudgetMs = 1200;
inline constexpr unsigned kTiledWavefrontCpuMs = 1000;
#endif

/// polycuda's command-line options, registered while an Options lives.

struct Options {
  cl::opt<std::string> input{cl::Positional, cl::desc("<input.c>"),
                             cl::cat(category)};
  cl::list<std::string> extraInputs{
      cl::Positional, cl::desc("[more.c ...] (polycuda run only)"),
      cl::cat(category)};
  cl::opt<std::string> output{"o", cl::desc("Output file"),
                              cl::value_desc("file"), cl::cat(category)};
  cl::opt<std::string> hostOutput{
      "host-output",
      cl::desc("With --target=cuda, the host file (C) that calls the .cu "
               "file; default: the output with extension .host.c"),
      cl::value_desc("file"), cl::cat(category)};
  cl::opt<std::string> target{
      "target", cl::desc("Output language: cuda (default), opencl or c"),
      cl::init(""), cl::cat(category)};
  cl::list<std::string> includes{"I", cl::Prefix, cl::desc("Include directory"),
                                 cl::value_desc("dir"), cl::cat(category)};
  cl::list<std::string> defines{"D", cl::Prefix, cl::desc("Macro definition"),
                                cl::value_desc("name[=value]"),
                                cl::cat(category)};
  cl::opt<std::string> sizes{
      "sizes",
      cl::desc("Block sizes per kernel in x,y,z order, the kernel named by "
               "its statements or its position, e.g. "
               "'S0_S1=32,8;kernel1=256'; 'all=...' sets every kernel"),
      cl::init(""), cl::cat(category)};
  // The GPU the block sizes are fitted to (polyhedral/DeviceModel.h).
  cl::opt<unsigned> gpuSms{
      "gpu-sms",
      cl::desc("SMs of the GPU the default block sizes are fitted to "
               "(default 132, an H100): a kernel whose parallel loops give "
               "fewer blocks gets smaller blocks, down to one warp"),
      cl::value_desc("N"), cl::init(polyhedral::DeviceModel().multiprocessors),
      cl::cat(category)};
  cl::opt<unsigned> gpuThreadsPerSm{
      "gpu-threads-per-sm",
      cl::desc("Threads resident per SM on that GPU (default 2048): "
               "default blocks hold no more"),
      cl::value_desc("N"),
      cl::init(polyhedral::DeviceModel().maxThreadsPerMultiprocessor),
      cl::cat(category)};
  cl::opt<unsigned> gpuThreadsPerBlock{
      "gpu-threads-per-block",
      cl::desc("Threads per block at most on that GPU (default 1024): "
               "larger default blocks are halved"),
      cl::value_desc("N"),
      cl::init(polyhedral::DeviceModel().maxThreadsPerBlock),
      cl::cat(category)};
  cl::opt<unsigned> gpuWarpSize{
      "gpu-warp-size",
      cl::desc("Threads per warp on that GPU (default 32): the smallest "
               "block the default sizes shrink to"),
      cl::value_desc("N"), cl::init(polyhedral::DeviceModel().warpSize),
      cl::cat(category)};
  cl::opt<bool> dumpSchedule{"dump-schedule",
                             cl::desc("Print the isl schedule tree of each "
                                      "scop (coincident = parallel)"),
                             cl::cat(category)};
  cl::opt<std::string> dumpAfter{
      "dump-after",
      cl::desc("Print the isl object after a stage: scop, dependences, "
               "schedule, mapping, ast"),
      cl::init(""), cl::cat(category)};
  cl::opt<bool> explain{
      "explain",
      cl::desc("Print a report of every decision (dependences, parallel "
               "loops, schedule, mapping, memory) in source terms"),
      cl::cat(category)};
  cl::opt<bool> explainTree{
      "explain-tree",
      cl::desc("With --explain, also print isl's schedule tree"),
      cl::cat(category)};
  cl::opt<std::string> report{
      "report", cl::desc("Print the report in a format: text or json"),
      cl::init(""), cl::cat(category)};
  cl::opt<std::string> reportFile{
      "report-file",
      cl::desc("Write the report to this file instead of standard output"),
      cl::value_desc("file"), cl::init(""), cl::cat(category)};
  cl::opt<bool> emitCl{"emit-cl",
                       cl::desc("With --target=opencl, also write the kernels "
                                "to a .cl file"),
                       cl::cat(category)};
  cl::opt<bool> originalSchedule{
      "original-schedule",
      cl::desc("Keep the original loop order instead of isl's scheduler"),
      cl::cat(category)};
  cl::opt<bool> noRegisters{
      "no-registers",
      cl::desc("Keep every reference of a kernel in global memory (no "
               "register accumulators across the kernel's loops)"),
      cl::cat(category)};
  cl::opt<std::string> registerTiles{
      "register-tiles",
      cl::desc("on (default): each thread of a kernel such as gemm's "
               "computes several points of each mapped loop, their "
               "accumulators in registers (register tiling), where the "
               "device model expects it to pay; off: one point per thread"),
      cl::value_desc("on|off"), cl::init("on"), cl::cat(category)};
  cl::opt<std::string> tiledWavefronts{
      "tiled-wavefronts",
      cl::desc("on: a scop that is one wavefront of one statement "
               "(seidel-2d's 4t + 2i + j) runs as tiles: the wavefront and "
               "its parallel loops, skewed, are tiled, one launch per "
               "wavefront of tiles, each block running its tile's steps "
               "with its array in shared memory (default; past "
               "--cpu-budget, translated again without them); off: one "
               "launch per wavefront"),
      cl::value_desc("on|off"), cl::init("on"), cl::cat(category)};
  cl::opt<std::string> registerTile{
      "register-tile",
      cl::desc("Points per thread of the kernels that register tiling "
               "applies to, XxY (x first; e.g. 4x4), instead of the model's "
               "choice; implies --register-tiles=on"),
      cl::value_desc("XxY"), cl::init(""), cl::cat(category)};
  cl::opt<bool> noConstant{
      "no-constant",
      cl::desc("Read small read-only arrays that every thread of a block "
               "reads alike (a stencil's weights) from global or shared "
               "memory instead of constant memory"),
      cl::cat(category)};
  cl::opt<bool> noShared{
      "no-shared",
      cl::desc("Read every reference of a kernel from global memory (no "
               "shared-memory tiles)"),
      cl::cat(category)};
  cl::opt<std::string> stageUncoalesced{
      "stage-uncoalesced",
      cl::desc("Which arrays a kernel only reads, without reuse, and whose "
               "references consecutive threads read uncoalesced go through "
               "shared-memory tiles: blocks (default: once per block, in "
               "kernels without a loop to tile, a transposition's read), "
               "all (also per tile of a loop, mv's A[i][j]; the bare option "
               "means all) or off"),
      cl::value_desc("blocks|all|off"), cl::ValueOptional, cl::init("blocks"),
      cl::cat(category)};
  cl::opt<unsigned long> maxOperations{
      "schedule-max-operations",
      cl::desc("isl operations the scheduler may spend before falling back"),
      cl::init(20000000), cl::cat(category)};
  cl::opt<unsigned long> dependenceMaxOperations{
      "dependence-max-operations",
      cl::desc("isl operations the dependence analysis of a scop may spend "
               "before it falls back to the original order on one thread"),
      cl::init(polyhedral::kDependenceOperationLimit), cl::cat(category)};
  cl::opt<unsigned> cpuBudget{
      "cpu-budget",
      cl::desc("Milliseconds of processor time the translation may take "
               "before polycuda translates again with its cheapest correct "
               "fallbacks: original order on one thread, no memory "
               "promotion, copies of all that is accessed (0: no limit). "
               "A translation that tiles a wavefront gets 1 s more (10 s "
               "in sanitizer builds), "
               "and past that is translated again without the tiles"),
      cl::init(kTranslationCpuBudgetMs), cl::cat(category)};
  cl::opt<bool> verify{"verify",
                       cl::desc("Check '// expected-error {{...}}' comments "
                                "in the input instead of translating"),
                       cl::cat(category)};
  cl::opt<bool> verbose{"v", cl::desc("Print each stage's time"),
                        cl::cat(category)};
  cl::opt<unsigned> timeLimit{
      "time-limit",
      cl::desc("Seconds translation may take before polycuda gives up with "
               "an error (0: no limit)"),
      cl::init(60), cl::cat(category)};
  cl::opt<std::string> fpContract{
      "fp-contract",
      cl::desc("fast (default): the compilers may fuse a multiplication and "
               "an addition into one FMA; off: every operation rounds as in "
               "the sequential program (CUDA kernels multiply with "
               "__dmul_rn/__fmul_rn, OpenCL kernels say FP_CONTRACT OFF; "
               "'run' passes -fmad=false or -ffp-contract=off)"),
      cl::init("fast"), cl::cat(category)};
  cl::opt<std::string> transfers{
      "transfers",
      cl::desc("How host/device copies move their bytes: plain, staged "
               "or auto (default; the runtime picks by size)"),
      cl::init("auto"), cl::cat(category)};
  cl::opt<std::string> threadOrder{
      "thread-order",
      cl::desc("Order of the blocks of kernels with a 2-D (or 3-D) parallel "
               "space: linear (default), column:W[,zigzag] (columns of W "
               "elements along x, swept one after the other; zigzag: odd "
               "rows of a column reversed) or auto (column order where a "
               "cache model expects reuse across rows of blocks)"),
      cl::init("linear"), cl::cat(category)};
  cl::opt<std::string> persistent{
      "persistent",
      cl::desc("auto (default): with --target=cuda, a host loop that only "
               "launches kernels runs as one persistent kernel (one "
               "cooperative launch, a grid barrier between the former "
               "launches; the runtime falls back to the launches where the "
               "device cannot); off: one launch per kernel and iteration"),
      cl::init("auto"), cl::cat(category)};
  cl::opt<std::string> reductions{
      "reductions",
      cl::desc("on (default): the iterations of a reduction loop (x += e, "
               "x *= e, x = x + e, ...) that a kernel would run on one "
               "thread per element are shared by the threads of a block, "
               "which combine their partial results (the sums are "
               "reordered); off: each element's loop runs on one thread in "
               "the sequential order"),
      cl::init("on"), cl::cat(category)};
  cl::opt<std::string> expansion{
      "expansion",
      cl::desc("on (default): scalars and temporary arrays whose values "
               "never cross an iteration of the loops around them get a "
               "copy per iteration (privatization: doitgen's sum, ludcmp's "
               "w), so those loops can run in parallel; off: their reuse "
               "keeps the loops sequential (variables declared inside the "
               "scop stay private: C makes them new in every iteration)"),
      cl::value_desc("on|off"), cl::init("on"), cl::cat(category)};
  cl::opt<std::string> copyBands{
      "copy-bands",
      cl::desc("on (default): an array whose copied elements form a "
               "triangle (syrk's C) is copied in at most 16 bands of rows, "
               "each the box of its own elements; off: the box of all"),
      cl::value_desc("on|off"), cl::init("on"), cl::cat(category)};
  cl::opt<std::string> hostScalars{
      "host-scalars",
      cl::desc("on (default): statements outside every loop that access "
               "only scalars (deriche's coefficients) run in the host code; "
               "off: in one-thread kernels"),
      cl::value_desc("on|off"), cl::init("on"), cl::cat(category)};
  cl::opt<unsigned> sharedNeighbourhoodMin{
      "shared-neighbourhood-min",
      cl::desc("References of an array that a kernel only reads (a "
               "stencil's points) from which its block copies their "
               "neighbourhood into shared memory (default 9: a five-point "
               "stencil reads through the L1 cache)"),
      cl::init(9), cl::cat(category)};
  cl::opt<unsigned long> reductionHostLoopMin{
      "reduction-host-loop-min",
      cl::desc("With --reductions=on: a sequential loop that one thread "
               "would run goes to the host (a launch per iteration) when a "
               "reduction inside it has at least this many iterations per "
               "launch, or no bound at translation time (default 1024)"),
      cl::init(1024), cl::cat(category)};
  cl::list<std::string> compilerFlags{
      "Xcompiler", cl::desc("Extra flag for the compiler used by 'run'"),
      cl::cat(category)};
};


/// What the options ask for, checked.
struct Settings {
  std::string target;
  bool fpContract = true;
  std::string reportFormat;
  polyhedral::PipelineOptions pipeline;
  FrontendOptions frontend;
};


/// What the translation hands to the steps after it: the exit code when
/// it failed, else the report and the texts of the output files. Plain
/// text, so that it can come from a child process (translateGuarded).
struct Translated {
  int rc = 0;
  std::string report, text, hostText, clText;
};

/// Checks the options, in the order their errors are reported, into
/// `settings`; false after an error (Driver_Options.cpp).
bool settle(const Options &options, bool runMode, Settings &settings);

/// Whether `nvidia-smi -L` finds a CUDA device (Driver_Run.cpp).
bool haveCudaGpu();

/// Translates the input in a child process, again with fallbacks after a
/// crash or past the processor-time budget (Driver_Translate.cpp).
Translated translateGuarded(const Options &options, Settings settings);

/// polycuda run: builds the translation and runs it with `programArgs`;
/// returns the program's exit code (Driver_Run.cpp).
int buildAndRun(const Options &options, const Settings &settings,
                const Translated &result, const char *argv0,
                const std::vector<std::string> &programArgs);

/// Writes each `(path, text)` atomically: all or none (Driver.cpp).
bool writeFiles(const std::vector<std::pair<std::string, std::string>> &files);

} // namespace polycuda::translator::driver

#endif
