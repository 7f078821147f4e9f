/* A byte count field also given another value: not a number of elements. */
#include <stdlib.h>
typedef struct { double v, x; } FV;
typedef struct { long mem; } dim_str;
int main(void) {
  dim_str d;
  d.mem = 10 * sizeof(FV);
  d.mem += 3;
  FV *a = malloc(d.mem);
  for (int i = 0; i < 10; i++) a[i].v = a[i].x = i;
  double s = 0; for (int i = 0; i < 10; i++) s += a[i].v;
  free(a);
  return (int)s;
}
