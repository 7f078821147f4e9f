/* A macro that stringizes its argument: it is not expanded. */
#include <stdio.h>

typedef struct {
  float x, y;
} P;

#define SHOW(e) printf("%s = %.2f\n", #e, (e).x + (e).y)

static P ps[8];

int main(void) {
  for (int i = 0; i < 8; i++) {
    ps[i].x = (float)i;
    ps[i].y = 2.0f;
  }
  for (int i = 0; i < 8; i++)
    SHOW(ps[i]);
  return 0;
}
