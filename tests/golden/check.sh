#!/usr/bin/env bash
# check.sh POLYCUDA FILECHECK INPUT.c TARGET CHECKFILE WORKDIR
#
# Translates INPUT.c for TARGET (cuda or opencl) and pipes the generated
# file through FileCheck with CHECKFILE: for cuda the .cu file (kernels and
# launcher; the host part goes to --host-output), for opencl the host C file
# with the kernels embedded; TARGET scop or dependences checks that stage's
# --dump-after output instead, and TARGET decisions the decisions of the
# mapping, memory and copy stages (decisions.py over --report=json). Extra polycuda flags come from
# $GOLDEN_POLYCUDA_FLAGS (e.g. --sizes='all=16,16' to see a test fail) and
# from the check file's `// POLYCUDA-FLAGS: ...` line, if it has one (e.g.
# -DLARGE_DATASET), both split at spaces.
set -euo pipefail
polycuda=$1 filecheck=$2 input=$3 target=$4 check=$5 work=$6
name=$(basename "$check" .check)
dir="$work/$name"
rm -rf "$dir" && mkdir -p "$dir"
fileflags=$(sed -n 's|^// POLYCUDA-FLAGS: *||p' "$check" | head -n 1)
# Without a processor-time budget: under a loaded machine a translation
# could otherwise take a fallback and print other (correct) code.
pflags=(--cpu-budget=0 ${fileflags} ${GOLDEN_POLYCUDA_FLAGS:-})

case "$target" in
cuda)
  out="$dir/out.cu"
  "$polycuda" --target=cuda "${pflags[@]}" "$input" -o "$out" \
    --host-output="$dir/out.host.c"
  ;;
opencl)
  out="$dir/out.c"
  "$polycuda" --target=opencl "${pflags[@]}" "$input" -o "$out"
  ;;
scop | dependences)
  # A stage's output alone (--dump-after): the front end's model, or the
  # dependences, so that a change in one stage fails one small test.
  out="$dir/dump.txt"
  "$polycuda" --target=cuda --dump-after="$target" "${pflags[@]}" "$input" \
    -o "$dir/out.cu" 2> "$out"
  ;;
decisions)
  # The mapping, memory and copy stages' decisions, one per line, from the
  # JSON report (decisions.py).
  out="$dir/decisions.txt"
  "$polycuda" --target=cuda --report=json "${pflags[@]}" "$input" \
    -o "$dir/out.cu" > "$dir/report.json"
  python3 "$(dirname "$0")/decisions.py" < "$dir/report.json" > "$out"
  ;;
*)
  echo "check.sh: unknown target '$target'" >&2
  exit 2
  ;;
esac
"$filecheck" --match-full-lines --dump-input=fail "$check" < "$out"
