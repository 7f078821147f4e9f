// gcc vectorizes n-body's force loop at the outer loop: 16 bodies i at once,
// each lane running the whole inner loop over j, so the stores b[i].v after
// the inner loop are vector stores, contiguous only if the velocities are
// SoA. The outer loop's accesses are vectorizable where gcc 12 does that
// (an inner loop with a trip count the outer loop does not change, no
// branch, subscripts in i that are i itself); a triangular inner loop, an
// `if` in it, or a row a[i * n + j] keep the outer loop scalar (checked with
// -fopt-info-vec: "outer-loop already vectorized" on the first only).
// RUN: %dl-refactor --report --format=json %s -- -O3 -ffast-math | FileCheck %s
struct B { float x, m, v; };

void forces(struct B *b, int n, float dt) {
  for (int i = 0; i < n; ++i) {
    float a = 0.0f;
    for (int j = 0; j < n; ++j)
      a += b[j].m * (b[j].x - b[i].x);
    b[i].v += dt * a;
  }
}
// CHECK:      "location": "{{.*}}outer-loop.c:[[@LINE-3]]:10"
// CHECK-NEXT: "loop_depth": 1,
// CHECK-NEXT: "loop_indexed": {{.*}}
// CHECK-NEXT: "position": {{.*}}
// CHECK-NEXT: "vectorizable": true

void triangle(struct B *b, int n, float dt) {
  for (int i = 0; i < n; ++i) {
    float a = 0.0f;
    for (int j = 0; j < i; ++j)
      a += b[j].m * (b[j].x - b[i].x);
    b[i].v += dt * a;
  }
}
// CHECK:      "location": "{{.*}}outer-loop.c:[[@LINE-3]]:10"
// CHECK-NEXT: "loop_depth": 1,
// CHECK-NEXT: "loop_indexed": {{.*}}
// CHECK-NEXT: "position": {{.*}}
// CHECK-NEXT: "vectorizable": false

void branches(struct B *b, int n, float dt) {
  for (int i = 0; i < n; ++i) {
    float a = 0.0f;
    for (int j = 0; j < n; ++j)
      if (b[j].x < b[i].x)
        a += b[j].m;
    b[i].v += dt * a;
  }
}
// CHECK:      "location": "{{.*}}outer-loop.c:[[@LINE-3]]:10"
// CHECK-NEXT: "loop_depth": 1,
// CHECK-NEXT: "loop_indexed": {{.*}}
// CHECK-NEXT: "position": {{.*}}
// CHECK-NEXT: "vectorizable": false

void rows(struct B *b, int n, float dt) {
  for (int i = 0; i < n; ++i) {
    float a = 0.0f;
    for (int j = 0; j < n; ++j)
      a += b[i * n + j].m;
    b[i].v += dt * a;
  }
}
// CHECK:      "location": "{{.*}}outer-loop.c:[[@LINE-3]]:10"
// CHECK-NEXT: "loop_depth": 1,
// CHECK-NEXT: "loop_indexed": {{.*}}
// CHECK-NEXT: "position": {{.*}}
// CHECK-NEXT: "vectorizable": false

// The inner loop's bound is stored in the outer loop's body.
void bounds(struct B *b, int n, float dt) {
  int k = n;
  for (int i = 0; i < n; ++i) {
    float a = 0.0f;
    for (int j = 0; j < k; ++j)
      a += b[j].m;
    k = k - 1;
    b[i].v += dt * a;
  }
}
// CHECK:      "location": "{{.*}}outer-loop.c:[[@LINE-3]]:10"
// CHECK-NEXT: "loop_depth": 1,
// CHECK-NEXT: "loop_indexed": {{.*}}
// CHECK-NEXT: "position": {{.*}}
// CHECK-NEXT: "vectorizable": false

// sinf and cosf of one value: one scalar cexpif, in the nest too.
float sinf(float), cosf(float);
void turns(struct B *b, int n, float dt) {
  for (int i = 0; i < n; ++i) {
    float a = 0.0f;
    for (int j = 0; j < n; ++j)
      a += b[j].m * (cosf(b[i].x) + sinf(b[i].x));
    b[i].v += dt * a;
  }
}
// CHECK:      "location": "{{.*}}outer-loop.c:[[@LINE-3]]:10"
// CHECK-NEXT: "loop_depth": 1,
// CHECK-NEXT: "loop_indexed": {{.*}}
// CHECK-NEXT: "position": {{.*}}
// CHECK-NEXT: "vectorizable": false

int main(void) {
  static struct B b[64];
  for (int s = 0; s < 10; ++s)
    forces(b, 64, 0.01f);
  return (int)b[1].v;
}
