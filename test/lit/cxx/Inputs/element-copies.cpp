// Whole elements of a plain array copied in C++: a copy initialized from
// an element, an element assigned from a copy or from another element, an
// element passed by value. The record's copy constructor and assignment
// are the implicit, trivial ones.
#include <cstdio>
#include <cstdlib>

struct Cell {
  double x, y;
  float w;
  int id;
};

static double weigh(Cell c) { return c.x * c.w + c.y + c.id; }

int main() {
  const int n = 100;
  Cell *a = (Cell *)malloc(n * sizeof(Cell));
  for (int i = 0; i < n; ++i) {
    a[i].x = i * 0.5;
    a[i].y = i % 7;
    a[i].w = 1.0f + i % 3;
    a[i].id = i;
  }
  // Reverse by swapping through a copy.
  for (int i = 0; i < n / 2; ++i) {
    Cell t = a[i];
    a[i] = a[n - 1 - i];
    a[n - 1 - i] = t;
  }
  Cell probe{1.0, 2.0, 3.0f, 4};
  a[3] = probe;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += weigh(a[i]);
  printf("%.3f %d\n", s, a[0].id);
  free(a);
  return 0;
}
