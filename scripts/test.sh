#!/usr/bin/env bash
# The whole test suite: sets up and builds dlopt, runs the GoogleTest unit
# tests and the lit regression tests (with the differential runs) through
# ctest, then does the same in a build with AddressSanitizer and
# UndefinedBehaviorSanitizer (build-asan/; skip with DLOPT_SKIP_SANITIZERS=1).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DLOPT_BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh"
ctest --test-dir "$build" --output-on-failure -j2

if [[ "${DLOPT_SKIP_SANITIZERS:-0}" != 1 ]]; then
  asan="${DLOPT_ASAN_BUILD_DIR:-$root/build-asan}"
  echo "== the same suites under AddressSanitizer and UndefinedBehaviorSanitizer"
  if [[ ! -f "$asan/build.ninja" ]]; then
    cmake -S "$root" -B "$asan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DDLOPT_SANITIZE=ON >/dev/null
  fi
  cmake --build "$asan" -j2
  ctest --test-dir "$asan" --output-on-failure -j2
fi
