#!/usr/bin/env bash
# Copy time under POLYCUDA_PROFILE=1 of the after builds with several
# runtime settings, alternating, REPS runs each: $OUT/sweep.csv and
# $OUT/sweep_profiles.txt.
#   bash bench/polybench/transfer_threads.sh CARRY "KERNELS" [REPS]
# On the GPU host, CARRY made by time_prepare.sh (it builds the after
# programs through CARRY/time_run.sh first). The settings: the staging
# pool's workers (POLYCUDA_TRANSFER_THREADS 2, 4, default, 12, 16) and
# POLYCUDA_TRANSFERS=registered: what the default worker count rests on.
set -uo pipefail
carry=$(cd "$1" && pwd); kernels=$2; reps=${3:-5}; out=${OUT:-/tmp/out}
OUT=$out VARIANTS="after" RUNS=0 PROFILE_RUNS=0 bash "$carry/time_run.sh" "$carry" "$kernels" time > "$out/sweep_build.txt" 2>&1
settings=("default" "POLYCUDA_TRANSFER_THREADS=4" "POLYCUDA_TRANSFER_THREADS=12" "POLYCUDA_TRANSFER_THREADS=16" "POLYCUDA_TRANSFERS=registered" "POLYCUDA_TRANSFER_THREADS=2")
echo "kernel,setting,run,copies_ms,scop_ms" > "$out/sweep.csv"
for k in $kernels; do for r in $(seq "$reps"); do for s in "${settings[@]}"; do
  e=(); [ "$s" = default ] || e=("$s")
  echo "== $k $s $r" >> "$out/sweep_profiles.txt"
  env "${e[@]}" POLYCUDA_PROFILE=1 timeout 60 /tmp/pbt/${k}_after 2>&1 > /dev/null | tee -a "$out/sweep_profiles.txt" |
    awk -v k=$k -v s="$s" -v r=$r '/polycuda profile: scop/ { for (i = 1; i <= NF; ++i) { if ($i == "copies") c += $(i + 1); if ($i == "ms:") t += $(i - 1) } } END { printf "%s,%s,%s,%.3f,%.3f\n", k, s, r, c, t }' >> "$out/sweep.csv"
done; done; done
python3 - "$out/sweep.csv" <<'P'
import csv, sys, statistics as st
d = {}
for r in csv.DictReader(open(sys.argv[1])):
    d.setdefault((r['kernel'], r['setting']), []).append(float(r['copies_ms']))
for (k, s), v in d.items():
    print("%-8s %-32s median %.3f min %.3f" % (k, s, st.median(v), min(v)))
P
