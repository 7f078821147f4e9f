// The C++ driver: gravity towards the centre, then the C library's drift.
#include "particles.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>

static void kick(Particle *p, size_t n, double dt) {
  for (size_t i = 0; i < n; ++i) {
    const Particle *q = &p[i];
    double dx = 0.5 - q->x, dy = 0.5 - q->y, dz = 0.5 - q->z;
    double r = std::sqrt(dx * dx + dy * dy + dz * dz) + 0.01;
    double s = dt / (r * r * r);
    p[i].vx += dx * s;
    p[i].vy += dy * s;
    p[i].vz += dz * s;
  }
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 20000;
  Particle *p = new Particle[n];
  particles_init(p, n, 7u);
  for (int step = 0; step < 20; ++step) {
    kick(p, n, 1e-4);
    particles_drift(p, n, 1e-4);
  }
  int heavy = 0;
  for (size_t i = 0; i < n; ++i)
    heavy += p[i].species == 2;
  std::printf("energy %.9e, heavy %d\n", particles_energy(p, n), heavy);
  delete[] p;
  return 0;
}
