#include <stdio.h>

typedef struct Q {
  int v;
  int w;
} Q;

static Q q[10];

int main(void) {
  int n = 10, i, k = 0, t = 0;
  i = 0;
  for (i = 0; i < n; ++i) {
    q[i].v = i;
    q[i].w = 2 * i;
  }
  while (k < 3)
    q[k++].v = 7;
  for (int j = 0; j < n; ++j)
    t += q[(j * 3) % n].w;
  for (int r = 0; r < 2; ++r)
    for (int j = 0; j < n; ++j)
      q[j].w += r;
  for (int j = 0; j < n; ++j) {
    q[j].v += 1;
    int j = 0; /* C allows the loop's variable again here */
    q[j].w += j;
  }
  printf("%d %d %d %d\n", t + q[9].v, i, k, q[9].w);
  return 0;
}
