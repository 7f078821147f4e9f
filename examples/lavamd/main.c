/* main.c - set-up and checksum of the lavaMD-like example.
 *
 * Usage: lavamd [--small] [boxes-per-side particles-per-box]
 * Prints a checksum of the forces, identical for every layout of the
 * records in lavamd.h.
 */
#include "lavamd.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned next_random(unsigned *seed) {
  *seed = *seed * 1103515245u + 12345u;
  return (*seed >> 8) % 10000u;
}

/* Boxes of a side x side x side grid with their neighbour lists. */
static void init_boxes(struct box *boxes, int side, int per_box) {
  for (int i = 0; i < side; ++i)
    for (int j = 0; j < side; ++j)
      for (int k = 0; k < side; ++k) {
        int b = (i * side + j) * side + k;
        boxes[b].offset = b * per_box;
        boxes[b].count = per_box;
        boxes[b].neighbours = 0;
        for (int di = -1; di <= 1; ++di)
          for (int dj = -1; dj <= 1; ++dj)
            for (int dk = -1; dk <= 1; ++dk) {
              int ni = i + di, nj = j + dj, nk = k + dk;
              if ((di == 0 && dj == 0 && dk == 0) || ni < 0 || nj < 0 ||
                  nk < 0 || ni >= side || nj >= side || nk >= side)
                continue;
              boxes[b].nei[boxes[b].neighbours++] = (ni * side + nj) * side + nk;
            }
      }
}

static void init_particles(struct particle *p, struct force *f, int n) {
  unsigned seed = 42u;
  for (int i = 0; i < n; ++i) {
    p[i].x = (next_random(&seed) + 1) / 10000.0;
    p[i].y = (next_random(&seed) + 1) / 10000.0;
    p[i].z = (next_random(&seed) + 1) / 10000.0;
    p[i].q = (next_random(&seed) + 1) / 10000.0;
    f[i].v = 0;
    f[i].x = 0;
    f[i].y = 0;
    f[i].z = 0;
  }
}

int main(int argc, char **argv) {
  int side = 10, per_box = 100;
  if (argc > 1 && strcmp(argv[1], "--small") == 0) {
    side = 3;
    per_box = 20;
  } else if (argc == 3) {
    side = atoi(argv[1]);
    per_box = atoi(argv[2]);
  }
  if (side < 1 || per_box < 1) {
    fprintf(stderr, "usage: lavamd [--small] [boxes-per-side particles-per-box]\n");
    return 2;
  }
  int nboxes = side * side * side, n = nboxes * per_box;
  struct box *boxes = malloc(nboxes * sizeof(struct box));
  struct particle *p = malloc(n * sizeof(struct particle));
  struct force *f = malloc(n * sizeof(struct force));
  if (!boxes || !p || !f) {
    fprintf(stderr, "lavamd: out of memory\n");
    return 1;
  }
  init_boxes(boxes, side, per_box);
  init_particles(p, f, n);
  lavamd_kernel(boxes, nboxes, p, f, 0.5);

  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += f[i].v + f[i].x - f[i].y + 0.5 * f[i].z;
  printf("lavamd: %d boxes, %d particles, checksum %.6e\n", nboxes, n, sum);
  free(boxes);
  free(p);
  free(f);
  return 0;
}
