// Casts of the array pointer to other pointer types or integers, and
// pointers of unknown origin, block the rewrite: my_alloc, only declared,
// would have to be defined as an allocator function by another file
// (whole-program/allocators-across-files.test).
// RUN: %clang %dlopt -fsyntax-only -Xclang -verify %s
#include <stdint.h>
#include <stdlib.h>

struct Q { float a, b; }; // expected-remark {{struct Q (8 B, 2 fields, 2 arrays): not transformable: cast of 'struct Q *' to 'char *' (and 3 more)}}
struct Other { int x; };
void *my_alloc(size_t);

int main(void) {
  struct Q *q = malloc(8 * sizeof *q);
  char *bytes = (char *)q; // expected-note {{blocks the rewrite: cast of 'struct Q *' to 'char *'}}
  uintptr_t addr = (uintptr_t)q; // expected-note {{blocks the rewrite: cast of 'struct Q *' to 'uintptr_t'}}
  struct Other *o = (struct Other *)q; // expected-note {{blocks the rewrite: cast of 'struct Q *' to 'struct Other *'}}
  struct Q *u = my_alloc(8 * sizeof *u); // expected-note {{blocks the rewrite: pointer from 'my_alloc', which no analyzed file defines as an allocator function (`void *f(size_t bytes)` allocating as malloc does; name its file too)}}
  float s = 0;
  for (int i = 0; i < 8; ++i)
    s += q[i].a + u[i].b;
  free(q);
  return (int)s + bytes[0] + (int)addr + o->x;
}
