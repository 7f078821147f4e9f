// The kernels of reused.c: one work-item per particle.
typedef struct Particle {
  float x, y;
  float vx, vy;
  int tag;
} Particle;

__kernel void move(__global Particle *p, int n, float dt) {
  int i = get_global_id(0);
  if (i < n) {
    p[i].x += dt * p[i].vx;
    p[i].y += dt * p[i].vy;
  }
}

__kernel void bounce(__global Particle *p, int n) {
  int i = get_global_id(0);
  if (i < n && (p[i].x < 0.0f || p[i].x > 100.0f)) {
    p[i].vx = -p[i].vx;
    p[i].tag += 1;
  }
}
