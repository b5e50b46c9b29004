#!/usr/bin/env bash
# The staging pool's geometry against copy bandwidth, on the GPU host
# (nvcc; run from a carry made by prepare.sh, or from the repository):
#   bash geometry.sh DIR [MAX_MB]
# DIR holds runtime/ and transfer_bench.cu. Builds transfer_bench with
# POLYCUDA_STAGING_CHUNKS (chunks per copy) and POLYCUDA_STAGING_PIECE_KIB
# (bytes per worker's piece) changed one at a time, and runs the default
# build with POLYCUDA_TRANSFER_THREADS changed; each variant twice, the
# variants alternating (VARIANTS: a subset; MIN_MB: the smallest size)
# -> $OUT/geometry.csv
# (variant,round, then transfer_bench's columns); STARTUP=0 skips the
# start-up check. Then the start-up check: a program linked
# with the runtime that returns from main at once, and one whose first
# call allocates at once (the pool is still being prepared and attached
# on its own thread), each run 40 times, with the pool attached at start
# and (POLYCUDA_ATTACH_AT_START=0) not -> $OUT/startup.txt.
set -uo pipefail
dir=$(cd "$1" && pwd)
max=${2:-64}
out=${OUT:-$dir/out}
mkdir -p "$out" /tmp/geo
nv="nvcc -O2 -arch=sm_90 -w"
declare -A flags=([base]="" [chunks8]="-DPOLYCUDA_STAGING_CHUNKS=8"
  [chunks16]="-DPOLYCUDA_STAGING_CHUNKS=16" [chunks32]="-DPOLYCUDA_STAGING_CHUNKS=32"
  [piece64]="-DPOLYCUDA_STAGING_PIECE_KIB=64" [piece256]="-DPOLYCUDA_STAGING_PIECE_KIB=256")
for v in "${!flags[@]}"; do
  $nv ${flags[$v]} -I"$dir/runtime" "$dir/transfer_bench.cu" "$dir/runtime/polycuda_cuda.cu" -o /tmp/geo/tb_$v &
done
wait
echo "variant,round,direction,method,bytes,median_ms,GB_per_s" > "$out/geometry.csv"
for round in 1 2; do
  for v in ${VARIANTS:-base chunks8 chunks16 chunks32 piece64 piece256 threads4 threads12 threads15}; do
    bin=/tmp/geo/tb_$v threads=
    case $v in threads*) bin=/tmp/geo/tb_base threads=${v#threads} ;; esac
    POLYCUDA_TRANSFER_THREADS=$threads "$bin" "$max" ${MIN_MB:-1} 2> /tmp/geo/err |
      grep -v '^#' | grep -v '^direction' | sed "s/^/$v,$round,/" >> "$out/geometry.csv"
    grep -q MISMATCH /tmp/geo/err && echo "$v: MISMATCH"
  done
done
wc -l < "$out/geometry.csv"

[ "${STARTUP:-1}" = 0 ] && exit 0
# Start-up: the pool's thread creates the context and page-locks the ring
# while main runs; the program must exit cleanly whenever main ends.
cat > /tmp/geo/quick.cu <<'CU'
#include "polycuda_cuda.h"
#include <stdlib.h>
int main(int argc, char **argv) {
  if (argc > 1) { // allocate at once: waits for nothing the pool holds
    void *p = polycuda_cuda_alloc(1 << 20, "quick");
    polycuda_cuda_free(p, "quick");
  }
  return 0;
}
CU
$nv -I"$dir/runtime" /tmp/geo/quick.cu "$dir/runtime/polycuda_cuda.cu" -o /tmp/geo/quick
{
  for attach in 1 0; do
    for mode in return alloc; do
      fails=0 start=$(date +%s%N) arg=; [ $mode = alloc ] && arg=alloc
      for i in $(seq 40); do
        POLYCUDA_ATTACH_AT_START=$attach timeout 20 /tmp/geo/quick $arg 2>> /tmp/geo/qerr || fails=$((fails + 1))
      done
      echo "POLYCUDA_ATTACH_AT_START=$attach $mode: 40 runs, $fails failed, $(( ($(date +%s%N) - start) / 40000000 )) ms per run"
    done
  done
  echo "stderr lines: $(wc -l < /tmp/geo/qerr 2>/dev/null || echo 0)"; head -5 /tmp/geo/qerr 2>/dev/null
} | tee "$out/startup.txt"
