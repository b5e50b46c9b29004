#!/usr/bin/env bash
# The CUDA half of a random differential campaign: writes the programs of
# seeds FIRST..FIRST+COUNT-1 (tests/random/generate.py) and their CUDA
# translations into CARRY (default bench/gpu_check/carry-random/), for
# run_random.sh to build and check on the GPU host. A refused translation
# (exit 1 with `error:`) is listed in refused.txt; any other failure of
# polycuda in failed.txt. POLYCUDA names the translator (default: this
# build's; on the GPU host, the bundle of tests/device/bundle.sh, which
# translates on its 16 cores much faster than here).
#   prepare_random.sh FIRST COUNT [CARRY]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
polycuda=${POLYCUDA:-$root/build/translator/polycuda}
first=$1 count=$2
carry=${3:-$root/bench/gpu_check/carry-random}
rm -rf "$carry" && mkdir -p "$carry/programs"
cp "$root/tests/e2e/compare_outputs.py" "$carry/"
cp -r "$root/runtime" "$carry/runtime"
: > "$carry/refused.txt"
: > "$carry/failed.txt"
translate() {
  local seed=$1 dir=$carry/programs/$1
  mkdir -p "$dir"
  python3 "$root/tests/random/generate.py" "$seed" "$dir/random.c"
  # (Past polycuda's own time limit, 60 s, so that it refuses first.)
  if timeout 120 "$polycuda" --target=cuda "$dir/random.c" -o "$dir/out.cu" \
      2> "$dir/translate.log"; then
    return 0
  elif [ $? -eq 1 ] && grep -q "error:" "$dir/translate.log"; then
    echo "$seed" >> "$carry/refused.txt"
  else
    echo "$seed" >> "$carry/failed.txt"
  fi
  rm -f "$dir/out.cu" "$dir/out.host.c"
}
export -f translate
export polycuda root carry
seq "$first" $((first + count - 1)) | xargs -P "$(nproc)" -I{} bash -c 'translate {}'
# The translator's commit: COMMIT_FILE (the bundle's) when given, since the
# tree this runs in need not be the translator's.
if [ -n "${COMMIT_FILE:-}" ]; then
  cp "$COMMIT_FILE" "$carry/commit.txt"
else
  git -C "$root" rev-parse HEAD > "$carry/commit.txt"
fi
echo "prepared $(ls "$carry"/programs/*/out.cu | wc -l) of $count programs;" \
  "refused $(wc -l < "$carry/refused.txt"), failed $(wc -l < "$carry/failed.txt")"
