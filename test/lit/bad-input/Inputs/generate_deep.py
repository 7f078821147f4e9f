"""Prints a valid C program whose kernel sums N terms in one statement, an
expression tree N levels deep: fields of array elements, and plain
integers (the second sum is a constant the compiler folds)."""
import sys

n = int(sys.argv[1])
fields = " + ".join(f"a[{k % 64}].x" for k in range(n))
ones = " + ".join("1" for _ in range(n))
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
    s += {fields};
    v = {ones};
    s += a[i].y;
  }}
  printf("%.1f %d\\n", s, v);
  return 0;
}}""")
