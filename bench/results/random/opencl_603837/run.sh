#!/bin/bash
# On the GPU host, from the repository root: registers NVIDIA's OpenCL
# driver as an ICD, builds harness.c and runs the kernel of random program
# 603837 (its second scop's kernel, v1.cl) and six variants of it on every
# OpenCL device (PoCL and the GPU), then v1 with -cl-opt-disable.
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
# The variants (README.md), each one edit of v1.cl.
variant() {  # variant NAME SED-SCRIPT
  sed "$2" "$here/v1.cl" > "$work/$1.cl"
}
cp "$here/v1.cl" "$work/v1.cl"
variant v2 's/polycuda_min(-1, (k1 + 3))/polycuda_min(-1L, (k1 + 3))/'
variant v3 's/^static inline long polycuda_min(long a, long b) { return a < b ? a : b; }$/#define polycuda_min(a, b) ((long)(a) < (long)(b) ? (long)(a) : (long)(b))/; s/^static inline long polycuda_max(long a, long b) { return a > b ? a : b; }$/#define polycuda_max(a, b) ((long)(a) > (long)(b) ? (long)(a) : (long)(b))/'
variant v4 's/^      for (long k2 = \(.*\); k2 <= polycuda_min(-1, (k1 + 3)); k2 += 1) {$/      const long up = polycuda_min(-1, (k1 + 3));\n      for (long k2 = \1; k2 <= up; k2 += 1) {/'
variant v5 's/__global double \*restrict C/__global double *C/'
variant v6 's/^  double polycuda_C_reg;/  volatile double polycuda_C_reg;/'
variant v7 's/^    for (long k1 = \(polycuda_max(.*)\); k1 <= \(((-t0) - (32 \* b0))\); k1 += 1) {$/    const long lo = \1;\n    const long hi = \2;\n    for (long k1 = lo; k1 <= hi; k1 += 1) {/'
[ "${VARIANTS_ONLY:-0}" = 1 ] && { echo "$work"; exit 0; }
lib=$(ls /usr/local/nvidia/lib64/libnvidia-opencl.so.1 \
  /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 2>/dev/null | head -1)
[ -n "$lib" ] && mkdir -p /etc/OpenCL/vendors && echo "$lib" > /etc/OpenCL/vendors/nvidia.icd
gcc -O2 -w "$here/harness.c" -o "$work/harness" -lOpenCL -lm || exit 1
for v in v1 v2 v3 v4 v5 v6 v7; do
  echo "== $v"; timeout 60 "$work/harness" "$work/$v.cl"
done
echo "== v1 opt-disable"
timeout 60 "$work/harness" "$work/v1.cl" "-cl-std=CL1.2 -cl-opt-disable"
