#!/usr/bin/env bash
# check.sh install BUILD_DIR PREFIX
#   cmake --install BUILD_DIR into a fresh PREFIX.
# check.sh package PREFIX EXAMPLE_DIR WORK TARGET [NVCC]
#   Configures EXAMPLE_DIR (this directory, a project of its own) in a fresh
#   WORK against the polycuda installed in PREFIX, builds smooth_seq and
#   smooth (TARGET cuda, opencl or c), runs both and compares. For cuda
#   (nvcc, sm_90) it only builds unless a CUDA device is present.
# check.sh compare REF_PROGRAM PROGRAM WORK
#   Runs both in a fresh WORK and compares their outputs (build-tree tests).
# $CMAKE names the cmake to use (default: cmake).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cmake=${CMAKE:-cmake}

# compare REF_PROGRAM PROGRAM: run both, compare with the e2e tolerance.
compare() {
  "$1" > ref.out
  OMP_NUM_THREADS=2 "$2" > out.txt
  python3 "$here/../e2e/compare_outputs.py" ref.out out.txt --rtol 1e-6
}

mode=${1:-}
case "$mode" in
install)
  build=$2 prefix=$3
  rm -rf "$prefix"
  "$cmake" --install "$build" --prefix "$prefix"
  test -f "$prefix/lib/cmake/polycuda/polycudaConfig.cmake"
  ;;
package)
  prefix=$2 example=$3 work=$4 target=$5 nvcc=${6:-}
  rm -rf "$work" && mkdir -p "$work" && cd "$work"
  args=(-S "$example" -B build -DCMAKE_BUILD_TYPE=Release
        -DCMAKE_PREFIX_PATH="$prefix" -DSMOOTH_TARGET="$target")
  if [ "$target" = cuda ]; then
    args+=(-DCMAKE_CUDA_ARCHITECTURES=90)
    [ -n "$nvcc" ] && args+=(-DCMAKE_CUDA_COMPILER="$nvcc")
  fi
  "$cmake" "${args[@]}"
  # The package must come from PREFIX, not from some other installation.
  found=$(sed -n 's/^polycuda_DIR:PATH=//p' build/CMakeCache.txt)
  case "$found" in
  "$prefix"/*) ;;
  *) echo "polycuda_DIR is '$found', not under $prefix" >&2; exit 1 ;;
  esac
  "$cmake" --build build -j 2
  if [ "$target" = cuda ] && ! { command -v nvidia-smi >/dev/null &&
                                 nvidia-smi -L >/dev/null 2>&1; }; then
    echo "built smooth for cuda (no CUDA device here: not run)"
    exit 0
  fi
  compare build/smooth_seq build/smooth
  ;;
compare)
  ref=$(realpath "$2") program=$(realpath "$3") work=$4
  rm -rf "$work" && mkdir -p "$work" && cd "$work"
  compare "$ref" "$program"
  ;;
*)
  echo "usage: check.sh install|package|compare ..." >&2
  exit 2
  ;;
esac
