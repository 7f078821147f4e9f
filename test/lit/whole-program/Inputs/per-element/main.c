#include <stdio.h>
#include <stdlib.h>
#include "p.h"

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  P *p = malloc(n * sizeof *p);
  if (!p)
    return 1;
  for (int i = 0; i < n; ++i) {
    p[i].x = i * 0.01;
    p[i].y = -i * 0.02;
    p[i].vx = p[i].vy = 0;
    p[i].m = 1 + i % 3;
    p[i].id = i;
  }
  for (int s = 0; s < 100; ++s)
    for (int i = 0; i < n; ++i) {
      kick(p, i, 0.01);
      drift(p, i, 0.01);
    }
  reset(p, 0);
  double e = 0;
  long ids = 0;
  for (int i = 0; i < n; ++i) {
    e += p[i].x + p[i].y;
    ids += p[i].id;
  }
  printf("%.6f %ld\n", e, ids);
  free(p);
  return 0;
}
