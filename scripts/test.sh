#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite (the command CI runs): first
# in build/, then with AddressSanitizer + UndefinedBehaviorSanitizer in
# build-asan/ (scripts/test_sanitizers.sh). Extra arguments go to both ctest
# runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
phases=()
# Runs "$@" as phase $1 and records its wall time.
phase() {
  local name=$1 start=$SECONDS
  shift
  "$@"
  phases+=("$(printf '%-22s %4d s' "$name" $((SECONDS - start)))")
}
report() {
  echo "== scripts/test.sh phase times"
  printf '%s\n' "${phases[@]}"
}
trap report EXIT
phase setup bash "$root/scripts/setup.sh"
phase build bash "$root/scripts/build.sh"
[ -d /usr/local/cuda/bin ] && export PATH="/usr/local/cuda/bin:$PATH"
run_tests() { (cd "$root/build" && ctest --output-on-failure -j "$(nproc)" "$@"); }
phase tests run_tests "$@"
phase sanitizer-build-tests bash "$root/scripts/test_sanitizers.sh" "$@"
