#include "./main.h"
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  P *h = malloc(64 * sizeof(P));
  if (!h)
    return 1;
  for (int i = 0; i < 64; ++i) {
    h[i].x = i;
    h[i].y = 2 * i;
    h[i].id = i;
  }
  printf("%g\n", kernel(h, 64));
  free(h);
  return 0;
}
