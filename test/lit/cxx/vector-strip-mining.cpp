// Loops over a container with tiles become a loop over whole tiles, whose
// lane loop reaches elements through v.element(tile, lane) (no division:
// it vectorizes like the hand-written Tiled layout), and a loop over the
// last, partial tile. Range-for loops, counted loops to a local bound and
// to v.size(), a member container, and a loop that is another loop's body
// (one block then) are strip-mined; loops whose body could resize the
// container, leaves the loop or never names the element stay as written.
// The program prints the same in every layout (37 and 21 elements: the
// partial tiles run) and compiles with -Werror.
// RUN: python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc %cc --record P --layouts 'soa tiled:4 tiled:16 split:{x,y}tiled:4{id}soa{w} split:{x,y}tiled:4{id,w}tiled:8' %S/Inputs/vector-strip-mining.cpp | FileCheck --check-prefix=DIFF %s
// DIFF:      soa: same output
// DIFF-NEXT: tiled:4: same output
// DIFF-NEXT: tiled:16: same output
// DIFF-NEXT: split:{x,y}tiled:4{id}soa{w}: same output
// DIFF-NEXT: split:{x,y}tiled:4{id,w}tiled:8: same output

// The analysis calls an access loop-indexed (the model's strip-mined shape)
// in exactly the loops the rewrite strip-mines: not in kept()'s, whose
// bodies grow the container (71), leave the loop (76) or call out (65, 69).
// RUN: %dl-refactor --report --format=json %S/Inputs/vector-strip-mining.cpp -- -std=c++17 | FileCheck --check-prefix=JSON %s
// JSON:      "location": "{{.*}}vector-strip-mining.cpp:34:20",
// JSON-NEXT: "loop_depth": 1,
// JSON-NEXT: "loop_indexed": true,
// JSON:      "location": "{{.*}}vector-strip-mining.cpp:65:7",
// JSON-NEXT: "loop_depth": 1,
// JSON-NEXT: "loop_indexed": false,
// JSON:      "location": "{{.*}}vector-strip-mining.cpp:71:18",
// JSON-NEXT: "loop_depth": 1,
// JSON-NEXT: "loop_indexed": false,
// JSON:      "location": "{{.*}}vector-strip-mining.cpp:76:7",
// JSON-NEXT: "loop_depth": 1,
// JSON-NEXT: "loop_indexed": false,

// RUN: cp %S/Inputs/vector-strip-mining.cpp %t.cpp
// RUN: %dl-refactor --apply --layout=P=tiled:4 %t.cpp -- -std=c++17
// RUN: FileCheck --check-prefix=CODE %s < %t.cpp
// CODE:      /* (*this)[tile * 4 + lane], for loops over whole tiles. */
// CODE-NEXT: reference element(size_type tile, size_type lane) {
// CODE-NEXT:   return {fields.tiles[tile].x[lane], fields.tiles[tile].y[lane],
// CODE-NEXT:           fields.tiles[tile].id[lane], fields.tiles[tile].w[lane]};
// CODE-NEXT: }
// CODE-NEXT: const_reference element(size_type tile, size_type lane) const {

// A member container, through this.
// CODE:      struct Swarm {
// CODE-NEXT:   P_tiled_vector ps;
// CODE-NEXT:   void drift(float d) {
// CODE-NEXT:     for (std::size_t p_tile = 0; p_tile < ps.size() / 4; ++p_tile) {
// CODE-NEXT:       for (std::size_t p_lane = 0; p_lane < 4; ++p_lane) {
// CODE-NEXT:         auto &&p = ps.element(p_tile, p_lane);
// CODE-NEXT:         p.x += d;
// CODE-NEXT:       }
// CODE-NEXT:     }
// CODE-NEXT:     for (std::size_t p_i = ps.size() / 4 * 4; p_i < ps.size(); ++p_i) {
// CODE-NEXT:       auto &&p = ps[p_i];
// CODE-NEXT:       p.x += d;
// CODE-NEXT:     }
// CODE-NEXT:   }

