// A kernel's weight counts how often it runs: the loops around its call
// sites, through every caller. init runs once, step 100 times from the loop
// in run (itself called twice from main), so step's accesses outweigh
// init's and only step's pairs shape the KDLG. Recursion ends the count.
// RUN: %dl-refactor-rules --report %s -- | FileCheck %s
// RUN: %dl-refactor-rules --report --format=json %s -- | FileCheck --check-prefix=JSON %s

// CHECK: kernels:
// CHECK-NEXT: init at {{.*}}: 3 accesses, 1 loops, weight 12000 B (ignored: under 1% of the heaviest kernel)
// CHECK-NEXT: step at {{.*}}: 2 accesses, 1 loops, runs 200 times, weight 1600000 B
// CHECK-NEXT: walk at {{.*}}: 1 accesses, 1 loops, runs 2 times, weight 8000 B (ignored: under 1% of the heaviest kernel)
// CHECK: {x,v} {{.*}}
// CHECK: {tag} AoS
// JSON: "frequency": 1,
// JSON: "frequency": 200,
// JSON: "frequency": 2,
struct P { float x, v, tag; };
static struct P ps[1000];

static void init(void) {
  for (int i = 0; i < 1000; ++i) {
    ps[i].x = 0;
    ps[i].v = 1;
    ps[i].tag = 0;
  }
}

static void step(float dt) {
  for (int i = 0; i < 1000; ++i)
    ps[i].x += dt * ps[i].v;
}

static void run(void) {
  for (int s = 0; s < 100; ++s)
    step(0.1f);
}

static float walk(int depth) {
  float t = 0;
  for (int i = 0; i < 1000; ++i)
    t += ps[i].tag;
  return depth > 0 ? walk(depth - 1) + t : t;
}

int main(void) {
  init();
  run();
  run();
  return (int)walk(1) + walk(2) > 0;
}
