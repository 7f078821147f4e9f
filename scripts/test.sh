#!/usr/bin/env bash
# The whole test suite: sets up and builds dlopt, then runs the GoogleTest
# unit tests and the lit regression tests through ctest.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DLOPT_BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh"
ctest --test-dir "$build" --output-on-failure -j2
