#!/usr/bin/env bash
# gemm fp64 kernel variants (hand edits of the printed kernel), kernel time.
set -uo pipefail
c=$(cd "$(dirname "$0")" && pwd); out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt"
V="0 A U HU AHU HUL AHUL AUL"
nvcc -O2 -arch=sm_90 -w -c "$c/runtime/polycuda_cuda.cu" -o /tmp/rt.o
nvcc -O2 -arch=sm_90 "$c/cublas_gemm.cu" -o /tmp/cublas -lcublas &
for n in 2048 4096; do for v in $V; do
  ( nvcc -O2 -arch=sm_90 -w -DLARGE_DATASET -DNI=$n -DNJ=$n -DNK=$n -I"$c/runtime" "$c/p/g${n}_$v.cu" "$c/p/g$n.host.c" /tmp/rt.o -o /tmp/g${n}_$v -lm -Xptxas -v > /tmp/b_${n}_$v.log 2>&1
    cuobjdump -sass /tmp/g${n}_$v | grep -oE "DFMA|DMUL|LDS[.A-Z0-9]*|BRA|ISETP[.A-Z0-9]*|BAR" | sort | uniq -c | tr '\n' ' ' > /tmp/s_${n}_$v.txt ) &
done; done; wait
for v in $V; do echo "$v $(grep -o 'Used [0-9]* registers' /tmp/b_4096_$v.log) $(cat /tmp/s_4096_$v.txt)"; done > "$out/sass.txt"
cuobjdump -sass /tmp/g4096_AHUL > "$out/sass_AHUL.txt"; cuobjdump -sass /tmp/g4096_0 > "$out/sass_0.txt"
/tmp/g2048_0 > /tmp/ref.out
for v in $V; do /tmp/g2048_$v > /tmp/o.out; if cmp -s /tmp/ref.out /tmp/o.out; then echo "$v identical"; else echo "$v DIFFER"; fi; done > "$out/outputs_2048.txt"
echo "variant,run,kernel_ms" > "$out/kernel_ms.csv"
for r in 1 2 3; do for v in $V; do
  k=$(POLYCUDA_PROFILE=1 /tmp/g4096_$v 2>&1 >/dev/null | awk '/polycuda profile: scop/ { for (i = 1; i <= NF; ++i) if ($i == "kernels") k += $(i + 1) } END { printf "%.3f", k }')
  echo "$v,$r,$k" >> "$out/kernel_ms.csv"; done; done
echo "library,type,n,median_ms,min_ms" > "$out/cublas.csv"; /tmp/cublas 4096 f64 10 >> "$out/cublas.csv"
cat "$out/gpu.txt" "$out/sass.txt" "$out/outputs_2048.txt" "$out/cublas.csv"
python3 - "$out/kernel_ms.csv" <<'P'
import csv,sys,statistics as s
d={}
for r in csv.DictReader(open(sys.argv[1])): d.setdefault(r['variant'],[]).append(float(r['kernel_ms']))
for k,v in d.items(): print(k, s.median(v), v)
P
