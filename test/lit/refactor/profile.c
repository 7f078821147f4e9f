// --profile: trip and call counts measured by a run replace the estimates.
// The cell binning below nests three loops of unknown bounds, which the
// heuristic takes as 512k trips each: its gathers of whole particles
// outweigh the time steps, and the plan keeps Particle as it is. The run
// measures 2 x 2 cells and 400 time steps: drift is the kernel that
// matters, and {x,vx} leave the record.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -fprofile-instr-generate -fcoverage-mapping %s -o %t/prog
// RUN: env LLVM_PROFILE_FILE=%t/prog.profraw %t/prog 2000 400
// RUN: llvm-profdata merge -o %t/prog.profdata %t/prog.profraw
// RUN: %dl-refactor-rules --report %s -- | FileCheck --check-prefix=GUESS %s
// RUN: %dl-refactor-rules --report --profile=%t/prog.profdata \
// RUN:   --profile-binary=%t/prog %s -- | FileCheck --check-prefix=MEASURED %s
// RUN: %dl-refactor-rules --report --format=json --profile=%t/prog.profdata \
// RUN:   --profile-binary=%t/prog %s -- | FileCheck --check-prefix=JSON %s
// The plugin takes the same two files.
// RUN: %clang %dlopt-rules -fplugin-arg-dlopt-profile=%t/prog.profdata \
// RUN:   -fplugin-arg-dlopt-profile-binary=%t/prog -fsyntax-only %s 2>&1 \
// RUN:   | FileCheck --check-prefix=PLUGIN %s
// RUN: not %clang %dlopt -fplugin-arg-dlopt-profile=%t/prog.profdata \
// RUN:   -fsyntax-only %s 2>&1 | FileCheck --check-prefix=PLUGIN-ALONE %s
//
// The rewrite follows the measured plan, and prints what the original does.
// The coverage mapping names the files by path: the copy rewritten is the
// one profiled.
// RUN: cp %s %t/prof.c
// RUN: %cc -fprofile-instr-generate -fcoverage-mapping %t/prof.c -o %t/prog2
// RUN: env LLVM_PROFILE_FILE=%t/prog2.profraw %t/prog2 2000 400
// RUN: llvm-profdata merge -o %t/prog2.profdata %t/prog2.profraw
// RUN: %dl-refactor-rules --apply --profile=%t/prog2.profdata \
// RUN:   --profile-binary=%t/prog2 %t/prof.c --
// RUN: %drop-checks %t/prof.c | FileCheck --check-prefix=APPLIED %s
// A profile of the file under another name has no counts for this one:
// said, not silently guessed.
// RUN: cp %s %t/elsewhere.c
// RUN: %dl-refactor-rules --report --profile=%t/prog.profdata \
// RUN:   --profile-binary=%t/prog %t/elsewhere.c -- 2>&1 \
// RUN:   | FileCheck --check-prefix=ELSEWHERE %s
// RUN: %cc -Wall -Wextra -Werror %t/prof.c -o %t/rewritten
// RUN: %t/prog 2000 40 > %t/before.txt
// RUN: %t/rewritten 2000 40 > %t/after.txt
// RUN: diff %t/before.txt %t/after.txt
//
// Bad input: the two options go together; files that are not a profile
// and an instrumented program are usage errors (exit 2).
// RUN: not %dl-refactor --report --profile=%t/prog.profdata %s -- 2>&1 \
// RUN:   | FileCheck --check-prefix=ALONE %s
// RUN: not %dl-refactor --report --profile=%s --profile-binary=%t/prog \
// RUN:   %s -- 2>&1 | FileCheck --check-prefix=NOT-PROFILE %s
// RUN: not %dl-refactor --report --profile=%t/prog.profdata \
// RUN:   --profile-binary=%t/missing %s -- 2>&1 | FileCheck --check-prefix=MISSING %s

