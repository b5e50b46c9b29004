#!/usr/bin/env bash
# gemm fp64 4096^3: the printed kernel (before) and hand edits (loop, rot);
# outputs compared by checksum, kernel times alternating (POLYCUDA_PROFILE=1),
# cuBLAS DGEMM, ncu warp-state sections of before and rot.
set -uo pipefail
c=$(cd "$(dirname "$0")" && pwd); reps=${1:-5}; out=${OUT:-/tmp/out}; mkdir -p "$out"
r=$out/gemm.txt
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$r"
echo "commit $(cat "$c/commit.txt")" >> "$r"
nvcc -O2 -arch=sm_90 -w -c "$c/runtime/polycuda_cuda.cu" -o /tmp/rt.o
nvcc -O2 -arch=sm_90 "$c/cublas_gemm.cu" -o /tmp/cublas -lcublas &
d=$c/gemm_4096
vs=$(cd "$d" && ls *.cu | sed "s/\.cu$//")
for v in $vs; do
  nvcc -O2 -arch=sm_90 -w $(cat "$d/defines.txt") -I"$c/runtime" "$d/$v.cu" "$d/host.c" /tmp/rt.o -o "$d/$v" -lm -Xptxas -v > "$d/$v.log" 2>&1 &
done; wait
for v in $vs; do echo "$v $(grep -o 'Used [0-9]* registers' "$d/$v.log" | head -1) $(grep -o '[0-9]* bytes spill stores' "$d/$v.log" | head -1)" >> "$r"
  cuobjdump -sass "$d/$v" | grep -o "LDS[.A-Z0-9]*\|DFMA\|STS[.A-Z0-9]*\|BAR.SYNC[.A-Z]*" | sort | uniq -c | tr '\n' ' ' >> "$r"; echo >> "$r"; done
for v in $vs; do echo "$v output md5 $("$d/$v" | md5sum)" >> "$r"; done
echo "variant,round,kernel_ms" > "$out/gemm_runs.csv"
for i in $(seq "$reps"); do for v in $vs; do
  k=$(POLYCUDA_PROFILE=1 "$d/$v" 2>&1 >/dev/null | awk '/polycuda profile: scop/ { for (i = 1; i <= NF; ++i) if ($i == "kernels") k += $(i + 1) } END { printf "%.3f", k }')
  echo "$v,$i,$k" >> "$out/gemm_runs.csv"; done; done
echo "cublas: $(/tmp/cublas 4096 f64 10)" >> "$r"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$r"
python3 - "$out" >> "$r" <<'P'
import csv, sys, statistics as st
d = {}
for row in csv.DictReader(open(sys.argv[1] + '/gemm_runs.csv')):
    d.setdefault(row['variant'], []).append(float(row['kernel_ms']))
b = st.median(d['before'])
for v, ts in d.items():
    print('median %s %.3f ms, over before %.3f' % (v, st.median(ts), st.median(ts) / b))
P
cat "$r"
