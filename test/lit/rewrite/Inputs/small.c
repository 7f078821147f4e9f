#include <stdlib.h>

typedef struct P {
  float x;
  float y;
  int id;
} P;

static P g[64];

static void touch(float *f) { *f += 1; }

static float kernel(P *a, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i) {
    a[i].x = a[i].y * 2;
    a[i].id += 1;
    a[i].id++;
    touch(&a[i].y);
    s += (a + i)->x;
  }
  a->id = 0;
  return s;
}

int main(void) {
  P *h = malloc(64 * sizeof(P));
  if (!h)
    return 1;
  P e = g[3];
  g[4] = e;
  float s = kernel(g, 64) + kernel(h, 64);
  free(h);
  return (int)s;
}
