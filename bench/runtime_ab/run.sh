#!/usr/bin/env bash
# GPU host half of prepare.sh (needs nvcc, gcc, python3; no isl or Clang):
#   bash run.sh CARRY [ROUNDS]          ROUNDS: default 5
# Builds each kernel of CARRY/gen against runtime A and runtime B (the same
# .cu and host code; the launcher call timed by bench_timer.cu, the CUDA
# context created before main), and transfer_bench against both; then runs
# them alternately (A B A B ..., ROUNDS rounds), checks that A and B print
# the same arrays (md5 of stdout), and prints the table (median region ms of
# A and B, B/A). Everything also goes to $OUT (default CARRY/out):
# region.csv, transfers_{A,B}_N.csv, table.txt, machine.txt.
# The transfer benchmark runs in the first TRANSFER_ROUNDS rounds (default
# 2), sizes 1 MiB to MAX_MB (default 256); SKIP_TRANSFERS=1 leaves it out.
# NO_GPU=1 only builds (a check without a device). About 5 minutes on an
# H100 host of 16 cores at the defaults.
set -uo pipefail
carry=$(cd "$1" && pwd)
rounds=${2:-5}
out=${OUT:-$carry/out}
w=${WORK:-/tmp/runtime_ab}
mkdir -p "$out" "$w"
arch=${ARCH:-sm_90}
nv="nvcc -O2 -arch=$arch -w"
start=$(date +%s)
{ cat "$carry/versions.txt"
  [ -z "${NO_GPU:-}" ] && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
  echo "$(nproc) cores, $rounds rounds"; } | tee "$out/machine.txt"

build_all() {
$nv -c "$carry/bench_timer.cu" -o "$w/timer.o" || exit 1
for v in A B; do
  $nv -I"$carry/runtime_$v" -c "$carry/runtime_$v/polycuda_cuda.cu" -o "$w/rt_$v.o" || exit 1
done
# build NAME V: gen/NAME.{cu,host.c} against runtime V -> $w/NAME_V
build() {
  local name=$1 v=$2 g=$carry/gen/$1 b=$w/$1_$2
  # Time the launcher call: it is one line of the host file.
  { echo 'double polycuda_bench_now(void); void polycuda_bench_report(double);'
    sed 's/^  \(polycuda_launch_[A-Za-z0-9_]*(.*);\)$/  { double polycuda_t0 = polycuda_bench_now(); \1 polycuda_bench_report(polycuda_t0); }/' "$g.host.c"
  } > "$b.host.c"
  $nv -DLARGE_DATASET -I"$carry/runtime_$v" -c "$g.cu" -o "$b.o" > "$b.build" 2>&1 &&
  gcc -O2 -std=gnu99 -w -DLARGE_DATASET -c "$b.host.c" -o "$b.host.o" >> "$b.build" 2>&1 &&
  $nv "$b.o" "$b.host.o" "$w/timer.o" "$w/rt_$v.o" -o "$b" -lm >> "$b.build" 2>&1 ||
    { echo "build of $1 against $2 failed:"; tail -5 "$b.build"; }
}
export -f build
export carry nv w
for name in $(cat "$carry/kernels.txt"); do echo "$name A"; echo "$name B"; done |
  xargs -P "$(nproc)" -n 2 bash -c 'build "$@"' _
if [ -z "${SKIP_TRANSFERS:-}" ]; then
  for v in A B; do
    $nv -I"$carry/runtime_$v" "$carry/transfer_bench.cu" "$w/rt_$v.o" -o "$w/tb_$v" || exit 1
  done
fi
}
# REUSE_BUILD=1 runs what an earlier call built in $WORK.
[ -n "${REUSE_BUILD:-}" ] || build_all
echo "built in $(( $(date +%s) - start )) s: $(ls "$w"/*_A "$w"/*_B 2>/dev/null | grep -vc '\.')"
[ -n "${NO_GPU:-}" ] && exit 0

echo "kernel,variant,round,region_ms,output_md5" > "$out/region.csv"
for r in $(seq "$rounds"); do
  # A first in odd rounds, B first in even ones.
  order="A B"; [ $((r % 2)) = 0 ] && order="B A"
  for name in $(cat "$carry/kernels.txt"); do
    for v in $order; do
      bin=$w/${name}_$v
      [ -x "$bin" ] || { echo "$name,$v,$r,not-built," >> "$out/region.csv"; continue; }
      # pipefail (set above) holds in the substitution: rc is the program's.
      md5=$(timeout 120 "$bin" 2> "$w/err" | md5sum | cut -c1-12)
      rc=$?
      ms=$(awk '/^polycuda_region_ms/ {s += $2} END {print s}' "$w/err")
      [ "$rc" = 0 ] || { ms="failed(rc=$rc)"; head -3 "$w/err"; }
      echo "$name,$v,$r,$ms,$md5" >> "$out/region.csv"
    done
  done
  if [ -z "${SKIP_TRANSFERS:-}" ] && [ "$r" -le "${TRANSFER_ROUNDS:-2}" ]; then
    for v in $order; do
      "$w/tb_$v" "${MAX_MB:-256}" > "$out/transfers_${v}_$r.csv" 2> "$out/transfers_${v}_$r.err" ||
        echo "transfer_bench $v failed: $(tail -2 "$out/transfers_${v}_$r.err")"
    done
  fi
  echo "round $r done at $(( $(date +%s) - start )) s"
done
python3 "$carry/table.py" "$out" | tee "$out/table.txt"
