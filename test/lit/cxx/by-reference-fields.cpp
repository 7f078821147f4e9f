// A field bound to a reference parameter is accessed where the call is:
// uniform(a.seed) reads and writes the seed, peek(const &) and copy (by
// value) only read it. examples/agents-cpp draws its random numbers so.
// RUN: %dl-refactor-rules --report %s -- -std=c++17 | FileCheck %s

// CHECK: step at {{.*}}: 5 accesses, 1 loops, runs 100 times
// CHECK: KDLG
// CHECK-NEXT: x seed w
// CHECK-NEXT: x - 16 inf
// CHECK-NEXT: seed 16 - inf
// CHECK: {w} AoS: {{.*}}(cold: no kernel accesses these fields)
#include <vector>

struct Agent { float x; unsigned seed; float w; };

static float uniform(unsigned &seed) {
  seed = seed * 1103515245u + 12345u;
  return float(seed >> 8) * (1.0f / 16777216.0f);
}

static float peek(const unsigned &seed) { return float(seed & 255u); }
static float copy(unsigned seed) { return float(seed); }

static void step(std::vector<Agent> &agents) {
  for (Agent &a : agents)
    a.x += uniform(a.seed) + peek(a.seed) + copy(a.seed);
}

int main() {
  std::vector<Agent> agents(4096);
  for (int s = 0; s < 100; ++s)
    step(agents);
  return agents[7].x > 0;
}