// A counted loop to a local bound; the induction variable is declared in
// the lanes only where the body still reads it.
// CODE:      static void update(P_tiled_vector &v, float dt) {
// CODE-NEXT:   const std::size_t n = v.size();
// CODE-NEXT:   for (std::size_t i_tile = 0; i_tile < n / 4; ++i_tile) {
// CODE-NEXT:     for (std::size_t i_lane = 0; i_lane < 4; ++i_lane) {
// CODE-NEXT:       v.element(i_tile, i_lane).x += v.element(i_tile, i_lane).y * dt;
// CODE-NEXT:       v.element(i_tile, i_lane).w -= dt;
// CODE-NEXT:     }
// CODE-NEXT:   }
// CODE-NEXT:   for (std::size_t i = n / 4 * 4; i < n; ++i) {
// CODE-NEXT:     v[i].x += v[i].y * dt;
// CODE-NEXT:     v[i].w -= dt;
// CODE-NEXT:   }
// CODE-NEXT:   for (std::size_t i_tile = 0; i_tile < v.size() / 4; ++i_tile) {
// CODE-NEXT:     for (std::size_t i_lane = 0; i_lane < 4; ++i_lane) {
// CODE-NEXT:       std::size_t i = i_tile * 4 + i_lane;
// CODE-NEXT:       v.element(i_tile, i_lane).id += int(i);
// CODE-NEXT:     }
// CODE-NEXT:   }
// CODE-NEXT:   for (std::size_t i = v.size() / 4 * 4; i < v.size(); ++i)
// CODE-NEXT:     v[i].id += int(i);
// CODE-NEXT:   for (std::size_t p_tile = 0; p_tile < v.size() / 4; ++p_tile) {
// CODE-NEXT:     for (std::size_t p_lane = 0; p_lane < 4; ++p_lane) {
// CODE-NEXT:       auto &&p = v.element(p_tile, p_lane);
// CODE-NEXT:       if (p.id % 3 == 0)
// CODE-NEXT:         continue;
// CODE-NEXT:       p.y *= 0.5f;
// CODE-NEXT:     }
// CODE-NEXT:   }
// CODE:        for (std::size_t p_tile = 0; p_tile < v.size() / 4; ++p_tile) {
// CODE-NEXT:     for (std::size_t p_lane = 0; p_lane < 4; ++p_lane) {
// CODE-NEXT:       auto &&p = v.element(p_tile, p_lane);
// CODE-NEXT:       p.w += P(p).speed();
// CODE-NEXT:     }
// CODE-NEXT:   }
// The body of another loop: one block, opened on that loop's line.
// CODE:        for (int s = 0; s < 2; ++s) {
// CODE-NEXT:     for (std::size_t p_tile = 0; p_tile < v.size() / 4; ++p_tile) {
// CODE:            p.x -= 1;
// CODE:          for (std::size_t p_i = v.size() / 4 * 4; p_i < v.size(); ++p_i) {
// CODE-NEXT:       auto &&p = v[p_i];
// CODE-NEXT:       p.x -= 1;
// CODE-NEXT:     }
// CODE-NEXT:   }
// CODE-NEXT: }

// By const reference, by value, and a member function through a copy.
// CODE:      static double sum(const P_tiled_vector &v) {
// CODE:            const auto &p = v.element(p_tile, p_lane);
// CODE:            P p = v.element(p_tile, p_lane);
// CODE:            s += P(v.element(i_tile, i_lane)).speed();
// CODE:          s += P(v[i]).speed();

// CODE:      static void kept(P_tiled_vector &v, P_tiled_vector &other) {
// CODE-NEXT:   for (auto &&p : v) { // Calls a function of the program.
// CODE-NEXT:     p.x += 1;
// CODE-NEXT:     note();
// CODE-NEXT:   }
// CODE-NEXT:   for (std::size_t i = 0; i < v.size(); ++i) // Passes an element on.
// CODE-NEXT:     v[i].y = bump(v[i]);
// CODE-NEXT:   for (std::size_t i = 0; i < other.size(); ++i) // Grows a container.
// CODE-NEXT:     if (other[i].id < 0)
// CODE-NEXT:       other.push_back(other[i]);
// CODE-NEXT:   for (auto &&p : v) { // Leaves the loop.
// CODE:        for ({{\[\[}}maybe_unused{{\]\]}} auto &&p : v) // Never names its variable.
// CODE-NEXT:     ++calls;
// CODE-NEXT: }

// Without tiles there is nothing to strip-mine: v[i] keeps its spelling.
// RUN: cp %S/Inputs/vector-strip-mining.cpp %t2.cpp
// RUN: %dl-refactor --apply --layout=P=soa %t2.cpp -- -std=c++17
// RUN: FileCheck --check-prefix=SOA %s < %t2.cpp
// SOA-NOT: element(
// SOA:     static void update(P_soa_vector &v, float dt) {
// SOA-NEXT:  const std::size_t n = v.size();
// SOA-NEXT:  for (std::size_t i = 0; i < n; ++i) {
// SOA-NEXT:    v[i].x += v[i].y * dt;
// SOA-NOT: element(
