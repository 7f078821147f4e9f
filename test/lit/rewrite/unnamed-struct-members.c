// The program's arrays held by a variable of an unnamed struct, as
// molecular-docking and proxy-app codes keep their run parameters:
// `struct { Atom *protein; Atom *ligand; int natpro, natlig; } params;` at
// file scope, and a local one. The members take the handle's type; the
// unnamed struct itself is no candidate.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %s -lm -o %t/orig && %t/orig > %t/orig.out
// RUN: %dl-refactor --report %s -- | FileCheck --check-prefix=REPORT %s
// REPORT: struct Atom at
// REPORT: protein (field of an unnamed struct) at
// REPORT: ligand (field of an unnamed struct) at
// REPORT: pair (field of an unnamed struct) at
// REPORT-NOT: not transformable
// REPORT: plan: Atom:
// RUN: cp %s %t/soa.c && %dl-refactor --apply --quiet --layout=Atom=soa %t/soa.c --
// RUN: %drop-checks %t/soa.c | FileCheck --check-prefix=SOA %s
// SOA:        Atom_soa protein;
// SOA-NEXT:   Atom_soa ligand;
// SOA:        Atom_soa pair;
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/soa.c -lm -o %t/soa && %t/soa > %t/soa.out
// RUN: diff %t/orig.out %t/soa.out
// RUN: cp %s %t/tiled.c && %dl-refactor --apply --quiet --layout=Atom=tiled:8 %t/tiled.c --
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/tiled.c -lm -o %t/tiled && %t/tiled > %t/tiled.out
// RUN: diff %t/orig.out %t/tiled.out
// In an unnamed union the handle would share its bytes with another member.
// RUN: cp %s %t/union.c && echo 'union { Atom *atoms; float *coords; } alias;' >> %t/union.c
// RUN: %dl-refactor --report %t/union.c -- | FileCheck --check-prefix=UNION %s
// UNION: atoms (field of an unnamed union) at
// UNION: not transformable:
// UNION-NEXT: union.c:{{[0-9]+}}:{{[0-9]+}}: pointer member 'atoms' of an unnamed union
// A record with a member of an unnamed struct type keeps its layout (a
// generated record could not name that type); Atom's arrays in it are
// members of that record, whose layout may change.
// RUN: cp %s %t/nested.c && printf 'struct frame { double t; struct { Atom *atoms; int n; } view; };\nstatic struct frame frames[4];\ndouble last(void) { double s = 0; for (int k = 0; k < 4; k++) s += frames[k].t + frames[k].view.atoms[0].x; return s; }\n' >> %t/nested.c
// RUN: %dl-refactor --report %t/nested.c -- | FileCheck --check-prefix=NESTED %s
// NESTED: atoms (field of frame) at
// NESTED: struct frame at
// NESTED: not transformable:
// NESTED-NEXT: nested.c:{{[0-9]+}}:{{[0-9]+}}: field 'view' has an unnamed struct type
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  float x, y, z;
  int type;
} Atom;

struct {
  Atom *protein;
  Atom *ligand;
  int natpro, natlig;
} params;

static void load(int natpro, int natlig) {
  params.natpro = natpro;
  params.natlig = natlig;
  params.protein = malloc(natpro * sizeof(Atom));
  params.ligand = malloc(natlig * sizeof(Atom));
  if (!params.protein || !params.ligand)
    exit(1);
  for (int i = 0; i < natpro; i++) {
    params.protein[i].x = (float)(i % 17);
    params.protein[i].y = (float)(i % 11) * 0.5f;
    params.protein[i].z = (float)(i % 7) * 0.25f;
    params.protein[i].type = i % 4;
  }
  for (int i = 0; i < natlig; i++) {
    params.ligand[i].x = 3.0f + i;
    params.ligand[i].y = 1.0f;
    params.ligand[i].z = 0.5f * i;
    params.ligand[i].type = i % 3;
  }
}

static double energy(void) {
  double e = 0;
  int il = 0;
  do {
    const Atom l = params.ligand[il];
    for (int ip = 0; ip < params.natpro; ip++) {
      const Atom p = params.protein[ip];
      float dx = l.x - p.x, dy = l.y - p.y, dz = l.z - p.z;
      float d = sqrtf(dx * dx + dy * dy + dz * dz) + 1.0f;
      e += (l.type == p.type ? -1.0 : 0.5) / d;
    }
  } while (++il < params.natlig);
  return e;
}

int main(void) {
  load(2048, 24);
  // A local of an unnamed struct holding two atoms at a time.
  struct {
    Atom *pair;
    int n;
  } scratch = {malloc(2 * sizeof(Atom)), 2};
  if (!scratch.pair)
    return 1;
  double closest = 0;
  for (int k = 0; k + 1 < params.natlig; k++) {
    scratch.pair[0] = params.ligand[k];
    scratch.pair[1] = params.ligand[k + 1];
    for (int j = 0; j < scratch.n; j++)
      closest += scratch.pair[j].x * 0.001;
  }
  printf("energy %.4f closest %.4f\n", energy(), closest);
  free(scratch.pair);
  free(params.protein);
  free(params.ligand);
  return 0;
}
