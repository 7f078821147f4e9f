#include <stdlib.h>
#include <stdio.h>
#include "p.h"
int main(void) { int n = 100; T *p = calloc(n, sizeof *p);
  for (int s = 0; s < 10; ++s) run_b(p, n);
  for (int s = 0; s < 100; ++s) run_c(p, n);
  printf("%f\n", p[1].y + p[1].id + p[2].z); free(p); return 0; }
