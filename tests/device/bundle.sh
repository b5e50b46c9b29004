#!/usr/bin/env bash
# bundle.sh BUILD_DIR OUT_DIR
#
# Packs what tests/device/run.sh needs on a GPU host that has CUDA, gcc and
# Python but neither isl nor Clang: polycuda with every shared library it
# loads (glibc and its loader included, so the host's versions do not
# matter), Clang's resource headers, and the translated device tests.
#   OUT_DIR/polycuda.tar.xz   the translator (run as bundle/polycuda)
#   OUT_DIR/oversized.cu      tests/device/oversized.c translated for CUDA
# OUT_DIR is meant to be .device-carry/ (ignored by git), carried to the GPU
# host with the working tree.
set -euo pipefail
build=$1 out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
polycuda=$build/translator/polycuda
mkdir -p "$out"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
b=$stage/bundle
mkdir -p "$b/lib" "$b/clang"
cp "$polycuda" "$b/polycuda.bin"
strip "$b/polycuda.bin"
ldd "$b/polycuda.bin" | grep -o '/[^ ]*' | while read -r lib; do
  cp -L "$lib" "$b/lib/"
done
resource=$(ls -d /usr/lib/llvm-14/lib/clang/14*/include | head -1)
cp -r "$resource" "$b/clang/"
cat > "$b/polycuda" <<'WRAP'
#!/bin/sh
here=$(dirname "$(readlink -f "$0")")
export POLYCUDA_CLANG_RESOURCE_DIR="$here/clang"
exec "$here/lib/ld-linux-x86-64.so.2" --library-path "$here/lib" \
  "$here/polycuda.bin" "$@"
WRAP
chmod +x "$b/polycuda"
"$b/polycuda" --target=c "$root/inputs/gemm.c" -o "$stage/check.c"
tar cf - -C "$stage" bundle | xz -T0 -9 > "$out/polycuda.tar.xz"
"$polycuda" "$root/tests/device/oversized.c" -o "$out/oversized.cu"
git -C "$root" rev-parse --short HEAD > "$out/commit"
ls -la "$out"
