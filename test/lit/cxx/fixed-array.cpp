// C++ default-initializes `T a[N];` with an implicit call of T's trivial
// constructor; that is no initializer, and the array is rewritten like a C
// one (it was refused as "initialized from an expression").
// RUN: cp %s %t.cpp
// RUN: %clangxx -std=c++17 %t.cpp -o %t.before && %t.before > %t.before.out
// RUN: %dl-refactor-rules --apply --layout=P=soa %t.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=NOTE %s
// NOTE: struct P rewritten as P_soa
// RUN: %drop-checks %t.cpp | FileCheck %s
// RUN: %clangxx -std=c++17 -Wall -Werror %t.cpp -o %t.after && %t.after > %t.after.out
// RUN: diff %t.before.out %t.after.out
#include <cstdio>

struct P { float x, y; int id; };

static P global[64];
// CHECK: static P_soa global = {global_storage.x, global_storage.y, global_storage.id};

int main() {
  P local[32];
  // CHECK: P_soa local = {local_storage.x, local_storage.y, local_storage.id};
  for (int i = 0; i < 64; ++i) {
    global[i].x = i * 0.5f;
    global[i].id = i;
  }
  for (int i = 0; i < 32; ++i) {
    local[i].x = global[2 * i].x;
    local[i].y = global[i].x + 1;
  }
  float s = 0;
  for (int i = 0; i < 32; ++i)
    s += local[i].x * local[i].y + global[i].id;
  std::printf("%.3f\n", s);
  return 0;
}