// GUESS: bin_cells at {{.*}}: 8 accesses, 3 loops, weight
// GUESS-NEXT: drift at {{.*}} (ignored: under 1% of the heaviest kernel)
// GUESS-NOT: trips
// GUESS: plan: Particle: {x,y,z,vx,vy,vz,mass,charge} AoS (keep as is)

// MEASURED: bin_cells at {{.*}}: 8 accesses, 3 loops, runs 1 times (profile), weight
// MEASURED-NEXT: loop at {{.*}}profile.c:[[@LINE+39]]:3: 2 trips (measured)
// MEASURED-NEXT: loop at {{.*}}profile.c:[[@LINE+39]]:5: 2 trips (measured)
// MEASURED-NEXT: loop at {{.*}}profile.c:[[@LINE+39]]:7: 2000 trips (measured)
// MEASURED-NEXT: drift at {{.*}}: 3 accesses, 1 loops, runs 400 times (profile), weight
// MEASURED-NEXT: loop at {{.*}}: 2000 trips (measured)
// MEASURED: main at {{.*}} runs 1 times (profile)
// MEASURED-NEXT: loop at {{.*}}: 2000 trips (measured)
// MEASURED-NEXT: loop at {{.*}}: 2000 trips (measured)
// MEASURED-NEXT: loop at {{.*}}: 400 trips (measured)
// MEASURED: plan: Particle: {x,vx} SoA | {y,z,vy,vz,mass,charge} AoS

// JSON: "frequency": 400,
// JSON: "frequency_measured": true,
// JSON: "trip_count": 2000,
// JSON-NEXT: "trip_source": "profile"

// PLUGIN: remark: dlopt: struct Particle {{.*}}: {x,vx} SoA | {y,z,vy,vz,mass,charge} AoS
// PLUGIN-ALONE: error: dlopt: profile=FILE and profile-binary=EXE go together

// ELSEWHERE: warning: '{{.*}}prog' was built without '{{.*}}elsewhere.c' (the coverage mapping names the files it was built from): its counts are guessed
// ELSEWHERE: plan: Particle: {x,y,z,vx,vy,vz,mass,charge} AoS

// APPLIED: typedef struct Particle_split {
// APPLIED-NEXT: double *__restrict x;
// APPLIED-NEXT: double *__restrict vx;

// ALONE: --profile and --profile-binary go together
// NOT-PROFILE: cannot read the profile '{{.*}}profile.c'
// MISSING: '{{.*}}missing': no such file

#include <stdio.h>
#include <stdlib.h>

struct Particle { double x, y, z, vx, vy, vz, mass, charge; };

// Bins particles (in the order of idx: a gather) into cells x cells.
static int bin_cells(const struct Particle *p, const int *idx, int n,
                     int cells) {
  int hits = 0;
  for (int cx = 0; cx < cells; ++cx)
    for (int cy = 0; cy < cells; ++cy)
      for (int k = 0; k < n; ++k) {
        const struct Particle *q = &p[idx[k]];
        if ((int)(q->x * cells) == cx && (int)(q->y * cells) == cy)
          hits += (int)(q->mass + q->charge + q->vx + q->vy + q->vz + q->z);
      }
  return hits;
}

static double drift(struct Particle *p, int n, double dt) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    p[i].x += dt * p[i].vx;
    s += p[i].x;
  }
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2000;
  int steps = argc > 2 ? atoi(argv[2]) : 400;
  struct Particle *p = malloc(n * sizeof(struct Particle));
  int *idx = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) {
    p[i].x = (i % 97) / 97.0, p[i].y = (i % 89) / 89.0, p[i].z = 0;
    p[i].vx = 1e-3, p[i].vy = 0, p[i].vz = 0, p[i].mass = 1, p[i].charge = 0;
  }
  for (int i = 0; i < n; ++i)
    idx[i] = (int)((i * 7919L) % n);
  int hits = bin_cells(p, idx, n, 2);
  double s = 0;
  for (int t = 0; t < steps; ++t)
    s += drift(p, n, 0.01);
  printf("%d %.6f\n", hits, s);
  free(idx);
  free(p);
  return 0;
}
