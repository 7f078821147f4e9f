"""Prints a valid C program whose kernel sums N terms in one statement, an
expression tree N levels deep.

usage: generate_deep.py N fields|ones
  fields: the terms are fields of array elements (a[k].x), and a second sum
          of N plain integers follows (a constant the compiler folds);
  ones:   only the integer sum, with one field read at its deepest leaf."""
import sys

n, kind = int(sys.argv[1]), sys.argv[2]
ones = " + ".join("1" for _ in range(n))
if kind == "fields":
    sums = ("    s += " + " + ".join(f"a[{k % 64}].x" for k in range(n)) + ";\n"
            f"    v = {ones};\n")
else:
    sums = f"    v = (int)a[i].x + {ones};\n"
print(f"""#include <stdio.h>

struct P {{
  float x, y;
  int id;
}};

static struct P a[64];

int main(void) {{
  float s = 0;
  int v = 0;
  for (int i = 0; i < 64; ++i) {{
    a[i].x = i % 8;
    a[i].y = 1;
    a[i].id = i;
  }}
  for (int i = 0; i < 64; ++i) {{
{sums}    s += a[i].y;
  }}
  printf("%.1f %d\\n", s, v);
  return 0;
}}""")
