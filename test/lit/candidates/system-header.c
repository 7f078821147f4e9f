// Records declared in system headers are never candidates.
// RUN: %clang %dlopt -fsyntax-only -isystem %S/../Inputs %s 2>&1 | FileCheck %s --allow-empty
// CHECK-NOT: remark
#include <sysrecord.h>

static struct SysPoint pts[32];

int main(void) {
  int s = 0;
  for (int i = 0; i < 32; ++i)
    s += pts[i].x;
  return s;
}
