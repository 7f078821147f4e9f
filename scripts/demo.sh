#!/usr/bin/env bash
# The main job on the bundled examples: sets up and builds dlopt, then for
# examples/nbody shows the plan (as compiler remarks during a normal build and
# as dl-refactor's report), the rewrite as a diff, and the measured speedup of
# the rewritten program over the original; then the same whole-program flow on
# the multi-file CMake project examples/lavamd, and the C++ example
# examples/nbody-cpp (std::vector), and the real-style C program examples/sph
# (element pointers, OpenMP) and examples/xslookup (a pointer member,
# sub-arrays, qsort); then dl-refactor --tune on nbody, which applies a plan
# only if it measured it faster. Work files go to build/demo/.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DLOPT_BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh"

example="$root/examples/nbody/nbody.c"
out="$build/demo"
rm -rf "$out"
mkdir -p "$out"
cc=${CC:-gcc}

# Timings of two builds. With -ffast-math the compiler may reassociate the
# rewritten loops differently (that is what lets them vectorize), so the last
# digits of a floating-point result may differ; without it they never do.
compare() {
  if ! python3 "$root/bench/compare.py" "$@" && [[ "$flags" != *fast-math* ]]; then
    echo "dlopt demo: the rewritten program prints something else" >&2
    exit 1
  fi
}

# Builds the original ("${original[@]}") and the rewritten ("${rewritten[@]}")
# sources of program NAME with COMPILER and each set of FLAGS, and times
# them against each other: measure NAME COMPILER FLAGS...
measure() {
  local name=$1 compiler=$2 flags
  shift 2
  for flags in "$@"; do
    # shellcheck disable=SC2086
    "$compiler" $flags -Wall -Wextra -Wno-unknown-pragmas "${original[@]}" \
      -o "$out/${name}_aos" -lm
    # shellcheck disable=SC2086
    "$compiler" $flags -Wall -Wextra -Wno-unknown-pragmas "${rewritten[@]}" \
      -o "$out/${name}_dlopt" -lm
    echo "$flags:"
    compare "$out/${name}_aos" "$out/${name}_dlopt"
  done
}

echo
echo "== 1. clang-19 -fplugin=libdlopt.so -Rpass=dlopt -Rpass-analysis=dlopt -O2 -c nbody.c: remarks during a normal build"
clang-19 -fplugin="$build/lib/libdlopt.so" -Rpass=dlopt -Rpass-analysis=dlopt \
  -O2 -c "$example" -o "$out/nbody.o" \
  -fplugin-arg-dlopt-report="$out/nbody.plan.json" \
  -fplugin-arg-dlopt-dot="$out/nbody.kdlg.dot"
if command -v dot >/dev/null; then
  dot -Tpng "$out/nbody.kdlg.dot" -o "$out/nbody.kdlg.png"
  # The layout itself: a cache line before and after, the clusters, the KDLG.
  "$build/bin/dl-refactor" --report "$example" --picture="$out/nbody-layout.png" \
    -- -O2 > /dev/null
  echo "picture of the layout: $out/nbody-layout.png"
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
original=("$example") rewritten=("$out/nbody_dlopt.c")
measure nbody "$cc" "-O3 -march=native" "-O3 -march=native -ffast-math"
echo
echo "Without -ffast-math the force loop's sqrtf call and float reductions keep"
echo "every layout scalar, so the new layout cannot pay there (see docs/analysis.md)."

echo
echo "== 5. a whole program: examples/lavamd (main.c, kernel.c, lavamd.h), built with CMake"
project="$out/lavamd"
cp -r "$root/examples/lavamd" "$project"
# A normal build with the plugin: one unit plan per file in reports/. No
# file alone can decide a struct whose arrays reach the others: with
# -Rpass-analysis=dlopt each says so, once per struct and file.
cmake -S "$project" -B "$project/build" -G Ninja -DCMAKE_C_COMPILER=clang-19 \
  -DCMAKE_C_FLAGS="-fplugin=$build/lib/libdlopt.so -Rpass-analysis=dlopt -fplugin-arg-dlopt-report=$project/reports/" \
  >/dev/null
{ cmake --build "$project/build" 2>&1 | grep -c "remark: dlopt" || true; } |
  xargs printf "   build: %s dlopt remarks (one per struct per file: the whole program decides)\n"
