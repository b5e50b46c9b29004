#!/usr/bin/env bash
# GPU host: each program at LARGE, 5 alternating runs of the default runtime
# policy (auto: plain below 1 MiB) and POLYCUDA_STAGED_MIN_BYTES=1 (every copy
# staged), with POLYCUDA_PROFILE=1 (each copy synchronized) and with
# POLYCUDA_SCOP_TIME=1 (the scop's time, copies included).
set -u
c=$(cd "$(dirname "$0")" && pwd); out=$1
nvcc -O2 -arch=sm_90 -w -c $c/runtime/polycuda_cuda.cu -o /tmp/rt.o
for p in $c/gen/*.cu; do
  k=$(basename $p .cu)
  nvcc -O2 -arch=sm_90 -w -DLARGE_DATASET $(cat ${p%.cu}.defs) -I$c/runtime $p ${p%.cu}.host.c /tmp/rt.o -o /tmp/$k -lm &
done; wait
echo "program,policy,run,copies_ms,scop_ms" > $out/small_policy.csv
for k in gemver bicg mvt atax gesummv gemm; do
  for r in 1 2 3 4 5; do
    for pol in default all_staged; do
      env=(); [ $pol = all_staged ] && env=(POLYCUDA_STAGED_MIN_BYTES=1)
      prof=$(env "${env[@]}" POLYCUDA_PROFILE=1 /tmp/$k 2>&1 >/dev/null | tee -a $out/profiles_$k.txt | awk '/polycuda profile: scop/ { for (i=1;i<=NF;i++) if ($i=="copies") c+=$(i+1) } END { printf "%.3f", c }')
      st=$(env "${env[@]}" POLYCUDA_SCOP_TIME=1 /tmp/$k 2>&1 >/dev/null | awk '/polycuda scop time/ { t += $(NF - 1) } END { printf "%.3f", t }')
      echo "$k,$pol,$r,$prof,$st" >> $out/small_policy.csv
    done
  done
  env POLYCUDA_STAGED_MIN_BYTES=1 /tmp/$k > /tmp/$k.staged.out 2>/dev/null; /tmp/$k > /tmp/$k.default.out 2>/dev/null
  cmp -s /tmp/$k.staged.out /tmp/$k.default.out && echo "$k outputs identical" || echo "$k outputs DIFFER"
done | tee $out/outputs.txt
python3 - $out/small_policy.csv <<'PY'
import csv, sys, statistics as st
rows = list(csv.DictReader(open(sys.argv[1])))
for k in dict.fromkeys(r['program'] for r in rows):
    line = [k]
    for pol in ('default', 'all_staged'):
        rs = [r for r in rows if r['program'] == k and r['policy'] == pol]
        line.append(f"{pol}: copies {st.median(float(r['copies_ms']) for r in rs):.3f} scop {st.median(float(r['scop_ms']) for r in rs):.3f}")
    print('  '.join(line))
PY
