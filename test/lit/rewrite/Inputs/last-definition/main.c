#include "p.h"
#include <stdio.h>

static struct P ps[16];

int main(void) {
  for (int i = 0; i < 16; ++i)
    ps[i].x = ps[i].y = (float)i;
  float s = 0;
  for (int i = 0; i < 16; ++i)
    s += ps[i].x * ps[i].y;
  printf("%.1f\n", s);
  return 0;
}
