// The JSON report carries the plan, the KDLG and the numbers behind it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang %dlopt-rules -Rpass-analysis=dlopt -fplugin-arg-dlopt-report=%t/plan.json -fsyntax-only %s 2>&1 | FileCheck --check-prefix=REMARK %s
// RUN: FileCheck %s < %t/plan.json
// RUN: python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['records'][0]['plan'] == 'S: {a,b} SoA | {c} SoA | {d} AoS'" %t/plan.json

// The paper's example: a and b read in a 32-iteration loop, c after it, d
// never read.
// REMARK: remark: dlopt: struct S (16 B, 4 fields, 1 array, 1 kernel): {a,b} SoA | {c} SoA | {d} AoS at epsilon=64 B [-Rpass=dlopt]
// REMARK: remark: dlopt: struct S KDLG (delta in bytes, epsilon=64 B): a-b 4 B; 2 pairs farther apart [-Rpass-analysis=dlopt]
// REMARK: note: cluster {a,b} SoA: sigma=8 B, max delta=4 B
// REMARK: note: cluster {d} AoS: sigma=4 B (cold: no kernel accesses these fields)
struct S { float a, b, c, d; };

static float kernel(struct S *s) {
  float acc = 0;
  for (int i = 0; i < 32; ++i)
    acc = acc + s[i].a * s[i].b;
  return acc + s[0].c;
}

int main(void) { return (int)kernel(0); }

// CHECK:      "format": "dlopt-plan",
// CHECK:      "records": [
// CHECK:          "clusters": [
// CHECK:              "fields": [
// CHECK-NEXT:           "a",
// CHECK-NEXT:           "b"
// CHECK:              "layout": "SoA",
// CHECK:              "max_delta": 4,
// CHECK:          "edges": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "delta": 4,
// CHECK-NEXT:         "from": "a",
// CHECK-NEXT:         "to": "b"
// CHECK:              "delta": 256,
// CHECK-NEXT:         "from": "a",
// CHECK-NEXT:         "to": "c"
// CHECK:              "delta": 252,
// CHECK-NEXT:         "from": "b",
// CHECK-NEXT:         "to": "c"
// CHECK:          "kernels": [
// CHECK:              "accesses": [
// CHECK:                  "field": "a",
// CHECK:                  "kind": "read",
// CHECK:                  "loop_depth": 1,
// CHECK:              "loops": [
// CHECK:                  "trip_count": 32,
// CHECK-NEXT:             "trip_source": "constant"
// CHECK:              "name": "kernel",
// CHECK:          "name": "S",
// CHECK:          "transformable": true
