/* mosquito.cl - the five kernels of the OpenCL agent model (mosquito.c is
 * its host program), one work-item per agent, each touching its own subset
 * of the 12 fields, as in examples/mosquito:
 *   movement     x, y, heading, speed, seed
 *   ageing       age, stage, alive
 *   feeding      x, y, energy, blood, alive
 *   egg laying   stage, blood, energy, eggs
 *   death        age, energy, wing, alive, seed
 */
#define WORLD 1000.0f

typedef struct Mosquito {
  float x, y;
  float heading;
  float speed;
  int age;
  int stage;
  float energy;
  float blood;
  int eggs;
  int alive;
  float wing;
  uint seed;
} Mosquito;

/* Next uniform number in [0, 1) from the agent's state. */
static float uniform(__global uint *seed) {
  *seed = *seed * 1664525u + 1013904223u;
  return (float)(*seed >> 8) * (1.0f / 16777216.0f);
}

__kernel void movement(__global Mosquito *m, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  m[i].heading += (uniform(&m[i].seed) - 0.5f) * 0.5f;
  m[i].x += m[i].speed * cos(m[i].heading);
  m[i].y += m[i].speed * sin(m[i].heading);
  if (m[i].x < 0.0f || m[i].x > WORLD)
    m[i].x = fmin(fmax(m[i].x, 0.0f), WORLD);
  if (m[i].y < 0.0f || m[i].y > WORLD)
    m[i].y = fmin(fmax(m[i].y, 0.0f), WORLD);
}

__kernel void ageing(__global Mosquito *m, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  m[i].age += m[i].alive;
  if (m[i].stage == 0 && m[i].age > 5)
    m[i].stage = 1;
}

/* Hosts stand on a 100 m grid: an agent close to one feeds. */
__kernel void feeding(__global Mosquito *m, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  float dx = fmod(m[i].x, 100.0f) - 50.0f;
  float dy = fmod(m[i].y, 100.0f) - 50.0f;
  float near = dx * dx + dy * dy < 400.0f ? 1.0f : 0.0f;
  float meal = near * (1.0f - m[i].blood) * 0.5f * (float)m[i].alive;
  m[i].blood += meal;
  m[i].energy = fmin(1.0f, m[i].energy + 0.2f * meal) - 0.01f;
}

__kernel void egg_laying(__global Mosquito *m, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  if (m[i].stage >= 1 && m[i].blood > 0.6f) {
    m[i].eggs += (int)(m[i].blood * 100.0f);
    m[i].blood = 0.0f;
    m[i].energy -= 0.05f;
    m[i].stage = 2;
  }
}

__kernel void death(__global Mosquito *m, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  float risk = 0.002f * (float)m[i].age / m[i].wing +
               (m[i].energy < 0.1f ? 0.2f : 0.0f);
  if (m[i].alive && uniform(&m[i].seed) < risk)
    m[i].alive = 0;
}
