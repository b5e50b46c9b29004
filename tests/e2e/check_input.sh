#!/usr/bin/env bash
# check_input.sh POLYCUDA RUNTIME_DIR INPUT.c TARGET WORKDIR RTOL [NVCC]
#
# Builds INPUT.c sequentially with gcc (the reference), translates it with
# polycuda for TARGET and checks the result:
#   opencl  build with the runtime's OpenCL half, run (PoCL in CI), compare
#   c       build with -fopenmp, run with 2 threads, compare
#   cuda    compile out.cu and its host file out.host.c (C, gcc through
#           nvcc) with nvcc -arch=sm_90, run and compare; exit 77 (skipped)
#           when no CUDA device is present
#   cuda-compile  out.cu compiled with nvcc -cubin (nvcc's front end checks
#           the whole file, host code too; ptxas compiles the kernels) and
#           out.host.c with gcc -c: a compile check, no reference, nothing
#           linked or run. -cubin skips only gcc's object code for the .cu's
#           host half: about a third of -c's time (adi: 2.0 of 5.1 s).
# Extra compiler flags (e.g. -DMEDIUM_DATASET) come from $E2E_CFLAGS, extra
# polycuda flags (e.g. --fp-contract=off) from $E2E_POLYCUDA_FLAGS, and the
# absolute tolerance from $E2E_ATOL (default 1e-9). With $E2E_CUDA_RUNTIME_LIB
# (the build tree's libpolycuda_runtime_cuda.a) the cuda target links that
# library instead of compiling RUNTIME_DIR/polycuda_cuda.cu again: the
# runtime is most of nvcc's time for a test (about 7 of 8.5 s for gemm).
set -euo pipefail
polycuda=$1 runtime=$2 input=$3 target=$4 work=$5 rtol=$6 nvcc=${7:-nvcc}
name=$(basename "$input" .c)
here=$(cd "$(dirname "$0")" && pwd)
dir="$work/$name.$target"
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
cflags=(-O2 -std=gnu99 -w ${E2E_CFLAGS:-})
pflags=(${E2E_POLYCUDA_FLAGS:-})

# polycuda with these arguments. A check of its own that failed
# ("internal compiler error") fails the test even where the driver's retry
# still printed right code (the scop on one thread): it is a bug.
translate() {
  local rc=0
  "$polycuda" "$@" 2> translate.err || rc=$?
  cat translate.err >&2
  if grep -q "internal compiler error" translate.err; then
    echo "check_input.sh: polycuda failed one of its own checks" >&2
    return 1
  fi
  return $rc
}

# E2E_TRANSLATE_ONLY=1 (the sanitizer tree, where only polycuda is
# instrumented): the translation alone, which is what the sanitizers check;
# the first pass builds and runs the same programs.
if [ "${E2E_TRANSLATE_ONLY:-0}" = 1 ]; then
  translate --target="${target%-compile}" "${pflags[@]}" ${E2E_CFLAGS:-} \
    "$input" -o out.c
  echo "translated $name for $target (E2E_TRANSLATE_ONLY: not built or run)"
  exit 0
fi

# cuda-compile: a compile check of the translation; no reference needed.
if [ "$target" = cuda-compile ]; then
  translate --target=cuda "${pflags[@]}" ${E2E_CFLAGS:-} "$input" -o out.cu
  "$nvcc" -O2 -arch=sm_90 -w ${E2E_CFLAGS:-} -I"$runtime" -cubin out.cu \
    -o out.cubin
  # Without -w: a helper the host file calls but does not define is an
  # error (gcc 14's default), not a warning the link would find.
  gcc -O2 -std=gnu99 ${E2E_CFLAGS:-} -Werror=implicit-function-declaration \
    -c out.host.c -o out.host.o
  echo "compiled $name with nvcc -arch=sm_90 -cubin (a compile check: not run)"
  exit 0
fi

gcc "${cflags[@]}" "$input" -o ref -lm
./ref > ref.out

compare() {
  python3 "$here/compare_outputs.py" ref.out "$1" --rtol "$rtol" \
    --atol "${E2E_ATOL:-1e-9}"
}

case "$target" in
opencl)
  translate --target=opencl --emit-cl "${pflags[@]}" ${E2E_CFLAGS:-} \
    "$input" -o out.c
  gcc "${cflags[@]}" -I"$runtime" out.c "$runtime/polycuda_opencl.c" -o out \
    -lOpenCL -lm
  # Buffers filled with NaNs: an element read but not copied in shows.
  POLYCUDA_POISON_ALLOC=1 ./out > out.txt
  compare out.txt
  ;;
c)
  translate --target=c "${pflags[@]}" ${E2E_CFLAGS:-} "$input" -o out.c
  gcc "${cflags[@]}" -fopenmp out.c -o out -lm
  OMP_NUM_THREADS=2 ./out > out.txt
  compare out.txt
  ;;
cuda)
  translate --target=cuda "${pflags[@]}" ${E2E_CFLAGS:-} "$input" -o out.cu
  runtime_code=${E2E_CUDA_RUNTIME_LIB:-$runtime/polycuda_cuda.cu}
  "$nvcc" -O2 -arch=sm_90 -w ${E2E_CFLAGS:-} -I"$runtime" out.cu out.host.c \
    "$runtime_code" -o out -lm
  if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
    ./out > out.txt
    compare out.txt
  else
    echo "no CUDA device here: compiled $name, not run (skipped)"
    exit 77
  fi
  ;;
*)
  echo "unknown target $target" >&2
  exit 2
  ;;
esac
