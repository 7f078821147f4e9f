/* struct P is written out here and again in kernel.c, with no header: C
   makes the two definitions one type (C11 6.2.7), so the arrays main.c
   makes are the ones kernel.c walks. */
#include <stdio.h>
#include <stdlib.h>

struct P {
  float x, y, z;
  int id;
};

struct P *parts;

void step(struct P *p, int n, float dt);
void drift(int n);

int main(void) {
  int n = 1000;
  parts = malloc(n * sizeof(struct P));
  if (!parts)
    return 1;
  for (int i = 0; i < n; ++i) {
    parts[i].x = i * 0.5f;
    parts[i].y = i * 0.25f;
    parts[i].z = (i % 7) * 0.125f;
    parts[i].id = i;
  }
  for (int k = 0; k < 10; ++k) {
    step(parts, n, 0.01f);
    drift(n);
  }
  double s = 0;
  long ids = 0;
  for (int i = 0; i < n; ++i) {
    s += parts[i].x + parts[i].y + parts[i].z;
    ids += parts[i].id;
  }
  printf("sum %.3f ids %ld\n", s, ids);
  free(parts);
  return 0;
}
