#include "boxes.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  (void)argc;
  Dims dims;
  dims.boxes = 24;
  dims.atoms = dims.boxes * PER_BOX;
  dims.atom_bytes = dims.atoms * sizeof(Atom);
  Atom *pos = (Atom *)malloc(dims.atom_bytes);
  Atom *force = (Atom *)malloc(dims.atom_bytes);
  unsigned seed = 7;
  for (long i = 0; i < dims.atoms; ++i) {
    seed = seed * 1103515245u + 12345u;
    pos[i].v = (seed >> 16) % 10 / 10.0f + 0.1f;
    pos[i].x = (seed >> 8) % 10 / 10.0f + 0.1f;
    pos[i].y = (seed >> 4) % 10 / 10.0f + 0.1f;
    pos[i].z = seed % 10 / 10.0f + 0.1f;
    force[i].v = force[i].x = force[i].y = force[i].z = 0.0f;
  }
  forces(argv[0], dims, pos, force);
  double sum = 0;
  for (long i = 0; i < dims.atoms; ++i)
    sum += force[i].v + 2 * force[i].x + 3 * force[i].y + 4 * force[i].z;
  printf("checksum %.3f\n", sum);
  free(pos);
  free(force);
  return 0;
}
