// A loop that stores through an index the compiler cannot follow (a[idx[i]],
// bitonic's a[i ^ j]) may write an element another iteration reads: gcc and
// clang keep it scalar, in AoS as in SoA, so none of its accesses counts as
// vectorizable, also those before the store. A loop that only reads through
// such an index, and a loop inside one that stores so, are unaffected.
// Before, bitonic's compare-exchange loop counted as vectorizable and the
// tree made its items SoA (0.95x of the original).
// RUN: %dl-refactor --report --format=json %s -- -O3 | FileCheck %s
struct P { float x, y; };

static void scatter(struct P *a, const int *idx, int n) {
  for (int i = 0; i < n; ++i) {
    float y = a[i].y;
    a[idx[i]].x = y;
  }
}
// CHECK:      "location": "{{.*}}gathered-write.c:13:20"
// CHECK-NEXT: "loop_depth": 1,
// CHECK-NEXT: "loop_indexed": {{.*}}
// CHECK-NEXT: "position": {{.*}}
// CHECK-NEXT: "vectorizable": false
// CHECK:      "location": "{{.*}}gathered-write.c:14:15"
// CHECK-NEXT: "loop_depth": 1,
// CHECK-NEXT: "loop_indexed": {{.*}}
// CHECK-NEXT: "position": {{.*}}
// CHECK-NEXT: "vectorizable": false

static void gather(struct P *a, const int *idx, float *out, int n) {
  for (int i = 0; i < n; ++i)
    out[i] = a[idx[i]].x;
}
// CHECK:      "location": "{{.*}}gathered-write.c:30:24"
// CHECK-NEXT: "loop_depth": 1,
// CHECK-NEXT: "loop_indexed": {{.*}}
// CHECK-NEXT: "position": {{.*}}
// CHECK-NEXT: "vectorizable": true

static void swaps(struct P *a, int n, int j) {
  for (int i = 0; i < n; ++i) {
    int l = i ^ j;
    if (l > i && a[i].x > a[l].x) {
      struct P t = a[i];
      a[i] = a[l];
      a[l] = t;
    }
  }
}
// CHECK:      "location": "{{.*}}gathered-write.c:41:23"
// CHECK-NEXT: "loop_depth": 1,
// CHECK-NEXT: "loop_indexed": {{.*}}
// CHECK-NEXT: "position": {{.*}}
// CHECK-NEXT: "vectorizable": false

static void outer(struct P *a, const int *idx, int n) {
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < n; ++k)
      a[k].y += 1.0f;
    a[idx[i]].x = 0.0f;
  }
}
// CHECK:      "location": "{{.*}}gathered-write.c:57:12"
// CHECK-NEXT: "loop_depth": 2,
// CHECK-NEXT: "loop_indexed": {{.*}}
// CHECK-NEXT: "position": {{.*}}
// CHECK-NEXT: "vectorizable": true

int main(void) {
  static struct P a[64];
  static int idx[64];
  static float out[64];
  scatter(a, idx, 64);
  gather(a, idx, out, 64);
  swaps(a, 64, 1);
  outer(a, idx, 64);
  return (int)out[0];
}
