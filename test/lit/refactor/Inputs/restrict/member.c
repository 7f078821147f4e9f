/* The arrays reached through a struct member. */
#include <stdlib.h>
typedef struct { float x, y; } P;
typedef struct {
  P *parts;
  int n;
} Sim;
static void step(Sim *s) {
  for (int i = 0; i < s->n; ++i)
    s->parts[i].x += s->parts[i].y;
}
int main(void) {
  Sim s;
  s.parts = calloc(8, sizeof(P));
  s.n = 8;
  step(&s);
  free(s.parts);
  return 0;
}
