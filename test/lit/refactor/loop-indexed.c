// The analysis marks the accesses a[i] indexed by the loop variable of an
// innermost loop `for (i = 0; i < n; ++i)`: those a tiled layout reaches
// through a strip-mined loop, without a division (feature
// loop_index_fraction); and the accesses in loops that accumulate into a
// scalar (feature reduction_fraction).
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
  // CHECK: "location": "{{.*}}loop-indexed.c:[[@LINE-1]]:10"
  // CHECK-NEXT: "loop_depth": 1,
  // CHECK-NEXT: "loop_indexed": false,
  // CHECK-NEXT: "position"
  // CHECK-NEXT: "reduction": false,
  float sum = 0;
  for (int i = 0; i < 1024; ++i)
    sum += a[i].y;
  // CHECK: "location": "{{.*}}loop-indexed.c:[[@LINE-1]]:17"
  // CHECK-NEXT: "loop_depth": 1,
  // CHECK-NEXT: "loop_indexed": true,
  // CHECK-NEXT: "position"
  // CHECK-NEXT: "reduction": true,
  return sum;
}
