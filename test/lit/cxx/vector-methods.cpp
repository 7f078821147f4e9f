// Non-const member functions called on elements keep their spelling
// (v[i].bounce(30), b.move(dt)): the element proxy forwards each one to a
// copy of the element and assigns the copy back, which is the same call
// when the function keeps no part of the object (vector-refusals.cpp has
// the ones that would). Const ones run on a copy, Body(b).kinetic(). The
// program prints the same in every layout and compiles with -Werror.
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc %cc --record Body --layouts 'soa split tiled:4 tiled:16 split:{x,y}tiled:4{vx,vy}soa' %S/Inputs/vector-methods.cpp | FileCheck --check-prefix=DIFF %s
// DIFF:      soa: same output
// DIFF-NEXT: split: same output
// DIFF-NEXT: tiled:4: same output
// DIFF-NEXT: tiled:16: same output
// DIFF-NEXT: split:{x,y}tiled:4{vx,vy}soa: same output

// RUN: cp %S/Inputs/vector-methods.cpp %t.cpp
// RUN: %dl-refactor --apply --layout=Body=soa %t.cpp -- -std=c++17
// RUN: FileCheck --check-prefix=CODE %s < %t.cpp
// CODE:      struct Body_soa_ref {
// CODE:        void move(float a0) {
// CODE-NEXT:     Body e = *this;
// CODE-NEXT:     e.move(std::forward<float>(a0));
// CODE-NEXT:     *this = e;
// CODE-NEXT:   }
// CODE-NEXT:   float slow(float a0) {
// CODE-NEXT:     Body e = *this;
// CODE-NEXT:     auto r = e.slow(std::forward<float>(a0));
// CODE-NEXT:     *this = e;
// CODE-NEXT:     return r;
// CODE-NEXT:   }
// CODE-NEXT:   int bounce(int a0) {
// The function returning a reference is not forwarded (nor called on an
// element).
// CODE-NOT:    self(
// CODE:        void reset() {
// CODE:      struct Body_soa_cref {
// CODE-NOT:    e = *this
// CODE:      int main() {
// CODE:          b.move(0.1f);
// CODE:          hits += v[i].bounce(30);
// CODE-NEXT:   e += v.front().slow(0.99f);
// CODE:        v.back().reset();
// CODE-NEXT:   a[2].reset();
// CODE:          sum += b.x + b.y + Body(b).kinetic();

// The analysis counts such a call as a read and a write of every field
// (bounce writes y through the copy assigned back); the record is not
// refused.
// RUN: %dl-refactor --report --format=json %S/Inputs/vector-methods.cpp -- -std=c++17 | python3 -c "import json, sys; [print(a['field'], a['kind']) for r in json.load(sys.stdin)['records'] for k in r['kernels'] for a in k['accesses'] if a['location'].endswith(':44:15')]" | FileCheck --check-prefix=ACCESS %s
// ACCESS:      x read
// ACCESS-NEXT: y read
// ACCESS-NEXT: vx read
// ACCESS-NEXT: vy read
// ACCESS-NEXT: x write
// ACCESS-NEXT: y write
// ACCESS-NEXT: vx write
// ACCESS-NEXT: vy write
// RUN: %dl-refactor --report %S/Inputs/vector-methods.cpp -- -std=c++17 | FileCheck --check-prefix=REPORT %s
// REPORT: struct Body at
// REPORT-NOT: not transformable
// REPORT: plan: Body:
