// Arrays of a record as members of classes (docs/cxx.md): new[] in a
// constructor's initializer list, a null pointer there, the array passed
// to a constructor, a copy constructor copying the elements, delete[] in
// the destructor, member functions over this->pts. Same output in every
// layout, gcc and clang, -Wall -Wextra -Werror.
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc g++ --cflags "-std=c++17 -Wall -Wextra -Werror" --record P --layouts 'soa split tiled:4' %S/Inputs/class-members.cpp | FileCheck --check-prefix=DIFF %s
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc %cc --cflags "-std=c++20 -Wall -Wextra -Werror" --record P --layouts 'soa tiled:4' %S/Inputs/class-members.cpp | FileCheck --check-prefix=DIFF %s
// DIFF: soa: same output
// DIFF: tiled:4: same output

// RUN: %dl-refactor --diff --layout=P=soa %S/Inputs/class-members.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=CODE %s
// CODE: -  explicit Cloud(int n) : n(n), pts(new P[n]) {
// CODE: +  explicit Cloud(int n) : n(n), pts(P_soa_alloc(n)) {
// CODE: -  Cloud(const Cloud &o) : n(o.n), pts(new P[o.n]) {
// CODE-NEXT: +  Cloud(const Cloud &o) : n(o.n), pts(P_soa_alloc(o.n)) {
// CODE: +      P_soa_set(pts, i, P_soa_get(o.pts, i));
// CODE: +  ~Cloud() { P_soa_free(pts); }
// CODE: -  View() : pts(nullptr), n(0) {}
// CODE-NEXT: -  View(P *p, int n) : pts(p), n(n) {}
// CODE: +  View() : pts(P_soa{}), n(0) {}
// CODE-NEXT: +  View(P_soa p, int n) : pts(p), n(n) {}

// A constructor taking the array that no analyzed file defines: refused.
// RUN: sed 's/^  View(P \*p, int n) : pts(p), n(n) {}/  View(P *p, int n);/' %S/Inputs/class-members.cpp > %t.cpp
// RUN: %dl-refactor --report %t.cpp -- -std=c++17 | FileCheck --check-prefix=UNDEFINED %s
// UNDEFINED: 'P' array passed to constructor 'View', which is not defined in the analyzed files

// A default member initializer: a null pointer (= nullptr, {nullptr}, {})
// starts an empty handle (`P_soa pts = {};`); another one is not rewritten
// yet.
// RUN: sed '41s/P \*pts;/P *pts = nullptr;/' %S/Inputs/class-members.cpp > %t-null.cpp
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc g++ --cflags "-std=c++17 -Wall -Wextra -Werror" --record P --layouts 'soa tiled:4' %t-null.cpp | FileCheck --check-prefix=DIFF %s
// RUN: %dl-refactor --diff --layout=P=soa %t-null.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=NULL %s
// NULL: +  P_soa pts = {};
// RUN: sed '41s/P \*pts;/P *pts{nullptr};/' %S/Inputs/class-members.cpp > %t-brace.cpp
// RUN: %dl-refactor --diff --layout=P=soa %t-brace.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=BRACE %s
// BRACE: +  P_soa pts{};
// RUN: sed '41s/P \*pts;/P *pts = new P[8];/' %S/Inputs/class-members.cpp > %t-new.cpp
// RUN: %dl-refactor --report %t-new.cpp -- -std=c++17 | FileCheck --check-prefix=NEW %s
// NEW: default member initializer of 'pts' (of such members only a pointer's null pointer is rewritten yet)
