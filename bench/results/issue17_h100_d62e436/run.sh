#!/usr/bin/env bash
# Issue 17 snapshot: scop time (POLYCUDA_SCOP_TIME) of six LARGE inputs,
# min and median of 5, and the output against the sequential gcc -O2 build.
set -uo pipefail
c=$(cd "$(dirname "$0")" && pwd)
nvcc -O2 -arch=sm_90 -w -c $c/runtime/polycuda_cuda.cu -o /tmp/rt.o
for n in doitgen seidel_2d durbin gramschmidt ludcmp nussinov; do
  ( nvcc -O2 -arch=sm_90 -w -DLARGE_DATASET -I$c/runtime $c/gen/$n.cu $c/gen/$n.host.c /tmp/rt.o -o /tmp/$n.gpu -lm &&
    gcc -O2 -w -DLARGE_DATASET $c/gen/$n.c -o /tmp/$n.seq -lm ) &
done; wait
echo "program,min_scop_ms,median_scop_ms,launches,output"
for n in doitgen seidel_2d durbin gramschmidt ludcmp nussinov; do
  ts=()
  for r in 1 2 3 4 5; do
    ts+=($(POLYCUDA_SCOP_TIME=1 /tmp/$n.gpu 2>&1 >/dev/null | awk '/polycuda scop time/ { t += $(NF - 1) } END { printf "%.3f", t }'))
  done
  l=$(POLYCUDA_LAUNCH_STATS=1 /tmp/$n.gpu 2>&1 > /tmp/$n.gpu.out | sed -n 's/^polycuda: \([0-9]*\) kernel launches$/\1/p')
  timeout 120 /tmp/$n.seq > /tmp/$n.seq.out
  tol=1e-6
  if python3 $c/compare_outputs.py /tmp/$n.seq.out /tmp/$n.gpu.out --rtol $tol > /dev/null 2>&1; then v=match; else v=MISMATCH; fi
  s=$(printf '%s\n' "${ts[@]}" | sort -g)
  echo "$n,$(echo "$s" | head -1),$(echo "$s" | sed -n 3p),$l,$v"
done
