#include <stdio.h>
#include "p.h"

int main(void) {
  for (int i = 0; i < 1000; ++i) {
    ps[i].x = i;
    ps[i].v = 1;
    ps[i].tag = 0;
  }
  for (int s = 0; s < 100; ++s)
    step();
  float t = 0;
  for (int i = 0; i < 1000; ++i)
    t += ps[i].x * ps[i].v + ps[i].tag;
  printf("%.1f\n", t);
  return 0;
}
