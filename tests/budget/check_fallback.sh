#!/usr/bin/env bash
# check_fallback.sh POLYCUDA RUNTIME_DIR INPUT.c TARGET WORKDIR FLAGS EXPECT
#
# A budget's fallback, taken on demand: FLAGS set a budget so small that
# the translation of INPUT.c for TARGET (c or opencl) cannot stay within it.
# Checks that the fallback is named in the --explain report (EXPECT, a fixed
# string) and by -v (a `fallback:` line), and that the translated program
# still prints what the sequential gcc build prints (e2e/check_input.sh with
# the same flags). No timing is measured: the budgets are far below what any
# translation needs.
set -euo pipefail
polycuda=$(realpath "$1") runtime=$(realpath "$2") input=$(realpath "$3")
target=$4 work=$5 flags=$6 expect=$7
here=$(cd "$(dirname "$0")" && pwd)
name=$(basename "$input" .c)
dir="$work/$name.$target"
rm -rf "$dir" && mkdir -p "$dir"
read -ra pflags <<< "$flags"

"$polycuda" --target="$target" "${pflags[@]}" --explain -v "$input" \
  -o "$dir/out.c" > "$dir/report.txt" 2> "$dir/stderr.txt"
if ! grep -qF -- "$expect" "$dir/report.txt"; then
  echo "check_fallback.sh: the report does not name the fallback" \
       "('$expect'):" >&2
  cat "$dir/report.txt" >&2
  exit 1
fi
if ! grep -q ": fallback: " "$dir/stderr.txt"; then
  echo "check_fallback.sh: -v names no fallback:" >&2
  cat "$dir/stderr.txt" >&2
  exit 1
fi
E2E_POLYCUDA_FLAGS="$flags" "$here/../e2e/check_input.sh" "$polycuda" \
  "$runtime" "$input" "$target" "$dir/e2e" 1e-6
echo "check_fallback.sh: $name.$target with $flags: fallback named, output matches"
