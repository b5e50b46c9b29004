#!/usr/bin/env bash
# On the GPU host, in the carry of prepare.sh: builds both versions of each
# program, checks that their outputs agree (rtol 1e-9), then runs them
# alternately REPS times (default 5) with POLYCUDA_SCOP_TIME=1 (the scops'
# time, copies included) and with POLYCUDA_PROFILE=1 (the kernels' time,
# each launch synchronized), and writes $OUT/block_sizes.csv: program,
# median scop time (ms, summed over the scops of one run) before and after,
# their ratio, the same for the kernels' time, the outputs' agreement.
#   run.sh CARRY [REPS]
set -uo pipefail
carry=$(cd "$1" && pwd)
reps=${2:-5}
out=${OUT:-/tmp/out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
echo "commit $(cat "$carry/commit.txt")" >> "$out/gpu.txt"
nvcc -O2 -arch=sm_90 -w -c "$carry/runtime/polycuda_cuda.cu" -o /tmp/bs_rt.o
build() {
  local d=$1 v=$2
  timeout 300 nvcc -O2 -arch=sm_90 -w -DLARGE_DATASET -I"$carry/runtime" "$d/$v.cu" \
    "$d/$v.host.c" /tmp/bs_rt.o -o "$d/$v" -lm > "$d/$v.build.log" 2>&1
}
export -f build
export carry
for d in "$carry"/programs/*; do
  echo "$d before"; echo "$d after"
done | xargs -P 16 -n 2 bash -c 'build "$0" "$1"'
scop_ms() {  # total scop time of one run of $1
  POLYCUDA_SCOP_TIME=1 timeout 120 "$1" 2>&1 > /dev/null |
    awk '/polycuda scop time/ { t += $(NF - 1) } END { printf "%.3f", t }'
}
kernel_ms() {  # total kernel time of one run of $1
  POLYCUDA_PROFILE=1 timeout 120 "$1" 2>&1 > /dev/null |
    awk '/polycuda profile: scop/ { for (i = 1; i <= NF; ++i)
           if ($i == "kernels") k += $(i + 1) } END { printf "%.3f", k }'
}
median() { tr ' ' '\n' | grep . | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
echo "program,before_ms,after_ms,after_over_before,before_kernel_ms,after_kernel_ms,kernel_after_over_before,outputs" > "$out/block_sizes.csv"
for d in "$carry"/programs/*; do
  name=$(basename "$d")
  if [ ! -x "$d/before" ] || [ ! -x "$d/after" ]; then
    echo "$name,,,,,,,not-built" >> "$out/block_sizes.csv"; continue
  fi
  timeout 120 "$d/before" > "$d/before.out" 2> /dev/null
  timeout 120 "$d/after" > "$d/after.out" 2> /dev/null
  if python3 "$carry/compare_outputs.py" "$d/before.out" "$d/after.out" \
       --rtol 1e-9 > /dev/null 2>&1; then same=match; else same=DIFFER; fi
  b=() a=() kb=() ka=()
  for r in $(seq "$reps"); do
    b+=("$(scop_ms "$d/before")") a+=("$(scop_ms "$d/after")")
    kb+=("$(kernel_ms "$d/before")") ka+=("$(kernel_ms "$d/after")")
  done
  mb=$(echo "${b[*]}" | median) ma=$(echo "${a[*]}" | median)
  mkb=$(echo "${kb[*]}" | median) mka=$(echo "${ka[*]}" | median)
  ratio=$(awk -v b="$mb" -v a="$ma" 'BEGIN { if (b > 0) printf "%.3f", a / b }')
  kratio=$(awk -v b="$mkb" -v a="$mka" 'BEGIN { if (b > 0) printf "%.3f", a / b }')
  echo "$name,$mb,$ma,$ratio,$mkb,$mka,$kratio,$same" >> "$out/block_sizes.csv"
done
cat "$out/block_sizes.csv"
