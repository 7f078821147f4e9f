/* Uses spelled in a macro of the program that is invoked in the argument
   of a system macro (assert(DOT(a, b) > 0)), and a macro of the program
   whose body hands an element's field to assert. The program's macro is
   expanded, assert stays as written. Written for dlopt's tests. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double x, y, z;
  double w;
} vec4;

#define DOT(A, B) ((A).x * (B).x + (A).y * (B).y + (A).z * (B).z)
#define CHECK_WEIGHT(p) assert((p).w >= 0.0)

int main(void) {
  const int n = 64;
  vec4 *v = malloc(n * sizeof(vec4));
  if (!v)
    return 1;
  for (int i = 0; i < n; i++) {
    v[i].x = 0.5 * i;
    v[i].y = 1.0 + (i % 3);
    v[i].z = 0.25 * (i % 5);
    v[i].w = (double)(i % 4);
  }
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    CHECK_WEIGHT(v[i]);
    for (int j = 0; j < n; j++) {
      assert(DOT(v[i], v[j]) >= 0.0);
      s += v[j].w * DOT(v[i], v[j]);
    }
  }
  printf("%.4f\n", s);
  free(v);
  return 0;
}
