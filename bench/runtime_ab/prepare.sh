#!/usr/bin/env bash
# Runtime A/B (the issue "a runtime cut to what pays"): the same translated
# code linked against two runtimes, A (BASE_REF's runtime/, default main)
# and B (this tree's), timed alternately on the GPU host by run.sh.
#   bash bench/runtime_ab/prepare.sh OUTDIR           (here: isl and Clang)
#   bash OUTDIR/run.sh OUTDIR [ROUNDS]                (GPU host: CUDA, Python)
# Translates the 14 copy-bound kernels (bench/results/polybench/README.md)
# of inputs/ at LARGE with this build (POLYCUDA, default
# build/translator/polycuda) into OUTDIR/gen, and saves both runtimes,
# the transfer benchmark (bench/transfers/) and run.sh beside them.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: prepare.sh OUTDIR}
polycuda=${POLYCUDA:-$root/build/translator/polycuda}
base=${BASE_REF:-main}
kernels="2mm 3mm atax bicg correlation covariance deriche gemm gemver gesummv
mvt symm syr2k syrk"
rm -rf "$out" && mkdir -p "$out/gen" "$out/runtime_A"
git -C "$root" archive "$base" runtime | tar -x -C "$out/runtime_A" --strip-components=1
cp -r "$root/runtime" "$out/runtime_B"
cp "$root/bench/runtime_ab/run.sh" "$root/bench/runtime_ab/table.py" \
   "$root/bench/transfers/"{transfer_bench.cu,bench_timer.cu} "$out/"
echo "A $(git -C "$root" rev-parse --short "$base") ($base)" > "$out/versions.txt"
echo "B $(git -C "$root" rev-parse --short HEAD) ($(git -C "$root" rev-parse --abbrev-ref HEAD))$(
  git -C "$root" diff --quiet HEAD -- runtime || echo ', runtime/ changed since')" >> "$out/versions.txt"
echo $kernels > "$out/kernels.txt"
for name in $kernels; do
  "$polycuda" --target=cuda -DLARGE_DATASET "$root/inputs/$name.c" \
    -o "$out/gen/$name.cu" 2> "$out/gen/$name.log" || { echo "$name refused"; exit 1; }
done
ls "$out/gen"/*.cu | wc -l | xargs echo "translated:"
du -sh "$out"
