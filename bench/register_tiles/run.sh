#!/usr/bin/env bash
# On the GPU host, in the carry of prepare.sh: builds both versions of each
# program (with the defines they were translated with), compares their
# outputs (rtol 1e-9 for double, 1e-5 for float), then runs them
# alternately REPS times (default 3), with POLYCUDA_PROFILE=1 (kernel time:
# each launch synchronized) and with POLYCUDA_SCOP_TIME=1 (the scop's time,
# copies included), and writes $OUT/register_tiles.csv: program, median
# kernel time and scop time (ms) of each version, their ratios, the
# outputs' agreement; and
# $OUT/cublas.csv: cuBLAS DGEMM and SGEMM at the gemm sizes, in the same run.
#   run.sh CARRY [REPS]
set -uo pipefail
carry=$(cd "$1" && pwd)
reps=${2:-3}
out=${OUT:-/tmp/out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt"
echo "commit $(cat "$carry/commit.txt")" >> "$out/gpu.txt"
nvcc -O2 -arch=sm_90 -w -c "$carry/runtime/polycuda_cuda.cu" -o /tmp/rt_rt.o
nvcc -O2 -arch=sm_90 "$carry/cublas_gemm.cu" -o /tmp/rt_cublas -lcublas
build() {
  local d=$1 v=$2
  timeout 300 nvcc -O2 -arch=sm_90 -w $(cat "$d/defines.txt") -I"$carry/runtime" \
    "$d/$v.cu" "$d/$v.host.c" /tmp/rt_rt.o -o "$d/$v" -lm > "$d/$v.build.log" 2>&1
}
export -f build
export carry
for d in "$carry"/programs/*; do
  echo "$d tiled"; echo "$d plain"
done | xargs -P 16 -n 2 bash -c 'build "$0" "$1"'
# profile BINARY: "kernel_ms scop_ms" of one run (output discarded).
profile() {
  POLYCUDA_PROFILE=1 timeout 300 "$1" 2>&1 > /dev/null |
    awk '/polycuda profile: scop/ { for (i = 1; i <= NF; ++i) {
           if ($i == "kernels") k += $(i + 1);
           if ($i == "scop") s += $(i + 2) } }
         END { printf "%.3f %.3f", k, s }'
}
# scop_ms BINARY: the scops' time of one run, launches not synchronized.
scop_ms() {
  POLYCUDA_SCOP_TIME=1 timeout 300 "$1" 2>&1 > /dev/null |
    awk '/polycuda scop time/ { t += $(NF - 1) } END { printf "%.3f", t }'
}
median() { tr ' ' '\n' | grep . | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
echo "program,plain_kernel_ms,tiled_kernel_ms,kernel_tiled_over_plain,plain_scop_ms,tiled_scop_ms,scop_tiled_over_plain,outputs" > "$out/register_tiles.csv"
for d in "$carry"/programs/*; do
  name=$(basename "$d")
  if [ ! -x "$d/plain" ] || [ ! -x "$d/tiled" ]; then
    echo "$name,,,,,,,not-built" >> "$out/register_tiles.csv"; continue
  fi
  rtol=1e-9; grep -q "DATA_TYPE=float" "$d/defines.txt" && rtol=1e-5
  same=not-compared # (4096^3: 16.7 M values printed; 2048^3 is compared)
  if [[ $name != *_4096 ]]; then
    timeout 300 "$d/plain" > "$d/plain.out" 2> /dev/null
    timeout 300 "$d/tiled" > "$d/tiled.out" 2> /dev/null
    if python3 "$carry/compare_outputs.py" "$d/plain.out" "$d/tiled.out" \
         --rtol $rtol > "$d/compare.txt" 2>&1; then same=match; else same=DIFFER; fi
    rm -f "$d/plain.out" "$d/tiled.out"
  fi
  pk=() tk=() ps=() ts=()
  for r in $(seq "$reps"); do
    read -r k _ <<< "$(profile "$d/plain")"; pk+=("$k")
    read -r k _ <<< "$(profile "$d/tiled")"; tk+=("$k")
    ps+=("$(scop_ms "$d/plain")") ts+=("$(scop_ms "$d/tiled")")
  done
  mpk=$(echo "${pk[*]}" | median) mtk=$(echo "${tk[*]}" | median)
  mps=$(echo "${ps[*]}" | median) mts=$(echo "${ts[*]}" | median)
  rk=$(awk -v b="$mpk" -v a="$mtk" 'BEGIN { if (b > 0) printf "%.3f", a / b }')
  rs=$(awk -v b="$mps" -v a="$mts" 'BEGIN { if (b > 0) printf "%.3f", a / b }')
  echo "$name,$mpk,$mtk,$rk,$mps,$mts,$rs,$same" >> "$out/register_tiles.csv"
done
echo "library,type,n,median_ms,min_ms" > "$out/cublas.csv"
for d in "$carry"/programs/gemm_*; do
  n=${d##*_}; type=f64; [[ $d == *float* ]] && type=f32
  /tmp/rt_cublas "$n" "$type" 10 >> "$out/cublas.csv"
done
cat "$out/gpu.txt" "$out/register_tiles.csv" "$out/cublas.csv"
