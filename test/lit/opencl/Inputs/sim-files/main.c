#include "sim.h"

int main(int argc, char **argv) {
  (void)argc;
  Sim s;
  sim_init(&s, argv[0], 1000);
  for (int step = 0; step < 50; ++step)
    sim_step(&s, 0.5f);
  sim_free(&s);
  return 0;
}
