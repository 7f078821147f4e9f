#include "common.h"
#include <stdio.h>

int main(void) {
  int n = 200, steps = 20;
  pos_t *positions = malloc(n * sizeof(pos_t));
  vel_t *velocities = calloc(n, sizeof(vel_t));
  frc_t *forces = malloc(n * sizeof(frc_t));
  for (int i = 0; i < n; i++) {
    positions[i].x = i % 10;
    positions[i].y = (i / 10) % 10;
    positions[i].z = i / 100;
  }
  for (int s = 0; s < steps; s++) {
    calc_forces(forces, positions, n);
    for (int i = 0; i < n; i++) {
      velocities[i].x += 0.01 * forces[i].x;
      velocities[i].y += 0.01 * forces[i].y;
      velocities[i].z += 0.01 * forces[i].z;
      positions[i].x += 0.01 * velocities[i].x;
      positions[i].y += 0.01 * velocities[i].y;
      positions[i].z += 0.01 * velocities[i].z;
    }
  }
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += positions[i].x * positions[i].y + positions[i].z * velocities[i].x;
  printf("%.15g %.15g %.15g\n", sum, velocities[n - 1].y, positions[7].z);
  free(positions);
  free(velocities);
  free(forces);
  return 0;
}
