/* The particles of an SPH code; included twice by particles.c (the guard
   skips the second body, which is no skipped branch of the program). */
#ifndef PARTICLES_H
#define PARTICLES_H
typedef struct {
  float x, y, vx, vy;
} particle_t;
#endif
