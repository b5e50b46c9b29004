#!/bin/bash
# On the GPU host, from the repository root: registers NVIDIA's OpenCL
# driver as an ICD, builds harness.c and runs the kernel of random program
# 603837 (its second scop's kernel, v1.cl) and six variants on every OpenCL
# device (PoCL and the GPU), with and without -cl-opt-disable.
here=$(cd "$(dirname "$0")" && pwd)
lib=$(ls /usr/local/nvidia/lib64/libnvidia-opencl.so.1 \
  /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 2>/dev/null | head -1)
[ -n "$lib" ] && mkdir -p /etc/OpenCL/vendors && echo "$lib" > /etc/OpenCL/vendors/nvidia.icd
gcc -O2 -w "$here/harness.c" -o /tmp/harness -lOpenCL -lm || exit 1
for v in v1 v2 v3 v4 v5 v6 v7; do
  echo "== $v"; timeout 60 /tmp/harness "$here/$v.cl"
done
echo "== v1 opt-disable"; timeout 60 /tmp/harness "$here/v1.cl" "-cl-std=CL1.2 -cl-opt-disable"
