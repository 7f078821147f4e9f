// The careful realloc idiom through a void pointer, as Parboil's cutcp
// reads its atoms: `void *tmp = realloc(atom, 2 * len * sizeof(Atom)); if
// (NULL == tmp) ...; atom = (Atom *)tmp;`. tmp holds nothing but the array:
// it becomes a handle (its declaration respelled, the cast dropped), as
// does one declared null and assigned the realloc later, and a redundant
// cast of an array to its own pointer type goes. A void * variable put to
// another use keeps the record's layout, with the reason.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %dl-refactor --report %s -- | FileCheck --check-prefix=REPORT %s
// REPORT:      struct Atom_t at {{.*}}void-realloc.c:
// REPORT-NOT:    not transformable
// REPORT:        plan: Atom_t:
// REPORT:      struct Charge at {{.*}}void-realloc.c:
// REPORT:        not transformable:
// REPORT-NEXT:     {{.*}}void-realloc.c:{{[0-9]+}}:{{[0-9]+}}: realloc of 'charges' whose result is kept other than in an array of 'Charge' (or in a void * variable only tested for null and assigned back to one)
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %s -o %t/orig && %t/orig > %t/orig.out
// RUN: cp %s %t/soa.c && %dl-refactor --apply --quiet --layout=Atom_t=soa %t/soa.c --
// RUN: %drop-checks %t/soa.c | FileCheck --check-prefix=SOA %s
// SOA:      Atom_t_soa tmp = Atom_t_soa_realloc(&atom, (size_t)2 * len);
// SOA-NEXT: if (NULL == tmp.x) {
// SOA:      atom = tmp;
// SOA:      Atom_t_soa bigger = {0};
// SOA-NEXT: bigger = Atom_t_soa_realloc(&atoms->atoms, (size_t)2 * atoms->size);
// SOA:      atoms->atoms = bigger;
// SOA:      Atom_t_soa view = atoms->atoms;
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/soa.c -o %t/soa && %t/soa > %t/soa.out
// RUN: diff %t/orig.out %t/soa.out
// RUN: cp %s %t/tiled.c && %dl-refactor --apply --quiet --layout=Atom_t=tiled:4 %t/tiled.c --
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/tiled.c -o %t/tiled && %t/tiled > %t/tiled.out
// RUN: diff %t/orig.out %t/tiled.out

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Atom_t {
  float x, y, z, q;
} Atom;

typedef struct Atoms_t {
  Atom *atoms;
  int size;
} Atoms;

struct Charge {
  float q, r;
};

/* Reads "ATOM serial name x y z q" records, doubling the array as it
   fills. */
static Atoms *read_atoms(FILE *file) {
  char line[96];
  int len = 4, cnt = 0;
  Atom *atom = (Atom *)malloc(len * sizeof(Atom));
  if (NULL == atom)
    return NULL;
  while (fgets(line, sizeof line, file) != NULL) {
    if (strncmp(line, "ATOM  ", 6) != 0)
      continue;
    if (cnt == len) {
      void *tmp = realloc(atom, 2 * len * sizeof(Atom));
      if (NULL == tmp) {
        fprintf(stderr, "can't allocate more memory\n");
        free(atom);
        return NULL;
      }
      atom = (Atom *)tmp;
      len *= 2;
    }
    if (sscanf(line, "%*s %*d %*s %f %f %f %f", &atom[cnt].x, &atom[cnt].y,
               &atom[cnt].z, &atom[cnt].q) != 4)
      return NULL;
    cnt++;
  }
  Atoms *atoms = (Atoms *)malloc(sizeof(Atoms));
  if (!atoms)
    return NULL;
  atoms->atoms = atom;
  atoms->size = cnt;
  return atoms;
}

/* The realloc's result goes to a void * that is also passed to memset:
   no handle. */
static struct Charge *grow_charges(struct Charge *charges, int n) {
  void *more = realloc(charges, 2 * n * sizeof(struct Charge));
  if (!more)
    return charges;
  memset((char *)more + n * sizeof(struct Charge), 0,
         n * sizeof(struct Charge));
  return (struct Charge *)more;
}

int main(void) {
  FILE *f = tmpfile();
  if (!f)
    return 1;
  for (int i = 0; i < 1000; i++)
    fprintf(f, "ATOM  %5d  N  %8.3f%8.3f%8.3f %7.4f\n", i + 1, 0.5 * (i % 61),
            0.25 * (i % 37), 0.125 * (i % 23), (i % 5 - 2) * 0.1);
  rewind(f);
  Atoms *atoms = read_atoms(f);
  fclose(f);
  if (!atoms)
    return 1;
  /* Room for as many again: a member grown through a void * assigned
     later. */
  void *bigger = NULL;
  bigger = realloc(atoms->atoms, 2 * atoms->size * sizeof(Atom));
  if (!bigger)
    return 1;
  atoms->atoms = (Atom *)bigger;
  Atom *view = (Atom *)atoms->atoms;
  double energy = 0;
  for (int i = 0; i < atoms->size; i++)
    for (int j = i + 1; j < atoms->size; j += 7) {
      float dx = view[i].x - view[j].x, dy = view[i].y - view[j].y,
            dz = view[i].z - view[j].z;
      energy += view[i].q * view[j].q / (1.0f + dx * dx + dy * dy + dz * dz);
    }
  struct Charge *charges = malloc(8 * sizeof(struct Charge));
  if (!charges)
    return 1;
  for (int i = 0; i < 8; i++) {
    charges[i].q = view[i].q;
    charges[i].r = 1.0f + i;
  }
  charges = grow_charges(charges, 8);
  double c = 0;
  for (int i = 0; i < 16; i++)
    c += charges[i].q / charges[i].r;
  printf("%d atoms, energy %.6f, charges %.6f\n", atoms->size, energy, c);
  free(charges);
  free(atoms->atoms);
  free(atoms);
  return 0;
}
