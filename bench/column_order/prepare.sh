#!/usr/bin/env bash
# Translates the column-order benchmark (issue 16) here, where isl and Clang
# live, into a carry directory that run.sh builds and times on a GPU host
# (nvcc, CMake-free, Python; no isl or Clang there):
#   naive fp32 matmul at N = 1024, 4096 and the 9x9 clamped fp32 stencil at
#   N = 4096, 4037; blocks of 128 (32x4), 256 (32x8) and 1024 (32x32)
#   threads; --thread-order linear, column:W and column:W,zigzag for
#   W in 16 32 64 128 256 (16 rounds up to the blocks' 32), and auto.
#   prepare.sh                 -> bench/column_order/carry/
# POLYCUDA (the translator) and CARRY (the directory) override the defaults;
# PROGRAMS, BLOCKS, WIDTHS narrow the matrix (same syntax as below).
# Translations run without the processor-time budget (--cpu-budget=0): its
# fallback, one thread in the original order, would measure nothing here.
# Writes CARRY/variants.csv: one line per generated program with the order
# the translator chose (width, zigzag) and auto's reason and cache model.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
polycuda=${POLYCUDA:-$root/build/translator/polycuda}
carry=${CARRY:-$here/carry}
programs=${PROGRAMS:-"matmul:1024 matmul:4096 stencil9:4096 stencil9:4037"}
blocks=${BLOCKS:-"128:32,4 256:32,8 1024:32,32"}
widths=${WIDTHS:-"16 32 64 128 256"}

rm -rf "$carry" && mkdir -p "$carry/generated"
cp -r "$root/runtime" "$carry/runtime"
cp "$here/matmul.c" "$here/stencil9.c" "$here/run.sh" "$here/plot.py" "$carry/"
git -C "$root" rev-parse HEAD > "$carry/commit.txt"

orders="linear"
for w in $widths; do orders="$orders column:$w column:$w,zigzag"; done
orders="$orders auto"

csv=$carry/variants.csv
echo "id,program,n,threads,block,requested,order,width,width_blocks,zigzag,auto,linear_bytes,column_bytes,reason" > "$csv"
report=$(mktemp)
trap 'rm -f "$report"' EXIT
for p in $programs; do
  prog=${p%%:*} n=${p##*:}
  for b in $blocks; do
    threads=${b%%:*} sizes=${b##*:}
    for order in $orders; do
      tag=$(echo "$order" | sed -e 's/column:/c/' -e 's/,zigzag/z/')
      id=${prog}_${n}_${threads}_${tag}
      "$polycuda" --target=cuda --cpu-budget=0 -DN="$n" --sizes="all=$sizes" \
        --thread-order="$order" --report=json --report-file="$report" \
        "$carry/$prog.c" -o "$carry/generated/$id.cu"
      # The host file keeps the input's preprocessor text and is compiled
      # without -DN: the size goes at its top (else its arrays are the
      # default size while the launcher copies N x N: out of bounds).
      host=$carry/generated/$id.host.c
      { echo "#define N $n"; cat "$host"; } > "$host.tmp" && mv "$host.tmp" "$host"
      # The order of the scop's main kernel (the one with a loop inside:
      # the one whose thread order matters), from the report.
      python3 - "$report" "$id" "$prog" "$n" "$threads" "${sizes/,/x}" \
        "$order" >> "$csv" <<'PY'
import csv, json, sys
report = json.load(open(sys.argv[1]))
kernels = [k for s in report["scops"] for k in s["kernels"] if k["mapped"]]
main = max(kernels, key=lambda k: k["global_bytes"] or 0)
d = main["thread_order_detail"]
model = d["model"] or {}
csv.writer(sys.stdout).writerow(
    sys.argv[2:] + [d["order"], d["width"], d["width_blocks"],
                    str(d["zigzag"]).lower(), str(d["auto"]).lower(),
                    model.get("linear_bytes"), model.get("column_bytes"),
                    d["reason"]])
PY
    done
  done
done
echo "prepared $(ls "$carry/generated" | grep -c '\.cu$') CUDA programs in $carry" \
  "($(du -sh "$carry" | cut -f1))"
