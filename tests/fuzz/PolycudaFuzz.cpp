//===- PolycudaFuzz.cpp - libFuzzer target: source text -> output ---------===//
//
// Feeds each input, as the text of a C file, through the whole translation
// (translator::parseCode, then translator::translate) the way the driver
// does, but in memory: nothing is written. Each input must end in a
// translation or in diagnostics; a crash, a sanitizer report, a leak or a
// timeout is a bug in polycuda.
//
// Target: one per input, by its length modulo 3 (0: cuda, 1: opencl, 2: c),
// so that every printer is covered while each input costs one translation
// (several seconds for a PolyBench kernel under the sanitizers). The
// environment variable POLYCUDA_FUZZ_TARGET=cuda|opencl|c forces one target
// (to reproduce a finding the way `polycuda --target=...` would see it).
//
//===----------------------------------------------------------------------===//
#include "ScopBuilder.h"
#include "Translation.h"

#include <isl/ctx.h>
#include <isl/options.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using namespace polycuda;

/// isl operations allowed to each stage (and to the work between stages)
/// of one input. The pipeline's own limits (up to 20 million for the
/// scheduler and the AST) let a PolyBench kernel take a minute under the
/// sanitizers; with this cap every seed takes under 1.5 s (5 of the 97 seeds
/// reach it), and an exceeded cap takes the same fallback and error paths as
/// an exceeded stage limit.
unsigned long maxOperations = 100000;

/// Owns the isl context of one input, as the driver's does for one run:
/// every isl object of the input is freed before the context.
class IslContext {
public:
  IslContext() : ctx(isl_ctx_alloc()) {
    isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
    // OperationLimit never raises a limit set on the context.
    isl_ctx_set_max_operations(ctx, maxOperations);
  }
  ~IslContext() { isl_ctx_free(ctx); }
  IslContext(const IslContext &) = delete;
  IslContext &operator=(const IslContext &) = delete;
  isl::ctx get() const { return isl::ctx(ctx); }

private:
  isl_ctx *ctx;
};

/// The target forced by POLYCUDA_FUZZ_TARGET, or empty.
std::string forcedTarget;

/// Parses `code` and translates it for `target`, each with a fresh context
/// since translate() transforms the parsed scops in place.
void translateFor(const std::string &code, const std::string &target) {
  IslContext isl;
  translator::ParsedInput input;
  if (!translator::parseCode(code, "fuzz.c", translator::FrontendOptions{},
                             isl.get(), input))
    return;
  translator::TranslationOptions options;
  options.target = target;
  translator::Translation result;
  (void)translator::translate(input, options, result);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  if (const char *limit = std::getenv("POLYCUDA_FUZZ_MAX_OPERATIONS"))
    maxOperations = std::strtoul(limit, nullptr, 10);
  if (const char *target = std::getenv("POLYCUDA_FUZZ_TARGET"))
    forcedTarget = target;
  if (!forcedTarget.empty() && forcedTarget != "cuda" &&
      forcedTarget != "opencl" && forcedTarget != "c") {
    std::fprintf(stderr, "polycuda_fuzz: POLYCUDA_FUZZ_TARGET must be cuda, "
                         "opencl or c\n");
    std::exit(2);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string code(reinterpret_cast<const char *>(data), size);
  static const char *const targets[] = {"cuda", "opencl", "c"};
  translateFor(code, forcedTarget.empty() ? targets[size % 3] : forcedTarget);
  return 0;
}
