//===- Driver.cpp - The polycuda command line -----------------------------===//
//
// Parses options (LLVM's cl), runs the front end, the polyhedral pipeline and
// a printer per scop, and writes the output atomically (temporary file +
// rename) so that a failure never leaves a half-written file. `polycuda run`
// also builds the output with the target's compiler and runs it.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include "IslExtras.h"
#include "Isolated.h"
#include "Pipeline.h"
#include "Transfers.h"
#include "Report.h"
#include "ScopBuilder.h"
#include "Translation.h"

#include <isl/ctx.h>
#include <isl/printer.h>
#include <isl/schedule.h>

#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/Regex.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <unistd.h>
#include <set>
#include <sstream>

namespace polycuda::translator {

namespace cl = llvm::cl;

namespace {

/// Owns the isl context of one run (style: no global context).
class IslContext {
public:
  isl::ctx get() const { return isl::ctx(ctx.get()); }

private:
  std::shared_ptr<isl_ctx> ctx = polyhedral::makeSharedContext();
};

cl::OptionCategory category("polycuda options");

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
constexpr unsigned kTranslationCpuBudgetMs = 15000;
constexpr unsigned kTiledWavefrontCpuMs = 10000;
#else
constexpr unsigned kTranslationCpuBudgetMs = 1200;
constexpr unsigned kTiledWavefrontCpuMs = 1000;
#endif

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

std::string defaultOutput(const std::string &input, const std::string &target) {
  llvm::SmallString<256> path(input);
  llvm::sys::path::replace_extension(path, "");
  std::string stem = path.str().str();
  if (target == "cuda")
    return stem + ".polycuda.cu";
  return stem + ".polycuda.c";
}

/// Writes each `(path, text)`: first all to temporary files, then renames
/// them, so that an error leaves no file half-written and, before the
/// renames, none written at all.
bool writeFiles(const std::vector<std::pair<std::string, std::string>> &files) {
  std::vector<std::string> temporaries;
  auto fail = [&](const std::string &path) {
    llvm::errs() << "polycuda: error: cannot write '" << path << "'\n";
    for (const std::string &tmp : temporaries)
      std::remove(tmp.c_str());
    return false;
  };
  for (const auto &[path, text] : files) {
    std::string tmp = path + ".tmp" + std::to_string(::getpid());
    temporaries.push_back(tmp);
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    // Closed here so that an error while flushing (a full disk) is seen.
    out.close();
    if (out.fail())
      return fail(path);
  }
  for (size_t i = 0; i < files.size(); ++i)
    if (std::rename(temporaries[i].c_str(), files[i].first.c_str()) != 0)
      return fail(files[i].first);
  return true;
}

bool writeFile(const std::string &path, const std::string &text) {
  return writeFiles({{path, text}});
}

/// The CUDA target's host file: `out.cu` -> `out.host.c`.
std::string defaultHostOutput(const std::string &output) {
  llvm::SmallString<256> path(output);
  llvm::sys::path::replace_extension(path, "host.c");
  return path.str().str();
}

bool parseSizes(const std::string &text,
                polyhedral::GpuMappingOptions &mapping) {
  if (text.empty())
    return true;
  std::stringstream entries(text);
  std::string entry;
  while (std::getline(entries, entry, ';')) {
    // name[@N] = size[, size[, size]]; m[1] the name, m[3] the sizes.
    static const llvm::Regex pattern(
        "^[[:space:]]*([A-Za-z_][A-Za-z0-9_]*(@[0-9]+)?)[[:space:]]*=[[:space:]]*"
        "([0-9]+([[:space:]]*,[[:space:]]*[0-9]+){0,2})[[:space:]]*$");
    llvm::SmallVector<llvm::StringRef, 5> m;
    if (!pattern.match(entry, &m)) {
      llvm::errs() << "polycuda: error: invalid --sizes entry '" << entry
                   << "'; expected e.g. 'S0_S1=32,8' or 'kernel0=32,8'\n";
      return false;
    }
    std::vector<unsigned> sizes;
    std::stringstream values(m[3].str());
    std::string value;
    unsigned product = 1;
    while (std::getline(values, value, ',')) {
      // More than four digits is out of range (and may not fit stoul).
      value.erase(0, value.find_first_not_of(" \t"));
      value.erase(value.find_last_not_of(" \t") + 1);
      unsigned v = value.size() > 4 ? 1025 : std::stoul(value);
      if (v == 0 || v > 1024) {
        llvm::errs() << "polycuda: error: block size " << value
                     << " out of range 1..1024 in --sizes\n";
        return false;
      }
      product *= v;
      sizes.push_back(v);
    }
    if (product > 1024) {
      llvm::errs() << "polycuda: error: block of " << product
                   << " threads in --sizes exceeds 1024\n";
      return false;
    }
    if (m[1] == "all") {
      std::vector<unsigned> padded = sizes;
      mapping.default1D = {padded[0]};
      padded.resize(2, 1);
      mapping.default2D = padded;
      padded.resize(3, 1);
      mapping.default3D = padded;
      mapping.fitDefaults = false;
    } else {
      mapping.blockSizes[m[1].str()] = sizes;
    }
  }
  return true;
}

/// Where runtime/ sources are: $POLYCUDA_RUNTIME_DIR, the install tree next
/// to the executable, or the source tree this binary was built from.
std::string findRuntimeDir(const char *argv0) {
  if (const char *env = std::getenv("POLYCUDA_RUNTIME_DIR"))
    return env;
  std::string exe = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&findRuntimeDir));
  llvm::SmallString<256> installed(llvm::sys::path::parent_path(
      llvm::sys::path::parent_path(exe)));
  llvm::sys::path::append(installed, "share", "polycuda", "runtime");
  if (llvm::sys::fs::exists(installed))
    return installed.str().str();
  return POLYCUDA_RUNTIME_SOURCE_DIR;
}

