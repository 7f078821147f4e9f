#include <stdio.h>
typedef struct S { int a; int b; } S;
static S arr[21];
int main(void) {
  int n = 21;
  for (int i = 0; i < n; ++i) {
    static int calls = 0;
    arr[i].a = ++calls;
  }
  long t = 0;
  for (int i = 0; i < n; ++i)
    t += arr[i].a;
  printf("%ld\n", t);
  return 0;
}
