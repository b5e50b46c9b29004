#!/usr/bin/env bash
# Builds polycuda with AddressSanitizer + UndefinedBehaviorSanitizer in
# build-asan/ and runs the test suite there (part of scripts/test.sh; after
# scripts/setup.sh). Every sanitizer report fails its test:
#   - ASan, LSan and UBSan abort (abort_on_error=1): an abort is never a
#     clean `exit 1` + `error:` refusal to the robustness and random tests,
#     as UBSan's default exit status 1 with "runtime error:" would be;
#   - LeakSanitizer reports from third-party libraries are suppressed in
#     tests/sanitizers/lsan.supp, polycuda's own code never is.
# What runs there is what the sanitizers can catch in polycuda's own code:
# the unit, diagnostics, golden, robustness and runtime tests, and each
# input's translation once (its C target, label sanitize, translated only:
# E2E_TRANSLATE_ONLY); not the feature switches,
# thread orders and random programs (the same code paths, more slowly),
# nor the cuda tests (nvcc on the output, nothing of polycuda's). The tree
# is built with -O1 -g1 (line tables only): the build is most of this
# script's time (the front end's Clang-heavy files compile about a third
# faster than at -O2 -g). Extra arguments go to ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tree=$root/build-asan
flags="-O1 -g1 -DNDEBUG"
cmake -S "$root" -B "$tree" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="$flags" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$flags" \
  -DPOLYCUDA_SANITIZE=address,undefined >/dev/null
# Only what the labels below run: the translator and the unit and runtime
# test programs (tests/CMakeLists.txt's sanitizer_test_programs).
cmake --build "$tree" -j "$(nproc)" --target sanitizer_test_programs

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1
export LSAN_OPTIONS=suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0
cd "$tree"
ctest --output-on-failure -j "$(nproc)" \
  -L "^(unit|diagnostics|golden|robustness|runtime|sanitize)$" "$@"
