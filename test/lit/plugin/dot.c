// The KDLG as DOT: fields as nodes with their sizes, delta in bytes on the
// edges under epsilon (the others counted in a legend), one subgraph per
// cluster labelled with its layout.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang %dlopt-rules -fplugin-arg-dlopt-dot=%t/kdlg.dot -fsyntax-only %s 2>/dev/null
// RUN: FileCheck %s < %t/kdlg.dot
// RUN: dot -Tsvg %t/kdlg.dot -o %t/kdlg.svg

struct T { double p; int q; char r; };
static struct T ts[1000];

// 16000 bytes: a small array no vectorizable loop reaches would keep its
// layout.
int main(void) {
  double s = 0;
  for (int i = 0; i < 1000; ++i)
    s += ts[i].p * ts[i].q;
  return (int)s;
}

// CHECK:      graph kdlg {
// CHECK:        subgraph "cluster_T" {
// CHECK-NEXT:     label="struct T (16 B)";
// CHECK-NEXT:     subgraph "cluster_T_0" {
// CHECK-NEXT:       label="SoA";
// CHECK-NEXT:       "T.p" [label="p\n8 B"];
// CHECK-NEXT:       "T.q" [label="q\n4 B"];
// CHECK-NEXT:     }
// CHECK-NEXT:     subgraph "cluster_T_1" {
// CHECK-NEXT:       label="AoS (cold)";
// CHECK-NEXT:       "T.r" [label="r\n1 B"];
// CHECK-NEXT:     }
// CHECK-NEXT:     "T.p" -- "T.q" [label="8"];
// CHECK-NEXT:     "T.legend" [shape=note, fontsize=9, label="delta in bytes between accesses, drawn below epsilon = 64 B\l(0 pairs farther apart not drawn)\l"];
// CHECK-NEXT:   }
// CHECK-NEXT: }
