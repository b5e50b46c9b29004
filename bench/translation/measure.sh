#!/usr/bin/env bash
# Times the translation of random programs, one at a time, per target and
# per pipeline stage. For each seed in SEEDS_FILE (one a line),
# tests/random/generate.py writes the program, and `polycuda -v` translates
# it for each target in TARGETS (default "c opencl"). Writes CSV to stdout:
#   seed,target,status,ms,cpu_ms,fallbacks,<stage>_ms...
# status is ok or the exit code; ms the whole process (wall clock); cpu_ms
# its processor time, user and system, with its child processes; fallbacks
# the `-v` fallback lines (';'-separated names); each stage column the sum of
# that stage's `-v` times over the scops. Run it on an otherwise idle machine.
#   measure.sh SEEDS_FILE [TARGETS]      POLYCUDA: the translator to time
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
polycuda=${POLYCUDA:-$root/build/translator/polycuda}
seeds=$1
targets=${2:-c opencl}
limit=${TRANSLATE_LIMIT:-60}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stages="scalar expansion|array expansion|index-set splitting|dependences|schedule|mapping|promotion|transfers|ast"
echo "# polycuda -v --time-limit=$limit, one translation at a time"
echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
header="seed,target,status,ms,cpu_ms,fallbacks"
IFS='|' read -ra names <<< "$stages"
for s in "${names[@]}"; do header+=",${s// /_}_ms"; done
echo "$header"
while read -r seed; do
  [ -z "$seed" ] && continue
  python3 "$root/tests/random/generate.py" "$seed" "$work/random.c" >/dev/null
  for t in $targets; do
    case $t in c) ext=c;; opencl) ext=c;; cuda) ext=cu;; esac
    start=$(date +%s%N)
    set +e
    /usr/bin/time -f "%U %S" -o "$work/time" \
      "$polycuda" -v --time-limit="$limit" --target="$t" "$work/random.c" \
      -o "$work/out.$t.$ext" > "$work/log" 2>&1
    rc=$?
    set -e
    end=$(date +%s%N)
    status=ok; [ $rc -ne 0 ] && status="exit$rc"
    cpu=$(tail -n 1 "$work/time" | awk '{ printf "%.0f", ($1 + $2) * 1000 }')
    fallbacks=$( (grep -o 'fallback: [a-z -]*' "$work/log" || true) \
                | sed 's/fallback: //' | sort -u | paste -sd';')
    line="$seed,$t,$status,$(( (end - start) / 1000000 )),$cpu,$fallbacks"
    for s in "${names[@]}"; do
      ms=$( (grep -E ": stage $s took [0-9.e+-]+ ms" "$work/log" || true) \
           | sed -E 's/.* took ([0-9.e+-]+) ms/\1/' \
           | awk '{ t += $1 } END { printf "%.0f", t }')
      line+=",$ms"
    done
    echo "$line"
  done
done < "$seeds"
