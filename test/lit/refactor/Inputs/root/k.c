#include "p.h"

float kernel(P *a, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i) {
    a[i].x = a[i].y * 2;
    s += a[i].x;
  }
  return s;
}
