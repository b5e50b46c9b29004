#!/usr/bin/env bash
# run.sh CARRY_DIR FIRST_SEED COUNT   (on the GPU host, from the repo root)
#
# With the bundle of tests/device/bundle.sh in CARRY_DIR:
#  1. builds the translated oversized.c with nvcc and runs it: it must exit
#     1 with a runtime message naming the scop (oversized.c:12:1) and the
#     failed allocation;
#  2. runs the random differential test (tests/random/differential.sh)
#     for COUNT seeds from FIRST_SEED on every core, on the targets in
#     $TARGETS (default "c": C/OpenMP; "c opencl" adds OpenCL on the host's
#     PoCL, two threads per program).
#     With $NVIDIA_OPENCL=1, NVIDIA's OpenCL driver is installed as an ICD
#     first, and the runtime (which prefers a GPU) runs OpenCL on the GPU.
#     With $LIMIT_S, the campaign stops after that many seconds (the
#     programs with a verdict count). $RANDOM_POLYCUDA_FLAGS and
#     $TRANSLATE_LIMIT reach differential.sh (e.g. --cpu-budget=0 and 60:
#     every program checks the parallel code, not the budget's fallback).
# Everything goes to $OUT: gpu.txt, oversized.{out,err,verdict},
# random.log (last line: the summary), results.txt (seed, target,
# verdict), failures/ (if any).
set -u
carry=$1 first=$2 count=$3
out=${OUT:-/tmp/out}
mkdir -p "$out"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  echo "commit $(cat "$carry/commit")"; nproc; gcc --version | head -1
  python3 --version; } > "$out/gpu.txt" 2>&1

if [ "$count" -eq 0 ] || [ -n "${OVERSIZED:-}" ]; then
  nvcc -O2 -arch=sm_90 -Iruntime "$carry/oversized.cu" \
    "$carry/oversized.host.c" runtime/polycuda_cuda.cu \
    -o /tmp/oversized > "$out/oversized.build" 2>&1
  /tmp/oversized > "$out/oversized.out" 2> "$out/oversized.err"
  rc=$?
  if [ $rc -eq 1 ] && grep -q "oversized.c:12:1" "$out/oversized.err" &&
     grep -qi "cudaMalloc" "$out/oversized.err"; then
    echo "PASS exit $rc" > "$out/oversized.verdict"
  else
    echo "FAIL exit $rc" > "$out/oversized.verdict"
  fi
fi
[ "$count" -eq 0 ] && exit 0

work=/tmp/polycuda-device
mkdir -p "$work"
[ -x "$work/bundle/polycuda" ] || xz -dc "$carry/polycuda.tar.xz" | tar xf - -C "$work"
if [ -n "${NVIDIA_OPENCL:-}" ]; then
  lib=$(ls /usr/local/nvidia/lib64/libnvidia-opencl.so.1 \
    /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 2>/dev/null | head -1)
  if [ -n "$lib" ]; then
    mkdir -p /etc/OpenCL/vendors && echo "$lib" > /etc/OpenCL/vendors/nvidia.icd
  fi
  echo "nvidia opencl: ${lib:-none}" >> "$out/gpu.txt"
fi
start=$(date +%s)
limit=()
[ -n "${LIMIT_S:-}" ] && limit=(timeout -s INT "$LIMIT_S")
POCL_MAX_PTHREAD_COUNT=2 JOBS=$(nproc) "${limit[@]}" \
  tests/random/differential.sh \
  "$work/bundle/polycuda" runtime "$work/random" "$first" "$count" \
  "${TARGETS:-c}" > "$out/random.log" 2>&1
rc=$?
cat "$work/random/results/"* > "$out/results.txt" 2>/dev/null
cp "$work/random/translation_ms.txt" "$out/" 2>/dev/null
echo "exit $rc after $(( $(date +%s) - start )) s" >> "$out/random.log"
[ -d "$work/random/failures" ] && cp -r "$work/random/failures" "$out/"
tail -3 "$out/random.log"
