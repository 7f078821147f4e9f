// The kernels of flock.c: one work-item per bird.
typedef struct Bird {
  float x, y;
  float vx, vy;
  float energy;
  int flaps;
} Bird;

__kernel void fly(__global Bird *b, int n, float dt) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  b[i].x += dt * b[i].vx;
  b[i].y += dt * b[i].vy;
  b[i].energy -= 0.01f * (b[i].vx * b[i].vx + b[i].vy * b[i].vy);
  b[i].flaps += 1;
}

__kernel void rest(int n, __global Bird *b) {
  int i = get_global_id(0);
  if (i < n && b[i].energy < 10.5f) {
    b[i].vx *= 0.5f;
    b[i].energy += 0.25f;
  }
}
