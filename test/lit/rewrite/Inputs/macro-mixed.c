/* Two records: one read through a macro that is expanded (NORM2), one
   through a macro that stringizes (SHOW), which is not. */
#include <stdio.h>

typedef struct {
  float x, y;
} P;
typedef struct {
  double a, b, c;
} Q;

#define SHOW(e) printf("%s = %.2f\n", #e, (e).x + (e).y)
#define NORM2(q) ((q).a * (q).a + (q).b * (q).b)

static P ps[8];
static Q qs[8];

int main(void) {
  double s = 0.0;
  for (int i = 0; i < 8; i++) {
    ps[i].x = (float)i;
    ps[i].y = 2.0f;
    qs[i].a = i;
    qs[i].b = 1.5;
    qs[i].c = 2.0;
  }
  for (int i = 0; i < 8; i++) {
    SHOW(ps[i]);
    s += NORM2(qs[i]) + qs[i].c;
  }
  printf("%.2f\n", s);
  return 0;
}
