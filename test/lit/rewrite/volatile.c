// Volatile storage or a volatile pointer keeps the record: each access is a
// side effect (a flag a signal handler sets, a device register) that the
// handle's plain loads would drop; a loop waiting on it would never end.
// The same program without volatile is rewritten.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %dl-refactor --report %s -- | FileCheck --check-prefix=PLAIN %s
// PLAIN: struct slot at
// PLAIN-NOT: not transformable
// PLAIN: plan: slot:
// RUN: sed 's/^static struct slot \*ready;/static struct slot *volatile ready;/' %s > %t/pointer.c
// RUN: %dl-refactor --report %t/pointer.c -- | FileCheck --check-prefix=POINTER %s
// POINTER: not transformable:
// POINTER-NEXT: pointer.c:{{[0-9]+}}:{{[0-9]+}}: volatile pointer 'ready'
// RUN: sed 's/^  struct slot \*slots;/  volatile struct slot *slots;/' %s > %t/member.c
// RUN: %dl-refactor --report %t/member.c -- | FileCheck --check-prefix=MEMBER %s
// MEMBER: not transformable:
// MEMBER-NEXT: member.c:{{[0-9]+}}:{{[0-9]+}}: volatile member 'slots'
// RUN: sed 's/^  struct slot ring\[RING\];/  volatile struct slot ring[RING];/' %s > %t/array.c
// RUN: %dl-refactor --report %t/array.c -- | FileCheck --check-prefix=ARRAY %s
// ARRAY: not transformable:
// ARRAY-NEXT: array.c:{{[0-9]+}}:{{[0-9]+}}: volatile member 'ring'
#include <stdio.h>
#include <stdlib.h>

#define RING 8

struct slot {
  double value;
  int seq;
};

struct queue {
  struct slot *slots;
  struct slot ring[RING];
  int n;
};

static struct slot *ready;

int main(void) {
  static struct queue q;
  q.n = 64;
  q.slots = malloc(q.n * sizeof(struct slot));
  if (!q.slots)
    return 1;
  for (int i = 0; i < q.n; i++) {
    q.slots[i].value = i * 0.5;
    q.slots[i].seq = i;
  }
  for (int i = 0; i < RING; i++) {
    q.ring[i].value = q.slots[i].value;
    q.ring[i].seq = -i;
  }
  ready = q.slots;
  double sum = 0;
  for (int i = 0; i < q.n; i++)
    sum += ready[i].value * ready[i].seq;
  for (int i = 0; i < RING; i++)
    sum += q.ring[i].value + q.ring[i].seq;
  printf("%.2f\n", sum);
  free(q.slots);
  return 0;
}
