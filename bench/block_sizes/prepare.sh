#!/usr/bin/env bash
# Block sizes that fill the GPU (issue 15), before and after, on the GPU host:
# translates every inputs/*.c at LARGE_DATASET twice with the same polycuda,
# once as is ("after": blocks fitted to the device model) and once with
# --gpu-sms=1 (a one-SM device never shrinks a block: the fixed 256 / 32x8 of
# before), keeps the programs whose CUDA differs, and writes them with the
# runtime into CARRY (default bench/block_sizes/carry) for run.sh; with
# NAMES, only those inputs. BEFORE_FLAGS and AFTER_FLAGS replace the flags of
# the two versions (default --gpu-sms=1 and none), to compare other options
# the same way (e.g. AFTER_FLAGS=--stage-uncoalesced BEFORE_FLAGS=), and
# BEFORE_POLYCUDA another translator for the "before" version (an earlier
# commit's build, with BEFORE_FLAGS= to compare the code of two commits;
# BEFORE_LABEL, e.g. that commit, names it in the carry's commit.txt).
#   prepare.sh [CARRY [NAMES...]]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
polycuda=${POLYCUDA:-$root/build/translator/polycuda}
before_polycuda=${BEFORE_POLYCUDA:-$polycuda}
carry=${1:-$root/bench/block_sizes/carry}
shift || true
names=" $* "
read -r -a before_flags <<< "${BEFORE_FLAGS---gpu-sms=1}"
read -r -a after_flags <<< "${AFTER_FLAGS-}"
rm -rf "$carry" && mkdir -p "$carry/programs"
cp -r "$root/runtime" "$carry/runtime"
cp "$root/tests/e2e/compare_outputs.py" "$root/bench/block_sizes/run.sh" "$carry/"
{ git -C "$root" rev-parse --short HEAD
  echo "before: ${before_flags[*]:-(none)}${BEFORE_LABEL:+ (translator of $BEFORE_LABEL)}; after: ${after_flags[*]:-(none)}"; } > "$carry/commit.txt"
for input in "$root/inputs/"*.c; do
  name=$(basename "$input" .c)
  [ "$names" = "  " ] || [[ "$names" == *" $name "* ]] || continue
  dir=$carry/programs/$name
  mkdir -p "$dir"
  if ! "$polycuda" --cpu-budget=0 -DLARGE_DATASET ${after_flags[@]+"${after_flags[@]}"} "$input" -o "$dir/after.cu" \
        2> /dev/null ||
     ! "$before_polycuda" --cpu-budget=0 -DLARGE_DATASET ${before_flags[@]+"${before_flags[@]}"} "$input" \
        -o "$dir/before.cu" 2> /dev/null ||
     cmp -s "$dir/after.cu" "$dir/before.cu"; then
    rm -rf "$dir"
    continue
  fi
  cp "$input" "$dir/"
done
echo "$(ls "$carry/programs" | wc -l) programs whose LARGE kernels change: $(ls "$carry/programs" | tr '\n' ' ')"
