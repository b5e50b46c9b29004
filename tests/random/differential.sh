#!/usr/bin/env bash
# differential.sh POLYCUDA RUNTIME_DIR WORKDIR FIRST_SEED COUNT [TARGETS]
#
# Differential random testing: for each seed in FIRST_SEED .. FIRST_SEED+COUNT-1,
# generate.py writes a random scop program; the sequential gcc build is the
# reference; polycuda translates it for each target in TARGETS (default
# "c opencl") and the translated build must print the same values
# (compare_outputs.py, rtol 1e-9, integers exactly):
#   c       polycuda --target=c, gcc -fopenmp, run with OMP_NUM_THREADS=2
#   opencl  polycuda --target=opencl, gcc + RUNTIME_DIR/polycuda_opencl.c -lOpenCL
#   cuda-compile  polycuda --target=cuda, the .cu file compiled with nvcc
#           ($NVCC, default nvcc; -arch=sm_90 -cubin) and its host file with gcc
#           -c: a compile check, nothing runs (matched when both compile)
#
# Per seed and target the outcome is one of
#   match    outputs agree
#   refused  polycuda exited 1 with an `error:` diagnostic (allowed, counted)
#   fail     polycuda crashed or exited otherwise, a step timed out (60 s), the
#            generated code did not build or run, or the outputs differ; the
#            program and every log go to WORKDIR/failures/seed<S>.<target>/
# A program is matched when every target matched, failed when any failed,
# refused otherwise. Prints `random: N programs, M matched, R refused, F failed`
# (plus a line per target, and the refusal rate) and exits 1 when F > 0 or when
# more than MAX_REFUSED_PCT percent (default 5) of the programs were refused: a
# translator that refused everything would otherwise pass. WORKDIR/translation_ms.txt
# lists each translation's wall-clock time and whether it took the cheapest
# fallbacks of the processor-time budget: SEED TARGET MS FALLBACK(0/1).
#
# Environment: JOBS (parallel seeds, default 2), TRANSLATE_LIMIT (polycuda
# --time-limit, default 20 s), STEP_TIMEOUT (default 60), MAX_REFUSED_PCT
# (default 5),
# KEEP=1 keeps the work directory of passing seeds, CHECK_REF=1 also builds the
# reference with -fsanitize=bounds,undefined (checks the generator itself).
set -uo pipefail

