// The kernels of swarm.c: one work-item per drone.
typedef struct Drone {
  float x, y, z;
  float vx, vy, vz;
  float charge;
} Drone;

__kernel void advance(__global Drone *d, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  d[i].x += 0.5f * d[i].vx;
  d[i].y += 0.5f * d[i].vy;
  d[i].z += 0.5f * d[i].vz;
  d[i].charge *= 0.99f;
}

__kernel void damp(__global Drone *d, int n, float friction) {
  int i = get_global_id(0);
  if (i < n) {
    d[i].vx *= friction;
    d[i].vy *= friction;
    d[i].vz *= friction;
  }
}
