// C++ copies whole elements of a plain array with the record's trivial copy
// constructor and assignment operator (T t = a[i]; a[i] = a[j]; f(a[i])
// by value): element reads and writes, as in C. Same output in every
// layout, with -Wall -Wextra -Werror.
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc %cc --cflags "-Wall -Wextra -Werror" --record Cell --layouts 'soa split tiled:4' %S/Inputs/element-copies.cpp | FileCheck --check-prefix=DIFF %s
// DIFF:      soa: same output
// DIFF-NEXT: split: same output
// DIFF-NEXT: tiled:4: same output

// RUN: %dl-refactor --diff --layout=Cell=soa %S/Inputs/element-copies.cpp -- 2>&1 | FileCheck --check-prefix=CODE %s
// CODE: -    Cell t = a[i];
// CODE-NEXT: -    a[i] = a[n - 1 - i];
// CODE-NEXT: -    a[n - 1 - i] = t;
// CODE-NEXT: +    Cell t = Cell_soa_get(a, i);
// CODE-NEXT: +    Cell_soa_set(a, i, Cell_soa_get(a, n - 1 - i));
// CODE-NEXT: +    Cell_soa_set(a, n - 1 - i, t);
// CODE: +  Cell_soa_set(a, 3, probe);
// CODE: +    s += weigh(Cell_soa_get(a, i));

// A class whose assignment does more than copy stays refused.
// RUN: sed 's/^  int id;$/  int id;\n  Cell \&operator=(const Cell \&o) { x = o.x; y = o.y; w = o.w; id = o.id + 0; return *this; }/' %S/Inputs/element-copies.cpp > %t.cpp
// RUN: %dl-refactor --report %t.cpp -- | FileCheck --check-prefix=USER %s
// USER: not transformable:
// USER: user-provided assignment operator: assigning an element runs it
