/* A 2-D smoothed-particle hydrodynamics dam break, in the style of small
   SPH codes used in teaching and in proxy apps: one global array of
   particles, reached in every kernel through loop-local element pointers
   (pi, pj), a pair test pi == pj, OpenMP loops whose data-sharing clauses
   name the array, a walk from the first particle to one past the last, and
   an allocation whose byte count is computed beforehand. Written for
   dlopt's examples; the physics follows the textbook Müller et al. (2003)
   kernels with the constants scaled for a small box.

   Usage: sph [--small] [particles [steps]]   (default 6000 particles,
   8 steps; --small: 600 particles, 4 steps, for tests)
   Prints a checksum that does not depend on the number of threads. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  float x, y;   /* position */
  float vx, vy; /* velocity */
  float fx, fy; /* force */
  float rho, p; /* density, pressure */
} particle_t;

/* The kernels' radius and its square, the particle mass, the gas constant
   and rest density of the equation of state, viscosity, time step. */
static const float H = 16.0f, HSQ = 256.0f, MASS = 2.5f;
static const float GAS_CONST = 2000.0f, REST_DENS = 300.0f, VISC = 200.0f;
static const float DT = 0.0003f, BOUND_DAMPING = -0.5f;
static const float VIEW_W = 800.0f, VIEW_H = 600.0f, EPS = 16.0f;
static const float GX = 0.0f, GY = -9.8f * 12000.0f;

static float POLY6, SPIKY_GRAD, VISC_LAP;

particle_t *particles;
int n_particles;

/* A block of fluid in the lower left corner, slightly jittered so that no
   two particles start on the same lattice line. */
static void init_dam_break(int n) {
  size_t bytes = (size_t)n * sizeof(particle_t);
  particles = (particle_t *)malloc(bytes);
  if (!particles) {
    fprintf(stderr, "sph: cannot allocate %zu bytes\n", bytes);
    exit(1);
  }
  const float spacing = H;
  int per_row = (int)(0.25f * VIEW_W / spacing);
  for (int i = 0; i < n; i++) {
    particle_t *p = &particles[i];
    float jitter = (float)((i * 7919) % 101) / 101.0f;
    p->x = VIEW_W / 4 + (i % per_row) * spacing + jitter;
    p->y = EPS + (i / per_row) * spacing;
    p->vx = p->vy = 0.0f;
    p->fx = p->fy = 0.0f;
    p->rho = p->p = 0.0f;
  }
  n_particles = n;
}

static void compute_density_pressure(void) {
#pragma omp parallel for default(none) shared(particles, n_particles, HSQ, MASS, POLY6, GAS_CONST, REST_DENS)
  for (int i = 0; i < n_particles; i++) {
    particle_t *pi = &particles[i];
    float rho = 0.0f;
    for (int j = 0; j < n_particles; j++) {
      const particle_t *pj = &particles[j];
      const float dx = pj->x - pi->x;
      const float dy = pj->y - pi->y;
      const float d2 = dx * dx + dy * dy;
      if (d2 < HSQ) {
        const float w = HSQ - d2;
        rho += MASS * POLY6 * w * w * w;
      }
    }
    pi->rho = rho;
    pi->p = GAS_CONST * (pi->rho - REST_DENS);
  }
}

static void compute_forces(void) {
#pragma omp parallel for default(none) shared(particles, n_particles, H, MASS, SPIKY_GRAD, VISC, VISC_LAP, GX, GY)
  for (int i = 0; i < n_particles; i++) {
    particle_t *pi = &particles[i];
    float fpress_x = 0.0f, fpress_y = 0.0f;
    float fvisc_x = 0.0f, fvisc_y = 0.0f;
    for (int j = 0; j < n_particles; j++) {
      const particle_t *pj = &particles[j];
      if (pi == pj)
        continue;
      const float dx = pj->x - pi->x;
      const float dy = pj->y - pi->y;
      const float dist = sqrtf(dx * dx + dy * dy) + 1e-6f;
      if (dist < H) {
        const float w = H - dist;
        const float press = MASS * (pi->p + pj->p) / (2.0f * pj->rho) *
                            SPIKY_GRAD * w * w * w;
        fpress_x += -dx / dist * press;
        fpress_y += -dy / dist * press;
        fvisc_x += VISC * MASS * (pj->vx - pi->vx) / pj->rho * VISC_LAP * w;
        fvisc_y += VISC * MASS * (pj->vy - pi->vy) / pj->rho * VISC_LAP * w;
      }
    }
    pi->fx = fpress_x + fvisc_x + GX * MASS / pi->rho;
    pi->fy = fpress_y + fvisc_y + GY * MASS / pi->rho;
  }
}

/* Explicit Euler, with the walls of the box reflecting and damping. */
static void integrate(void) {
  particle_t *end = particles + n_particles;
  for (particle_t *p = particles; p != end; ++p) {
    p->vx += DT * p->fx / p->rho;
    p->vy += DT * p->fy / p->rho;
    p->x += DT * p->vx;
    p->y += DT * p->vy;
    if (p->x - EPS < 0.0f) {
      p->vx *= BOUND_DAMPING;
      p->x = EPS;
    }
    if (p->x + EPS > VIEW_W) {
      p->vx *= BOUND_DAMPING;
      p->x = VIEW_W - EPS;
    }
    if (p->y - EPS < 0.0f) {
      p->vy *= BOUND_DAMPING;
      p->y = EPS;
    }
    if (p->y + EPS > VIEW_H) {
      p->vy *= BOUND_DAMPING;
      p->y = VIEW_H - EPS;
    }
  }
}

/* Sums in a fixed order, so the result is the same with any number of
   threads. */
static double kinetic_energy(void) {
  double e = 0.0;
  for (int i = 0; i < n_particles; i++) {
    const particle_t *p = &particles[i];
    e += 0.5 * MASS * ((double)p->vx * p->vx + (double)p->vy * p->vy);
  }
  return e;
}

int main(int argc, char **argv) {
  int n = 6000, steps = 8, arg = 1;
  if (arg < argc && strcmp(argv[arg], "--small") == 0) {
    n = 600;
    steps = 4;
    ++arg;
  }
  if (arg < argc)
    n = atoi(argv[arg++]);
  if (arg < argc)
    steps = atoi(argv[arg++]);
  if (n <= 0 || steps < 0 || arg < argc) {
    fprintf(stderr, "usage: %s [--small] [particles [steps]]\n", argv[0]);
    return 2;
  }
  POLY6 = 4.0f / ((float)M_PI * powf(H, 8.0f));
  SPIKY_GRAD = -10.0f / ((float)M_PI * powf(H, 5.0f));
  VISC_LAP = 40.0f / ((float)M_PI * powf(H, 5.0f));
  init_dam_break(n);
  for (int s = 0; s < steps; s++) {
    compute_density_pressure();
    compute_forces();
    integrate();
  }
  double y = 0.0;
  for (int i = 0; i < n_particles; i++)
    y += particles[i].y;
  printf("particles %d, steps %d: kinetic energy %.6e, mean height %.4f\n",
         n_particles, steps, kinetic_energy(), y / n_particles);
  free(particles);
  return 0;
}