echo "-- dl-refactor --merge-reports reports/: the program's plan from the build"
"$build/bin/dl-refactor" --merge-reports "$project/reports" | grep -E "^struct|plan:"
echo "-- dl-refactor -p build --jobs 2 --diff (first 40 lines; all in $out/lavamd.diff)"
"$build/bin/dl-refactor" -p "$project/build" --jobs 2 --diff > "$out/lavamd.diff"
head -n 40 "$out/lavamd.diff"
echo "..."
grep '^+++' "$out/lavamd.diff"
"$build/bin/dl-refactor" -p "$project/build" --jobs 2 --apply
echo
echo "-- measured, single-threaded: original vs rewritten"
original=("$root"/examples/lavamd/*.c) rewritten=("$project"/*.c)
measure lavamd "$cc" "-O3 -march=native" "-O3 -march=native -ffast-math"

echo
echo "== 6. C++: examples/nbody-cpp (std::vector, range-for, a member function)"
cxx_example="$root/examples/nbody-cpp/nbody.cpp"
cxx=${CXX:-g++}
cxxflags="-O3 -march=native -ffast-math"
cp "$cxx_example" "$out/nbody_dlopt.cpp"
echo "-- dl-refactor nbody.cpp --apply -- $cxxflags: the uses keep their spelling,"
echo "   only declarations and range-for variables change (the generated container"
echo "   is in $out/nbody_cpp.diff)"
# shellcheck disable=SC2086
"$build/bin/dl-refactor" "$out/nbody_dlopt.cpp" -- $cxxflags > "$out/nbody_cpp.diff"
sed -n '/dlopt: end generated layout/,$p' "$out/nbody_cpp.diff" | grep '^[-+]' | grep -v '^+/\*'
# shellcheck disable=SC2086
"$build/bin/dl-refactor" "$out/nbody_dlopt.cpp" --apply -- $cxxflags
original=("$cxx_example") rewritten=("$out/nbody_dlopt.cpp")
measure nbody_cpp "$cxx" "-O3 -march=native" "$cxxflags"

# A one-file real-style C program with OpenMP: its plan, the rewrite of one
# function, then timings: real_style NAME FUNCTION WHAT LINES.
real_style() {
  local name=$1 function=$2 what=$3 lines=$4
  local src="$root/examples/$name/$name.c" copy="$out/${name}_dlopt.c"
  cp "$src" "$copy"
  "$build/bin/dl-refactor" --report "$src" -- -O3 -march=native -fopenmp | grep -E "^struct|plan:"
  echo "-- $what, rewritten (all of it in $out/$name.diff):"
  "$build/bin/dl-refactor" "$copy" -- -O3 -march=native -fopenmp > "$out/$name.diff"
  sed -n "/static void $function/,/^ }/p" "$out/$name.diff" | grep '^[-+]' | head -n "$lines"
  "$build/bin/dl-refactor" "$copy" --apply -- -O3 -march=native -fopenmp
  echo "-- measured, single-threaded (built without -fopenmp): original vs rewritten"
  original=("$src") rewritten=("$copy")
  measure "$name" "$cc" "-O3 -march=native" "-O3 -march=native -ffast-math"
}

echo
echo "== 7. real-style C: examples/sph (element pointers pi = &particles[i], pi == pj,"
echo "   OpenMP clauses, a walk to one past the last, a byte count computed first)"
real_style sph compute_forces "the force kernel" 24

echo
echo "== 8. real-style C: examples/xslookup (a pointer member sd->nuclide_grid, qsort"
echo "   of each nuclide's sub-array, binary search on a sub-array, low/high = low + 1)"
real_style xslookup micro_xs "the interpolation" 20

echo
echo "== 9. dl-refactor --tune on examples/nbody without -ffast-math: measure the automatic"
echo "   plan and its neighbours in copies of the program, apply one only if it is faster"
echo "   than the original beyond the noise (docs/tuning.md)"
mkdir -p "$out/tune"
cp "$example" "$out/tune/nbody.c"
"$build/bin/dl-refactor" --tune --quiet --tune-budget=120 \
  --build="$cc -O3 -march=native -o nbody nbody.c -lm" --run="./nbody 2048 5" \
  "$out/tune/nbody.c" -- -O3 -march=native
echo "(table as JSON and chart: $out/tune/dlopt-tune.json, $out/tune/dlopt-tune.png)"

echo
echo "== 10. real-style C++: examples/mesh-cpp (a 2-D vector class with its own copy,"
echo "   assignment and operators; the mesh's arrays are members of a class, allocated"
echo "   in its constructor and reached from its member functions)"
mesh_example="$root/examples/mesh-cpp/mesh.cpp"
"$build/bin/dl-refactor" --report "$mesh_example" -- -std=c++17 -O3 -march=native |
  grep -E "^struct double2|plan:"
echo "-- forced SoA (--layout=double2=soa): the point update, rewritten (all of it in"
echo "   $out/mesh.diff); operators keep their spelling on copies of the elements"
cp "$mesh_example" "$out/mesh_dlopt.cpp"
"$build/bin/dl-refactor" --layout=double2=soa "$out/mesh_dlopt.cpp" -- -std=c++17 \
  > "$out/mesh.diff"
sed -n '/void advance/,/^   }/p' "$out/mesh.diff" | grep '^[-+]'
"$build/bin/dl-refactor" --apply --layout=double2=soa "$out/mesh_dlopt.cpp" -- -std=c++17
original=("$mesh_example") rewritten=("$out/mesh_dlopt.cpp")
measure mesh "$cxx" "-O3 -march=native" "-O3 -march=native -ffast-math"
