// C++ classes kept in std::vector: default member initializers and
// constructors that only initialize fields make the elements (the
// container calls T() and T(args) and stores the fields), aggregate
// initialization and assignment from braces keep working, and the class
// itself stays as written for its single objects.
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc %cc --record Agent --layouts 'soa split tiled:4 tiled:16' %S/Inputs/vector-classes.cpp | FileCheck --check-prefix=DIFF %s
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc %cc --record P --layouts 'soa split tiled:4 tiled:16' %S/Inputs/vector-classes.cpp | FileCheck --check-prefix=DIFF %s
// DIFF:      soa: same output
// DIFF-NEXT: split: same output
// DIFF-NEXT: tiled:4: same output
// DIFF-NEXT: tiled:16: same output

// RUN: cp %S/Inputs/vector-classes.cpp %t.cpp
// RUN: %dl-refactor-rules --apply --layout=Agent=soa %t.cpp -- -std=c++17 2>&1 | FileCheck --check-prefix=TOOL %s
// TOOL: struct Agent rewritten as Agent_soa
// RUN: FileCheck --check-prefix=CODE %s < %t.cpp
// CODE:      struct Agent {
// CODE-NEXT:   float x = 1.5f, y = -2.0f;
// CODE:        Agent(float x, float y, int id) : x(x), y(y), id(id) {}
// CODE:      void resize(size_type n) { resize(n, Agent()); }
// CODE:      Agent_soa_vector agents(3);
// CODE:      agents.emplace_back(0.5f, 0.25f, 7);
// CODE:      agents.at(2) = {6, 7, 8};
