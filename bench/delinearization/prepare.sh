#!/usr/bin/env bash
# Translates flat_vs_2d.c for CUDA twice, flat (-DFLAT) and 2-D, into
# CARRY (default bench/delinearization/carry/), with the runtime, for
# run.sh on the GPU host (which has nvcc but not isl or Clang).
#   prepare.sh [CARRY]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
polycuda=${POLYCUDA:-$root/build/translator/polycuda}
carry=${1:-$here/carry}
rm -rf "$carry" && mkdir -p "$carry"
cp -r "$root/runtime" "$carry/runtime"
"$polycuda" --target=cuda --cpu-budget=0 -DFLAT "$here/flat_vs_2d.c" -o "$carry/fv_flat.cu"
"$polycuda" --target=cuda --cpu-budget=0 "$here/flat_vs_2d.c" -o "$carry/fv_2d.cu"
git -C "$root" rev-parse --short HEAD > "$carry/commit"
# The kernels must be the same text: only the host code may differ.
if diff <(grep -v '^//' "$carry/fv_flat.cu" | sed -n '/__global__/,/^}/p') \
        <(grep -v '^//' "$carry/fv_2d.cu" | sed -n '/__global__/,/^}/p') > /dev/null; then
  echo "kernels identical"
else
  echo "kernels differ"
fi
