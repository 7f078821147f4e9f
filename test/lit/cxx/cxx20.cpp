// Under -std=c++20 the generated containers compile and keep the output:
// the element proxies are built by their constructor (a class that
// declares its copy constructor is no aggregate in C++20), and a range-for
// with an init-statement stays as written (it is not strip-mined). (The
// tool parses with its default standard; the differential check builds
// both programs as C++20.)
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc %cc --cflags=-std=c++20 --record P --layouts 'soa split tiled:4' %S/Inputs/cxx20.cpp | FileCheck %s
// CHECK:      soa: same output
// CHECK-NEXT: split: same output
// CHECK-NEXT: tiled:4: same output
// RUN: cp %S/Inputs/cxx20.cpp %t.cpp
// RUN: %dl-refactor --apply --layout=P=tiled:4 %t.cpp -- -std=c++20
// RUN: FileCheck --check-prefix=CODE %s < %t.cpp
// CODE:      struct P_tiled_ref {
// CODE-NEXT:   float &x;
// CODE-NEXT:   float &y;
// CODE-NEXT:   P_tiled_ref(float &a0, float &a1) : x(a0), y(a1) {}
// CODE:      for (float k = 2; auto &&p : v)
// CODE-NEXT:   p.x *= k;
// CODE-NEXT: for (std::size_t p_tile = 0; p_tile < v.size() / 4; ++p_tile) {
