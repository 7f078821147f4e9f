// Set-up code that places particles on a grid by stepping floating
// coordinates, as SPH codes do (`for (float y = EPS; y < VIEW_HEIGHT - EPS;
// y += H)`): its bounds and step are constants (const variables, combined
// with + - * /, which C does not fold), so its trip counts are exact, not
// 512e3 each (72 x 25 iterations here, 1,800 of the 2.6e11 guessed before);
// the time steps, whose bounds are unknown, weigh most.
// RUN: %dl-refactor --report %s -- | FileCheck %s
// CHECK: kernels:
// CHECK-NEXT: place at {{.*}}: 4 accesses, 2 loops, weight 28800 B (ignored: under 1% of the heaviest kernel)
// CHECK-NEXT: step at {{.*}}: 4 accesses, 2 loops, weight 4.2e+12 B{{$}}
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  float x, y, vx, vy, rho, p;
} particle_t;

static const int WINDOW_HEIGHT = 800;
static const float H = 16.f;
static const float EPS = 16.f;
static const float VIEW_HEIGHT = 1.5 * WINDOW_HEIGHT;
static const float VIEW_WIDTH = 1.5 * 1024;

static int place(particle_t *ps, int max) {
  int n = 0;
  for (float y = EPS; y < VIEW_HEIGHT - EPS * 2.f; y += H)
    for (float x = VIEW_WIDTH / 4; x <= VIEW_WIDTH / 2; x = x + H)
      if (n < max) {
        ps[n].x = x;
        ps[n].y = y;
        ps[n].vx = ps[n].vy = 0.f;
        n++;
      }
  return n;
}

static void step(particle_t *ps, int n, int steps) {
  for (int s = 0; s < steps; s++)
    for (int i = 0; i < n; i++) {
      ps[i].x += 0.01f * ps[i].vx;
      ps[i].y += 0.01f * ps[i].vy;
    }
}

int main(int argc, char **argv) {
  int max = argc > 1 ? atoi(argv[1]) : 2000;
  particle_t *ps = malloc(max * sizeof *ps);
  int n = place(ps, max);
  step(ps, n, argc > 2 ? atoi(argv[2]) : 100);
  printf("%d %f\n", n, ps[n - 1].x);
  free(ps);
  return 0;
}
