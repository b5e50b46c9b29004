#!/usr/bin/env bash
# gemm before/after and hand-edited variants of the after kernel: builds
# every programs/*/*.cu with host.c, checks the outputs at 2048 are
# byte-identical to before.cu's, and times the kernels (POLYCUDA_PROFILE=1),
# REPS rounds alternating over the variants; writes $OUT/variants.csv.
set -uo pipefail
c=$(cd "$(dirname "$0")" && pwd); reps=${1:-5}; out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt"
echo "commit $(cat "$c/commit.txt")" >> "$out/gpu.txt"
nvcc -O2 -arch=sm_90 -w -c "$c/runtime/polycuda_cuda.cu" -o /tmp/rt.o
nvcc -O2 -arch=sm_90 "$c/cublas_gemm.cu" -o /tmp/cublas -lcublas &
for d in "$c"/programs/*; do for f in "$d"/*.cu; do
  ( v=$(basename "$f" .cu)
    nvcc -O2 -arch=sm_90 -w $(cat "$d/defines.txt") -I"$c/runtime" "$f" "$d/host.c" /tmp/rt.o -o "$d/$v" -lm -Xptxas -v > "$d/$v.log" 2>&1
    echo "$(basename "$d"),$v,$(grep -o 'Used [0-9]* registers' "$d/$v.log" | head -1),$(grep -o '[0-9]* bytes spill stores' "$d/$v.log" | head -1)" > "$d/$v.regs" ) &
done; done; wait
cat "$c"/programs/*/*.regs > "$out/registers.csv"
for d in "$c"/programs/*_2048; do
  "$d/before" > /tmp/ref.out
  for f in "$d"/*.cu; do v=$(basename "$f" .cu); "$d/$v" > /tmp/o.out
    if cmp -s /tmp/ref.out /tmp/o.out; then s=identical; else s=DIFFER; fi
    echo "$(basename "$d"),$v,$s"; done; done > "$out/outputs_2048.csv"
echo "program,variant,round,kernel_ms" > "$out/variants_runs.csv"
for r in $(seq "$reps"); do for d in "$c"/programs/*; do for f in "$d"/*.cu; do v=$(basename "$f" .cu)
  k=$(POLYCUDA_PROFILE=1 "$d/$v" 2>&1 >/dev/null | awk '/polycuda profile: scop/ { for (i = 1; i <= NF; ++i) if ($i == "kernels") k += $(i + 1) } END { printf "%.3f", k }')
  echo "$(basename "$d"),$v,$r,$k" >> "$out/variants_runs.csv"; done; done; done
echo "library,type,n,median_ms,min_ms" > "$out/cublas.csv"
for n in 4096; do for t in f64; do /tmp/cublas $n $t 10 >> "$out/cublas.csv"; done; done
python3 - "$out" <<'P'
import csv, sys, statistics as st
out = sys.argv[1]; d = {}
for r in csv.DictReader(open(out + '/variants_runs.csv')):
    d.setdefault((r['program'], r['variant']), []).append(float(r['kernel_ms']))
with open(out + '/variants.csv', 'w') as f:
    f.write('program,variant,median_kernel_ms,over_before\n')
    for (p, v), ts in sorted(d.items()):
        b = st.median(d[(p, 'before')])
        f.write('%s,%s,%.3f,%.3f\n' % (p, v, st.median(ts), st.median(ts) / b))
P
cat "$out/gpu.txt" "$out/registers.csv" "$out/outputs_2048.csv" "$out/variants.csv" "$out/cublas.csv"
