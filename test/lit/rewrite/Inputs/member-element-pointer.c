/* Element pointers into a struct's pointer member, as SPH and MD codes
   write them: p = &s->parts[i] or s->parts + i, then p->f. */
#include <stdio.h>
#include <stdlib.h>

struct particle {
  double x, y, vx, vy, m;
};
struct system {
  int n;
  struct particle *parts;
};

static void step(struct system *s, int n, double dt) {
  for (int i = 0; i < n; ++i) {
    struct particle *p = &s->parts[i];
    p->x += p->vx * dt;
    p->y += p->vy * dt;
  }
}

static double energy(const struct system *s, int n) {
  double e = 0;
  for (int i = 0; i < n; ++i) {
    const struct particle *p = s->parts + i;
    e += 0.5 * p->m * (p->vx * p->vx + p->vy * p->vy);
  }
  return e;
}

int main(void) {
  struct system s;
  int n = 1000;
  s.n = n;
  s.parts = malloc(n * sizeof(struct particle));
  for (int i = 0; i < n; ++i) {
    struct particle *p = &s.parts[i];
    p->x = i;
    p->y = 2 * i;
    p->vx = 1;
    p->vy = -1 + 0.001 * i;
    p->m = 1 + i % 3;
  }
  for (int t = 0; t < 10; ++t)
    step(&s, n, 0.1);
  printf("%.6f %.6f %.6f\n", energy(&s, n), s.parts[7].x, s.parts[999].y);
  free(s.parts);
  return 0;
}
