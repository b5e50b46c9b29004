#!/usr/bin/env bash
# Register tiles (issue 15), measured on a GPU host: translates, here, with
# register tiles (the default: the model's choice, or what the flags in
# POLYCUDA's wrapper ask) and without (--register-tiles=off)
#   - inputs/gemm.c at N x N x N for N in GEMM_SIZES (default 2048 4096),
#     double and float;
#   - every inputs/*.c (or NAMES) whose LARGE kernels register tiling
#     changes, at LARGE;
# and writes them with the runtime, run.sh and the cuBLAS baseline into
# CARRY (default bench/register_tiles/carry).
#   prepare.sh [CARRY [NAMES...]]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
polycuda=${POLYCUDA:-$root/build/translator/polycuda}
carry=${1:-$root/bench/register_tiles/carry}
shift || true
names=" $* "
rm -rf "$carry" && mkdir -p "$carry/programs"
cp -r "$root/runtime" "$carry/runtime"
cp "$root/tests/e2e/compare_outputs.py" "$root/bench/register_tiles/run.sh" \
   "$root/bench/register_tiles/cublas_gemm.cu" "$carry/"
git -C "$root" rev-parse --short HEAD > "$carry/commit.txt"
# program NAME INPUT DEFINES...: both versions, kept if they differ.
program() {
  local name=$1 input=$2; shift 2
  local dir=$carry/programs/$name
  mkdir -p "$dir"
  if ! "$polycuda" --cpu-budget=0 "$@" "$input" -o "$dir/tiled.cu" \
         2> /dev/null ||
     ! "$polycuda" --cpu-budget=0 --register-tiles=off "$@" "$input" \
         -o "$dir/plain.cu" 2> /dev/null ||
     cmp -s "$dir/tiled.cu" "$dir/plain.cu"; then
    rm -rf "$dir"
    return
  fi
  printf '%s\n' "$@" > "$dir/defines.txt"
}
for n in ${GEMM_SIZES:-2048 4096}; do
  for type in double float; do
    program "gemm_${type}_$n" "$root/inputs/gemm.c" -DLARGE_DATASET -DNI=$n \
      -DNJ=$n -DNK=$n -DDATA_TYPE=$type
  done
done
for input in "$root/inputs/"*.c; do
  name=$(basename "$input" .c)
  [ "$names" = "  " ] || [[ "$names" == *" $name "* ]] || continue
  program "$name" "$input" -DLARGE_DATASET
done
echo "$(ls "$carry/programs" | wc -l) programs: $(ls "$carry/programs" | tr '\n' ' ')"
