// new T[n] in C++ is a heap array.
// RUN: %clang %dlopt-rules -fsyntax-only %s 2>&1 | FileCheck %s
// RUN: %dl-refactor-rules --report --format=json %s -- | FileCheck --check-prefix=JSON %s

// CHECK: remark: dlopt: struct V (8 B, 2 fields, 1 array, 1 kernel): {x} SoA | {y} AoS
// JSON: "kind": "new[]"
struct V { float x, y; };

int main() {
  V *v = new V[100];
  float s = 0;
  for (int i = 0; i < 100; ++i)
    s += v[i].x;
  delete[] v;
  return s > 0;
}
