/* A smoothed-particle hydrodynamics step in the style of real SPH codes:
   a global array of particles reached through loop-local element pointers
   (pi, pj), compared (pi == pj), inside OpenMP loops whose clauses name the
   array. Written for dlopt's tests. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  float x, y;   /* position */
  float vx, vy; /* velocity */
  float fx, fy; /* force */
  float rho, p; /* density, pressure */
} particle_t;

static const float H = 16.0f, HSQ = 256.0f, MASS = 2.5f, REST = 300.0f;
static const float GAS = 2000.0f, VISC = 200.0f, DT = 0.0007f;

particle_t *particles;
int n_particles = 0;

void init(int n) {
  particles = (particle_t *)malloc(n * sizeof(particle_t));
  for (int i = 0; i < n; i++) {
    particle_t *p = &particles[i];
    p->x = (i % 37) * H * 0.9f;
    p->y = (i / 37) * H * 0.9f;
    p->vx = (i % 7) * 0.1f;
    p->vy = (i % 5) * -0.1f;
    p->fx = p->fy = p->rho = p->p = 0.0f;
  }
  n_particles = n;
}

void density(void) {
#pragma omp parallel for default(none) shared(particles, n_particles, HSQ, MASS, GAS, REST)
  for (int i = 0; i < n_particles; i++) {
    particle_t *pi = &particles[i];
    pi->rho = 0.0f;
    for (int j = 0; j < n_particles; j++) {
      const particle_t *pj = particles + j;
      const float dx = pj->x - pi->x, dy = pj->y - pi->y;
      const float d2 = dx * dx + dy * dy;
      if (d2 < HSQ)
        pi->rho += MASS * 0.0001f * (HSQ - d2) * (HSQ - d2) * (HSQ - d2);
    }
    pi->p = GAS * (pi->rho - REST);
  }
}

void forces(void) {
#pragma omp parallel for default(none) shared(particles, n_particles, H, MASS, VISC)
  for (int i = 0; i < n_particles; i++) {
    particle_t *pi = &particles[i];
    float fx = 0.0f, fy = 0.0f;
    for (int j = 0; j < n_particles; j++) {
      const particle_t *pj = &particles[j];
      if (pi == pj)
        continue;
      const float dx = pj->x - pi->x, dy = pj->y - pi->y;
      const float dist = sqrtf(dx * dx + dy * dy) + 1e-6f;
      if (dist < H) {
        fx += -dx / dist * MASS * (pi->p + pj->p) / (2 * pj->rho) * (H - dist);
        fy += -dy / dist * MASS * (pi->p + pj->p) / (2 * pj->rho) * (H - dist);
        fx += VISC * MASS * (pj->vx - pi->vx) / pj->rho * (H - dist);
        fy += VISC * MASS * (pj->vy - pi->vy) / pj->rho * (H - dist);
      }
    }
    pi->fx = fx;
    pi->fy = fy;
  }
}

void integrate(void) {
  /* A walk from the first particle to one past the last. */
  particle_t *end = particles + n_particles;
  for (particle_t *p = particles; p < end; ++p) {
    p->vx += DT * p->fx / p->rho;
    p->vy += DT * p->fy / p->rho;
    p->x += DT * p->vx;
    p->y += DT * p->vy;
  }
}

/* A checksum that does not depend on the order of the threads. */
double checksum(void) {
  double s = 0.0;
  for (int i = 0; i < n_particles; i++) {
    const particle_t *p = &particles[i];
    s += fabs(p->vx) + fabs(p->vy) + 1e-6 * p->rho;
  }
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 400;
  init(n);
  for (int s = 0; s < 5; s++) {
    density();
    forces();
    integrate();
  }
  printf("%.5f\n", checksum());
  free(particles);
  return 0;
}
