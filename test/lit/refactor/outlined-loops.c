// gcc outlines an OpenMP region into a function the SoA handle's restrict
// does not reach: a loop there vectorizes only where gcc's run-time alias
// checks (at most 10) cover its arrays (analysis/OutlinedLoops.cpp). In SoA
// the pricing loop reads seven arrays and writes two of them: 11 checks,
// scalar under -fopenmp; the drift loop, two arrays and one written, still
// vectorizes. Without -fopenmp the pragmas are no regions: both vectorize.
// RUN: %dl-refactor --report --format=json %s -- -O3 -ffast-math -fopenmp | FileCheck --check-prefix=OMP %s
// RUN: %dl-refactor --report --format=json %s -- -O3 -ffast-math | FileCheck --check-prefix=SERIAL %s
// RUN: %dl-refactor --report %s -- -O3 -ffast-math -fopenmp | FileCheck --check-prefix=PLAN %s
// RUN: %dl-refactor --report %s -- -O3 -ffast-math | FileCheck --check-prefix=SERIAL-PLAN %s
// RUN: env OMP_NUM_THREADS=2 python3 %S/../../differential/check_layouts.py --dl-refactor %dl-refactor --cc %cc --record Option --cflags "-O1 -fopenmp" --layouts 'auto soa' %s | FileCheck --check-prefix=DIFF %s
// DIFF: auto: same output
// DIFF: soa: same output

#include <stdio.h>
#include <stdlib.h>

struct Option {
  float spot, strike, rate, volatility, time, call, put;
};

static void price(struct Option *o, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    float d = o[i].spot / o[i].strike + o[i].rate * o[i].volatility * o[i].time;
    // OMP:         "location": "{{.*}}outlined-loops.c:[[@LINE-1]]:20"
    // OMP-NEXT:    "loop_depth": 1,
    // OMP-NEXT:    "loop_indexed": true,
    // OMP-NEXT:    "position": {{.*}}
    // OMP-NEXT:    "vectorizable": false
    // SERIAL:      "location": "{{.*}}outlined-loops.c:[[@LINE-6]]:20"
    // SERIAL-NEXT: "loop_depth": 1,
    // SERIAL-NEXT: "loop_indexed": true,
    // SERIAL-NEXT: "position": {{.*}}
    // SERIAL-NEXT: "vectorizable": true
    o[i].call = d * o[i].spot;
    o[i].put = d * o[i].strike;
  }
}

// A simd loop vectorizes whatever gcc can check: not counted.
static void price_simd(struct Option *o, int n) {
#pragma omp parallel for simd
  for (int i = 0; i < n; ++i) {
    float d = o[i].spot / o[i].strike + o[i].rate * o[i].volatility * o[i].time;
    // OMP:         "location": "{{.*}}outlined-loops.c:[[@LINE-1]]:20"
    // OMP-NEXT:    "loop_depth": 1,
    // OMP-NEXT:    "loop_indexed": {{.*}}
    // OMP-NEXT:    "position": {{.*}}
    // OMP-NEXT:    "vectorizable": true
    o[i].call = d * o[i].spot;
    o[i].put = d * o[i].strike;
  }
}

static void drift(struct Option *o, int n) {
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; ++i)
      o[i].spot = o[i].spot * 0.999f + o[i].call * 0.001f;
    // OMP:         "location": "{{.*}}outlined-loops.c:[[@LINE-1]]:24"
    // OMP-NEXT:    "loop_depth": 1,
    // OMP-NEXT:    "loop_indexed": {{.*}}
    // OMP-NEXT:    "position": {{.*}}
    // OMP-NEXT:    "vectorizable": true
    // SERIAL:      "location": "{{.*}}outlined-loops.c:[[@LINE-6]]:24"
    // SERIAL-NEXT: "loop_depth": 1,
    // SERIAL-NEXT: "loop_indexed": {{.*}}
    // SERIAL-NEXT: "position": {{.*}}
    // SERIAL-NEXT: "vectorizable": true
  }
}

int main(void) {
  int n = 1 << 20;
  struct Option *o = malloc(n * sizeof(struct Option));
  for (int i = 0; i < n; ++i) {
    o[i].spot = o[i].strike = 10.0f + (float)(i % 7);
    o[i].rate = 0.01f;
    o[i].volatility = 0.2f;
    o[i].time = 1.0f;
    o[i].call = o[i].put = 0.0f;
  }
  for (int r = 0; r < 10; ++r) {
    price(o, n);
    drift(o, n);
    if (r == 0)
      price_simd(o, n);
  }
  printf("%f\n", o[n / 2].call + o[n / 3].put);
  free(o);
  return 0;
}

// The model then keeps the pricing loop's inputs out of SoA, where without
// -fopenmp every field is SoA.
// PLAN:      plan: Option:
// PLAN-NOT:  {strike,rate,volatility,time} SoA
// SERIAL-PLAN: plan: Option: {spot} SoA | {strike,rate,volatility,time} SoA | {call} SoA | {put} SoA
