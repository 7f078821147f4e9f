/* Loops over sub-arrays at the edges of the peel: an unsigned variable with
   a signed bound that can be negative, a variable declared before its loop
   and read after it, bounds of zero and below, a body that is an if
   without else (the peel's own else must not join it), a sub-array declared in
   the loop's own body (also hiding one of the same name outside). Written
   for dlopt's tests. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double x, y, z, w;
} T;

static double wide_bound(const T *rB, long n) {
  double s = 0;
  for (unsigned j = 0; j < n; j++)
    s += rB[j].y;
  return s;
}

static double kept_variable(const T *rB, int n) {
  double s = 0;
  int j;
  for (j = 0; j < n; j++)
    s += rB[j].y;
  return s + j;
}

static double positives(const T *rB, int n) {
  double s = 0;
  for (int j = 0; j < n; j++)
    if (rB[j].x > 4)
      s += rB[j].y;
  return s;
}

static double inner_handle(T *rv, int k, int n) {
  double s = 0;
  T *q = rv + 1;
  s += q[0].y;
  for (int j = 0; j < n; j++) {
    T *q = rv + k;
    s += q[j].x + q[j].z;
  }
  return s;
}

int main(void) {
  T *rv = calloc(64, sizeof(T));
  if (!rv)
    return 1;
  for (int i = 0; i < 64; i++) {
    rv[i].x = i;
    rv[i].y = 1 + i % 7;
    rv[i].z = 0.5 * i;
  }
  double t = 0;
  for (int k = 0; k < 20; k++) {
    T *rB = &rv[k];
    t += wide_bound(rB, k % 13 - 3) + kept_variable(rB, k % 11 - 4);
    t += inner_handle(rv, k, k % 13) + positives(rB, 20 - k);
  }
  printf("%.1f\n", t);
  free(rv);
  return 0;
}
