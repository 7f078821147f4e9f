#include "p.h"
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  P *h = calloc(64, sizeof(P));
  if (!h)
    return 1;
  for (int i = 0; i < 64; ++i)
    h[i].y = i;
  printf("%g\n", kernel(h, 64));
  free(h);
  return 0;
}
