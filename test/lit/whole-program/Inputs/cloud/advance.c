#include "cloud.h"

void advance(struct P *p, int n, float dt) {
  for (int i = 0; i < n; ++i) {
    p[i].x += p[i].w * dt;
    p[i].y += p[i].w * dt;
    p[i].z += p[i].w * dt;
  }
}
