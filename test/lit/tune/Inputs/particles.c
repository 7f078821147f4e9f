// A time-step loop over particles: the program the --tune tests measure.
// Their run commands sleep by the layout they find in the source, so that
// which plan is fast is known; real timings are benchmarks (bench/). Under
// the model tiled-pairs.json, x and v form a tiled cluster and the
// candidate plans put different arrays in memory (a comment here must not
// spell a plan: the run commands look for the rewrite's own comment).
#include <stdio.h>

struct P {
  float x, v, tag;
};
static struct P ps[1000];

int main(void) {
  for (int i = 0; i < 1000; ++i) {
    ps[i].x = i;
    ps[i].v = 1;
    ps[i].tag = 0;
  }
  for (int s = 0; s < 100; ++s)
    for (int i = 0; i < 1000; ++i)
      ps[i].x += 0.5f * ps[i].v;
  float t = 0;
  for (int i = 0; i < 1000; ++i)
    t += ps[i].x * ps[i].v + ps[i].tag;
  printf("%.1f\n", t);
  return 0;
}
