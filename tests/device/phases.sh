#!/usr/bin/env bash
# phases.sh PHASE...   (on the GPU host, from the repository root)
#
# One device call's work for a frozen translator, in phases, everything
# to $OUT (at most a few archives, as the device tool brings back):
#   check     bench/gpu_check/run.sh on bench/gpu_check/carry (prepared here
#             by bench/gpu_check/prepare.sh, e.g. MEDIUM EXACT), then
#             racecheck, synccheck and memcheck of random_seed851112_MEDIUM
#             (check.tgz)
#   cuda      random CUDA programs CFIRST..CFIRST+CCOUNT-1, translated there
#             by the bundle (prepare_random.sh) and run (run_random.sh);
#             CUDA_RUN_S bounds the run (cuda.tgz)
#   campaign  C and OpenCL from seed FIRST on every core (tests/device/run.sh)
#             until LIMIT seconds after the call began (campaign.tgz)
# The bundle of tests/device/bundle.sh (the translator, frozen) must be in
# .device-carry/, which the call carries, e.g.
#   OUT=$OUT FIRST=870000 LIMIT=540 bash tests/device/phases.sh check campaign
set -u
out=${OUT:-/tmp/out}; mkdir -p "$out"
carry=.device-carry
work=/tmp/polycuda-device; mkdir -p "$work"
[ -x "$work/bundle/polycuda" ] || xz -dc "$carry/polycuda.tar.xz" | tar xf - -C "$work"
t0=$(date +%s)
for phase in "$@"; do
  echo "== $phase at $(( $(date +%s) - t0 )) s" >> "$out/phases.txt"
  case $phase in
  check)
    mkdir -p /tmp/chk
    OUT=/tmp/chk timeout 400 bash bench/gpu_check/run.sh bench/gpu_check/carry > /dev/null 2>&1
    echo "check rc $?" >> "$out/phases.txt"
    b=/tmp/gpu_check_build_carry/random_seed851112_MEDIUM
    for tool in racecheck synccheck memcheck; do
      echo "--- $tool" >> /tmp/chk/sanitizer.txt
      timeout 120 compute-sanitizer --tool $tool "$b" > /tmp/chk/s851112.$tool.out 2>> /tmp/chk/sanitizer.txt
      echo "rc $?" >> /tmp/chk/sanitizer.txt
      tail -3 /tmp/chk/s851112.$tool.out >> /tmp/chk/sanitizer.txt
    done
    tar czf "$out/check.tgz" -C /tmp chk
    ;;
  cuda)
    POLYCUDA=$work/bundle/polycuda COMMIT_FILE=$carry/commit \
      bash bench/gpu_check/prepare_random.sh "$CFIRST" "$CCOUNT" /tmp/crand > /tmp/crand.prep.log 2>&1
    tail -2 /tmp/crand.prep.log >> "$out/phases.txt"
    mkdir -p /tmp/crout
    OUT=/tmp/crout timeout "${CUDA_RUN_S:-200}" bash bench/gpu_check/run_random.sh /tmp/crand 16 > /dev/null 2>&1
    echo "cuda rc $?" >> "$out/phases.txt"
    cp /tmp/crand/refused.txt /tmp/crout/ 2>/dev/null; cp /tmp/crand/failed.txt /tmp/crout/ 2>/dev/null
    cp /tmp/crand.prep.log /tmp/crout/
    tar czf "$out/cuda.tgz" -C /tmp crout
    ;;
  campaign)
    left=$(( ${LIMIT:-560} - ($(date +%s) - t0) ))
    [ $left -lt 60 ] && { echo "no time for campaign" >> "$out/phases.txt"; continue; }
    mkdir -p /tmp/camp
    OUT=/tmp/camp LIMIT_S=$left TARGETS="c opencl" RANDOM_POLYCUDA_FLAGS=--cpu-budget=0 \
      TRANSLATE_LIMIT=60 STEP_TIMEOUT=90 bash tests/device/run.sh "$carry" "$FIRST" 5000 > /dev/null 2>&1
    tail -2 /tmp/camp/random.log >> "$out/phases.txt"
    tar czf "$out/campaign.tgz" -C /tmp camp
    ;;
  esac
done
echo "== end at $(( $(date +%s) - t0 )) s" >> "$out/phases.txt"
cat "$out/phases.txt"
