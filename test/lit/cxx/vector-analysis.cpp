// A std::vector<T> is an array of T for the analysis: its declarations are
// roots, v[i].f, v.at(i).f and a range-for's element are field accesses
// (streamed, loop-indexed in a counted or range loop, gathered through an
// index array), and the standard library's own pointers to T (vector's
// members, its allocator) are neither roots nor uses.
// RUN: %dl-refactor-rules --report %s -- -std=c++17 | FileCheck %s
// RUN: %dl-refactor-rules --report --format=json %s -- -std=c++17 | FileCheck --check-prefix=JSON %s
#include <vector>

struct Body { float x, y, z, vx, vy, vz, m; };

// CHECK: struct Body at {{.*}}vector-analysis.cpp:10:8: 28 B, 7 fields
// CHECK-NEXT: arrays:
// CHECK-NEXT: bodies (std::vector parameter) at {{.*}}vector-analysis.cpp:21:38
// CHECK-NEXT: bodies (std::vector parameter) at {{.*}}vector-analysis.cpp:29:46
// CHECK-NEXT: bodies (std::vector) at {{.*}}vector-analysis.cpp:41:21
// CHECK-NEXT: kernels:
// CHECK-NEXT: drift at {{.*}}: 6 accesses, 1 loops, runs 10 times
// The by-value range-for copies all 7 fields: 3 + 1 + 7 + 1 accesses.
// CHECK-NEXT: energy at {{.*}}: 12 accesses, 3 loops
static void drift(std::vector<Body> &bodies, float dt) {
  for (auto &b : bodies) {
    b.x += b.vx * dt;
    b.y += b.vy * dt;
    b.z += b.vz * dt;
  }
}

static float energy(const std::vector<Body> &bodies, const std::vector<int> &order) {
  float e = 0;
  for (std::size_t i = 0; i < bodies.size(); ++i)
    e += bodies[order[i]].m * (bodies[order[i]].vx * bodies[order[i]].vx);
  for (std::size_t i = 0; i < bodies.size(); ++i)
    e += bodies.at(i).m;
  for (Body b : bodies) // a copy of every field per iteration
    e += b.y;
  return e;
}

int main() {
  std::vector<Body> bodies(1000);
  std::vector<int> order(1000);
  for (int i = 0; i < 1000; ++i) {
    bodies[i].x = i;
    bodies[i].m = 1;
    order[i] = (i * 7) % 1000;
  }
  for (int s = 0; s < 10; ++s)
    drift(bodies, 0.01f);
  return energy(bodies, order) > 0;
}

// CHECK: plan: Body:

// The range-for's b.x: streamed and loop-indexed.
// JSON: "location": "{{.*}}vector-analysis.cpp:23:7"
// JSON-NEXT: "loop_depth": 1,
// JSON-NEXT: "loop_indexed": true,
// bodies[order[i]].m: a gather.
// JSON: "gather": true,
// JSON-NEXT: "kind": "read",
// JSON-NEXT: "lanes_when_moved": false,
// JSON-NEXT: "location": "{{.*}}vector-analysis.cpp:32:27"
// bodies.at(i).m: streamed, indexed by the loop variable.
// JSON: "gather": false,
// JSON-NEXT: "kind": "read",
// JSON-NEXT: "lanes_when_moved": false,
// JSON-NEXT: "location": "{{.*}}vector-analysis.cpp:34:23"
// JSON-NEXT: "loop_depth": 1,
// JSON-NEXT: "loop_indexed": true,
// JSON: "transformable": true
