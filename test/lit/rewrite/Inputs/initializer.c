#include <stdio.h>

typedef struct Pt {
  int x;
  double y;
} Pt;

typedef struct I {
  int a;
  float b;
  Pt p;
  char name[4];
} I;

#define A0 10

static I table[5] = {{A0, 1.5f, {1, 2.0}, "ab"},
                     {.b = 2.5f, .a = 11},
                     [3] = {13, 3.5f, .p.y = 7.0, {'x', 'y'}}};
I zeros[3] = {0};
I elided[2] = {1, 2.0f, 3, 4.0, "c", 5, 6.0f, 7, 8.0, "d"};

int main(void) {
  double s = 0;
  for (int i = 0; i < 5; ++i)
    s += table[i].a + table[i].b + table[i].p.x + table[i].p.y + table[i].name[0];
  for (int i = 0; i < 3; ++i)
    s += zeros[i].a + zeros[i].b;
  for (int i = 0; i < 2; ++i)
    s += elided[i].a + elided[i].b + elided[i].p.x + elided[i].p.y + elided[i].name[0];
  printf("%.2f\n", s);
  return 0;
}
