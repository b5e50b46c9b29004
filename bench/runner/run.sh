#!/usr/bin/env bash
# Runs ON the GPU host (CUDA + CMake + python3 only), from any directory:
# builds bench/runner (harness + bench/baselines + the generated code in
# bench/runner/carry, written here by prepare.sh) with CMake, runs it once and
# writes $OUT/bench.csv, $OUT/bench.log, $OUT/build.log, $OUT/gpu.txt.
# CARRY (default bench/runner/carry) names prepare.sh's folder, BENCH_BUILD_DIR
# the build folder (one per carry).
#   bash bench/runner/run.sh [harness options, e.g. --quick --only gemm]
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
runner=$root/bench/runner
out=${OUT:-$runner/out}
build=${BENCH_BUILD_DIR:-/tmp/polycuda_bench_build}
carry=$(cd "${CARRY:-$runner/carry}" 2>/dev/null && pwd || echo "${CARRY:-$runner/carry}")
mkdir -p "$out"
if [ ! -f "$carry/generated/gemm_2048.cu" ]; then
  echo "run.sh: $carry missing: run prepare.sh here and carry it" >&2
  exit 1
fi
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)
{
  nvidia-smi 2>&1
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu,persistence_mode,mig.mode.current --format=csv 2>&1
} > "$out/gpu.txt"
commit=$(cat "$carry/commit.txt" 2>/dev/null || echo unknown)
echo "gpu: $(head -1 <(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader))  commit: $commit"

t0=$(date +%s)
if ! { cmake -S "$runner" -B "$build" -DCMAKE_BUILD_TYPE=Release \
         -DCMAKE_CUDA_COMPILER="$(command -v nvcc)" -DPOLYCUDA_BENCH_CARRY="$carry" &&
       cmake --build "$build" -j "$(nproc)"; } > "$out/build.log" 2>&1; then
  echo "run.sh: build failed; tail of $out/build.log:"
  tail -40 "$out/build.log"
  exit 1
fi
echo "built in $(( $(date +%s) - t0 )) s"

"$build/polycuda_bench" "$out/bench.csv" --driver "${driver:-?}" --commit "$commit" "$@" \
  > "$out/bench.log" 2>&1
rc=$?
echo "harness exit status: $rc (1 = a check failed; see FAIL rows)"
tail -5 "$out/bench.log" | grep -v '^[a-z0-9]* .*ms (min' || true
# Short table last (the device reply carries the end of the output).
python3 - "$out/bench.csv" <<'PY'
import csv, sys
rows = [l for l in open(sys.argv[1]) if l.strip()]
print(rows[0].strip())
for r in csv.DictReader([l for l in rows if not l.startswith('#')]):
    print(f"{r['group']:<9} {r['variant']:<27} {r['size']:<7} {float(r['median_ms']):>10.3f} ms "
          f"{r['gflops'] or '-':>9} GF/s {r['gbs'] or '-':>8} GB/s {r['rel_error'] or '-':>10} {r['check']}")
PY
exit $rc
