// A loop with a `continue` is not vectorizable: gcc 12, which the default
// model is calibrated with, keeps it scalar in every layout (SPH's pair loop
// skips the particle itself with `if (pi == pj) continue;`), while the same
// body under an `if` vectorizes, conditional loads included. Before, the
// pair loop counted as vectorizable under -ffast-math and the tree made
// sph's positions SoA, 0.93 of the original's time where keeping the x/y
// pairs runs 0.83.
// RUN: %dl-refactor --report --format=json %s -- -O3 -ffast-math | FileCheck %s
struct P { float x, y, m; };

static float skips(struct P *a, int n, int k) {
  float s = 0;
  for (int j = 0; j < n; ++j) {
    if (j == k)
      continue;
    s += a[j].x * a[j].m;
  }
  return s;
}
// CHECK:      "location": "{{.*}}continue-scalar.c:[[@LINE-4]]:15"
// CHECK-NEXT: "loop_depth": 1,
// CHECK-NEXT: "loop_indexed": {{.*}}
// CHECK-NEXT: "position": {{.*}}
// CHECK-NEXT: "vectorizable": false

static float guards(struct P *a, int n, int k) {
  float s = 0;
  for (int j = 0; j < n; ++j)
    if (j != k && a[j].y < 1.0f)
      s += a[j].x * a[j].m;
  return s;
}
// CHECK:      "location": "{{.*}}continue-scalar.c:[[@LINE-3]]:17"
// CHECK-NEXT: "loop_depth": 1,
// CHECK-NEXT: "loop_indexed": {{.*}}
// CHECK-NEXT: "position": {{.*}}
// CHECK-NEXT: "vectorizable": true

int main(void) {
  static struct P a[64];
  return (int)(skips(a, 64, 3) + guards(a, 64, 3));
}
