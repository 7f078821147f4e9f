/* bsearch whose result is not kept in a pointer variable: refused. */
#include <stdlib.h>
typedef struct { double e; int id; } P;
static int cmp(const void *a, const void *b) { return ((const P *)a)->e < ((const P *)b)->e ? -1 : ((const P *)a)->e > ((const P *)b)->e; }
int main(void) {
  P *p = calloc(10, sizeof(P));
  double s = 0; for (int i = 0; i < 10; i++) s += p[i].e;
  P key = {1.0, 0};
  int id = ((P *)bsearch(&key, p, 10, sizeof(P), cmp))->id;
  free(p);
  return id + (int)s;
}
