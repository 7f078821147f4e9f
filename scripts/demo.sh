#!/usr/bin/env bash
# The main job on the bundled example: sets up and builds dlopt, then shows
# what it decides for examples/nbody, as a compiler remark during a normal
# build (the plugin) and as a full report (dl-refactor), and writes the JSON
# plan and the KDLG picture to build/demo/.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DLOPT_BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh"

example="$root/examples/nbody/nbody.c"
out="$build/demo"
mkdir -p "$out"

echo
echo "== clang-19 -fplugin=libdlopt.so -O2 -c nbody.c (remarks during a normal build)"
clang-19 -fplugin="$build/lib/libdlopt.so" -O2 -c "$example" -o "$out/nbody.o" \
  -fplugin-arg-dlopt-report="$out/nbody.plan.json" \
  -fplugin-arg-dlopt-dot="$out/nbody.kdlg.dot"

echo
echo "== dl-refactor --report nbody.c -- -O2"
"$build/bin/dl-refactor" --report "$example" -- -O2

if command -v dot >/dev/null; then
  dot -Tpng "$out/nbody.kdlg.dot" -o "$out/nbody.kdlg.png"
fi
echo "== written: $out/nbody.plan.json, $out/nbody.kdlg.dot and nbody.kdlg.png (if graphviz is installed)"
ls "$out"

echo
echo "== the example itself (AoS original; rewriting and the measured speedup"
echo "   arrive with the rewriter)"
clang-19 -O2 "$example" -o "$out/nbody" -lm
time "$out/nbody"
