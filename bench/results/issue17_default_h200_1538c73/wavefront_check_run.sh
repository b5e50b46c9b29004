#!/bin/bash
# Tiled wavefronts on the GPU: exact against the sequential gcc builds, and
# compute-sanitizer (memcheck, racecheck, synccheck) at SMALL.
set -u
nv="nvcc -O2 -arch=sm_90 -w -fmad=false"
$nv -c runtime/polycuda_cuda.cu -o rt.o
for p in wavefronts seidel_2d; do
  for v in SMALL MEDIUM LARGE; do
    gcc -O2 -D${v}_DATASET $p.c -o seq_${p}_$v -lm
    $nv -Iruntime -c ${p}_$v.cu -o ${p}_$v.o && gcc -O2 -w -D${v}_DATASET -Iruntime -c ${p}_$v.host.c -o ${p}_$v.host.o && $nv ${p}_$v.o ${p}_$v.host.o rt.o -o gpu_${p}_$v -lm || { echo "$p $v: build FAILED"; continue; }
    ./seq_${p}_$v > seq.out; ./gpu_${p}_$v > gpu.out
    echo "$p $v: $(python3 compare_outputs.py seq.out gpu.out --rtol 0 --atol 0 2>&1 | tail -1)"
  done
  for tool in memcheck racecheck synccheck; do
    echo "$p SMALL $tool: $(compute-sanitizer --tool $tool ./gpu_${p}_SMALL 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY" | tr "\n" " ")"
  done
done
