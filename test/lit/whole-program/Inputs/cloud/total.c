#include "cloud.h"

float total(int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += cloud[i].x + cloud[i].y + cloud[i].z;
  return s;
}
