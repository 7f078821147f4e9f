// A field handed to a callee by its address is accessed where the call is:
// uniform(&a[i].seed) reads the seed and writes it back, peek(const *)
// only reads it. Counting them as addresses alone left seed out of the
// KDLG, so step had one access (x) and seed looked cold, and a profile
// that weighed main's initialization more made seed a cluster of its own.
// RUN: %dl-refactor-rules --report %s -- | FileCheck %s
// RUN: %dl-refactor-rules --report --format=json %s -- | FileCheck --check-prefix=JSON %s

// CHECK: step at {{.*}}: 4 accesses, 1 loops, runs 100 times
// CHECK: KDLG
// CHECK-NEXT: x seed w
// CHECK-NEXT: x - 12 inf
// CHECK-NEXT: seed 12 - inf
// CHECK: {x,seed} SoA
// CHECK: {w} AoS: {{.*}}(cold: no kernel accesses these fields)
// JSON: "field": "seed",
// JSON-NEXT: "gather": false,
// JSON-NEXT: "kind": "read",
// JSON: "field": "seed",
// JSON-NEXT: "gather": false,
// JSON-NEXT: "kind": "write",
// JSON: "field": "seed",
// JSON-NEXT: "gather": false,
// JSON-NEXT: "kind": "read",
// JSON: "field": "x",
// JSON: "name": "step",
struct Agent { float x; unsigned seed; float w; };
static struct Agent agents[4096];

static float uniform(unsigned *seed) {
  *seed = *seed * 1103515245u + 12345u;
  return (float)(*seed >> 8) * (1.0f / 16777216.0f);
}

static float peek(const unsigned *seed) { return (float)(*seed & 255u); }

static void step(int n) {
  for (int i = 0; i < n; ++i)
    agents[i].x += uniform(&agents[i].seed) + peek(&agents[i].seed);
}

int main(void) {
  for (int i = 0; i < 4096; ++i) {
    agents[i].x = 0;
    agents[i].seed = (unsigned)i;
    agents[i].w = 1;
  }
  for (int s = 0; s < 100; ++s)
    step(4096);
  return agents[7].x > 0;
}
