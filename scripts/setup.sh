#!/usr/bin/env bash
# Installs what dlopt needs (Debian 12 packages, as root), configures and
# builds it in build/. Safe to run again: it only installs what is missing
# and rebuilds what changed.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DLOPT_BUILD_DIR:-$root/build}"

packages=(cmake ninja-build g++ ccache python3 python3-sklearn python3-matplotlib graphviz
          libgtest-dev csmith libcsmith-dev libclang-rt-19-dev
          llvm-19-dev libclang-19-dev clang-19 llvm-19-tools libomp-19-dev
          pocl-opencl-icd ocl-icd-opencl-dev opencl-headers clinfo
          python3-jsonschema)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if ((${#missing[@]})); then
  echo "dlopt setup: installing ${missing[*]}"
  if [[ $(id -u) -ne 0 ]]; then
    echo "dlopt setup: run as root (or install: ${missing[*]})" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ ! -f "$build/build.ninja" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" -j2
