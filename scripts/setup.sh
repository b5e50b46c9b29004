#!/usr/bin/env bash
# Installs every Debian package polycuda's build and tests need. Idempotent:
# packages already present are left alone.
set -euo pipefail
LLVM_VERSION=14
packages=(
  build-essential cmake pkg-config python3 python3-jsonschema
  libisl-dev libgmp-dev libmimalloc-dev
  "libclang-${LLVM_VERSION}-dev" "llvm-${LLVM_VERSION}-dev" "clang-${LLVM_VERSION}"
  "llvm-${LLVM_VERSION}-tools" # FileCheck, for the golden tests (tests/golden)
  libgtest-dev
  valgrind # the dependence analysis under memcheck (tests/CMakeLists.txt)
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
