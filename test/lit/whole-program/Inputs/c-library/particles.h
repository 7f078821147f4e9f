/* A C library of particles, used from a C++ driver (c-library.test). */
#ifndef PARTICLES_H
#define PARTICLES_H
#include <stddef.h>

typedef struct Particle {
  double x, y, z;
  double vx, vy, vz;
  double mass;
  int species;
} Particle;

#ifdef __cplusplus
extern "C" {
#endif
void particles_init(Particle *p, size_t n, unsigned seed);
void particles_drift(Particle *p, size_t n, double dt);
double particles_energy(const Particle *p, size_t n);
#ifdef __cplusplus
}
#endif
#endif
