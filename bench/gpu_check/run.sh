#!/usr/bin/env bash
# Runs on the GPU host, in one device call: builds the carried programs with
# CMake + nvcc, builds each input sequentially with gcc as the reference,
# runs both and compares (MEDIUM; EXACT, i.e. MEDIUM translated with
# --fp-contract=off, at tolerance 0), and times the LARGE runs end to end.
# Writes $OUT/gpu_check.csv and $OUT/gpu_check.log.
#   run.sh CARRY_DIR
set -uo pipefail
carry=$(cd "$1" && pwd)
out=${OUT:-$carry/out}
mkdir -p "$out"
log=$out/gpu_check.log
exec > >(tee "$log") 2>&1
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)
echo "gpu: $gpu"
echo "commit: $(cat "$carry/commit.txt")"
cmake -S "$carry" -B /tmp/gpu_check_build_$(basename "$carry") -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build /tmp/gpu_check_build_$(basename "$carry") -j 16 2>&1 | grep -E "error|Error" | head -20
csv=$out/gpu_check.csv
echo "program,size,verdict,gpu_end_to_end_ms,sequential_ms,launches" > "$csv"
mkdir -p /tmp/ref
for input in "$carry/inputs/"*.c; do
  name=$(basename "$input" .c)
  for size in MEDIUM LARGE EXACT LARGEINT; do
    bin=/tmp/gpu_check_build_$(basename "$carry")/${name}_${size}
    if [ ! -x "$bin" ]; then
      [ $size = LARGEINT ] || echo "$name,$size,not-built,," >> "$csv"
      continue
    fi
    if [ $size = LARGE ] || [ $size = LARGEINT ]; then
      # One untimed run (caches, clocks), then the time of the second.
      timeout 120 "$bin" > /dev/null 2>&1
    fi
    t0=$(date +%s%N)
    POLYCUDA_LAUNCH_STATS=1 timeout 120 "$bin" > /tmp/ref/$name.$size.gpu \
      2> /tmp/ref/$name.$size.err
    rc=$?
    t1=$(date +%s%N)
    gpu_s=$(( (t1 - t0) / 1000000 ))
    launches=$(sed -n 's/^polycuda: \([0-9]*\) kernel launches$/\1/p' \
      /tmp/ref/$name.$size.err)
    if [ $rc -ne 0 ]; then
      echo "$name,$size,run-failed(rc=$rc),$gpu_s," >> "$csv"
      head -3 /tmp/ref/$name.$size.err
      continue
    fi
    if [ $size = MEDIUM ] || [ $size = EXACT ]; then
      if [ $size = MEDIUM ]; then
        gcc -O2 -std=gnu99 -w -DMEDIUM_DATASET "$input" -o /tmp/ref/$name.seq -lm
      fi
      s0=$(date +%s%N)
      /tmp/ref/$name.seq > /tmp/ref/$name.$size.seq
      s1=$(date +%s%N)
      tol=(--rtol 1e-6)
      [ $name = deriche ] && tol=(--rtol 1e-4)
      [ $size = EXACT ] && tol=(--rtol 0 --atol 0)
      if python3 "$carry/compare_outputs.py" /tmp/ref/$name.$size.seq \
          /tmp/ref/$name.$size.gpu "${tol[@]}" > /tmp/ref/$name.cmp; then
        verdict=match
      else
        verdict=MISMATCH
        head -3 /tmp/ref/$name.cmp
      fi
      echo "$name,$size,$verdict,$gpu_s,$(( (s1 - s0) / 1000000 )),$launches" >> "$csv"
    else
      echo "$name,$size,completed,$gpu_s,,$launches" >> "$csv"
    fi
  done
done
cat "$csv"
