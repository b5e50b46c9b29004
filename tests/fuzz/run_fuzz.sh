#!/usr/bin/env bash
# run_fuzz.sh FUZZER WORKDIR [libFuzzer options...]
# run_fuzz.sh --smoke FUZZER WORKDIR
#
# Copies the seed corpus (every inputs/*.c and tests/diagnostics/*.c) into
# WORKDIR/seeds and runs the polycuda_fuzz binary FUZZER:
#   default  fuzzes with the dictionary, new inputs go to WORKDIR/corpus (kept
#            between runs), crashes, timeouts and leaks to WORKDIR/artifacts/;
#            per-input bounds: -max_len=8192 -timeout=30 -rss_limit_mb=4096,
#            any of them overridden by the options given after WORKDIR
#   --smoke  runs each seed once (libFuzzer's regression mode); exits non-zero
#            on the first crash, leak or sanitizer report
# LeakSanitizer reports from third-party libraries are suppressed with
# tests/sanitizers/lsan.supp.
set -euo pipefail

smoke=0
if [ "${1:-}" = "--smoke" ]; then
  smoke=1
  shift
fi
if [ $# -lt 2 ]; then
  echo "usage: $0 [--smoke] FUZZER WORKDIR [libFuzzer options...]" >&2
  exit 2
fi
fuzzer=$1 work=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

mkdir -p "$work"
rm -rf "$work/seeds"
mkdir -p "$work/seeds" "$work/corpus" "$work/artifacts"
cp "$root"/inputs/*.c "$root"/tests/diagnostics/*.c "$work/seeds/"

export LSAN_OPTIONS="suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

if [ $smoke = 1 ]; then
  # Diagnostics of the seeds go to a log; libFuzzer's verdict is its exit code.
  if "$fuzzer" -timeout=120 -rss_limit_mb=4096 "$work"/seeds/*.c \
       > "$work/smoke.log" 2>&1; then
    echo "polycuda_fuzz: $(ls "$work/seeds" | wc -l) seeds, no findings"
    exit 0
  fi
  echo "polycuda_fuzz: a seed failed; last lines of $work/smoke.log:" >&2
  tail -n 60 "$work/smoke.log" >&2
  exit 1
fi

exec "$fuzzer" -dict="$here/polycuda.dict" -max_len=8192 -timeout=30 \
  -rss_limit_mb=4096 -artifact_prefix="$work/artifacts/" "$@" \
  "$work/corpus" "$work/seeds"
