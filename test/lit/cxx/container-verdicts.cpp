// Uses of std::vector and std::array elements that a generated container
// cannot keep are refused by the analysis, so `--report` names them where
// they are and `--apply` keeps the same records (the property test
// verdicts/report-equals-apply.test runs this file too). One record per
// refusal; with -DCLEAN the refusing uses are gone and every record but
// those whose fields a container cannot hold is rewritten. Each run builds
// one configuration: --this-configuration-only leaves the other as written.
// RUN: %dl-refactor --report --this-configuration-only %s -- -std=c++17 | FileCheck %s
// RUN: %dl-refactor --report --this-configuration-only %s -- -std=c++17 -DCLEAN | FileCheck --check-prefix=CLEAN %s
// RUN: cp %s %t.cpp
// RUN: %dl-refactor --apply --this-configuration-only %t.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=APPLY %s
// RUN: cp %s %t-clean.cpp
// RUN: %clangxx -std=c++17 -DCLEAN %s -o %t-before
// RUN: %dl-refactor --apply --this-configuration-only %t-clean.cpp -- -std=c++17 -DCLEAN
// RUN: %clangxx -std=c++17 -DCLEAN %t-clean.cpp -o %t-after
// RUN: %t-before > %t-before.out
// RUN: %t-after > %t-after.out
// RUN: diff %t-before.out %t-after.out
#include <algorithm>
#include <array>
#include <cstdio>
#include <vector>

// CHECK: struct A at
// CHECK: not transformable:
// CHECK-NEXT: container-verdicts.cpp:{{[0-9]+}}:{{[0-9]+}}: array field 'pad' in an element of a std::vector or std::array (not rewritten yet)
// CLEAN: struct A at
// CLEAN: not transformable:
// APPLY-DAG: struct A kept: not transformable (array field 'pad'
struct A { float x, y; float pad[2]; };
// CHECK: struct B at
// CHECK: not transformable:
// CHECK-NEXT: const field 'y': an element of the rewritten container could not be assigned
// CLEAN: struct B at
// CLEAN: not transformable:
struct B { float x; const float y = 1; };
// CHECK: struct C at
// CHECK: not transformable:
// CHECK-NEXT: non-public field 'x': the generated container could not reach it
// CLEAN: struct C at
// CLEAN: not transformable:
class C {
  float x = 0, y = 0;
public:
  void bump() { x += 1; y += x; }
  float sum() const { return x + y; }
};
// CHECK: struct D at
// CHECK: not transformable:
// CHECK-NEXT: container-verdicts.cpp:{{[0-9]+}}:{{[0-9]+}}: structured binding of an element of std::vector<D> (not rewritten yet)
// CLEAN: struct D at
// CLEAN-NOT: not transformable
// CLEAN: plan: D:
struct D { float x, y; };
// CHECK: struct F at
// CHECK: not transformable:
// CHECK-NEXT: container-verdicts.cpp:{{[0-9]+}}:{{[0-9]+}}: const member function 'norm' called on an element inside template 'normOfFirst' would need a spelling for this instantiation only (not rewritten yet)
// CLEAN: struct F at
// CLEAN-NOT: not transformable
// CLEAN: plan: F:
struct F {
  float x, y;
  float norm(float s = 1) const { return s * (x * x + y * y); }
};
// CHECK: struct G at
// CHECK: not transformable:
// CHECK-NEXT: container-verdicts.cpp:{{[0-9]+}}:{{[0-9]+}}: std::swap of elements inside template 'swapEnds' would need a spelling for this instantiation only (not rewritten yet)
// CLEAN: struct G at
// CLEAN-NOT: not transformable
// CLEAN: plan: G:
struct G { float x, y; };
// CHECK: struct H at
// CHECK: not transformable:
// CHECK-NEXT: container-verdicts.cpp:{{[0-9]+}}:{{[0-9]+}}: declaration of 'e' is spelled inside a macro
// CLEAN: struct H at
// CLEAN-NOT: not transformable
// CLEAN: plan: H:
struct H { float x, y; };
// CHECK: struct I at
// CHECK: not transformable:
// CHECK-NEXT: container-verdicts.cpp:{{[0-9]+}}:{{[0-9]+}}: member call spelled inside a macro
// CLEAN: struct I at
// CLEAN-NOT: not transformable
// CLEAN: plan: I:
struct I { float x, y; float norm() const { return x * x + y * y; } };
// CHECK: struct J at
// CHECK: not transformable:
// CHECK-NEXT: container-verdicts.cpp:{{[0-9]+}}:{{[0-9]+}}: std::swap of elements spelled inside a macro
// CLEAN: struct J at
// CLEAN-NOT: not transformable
// CLEAN: plan: J:
struct J { float x, y; };
// CHECK: struct K at
// CHECK: not transformable:
// CHECK-NEXT: container-verdicts.cpp:{{[0-9]+}}:{{[0-9]+}}: element initializer spelled inside a macro
// CLEAN: struct K at
// CLEAN-NOT: not transformable
// CLEAN: plan: K:
struct K { float x, y; };

// The same uses spelled where one text serves (CLEAN), or not.
template <class V> float normOfFirst(const V &v) {
#ifdef CLEAN
  return v[0].x;
#else
  return v[0].norm();
#endif
}
template <class V> void swapEnds(V &v) {
#ifdef CLEAN
  using std::swap;
  swap(v[0], v[v.size() - 1]); // after the rewrite, the proxy's swap
#else
  std::swap(v[0], v[v.size() - 1]);
#endif
}
#define BIND(name, v, i) const H &name = v[i]
#define NORM0(v) v[0].norm()
#define SWAP(a, b) std::swap(a, b)
#define ONE {1, 2}

int main() {
  const int n = 64;
  std::vector<A> a(n); std::vector<B> b(n); std::vector<C> c(n);
  std::vector<D> d(n); std::vector<F> f(n); std::vector<G> g(n);
  std::vector<H> h(n); std::vector<I> in(n); std::vector<J> j(n);
#ifdef CLEAN
  std::array<K, 2> k = {{{1, 2}, {3, 4}}};
#else
  std::array<K, 2> k = {{ONE, {3, 4}}};
#endif
  float s = 0;
  for (int i = 0; i < n; ++i) {
    a[i].x = i; a[i].y = a[i].x * 2;
    b[i].x = i; s += b[i].y;
    c[i].bump(); s += c[i].sum();
    d[i].x = i; d[i].y = 1;
#ifdef CLEAN
    s += d[i].x + d[i].y;
#else
    auto [dx, dy] = d[i];
    s += dx + dy;
#endif
    f[i].x = i; f[i].y = 2;
    g[i].x = i; g[i].y = 3;
    h[i].x = i; h[i].y = 4;
#ifdef CLEAN
    const H &e = h[i];
#else
    BIND(e, h, i);
#endif
    s += e.x;
    in[i].x = i; in[i].y = 5;
    j[i].x = i; j[i].y = 6;
  }
  s += normOfFirst(f);
  swapEnds(g);
#ifdef CLEAN
  s += in[0].norm();
  std::swap(j[0], j[1]);
#else
  s += NORM0(in);
  SWAP(j[0], j[1]);
#endif
  for (int r = 0; r < 2; ++r)
    s += k[r].x + k[r].y;
  std::printf("%g %g %g %g\n", s, a[3].y, j[0].x, g[0].x);
}
