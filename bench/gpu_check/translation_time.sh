#!/usr/bin/env bash
# Times the translation of every inputs/*.c here (polycuda --target=cuda
# -DLARGE_DATASET, the whole process: parsing, analysis, printing, writing),
# RUNS times each, and writes CSV to stdout: every run, the median and the
# maximum. Run it on an otherwise idle machine.
#   translation_time.sh [RUNS]      default 5
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
polycuda=${POLYCUDA:-$root/build/translator/polycuda}
runs=${1:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "# translation time with $(basename "$polycuda") --target=cuda -DLARGE_DATASET, $runs runs each"
echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
echo "program,runs_ms,median_ms,max_ms"
for input in "$root/inputs/"*.c; do
  name=$(basename "$input" .c)
  times=()
  for ((r = 0; r < runs; r++)); do
    start=$(date +%s%N)
    "$polycuda" --target=cuda -DLARGE_DATASET "$input" -o "$work/out.cu" 2>/dev/null
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000000 )))
  done
  sorted=($(printf '%s\n' "${times[@]}" | sort -n))
  echo "$name,$(IFS=' '; echo "${times[*]}"),${sorted[$((runs / 2))]},${sorted[$((runs - 1))]}"
done
