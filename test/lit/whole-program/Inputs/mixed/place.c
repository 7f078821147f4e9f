#include "particles.h"

void place(Particle *p, int n) {
  for (int i = 0; i < n; ++i) {
    p[i].x = (float)i;
    p[i].y = 2.0f * i;
    p[i].mass = 1.0f;
    p[i].id = i;
  }
}
