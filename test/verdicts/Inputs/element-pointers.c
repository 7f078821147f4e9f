// Uses the reporters found where the report promised a plan that
// --apply then refused: &r[2], r + 1, pi == pj, loop-local T *p = &a[i].
#include <stdio.h>
#include <stdlib.h>

typedef struct Particle {
  float x, y, vx, vy;
} Particle;

static float energy(const Particle *p, int n) {
  float e = 0;
  for (int i = 0; i < n; ++i)
    e += p[i].vx * p[i].vx + p[i].vy * p[i].vy;
  return e;
}

int main(void) {
  Particle *ps = malloc(64 * sizeof(Particle));
  for (int i = 0; i < 64; ++i) {
    ps[i].x = (float)i;
    ps[i].y = 0.5f * i;
    ps[i].vx = ps[i].vy = 1;
  }
  for (int i = 0; i < 64; ++i) {
    Particle *pi = &ps[i];
    for (int j = 0; j < 64; ++j) {
      Particle *pj = ps + j;
      if (pi == pj)
        continue;
      pi->vx += 0.001f * (pj->x - pi->x);
    }
  }
  printf("%.3f %.3f\n", energy(ps, 64), energy(ps + 1, 63));
  free(ps);
  return 0;
}
