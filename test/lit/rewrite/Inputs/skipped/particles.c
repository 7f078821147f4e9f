/* An SPH-style program with code for other configurations, in the style of
   codes that draw their particles when built with -DGUI: a branch the
   preprocessor skips names the particles. Written for dlopt's tests. */
#include "particles.h"
#include <stdio.h>
#include <stdlib.h>

static particle_t *particles;
static int n_particles = 400;

#if 0
/* Old code, built by no configuration. */
static void dump(void) { printf("%f\n", particles[0].x); }
#endif

#ifdef VERBOSE
/* Only a comment and a string name them: "particles". */
#define LOG(msg) puts("particles: " msg)
#else
#define LOG(msg) ((void)0)
#endif

#ifdef GUI
static void draw(void) {
  float cx = 0;
  for (int i = 0; i < n_particles; i++)
    cx += particles[i].x;
  printf("draw %.2f\n", cx);
}
#endif

static void step(float dt) {
  for (int i = 0; i < n_particles; i++) {
    particles[i].x += dt * particles[i].vx;
    particles[i].y += dt * particles[i].vy;
  }
}

int main(void) {
  particles = malloc((size_t)n_particles * sizeof(particle_t));
  if (!particles)
    return 1;
  for (int i = 0; i < n_particles; i++) {
    particles[i].x = i;
    particles[i].y = 0;
    particles[i].vx = 1;
    particles[i].vy = (i % 3) * 0.5f;
  }
  LOG("start");
  for (int s = 0; s < 10; s++)
    step(0.1f);
#ifdef GUI
  draw();
#endif
  float sum = 0;
  for (int i = 0; i < n_particles; i++)
    sum += particles[i].x + particles[i].y;
  printf("%.3f\n", sum);
  free(particles);
  return 0;
}
