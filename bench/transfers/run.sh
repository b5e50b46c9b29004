#!/usr/bin/env bash
# GPU host half of prepare.sh (needs nvcc, gcc, python3; no isl or Clang):
#   bash run.sh CARRY [PARTS]          PARTS: default "bench check time"
#   bench  transfer_bench: malloc'ed arrays 1 MB - 1 GB, both directions,
#          runtime auto/plain/staged against pageable and pinned
#          cudaMemcpy -> $OUT/transfers.csv
#   check  every inputs/ program at MEDIUM, run with POLYCUDA_TRANSFERS=plain,
#          staged and auto, compared with the sequential gcc
#          build -> $OUT/check.csv
#   time   the timed kernels at LARGE, before (its generated code and
#          runtime) and after, alternating, 3 runs each: the scop region
#          (the launcher call; CUDA context created before main in both) ->
#          $OUT/large.csv; one more run of each with POLYCUDA_PROFILE=1
#          (before: its code on this runtime with POLYCUDA_TRANSFERS=plain,
#          the same copies as its own runtime) -> $OUT/profiles.txt
set -uo pipefail
carry=$(cd "$1" && pwd)
parts=${2:-bench check time}
out=${OUT:-$carry/out}
mkdir -p "$out" /tmp/xw
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)
echo "gpu: $gpu; commit $(cat "$carry/commit.txt"), before $(cat "$carry/before_commit.txt")" | tee "$out/machine.txt"
nproc >> "$out/machine.txt"
nv="nvcc -O2 -arch=sm_90 -w"
$nv -c "$carry/runtime/polycuda_cuda.cu" -o /tmp/xw/rt_after.o
$nv -c "$carry/runtime_before/polycuda_cuda.cu" -o /tmp/xw/rt_before.o
$nv -c "$carry/bench_timer.cu" -o /tmp/xw/timer.o

if [[ $parts == *bench* ]]; then
  $nv -I"$carry/runtime" "$carry/transfer_bench.cu" /tmp/xw/rt_after.o -o /tmp/xw/tb
  /tmp/xw/tb ${BENCH_MAX_MB:-1024} > "$out/transfers.csv" 2> "$out/transfers.err"
  echo "transfer_bench rc=$?"; tail -1 "$out/transfers.csv"
fi

# build NAME SIZE VARIANT: gen/NAME_SIZE_VARIANT.{cu,host.c} -> /tmp/xw/NAME_SIZE_VARIANT
build() {
  local n=$1_$2_$3 g=$carry/gen/$1_$2_$3 w=/tmp/xw/$1_$2_$3
  [ -f "$g.cu" ] || return 0
  # Time the launcher call: it is one line of the host file.
  { echo 'double polycuda_bench_now(void); void polycuda_bench_report(double);'
    sed 's/^  \(polycuda_launch_[A-Za-z0-9_]*(.*);\)$/  { double polycuda_t0 = polycuda_bench_now(); \1 polycuda_bench_report(polycuda_t0); }/' "$g.host.c"
  } > "$w.host.c"
  local rt=/tmp/xw/rt_after.o
  [ $3 = before ] && rt=/tmp/xw/rt_before.o
  $nv -D$2_DATASET -I"$carry/runtime" -c "$g.cu" -o "$w.o" > "$w.build" 2>&1 &&
  gcc -O2 -std=gnu99 -w -D$2_DATASET -c "$w.host.c" -o "$w.host.o" >> "$w.build" 2>&1 &&
  $nv "$w.o" "$w.host.o" /tmp/xw/timer.o $rt -o "$w" -lm >> "$w.build" 2>&1
  # The before code on this runtime, for its profile.
  [ $3 = before ] && $nv "$w.o" "$w.host.o" /tmp/xw/timer.o /tmp/xw/rt_after.o -o "${w}_prof" -lm >> "$w.build" 2>&1
  return 0
}
export -f build
export carry nv
# Only the sizes the parts need.
sizes=LARGE; [[ $parts == *check* ]] && sizes="MEDIUM LARGE"
[[ $parts == *time* ]] || sizes=MEDIUM
for g in "$carry"/gen/*.cu; do
  [[ " $sizes " == *" $(basename "$g" .cu | awk -F_ '{print $(NF-1)}') "* ]] || continue
  basename "$g" .cu | tr _ ' ' | awk '{v=$NF; s=$(NF-1); $NF=""; $(NF-1)=""; gsub(/ +$/,""); gsub(/ /,"_"); print $0, s, v}'; done |
  xargs -P "$(nproc)" -n 3 bash -c 'build "$@"' _
ls /tmp/xw/*_after /tmp/xw/*_before 2>/dev/null | wc -l | xargs echo "built:"

if [[ $parts == *check* ]]; then
  echo "program,method,verdict" > "$out/check.csv"
  for input in "$carry"/inputs/*.c; do
    name=$(basename "$input" .c) bin=/tmp/xw/${name}_MEDIUM_after
    gcc -O2 -std=gnu99 -w -DMEDIUM_DATASET "$input" -o /tmp/xw/$name.seq -lm
    timeout 300 /tmp/xw/$name.seq > /tmp/xw/$name.ref
    rtol=1e-6; [ $name = deriche ] && rtol=1e-4
    for m in plain staged auto; do
      if [ ! -x "$bin" ]; then echo "$name,$m,not-built" >> "$out/check.csv"; continue; fi
      POLYCUDA_TRANSFERS=$m timeout 120 "$bin" > /tmp/xw/$name.$m.out 2> /tmp/xw/$name.$m.err
      rc=$?
      if [ $rc -ne 0 ]; then v="run-failed(rc=$rc)"; head -2 /tmp/xw/$name.$m.err
      elif python3 "$carry/compare_outputs.py" /tmp/xw/$name.ref /tmp/xw/$name.$m.out --rtol $rtol > /tmp/xw/$name.cmp 2>&1; then v=match
      else v=MISMATCH; head -2 /tmp/xw/$name.cmp; fi
      echo "$name,$m,$v" >> "$out/check.csv"
    done
  done
  cut -d, -f3 "$out/check.csv" | sort | uniq -c
fi

if [[ $parts == *time* ]]; then
  echo "program,variant,run,region_ms" > "$out/large.csv"
  : > "$out/profiles.txt"
  for name in $(cat "$carry/timed.txt"); do
    for r in 1 2 3; do
      for v in before after; do
        bin=/tmp/xw/${name}_LARGE_$v
        [ -x "$bin" ] || continue
        timeout 120 "$bin" > /dev/null 2> /tmp/xw/t.err
        ms=$(awk '/^polycuda_region_ms/ {s += $2} END {print s}' /tmp/xw/t.err)
        echo "$name,$v,$r,$ms" >> "$out/large.csv"
      done
    done
    for v in before_prof after; do
      bin=/tmp/xw/${name}_LARGE_$v
      [ -x "$bin" ] || continue
      echo "== $name $v" >> "$out/profiles.txt"
      POLYCUDA_PROFILE=1 POLYCUDA_TRANSFERS=$([ $v = after ] && echo auto || echo plain) \
        timeout 120 "$bin" > /dev/null 2>> "$out/profiles.txt"
    done
  done
  tail -5 "$out/large.csv"
fi
