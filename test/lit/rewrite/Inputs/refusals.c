#include <stdlib.h>

typedef struct R {
  int a;
  int b;
} R;

static int sum(R *r, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += r[i].a;
  return s;
}

int main(void) {
  R *r = malloc(8 * sizeof(R));
  for (int i = 0; i < 8; ++i)
    r[i].b = r[i].a = i;
  R *one = &r[2];
  int s = sum(r, 8) + one->b + (int)((char *)(r + 1) - (char *)r);
  free(r);
  return s;
}
