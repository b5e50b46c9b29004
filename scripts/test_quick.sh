#!/usr/bin/env bash
# The quick tier, to run after every change (a few minutes after an
# incremental build): builds build/ and runs the unit tests (label unit)
# and the tests labelled quick: diagnostics, golden, runtime and the
# regression inputs on C and OpenCL. scripts/test.sh runs everything (CI).
# Extra arguments go to ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
start=$SECONDS
bash "$root/scripts/build.sh"
built=$SECONDS
cd "$root/build"
ctest --output-on-failure -j "$(nproc)" -L "^(unit|quick)$" "$@"
echo "== quick tier: build $((built - start)) s, tests $((SECONDS - built)) s"
