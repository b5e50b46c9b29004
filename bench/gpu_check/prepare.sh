#!/usr/bin/env bash
# Translates every inputs/*.c to CUDA here (isl and Clang live here, not on
# the GPU machine) into bench/gpu_check/carry/, together with the inputs
# and the runtime, so that run.sh can build and check them on a GPU host
# with nvcc, CMake and Python alone.
#   prepare.sh [SIZE...]   default sizes: MEDIUM LARGE EXACT LARGEINT
# POLYCUDA (the translator) and CARRY (the directory) override the defaults,
# e.g. to translate with an older build for a before/after comparison.
# Every translation runs without the processor-time budget (--cpu-budget=0):
# on a loaded machine the budget's fallback, the scop on one thread, would
# be checked instead of the parallel code (deriche's EXACT check did so
# until 2026-11-27).
# EXACT is MEDIUM translated with --fp-contract=off --reductions=off (no FMA,
# no reordered sum): run.sh compares it with
# the sequential build at tolerance 0. LARGEINT is LARGE with 32-bit index
# arithmetic (every `long` of the output made `int` again, except the casts
# of linearized subscripts, which were `long` before): run.sh times it
# against LARGE, to show what 64-bit index arithmetic costs.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
polycuda=${POLYCUDA:-$root/build/translator/polycuda}
carry=${CARRY:-$root/bench/gpu_check/carry}
sizes=${*:-MEDIUM LARGE EXACT LARGEINT}
rm -rf "$carry" && mkdir -p "$carry/generated" "$carry/inputs"
cp -r "$root/runtime" "$carry/runtime"
cp "$root/inputs/"*.c "$carry/inputs/"
cp "$root/tests/e2e/compare_outputs.py" "$carry/"
cp "$root/bench/gpu_check/CMakeLists.txt" "$carry/CMakeLists.txt"
: > "$carry/translation.csv"
echo "program,size,status,translate_ms,kernels" > "$carry/translation.csv"
for input in "$root/inputs/"*.c; do
  name=$(basename "$input" .c)
  for size in $sizes; do
    out="$carry/generated/${name}_${size}.cu"
    start=$(date +%s%N)
    flags=(-D${size}_DATASET)
    [ "$size" = EXACT ] && flags=(-DMEDIUM_DATASET --fp-contract=off --reductions=off)
    [ "$size" = LARGEINT ] && flags=(-DLARGE_DATASET)
    if "$polycuda" --target=cuda --cpu-budget=0 "${flags[@]}" "$input" -o "$out" \
        2> "$carry/generated/${name}_${size}.log"; then
      status=translated
    else
      status=refused
    fi
    end=$(date +%s%N)
    if [ "$size" = LARGEINT ] && [ -f "$out" ]; then
      sed -i -E 's/\blong\b/int/g; s/\(int\)\(/(long)(/g' "$out" "${out%.cu}.host.c"
    fi
    kernels=$(grep -c "^__global__" "$out" 2>/dev/null || true)
    echo "$name,$size,$status,$(( (end - start) / 1000000 )),${kernels:-0}" \
      >> "$carry/translation.csv"
  done
done
if [ -n "${POLYCUDA:-}" ]; then
  echo "translated with $POLYCUDA" > "$carry/commit.txt"
else
  git -C "$root" rev-parse HEAD > "$carry/commit.txt"
fi
echo "prepared $(ls "$carry/generated" | grep -c '\.cu$') CUDA programs in $carry"
