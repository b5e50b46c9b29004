#!/usr/bin/env bash
# gemm with register tiles at sizes that leave partial tiles: outputs
# against the sequential gcc -O2 build (exact: tolerance 0), and
# compute-sanitizer memcheck of the small one.
set -uo pipefail
c=$(cd "$(dirname "$0")" && pwd); out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
nvcc -O2 -arch=sm_90 -w -c "$c/runtime/polycuda_cuda.cu" -o /tmp/rt.o
for d in "$c"/p/*; do
  ( nvcc -O2 -arch=sm_90 -w $(cat "$d/defines.txt") -I"$c/runtime" "$d/k.cu" "$d/k.host.c" /tmp/rt.o -o "$d/gpu" -lm > "$d/build.log" 2>&1
    gcc -O2 $(cat "$d/defines.txt") "$c/gemm.c" -o "$d/seq" -lm ) &
done; wait
for d in "$c"/p/*; do n=$(basename "$d")
  "$d/gpu" > "$d/gpu.out"; "$d/seq" > "$d/seq.out"
  tol=1e-9; [[ $n == *float_default ]] && tol=1e-4; [[ $n == *double_default ]] && tol=1e-9
  [[ $n == *exact* || $n == *small* ]] && tol=0
  if python3 "$c/compare_outputs.py" "$d/seq.out" "$d/gpu.out" --rtol $tol > "$d/cmp.txt" 2>&1; then v=match; else v=DIFFER; fi
  echo "$n,rtol=$tol,$v"
done | tee "$out/check.csv"
compute-sanitizer --tool memcheck "$c/p/gemm_double_small/gpu" > /dev/null 2> "$out/memcheck.txt"; echo "memcheck rc=$?" >> "$out/memcheck.txt"
tail -3 "$out/memcheck.txt"
