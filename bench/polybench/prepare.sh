#!/usr/bin/env bash
# Checks polycuda on the published PolyBench/C 4.2.1 suite, which is not in
# this repository: point it at an unmodified copy.
#   bash bench/polybench/prepare.sh POLYBENCH_ROOT [SIZE]     (here)
#   bash bench/polybench/run.sh bench/polybench/carry         (GPU host)
# Here (isl and Clang): translates every kernel (POLYBENCH_ROOT/*/**/K/K.c)
# with --target=cuda at SIZE (default MEDIUM) twice, as published and with
# -DPOLYBENCH_USE_C99_PROTO (C99 variable-length array parameters), into
# bench/polybench/carry/ with the sources and runtime/. The GPU host then
# needs only nvcc, gcc and Python.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
pb=$(cd "$1" && pwd)
size=${2:-MEDIUM}
polycuda=${POLYCUDA:-$root/build/translator/polycuda}
carry=$root/bench/polybench/carry
rm -rf "$carry" && mkdir -p "$carry/gen"
cp -r "$root/runtime" "$carry/runtime"
cp -r "$pb" "$carry/polybench"
cp "$root/tests/e2e/compare_outputs.py" "$root/bench/polybench/run.sh" "$carry/"
echo "$size" > "$carry/size.txt"
git -C "$root" rev-parse HEAD > "$carry/commit.txt"
: > "$carry/kernels.txt"
echo "kernel,variant,status,translate_ms" > "$carry/translation.csv"
for src in $(cd "$carry/polybench" && find . -name '*.c' ! -path './utilities/*' | sort); do
  dir=$(dirname "$src") name=$(basename "$src" .c)
  echo "$dir $name" >> "$carry/kernels.txt"
  for variant in std c99; do
    flags=(-I"$carry/polybench/utilities" -I"$carry/polybench/$dir"
           -D${size}_DATASET -DPOLYBENCH_DUMP_ARRAYS)
    [ $variant = c99 ] && flags+=(-DPOLYBENCH_USE_C99_PROTO)
    out=$carry/gen/${name}_$variant.cu
    start=$(date +%s%N)
    if "$polycuda" --target=cuda "${flags[@]}" "$carry/polybench/$src" -o "$out" \
        2> "$carry/gen/${name}_$variant.log"; then
      status=translated
    else
      status=refused
    fi
    end=$(date +%s%N)
    echo "$name,$variant,$status,$(( (end - start) / 1000000 ))" >> "$carry/translation.csv"
  done
done
grep -c translated "$carry/translation.csv" | xargs echo "translated:"