int runCommand(const std::vector<std::string> &command, bool echo) {
  if (echo) {
    for (const std::string &arg : command)
      llvm::errs() << arg << " ";
    llvm::errs() << "\n";
  }
  auto program = llvm::sys::findProgramByName(command[0]);
  if (!program) {
    llvm::errs() << "polycuda: error: '" << command[0]
                 << "' not found in PATH\n";
    return 127;
  }
  std::vector<llvm::StringRef> args(command.begin(), command.end());
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(*program, args, llvm::None, {}, 0, 0,
                                     &error);
  if (rc < 0) {
    llvm::errs() << "polycuda: error: running '" << command[0]
                 << "' failed: " << error << "\n";
    return 126;
  }
  return rc;
}

bool haveCudaGpu() {
  auto smi = llvm::sys::findProgramByName("nvidia-smi");
  if (!smi)
    return false;
  std::vector<llvm::StringRef> args = {"nvidia-smi", "-L"};
  llvm::Optional<llvm::StringRef> redirects[] = {llvm::StringRef(""),
                                                 llvm::StringRef(""),
                                                 llvm::StringRef("")};
  return llvm::sys::ExecuteAndWait(*smi, args, llvm::None, redirects) == 0;
}

std::string cudaCompiler() {
  if (auto nvcc = llvm::sys::findProgramByName("nvcc"))
    return *nvcc;
  if (llvm::sys::fs::exists("/usr/local/cuda/bin/nvcc"))
    return "/usr/local/cuda/bin/nvcc";
  return "nvcc";
}

