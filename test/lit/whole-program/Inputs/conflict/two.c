#include "shared.h"
float sum_two(struct Q *q, int n) {
  float s = first(q);
  for (int i = 0; i < n; ++i)
    s += q[i].b;
  return s;
}
int main(void) { return 0; }
