/* Macros whose bodies read fields of the elements passed to them, as
   Rodinia's lavaMD does (DOT), an object-like one that names an element,
   and a macro the rewrite does not need to touch (SQ). Written for dlopt's
   tests. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double v, x, y, z;
} FOUR_VECTOR;

#define DOT(A, B) ((A.x) * (B.x) + (A.y) * (B.y) + (A.z) * (B.z))
#define SQ(a) ((a) * (a))
#define ORIGIN_V (rv[0].v)

static FOUR_VECTOR *rv;

int main(void) {
  const int n = 40;
  rv = malloc(n * sizeof(FOUR_VECTOR));
  if (!rv)
    return 1;
  for (int i = 0; i < n; i++) {
    rv[i].v = (double)(i % 7);
    rv[i].x = 0.25 * (double)i;
    rv[i].y = 1.0 - 0.5 * (double)(i % 3);
    rv[i].z = (double)(i % 5);
  }
  double s = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double r2 = rv[i].v + rv[j].v - DOT(rv[i], rv[j]);
      s += SQ(r2) * 1e-3 + ORIGIN_V;
    }
  printf("%.6f\n", s);
  free(rv);
  return 0;
}
