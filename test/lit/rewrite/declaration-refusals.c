// Declarations whose rewrite would not compile keep the record, each with
// its reason, in the report and under a forced plan (exit 3, nothing
// written): a static pointer initialized with an array (C takes constants
// only there, and the array's handle is none), a variable-length array, a
// compound literal array, an array in a switch's body. The program without
// them is rewritten.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %dl-refactor --report %s -- | FileCheck --check-prefix=PLAIN %s
// PLAIN: struct P at
// PLAIN-NOT: not transformable
// PLAIN: plan: P:
// RUN: sed 's/^static struct P \*particles;/static struct P *particles = pool;/' %s > %t/static.c
// RUN: %dl-refactor --report %t/static.c -- | FileCheck --check-prefix=STATIC %s
// STATIC: not transformable:
// STATIC-NEXT: static.c:{{[0-9]+}}:{{[0-9]+}}: 'particles' has static storage and is initialized with an array (C takes only constants there: not rewritten yet)
// RUN: cp %t/static.c %t/static-before.c
// RUN: not %dl-refactor --apply --layout=P=soa %t/static.c -- 2>&1 | FileCheck --check-prefix=FORCED %s
// FORCED: cannot be transformed: 'particles' has static storage
// RUN: cmp %t/static.c %t/static-before.c
// RUN: sed 's/^  struct P copy\[4\];/  struct P copy[n \/ 4];/' %s > %t/vla.c
// RUN: %dl-refactor --report %t/vla.c -- | FileCheck --check-prefix=VLA %s
// VLA: not transformable:
// VLA-NEXT: vla.c:{{[0-9]+}}:{{[0-9]+}}: variable-length array 'copy' (not rewritten yet)
// RUN: sed 's/^  double e = energy(copy, 4);/  double e = energy((struct P[2]){{1, 2, 3}, {4, 5, 6}}, 2);/' %s > %t/literal.c
// RUN: %dl-refactor --report %t/literal.c -- | FileCheck --check-prefix=LITERAL %s
// LITERAL: not transformable:
// LITERAL-NEXT: literal.c:{{[0-9]+}}:{{[0-9]+}}: compound literal array of 'P' (not rewritten yet)
// An array with an asm label: its storage would have to take the symbol.
// RUN: sed 's/^static struct P pool\[N\];/static struct P pool[N] __asm__("particle_pool");/' %s > %t/asm.c
// RUN: %dl-refactor --report %t/asm.c -- | FileCheck --check-prefix=ASM %s
// ASM: not transformable:
// ASM-NEXT: asm.c:{{[0-9]+}}:{{[0-9]+}}: array 'pool' has an asm label (not rewritten yet)
// An array at the top of a switch's body: a case label would jump over the
// initializer its handle gets.
// RUN: cp %s %t/switch.c && printf 'int pick(int m) {\n  switch (m) {\n    struct P tmp[2];\n  case 0:\n    tmp[0].id = 1;\n    return tmp[0].id;\n  default:\n    return 0;\n  }\n}\n' >> %t/switch.c
// RUN: %dl-refactor --report %t/switch.c -- | FileCheck --check-prefix=SWITCH %s
// SWITCH: not transformable:
// SWITCH-NEXT: switch.c:{{[0-9]+}}:{{[0-9]+}}: array 'tmp' is declared in a switch's body, where case labels jump over its handle's initializer (not rewritten yet)
#include <stdio.h>

#define N 64

struct P {
  double x, y;
  int id;
};

static struct P pool[N];
static struct P *particles;

static double energy(const struct P *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i].x * a[i].y + a[i].id;
  return s;
}

int main(void) {
  int n = N;
  particles = pool;
  for (int i = 0; i < n; i++) {
    particles[i].x = i;
    particles[i].y = 0.5 * i;
    particles[i].id = i % 5;
  }
  struct P copy[4];
  for (int i = 0; i < 4; i++)
    copy[i] = particles[i * 2];
  double e = energy(copy, 4);
  printf("%.2f %.2f\n", energy(particles, n), e);
  return 0;
}
