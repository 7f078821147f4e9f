#include <stdlib.h>
#include <stdio.h>
#include "p.h"
int main(void) { int n = 100; T *p = calloc(n, sizeof *p); for (int s = 0; s < 10; ++s) fa(p, n, 2); printf("%f\n", p[1].y + p[1].id); free(p); return 0; }
