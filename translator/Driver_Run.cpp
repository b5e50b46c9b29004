//===- Driver_Run.cpp - polycuda run: build and run the translation -------===//
//
// Builds what polycuda printed with the target's compiler (nvcc, or cc
// with the runtime's OpenCL half or OpenMP) in a temporary directory and
// runs it.
//
//===----------------------------------------------------------------------===//
#include "DriverInternal.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>

namespace polycuda::translator::driver {

namespace {


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


std::string cudaCompiler() {
  if (auto nvcc = llvm::sys::findProgramByName("nvcc"))
    return *nvcc;
  if (llvm::sys::fs::exists("/usr/local/cuda/bin/nvcc"))
    return "/usr/local/cuda/bin/nvcc";
  return "nvcc";
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

} // namespace


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

} // namespace polycuda::translator::driver
