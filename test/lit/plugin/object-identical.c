// The plugin only reads the AST: the object file is byte-identical to a
// build without it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O2 -g -c %examples/nbody/nbody.c -o %t/plain.o
// RUN: %clang -O2 -g %dlopt -c %examples/nbody/nbody.c -o %t/plugin.o 2> %t/remarks.txt
// RUN: cmp %t/plain.o %t/plugin.o
// RUN: FileCheck %s < %t/remarks.txt
// CHECK: remark: dlopt: struct Body
