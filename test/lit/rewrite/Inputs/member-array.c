#include <stdio.h>

#define CAP 50

typedef struct Particle {
  float pos;
  float vel;
  int hits;
} Particle;

typedef struct World {
  int count;
  Particle items[CAP];
  double time;
} World;

static World world;

static void step(World *w, float dt) {
  for (int i = 0; i < w->count; ++i) {
    w->items[i].pos += w->items[i].vel * dt;
    if (w->items[i].pos > 10.0f)
      w->items[i].hits++;
  }
  w->time += dt;
}

int main(void) {
  World local = {0};
  world.count = CAP;
  local.count = 7;
  for (int i = 0; i < CAP; ++i) {
    world.items[i].pos = (float)i * 0.25f;
    world.items[i].vel = 1.0f + (float)(i % 3);
    local.items[i % 7].vel = 2.0f;
  }
  for (int s = 0; s < 20; ++s) {
    step(&world, 0.1f);
    step(&local, 0.2f);
  }
  Particle first = world.items[0];
  world.items[1] = first;
  long hits = 0;
  for (int i = 0; i < CAP; ++i)
    hits += world.items[i].hits + local.items[i].hits;
  printf("%.3f %.3f %ld %.1f\n", world.items[1].pos, local.items[3].pos, hits,
         world.time);
  return 0;
}
