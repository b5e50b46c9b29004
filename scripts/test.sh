#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite (the command CI runs): first
# in build/, then with AddressSanitizer + UndefinedBehaviorSanitizer in
# build-asan/ (scripts/test_sanitizers.sh). Extra arguments go to both ctest
# runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"
[ -d /usr/local/cuda/bin ] && export PATH="/usr/local/cuda/bin:$PATH"
(cd "$root/build" && ctest --output-on-failure -j "$(nproc)" "$@")
bash "$root/scripts/test_sanitizers.sh" "$@"
