#!/usr/bin/env bash
# Region times of the published PolyBench/C 4.2.1 suite (not in this
# repository: point it at an unmodified copy), this build against an
# earlier one, in one run on the GPU host:
#   bash bench/polybench/time_prepare.sh POLYBENCH_ROOT BEFORE_POLYCUDA BEFORE_COMMIT [CARRY]
#   bash CARRY/time_run.sh CARRY [KERNELS]      (GPU host; see time_run.sh)
# Here (isl and Clang): translates every kernel at LARGE with this build
# (POLYCUDA, default build/translator/polycuda) and with BEFORE_POLYCUDA (a
# polycuda built at BEFORE_COMMIT, whose runtime is taken from git), and at
# MEDIUM with this build for the correctness check. CARRY defaults to
# bench/polybench/time_carry. RUNTIMES="V:COMMIT ..." adds the runtime of
# each COMMIT as runtime_V/: time_run.sh's variant V runs this build's code
# on it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
pb=$(cd "$1" && pwd)
before=$2
before_commit=$3
carry=${4:-$root/bench/polybench/time_carry}
polycuda=${POLYCUDA:-$root/build/translator/polycuda}
rm -rf "$carry" && mkdir -p "$carry/gen" "$carry/runtime_before"
cp -r "$root/runtime" "$carry/runtime"
git -C "$root" archive "$before_commit" runtime | tar -x -C "$carry/runtime_before" --strip-components=1
for vc in ${RUNTIMES:-}; do
  mkdir -p "$carry/runtime_${vc%%:*}"
  git -C "$root" archive "${vc#*:}" runtime | tar -x -C "$carry/runtime_${vc%%:*}" --strip-components=1
  git -C "$root" rev-parse --short "${vc#*:}" > "$carry/runtime_${vc%%:*}/commit.txt"
done
cp -r "$pb" "$carry/polybench"
cp "$root/tests/e2e/compare_outputs.py" "$root/bench/polybench/time_run.sh" "$carry/"
git -C "$root" rev-parse --short HEAD > "$carry/commit.txt"
git -C "$root" rev-parse --short "$before_commit" > "$carry/before_commit.txt"
: > "$carry/kernels.txt"
for src in $(cd "$carry/polybench" && find . -name '*.c' ! -path './utilities/*' | sort); do
  dir=$(dirname "$src") name=$(basename "$src" .c)
  echo "$dir $name" >> "$carry/kernels.txt"
  flags=(-I"$carry/polybench/utilities" -I"$carry/polybench/$dir")
  "$polycuda" --target=cuda "${flags[@]}" -DLARGE_DATASET -DPOLYBENCH_TIME \
    "$carry/polybench/$src" -o "$carry/gen/${name}_after.cu" 2> "$carry/gen/${name}_after.log" ||
    echo "after: $name refused"
  "$before" --target=cuda "${flags[@]}" -DLARGE_DATASET -DPOLYBENCH_TIME \
    "$carry/polybench/$src" -o "$carry/gen/${name}_before.cu" 2> "$carry/gen/${name}_before.log" ||
    echo "before: $name refused"
  "$polycuda" --target=cuda "${flags[@]}" -DMEDIUM_DATASET -DPOLYBENCH_DUMP_ARRAYS \
    "$carry/polybench/$src" -o "$carry/gen/${name}_check.cu" 2> "$carry/gen/${name}_check.log" ||
    echo "check: $name refused"
done
ls "$carry/gen"/*.cu | wc -l | xargs echo "translated files:"
