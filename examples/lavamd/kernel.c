/* kernel.c - the lavaMD-like interaction kernel.
 *
 * For each box, every particle of the box interacts with every particle of
 * the box and of its neighbours: a gather of whole particles by index,
 * where all four fields are read together.
 */
#include "lavamd.h"
#include <math.h>

void lavamd_kernel(const struct box *boxes, int nboxes,
                   const struct particle *p, struct force *f, double alpha) {
  double a2 = 2.0 * alpha * alpha;
  for (int b = 0; b < nboxes; ++b) {
    int first = boxes[b].offset, count = boxes[b].count;
    for (int k = -1; k < boxes[b].neighbours; ++k) {
      int other = k < 0 ? b : boxes[b].nei[k];
      int ofirst = boxes[other].offset, ocount = boxes[other].count;
      for (int i = first; i < first + count; ++i) {
        double v = 0, fx = 0, fy = 0, fz = 0;
        for (int j = ofirst; j < ofirst + ocount; ++j) {
          double dx = p[i].x - p[j].x;
          double dy = p[i].y - p[j].y;
          double dz = p[i].z - p[j].z;
          double r2 = dx * dx + dy * dy + dz * dz;
          double u2 = a2 * r2;
          double vij = exp(-u2);
          double fs = 2.0 * vij;
          v += p[j].q * vij;
          fx += p[j].q * fs * dx;
          fy += p[j].q * fs * dy;
          fz += p[j].q * fs * dz;
        }
        f[i].v += v;
        f[i].x += fx;
        f[i].y += fy;
        f[i].z += fz;
      }
    }
  }
}
