#!/usr/bin/env bash
# The MMA experiment beside the printed kernel (run.sh) and cuBLAS DGEMM, one call.
set -uo pipefail
c=$(cd "$(dirname "$0")/.." && pwd); out=${OUT:-/tmp/out}; mkdir -p "$out"
nvcc -O2 -arch=sm_90 -o /tmp/gemm_mma "$c/mma/gemm_mma.cu" -Xptxas -v > "$out/mma_build.txt" 2>&1
OUT=$out bash "$c/run.sh" 5 > /dev/null 2>&1
for r in 1 2 3; do /tmp/gemm_mma 4096 10; done > "$out/mma.txt" 2>&1
/tmp/cublas 4096 f64 10 >> "$out/mma.txt"
cat "$out/gemm.txt" "$out/mma.txt"
