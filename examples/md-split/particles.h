/* md-split: a molecular-dynamics-style program split the way real codes
   are: set-up, forces, integration and output each in a file of their own,
   the time-step loop in main.c. 14 fields per particle, 10 of them hot. */
#ifndef PARTICLES_H
#define PARTICLES_H

typedef struct {
  double x, y, z;
  double vx, vy, vz;
  double fx, fy, fz;
  double mass;
  int id, species;
  double charge, radius;
} particle_t;

void init_particles(particle_t *p, int n, unsigned seed);
void compute_forces(particle_t *p, int n, double k);
void integrate(particle_t *p, int n, double dt);
double kinetic_energy(const particle_t *p, int n);
void write_summary(const particle_t *p, int n);

#endif
