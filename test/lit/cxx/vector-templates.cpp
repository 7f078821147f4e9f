// Function templates over containers: each instantiation is analyzed (the
// kernels step, energy and scaled, and the members they call), and the
// template's text is rewritten only where one spelling serves every
// instantiation: a deduced `V &`
// parameter gets the generated container from the caller, range-for
// variables become `auto &&` / `const auto &`, member functions are reached
// through the proxies' forwarders, and a container spelled without
// template parameters is renamed. Uses that would need the record's name
// in the shared text, or that would not match the container, are refused
// with the reason. Templates are not strip-mined.
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc %cc --record Body --layouts 'soa split tiled:4 split:{x,y}tiled:4{vx,vy}soa' %S/Inputs/vector-templates.cpp | FileCheck --check-prefix=DIFF %s
// DIFF:      soa: same output
// DIFF-NEXT: split: same output
// DIFF-NEXT: tiled:4: same output
// DIFF-NEXT: split:{x,y}tiled:4{vx,vy}soa: same output

// RUN: %dl-refactor --report %S/Inputs/vector-templates.cpp -- -std=c++17 | FileCheck --check-prefix=REPORT %s
// REPORT:      struct Body at
// REPORT:      kernels:
// The member functions count at their calls, in the kernels' loops: every
// field of the element read (b.speed2(), on a copy), and written back
// (b.move(dt)); they are no kernels of their own.
// REPORT-NEXT:   step at {{.*}}: 9 accesses, 2 loops, runs 5 times
// REPORT-NEXT:   energy at {{.*}}: 5 accesses, 2 loops
// REPORT-NEXT:   scaled at
// REPORT-NOT:  not transformable

// RUN: cp %S/Inputs/vector-templates.cpp %t.cpp
// RUN: %dl-refactor --apply --layout=Body=tiled:4 %t.cpp -- -std=c++17
// RUN: FileCheck --check-prefix=CODE %s < %t.cpp
// CODE:      struct Body_tiled_cref {
// CODE:        float speed2() const { return Body(*this).speed2(); }
// CODE:      template <class V> void step(V &v, float dt) {
// CODE-NEXT:   for (auto &&b : v)
// CODE-NEXT:     b.move(dt);
// CODE-NEXT:   for (std::size_t i = 0; i < v.size(); ++i)
// CODE-NEXT:     v[i].vy -= 9.8f * dt;
// CODE:        for (const auto &b : v)
// CODE-NEXT:     e += b.speed2();
// CODE-NEXT:   for (typename V::const_iterator it = v.begin(); it != v.end(); ++it)
// CODE:      template <int Scale> float scaled(const Body_tiled_vector &v) {
// CODE:        std::vector<Other> others(3, Other{2.5});

// What is refused, and where, by the analysis: the spelling of the
// container, a sort by operator< or an `auto` copy in the template's text.
// A forced plan gives the same reason and writes nothing.
// RUN: %dl-refactor --report %s -- -std=c++17 | FileCheck --check-prefix=REFUSED %s
// RUN: not %dl-refactor --diff --layout=P=soa %s -- -std=c++17 -DONLY_TEXT 2>&1 | FileCheck --check-prefix=TEXT %s
#include <algorithm>
#include <vector>

struct P {
  float x, y;
  bool operator<(const P &o) const { return x < o.x; }
};

// REFUSED: struct P at
// REFUSED: not transformable:
// Spelled with its parameters, it gets an overload of its own
// (template-containers.cpp): no refusal.
// REFUSED-NOT: template 'sumx'
template <class T> float sumx(const std::vector<T> &v) {
  float s = 0;
  for (const auto &e : v)
    s += e.x;
  return s;
}

template <class V> void order(V &v) {
  // REFUSED-DAG: vector-templates.cpp:[[@LINE+1]]:{{[0-9]+}}: an algorithm sorting by operator< inside template 'order' would need a spelling for this instantiation only (not rewritten yet)
  std::sort(v.begin(), v.end());
}

template <class V> float copies(const V &v) {
  float s = 0;
  // REFUSED-DAG: vector-templates.cpp:[[@LINE+2]]:{{[0-9]+}}: a copy of an element declared 'auto' inside template 'copies' would need a spelling for this instantiation only (not rewritten yet)
  // TEXT: vector-templates.cpp:[[@LINE+1]]:{{[0-9]+}}: --layout P=soa: struct P cannot be transformed: a copy of an element declared 'auto' inside template 'copies' would need
  for (auto e : v)
    s += e.y;
  return s;
}

// REFUSED-DAG: vector-templates.cpp:[[@LINE+1]]:{{[0-9]+}}: std::vector<P> 'v' in an instantiation of template 'byValue': spelled with template parameters ('V')
template <class V> float byValue(V v) { return v[0].x; }

int main() {
  std::vector<P> ps(8);
  for (std::size_t i = 0; i < ps.size(); ++i)
    ps[i].x = 8 - i;
#ifdef ONLY_TEXT
  return int(copies(ps));
#else
  order(ps);
  return int(sumx(ps) + copies(ps) + byValue(ps));
#endif
}
