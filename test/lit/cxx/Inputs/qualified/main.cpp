#include "pool.h"
#include <cstdio>

P *Pool::parts = nullptr;
int Pool::n = 0;

P *Pool::make(int count) {
  P *p = new P[count];
  for (int i = 0; i < count; i++) {
    p[i].x = i * 0.5;
    p[i].y = table[i % 3].y;
    p[i].id = i;
  }
  return p;
}

double Pool::energy() {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += parts[i].x * parts[i].y + parts[i].id;
  return s;
}

P *io::load(int count) {
  P *p = new P[count];
  for (int i = 0; i < count; i++) {
    p[i].x = 1.0 / (i + 1);
    p[i].y = 2.0;
    p[i].id = -i;
  }
  return p;
}

int main() {
  Pool pool;
  Pool::n = 1000;
  Pool::parts = pool.make(Pool::n);
  P *loaded = io::load(Pool::n);
  double s = 0;
  for (int i = 0; i < Pool::n; i++)
    s += loaded[i].x * loaded[i].y + loaded[i].id;
  std::printf("%.4f %.4f %.1f\n", Pool::energy(), s, tableSum());
  delete[] loaded;
  delete[] Pool::parts;
  return 0;
}
