#!/usr/bin/env bash
# Persistent kernels (--persistent) on a GPU: translates the inputs whose
# host loops become persistent kernels here (isl and Clang live here) into
# bench/persistent/carry/, with the inputs and the runtime; run.sh then
# builds and runs them on the GPU host with nvcc and Python alone.
#   prepare.sh [PROGRAM...]
# MEDIUM: checked against the sequential build with the persistent kernels
# and without them (POLYCUDA_PERSISTENT=0 in the same binary); LARGE: the
# scop's time both ways (POLYCUDA_SCOP_TIME). Variants with other block
# sizes and the column order exercise phases with fewer threads than the
# persistent block and blocks derived from a grid position.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
polycuda=${POLYCUDA:-$root/build/translator/polycuda}
carry=${CARRY:-$root/bench/persistent/carry}
programs=${*:-adi cholesky durbin fdtd_2d floyd_warshall gramschmidt heat_3d
  jacobi_1d jacobi_2d lu ludcmp nussinov seidel_2d trisolv skewed_guard
  random_seed1013 random_seed112 random_seed3937 random_seed5}
rm -rf "$carry" && mkdir -p "$carry/generated" "$carry/inputs"
cp -r "$root/runtime" "$carry/runtime"
cp "$root/tests/e2e/compare_outputs.py" "$root/bench/persistent/run.sh" "$carry/"
git -C "$root" rev-parse HEAD > "$carry/commit.txt"
: > "$carry/programs.txt"
translate() { # name tag size flags...
  local name=$1 tag=$2 size=$3
  shift 3
  "$polycuda" --target=cuda -D${size}_DATASET "$@" "$root/inputs/$name.c" \
    -o "$carry/generated/${tag}_${size}.cu"
  echo "$name $tag $size" >> "$carry/programs.txt"
}
for name in $programs; do
  cp "$root/inputs/$name.c" "$carry/inputs/"
  translate "$name" "$name" MEDIUM
  translate "$name" "$name" LARGE
done
for name in lu jacobi_2d heat_3d gramschmidt; do
  translate "$name" "${name}_col" MEDIUM --thread-order=column:24,zigzag \
    --sizes=all=8,2
  translate "$name" "${name}_mixed" MEDIUM --sizes=kernel0=64
done
# The cheapest fallbacks (past --cpu-budget): one-thread kernels in host
# loops, so single-block persistent kernels.
for name in durbin trisolv seidel_2d ludcmp nussinov fdtd_2d; do
  translate "$name" "${name}_min" MEDIUM --cpu-budget=1 2> /dev/null
done
echo "prepared $(wc -l < "$carry/programs.txt") programs in $carry"
