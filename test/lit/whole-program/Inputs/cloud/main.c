#include "cloud.h"
#include <stdio.h>

struct P cloud[CLOUD];

int main(void) {
  for (int i = 0; i < CLOUD; ++i) {
    cloud[i].x = i * 0.5f;
    cloud[i].y = i * 0.25f;
    cloud[i].z = 1.0f;
    cloud[i].w = (i % 7) * 0.125f;
    cloud[i].id = i;
  }
  for (int step = 0; step < 10; ++step)
    advance(cloud, CLOUD, 0.01f);
  printf("total %.3f weight %.3f id %d\n", total(CLOUD), weight(cloud, CLOUD),
         cloud[CLOUD - 1].id);
  return 0;
}