/// Unregisters every option that is neither polycuda's nor one of the
/// generic help and version options: LLVM's libraries register global
/// options of their own (e.g. --x86-asm-syntax, --fp-contract), which
/// would otherwise be accepted, hidden from --help, and ignored. Called
/// before polycuda's own options exist, since some share LLVM's names.
void removeForeignOptions() {
  static const std::set<std::string> generic = {
      "help",      "help-list", "help-hidden", "help-list-hidden",
      "version",   "h"};
  std::vector<cl::Option *> foreign;
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *option = entry.second;
    bool ours = std::find(option->Categories.begin(), option->Categories.end(),
                          &category) != option->Categories.end();
    if (!ours && !generic.count(entry.first().str()))
      foreign.push_back(option);
  }
  std::sort(foreign.begin(), foreign.end());
  foreign.erase(std::unique(foreign.begin(), foreign.end()), foreign.end());
  for (cl::Option *option : foreign)
    option->removeArgument();
}

/// The command line split for LLVM's parser: `args` (argv[0] first) are
/// polycuda's; with `run`, what follows `--` goes to the program.
struct CommandLine {
  bool runMode = false;
  std::vector<const char *> args;
  std::vector<std::string> programArgs;
};

CommandLine splitCommandLine(int argc, const char **argv) {
  CommandLine commandLine;
  commandLine.runMode = argc > 1 && std::string(argv[1]) == "run";
  commandLine.args = {argv[0]};
  for (int i = commandLine.runMode ? 2 : 1; i < argc; ++i) {
    if (commandLine.runMode && std::string(argv[i]) == "--") {
      for (int j = i + 1; j < argc; ++j)
        commandLine.programArgs.push_back(argv[j]);
      break;
    }
    commandLine.args.push_back(argv[i]);
  }
  return commandLine;
}

void printVersion(llvm::raw_ostream &os) {
  std::string isl = polyhedral::islVersion();
  os << "polycuda " << POLYCUDA_VERSION << " (" << isl << ", clang "
     << POLYCUDA_CLANG_VERSION << ")\n";
}

/// Parses the command line into the registered options (polycuda's
/// Options); false after an error was printed.
bool parseCommandLine(const CommandLine &commandLine) {
  cl::SetVersionPrinter(printVersion);
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(
          commandLine.args.size(), commandLine.args.data(),
          "polycuda: sequential C loop nests (#pragma scop) to CUDA, OpenCL "
          "or C/OpenMP\n\n  polycuda [options] input.c [-o out]\n  polycuda "
          "run [options] input.c [more.c ...] [-- program args]\n",
          &llvm::errs())) {
    llvm::errs() << "polycuda: error: invalid command line; see --help\n";
    return false;
  }
  return true;
}

/// What the options ask for, checked.
struct Settings {
  std::string target;
  bool fpContract = true;
  std::string reportFormat;
  polyhedral::PipelineOptions pipeline;
  FrontendOptions frontend;
};

/// Checks the input files and chooses the target; false after an error.
bool checkInputAndTarget(const Options &options, bool runMode,
                         std::string &target) {
  if (options.input.empty()) {
    llvm::errs() << "polycuda: error: no input file\n";
    return false;
  }
  if (!runMode && !options.extraInputs.empty()) {
    llvm::errs() << "polycuda: error: more than one input file; use "
                    "'polycuda run' to build extra sources\n";
    return false;
  }
  target = options.target;
  if (target.empty())
    target = runMode && !haveCudaGpu() ? "opencl" : "cuda";
  if (target != "cuda" && target != "opencl" && target != "c") {
    llvm::errs() << "polycuda: error: unknown target '" << target
                 << "'; use cuda, opencl or c\n";
    return false;
  }
  if (!llvm::sys::fs::exists(options.input)) {
    llvm::errs() << "polycuda: error: no such file: '" << options.input
                 << "'\n";
    return false;
  }
  return true;
}

/// --fp-contract and the report format; false after an error.
bool checkOutputOptions(const Options &options, Settings &settings) {
  if (options.fpContract != "fast" && options.fpContract != "off") {
    llvm::errs() << "polycuda: error: unknown --fp-contract '"
                 << options.fpContract << "'; use fast or off\n";
    return false;
  }
  settings.fpContract = options.fpContract == "fast";

  settings.reportFormat = options.report;
  if (options.explain && settings.reportFormat.empty())
    settings.reportFormat = "text";
  if (!settings.reportFormat.empty() && settings.reportFormat != "text" &&
      settings.reportFormat != "json") {
    llvm::errs() << "polycuda: error: unknown report format '"
                 << settings.reportFormat << "'; use text or json\n";
    return false;
  }
  return true;
}