if [ "${1:-}" = "--one" ]; then
  # Internal: --one POLYCUDA RUNTIME_DIR WORKDIR TARGETS SEED
  polycuda=$2 runtime=$3 work=$4 targets=$5 seed=$6
  here=$(cd "$(dirname "$0")" && pwd)
  compare_py="$here/../e2e/compare_outputs.py"
  to=${STEP_TIMEOUT:-60}
  dir="$work/seeds/$seed"
  res="$work/results/$seed"
  rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 2
  cflags=(-O2 -std=gnu99 -w)
  : > "$res"

  record() {  # record TARGET STATUS DETAIL
    echo "$seed $1 $2 $3" >> "$res"
    if [ "$2" = fail ]; then
      local keep="$work/failures/seed$seed.$1"
      rm -rf "$keep" && mkdir -p "$keep"
      cp -r "$dir"/. "$keep"/
      echo "$3" > "$keep/REASON"
      echo "FAIL seed $seed target $1: $3 (kept in $keep)"
    elif [ "$2" = refused ]; then
      echo "refused seed $seed target $1: $3"
    fi
  }
  step() {  # step LOG CMD...: run with the timeout, output to LOG
    local log=$1; shift
    timeout -k 5 "$to" "$@" > "$log" 2>&1
  }
  status_text() {  # describe an exit status
    case $1 in
      124|137) echo "timeout (${to} s)";;
      134) echo "abort (SIGABRT)";;
      136) echo "SIGFPE";;
      139) echo "segfault";;
      *) echo "exit $1";;
    esac
  }

  if ! step gen.log python3 "$here/generate.py" "$seed" random.c; then
    for t in $targets; do record "$t" fail "generator failed"; done
    exit 0
  fi
  if ! step ref.build.log gcc "${cflags[@]}" random.c -o ref -lm; then
    for t in $targets; do record "$t" fail "generator: reference does not build"; done
    exit 0
  fi
  timeout -k 5 "$to" ./ref > ref.out 2> ref.err
  rc=$?
  if [ $rc -ne 0 ]; then
    for t in $targets; do record "$t" fail "generator: reference run $(status_text $rc)"; done
    exit 0
  fi
  if grep -qiE 'nan|inf' ref.out; then
    for t in $targets; do record "$t" fail "generator: reference prints nan/inf"; done
    exit 0
  fi
  if [ "${CHECK_REF:-0}" = 1 ]; then
    if ! step ref.san.log gcc -O1 -std=gnu99 -w -fsanitize=bounds,undefined \
         -fno-sanitize-recover=all random.c -o ref.san -lm ||
       ! step ref.san.run.log ./ref.san; then
      for t in $targets; do record "$t" fail "generator: sanitized reference fails"; done
      exit 0
    fi
  fi

  for t in $targets; do
    case $t in
      c) ext=c; tflags=(--target=c);;
      opencl) ext=c; tflags=(--target=opencl --emit-cl);;
      cuda-compile) ext=cu; tflags=(--target=cuda);;
      *) record "$t" fail "unknown target"; continue;;
    esac
    out="out.$t.$ext"
    tstart=$(date +%s%N)
    # RANDOM_POLYCUDA_FLAGS: more options for every translation (e.g.
    # --register-tile=2x2), word-split.
    step "translate.$t.log" "$polycuda" -v --time-limit="${TRANSLATE_LIMIT:-20}" "${tflags[@]}" ${RANDOM_POLYCUDA_FLAGS:-} random.c -o "$out"
    rc=$?
    # The fourth column says whether the processor-time budget sent the
    # translation to its cheapest fallbacks (-v prints `fallback: cpu budget`).
    fell=$(grep -c 'fallback: cpu budget' "translate.$t.log")
    echo "$seed $t $(( ($(date +%s%N) - tstart) / 1000000 )) $fell" > "$work/times/$seed.$t"
    # A check of polycuda's own that failed is a bug, even where the
    # driver's retry printed right code (the scop on one thread).
    if grep -q 'internal compiler error' "translate.$t.log"; then
      record "$t" fail "polycuda failed its own check: $(grep -m1 'internal compiler error' "translate.$t.log" | cut -c1-300)"
      continue
    fi
    if [ $rc -ne 0 ]; then
      if [ $rc -eq 1 ] && grep -q 'error:' "translate.$t.log"; then
        record "$t" refused "$(grep -m1 'error:' "translate.$t.log" | cut -c1-200)"
      else
        record "$t" fail "polycuda $(status_text $rc): $(tail -n 3 "translate.$t.log" | tr '\n' ' ' | cut -c1-300)"
      fi
      continue
    fi
    case $t in
      c) step "build.$t.log" gcc "${cflags[@]}" -fopenmp "$out" -o "bin.$t" -lm;;
      opencl) step "build.$t.log" gcc "${cflags[@]}" -I"$runtime" "$out" \
                "$runtime/polycuda_opencl.c" -o "bin.$t" -lOpenCL -lm;;
      # Compiled only (no device needed): the .cu file with nvcc, its
      # host file with gcc, as check_input.sh's cuda-compile does.
      cuda-compile) step "build.$t.log" "${NVCC:-nvcc}" -O2 -arch=sm_90 -w \
                      -I"$runtime" -cubin "$out" -o out.cubin &&
                    step "build.host.$t.log" gcc -O2 -std=gnu99 \
                      -Werror=implicit-function-declaration -c \
                      out.$t.host.c -o out.host.o;;
    esac
    rc=$?
    if [ $rc -ne 0 ]; then
      record "$t" fail "generated code does not build ($(status_text $rc)): $(cat build*.$t.log | grep -m1 -i 'error' | cut -c1-200)"
      continue
    fi
    if [ "$t" = cuda-compile ]; then
      record "$t" match ""
      continue
    fi
    OMP_NUM_THREADS=2 POLYCUDA_POISON_ALLOC=1 timeout -k 5 "$to" "./bin.$t" > "run.$t.out" 2> "run.$t.err"
    rc=$?
    if [ $rc -ne 0 ]; then
      record "$t" fail "translated program $(status_text $rc): $(head -c 200 "run.$t.err" | tr '\n' ' ')"
      continue
    fi
    step "compare.$t.log" python3 "$compare_py" ref.out "run.$t.out" --rtol 1e-9 --exact-integers
    rc=$?
    if [ $rc -ne 0 ]; then
      record "$t" fail "output mismatch: $(grep -m1 -E 'MISMATCH|STRUCTURE' "compare.$t.log" | cut -c1-160); $(grep -m1 '^FAIL' "compare.$t.log")"
      continue
    fi
    record "$t" match ""
  done
  if [ "${KEEP:-0}" != 1 ]; then
    rm -rf "$dir"
  fi
  exit 0
