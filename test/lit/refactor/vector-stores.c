// Adjacent fields that a loop which does not vectorize stores by statements
// of one shape stay side by side (AoS): gcc's and LLVM's SLP vectorizers
// make the statements one vector operation and one store there, and in SoA
// or tiles each stays scalar. A random walk: the random-number call keeps
// the loop scalar, and gcc computes sinf and cosf of one heading as one
// complex value whose halves update x and y. The model alone makes {x,y}
// SoA here (the default model tiles the mosquito example's {x,y}, which
// ran 0.93 of the time of that with {x,y} AoS under -ffast-math, a tie
// without).
// RUN: %dl-refactor-rules --report %s -- -O3 -ffast-math | FileCheck %s
// RUN: %dl-refactor-rules --report --format=json %s -- -O3 -ffast-math \
// RUN:   | FileCheck %s --check-prefix=JSON
//
// The rewrite prints what the original prints.
// RUN: rm -rf %t && mkdir %t && cp %s %t/walk.c
// RUN: %cc -O2 %t/walk.c -o %t/original -lm && %t/original > %t/original.out
// RUN: %dl-refactor-rules --apply --quiet %t/walk.c -- -O3 -ffast-math
// RUN: grep -q Walker_split %t/walk.c
// RUN: %cc -O2 %t/walk.c -o %t/rewritten -lm && %t/rewritten | diff %t/original.out -
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

struct Walker {
  float x, y;
  float heading, speed;
  unsigned seed;
  int steps;
};

struct Drifter {
  float x, y;
  float vx, vy;
  float mass;
};

static float uniform(unsigned *s) {
  *s = *s * 1664525u + 1013904223u;
  return (float)(*s >> 8) * (1.0f / 16777216.0f);
}

static void walk(struct Walker *w, int n) {
  for (int i = 0; i < n; ++i) {
    w[i].heading += (uniform(&w[i].seed) - 0.5f) * 0.5f;
    w[i].x += w[i].speed * cosf(w[i].heading);
    w[i].y += w[i].speed * sinf(w[i].heading);
    w[i].steps++;
  }
}
// CHECK: struct Walker
// CHECK: {x,y} AoS: {{.*}}stored as one vector: walk ({{.*}}vector-stores.c:[[@LINE-6]]:10) stores {x,y} of one element by statements of one shape in a loop that does not vectorize
// CHECK: plan: Walker: {x,y} AoS | {heading,steps} SoA | {speed,seed} SoA
// JSON:      "name": "walk",
// JSON:      "vector_stores": [
// JSON-NEXT:   {
// JSON-NEXT:     "fields": [
// JSON-NEXT:       "x",
// JSON-NEXT:       "y"
// JSON-NEXT:     ],
// JSON-NEXT:     "location": "{{.*}}vector-stores.c:45:10"

// The same shape in a loop that vectorizes: the stores are found, and the
// model decides (wider vectors across iterations in SoA).
static void drift(struct Drifter *d, int n, float dt) {
  for (int i = 0; i < n; ++i) {
    d[i].x += d[i].vx * dt;
    d[i].y += d[i].vy * dt;
  }
}
// CHECK: struct Drifter
// CHECK-NOT: stored as one vector
// CHECK: plan: Drifter:
// JSON:      "name": "drift",
// JSON:      "vector_stores": [
// JSON-NEXT:   {
// JSON-NEXT:     "fields": [
// JSON-NEXT:       "x",
// JSON-NEXT:       "y"

int main(void) {
  int n = 1 << 20;
  struct Walker *w = calloc(n, sizeof *w);
  struct Drifter *d = calloc(n, sizeof *d);
  for (int i = 0; i < n; ++i) {
    w[i].seed = 12345u + i;
    w[i].speed = 0.5f;
    d[i].vx = 1.0f;
    d[i].vy = -1.0f;
  }
  for (int t = 0; t < 30; ++t) {
    walk(w, n);
    drift(d, n, 0.01f);
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w[i].x + w[i].y + d[i].x + d[i].y;
  printf("%.3f\n", s);
  free(w);
  free(d);
  return 0;
}
