// A record whose elements a member of another record holds (a box's
// neighbour list) changes that record's representation with its layout.
// Where the holder keeps its layout because its bytes are read, the member
// keeps its record too, and so it does where the holder is itself held by a
// record that keeps its layout; otherwise the neighbours are rewritten
// (with the boxes as they are: a member of a record whose own layout
// changes keeps its record too).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %dl-refactor --report --layout box=aos %s -- | FileCheck --check-prefix=PLAIN %s
// PLAIN: struct neighbor at
// PLAIN-NOT: not transformable
// PLAIN: plan: neighbor:
//
// The boxes' bytes are hashed: box keeps its layout, and neighbor with it.
// RUN: sed 's|^//HASH ||' %s > %t/bytes.c
// RUN: %dl-refactor --report %t/bytes.c -- | FileCheck --check-prefix=BYTES %s
// BYTES: struct neighbor at
// BYTES: not transformable:
// BYTES-NEXT: bytes.c:[[#@LINE+49]]:19: member 'nei' of 'box' holds its elements, and 'box' keeps its layout (cast of 'const struct box *' to 'const unsigned char *' at {{.*}}bytes.c:[[#@LINE+87]]:{{[0-9]+}})
// RUN: cp %t/bytes.c %t/forced.c
// RUN: not %dl-refactor --apply --layout neighbor=soa %t/forced.c -- 2> %t/forced.err
// RUN: FileCheck --check-prefix=FORCED %s < %t/forced.err
// FORCED: member 'nei' of 'box' holds its elements
// RUN: cmp %t/bytes.c %t/forced.c
//
// A function of the program reads them through `const void *` (a checksum).
// RUN: sed 's|^//VOID ||' %s > %t/void.c
// RUN: %dl-refactor --report %t/void.c -- | FileCheck --check-prefix=VOID %s
// VOID: struct neighbor at
// VOID: not transformable:
// VOID-NEXT: void.c:{{[0-9]+}}:19: member 'nei' of 'box' holds its elements, and 'box' keeps its layout ('box' objects passed to 'hash_any', which reads them as 'const unsigned char *' at {{.*}}void.c:{{[0-9]+}}:{{[0-9]+}})
//
// The boxes are written to a file: the file holds their bytes.
// RUN: sed 's|^//FILE ||' %s > %t/file.c
// RUN: %dl-refactor --report %t/file.c -- | FileCheck --check-prefix=FILE %s
// FILE: struct neighbor at
// FILE: not transformable:
// FILE-NEXT: file.c:[[#@LINE+30]]:19: member 'nei' of 'box' holds its elements, and 'box' keeps its bytes (a file holds them: fwrite or fread at {{.*}}file.c:[[#@LINE+70]]:{{[0-9]+}})
//
// The domain, which holds the boxes through a pointer, goes to a function
// no analyzed file defines: both records it reaches keep their layouts.
// RUN: sed 's|^//SAVE ||' %s > %t/saved.c
// RUN: %dl-refactor --report %t/saved.c -- | FileCheck --check-prefix=SAVED %s
// SAVED: struct neighbor at
// SAVED: not transformable:
// SAVED-NEXT: saved.c:[[#@LINE+22]]:19: member 'nei' of 'box' holds its elements, and 'domain', which holds 'box', keeps its layout ('domain' array passed to 'checkpoint', which is not defined in the analyzed files at {{.*}}saved.c:{{[0-9]+}}:{{[0-9]+}})
// SAVED: struct box at
// SAVED: not transformable:
// SAVED-NEXT: saved.c:[[#@LINE+23]]:15: member 'boxes' of 'domain' holds its elements, and 'domain' keeps its layout
//
// Each variant's automatic rewrite prints what the original prints.
// RUN: %cc -O1 %t/bytes.c -o %t/bytes-before && %t/bytes-before > %t/bytes-before.out
// RUN: %dl-refactor --apply %t/bytes.c -- && %cc -O1 %t/bytes.c -o %t/bytes-after
// RUN: %t/bytes-after | diff %t/bytes-before.out -
#include <stdio.h>
#include <stdlib.h>

#define NEIGHBORS 26

struct neighbor {
  int x, y, z;
  int number;
  double offset;
};

struct box {
  int nn;
  struct neighbor nei[NEIGHBORS];
};

struct domain {
  struct box *boxes;
  int nboxes;
};
//SAVE void checkpoint(const struct domain *d);

static inline unsigned hash(const unsigned char *p, size_t n) {
  unsigned h = 2166136261u;
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 16777619u;
  return h;
}

static inline unsigned hash_any(const void *p, size_t n) { return hash(p, n); }

int main(void) {
  struct domain d = {malloc(500 * sizeof(struct box)), 500};
  for (int i = 0; i < d.nboxes; i++) {
    d.boxes[i].nn = NEIGHBORS;
    for (int k = 0; k < NEIGHBORS; k++) {
      struct neighbor *n = &d.boxes[i].nei[k];
      n->x = k % 3;
      n->y = k / 3 % 3;
      n->z = k / 9;
      n->number = i * NEIGHBORS + k;
      n->offset = 0.5 * k;
    }
  }
  double sum = 0;
  for (int i = 0; i < d.nboxes; i++)
    for (int k = 0; k < d.boxes[i].nn; k++)
      sum += d.boxes[i].nei[k].offset * d.boxes[i].nei[k].x;
  printf("%.1f\n", sum);
//VOID printf("%u\n", hash_any(d.boxes, d.nboxes * sizeof *d.boxes));
//HASH const struct box *b = d.boxes;
//HASH printf("%u\n", hash((const unsigned char *)b, d.nboxes * sizeof *b));
//FILE FILE *f = fopen("/dev/null", "wb");
//FILE fwrite(d.boxes, sizeof *d.boxes, d.nboxes, f);
//FILE fclose(f);
//SAVE checkpoint(&d);
  free(d.boxes);
  return 0;
}
