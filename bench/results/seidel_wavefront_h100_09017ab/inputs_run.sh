#!/bin/bash
# inputs/seidel_2d.c on the GPU against its sequential gcc build (exact).
set -u
nv="nvcc -O2 -arch=sm_90 -w"
$nv -c runtime/polycuda_cuda.cu -o rt.o
for v in LARGE MEDIUM LARGE_noshared; do
  size=${v%_noshared}
  gcc -O2 -D${size}_DATASET seidel_2d.c -o seq_$size -lm 2>/dev/null
  $nv -Iruntime -c s_$v.cu -o s_$v.o && gcc -O2 -w -D${size}_DATASET -Iruntime -c s_$v.host.c -o s_$v.host.o && $nv s_$v.o s_$v.host.o rt.o -o gpu_$v -lm || { echo "$v build FAILED"; continue; }
  ./seq_$size > seq_$size.out
  POLYCUDA_PROFILE=1 ./gpu_$v > gpu_$v.out 2> gpu_$v.prof
  python3 compare_outputs.py seq_$size.out gpu_$v.out --rtol 0 --atol 0 > cmp_$v.txt 2>&1; echo "$v: rc=$? $(tail -1 cmp_$v.txt)"
  grep -E "profile|kernel " gpu_$v.prof | head -3
done
