/* Macros that reach fields through other macros, as SPH and molecular
   dynamics codes write their kernels: DIST2 invokes DELTA, which invokes
   COORD, whose body names the field; WEIGHT takes an invocation of DIST2
   as its argument; SCALE is a macro of the program that touches no element
   and stays as it is where no expansion holds it. Written for dlopt's
   tests. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double x, y, z;
  double mass;
} particle_t;

#define COORD(p, c) ((p).c)
#define DELTA(a, b, c) (COORD(a, c) - COORD(b, c))
#define DIST2(a, b)                                                            \
  (DELTA(a, b, x) * DELTA(a, b, x) + DELTA(a, b, y) * DELTA(a, b, y) +         \
   DELTA(a, b, z) * DELTA(a, b, z))
#define SCALE(v) (0.5 * (v))
#define WEIGHT(r2, m) ((m) / (1.0 + SCALE(r2)))

int main(void) {
  int n = 150;
  particle_t *ps = malloc(n * sizeof(particle_t));
  for (int i = 0; i < n; i++) {
    ps[i].x = 0.1 * i;
    ps[i].y = 0.3 * (i % 7);
    ps[i].z = 0.2 * (i % 3);
    ps[i].mass = 1.0 + i % 5;
  }
  double e = 0, w = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      e += ps[i].mass * ps[j].mass / (1.0 + DIST2(ps[i], ps[j]));
      w += WEIGHT(DIST2(ps[i], ps[j]), ps[j].mass);
    }
  printf("%.6f %.6f %.6f\n", e, w, SCALE(e));
  free(ps);
  return 0;
}
