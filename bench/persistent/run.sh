#!/usr/bin/env bash
# GPU host half of prepare.sh: builds every carried program with nvcc and
# each input sequentially with gcc; MEDIUM runs are compared with the
# sequential build (rtol 1e-6) with persistent kernels on and off; LARGE
# runs are timed (the scop, POLYCUDA_SCOP_TIME; best of RUNS, alternating
# on and off). Writes $OUT/persistent.csv.
#   run.sh CARRY [RUNS]
set -uo pipefail
carry=$(cd "$1" && pwd)
runs=${2:-2}
out=${OUT:-$carry/out}
work=/tmp/persistent_run
mkdir -p "$out" "$work"
echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
echo "commit: $(cat "$carry/commit.txt")"
build() { # name tag size
  local name=$1 tag=$2 size=$3
  nvcc -O2 -arch=sm_90 -w -D${size}_DATASET -I"$carry/runtime" \
    "$carry/generated/${tag}_$size.cu" "$carry/generated/${tag}_$size.host.c" \
    "$carry/runtime/polycuda_cuda.cu" -o "$work/${tag}_$size" -lm \
    > "$work/${tag}_$size.build" 2>&1
  if [ "$size" = MEDIUM ] && [ ! -x "$work/$name.seq" ]; then
    gcc -O2 -std=gnu99 -w -DMEDIUM_DATASET "$carry/inputs/$name.c" \
      -o "$work/$name.seq" -lm 2>/dev/null
  fi
  return 0
}
export -f build
export carry work
xargs -P "$(nproc)" -L 1 bash -c 'build "$@"' _ < "$carry/programs.txt"
csv=$out/persistent.csv
echo "program,size,verdict_on,verdict_off,launches_on,launches_off,scop_ms_on,scop_ms_off" > "$csv"
scop_ms() { # binary env... -> prints the sum of the scop times
  env "${@:2}" POLYCUDA_SCOP_TIME=1 timeout 60 "$1" 2>&1 >/dev/null |
    sed -n 's/^polycuda scop time: .*: \([0-9.]*\) ms$/\1/p' |
    awk '{s += $1} END {printf "%.3f", s}'
}
while read -r name tag size; do
  bin=$work/${tag}_$size
  if [ ! -x "$bin" ]; then
    echo "$tag,$size,not-built,,,,," >> "$csv"
    head -5 "$bin.build"
    continue
  fi
  declare -A verdict launches
  for mode in on off; do
    env_mode=()
    [ $mode = off ] && env_mode=(POLYCUDA_PERSISTENT=0)
    if [ "$size" = MEDIUM ]; then
      env "${env_mode[@]}" POLYCUDA_LAUNCH_STATS=1 timeout 60 "$bin" \
        > "$work/$tag.$mode.out" 2> "$work/$tag.$mode.err"
      rc=$?
      launches[$mode]=$(sed -n 's/^polycuda: \([0-9]*\) kernel launches$/\1/p' "$work/$tag.$mode.err")
      if [ $rc -ne 0 ]; then
        verdict[$mode]="run-failed($rc)"
        head -3 "$work/$tag.$mode.err"
      elif [ ! -f "$work/$tag.ref" ] && ! "$work/$name.seq" > "$work/$tag.ref"; then
        verdict[$mode]=no-reference
      elif python3 "$carry/compare_outputs.py" "$work/$tag.ref" \
          "$work/$tag.$mode.out" --rtol 1e-6 > "$work/$tag.$mode.cmp" 2>&1; then
        verdict[$mode]=match
      else
        verdict[$mode]=MISMATCH
        head -3 "$work/$tag.$mode.cmp"
      fi
    fi
  done
  on= off=
  if [ "$size" = LARGE ]; then
    for r in $(seq "$runs"); do
      t=$(scop_ms "$bin"); [ -z "$on" ] || awk "BEGIN{exit !($t < $on)}" && on=$t
      t=$(scop_ms "$bin" POLYCUDA_PERSISTENT=0); [ -z "$off" ] || awk "BEGIN{exit !($t < $off)}" && off=$t
    done
    verdict=([on]=completed [off]=completed)
  fi
  echo "$tag,$size,${verdict[on]},${verdict[off]},${launches[on]:-},${launches[off]:-},$on,$off" >> "$csv"
  unset verdict launches
done < "$carry/programs.txt"
cat "$csv"
