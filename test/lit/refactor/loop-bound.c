// An access is loop-indexed (feature loop_index_fraction) only in a loop the
// rewriter strip-mines: one whose bound is made of constants, locals the
// body does not assign, and globals or fields nothing in the body can change
// (MemoryBounds.cpp; sph's n_particles). A bound that a call of another
// file's function could change, or that the body assigns, keeps the flat
// form t[i / T].f[i % T], which the model must judge as such; before, such
// accesses counted as strip-mined and a tiled layout of sph's pair loops ran
// 2.5x slower than SoA. The memory-bound.c test checks the rendering.
// RUN: %dl-refactor --report --format=json %s -- | FileCheck %s
struct P { float x, y; };
static struct P a[1024];
static int count = 1024;

extern void progress(int);

void kernel(int n) {
  for (int i = 0; i < count; ++i)
    a[i].x += 1.0f;
  // CHECK: "location": "{{.*}}loop-bound.c:[[@LINE-1]]:10"
  // CHECK-NEXT: "loop_depth": 1,
  // CHECK-NEXT: "loop_indexed": true,
  for (int i = 0; i < count; ++i) {
    a[i].x += 1.0f;
    progress(i); // Another file's function could change count.
  }
  // CHECK: "location": "{{.*}}loop-bound.c:[[@LINE-3]]:10"
  // CHECK-NEXT: "loop_depth": 1,
  // CHECK-NEXT: "loop_indexed": false,
  for (int i = 0; i < n; ++i) {
    a[i].y += 1.0f;
    if (a[i].y > 10.0f)
      n = i; // The body assigns the bound.
  }
  // CHECK: "location": "{{.*}}loop-bound.c:[[@LINE-4]]:10"
  // CHECK-NEXT: "loop_depth": 1,
  // CHECK-NEXT: "loop_indexed": false,
  for (int i = 0; i < n * 2 - 1; ++i)
    a[i].x *= 2.0f;
  // CHECK: "location": "{{.*}}loop-bound.c:[[@LINE-1]]:10"
  // CHECK-NEXT: "loop_depth": 1,
  // CHECK-NEXT: "loop_indexed": true,
}
