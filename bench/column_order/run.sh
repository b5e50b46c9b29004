#!/usr/bin/env bash
# Runs on the GPU host (nvcc, Python; no isl or Clang needed): builds every
# program prepared by prepare.sh, runs each RUNS times (default 3) with the
# runtime's profile (POLYCUDA_PROFILE=1: every launch synchronized and timed
# on the host, so a scop's kernel time is its kernels' execution plus a few
# microseconds of launch each), and writes
#   $OUT/column_order.csv   one line per program: median and minimum of the
#                           scop's kernel time over its timed calls (each
#                           run's first call is a warm-up and dropped), and
#                           whether its checksum equals the linear order's
#   $OUT/column_order.log   the build and run log
# then plot.py's summary (speedup over linear, best order, auto's choice)
# and PNG. ONLY=regex restricts the programs (e.g. ONLY='matmul_1024').
#   run.sh CARRY_DIR
set -uo pipefail
[ -d /usr/local/cuda/bin ] && export PATH="/usr/local/cuda/bin:$PATH"
carry=$(cd "$1" && pwd)
out=${OUT:-$carry/out}
runs=${RUNS:-3}
mkdir -p "$out"
exec > >(tee "$out/column_order.log") 2>&1
echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm \
  --format=csv,noheader 2>/dev/null | head -1)"
echo "commit: $(cat "$carry/commit.txt")"
build=/tmp/column_order_build
rm -rf "$build" && mkdir -p "$build"
nvcc -O3 -arch=sm_90 -w -c "$carry/runtime/polycuda_cuda.cu" -o "$build/runtime.o"
ids=$(ls "$carry/generated" | sed -n 's/\.cu$//p' | grep -E "${ONLY:-.}")
compile() {
  local id=$1
  nvcc -O3 -arch=sm_90 -w -I"$2/runtime" "$2/generated/$id.cu" \
    "$2/generated/$id.host.c" "$3/runtime.o" -o "$3/$id" \
    > "$3/$id.build.log" 2>&1 || echo "build of $id failed"
}
export -f compile
echo "$ids" | xargs -P "$(nproc)" -I{} bash -c 'compile {} "$0" "$1"' \
  "$carry" "$build"

csv=$out/column_order.csv
echo "id,median_kernel_ms,min_kernel_ms,samples,checksum" > "$csv"
for id in $ids; do
  if [ ! -x "$build/$id" ]; then
    echo "$id,,,0,not-built" >> "$csv"
    continue
  fi
  : > "$build/$id.prof"
  for r in $(seq "$runs"); do
    POLYCUDA_PROFILE=1 timeout 300 "$build/$id" > "$build/$id.out" \
      2> "$build/$id.err" || echo "run of $id failed: $(head -2 "$build/$id.err")"
    # Every call's kernel time but the run's first.
    sed -n 's/^polycuda profile: scop .* kernels \([0-9.]*\) ms.*/\1/p' \
      "$build/$id.err" | tail -n +2 >> "$build/$id.prof"
  done
  python3 - "$build/$id.prof" "$id" "$(cat "$build/$id.out")" >> "$csv" <<'PY'
import statistics, sys
times = [float(t) for t in open(sys.argv[1]).read().split()]
checksum = sys.argv[3].replace("checksum ", "").replace(",", " ")
if times:
    print(f"{sys.argv[2]},{statistics.median(times):.4f},{min(times):.4f},"
          f"{len(times)},{checksum}")
else:
    print(f"{sys.argv[2]},,,0,{checksum or 'no-output'}")
PY
  tail -1 "$csv"
done
python3 "$carry/plot.py" "$carry/variants.csv" "$csv" "$out"
