/* A grid written to a binary file and read back with fwrite and fread of
   whole elements, as simulation codes save and load their state. The file
   is the path given. Written for dlopt's tests. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double energy, total_xs;
  int id;
} GridPoint;

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "grid.bin";
  int n = 1000;
  GridPoint *g = malloc(n * sizeof(GridPoint));
  for (int i = 0; i < n; i++) {
    g[i].energy = i * 0.25;
    g[i].total_xs = (i % 9) * 1.5;
    g[i].id = i;
  }
  FILE *f = fopen(path, "wb");
  if (!f)
    return 1;
  size_t w = fwrite(g, sizeof(GridPoint), n, f);
  fclose(f);
  GridPoint *h = malloc(n * sizeof(GridPoint));
  f = fopen(path, "rb");
  if (!f)
    return 1;
  size_t r = fread(h, sizeof(GridPoint), n, f);
  fclose(f);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += h[i].energy * h[i].total_xs + h[i].id;
  printf("%zu %zu %.3f\n", w, r, s);
  free(g);
  free(h);
  return 0;
}