/// The GPU of `--gpu-*`; false after an error.
bool deviceModel(const Options &options, polyhedral::DeviceModel &device) {
  const std::pair<const char *, unsigned> counts[] = {
      {"gpu-sms", options.gpuSms},
      {"gpu-threads-per-sm", options.gpuThreadsPerSm},
      {"gpu-threads-per-block", options.gpuThreadsPerBlock},
      {"gpu-warp-size", options.gpuWarpSize}};
  for (const auto &[name, value] : counts)
    if (value < 1 || value > (1u << 20)) {
      llvm::errs() << "polycuda: error: --" << name << "=" << value
                   << " out of range 1..1048576\n";
      return false;
    }
  device.multiprocessors = options.gpuSms;
  device.maxThreadsPerMultiprocessor = options.gpuThreadsPerSm;
  device.maxThreadsPerBlock = options.gpuThreadsPerBlock;
  device.warpSize = options.gpuWarpSize;
  return true;
}

/// The value of an on|off option in `out`; false after an error.
bool onOff(const cl::opt<std::string> &option, bool &out) {
  if (option != "on" && option != "off") {
    llvm::errs() << "polycuda: error: unknown --" << option.ArgStr << " '"
                 << option.getValue() << "'; expected on or off\n";
    return false;
  }
  out = option == "on";
  return true;
}

/// The options of the polyhedral pipeline; false after an error.
bool pipelineOptions(const Options &options,
                     polyhedral::PipelineOptions &pipeline) {
  pipeline.scheduling.useOriginal = options.originalSchedule;
  pipeline.registers = !options.noRegisters;
  if (!onOff(options.registerTiles, pipeline.mapping.registerTiles))
    return false;
  pipeline.mapping.registerTiles |= !options.registerTile.empty();
  if (!onOff(options.tiledWavefronts, pipeline.mapping.tiledWavefronts))
    return false;
  if (!options.registerTile.empty()) {
    unsigned x = 0, y = 0;
    char sep = 0, extra = 0;
    if (std::sscanf(options.registerTile.c_str(), "%u%c%u%c", &x, &sep, &y,
                    &extra) != 3 ||
        sep != 'x' || x < 1 || y < 1 || x > 16 || y > 16) {
      llvm::errs() << "polycuda: error: invalid --register-tile '"
                   << options.registerTile
                   << "'; expected XxY with 1 <= X, Y <= 16, e.g. 4x4\n";
      return false;
    }
    pipeline.mapping.registerTile = {x, y};
  }
  pipeline.shared = !options.noShared;
  pipeline.constant = !options.noConstant;
  const std::string &stage = options.stageUncoalesced;
  if (stage == "blocks") {
    pipeline.stageUncoalesced = polyhedral::StageUncoalesced::Blocks;
  } else if (stage == "all" || stage.empty()) {
    pipeline.stageUncoalesced = polyhedral::StageUncoalesced::All;
  } else if (stage == "off") {
    pipeline.stageUncoalesced = polyhedral::StageUncoalesced::Off;
  } else {
    llvm::errs() << "polycuda: error: unknown --stage-uncoalesced '" << stage
                 << "'; expected blocks, all or off\n";
    return false;
  }
  pipeline.scheduling.maxOperations = options.maxOperations;
  pipeline.dependenceMaxOperations = options.dependenceMaxOperations;
  pipeline.dumpAfter = options.dumpAfter;
  pipeline.verbose = options.verbose;
  pipeline.dumpStream = &std::cerr;
  if (!parseSizes(options.sizes, pipeline.mapping))
    return false;
  if (!deviceModel(options, pipeline.mapping.device))
    return false;
  std::string error;
  if (!polyhedral::parseThreadOrder(options.threadOrder,
                                    pipeline.mapping.threadOrder, error)) {
    llvm::errs() << "polycuda: error: invalid --thread-order '"
                 << options.threadOrder << "'; " << error << "\n";
    return false;
  }
  if (!onOff(options.reductions, pipeline.mapping.reductions) ||
      !onOff(options.expansion, pipeline.expansion) ||
      !onOff(options.copyBands, pipeline.copyBands) ||
      !onOff(options.hostScalars, pipeline.mapping.hostScalars))
    return false;
  pipeline.sharedNeighbourhoodMin =
      std::max(2u, options.sharedNeighbourhoodMin.getValue());
  pipeline.mapping.reductionHostMinIterations =
      static_cast<long>(std::min<unsigned long>(options.reductionHostLoopMin,
                                                1ul << 40));
  if (options.persistent != "auto" && options.persistent != "off") {
    llvm::errs() << "polycuda: error: unknown --persistent '"
                 << options.persistent << "'; use auto or off\n";
    return false;
  }
  pipeline.persistent.enabled = options.persistent == "auto";
  if (!pipeline.persistent.enabled)
    pipeline.persistent.disabledReason = "turned off (--persistent=off)";
  if (!polyhedral::parseTransferMethod(options.transfers, pipeline.transfers)) {
    llvm::errs() << "polycuda: error: unknown transfer method '"
                 << options.transfers
                 << "'; use plain, staged or auto\n";
    return false;
  }
  return true;
}

