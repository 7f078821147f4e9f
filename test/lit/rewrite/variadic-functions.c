// Gates of a quantum register simulator in the style of libquantum: a
// function takes the array of nodes as its last named parameter and a
// variable number of control bits after it. va_start(ap, nodes) names the
// parameter; it reads nothing of the array, so the array takes the new
// layout (the parameter becomes a handle, which va_start takes as well).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %dl-refactor --report %s -- | FileCheck --check-prefix=REPORT %s
// REPORT:      struct node at {{.*}}variadic-functions.c:
// REPORT-NOT:    not transformable
// REPORT:        plan: node:
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %s -o %t/orig && %t/orig > %t/orig.out
// RUN: cp %s %t/auto.c && %dl-refactor --apply --quiet %t/auto.c --
// RUN: %drop-checks %t/auto.c | FileCheck --check-prefix=AUTO %s
// AUTO: static void toffoli(int n, node_soa nodes, int ncontrols, ...) {
// AUTO: va_start(bits, ncontrols);
// AUTO: static void flip(node_soa nodes, int n, ...) {
// AUTO: va_start(bits, nodes);
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/auto.c -o %t/auto && %t/auto > %t/auto.out
// RUN: diff %t/orig.out %t/auto.out
// RUN: cp %s %t/tiled.c && %dl-refactor --apply --quiet --layout=node=tiled:4 %t/tiled.c --
// RUN: %cc -std=c11 -O2 -Wall -Wextra -Werror %t/tiled.c -o %t/tiled && %t/tiled > %t/tiled.out
// RUN: diff %t/orig.out %t/tiled.out

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
  float amplitude;
  unsigned long long state;
};

/* Flips bit target of every state whose control bits are all set. */
static void toffoli(int n, struct node *nodes, int ncontrols, ...) {
  int controls[8];
  va_list bits;
  va_start(bits, ncontrols);
  for (int j = 0; j < ncontrols; j++)
    controls[j] = va_arg(bits, int);
  int target = va_arg(bits, int);
  va_end(bits);
  for (int i = 0; i < n; i++) {
    int j = 0;
    while (j < ncontrols && (nodes[i].state & (1ull << controls[j])))
      j++;
    if (j == ncontrols)
      nodes[i].state ^= 1ull << target;
  }
}

/* The array is the last named parameter: va_start names it. */
static void flip(struct node *nodes, int n, ...) {
  va_list bits;
  va_start(bits, n);
  int target = va_arg(bits, int);
  va_end(bits);
  for (int i = 0; i < n; i++)
    nodes[i].state ^= 1ull << target;
}

static void phase(int n, struct node *nodes, ...) {
  va_list bits;
  va_start(bits, nodes);
  int target = va_arg(bits, int);
  double angle = va_arg(bits, double);
  va_end(bits);
  for (int i = 0; i < n; i++)
    if (nodes[i].state & (1ull << target))
      nodes[i].amplitude *= (float)angle;
}

int main(void) {
  int n = 1 << 12;
  struct node *nodes = malloc(n * sizeof *nodes);
  if (!nodes)
    return 1;
  for (int i = 0; i < n; i++) {
    nodes[i].amplitude = 1.0f / (1 + i % 17);
    nodes[i].state = (unsigned long long)i;
  }
  for (int step = 0; step < 50; step++) {
    toffoli(n, nodes, 2, step % 5, (step + 1) % 7, step % 11);
    flip(nodes, n, step % 9);
    phase(n, nodes, step % 6, 0.99);
  }
  double sum = 0;
  unsigned long long bits = 0;
  for (int i = 0; i < n; i++) {
    sum += nodes[i].amplitude;
    bits ^= nodes[i].state * (unsigned long long)(i + 1);
  }
  printf("%.6f %llu\n", sum, bits);
  free(nodes);
  return 0;
}
