#include "p.h"

void kick(P *p, int i, double dt) {
  p[i].vx -= p[i].x * dt / p[i].m;
  p[i].vy -= p[i].y * dt / p[i].m;
}

void drift(P *p, int i, double dt) {
  p[i].x += p[i].vx * dt;
  p[i].y += p[i].vy * dt;
}

/* Called once, from main: not a kernel. */
void reset(P *p, int i) { p[i].id = -p[i].id; }
