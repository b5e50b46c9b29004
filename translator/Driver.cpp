//===- Driver.cpp - The polycuda command line -----------------------------===//
//
// Parses options (LLVM's cl), runs the front end, the polyhedral pipeline and
// a printer per scop, and writes the output atomically (temporary file +
// rename) so that a failure never leaves a half-written file. `polycuda run`
// also builds the output with the target's compiler and runs it.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include "DriverInternal.h"
#include "IslExtras.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <unistd.h>

namespace polycuda::translator {

namespace driver {

cl::OptionCategory category("polycuda options");


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

} // namespace driver

namespace {

using namespace driver;


std::string defaultOutput(const std::string &input, const std::string &target) {
  llvm::SmallString<256> path(input);
  llvm::sys::path::replace_extension(path, "");
  std::string stem = path.str().str();
  if (target == "cuda")
    return stem + ".polycuda.cu";
  return stem + ".polycuda.c";
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

/// Writes the report to --report-file, or to standard output.
bool emitReport(const Options &options, const std::string &reportOutput) {
  if (reportOutput.empty())
    return true;
  if (!options.reportFile.empty())
    return writeFile(options.reportFile, reportOutput);
  std::cout << reportOutput << std::flush;
  return true;
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
