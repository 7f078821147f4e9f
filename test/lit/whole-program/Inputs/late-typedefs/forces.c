#include "common.h"

/* Pairwise spring forces, Newton's third law applied. */
void calc_forces(frc_t *forces, const pos_t *positions, int n) {
  memset(forces, 0, n * sizeof(frc_t));
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double dx = positions[j].x - positions[i].x;
      double dy = positions[j].y - positions[i].y;
      double dz = positions[j].z - positions[i].z;
      double k = 1e-3 / (1.0 + dx * dx + dy * dy + dz * dz);
      forces[i].x += k * dx;
      forces[i].y += k * dy;
      forces[i].z += k * dz;
      forces[j].x -= k * dx;
      forces[j].y -= k * dy;
      forces[j].z -= k * dz;
    }
}