FrontendOptions frontendOptions(const Options &options) {
  FrontendOptions frontend;
  for (const std::string &dir : options.includes)
    frontend.clangArgs.push_back("-I" + dir);
  for (const std::string &def : options.defines)
    frontend.clangArgs.push_back("-D" + def);
  frontend.verify = options.verify;
  return frontend;
}

/// Checks the options, in the order their errors are reported; false after
/// an error.
bool settle(const Options &options, bool runMode, Settings &settings) {
  if (!checkInputAndTarget(options, runMode, settings.target) ||
      !checkOutputOptions(options, settings) ||
      !pipelineOptions(options, settings.pipeline))
    return false;
  settings.frontend = frontendOptions(options);
  return true;
}

/// isl's operation budgets bound most analyses, but not every one of
/// them tracks time well; this bounds the whole translation. Nothing has
/// been written when it fires: output files are written after it is
/// cancelled.
void startTimeLimit(unsigned seconds) {
  if (seconds == 0)
    return;
  std::signal(SIGALRM, [](int) {
    const char message[] = "polycuda: error: translation exceeded its time "
                           "limit (--time-limit); the scop is too complex "
                           "for polycuda\n";
    (void)!write(2, message, sizeof(message) - 1);
    _exit(1);
  });
  alarm(seconds);
}

TranslationOptions translationOptions(const Options &options,
                                      const Settings &settings) {
  TranslationOptions translation;
  translation.target = settings.target;
  translation.pipeline = settings.pipeline;
  translation.dumpSchedule = options.dumpSchedule;
  translation.emitCl = options.emitCl;
  translation.verbose = options.verbose;
  translation.fpContract = settings.fpContract;
  return translation;
}

/// The report in `settings.reportFormat` ("" without one); false after an
/// internal error was printed.
bool printReport(const ParsedInput &input, const Translation &result,
                 const Options &options, const Settings &settings,
                 std::string &reportOutput) {
  if (settings.reportFormat.empty())
    return true;
  ReportOptions reportOptions;
  reportOptions.target = settings.target;
  reportOptions.scheduleTree = options.explainTree;
  try {
    if (settings.reportFormat == "json") {
      llvm::raw_string_ostream os(reportOutput);
      os << llvm::formatv("{0:2}", reportJson(input, result, reportOptions))
         << "\n";
    } else {
      reportOutput = reportText(input, result, reportOptions);
    }
  } catch (const std::exception &e) {
    llvm::errs() << "polycuda: internal compiler error in the report: "
                 << e.what() << "\n";
    return false;
  }
  return true;
}

