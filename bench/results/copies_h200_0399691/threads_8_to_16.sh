#!/usr/bin/env bash
# Copy time (POLYCUDA_PROFILE=1) of the after builds with several worker counts, alternating.
set -uo pipefail
carry=$(cd "$1" && pwd); kernels=$2; reps=${3:-3}; out=${OUT:-/tmp/out}
OUT=$out VARIANTS="after" RUNS=0 PROFILE_RUNS=0 bash "$carry/time_run.sh" "$carry" "$kernels" time > "$out/sweep_build.txt" 2>&1
echo "kernel,threads,run,copies_ms" > "$out/sweep.csv"
for k in $kernels; do for r in $(seq "$reps"); do for t in 8 12 14 15 16; do
  POLYCUDA_TRANSFER_THREADS=$t POLYCUDA_PROFILE=1 timeout 60 /tmp/pbt/${k}_after 2>&1 > /dev/null |
    awk -v k=$k -v t=$t -v r=$r '/polycuda profile: scop/ { for (i = 1; i <= NF; ++i) if ($i == "copies") c += $(i + 1) } END { printf "%s,%s,%s,%.3f\n", k, t, r, c }' >> "$out/sweep.csv"
done; done; done
cat "$out/sweep.csv"
