#!/usr/bin/env bash
# GPU host half of prepare.sh: builds each translated kernel with nvcc (the
# .cu and its C host file, polybench.c as C) and the sequential reference
# with gcc -O2, runs both and compares the arrays PolyBench dumps
# (POLYBENCH_DUMP_ARRAYS, printed with 2 decimals: a value whose last digit
# differs because the GPU contracts a*b+c into one rounding may be off by
# 0.01, hence --atol 0.0101). Writes $OUT/polybench.csv.
#   run.sh CARRY
set -uo pipefail
carry=$(cd "$1" && pwd)
out=${OUT:-$carry/out}
mkdir -p "$out" /tmp/pbrun
size=$(cat "$carry/size.txt")
pb=$carry/polybench
build_one() {  # dir name variant
  local dir=$1 name=$2 variant=$3 w=/tmp/pbrun/$2_$3
  mkdir -p "$w"
  local flags=(-I"$pb/utilities" -I"$pb/$dir" -D${size}_DATASET -DPOLYBENCH_DUMP_ARRAYS)
  [ "$variant" = c99 ] && flags+=(-DPOLYBENCH_USE_C99_PROTO)
  gcc -O2 -w "${flags[@]}" "$pb/utilities/polybench.c" "$pb/$dir/$name.c" \
    -o "$w/ref" -lm > "$w/ref.build" 2>&1
  [ -f "$carry/gen/${name}_$variant.cu" ] &&
  nvcc -O2 -arch=sm_90 -w "${flags[@]}" -I"$carry/runtime" \
    "$carry/gen/${name}_$variant.cu" "$carry/gen/${name}_$variant.host.c" \
    "$pb/utilities/polybench.c" "$carry/runtime/polycuda_cuda.cu" \
    -o "$w/gpu" -lm > "$w/gpu.build" 2>&1
  return 0
}
export -f build_one
export pb carry size
while read -r dir name; do
  for v in std c99; do echo "$dir $name $v"; done
done < "$carry/kernels.txt" | xargs -P "$(nproc)" -n 3 bash -c 'build_one "$@"' _
echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)" > "$out/polybench.csv"
echo "commit: $(cat "$carry/commit.txt"); size: $size" >> "$out/polybench.csv"
echo "kernel,variant,verdict,values,gpu_ms,sequential_ms" >> "$out/polybench.csv"
while read -r dir name; do
  for v in std c99; do
    w=/tmp/pbrun/${name}_$v
    if [ ! -x "$w/gpu" ]; then
      echo "$name,$v,not-built,,," >> "$out/polybench.csv"; continue
    fi
    s0=$(date +%s%N); "$w/ref" 2> "$w/ref.txt" > /dev/null; s1=$(date +%s%N)
    timeout 120 "$w/gpu" 2> "$w/gpu.txt" > /dev/null; rc=$?; g1=$(date +%s%N)
    if [ $rc -ne 0 ]; then
      echo "$name,$v,run-failed(rc=$rc),,," >> "$out/polybench.csv"; continue
    fi
    if python3 "$carry/compare_outputs.py" "$w/ref.txt" "$w/gpu.txt" --rtol 1e-6 \
        --atol 0.0101 > "$w/cmp.txt" 2>&1; then verdict=match; else verdict=MISMATCH; fi
    values=$(grep -o '[0-9]* values' "$w/cmp.txt" | head -1 | cut -d' ' -f1)
    echo "$name,$v,$verdict,$values,$(( (g1 - s1) / 1000000 )),$(( (s1 - s0) / 1000000 ))" >> "$out/polybench.csv"
    [ $verdict = match ] || tail -3 "$w/cmp.txt"
  done
done < "$carry/kernels.txt"
cat "$out/polybench.csv"
