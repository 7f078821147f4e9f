#include "p.h"

struct P ps[1000];

void step(void) {
  for (int i = 0; i < 1000; ++i)
    ps[i].x += 0.5f * ps[i].v;
}
