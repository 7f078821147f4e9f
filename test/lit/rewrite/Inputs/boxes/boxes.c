/* A cell list's boxes and their neighbours (lavaMD's set-up and a sum over
   each box's neighbours), and a halo of neighbour records. Written for
   dlopt's tests. */
#include "boxes.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  (void)argv;
  int n = 8 * argc;
  box_str *box = malloc((size_t)n * sizeof(box_str));
  if (!box)
    return 1;
  for (int i = 0; i < n; i++) {
    box[i].x = i;
    box[i].y = 2 * i;
    box[i].z = 3 * i;
    box[i].number = i;
    box[i].offset = i * 100;
    box[i].nn = 0;
    for (int k = 0; k < 26; k++) {
      box[i].nei[box[i].nn].x = k;
      box[i].nei[box[i].nn].number = (i + k) % n;
      box[i].nei[box[i].nn].offset = box[i].nei[box[i].nn].number * 100;
      box[i].nn = box[i].nn + 1;
    }
  }
  long s = 0;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < box[i].nn; k++)
      s += box[i].offset + box[box[i].nei[k].number].offset + box[i].nei[k].x;
  /* The neighbour records of a halo, an array of their own. */
  nei_str *halo = malloc(16 * sizeof(nei_str));
  if (!halo)
    return 1;
  for (int h = 0; h < 16; h++) {
    halo[h].number = h;
    halo[h].offset = 2 * h;
  }
  for (int h = 0; h < 16; h++)
    s += halo[h].number * halo[h].offset;
  box_str first = box[0];
  printf("%ld %d\n", s, first.nei[3].number);
  free(halo);
  free(box);
  return 0;
}
