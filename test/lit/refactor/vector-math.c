// Under -ffast-math gcc vectorizes a loop calling a math function only if
// the function has a vector form (an instruction, or glibc's libmvec):
// expf and sqrtf do, fmodf does not. And gcc turns sinf(a) and cosf(a) of
// one argument into one complex cexpif(a), which has none: the mosquito
// model's movement loop stays scalar in every layout. sinf and cosf of
// different arguments vectorize.
// RUN: %dl-refactor --report --format=json %s -- -O3 -ffast-math | FileCheck %s
#include <math.h>

struct A { float x, y, h, s; };

void decay(struct A *a, int n) {
  for (int i = 0; i < n; ++i)
    a[i].x = expf(-a[i].h) * sqrtf(a[i].s);
}
// CHECK:      "location": "{{.*}}vector-math.c:[[@LINE-2]]:10"
// CHECK-NEXT: "loop_depth": 1,
// CHECK-NEXT: "loop_indexed": true,
// CHECK-NEXT: "position": {{.*}}
// CHECK-NEXT: "vectorizable": true

void wrap(struct A *a, int n) {
  for (int i = 0; i < n; ++i)
    a[i].x = fmodf(a[i].x, 100.0f);
}
// CHECK:      "location": "{{.*}}vector-math.c:[[@LINE-2]]:10"
// CHECK-NEXT: "loop_depth": 1,
// CHECK-NEXT: "loop_indexed": true,
// CHECK-NEXT: "position": {{.*}}
// CHECK-NEXT: "vectorizable": false

void move(struct A *a, int n) {
  for (int i = 0; i < n; ++i) {
    a[i].x += a[i].s * cosf(a[i].h);
    a[i].y += a[i].s * sinf(a[i].h);
  }
}
// CHECK:      "location": "{{.*}}vector-math.c:[[@LINE-3]]:10"
// CHECK-NEXT: "loop_depth": 1,
// CHECK-NEXT: "loop_indexed": true,
// CHECK-NEXT: "position": {{.*}}
// CHECK-NEXT: "vectorizable": false

void turn(struct A *a, int n) {
  for (int i = 0; i < n; ++i) {
    a[i].x += cosf(a[i].h);
    a[i].y += sinf(a[i].s);
  }
}
// CHECK:      "location": "{{.*}}vector-math.c:[[@LINE-3]]:10"
// CHECK-NEXT: "loop_depth": 1,
// CHECK-NEXT: "loop_indexed": true,
// CHECK-NEXT: "position": {{.*}}
// CHECK-NEXT: "vectorizable": true

int main(void) {
  static struct A a[64];
  decay(a, 64);
  wrap(a, 64);
  move(a, 64);
  turn(a, 64);
  return (int)a[0].x;
}
