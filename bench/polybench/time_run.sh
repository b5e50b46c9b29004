#!/usr/bin/env bash
# GPU host half of time_prepare.sh (needs nvcc, gcc, python3):
#   bash time_run.sh CARRY [KERNELS] [PARTS]
# KERNELS: names to time (default: all); PARTS: default "time check".
#   time   each kernel at LARGE with -DPOLYBENCH_TIME (the CUDA context
#          created before main): before (its code and
#          runtime) and after, alternating,
#          RUNS (default 3) runs each; VARIANTS replaces that list (any other name V runs
#          gen/KERNEL_V.cu, else the after code, on runtime_V/ when the
#          carry has it (time_prepare.sh's RUNTIMES), else this runtime):
#          PolyBench's
#          printed region time -> $OUT/time.csv;
#          PROFILE_RUNS (default 1) more runs of each timed variant,
#          alternating, with
#          POLYCUDA_PROFILE=1 (before: its code on
#          this runtime with POLYCUDA_TRANSFERS=plain, the copies its own
#          runtime made) -> $OUT/profiles.txt
#   check  every kernel at MEDIUM against the sequential gcc -O2 build of
#          the same file (POLYBENCH_DUMP_ARRAYS) -> $OUT/check.csv
set -uo pipefail
carry=$(cd "$1" && pwd)
only=${2:-}
parts=${3:-time check}
out=${OUT:-$carry/out}
mkdir -p "$out" /tmp/pbt
pb=$carry/polybench
echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1); commit $(cat "$carry/commit.txt"), before $(cat "$carry/before_commit.txt"); $(nproc) cores" | tee "$out/machine.txt"
nv="nvcc -O2 -arch=sm_90 -w"
$nv -c "$carry/runtime/polycuda_cuda.cu" -o /tmp/pbt/rt_after.o
$nv -c "$carry/runtime_before/polycuda_cuda.cu" -o /tmp/pbt/rt_before.o
for d in "$carry"/runtime_*; do
  v=${d##*/runtime_}
  [ "$v" = before ] || $nv -c "$d/polycuda_cuda.cu" -o "/tmp/pbt/rt_$v.o"
done
# The CUDA context is created before main (as the issue's figures were
# taken), so that PolyBench's region holds the scop's own work.
printf '#include <cuda_runtime_api.h>\n__attribute__((constructor)) static void polycuda_bench_context(void) { cudaFree(0); }\n' > /tmp/pbt/context.cu
$nv -c /tmp/pbt/context.cu -o /tmp/pbt/context.o
wanted() { [ -z "$only" ] || [[ " $only " == *" $1 "* ]]; }
build() {  # dir name variant
  local dir=$1 name=$2 v=$3 g=$carry/gen/$2_$3 w=/tmp/pbt/$2_$3
  [ -f "$g.cu" ] || [ $v = before ] || [ $v = check ] || g=$carry/gen/$2_after
  [ -f "$g.cu" ] || return 0
  local size=LARGE_DATASET extra=-DPOLYBENCH_TIME rt=/tmp/pbt/rt_after.o
  [ $v = check ] && size=MEDIUM_DATASET extra=-DPOLYBENCH_DUMP_ARRAYS
  [ -f /tmp/pbt/rt_$v.o ] && rt=/tmp/pbt/rt_$v.o
  local flags=(-I"$pb/utilities" -I"$pb/$dir" -D$size $extra)
  $nv "${flags[@]}" -I"$carry/runtime" -c "$g.cu" -o "$w.o" > "$w.build" 2>&1 &&
  gcc -O2 -w "${flags[@]}" -c "$g.host.c" -o "$w.host.o" >> "$w.build" 2>&1 &&
  gcc -O2 -w "${flags[@]}" -c "$pb/utilities/polybench.c" -o "$w.pb.o" >> "$w.build" 2>&1 &&
  $nv "$w.o" "$w.host.o" "$w.pb.o" $rt /tmp/pbt/context.o -o "$w" -lm >> "$w.build" 2>&1
  [ $v = before ] && $nv "$w.o" "$w.host.o" "$w.pb.o" /tmp/pbt/rt_after.o /tmp/pbt/context.o -o "${w}_prof" -lm >> "$w.build" 2>&1
  if [ $v = check ]; then
    gcc -O2 -w "${flags[@]}" "$pb/utilities/polybench.c" "$pb/$dir/$name.c" -o "$w.ref" -lm >> "$w.build" 2>&1
  fi
  return 0
}
export -f build
export carry pb nv
timed=${VARIANTS:-before after}
# The builds the parts need: each timed variant's code, and the MEDIUM
# code for the check.
variants=""
[[ $parts == *time* ]] && variants=$(echo $timed | tr ' ' '\n' | sort -u | xargs)
[[ $parts == *check* ]] && variants="$variants check"
while read -r dir name; do
  wanted "$name" || continue
  for v in $variants; do echo "$dir $name $v"; done
done < "$carry/kernels.txt" | xargs -P "$(nproc)" -n 3 bash -c 'build "$@"' _
ls /tmp/pbt | grep -c -v '\.' | xargs echo "built:"

if [[ $parts == *time* ]]; then
  [ -f "$out/time.csv" ] || echo "kernel,variant,run,region_s" > "$out/time.csv"
  while read -r dir name; do
    wanted "$name" || continue
    for r in $(seq "${RUNS:-3}"); do
      for v in $timed; do
        bin=/tmp/pbt/${name}_$v
        [ -x "$bin" ] || { echo "$name,$v,$r,not-built" >> "$out/time.csv"; continue; }
        s=$(timeout 300 "$bin" 2> /tmp/pbt/err | tail -1)
        echo "$name,$v,$r,$s" >> "$out/time.csv"
      done
    done
    for p in $(seq "${PROFILE_RUNS:-1}"); do
      for v in $(for t in $timed; do echo "${t/#before/before_prof}"; done); do
        bin=/tmp/pbt/${name}_$v
        [ -x "$bin" ] || continue
        echo "== $name $v" >> "$out/profiles.txt"
        POLYCUDA_PROFILE=1 POLYCUDA_TRANSFERS=$([ $v = before_prof ] && echo plain || echo auto) \
          timeout 300 "$bin" > /dev/null 2>> "$out/profiles.txt"
      done
    done
    grep "^$name," "$out/time.csv" | tail -3
  done < "$carry/kernels.txt"
fi

if [[ $parts == *check* ]]; then
  [ -f "$out/check.csv" ] || echo "kernel,verdict" > "$out/check.csv"
  while read -r dir name; do
    wanted "$name" || continue
    w=/tmp/pbt/${name}_check
    if [ ! -x "$w" ] || [ ! -x "$w.ref" ]; then echo "$name,not-built" >> "$out/check.csv"; continue; fi
    "$w.ref" 2> "$w.ref.txt" > /dev/null
    if ! timeout 120 "$w" 2> "$w.txt" > /dev/null; then v=run-failed
    elif python3 "$carry/compare_outputs.py" "$w.ref.txt" "$w.txt" --rtol 1e-6 --atol 0.0101 > "$w.cmp" 2>&1; then v=match
    else v=MISMATCH; tail -2 "$w.cmp"; fi
    echo "$name,$v" >> "$out/check.csv"
  done < "$carry/kernels.txt"
  cut -d, -f2 "$out/check.csv" | sort | uniq -c
fi
