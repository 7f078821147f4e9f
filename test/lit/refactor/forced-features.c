// A forced plan's clusters carry the features the model would have seen for
// the same fields (calibration reads them from here), not an empty object.
// RUN: %dl-refactor --report --format=json --layout 'R=split:{a,b}tiled:16{c,d}aos' %s -- | FileCheck %s
struct R { float a, b; double c, d; };

static void stream(struct R *r, int n) {
  for (int i = 0; i < n; ++i)
    r[i].a = r[i].a * 0.5f + r[i].b;
}

int main(void) {
  static struct R r[256];
  for (int i = 0; i < 256; ++i)
    r[i].c = r[i].d = i;
  stream(r, 256);
  return (int)r[3].a;
}

// CHECK:      "clusters": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "cold": false,
// CHECK-NEXT:     "features": {
// CHECK-NEXT:       "accumulators": 0,
// CHECK-NEXT:       "cluster_bytes": 8,
// CHECK-NEXT:       "cluster_fields": 2,
// CHECK-NEXT:       "cluster_share": 0.
// CHECK:            "gather_fraction": 0,
// CHECK:            "loop_index_fraction": 1,
// CHECK-NEXT:       "max_field_bytes": 4,
// CHECK-NEXT:       "record_bytes": 24,
// CHECK:            "write_fraction": 0.{{[0-9]+}}
// CHECK-NEXT:     },
// CHECK-NEXT:     "fields": [
// CHECK-NEXT:       "a",
// CHECK-NEXT:       "b"
// CHECK-NEXT:     ],
// CHECK-NEXT:     "layout": "Tiled(16)",
// CHECK:          "features": {
// CHECK-NEXT:       "accumulators": 0,
// CHECK-NEXT:       "cluster_bytes": 16,
// CHECK-NEXT:       "cluster_fields": 2,
// CHECK:            "max_field_bytes": 8,
// CHECK:          "layout": "AoS",
