#!/usr/bin/env bash
# Robustness: inputs that polycuda must refuse cleanly or translate, never
# crash or hang on.
#
#   check.sh POLYCUDA WORKDIR
#
# Every case runs under a 60 s timeout and must
#   - exit 0 or 1 (a signal, a timeout or a status of 2 or more fails it),
#   - print `error:` on stderr when it exits 1,
#   - leave no output file (nor a temporary one) behind when it exits 1,
#   - leave the output file when it exits 0.
# Each case says which it expects: `accept` must exit 0 and `refuse` exit 1.
# Large inputs are written at test time by generate.py into
# WORKDIR/generated. Set PYTHON to choose the interpreter.
set -u

if [ $# -ne 2 ]; then
  echo "usage: $0 POLYCUDA WORKDIR" >&2
  exit 2
fi
POLYCUDA=$1
WORKDIR=$2
HERE=$(cd "$(dirname "$0")" && pwd)
INPUTS=$HERE/inputs
GENERATED=$WORKDIR/generated
PYTHON=${PYTHON:-python3}
TIMEOUT=${ROBUSTNESS_TIMEOUT:-60}

if [ ! -x "$POLYCUDA" ]; then
  echo "FAIL $POLYCUDA is not an executable" >&2
  exit 2
fi
mkdir -p "$WORKDIR" || exit 2
rm -rf "$GENERATED" "$WORKDIR/cases"
mkdir -p "$WORKDIR/cases"
if ! "$PYTHON" "$HERE/generate.py" "$GENERATED"; then
  echo "FAIL generate.py could not write $GENERATED"
  exit 1
fi

# A regular file, so that a path below it cannot be created.
NOT_A_DIR=$WORKDIR/cases/not_a_directory
: > "$NOT_A_DIR"
# A directory where the output file should go.
OUT_IS_DIR=$WORKDIR/cases/output_is_a_directory
mkdir -p "$OUT_IS_DIR"

failures=0
count=0

# run_case NAME EXPECT OUTPUT [polycuda arguments...]
#   EXPECT: refuse (must exit 1) or accept (must exit 0).
#   OUTPUT: the -o path; it (and the CUDA target's host file, OUTPUT with
#   extension .host.c) must not exist afterwards when polycuda exits 1.
run_case() {
  local name=$1 expect=$2 out=$3
  shift 3
  case $expect in
  accept | refuse) ;;
  *) echo "FAIL $name: expectation '$expect' is neither accept nor refuse"
     failures=$((failures + 1)); return ;;
  esac
  local stderr=$WORKDIR/cases/$name.stderr
  local outdir host=${out%.*}.host.c
  outdir=$(dirname "$out")
  if [ -d "$out" ]; then :; else rm -f "$out"; fi
  rm -f "$host" "$out".tmp* "$host".tmp* 2>/dev/null
  count=$((count + 1))

  timeout -k 5 "$TIMEOUT" "$POLYCUDA" "$@" -o "$out" \
    > "$WORKDIR/cases/$name.stdout" 2> "$stderr"
  local rc=$?

  local problems=()
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    problems+=("timed out after ${TIMEOUT}s")
  elif [ $rc -gt 128 ]; then
    problems+=("killed by signal $((rc - 128))")
  elif [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
    problems+=("exit status $rc (want 0 or 1)")
  fi
  if [ $rc -ne 0 ] && [ "$expect" = accept ]; then
    problems+=("refused an input that must be translated")
  fi
  if [ $rc -eq 1 ]; then
    grep -q 'error:' "$stderr" || problems+=("exit 1 without 'error:' on stderr")
    if [ -f "$out" ]; then
      problems+=("exit 1 but left $out")
    fi
    if [ -f "$host" ]; then
      problems+=("exit 1 but left $host")
    fi
  fi
  if [ $rc -eq 0 ]; then
    [ "$expect" = refuse ] && problems+=("accepted an input that must be refused")
    [ -f "$out" ] || problems+=("exit 0 but wrote no $out")
    case " $* " in
    *" --target=cuda "*)
      [ -f "$host" ] || problems+=("exit 0 but wrote no host file $host") ;;
    esac
  fi
  if [ $rc -ne 0 ] && [ -d "$outdir" ] &&
     ls "$outdir" 2>/dev/null |
       grep -q -e "^$(basename "$out")\.tmp" -e "^$(basename "$host")\.tmp"; then
    problems+=("left a temporary file next to $out")
  fi

  if [ ${#problems[@]} -eq 0 ]; then
    echo "PASS $name (exit $rc)"
  else
    failures=$((failures + 1))
    local joined
    joined=$(printf '%s; ' "${problems[@]}")
    echo "FAIL $name (exit $rc): ${joined%; }"
    head -c 2000 "$stderr" | sed 's/^/    | /'
  fi
}

OUT=$WORKDIR/out.cu

# Committed small inputs, each with the CUDA target and the C target.
for target in cuda c; do
  run_case "empty.$target"            accept    "$OUT" --target=$target "$INPUTS/empty.c"
  run_case "garbage.$target"          refuse "$OUT" --target=$target "$INPUTS/garbage.c"
  run_case "non_utf8_comments.$target" accept   "$OUT" --target=$target "$INPUTS/non_utf8_comments.c"
  run_case "syntax_error.$target"     refuse "$OUT" --target=$target "$INPUTS/syntax_error.c"
  run_case "syntax_error_in_scop.$target" refuse "$OUT" --target=$target "$INPUTS/syntax_error_in_scop.c"
  run_case "unterminated.$target"     refuse "$OUT" --target=$target "$INPUTS/unterminated.c"
  run_case "no_scop.$target"          accept    "$OUT" --target=$target "$INPUTS/no_scop.c"
  run_case "unbounded_loop.$target"   accept    "$OUT" --target=$target "$INPUTS/unbounded_loop.c"
  run_case "empty_domain.$target"     accept    "$OUT" --target=$target "$INPUTS/empty_domain.c"
  run_case "huge_constants.$target"   accept    "$OUT" --target=$target "$INPUTS/huge_constants.c"
  run_case "division_by_zero.$target" accept    "$OUT" --target=$target "$INPUTS/division_by_zero.c"
  run_case "negative_modulo.$target"  accept    "$OUT" --target=$target "$INPUTS/negative_modulo.c"
  run_case "many_scops.$target"       accept    "$OUT" --target=$target "$INPUTS/many_scops.c"
  run_case "macro_scop.$target"       accept    "$OUT" --target=$target "$INPUTS/macro_scop.c"
  run_case "self_dependence.$target"  accept    "$OUT" --target=$target "$INPUTS/self_dependence.c"
done
run_case "vla.cuda"                   accept "$OUT" --target=cuda "$INPUTS/vla.c"
run_case "vla.opencl"                 accept "$OUT" --target=opencl "$INPUTS/vla.c"
run_case "self_dependence.opencl_emit_cl" accept "$OUT" --target=opencl --emit-cl "$INPUTS/self_dependence.c"

# A crash while translating (isl has a few; a failed check of polycuda's
# own aborts too) is retried without the
# dependence analysis: a warning, and the output in the original order.
for target in cuda c; do
  POLYCUDA_CRASH_FOR_TESTING=1 run_case "crash_retry.$target" accept "$OUT" \
    --target=$target "$INPUTS/vla.c"
  # (The crash may be a check of polycuda's own: it does not blame isl.)
  if ! grep -q "warning: .*: the translation crashed (signal .*translating again without the dependence analysis" \
       "$WORKDIR/cases/crash_retry.$target.stderr"; then
    failures=$((failures + 1))
    echo "FAIL crash_retry.$target: no warning about the retry"
  fi
done

# Generated large inputs: each beyond a limit polycuda states (16 loop
# levels, expressions 1,000 levels deep, clang's 256 brackets), refused
# with its error.
for file in "$GENERATED"/*.c; do
  name=$(basename "$file" .c)
  run_case "$name.cuda" refuse "$OUT" --target=cuda "$file"
  run_case "$name.c"    refuse "$OUT" --target=c "$file"
done

# Bad paths.
# LLVM's own global options are not polycuda's: refused, not ignored.
run_case "llvm_option_asm_syntax" refuse "$OUT" --x86-asm-syntax=intel "$INPUTS/self_dependence.c"
run_case "llvm_option_print_options" refuse "$OUT" --print-options "$INPUTS/self_dependence.c"
run_case "unknown_option" refuse "$OUT" --no-such-option "$INPUTS/self_dependence.c"
# --thread-order: bad values are errors, not the default.
for bad in column column: column:0 column:32,zag rows column:-8; do
  run_case "thread_order_${bad//[:,-]/_}" refuse "$OUT" --thread-order="$bad" "$INPUTS/self_dependence.c"
done
run_case "missing_input" refuse "$OUT" "$WORKDIR/cases/does_not_exist.c"
run_case "input_is_a_directory" refuse "$OUT" "$WORKDIR/cases"
run_case "output_below_a_file" refuse "$NOT_A_DIR/out.cu" "$INPUTS/self_dependence.c"
run_case "output_in_missing_directory" refuse "$WORKDIR/cases/no/such/dir/out.cu" "$INPUTS/self_dependence.c"
run_case "output_is_a_directory" refuse "$OUT_IS_DIR" "$INPUTS/self_dependence.c"

echo "$((count - failures)) of $count robustness cases passed"
[ $failures -eq 0 ]