fi

if [ $# -lt 5 ]; then
  echo "usage: $0 POLYCUDA RUNTIME_DIR WORKDIR FIRST_SEED COUNT [TARGETS]" >&2
  exit 2
fi
polycuda=$(realpath "$1") runtime=$(realpath "$2") work=$3 first=$4 count=$5
targets=${6:-c opencl}
mkdir -p "$work" && work=$(realpath "$work")
rm -rf "$work/results" "$work/seeds" "$work/failures" "$work/times"
mkdir -p "$work/results" "$work/seeds" "$work/times"
self=$(realpath "$0")
start=$(date +%s)

seq "$first" $((first + count - 1)) |
  xargs -P "${JOBS:-2}" -I{} bash "$self" --one "$polycuda" "$runtime" "$work" "$targets" {}

secs=$(( $(date +%s) - start ))
cat "$work"/results/* 2>/dev/null > "$work/results.txt"
# Translation times, SEED TARGET MS FALLBACK (the whole polycuda process).
cat "$work"/times/* 2>/dev/null | sort -n > "$work/translation_ms.txt"
fallbacks=$(awk '$4 > 0 { n[$2]++ } END { for (t in n) { printf "%s%s %d", sep, t, n[t]; sep = ", " } }' \
  "$work/translation_ms.txt")
# One line per seed and target: SEED TARGET STATUS DETAIL...
summary=$(awk -v want="$count" -v targets="$targets" -v secs="$secs" \
  -v maxpct="${MAX_REFUSED_PCT:-5}" '
  { st[$1] = st[$1] " " $3; n[$2 " " $3]++; seen[$1] = 1 }
  END {
    progs = 0; m = 0; r = 0; f = 0
    for (s in seen) {
      progs++
      if (st[s] ~ /fail/) f++
      else if (st[s] ~ /refused/) r++
      else m++
    }
    f += want - progs   # seeds that left no result at all
    split(targets, ts, " ")
    for (i = 1; i in ts; i++)
      printf "random[%s]: %d matched, %d refused, %d failed\n", ts[i],
        n[ts[i] " match"], n[ts[i] " refused"], n[ts[i] " fail"]
    printf "random: %d programs, %d matched, %d refused, %d failed (%d s)\n",
      want, m, r, f, secs
    # Refusals are allowed, but not many: more than maxpct percent of the
    # programs refused fails the run.
    toomany = r * 100 > want * maxpct
    printf "refused: %d of %d programs (%.1f%%, at most %s%% allowed)%s\n", r, want,
      want ? 100.0 * r / want : 0, maxpct, toomany ? ": TOO MANY REFUSED" : ""
    exit (f > 0 || toomany)
  }' "$work/results.txt")
rc=$?
echo "$summary"
echo "translations past the processor-time budget (cheapest fallbacks): ${fallbacks:-none}"
if [ $rc -ne 0 ] && grep -q ' fail ' "$work/results.txt"; then
  echo "failing seeds:"
  awk '$3 == "fail" { $3 = ""; print "  seed " $0 }' "$work/results.txt" | sort -n -k2
  echo "(programs and logs under $work/failures/; reproduce one with: tests/random/generate.py SEED x.c (from the repository root))"
fi
if [ $rc -ne 0 ] && echo "$summary" | grep -q 'TOO MANY REFUSED'; then
  echo "refused seeds:"
  awk '$3 == "refused" { $3 = ""; print "  seed " $0 }' "$work/results.txt" | sort -n -k2
fi
exit $rc
