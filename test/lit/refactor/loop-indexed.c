// The analysis marks the accesses a[i] indexed by the loop variable of an
// innermost loop: those a tiled layout reaches through a strip-mined loop,
// without a division (feature loop_index_fraction).
// RUN: %dl-refactor --report --format=json %s -- | FileCheck %s
struct P { float x, y; };
static struct P a[1024];
static int idx[1024];

void kernels(int off, int n) {
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
}
