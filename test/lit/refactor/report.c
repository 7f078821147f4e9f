// dl-refactor --report prints the same plan as the plugin, as text or JSON.
// Each compound assignment reads vx before it updates x in place.
// RUN: %dl-refactor-rules --report %s -- -std=c11 | FileCheck %s
// RUN: %dl-refactor-rules --report --format=json %s -- -std=c11 | FileCheck --check-prefix=JSON %s
// RUN: %dl-refactor-rules --report --cache-line=8 %s -- | FileCheck --check-prefix=EPS8 %s

// CHECK: struct Particle at {{.*}}report.c:[[@LINE+16]]:8: 24 B, 6 fields
// CHECK-NEXT:   arrays:
// CHECK-NEXT:     ps (static array, 1000 elements) at {{.*}}report.c:[[@LINE+15]]:24
// CHECK-NEXT:   kernels:
// CHECK-NEXT:     step at {{.*}}report.c:[[@LINE+15]]:13: 6 accesses, 1 loops, weight 24000 B
// CHECK-NEXT:   KDLG (delta in bytes, inf = never accessed together):
// CHECK-NEXT:          x     y     z    vx    vy    vz
// CHECK-NEXT:     x    -     8    16     4     4    12
// CHECK:        clusters (epsilon = 64 B):
// CHECK-NEXT:     {x,y,z,vx,vy,vz} SoA: sigma=24 B, max delta=20 B ({{.*}}vectorizable=1 > 0.5, cluster_fields=6 <= 8)
// CHECK-NEXT:   plan: Particle: {x,y,z,vx,vy,vz} SoA

// JSON: "format": "dlopt-plan"
// JSON: "plan": "Particle: {x,y,z,vx,vy,vz} SoA"

// EPS8: plan: Particle: {x,vx} SoA | {y,vy} SoA | {z,vz} SoA
struct Particle { float x, y, z, vx, vy, vz; };
static struct Particle ps[1000];

static void step(float dt) {
  for (int i = 0; i < 1000; ++i) {
    ps[i].x += dt * ps[i].vx;
    ps[i].y += dt * ps[i].vy;
    ps[i].z += dt * ps[i].vz;
  }
}

int main(void) { step(0.1f); return 0; }
