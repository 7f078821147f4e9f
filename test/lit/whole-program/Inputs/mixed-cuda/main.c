#include "particles.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4096;
  Particle *p = (Particle *)malloc((size_t)n * sizeof(Particle));
  if (!p)
    return 1;
  for (int i = 0; i < n; ++i) {
    p[i].x = (float)(i % 17);
    p[i].y = (float)(i % 13);
    p[i].z = (float)(i % 11);
    p[i].vx = p[i].vy = p[i].vz = 0.0f;
    p[i].m = 1.0f + (float)(i % 5);
  }
  if (step_gpu(p, n, 10, 0.01f) != 0) {
    fprintf(stderr, "GPU step failed\n");
    return 1;
  }
  double sum = 0.0;
  for (int i = 0; i < n; ++i)
    sum += p[i].x + 2.0 * p[i].y + 3.0 * p[i].z + p[i].vx;
  printf("checksum %.6e\n", sum);
  free(p);
  return 0;
}