/// Writes the report to --report-file, or to standard output.
bool emitReport(const Options &options, const std::string &reportOutput) {
  if (reportOutput.empty())
    return true;
  if (!options.reportFile.empty())
    return writeFile(options.reportFile, reportOutput);
  std::cout << reportOutput << std::flush;
  return true;
}

/// translateInput's status when isl failed with an internal error (see
/// translateGuarded); never polycuda's own exit status.
constexpr int kIslFailedExit = 70;

/// What the translation hands to the steps after it: the exit code when
/// it failed, else the report and the texts of the output files. Plain
/// text, so that it can come from a child process (translateGuarded).
struct Translated {
  int rc = 0;
  std::string report, text, hostText, clText;
};

std::string encode(const Translated &t) {
  std::string out = std::to_string(t.rc) + "\n";
  for (const std::string *part : {&t.report, &t.text, &t.hostText, &t.clText})
    out += std::to_string(part->size()) + "\n" + *part;
  return out;
}

Translated decode(const std::string &text) {
  Translated t;
  size_t pos = text.find('\n');
  t.rc = std::stoi(text.substr(0, pos));
  for (std::string *part : {&t.report, &t.text, &t.hostText, &t.clText}) {
    size_t end = text.find('\n', ++pos);
    size_t size = std::stoul(text.substr(pos, end - pos));
    *part = text.substr(end + 1, size);
    pos = end + size;
  }
  return t;
}

/// Writes the output files of the translation; returns the exit code.
int writeOutputs(const Options &options, const std::string &target,
                 const Translated &result) {
  std::string out = options.output.empty()
                        ? defaultOutput(options.input, target)
                        : std::string(options.output);
  std::vector<std::pair<std::string, std::string>> files = {
      {out, result.text}};
  if (target == "cuda")
    files.push_back({options.hostOutput.empty()
                         ? defaultHostOutput(out)
                         : std::string(options.hostOutput),
                     result.hostText});
  if (!result.clText.empty()) {
    llvm::SmallString<256> clPath(out);
    llvm::sys::path::replace_extension(clPath, "cl");
    files.push_back({clPath.str().str(), result.clText});
  }
  for (size_t i = 0; i < files.size(); ++i) {
    bool clash = llvm::sys::fs::equivalent(options.input, files[i].first);
    for (size_t j = 0; j < i; ++j)
      clash |= files[j].first == files[i].first;
    if (clash) {
      llvm::errs() << "polycuda: error: output file '" << files[i].first
                   << "' would overwrite the input or another output\n";
      return 1;
    }
  }
  return writeFiles(files) ? 0 : 1;
}

/// The command that builds the translated `source` (and, for CUDA,
/// `hostSource`) with the runtime and the extra inputs into `binary`.
std::vector<std::string>
compileCommand(const Options &options, const Settings &settings,
               const std::string &runtimeDir, const std::string &source,
               const std::string &hostSource, const std::string &binary) {
  const std::string &target = settings.target;
  std::vector<std::string> command;
  if (target == "cuda") {
    // nvcc compiles the .c files as C with the host compiler.
    command = {cudaCompiler(), "-O2", "-arch=sm_90", "-I" + runtimeDir, source,
               hostSource, runtimeDir + "/polycuda_cuda.cu"};
  } else {
    command = {"cc", "-O2", "-std=gnu99", "-I" + runtimeDir, source};
    if (target == "opencl")
      command.push_back(runtimeDir + "/polycuda_opencl.c");
    else
      command.push_back("-fopenmp");
  }
  for (const std::string &extra : options.extraInputs)
    command.push_back(extra);
  for (const std::string &dirI : options.includes)
    command.push_back("-I" + dirI);
  for (const std::string &def : options.defines)
    command.push_back("-D" + def);
  if (!settings.fpContract)
    command.push_back(target == "cuda" ? "-fmad=false" : "-ffp-contract=off");
  for (const std::string &flag : options.compilerFlags)
    command.push_back(flag);
  command.push_back("-o");
  command.push_back(binary);
  if (target == "opencl")
    command.push_back("-lOpenCL");
  command.push_back("-lm");
  return command;
}

