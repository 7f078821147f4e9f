// A C library's struct used by a C++ driver (mixed-languages.test).
#ifndef PARTICLES_H
#define PARTICLES_H
typedef struct Particle {
  float x, y, mass;
  int id;
} Particle;
#ifdef __cplusplus
extern "C" {
#endif
void place(Particle *p, int n);
#ifdef __cplusplus
}
#endif
#endif
