/* mosquito.c - an agent-based mosquito population model (after SAMPO).
 *
 * One agent struct of 12 fields; each step runs five kernels over all
 * agents, each touching its own subset of the fields:
 *   movement     x, y, heading, speed, seed
 *   ageing       age, stage, alive
 *   feeding      x, y, energy, blood, alive
 *   egg laying   stage, blood, energy, eggs
 *   death        age, energy, wing, alive, seed
 * The per-agent random state (seed) keeps every kernel independent of the
 * order agents are visited in.
 *
 * Usage: mosquito [--small] [agents steps]   prints population statistics,
 * identical for every layout of struct Mosquito.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORLD 1000.0f

struct Mosquito {
  float x, y;       /* position in the world, metres */
  float heading;    /* radians */
  float speed;      /* metres per step */
  int age;          /* steps since emergence */
  int stage;        /* 0 larva, 1 adult, 2 gravid female */
  float energy;     /* reserves, 0..1 */
  float blood;      /* blood meal, 0..1 */
  int eggs;         /* eggs laid so far */
  int alive;        /* 0 or 1 */
  float wing;       /* wing length, mm: larger lives longer */
  unsigned seed;    /* the agent's own random state */
};

/* Next uniform number in [0, 1) from the agent's state. */
static float uniform(unsigned *seed) {
  *seed = *seed * 1664525u + 1013904223u;
  return (float)(*seed >> 8) * (1.0f / 16777216.0f);
}

static void init_agents(struct Mosquito *m, int n) {
  for (int i = 0; i < n; ++i) {
    unsigned seed = 17u + 2654435761u * (unsigned)i;
    m[i].x = uniform(&seed) * WORLD;
    m[i].y = uniform(&seed) * WORLD;
    m[i].heading = uniform(&seed) * 6.2831853f;
    m[i].speed = 1.0f + uniform(&seed) * 4.0f;
    m[i].age = (int)(uniform(&seed) * 10.0f);
    m[i].stage = m[i].age > 5;
    m[i].energy = 0.5f + 0.5f * uniform(&seed);
    m[i].blood = 0.0f;
    m[i].eggs = 0;
    m[i].alive = 1;
    m[i].wing = 2.5f + uniform(&seed);
    m[i].seed = seed;
  }
}

static void movement(struct Mosquito *m, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    m[i].heading += (uniform(&m[i].seed) - 0.5f) * 0.5f;
    m[i].x += m[i].speed * cosf(m[i].heading);
    m[i].y += m[i].speed * sinf(m[i].heading);
    if (m[i].x < 0.0f || m[i].x > WORLD)
      m[i].x = fminf(fmaxf(m[i].x, 0.0f), WORLD);
    if (m[i].y < 0.0f || m[i].y > WORLD)
      m[i].y = fminf(fmaxf(m[i].y, 0.0f), WORLD);
  }
}

static void ageing(struct Mosquito *m, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    m[i].age += m[i].alive;
    if (m[i].stage == 0 && m[i].age > 5)
      m[i].stage = 1;
  }
}

/* Hosts stand on a 100 m grid: an agent close to one feeds. */
static void feeding(struct Mosquito *m, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    float dx = fmodf(m[i].x, 100.0f) - 50.0f;
    float dy = fmodf(m[i].y, 100.0f) - 50.0f;
    float near = dx * dx + dy * dy < 400.0f ? 1.0f : 0.0f;
    float meal = near * (1.0f - m[i].blood) * 0.5f * (float)m[i].alive;
    m[i].blood += meal;
    m[i].energy = fminf(1.0f, m[i].energy + 0.2f * meal) - 0.01f;
  }
}

static void egg_laying(struct Mosquito *m, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    if (m[i].stage >= 1 && m[i].blood > 0.6f) {
      m[i].eggs += (int)(m[i].blood * 100.0f);
      m[i].blood = 0.0f;
      m[i].energy -= 0.05f;
      m[i].stage = 2;
    }
  }
}

static void death(struct Mosquito *m, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    float risk = 0.002f * (float)m[i].age / m[i].wing +
                 (m[i].energy < 0.1f ? 0.2f : 0.0f);
    if (m[i].alive && uniform(&m[i].seed) < risk)
      m[i].alive = 0;
  }
}

int main(int argc, char **argv) {
  int n = 1 << 20, steps = 30;
  int arg = 1;
  if (arg < argc && strcmp(argv[arg], "--small") == 0) {
    n = 2000;
    steps = 5;
    ++arg;
  }
  if (arg + 1 < argc) {
    n = atoi(argv[arg]);
    steps = atoi(argv[arg + 1]);
  }
  if (n <= 0 || steps < 0) {
    fprintf(stderr, "usage: %s [--small] [agents steps]\n", argv[0]);
    return 2;
  }
  struct Mosquito *m = malloc((size_t)n * sizeof(struct Mosquito));
  if (!m) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  init_agents(m, n);
  for (int s = 0; s < steps; ++s) {
    movement(m, n);
    ageing(m, n);
    feeding(m, n);
    egg_laying(m, n);
    death(m, n);
  }
  long alive = 0, eggs = 0, gravid = 0;
  double where = 0.0;
  for (int i = 0; i < n; ++i) {
    alive += m[i].alive;
    eggs += m[i].eggs;
    gravid += m[i].stage == 2;
    where += m[i].x + m[i].y;
  }
  printf("mosquito: %d agents, %d steps: %ld alive, %ld gravid, %ld eggs, "
         "position checksum %.6e\n",
         n, steps, alive, gravid, eggs, where);
  free(m);
  return 0;
}