/// polycuda run: builds the translation in a temporary directory and runs
/// it with `programArgs`; returns the program's exit code.
int buildAndRun(const Options &options, const Settings &settings,
                const Translated &result, const char *argv0,
                const std::vector<std::string> &programArgs) {
  llvm::SmallString<128> dir;
  if (llvm::sys::fs::createUniqueDirectory("polycuda-run", dir)) {
    llvm::errs() << "polycuda: error: cannot create a temporary directory\n";
    return 1;
  }
  const std::string &target = settings.target;
  std::string runtimeDir = findRuntimeDir(argv0);
  std::string source = (dir + (target == "cuda" ? "/main.cu" : "/main.c")).str();
  std::string hostSource = (dir + "/main.host.c").str();
  std::string binary = (dir + "/program").str();
  std::vector<std::pair<std::string, std::string>> files = {
      {source, result.text}};
  if (target == "cuda")
    files.push_back({hostSource, result.hostText});
  if (!writeFiles(files))
    return 1;
  int rc = runCommand(compileCommand(options, settings, runtimeDir, source,
                                     hostSource, binary),
                      options.verbose);
  if (rc != 0) {
    llvm::errs() << "polycuda: error: building the translated program failed\n";
    llvm::sys::fs::remove_directories(dir);
    return 1;
  }
  std::vector<std::string> run = {binary};
  run.insert(run.end(), programArgs.begin(), programArgs.end());
  rc = runCommand(run, options.verbose);
  llvm::sys::fs::remove_directories(dir);
  return rc;
}

/// Parses and translates the input, and prints the report into the
/// result: everything that works with isl.
Translated translateInput(const Options &options, const Settings &settings) {
  Translated out;
  // A crash on demand, to test translateGuarded's retry without isl's help.
  const char *crash = std::getenv("POLYCUDA_CRASH_FOR_TESTING");
  if (crash && std::string(crash) == "1" &&
      !settings.pipeline.skipDependences)
    std::abort();
  startTimeLimit(options.timeLimit);
  IslContext isl;
  ParsedInput input;
  bool ok;
  {
    StageTimer timer(options.verbose, options.input + ": stage parse");
    ok = parseInput(options.input, settings.frontend, isl.get(), input);
  }
  Translation result;
  if (!ok || options.verify)
    out.rc = ok ? 0 : 1;
  else if (!translate(input, translationOptions(options, settings), result) ||
           !printReport(input, result, options, settings, out.report))
    out.rc = polyhedral::islFailedInternally() ? kIslFailedExit : 1;
  alarm(0);
  out.text = std::move(result.text);
  out.hostText = std::move(result.hostText);
  out.clText = std::move(result.clText);
  llvm::outs().flush();
  return out;
}

