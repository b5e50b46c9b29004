#!/usr/bin/env bash
# compute-sanitizer memcheck of gemm at 530 x 270 x 300, --register-tile=4x8
# (partial tiles along every loop): its log and exit status (1 on errors).
set -uo pipefail
c=$(cd "$(dirname "$0")" && pwd); out=${OUT:-/tmp/out}; mkdir -p "$out"; d=$c/p/gemm_double_small
nvcc -O2 -arch=sm_90 -w -c "$c/runtime/polycuda_cuda.cu" -o /tmp/rt.o
nvcc -O2 -arch=sm_90 -w $(cat "$d/defines.txt") -I"$c/runtime" "$d/k.cu" "$d/k.host.c" /tmp/rt.o -o /tmp/gpu -lm
compute-sanitizer --tool memcheck --error-exitcode 1 --log-file "$out/memcheck.txt" /tmp/gpu > /dev/null
echo "exit status $?" >> "$out/memcheck.txt"
cat "$out/memcheck.txt"
