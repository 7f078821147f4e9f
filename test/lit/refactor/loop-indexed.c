// The analysis marks the accesses a[i] indexed by the loop variable of an
// innermost loop `for (i = 0; i < n; ++i)`: those a tiled layout reaches
// through a strip-mined loop, without a division (feature
// loop_index_fraction; not whole elements or accesses through element
// pointers, which stay flat); and the accesses in loops that accumulate into a
// scalar, with how many scalars they accumulate into (features
// reduction_fraction and accumulators).
// RUN: %dl-refactor --report --format=json %s -- | FileCheck %s
struct P { float x, y; };
static struct P a[1024];
static int idx[1024];

float kernels(int off, int n) {
  for (int i = 0; i < 1024; ++i)
    a[i].x += 1.0f;
  // CHECK: "location": "{{.*}}loop-indexed.c:[[@LINE-1]]:10"
  // CHECK-NEXT: "loop_depth": 1,
  // CHECK-NEXT: "loop_indexed": true,
  for (int i = 0; i < 1000; ++i)
    a[i + off].y += 1.0f;
  // CHECK: "location": "{{.*}}loop-indexed.c:[[@LINE-1]]:16"
  // CHECK-NEXT: "loop_depth": 1,
  // CHECK-NEXT: "loop_indexed": false,
  for (int i = 0; i < 1024; ++i)
    a[idx[i]].x += 2.0f;
  // CHECK: "location": "{{.*}}loop-indexed.c:[[@LINE-1]]:15"
  // CHECK-NEXT: "loop_depth": 1,
  // CHECK-NEXT: "loop_indexed": false,
  for (int i = 0; i < 32; ++i) {
    a[i].y = 0; // Its loop holds another: not strip-mined.
    // CHECK: "location": "{{.*}}loop-indexed.c:[[@LINE-1]]:10"
    // CHECK-NEXT: "loop_depth": 1,
    // CHECK-NEXT: "loop_indexed": false,
    for (int j = 0; j < n; ++j)
      a[j].x *= a[i].y;
    // CHECK: "location": "{{.*}}loop-indexed.c:[[@LINE-1]]:22"
    // CHECK-NEXT: "loop_depth": 2,
    // CHECK-NEXT: "loop_indexed": false,
    // CHECK: "location": "{{.*}}loop-indexed.c:[[@LINE-4]]:12"
    // CHECK-NEXT: "loop_depth": 2,
    // CHECK-NEXT: "loop_indexed": true,
  }
  for (int i = off; i < off + 8; ++i) // Not from 0: not strip-mined.
    a[i].x = 1.0f;
  // CHECK: "accumulators": 0,
  // CHECK-NOT: "accumulators"
  // CHECK: "location": "{{.*}}loop-indexed.c:[[@LINE-3]]:10"
  // CHECK-NEXT: "loop_depth": 1,
  // CHECK-NEXT: "loop_indexed": false,
  float sum = 0;
  for (int i = 0; i < 1024; ++i)
    sum += a[i].y;
  // CHECK: "accumulators": 1,
  // CHECK-NOT: "accumulators"
  // CHECK: "location": "{{.*}}loop-indexed.c:[[@LINE-3]]:17"
  // CHECK-NEXT: "loop_depth": 1,
  // CHECK-NEXT: "loop_indexed": true,
  float x = 0, y = 0, p = 1;
  for (int i = 0; i < 1024; ++i) {
    float t = a[i].x; // A local of the body is no accumulator.
    x += t;
    y = y + a[i].y;
    p = p * t;
    x -= 1.0f; // x again: three accumulators, not four.
  }
  // CHECK: "accumulators": 3,
  // CHECK-NOT: "accumulators"
  // CHECK: "location": "{{.*}}loop-indexed.c:[[@LINE-8]]:20"
  // A whole element goes through the layout's get and set, and pi->f
  // through pi: the flat form in a strip-mined loop too.
  struct P last = {0, 0};
  for (int i = 0; i < 1024; ++i)
    last = a[i];
  // CHECK: "location": "{{.*}}loop-indexed.c:[[@LINE-1]]:12"
  // CHECK-NEXT: "loop_depth": 1,
  // CHECK-NEXT: "loop_indexed": false,
  for (int i = 0; i < 1024; ++i) {
    struct P *pi = &a[i];
    pi->x = 0;
  }
  // CHECK: "location": "{{.*}}loop-indexed.c:[[@LINE-2]]:9"
  // CHECK-NEXT: "loop_depth": 1,
  // CHECK-NEXT: "loop_indexed": false,
  return sum + x + y + p + last.x;
}
