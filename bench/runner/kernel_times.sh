#!/usr/bin/env bash
# Runs ON the GPU host after run.sh has built the harness: the device time of
# every kernel the harness launches, polycuda's generated kernels (inside its
# end-to-end calls) and the hand-written baselines alike, measured the same
# way: Nsight Compute's gpu__time_duration, with the GPU's clocks and caches
# left as they are (--clock-control none --cache-control none). Writes
# $OUT/ncu.csv (ncu's rows) and $OUT/kernel_times.csv: kernel, launches,
# median and minimum microseconds per launch.
#   bash bench/runner/kernel_times.sh [harness options, e.g. --only transpose]
# BENCH_BUILD_DIR names run.sh's build folder.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-$root/bench/runner/out}
build=${BENCH_BUILD_DIR:-/tmp/polycuda_bench_build}
mkdir -p "$out"
[ -x "$build/polycuda_bench" ] || { echo "kernel_times.sh: run run.sh first" >&2; exit 1; }
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
[ -n "$ncu" ] || { echo "kernel_times.sh: no ncu" >&2; exit 1; }
"$ncu" --clock-control none --cache-control none \
  --metrics gpu__time_duration.sum --csv --print-kernel-base function \
  --log-file "$out/ncu.csv" \
  "$build/polycuda_bench" "$out/under_ncu.csv" --reps 5 --e2e-reps 5 --warmup 1 "$@" \
  > "$out/under_ncu.log" 2>&1
echo "ncu exit status: $?"
python3 - "$out/ncu.csv" "$out/kernel_times.csv" <<'PY'
import csv, statistics, sys
rows = [l for l in open(sys.argv[1]) if l.startswith('"')]
times = {}
for r in csv.DictReader(rows):
    if r.get("Metric Name") != "gpu__time_duration.sum":
        continue
    scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0,
             "ms": 1e3, "msecond": 1e3, "s": 1e6, "second": 1e6}[r["Metric Unit"]]
    value = float(r["Metric Value"].replace(",", "")) * scale
    times.setdefault(r["Kernel Name"], []).append(value)
with open(sys.argv[2], "w") as f:
    f.write("kernel,launches,median_us,min_us\n")
    for name, v in sorted(times.items()):
        f.write(f"{name},{len(v)},{statistics.median(v):.2f},{min(v):.2f}\n")
        print(f"{name:<48} {len(v):>5} {statistics.median(v):>12.2f} us {min(v):>12.2f} us")
PY
