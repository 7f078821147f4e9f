// A std::vector<P> becomes the generated container: declarations (also
// through typedefs, members, parameters and std::vector<P>::size_type) name
// it, range-for variables bind the element proxy, copies stay copies. The
// program prints the same in every layout, compiles with -Werror, and a
// second run changes nothing.
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc %cc --record P --layouts 'soa split tiled:4 tiled:16 split:{x,y}tiled:4{id}soa{w}' %S/Inputs/vector-constructs.cpp | FileCheck --check-prefix=DIFF %s
// DIFF:      soa: same output
// DIFF-NEXT: split: same output
// DIFF-NEXT: tiled:4: same output
// DIFF-NEXT: tiled:16: same output
// DIFF-NEXT: split:{x,y}tiled:4{id}soa{w}: same output

// The uses keep their spelling; only these lines change.
// RUN: cp %S/Inputs/vector-constructs.cpp %t.cpp
// RUN: %dl-refactor-rules --apply '--layout=P=split:{x,y}{id,w}' %t.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=TOOL %s
// TOOL: struct P rewritten as P_split
// RUN: FileCheck --check-prefix=CODE %s < %t.cpp
// CODE: /* dlopt: begin generated layout of P */
// CODE-NOT: #include <stdlib.h>
// CODE: struct P_x_y {
// CODE: struct P_split_ref {
// CODE-NEXT:   float &x;
// CODE-NEXT:   float &y;
// CODE-NEXT:   int &id;
// CODE-NEXT:   double &w;
// CODE: class P_split_iterator {
// CODE: class P_split_vector {
// CODE:   reference operator[](size_type i) {
// CODE-NEXT:     return {fields.x_y[i].x, fields.x_y[i].y, fields.id_w[i].id,
// CODE-NEXT:             fields.id_w[i].w};
// CODE:     std::vector<P_x_y> x_y;
// CODE-NEXT:     std::vector<P_id_w> id_w;
// CODE-NEXT:   } fields;
// CODE: /* dlopt: end generated layout of P */
// CODE: typedef P_split_vector Cloud;
// CODE-NEXT: using Cloud2 = P_split_vector;
// CODE: P_split_vector ps;
// CODE: static void fill(P_split_vector &v, int n) {
// CODE: static double sum(const P_split_vector &v) {
// CODE-NEXT: double s = 0;
// CODE-NEXT: for (P_split_vector::size_type i = 0; i < v.size(); ++i)
// CODE-NEXT: s += v[i].x * v[i].w + v.at(i).y;
// CODE-NEXT: for (const auto &p : v)
// CODE-NEXT: s += p.id;
// CODE-NEXT: for (const auto &p : v)
// CODE-NEXT: s += p.y;
// CODE-NEXT: for (P p : v)
// CODE-NEXT: s += p.norm2();
// CODE: static void move(Cloud &v, float dt) {
// CODE-NEXT: for (auto &&p : v) {
// CODE: for (auto &&p : v)
// CODE-NEXT: p.id += 1;
// CODE-NEXT: for (auto &&p : v)
// CODE: P a = v[i];
// CODE-NEXT: P b = v[i + 1];
// CODE: for (P p : v)
// CODE-NEXT: p.id = -1;
// CODE-NEXT: const auto &first = v[0];
// CODE: w.ps = P_split_vector(5);
// CODE: P_split_vector big(40, v[3]);
