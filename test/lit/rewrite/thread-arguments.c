// Thread arguments in the usual pthreads style: a struct whose pointer
// member is set by a brace initializer to the bodies' array, passed to
// pthread_create as void *, and one set to an allocation. The member takes
// the array's new layout (its type changes; the initializer's value is the
// array, as written, or the new layout's allocation), and the program
// prints what it did in every layout.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %dl-refactor --report %s -- -pthread | FileCheck --check-prefix=REPORT %s
// REPORT:     struct body at
// REPORT-NOT: not transformable
// REPORT:       plan: body:
// RUN: %cc -O2 -Wall -Werror -pthread %s -o %t/orig && %t/orig > %t/orig.out
// RUN: cp %s %t/soa.c && %dl-refactor --apply --quiet --layout=body=soa %t/soa.c -- -pthread
// RUN: %cc -O2 -Wall -Werror -pthread %t/soa.c -o %t/soa && %t/soa > %t/soa.out
// RUN: diff %t/orig.out %t/soa.out
// RUN: cp %s %t/tiled.c && %dl-refactor --apply --quiet --layout=body=tiled:4 %t/tiled.c -- -pthread
// RUN: %cc -O2 -Wall -Werror -pthread %t/tiled.c -o %t/tiled && %t/tiled > %t/tiled.out
// RUN: diff %t/orig.out %t/tiled.out
// RUN: grep -q "body_soa bodies;" %t/soa.c
// RUN: grep -q "struct work copy = {body_soa_alloc(n), 0, n};" %t/soa.c
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct body {
  double x, y, vx, vy, m;
};

struct work {
  struct body *bodies;
  int start, end;
};

static void *kick(void *arg) {
  struct work *w = arg;
  for (int i = w->start; i < w->end; i++) {
    w->bodies[i].vx -= 0.01 * w->bodies[i].x;
    w->bodies[i].vy -= 0.01 * w->bodies[i].y;
    w->bodies[i].x += 0.01 * w->bodies[i].vx;
    w->bodies[i].y += 0.01 * w->bodies[i].vy;
  }
  return NULL;
}

int main(void) {
  int n = 10000;
  struct body *b = malloc(n * sizeof *b);
  for (int i = 0; i < n; i++) {
    b[i].x = i % 13;
    b[i].y = i % 7;
    b[i].vx = b[i].vy = 0;
    b[i].m = 1 + i % 2;
  }
  pthread_t t[2];
  struct work w[2] = {{b, 0, n / 2}, {b, n / 2, n}};
  for (int s = 0; s < 100; s++) {
    for (int k = 0; k < 2; k++)
      pthread_create(&t[k], NULL, kick, &w[k]);
    for (int k = 0; k < 2; k++)
      pthread_join(t[k], NULL);
  }
  struct work copy = {malloc(n * sizeof(struct body)), 0, n};
  for (int i = 0; i < n; i++)
    copy.bodies[i] = b[i];
  kick(&copy);
  double e = 0;
  for (int i = 0; i < n; i++)
    e += b[i].m * (b[i].vx * b[i].vx + b[i].vy * b[i].vy) + copy.bodies[i].x;
  printf("%.9g\n", e);
  free(copy.bodies);
  free(b);
  return 0;
}
