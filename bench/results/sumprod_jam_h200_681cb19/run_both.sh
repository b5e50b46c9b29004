#!/usr/bin/env bash
# On the GPU host, from the repository root: bench/runner's sumprod for two
# carries of prepare.sh (AFTER: the default flags; OFF: POLYCUDA_FLAGS=
# --register-tiles=off), then the hand-written shapes of
# experiment_sumprod_jam.cu, in one call.
#   bash run_both.sh OUT AFTER_CARRY OFF_CARRY EXPERIMENT_DIR
set -u
out=$1
for v in after:$2 off:$3; do
  export OUT=$out/${v%%:*} BENCH_BUILD_DIR=/tmp/bb_${v%%:*} CARRY=${v#*:}
  mkdir -p "$OUT"
  bash bench/runner/run.sh --quick --only sumprod
  bash bench/runner/kernel_times.sh --quick --only sumprod
  cat "$OUT/kernel_times.csv"
done
cd "$4" && nvcc -O3 -arch=sm_90 -o spx experiment_sumprod_jam.cu &&
  ./spx > "$out/experiment_sumprod_jam.txt"
cat "$out/experiment_sumprod_jam.txt"
