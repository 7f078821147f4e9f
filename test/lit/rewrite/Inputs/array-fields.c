/* A record with array fields (pos[3], nei[4]) reached through element
   pointers (ai->pos[c], &atoms[ai->nei[k]]), copied whole (*aj, atoms[3] =
   atoms[5]) and swapped. Written for dlopt's tests. */
#include <stdio.h>
#include <stdlib.h>
typedef struct { float pos[3]; int nei[4]; float m; } Atom;
int main(void) {
  int n = 37;
  Atom *atoms = malloc(n * sizeof(Atom));
  for (int i = 0; i < n; i++) {
    Atom *a = &atoms[i];
    for (int k = 0; k < 3; k++) a->pos[k] = (float)(i * 3 + k);
    for (int k = 0; k < 4; k++) a->nei[k] = (i + k + 1) % n;
    a->m = 1.0f + (float)(i % 3);
  }
  double e = 0;
  for (int i = 0; i < n; i++) {
    const Atom *ai = &atoms[i];
    for (int k = 0; k < 4; k++) {
      const Atom *aj = &atoms[ai->nei[k]];
      Atom copy = *aj;
      float d = 0;
      for (int c = 0; c < 3; c++) d += (ai->pos[c] - copy.pos[c]) * (ai->pos[c] - copy.pos[c]);
      e += ai->m * aj->m / (1.0 + d);
    }
  }
  Atom t = atoms[3]; atoms[3] = atoms[5]; atoms[5] = t;
  printf("%.6f %d %d\n", e, atoms[3].nei[0], atoms[5].nei[1]);
  free(atoms);
  return 0;
}
