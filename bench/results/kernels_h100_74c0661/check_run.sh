#!/usr/bin/env bash
# Builds the carried CUDA programs and their sequential references, runs
# both and compares the outputs (tests/e2e/compare_outputs.py).
cd "$(dirname "$0")"
nvcc -O3 -arch=sm_90 -I runtime -c runtime/polycuda_cuda.cu -o rt.o || exit 1
for v in conv_LARGE:LARGE:convolution conv_MEDIUM:MEDIUM:convolution conv_F:MEDIUM:convolution sp_LARGE:LARGE:sumprod; do
  IFS=: read -r name sz src <<< "$v"
  nvcc -O3 -arch=sm_90 -I runtime -c $name.cu -o $name.o &&
  gcc -O2 -D${sz}_DATASET -I runtime -c $name.host.c -o $name.h.o &&
  nvcc -arch=sm_90 $name.o $name.h.o rt.o -o $name -lpthread &&
  gcc -O2 -D${sz}_DATASET $src.c -o seq_$name -lm || { echo "$name build failed"; continue; }
  ./$name > $name.out; ./seq_$name > $name.ref
  python3 compare_outputs.py $name.ref $name.out && echo "$name match" || echo "$name MISMATCH"
done
