#include "shared.h"
float sum_one(struct Q *q, int n) {
  float s = first(q);
  for (int i = 0; i < n; ++i)
    s += q[i].a;
  return s;
}
