#!/usr/bin/env bash
# Runs on the GPU host: builds every program prepare_random.sh carried
# (sequentially with gcc, the reference; its CUDA translation with nvcc),
# runs both and compares them (rtol 1e-9, as tests/random/differential.sh).
# Writes $OUT/random_cuda.csv and a summary line to $OUT/random_cuda.log.
#   run_random.sh CARRY_DIR [JOBS]
set -uo pipefail
carry=$(cd "$1" && pwd)
jobs=${2:-16}
out=${OUT:-$carry/out}
mkdir -p "$out"
runtime=$carry/runtime
nvcc -O2 -arch=sm_90 -w -c "$runtime/polycuda_cuda.cu" -o /tmp/polycuda_cuda.o
check() {
  local dir=$1 seed
  seed=$(basename "$dir")
  local w=/tmp/random_cuda/$seed
  mkdir -p "$w"
  gcc -O2 -std=gnu99 -w "$dir/random.c" -o "$w/ref" -lm &&
    timeout 60 "$w/ref" > "$w/ref.out" || { echo "$seed,reference-failed"; return; }
  # A time limit on nvcc too: its optimizer has hung on generated loop
  # nests (inputs/random_seed8003309.c).
  timeout 300 nvcc -O2 -arch=sm_90 -w -I"$runtime" "$dir/out.cu" \
    "$dir/out.host.c" /tmp/polycuda_cuda.o -o "$w/gpu" -lm > "$w/build.log" 2>&1
  case $? in
    0) ;;
    124) echo "$seed,build-timeout"; return;;
    *) echo "$seed,build-failed"; return;;
  esac
  timeout 60 "$w/gpu" > "$w/gpu.out" 2> "$w/gpu.err" ||
    { echo "$seed,run-failed"; return; }
  if python3 "$carry/compare_outputs.py" "$w/ref.out" "$w/gpu.out" \
      --rtol 1e-9 --exact-integers > "$w/compare.log"; then
    echo "$seed,match"
  else
    echo "$seed,MISMATCH"
  fi
}
export -f check
export runtime carry
ls -d "$carry"/programs/*/ | while read -r d; do
  [ -f "$d/out.cu" ] && echo "${d%/}"
done | xargs -P "$jobs" -I{} bash -c 'check {}' | sort -n > "$out/random_cuda.csv"
total=$(wc -l < "$out/random_cuda.csv")
matched=$(grep -c ",match$" "$out/random_cuda.csv")
{
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
  echo "commit: $(cat "$carry/commit.txt")"
  echo "random CUDA: $total programs run, $matched matched," \
    "$((total - matched)) failed; refused by polycuda:" \
    "$(wc -l < "$carry/refused.txt"), translation failures:" \
    "$(wc -l < "$carry/failed.txt")"
  grep -v ",match$" "$out/random_cuda.csv" | head -20
} | tee "$out/random_cuda.log"
