#!/usr/bin/env bash
# The main job on the bundled example: sets up and builds dlopt, then for
# examples/nbody shows the plan (as compiler remarks during a normal build and
# as dl-refactor's report), the rewrite as a diff, and the measured speedup of
# the rewritten program over the original. Work files go to build/demo/.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DLOPT_BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh"

example="$root/examples/nbody/nbody.c"
out="$build/demo"
rm -rf "$out"
mkdir -p "$out"
cc=${CC:-gcc}

echo
echo "== 1. clang-19 -fplugin=libdlopt.so -O2 -c nbody.c: remarks during a normal build"
clang-19 -fplugin="$build/lib/libdlopt.so" -O2 -c "$example" -o "$out/nbody.o" \
  -fplugin-arg-dlopt-report="$out/nbody.plan.json" \
  -fplugin-arg-dlopt-dot="$out/nbody.kdlg.dot"
if command -v dot >/dev/null; then
  dot -Tpng "$out/nbody.kdlg.dot" -o "$out/nbody.kdlg.png"
fi

echo
echo "== 2. dl-refactor --report nbody.c"
"$build/bin/dl-refactor" --report "$example" --

echo "== 3. dl-refactor nbody.c: the rewrite as a diff (first 60 lines; all in $out/nbody.diff)"
cp "$example" "$out/nbody_dlopt.c"
"$build/bin/dl-refactor" "$out/nbody_dlopt.c" -- > "$out/nbody.diff"
head -n 60 "$out/nbody.diff"
echo "..."
"$build/bin/dl-refactor" --apply "$out/nbody_dlopt.c" --

echo
echo "== 4. measured, single-threaded: original vs rewritten ($cc, $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs))"
for flags in "-O3 -march=native" "-O3 -march=native -ffast-math"; do
  # shellcheck disable=SC2086
  "$cc" $flags -Wall -Wextra -Wno-unknown-pragmas "$example" -o "$out/nbody_aos" -lm
  # shellcheck disable=SC2086
  "$cc" $flags -Wall -Wextra -Wno-unknown-pragmas "$out/nbody_dlopt.c" -o "$out/nbody_dlopt" -lm
  echo "$flags:"
  python3 "$root/bench/compare.py" "$out/nbody_aos" "$out/nbody_dlopt"
done
echo
echo "Without -ffast-math the force loop's sqrtf call and float reductions keep"
echo "every layout scalar, so the new layout cannot pay there (see docs/analysis.md)."
