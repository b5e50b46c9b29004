#!/usr/bin/env bash
# On the GPU host: builds the two translations of prepare.sh with nvcc,
# runs them alternately three times (each prints, per region, its best and
# mean time over four calls after an untimed one, and a checksum), then
# once each with POLYCUDA_PROFILE=1 (kernel and copy times).
#   run.sh CARRY
set -uo pipefail
carry=$(cd "$1" && pwd)
nvcc -O2 -arch=sm_90 -w -I"$carry/runtime" -c "$carry/runtime/polycuda_cuda.cu" -o /tmp/fv_rt.o
# The host file keeps the input's `#ifdef FLAT`: the flat build needs -DFLAT
# again, or it runs the 2-D branch's untranslated code.
for v in flat 2d; do
  define=()
  [ "$v" = flat ] && define=(-DFLAT)
  nvcc -O3 -arch=sm_90 -w "${define[@]}" -I"$carry/runtime" "$carry/fv_$v.cu" \
    "$carry/fv_$v.host.c" /tmp/fv_rt.o -o /tmp/fv_$v -lm
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "run,program,form,best_ms,mean_ms,checksum"
for r in 1 2 3; do
  for v in flat 2d; do timeout 120 /tmp/fv_$v | sed "s/^/run$r,/"; done
done
for v in flat 2d; do
  POLYCUDA_PROFILE=1 timeout 120 /tmp/fv_$v 2>&1 >/dev/null | grep -E "profile|kernel " | sed "s/^/$v: /"
done
