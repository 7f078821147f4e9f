#include "particles.h"
#include <cstdio>
#include <cstdlib>

int main() {
  int n = 1000;
  Particle *p = (Particle *)malloc(n * sizeof(Particle));
  place(p, n);
  double sum = 0;
  for (int step = 0; step < 10; ++step)
    for (int i = 0; i < n; ++i) {
      p[i].x += p[i].mass * 0.5f;
      sum += p[i].x + p[i].y;
    }
  printf("%.1f\n", sum);
  free(p);
  return 0;
}