/// translateInput in a child process: isl 0.25 crashes on a few programs
/// (a segmentation fault in its dataflow analysis, random program 5004808).
/// After a crash the input is translated again without the dependence
/// analysis, so every scop keeps its original order on one thread; a
/// second crash is an internal error. The child has --cpu-budget of
/// processor time (isl's operation limits bound most analyses, but count
/// only its LP pivots, and some random programs took tens of seconds
/// within them): past it, the input is translated again with the cheapest
/// fallbacks (PipelineOptions::minimal), which are always right.
/// POLYCUDA_NO_FORK=1 translates in this process (for debuggers), unbounded.
Translated translateGuarded(const Options &options, Settings settings) {
  const char *noFork = std::getenv("POLYCUDA_NO_FORK");
  if (noFork && std::string(noFork) == "1") {
    Translated done = translateInput(options, settings);
    if (done.rc == kIslFailedExit)
      done.rc = 1;
    return done;
  }
  for (;;) {
    llvm::outs().flush();
    bool bounded = !settings.pipeline.skipDependences;
    unsigned budget = bounded ? unsigned(options.cpuBudget) : 0;
    polyhedral::ChildOutcome outcome = polyhedral::runInChild(
        [&] { return encode(translateInput(options, settings)); }, budget,
        [&](unsigned notes) {
          return notes & (1u << polyhedral::kTiledWavefrontNote)
                     ? budget + kTiledWavefrontCpuMs
                     : budget;
        });
    if (outcome.result) {
      Translated done = decode(*outcome.result);
      if (done.rc != kIslFailedExit)
        return done;
      // An internal error of isl: the memory corruption behind the crashes
      // below shows so too; the same remedy.
      if (settings.pipeline.skipDependences) {
        done.rc = 1;
        return done;
      }
      llvm::errs() << "polycuda: warning: " << options.input
                   << ": isl failed (internal error above); translating "
                      "again without the dependence analysis: every scop "
                      "keeps its original order on one thread\n";
      settings.pipeline.skipDependences = true;
      continue;
    }
    Translated failed;
    failed.rc = outcome.exitCode ? outcome.exitCode : 1;
    auto warnOverTime = [&](const std::string &reason,
                            const std::string &effect) {
      if (options.verbose)
        llvm::errs() << "polycuda: " << options.input
                     << ": fallback: cpu budget: " << reason << "\n";
      llvm::errs() << "polycuda: warning: " << options.input << ": " << reason
                   << ": " << effect << "\n";
    };
    if (outcome.overTime &&
        (outcome.notes & (1u << polyhedral::kTiledWavefrontNote))) {
      // The costly part first: the tiles' code, isl's most of a second.
      warnOverTime("the translation with tiled wavefronts exceeded its "
                   "processor-time budget (" +
                       std::to_string(budget + kTiledWavefrontCpuMs) +
                       " ms, --cpu-budget and " +
                       std::to_string(kTiledWavefrontCpuMs) +
                       " ms more for the tiles); translated again without "
                       "them",
                   "each wavefront is one launch");
      settings.pipeline.mapping.tiledWavefronts = false;
      continue;
    }
    if (outcome.overTime) {
      std::string reason =
          "the translation exceeded its processor-time budget (" +
          std::to_string(options.cpuBudget) +
          " ms, --cpu-budget); translated again with its cheapest "
          "fallbacks";
      warnOverTime(reason,
                   "every scop keeps its original order on one thread");
      settings.pipeline.makeMinimal(reason);
      continue;
    }
    if (outcome.signal == 0)
      return failed;
    if (settings.pipeline.skipDependences) {
      llvm::errs() << "polycuda: internal compiler error: " << options.input
                   << ": isl crashed (signal " << outcome.signal
                   << ") also without the dependence analysis\n";
      return failed;
    }
    llvm::errs() << "polycuda: warning: " << options.input
                 << ": isl crashed (signal " << outcome.signal
                 << "); translating again without the dependence analysis: "
                    "every scop keeps its original order on one thread\n";
    settings.pipeline.skipDependences = true;
  }
}

} // namespace

int runDriver(int argc, const char **argv) {
  CommandLine commandLine = splitCommandLine(argc, argv);
  removeForeignOptions();
  Options options;
  if (!parseCommandLine(commandLine))
    return 1;
  Settings settings;
  if (!settle(options, commandLine.runMode, settings))
    return 1;
  Translated result = translateGuarded(options, settings);
  if (result.rc != 0 || options.verify)
    return result.rc;
  if (!emitReport(options, result.report))
    return 1;
  if (!commandLine.runMode)
    return writeOutputs(options, settings.target, result);
  return buildAndRun(options, settings, result, argv[0],
                     commandLine.programArgs);
}

} // namespace polycuda::translator
