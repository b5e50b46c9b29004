#!/usr/bin/env bash
# compare_translators.sh OLD NEW [RANDOM_COUNT [FIRST_SEED]]
#
# Before and after a change that must not change polycuda's output (a
# restructuring, a faster build): translates every inputs/*.c with both
# translators (CUDA under the default options and each variant below,
# OpenCL and C under the default options), each with its JSON report, and
# RANDOM_COUNT programs of tests/random/generate.py (default 0) from
# FIRST_SEED (default 700000) for CUDA. Prints each translation whose
# output, report or exit status differs (also when translated again
# alone), and a count; exits 1 when any does. No processor-time budget
# (--cpu-budget=0), so that a loaded machine does not change the result.
# JOBS translations run at once (default: the processors). INPUTS (names
# of inputs/*.c without .c, separated by spaces) limits the inputs, e.g. to
# finish an interrupted run.
set -uo pipefail
old=$(readlink -f "$1") new=$(readlink -f "$2") count=${3:-0}
first=${4:-700000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
runner=
# Stopped (^C, kill), it stops its translations too: xargs and the workers
# it started (each lets its current translation end).
trap 'if [ -n "$runner" ]; then pkill -P "$runner"; kill "$runner"; fi \
  2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
variants=(
  "--register-tile=2x2"
  "--register-tiles=off"
  "--stage-uncoalesced=all"
  "--thread-order=column:64,zigzag"
  "--expansion=off --host-scalars=off"
  "--fp-contract=off --reductions=off"
  "--no-shared --no-constant"
)
# One line per translation: INPUT TARGET FLAGS...
{
  for input in "$root"/inputs/*.c; do
    if [ -n "${INPUTS:-}" ] &&
      ! [[ " $INPUTS " == *" $(basename "$input" .c) "* ]]; then
      continue
    fi
    echo "$input cuda"
    echo "$input opencl"
    echo "$input c"
    for v in "${variants[@]}"; do
      echo "$input cuda $v"
    done
  done
  for ((seed = first; seed < first + count; seed++)); do
    mkdir -p "$work/random"
    python3 "$root/tests/random/generate.py" $seed "$work/random/r$seed.c"
    echo "$work/random/r$seed.c cuda"
  done
} > "$work/jobs"

# compare N INPUT TARGET FLAGS...: both translators, "same" or "differ".
compare() {
  local n=$1 input=$2 target=$3
  shift 3
  local dir=$work/job$n v
  for v in old new; do
    local bin=$old
    [ $v = new ] && bin=$new
    mkdir -p "$dir/$v"
    (cd "$dir/$v" && "$bin" --cpu-budget=0 --target="$target" "$@" "$input" \
      -o out."$target" --report=json --report-file=report.json \
      > /dev/null 2> err; echo "exit $?" >> err)
  done
  local result=same f
  for f in $(cd "$dir/old" && ls) $(cd "$dir/new" && ls); do
    cmp -s "$dir/old/$f" "$dir/new/$f" || result=differ
  done
  echo "$result $n $(basename "$input" .c) $target $*"
  rm -rf "$dir"
}
export -f compare
export old new work
xargs -P "${JOBS:-$(nproc)}" -L 1 bash -c 'compare "$@"' _ \
  < <(nl -ba "$work/jobs") > "$work/results" &
runner=$!
wait "$runner"
runner=
# Some of isl's work is bounded by wall-clock time (polyhedral/Isolated.h),
# so a loaded machine may change a translation: each that differs is
# translated again, alone, and counts only if it differs again.
grep '^differ' "$work/results" | while read -r _ n _; do
  # shellcheck disable=SC2046
  compare "$n" $(sed -n "${n}p" "$work/jobs")
done > "$work/again"
grep '^differ' "$work/again" | sort -k3
echo "compared $(wc -l < "$work/results") translations:" \
  "$(grep -c '^differ' "$work/again") differ" \
  "($(grep -c '^same' "$work/again") more only under load)"
! grep -q '^differ' "$work/again"
