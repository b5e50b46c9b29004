#!/usr/bin/env bash
set -uo pipefail
c=$(cd "$(dirname "$0")" && pwd); reps=${1:-3}; out=${OUT:-/tmp/out}; mkdir -p "$out"; r=$out/x.txt
nvcc -O2 -arch=sm_90 -w -c "$c/../runtime/polycuda_cuda.cu" -o /tmp/rt.o
defs=$(cat "$c/defines.txt"); vs="${VARIANTS:-off a off_nocomp a_nocomp off_nocopy a_nocopy}"
for v in $vs; do nvcc -O2 -arch=sm_90 -w $defs -I"$c/../runtime" "$c/$v.cu" "$c/$v.host.c" /tmp/rt.o -o "$c/$v" -lm -Xptxas -v > "$c/$v.log" 2>&1 & done; wait
for v in $vs; do echo "$v $(grep -o 'Used [0-9]* registers' "$c/$v.log") spill $(grep -o '[0-9]* bytes spill stores' "$c/$v.log") " >> "$r"; done
echo "variant,round,kernel_ms" > "$out/xruns.csv"
for i in $(seq "$reps"); do for v in $vs; do
  k=$(POLYCUDA_PROFILE=1 "$c/$v" 2>&1 >/dev/null | awk '/polycuda profile: scop/ { for (i = 1; i <= NF; ++i) if ($i == "kernels") k += $(i + 1) } END { printf "%.3f", k }')
  echo "$v,$i,$k" >> "$out/xruns.csv"; done; done
python3 - "$out" >> "$r" <<'P'
import csv, sys, statistics as st
d = {}
for row in csv.DictReader(open(sys.argv[1] + '/xruns.csv')):
    d.setdefault(row['variant'], []).append(float(row['kernel_ms']))
for v, ts in d.items():
    print('median %s %.3f ms (min %.3f)' % (v, st.median(ts), min(ts)))
P
cat "$r"
