// Explicit iterator loops keep their spelling: the generated container's
// iterator dereferences to the element proxy and has an operator-> that
// reaches the proxy's members (it->x, it->shift(d)); a const member function
// through it runs on a copy, P(*it).norm(). std::vector<P>::iterator and
// const_iterator name the container's. std::count_if, find_if, any_of and
// for_each hand the function the proxy, which it takes as a const P & or a
// P. The program prints the same in every layout and compiles with -Werror;
// the analysis streams the iterator loop's accesses like v[i]'s.
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc %cc --record P --layouts 'soa split tiled:4 split:{x,y}tiled:4{id}soa' %S/Inputs/vector-iterators.cpp | FileCheck --check-prefix=DIFF %s
// DIFF:      soa: same output
// DIFF-NEXT: split: same output
// DIFF-NEXT: tiled:4: same output
// DIFF-NEXT: split:{x,y}tiled:4{id}soa: same output

// RUN: cp %S/Inputs/vector-iterators.cpp %t.cpp
// RUN: %dl-refactor --apply --layout=P=soa %t.cpp -- -std=c++17
// RUN: FileCheck --check-prefix=CODE %s < %t.cpp
// CODE:      class P_soa_iterator {
// CODE:        struct pointer {
// CODE-NEXT:     Reference r;
// CODE-NEXT:     Reference *operator->() { return &r; }
// CODE-NEXT:   };
// CODE:        pointer operator->() const { return {(*c)[i]}; }
// CODE:      static void update(P_soa_vector &v, float dt) {
// CODE-NEXT:   for (auto it = v.begin(); it != v.end(); ++it) {
// CODE-NEXT:     it->x += it->y * dt;
// CODE-NEXT:     (*it).id += 1;
// CODE-NEXT:   }
// CODE-NEXT:   for (P_soa_vector::iterator it = v.begin(); it != v.end(); it++)
// CODE-NEXT:     it->shift(0.5f);
// CODE:        for (P_soa_vector::const_iterator it = v.begin(); it != v.end(); ++it)
// CODE-NEXT:     s += it->x + P(*it).norm() + P((*it)).norm();
// CODE:          const auto &p = *it;
// CODE-NEXT:     P copy = *it;
// CODE:        std::printf("found %d %.3f\n", found->id, P(*found).norm());

// RUN: %dl-refactor --report --format=json %S/Inputs/vector-iterators.cpp -- -std=c++17 | python3 -c "import json, sys; [print(a['field'], a['kind'], a['loop_indexed'], a['gather']) for r in json.load(sys.stdin)['records'] for k in r['kernels'] for a in k['accesses'] if ':16:' in a['location']]" | FileCheck --check-prefix=ACCESS %s
// ACCESS:      y read True False
// ACCESS-NEXT: x write True False
