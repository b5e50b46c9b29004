#!/usr/bin/env bash
# MMA layout check and timing: each case's mma and off builds against the
# sequential build (gcc), mma against off, then gemm 4096 kernel times
# alternating (POLYCUDA_PROFILE=1) and cuBLAS DGEMM.
set -uo pipefail
c=$(cd "$(dirname "$0")" && pwd); reps=${1:-5}; out=${OUT:-/tmp/out}; mkdir -p "$out"
r=$out/mma.txt
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$r"
echo "commit $(cat "$c/commit.txt")" >> "$r"
nvcc -O2 -arch=sm_90 -w -c "$c/runtime/polycuda_cuda.cu" -o /tmp/rt.o
nvcc -O2 -arch=sm_90 "$c/cublas_gemm.cu" -o /tmp/cublas -lcublas &
for d in "$c"/cases/*; do
  defs=$(cat "$d/defines.txt")
  case $(basename "$d") in gemm_4096) ;; *) gcc -O2 -std=gnu99 -w $defs "$d/input.c" -o "$d/ref" -lm & ;; esac
  for v in mma off; do
    nvcc -O2 -arch=sm_90 -w $defs -I"$c/runtime" "$d/$v.cu" "$d/$v.host.c" /tmp/rt.o -o "$d/$v" -lm -Xptxas -v > "$d/$v.log" 2>&1 &
  done
done; wait
for d in "$c"/cases/*; do n=$(basename "$d")
  for v in mma off; do
    echo "$n $v: $(grep -o 'Used [0-9]* registers' "$d/$v.log" | tr '\n' ' ') spills $(grep -o '[0-9]* bytes spill stores' "$d/$v.log" | tr '\n' ' ') DMMA $(cuobjdump -sass "$d/$v" | grep -c DMMA) DFMA $(cuobjdump -sass "$d/$v" | grep -c DFMA)" >> "$r"
  done
  [ "$n" = gemm_4096 ] && continue
  "$d/ref" > "$d/ref.out"; "$d/mma" > "$d/mma.out"; "$d/off" > "$d/off.out"
  for v in mma off; do echo "$n ref vs $v: $(python3 "$c/compare_outputs.py" "$d/ref.out" "$d/$v.out" --rtol 1e-9 --atol 1e-9 2>&1 | tail -1)" >> "$r"; done
  echo "$n off vs mma exact: $(python3 "$c/compare_outputs.py" "$d/off.out" "$d/mma.out" --rtol 0 --atol 0 2>&1 | tail -1)" >> "$r"
  python3 - "$d/ref.out" "$d/off.out" "$d/mma.out" >> "$r" <<'P'
import sys, re
def vals(f):
    return [float(x) for x in re.findall(r'-?\d+\.\d+(?:e[-+]?\d+)?', open(f).read())]
ref, off, mma = (vals(f) for f in sys.argv[1:4])
def worst(a, b):
    return max(abs(x - y) / max(abs(x), 1e-300) for x, y in zip(a, b))
print('  max rel diff vs ref: off %.3g mma %.3g; mma vs off %.3g; values %d' % (worst(ref, off), worst(ref, mma), worst(off, mma), len(ref)))
P
done
d=$c/cases/gemm_odd; compute-sanitizer --tool memcheck "$d/mma" > /dev/null 2> "$out/sanitizer.txt"; echo "sanitizer gemm_odd mma: $(tail -1 "$out/sanitizer.txt")" >> "$r"
d=$c/cases/gemm_4096
echo "variant,round,kernel_ms" > "$out/runs.csv"
for i in $(seq "$reps"); do for v in mma off; do
  k=$(POLYCUDA_PROFILE=1 "$d/$v" 2>&1 >/dev/null | awk '/polycuda profile: scop/ { for (i = 1; i <= NF; ++i) if ($i == "kernels") k += $(i + 1) } END { printf "%.3f", k }')
  echo "$v,$i,$k" >> "$out/runs.csv"; done; done
echo "4096 outputs md5: mma $("$d/mma" | md5sum | cut -c1-12) off $("$d/off" | md5sum | cut -c1-12)" >> "$r"
echo "cublas: $(/tmp/cublas 4096 f64 10)" >> "$r"
python3 - "$out" >> "$r" <<'P'
import csv, sys, statistics as st
d = {}
for row in csv.DictReader(open(sys.argv[1] + '/runs.csv')):
    d.setdefault(row['variant'], []).append(float(row['kernel_ms']))
b = st.median(d['off'])
for v, ts in d.items():
    print('median %s %.3f ms (min %.3f), over off %.3f' % (v, st.median(ts), min(ts), st.median(ts) / b))
P
cat "$r"
