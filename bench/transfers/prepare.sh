#!/usr/bin/env bash
# Prepares the GPU half of the transfer benchmark (issue 14), here where
# isl and Clang are:
#   bash bench/transfers/prepare.sh BEFORE_POLYCUDA [CARRY]
#   bash CARRY/run.sh CARRY                    (on the GPU host; see run.sh)
# Translates every inputs/*.c to CUDA with this build (MEDIUM, for the
# correctness check with every transfer method, and LARGE) and the 30
# classic kernels at LARGE with BEFORE_POLYCUDA (a polycuda built at the
# commit to compare with, BEFORE_COMMIT, default 16f98a8, whose runtime is
# taken from git). CARRY defaults to bench/transfers/carry.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
before=$1
carry=${2:-$root/bench/transfers/carry}
polycuda=${POLYCUDA:-$root/build/translator/polycuda}
before_commit=${BEFORE_COMMIT:-16f98a8}
rm -rf "$carry" && mkdir -p "$carry/gen" "$carry/runtime_before"
cp -r "$root/runtime" "$carry/runtime"
git -C "$root" archive "$before_commit" runtime | tar -x -C "$carry/runtime_before" --strip-components=1
cp -r "$root/inputs" "$carry/inputs"
cp "$root/tests/e2e/compare_outputs.py" "$root/bench/transfers/"{run.sh,transfer_bench.cu,bench_timer.cu} "$carry/"
git -C "$root" rev-parse --short HEAD > "$carry/commit.txt"
git -C "$root" rev-parse --short "$before_commit" > "$carry/before_commit.txt"
classic="2mm 3mm adi atax bicg cholesky correlation covariance deriche doitgen
durbin fdtd_2d floyd_warshall gemm gemver gesummv gramschmidt heat_3d jacobi_1d
jacobi_2d lu ludcmp mvt nussinov seidel_2d symm syr2k syrk trisolv trmm"
echo $classic interior > "$carry/timed.txt"
for input in "$root"/inputs/*.c; do
  name=$(basename "$input" .c)
  for size in MEDIUM LARGE; do
    [ $size = LARGE ] && ! grep -qw "$name" "$carry/timed.txt" && continue
    "$polycuda" --target=cuda -D${size}_DATASET "$input" \
      -o "$carry/gen/${name}_${size}_after.cu" 2> "$carry/gen/${name}_${size}_after.log" ||
      echo "after: $name $size refused"
  done
done
for name in $(cat "$carry/timed.txt"); do
  [ -f "$root/inputs/$name.c" ] || continue
  "$before" --target=cuda -DLARGE_DATASET "$root/inputs/$name.c" \
    -o "$carry/gen/${name}_LARGE_before.cu" 2> "$carry/gen/${name}_LARGE_before.log" ||
    echo "before: $name refused"
done
ls "$carry/gen"/*.cu | wc -l | xargs echo "translated files:"
du -sh "$carry"
