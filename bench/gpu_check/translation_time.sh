#!/usr/bin/env bash
# Times the translation of every inputs/*.c here (polycuda --target=cuda
# -DLARGE_DATASET, the whole process: parsing, analysis, printing, writing),
# RUNS times each, and writes CSV to stdout: every run, the median and the
# maximum. With POLYBENCH_ROOT (an unmodified PolyBench/C 4.2.1, not in this
# repository), times its 30 kernels instead, as published. Run it on an
# otherwise idle machine.
#   translation_time.sh [RUNS] [POLYBENCH_ROOT]      RUNS: default 5
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
polycuda=${POLYCUDA:-$root/build/translator/polycuda}
runs=${1:-5}
pb=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "# translation time with $(basename "$polycuda") --target=cuda -DLARGE_DATASET, $runs runs each${pb:+, published PolyBench/C 4.2.1}"
echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
echo "program,runs_ms,median_ms,max_ms"
if [ -n "$pb" ]; then
  pb=$(cd "$pb" && pwd)
  inputs=$(cd "$pb" && find . -name '*.c' ! -path './utilities/*' | sort)
else
  inputs=$(cd "$root/inputs" && ls *.c)
fi
for input in $inputs; do
  name=$(basename "$input" .c)
  if [ -n "$pb" ]; then
    flags=(-I"$pb/utilities" -I"$pb/$(dirname "$input")" "$pb/$input")
  else
    flags=("$root/inputs/$input")
  fi
  times=()
  for ((r = 0; r < runs; r++)); do
    start=$(date +%s%N)
    "$polycuda" --target=cuda -DLARGE_DATASET "${flags[@]}" -o "$work/out.cu" 2>/dev/null
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000000 )))
  done
  sorted=($(printf '%s\n' "${times[@]}" | sort -n))
  echo "$name,$(IFS=' '; echo "${times[*]}"),${sorted[$((runs / 2))]},${sorted[$((runs - 1))]}"
done
