#ifndef SIM_H
#define SIM_H

typedef struct {
  double x, y, z;
  double vx, vy, vz;
  double mass;
  int id, kind;
} Particle;

typedef struct {
  double heat, flux;
  int hits;
} Cell;

void init_particles(Particle *p, int n);
void drift(Particle *p, int n, double dt);
double kinetic(const Particle *p, int n);

#endif
