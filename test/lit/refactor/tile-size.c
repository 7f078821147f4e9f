// Every tiled cluster of a record gets the tile size of the busiest one:
// the rewriter strip-mines a loop for one tile size, and a loop over
// clusters of two sizes would reach one of them through the flat form.
// The model below gives single fields Tiled(8) and larger clusters
// Tiled(64); {y,w} moves more bytes than {x} (step runs 10 times), so both
// become Tiled(64), and step's loop over both is strip-mined once.
// RUN: rm -rf %t && mkdir -p %t
// RUN: echo '{"format": "dlopt-model", "version": 1, "tree": {"feature": "cluster_fields", "threshold": 1, "left": {"layout": "Tiled(8)"}, "right": {"layout": "Tiled(64)"}}}' > %t/model.json
// RUN: %dl-refactor --model=%t/model.json --report %s -- | FileCheck %s
// CHECK: {x} Tiled(64): {{.*}}(cluster_fields=1 <= 1, tile size of {y,w} (Tiled(64)): one tile size per record, so that a loop over several clusters is strip-mined once)
// CHECK: {y,w} Tiled(64): {{.*}}(cluster_fields=2 > 1)
// CHECK: plan: P: {x} Tiled(64) | {y,w} Tiled(64)
// RUN: %dl-refactor --model=%t/model.json --diff %s -- | %drop-checks | FileCheck --check-prefix=DIFF %s
// DIFF: for (int i_tile = 0; i_tile < 1000 / 64; ++i_tile) {
// DIFF-NEXT: for (int i_lane = 0; i_lane < 64; ++i_lane) {
// DIFF-NEXT: ps.y_w[i_tile].y[i_lane] += dt * ps.y_w[i_tile].w[i_lane];
// DIFF-NEXT: ps.x[i_tile].x[i_lane] *= 0.99f;
struct P { float x, y, w; };
static struct P ps[1000];

static void step(float dt) {
  for (int i = 0; i < 1000; ++i) {
    ps[i].y += dt * ps[i].w;
    ps[i].x *= 0.99f;
  }
}
static void drift(float dx) {
  for (int i = 0; i < 1000; ++i)
    ps[i].x += dx;
}
int main(void) {
  drift(1.0f);
  for (int s = 0; s < 10; ++s)
    step(0.1f);
  return ps[0].x > 0;
}
