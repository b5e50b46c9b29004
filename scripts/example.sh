#!/usr/bin/env bash
# Sets up, builds, and runs the main job on the default example: translates
# inputs/gemm.c, builds and runs it on the GPU if there is one (CUDA),
# otherwise as OpenCL (PoCL on the CPU), and checks it against the
# sequential build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
input=${1:-$root/inputs/gemm.c}
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"
[ -d /usr/local/cuda/bin ] && export PATH="/usr/local/cuda/bin:$PATH"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O2 -std=gnu99 -w "$input" -o "$work/sequential" -lm
"$work/sequential" > "$work/sequential.txt"
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  target=cuda
else
  target=opencl
fi
echo "polycuda run --target=$target $input"
"$root/build/translator/polycuda" run --target=$target "$input" > "$work/translated.txt"
python3 "$root/tests/e2e/compare_outputs.py" "$work/sequential.txt" "$work/translated.txt"
echo "$(basename "$input") ($target): matches the sequential build"
