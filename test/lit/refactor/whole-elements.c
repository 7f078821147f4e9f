// Loops that copy a record's elements whole and do not vectorize, where the
// program spends nearly all of its accesses (the particle-in-cell style:
// each particle passed by value to a force function, then moved), keep the
// record's layout: no layout moves fewer bytes there, and each copy would
// gather every field from its own array (measured on the Parallel Research
// Kernels' PIC: every layout ran at half its speed with gcc 12). A record
// that a vectorizable loop also streams in part is for the model to decide,
// as is one whose fields a scalar loop reads each by name (lavamd).
// RUN: %dl-refactor --report %s -- | FileCheck %s
// CHECK:      struct particle at
// CHECK:        {x,y,vx,vy,q,x0,y0} AoS: sigma=56 B, {{.*}}(kept as is: scalar loops that copy its elements whole move 100% of its bytes: no layout moves fewer bytes there, and each copy would gather every field from its own array)
// CHECK:        plan: particle: {x,y,vx,vy,q,x0,y0} AoS (keep as is)
// CHECK:      struct body at
// CHECK-NOT:    kept as is
// CHECK:        plan: body:
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

struct particle {
  double x, y, vx, vy, q, x0, y0;
};

struct body {
  double x, y, vx, vy, m, tag, age;
};

static double grid(double x, double y) { return sin(x) * cos(y); }

void force(struct particle p, double *fx, double *fy) {
  double rx = p.x - floor(p.x), ry = p.y - floor(p.y);
  *fx = p.q * grid(rx, ry) / (rx * rx + 1);
  *fy = p.q * grid(ry, rx) / (ry * ry + 1);
}

void push(struct particle *p, long n, int steps, double L) {
  for (int s = 0; s < steps; s++)
    for (long i = 0; i < n; i++) {
      double fx, fy;
      force(p[i], &fx, &fy);
      p[i].x = fmod(p[i].x + p[i].vx + 0.5 * fx + L, L);
      p[i].y = fmod(p[i].y + p[i].vy + 0.5 * fy + L, L);
      p[i].vx += fx;
      p[i].vy += fy;
    }
}

// Whole bodies are copied in a scalar loop, but a vectorizable loop
// streams their positions as often.
void drift(struct body *b, long n, int steps) {
  for (int s = 0; s < steps; s++) {
    for (long i = 0; i < n; i++) {
      b[i].x += b[i].vx;
      b[i].y += b[i].vy;
    }
    for (long i = 0; i < n; i++) {
      struct body c = b[i];
      if (c.tag > 0)
        printf("%f %f %f %f %f %f\n", c.x, c.y, c.vx, c.vy, c.m, c.age);
    }
  }
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
  struct particle *p = calloc(n, sizeof *p);
  struct body *b = calloc(n, sizeof *b);
  if (!p || !b)
    return 1;
  push(p, n, 10, 100.0);
  drift(b, n, 10);
  free(p);
  free(b);
  return 0;
}
