typedef struct Drone {
  float x, y, z;
} Drone;

__kernel void advance(__global Drone *d, int n) {
  int i = get_global_id(0);
  if (i < n)
    d[i].x += d[i].y + d[i].z;
}

__kernel void tally(__global int *out, int n) {
  int i = get_global_id(0);
  if (i < n)
    out[i] += 1;
}
