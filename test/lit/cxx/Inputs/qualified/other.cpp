#include "pool.h"

double tableSum() {
  double s = 0;
  for (int i = 0; i < 3; i++)
    s += table[i].x + table[i].y + table[i].id + middle[0].id;
  return s;
}
