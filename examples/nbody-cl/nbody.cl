/* nbody.cl - the kernels of the OpenCL n-body simulation (nbody.c is its
 * host program). One work-item per body: forces reads the positions and
 * masses of all bodies and integrates the velocity of its own, advance
 * moves it. The record is the host's Body, field for field.
 */
#define SOFTENING 1e-3f

typedef struct Body {
  float x, y, z;
  float vx, vy, vz;
  float m;
} Body;

__kernel void forces(__global Body *b, int n, float dt) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int j = 0; j < n; ++j) {
    float dx = b[j].x - b[i].x;
    float dy = b[j].y - b[i].y;
    float dz = b[j].z - b[i].z;
    float d2 = dx * dx + dy * dy + dz * dz + SOFTENING;
    float inv = 1.0f / sqrt(d2);
    float s = b[j].m * inv * inv * inv;
    ax += dx * s;
    ay += dy * s;
    az += dz * s;
  }
  b[i].vx += dt * ax;
  b[i].vy += dt * ay;
  b[i].vz += dt * az;
}

__kernel void advance(__global Body *b, int n, float dt) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  b[i].x += b[i].vx * dt;
  b[i].y += b[i].vy * dt;
  b[i].z += b[i].vz * dt;
}
