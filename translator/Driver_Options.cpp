//===- Driver_Options.cpp - Checking the command line's options -----------===//
//
// Turns polycuda's options into the settings of the front end, the
// polyhedral pipeline and the printers, with a located message for every
// value out of range.
//
//===----------------------------------------------------------------------===//
#include "DriverInternal.h"

#include "Transfers.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Regex.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace polycuda::translator::driver {

namespace {


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
    pipeline.persistent.recordOff = true;
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

} // namespace


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

} // namespace polycuda::translator::driver
