// A flexible array member makes the element size unknown.
// RUN: %clang %dlopt -fsyntax-only -Xclang -verify %s
#include <stdlib.h>

struct Flex { int n; int data[]; }; // expected-remark {{not transformable: flexible array member 'data'}}
// expected-note@-1 {{blocks the rewrite: flexible array member 'data'}}

int main(void) {
  struct Flex *f = malloc(4 * sizeof(struct Flex));
  int s = 0;
  for (int i = 0; i < 4; ++i)
    s += f[i].n;
  free(f);
  return s;
}

// A blocked record's JSON lists its blockers instead of a plan.
// RUN: %dl-refactor --report --format=json %s -- | FileCheck --check-prefix=JSON %s
// JSON:      "blockers": [
// JSON-NEXT:   {
// JSON-NEXT:     "location": "{{.*}}flexible-array.c:5:26",
// JSON-NEXT:     "reason": "flexible array member 'data'"
// JSON:      "transformable": false
// JSON-NOT:  "plan"
