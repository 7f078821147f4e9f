// mosquito.cpp - the agent-based mosquito model of examples/mosquito,
// written as modern C++ keeps it: a std::vector of agents filled with
// push_back, range-for kernels, per-agent random state passed by reference
// and a member function.
//
// Each step runs five kernels over all agents, each touching its own subset
// of the fields (movement: x, y, heading, speed, seed; ageing: age, stage,
// alive; feeding: x, y, energy, blood, alive; egg laying: stage, blood,
// energy, eggs; death: age, energy, wing, alive, seed).
//
// Usage: mosquito [--small] [agents steps]   prints population statistics,
// identical for every layout of struct Mosquito.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

constexpr float World = 1000.0f;

struct Mosquito {
  float x, y;     // position in the world, metres
  float heading;  // radians
  float speed;    // metres per step
  int age;        // steps since emergence
  int stage;      // 0 larva, 1 adult, 2 gravid female
  float energy;   // reserves, 0..1
  float blood;    // blood meal, 0..1
  int eggs;       // eggs laid so far
  int alive;      // 0 or 1
  float wing;     // wing length, mm: larger lives longer
  unsigned seed;  // the agent's own random state

  bool gravid() const { return stage == 2; }
};

// Next uniform number in [0, 1) from an agent's state.
static float uniform(unsigned &seed) {
  seed = seed * 1664525u + 1013904223u;
  return float(seed >> 8) * (1.0f / 16777216.0f);
}

static std::vector<Mosquito> hatch(int n) {
  std::vector<Mosquito> agents;
  for (int i = 0; i < n; ++i) {
    unsigned seed = 17u + 2654435761u * unsigned(i);
    Mosquito m;
    m.x = uniform(seed) * World;
    m.y = uniform(seed) * World;
    m.heading = uniform(seed) * 6.2831853f;
    m.speed = 1.0f + uniform(seed) * 4.0f;
    m.age = int(uniform(seed) * 10.0f);
    m.stage = m.age > 5;
    m.energy = 0.5f + 0.5f * uniform(seed);
    m.blood = 0.0f;
    m.eggs = 0;
    m.alive = 1;
    m.wing = 2.5f + uniform(seed);
    m.seed = seed;
    agents.push_back(m);
  }
  return agents;
}

static void movement(std::vector<Mosquito> &agents) {
  for (auto &m : agents) {
    m.heading += (uniform(m.seed) - 0.5f) * 0.5f;
    m.x += m.speed * std::cos(m.heading);
    m.y += m.speed * std::sin(m.heading);
    if (m.x < 0.0f || m.x > World)
      m.x = std::min(std::max(m.x, 0.0f), World);
    if (m.y < 0.0f || m.y > World)
      m.y = std::min(std::max(m.y, 0.0f), World);
  }
}

static void ageing(std::vector<Mosquito> &agents) {
  for (auto &m : agents) {
    m.age += m.alive;
    if (m.stage == 0 && m.age > 5)
      m.stage = 1;
  }
}

// Hosts stand on a 100 m grid: an agent close to one feeds.
static void feeding(std::vector<Mosquito> &agents) {
  for (std::size_t i = 0; i < agents.size(); ++i) {
    float dx = std::fmod(agents[i].x, 100.0f) - 50.0f;
    float dy = std::fmod(agents[i].y, 100.0f) - 50.0f;
    float near = dx * dx + dy * dy < 400.0f ? 1.0f : 0.0f;
    float meal =
        near * (1.0f - agents[i].blood) * 0.5f * float(agents[i].alive);
    agents[i].blood += meal;
    agents[i].energy = std::min(1.0f, agents[i].energy + 0.2f * meal) - 0.01f;
  }
}

static void eggLaying(std::vector<Mosquito> &agents) {
  for (auto &m : agents) {
    if (m.stage >= 1 && m.blood > 0.6f) {
      m.eggs += int(m.blood * 100.0f);
      m.blood = 0.0f;
      m.energy -= 0.05f;
      m.stage = 2;
    }
  }
}

static void death(std::vector<Mosquito> &agents) {
  for (auto &m : agents) {
    float risk = 0.002f * float(m.age) / m.wing + (m.energy < 0.1f ? 0.2f : 0.0f);
    if (m.alive && uniform(m.seed) < risk)
      m.alive = 0;
  }
}

int main(int argc, char **argv) {
  int n = 1 << 20, steps = 30;
  int arg = 1;
  if (arg < argc && std::strcmp(argv[arg], "--small") == 0) {
    n = 2000;
    steps = 5;
    ++arg;
  }
  if (arg + 1 < argc) {
    n = std::atoi(argv[arg]);
    steps = std::atoi(argv[arg + 1]);
  }
  if (n <= 0 || steps < 0) {
    std::fprintf(stderr, "usage: %s [--small] [agents steps]\n", argv[0]);
    return 2;
  }
  std::vector<Mosquito> agents = hatch(n);
  for (int s = 0; s < steps; ++s) {
    movement(agents);
    ageing(agents);
    feeding(agents);
    eggLaying(agents);
    death(agents);
  }
  long alive = 0, eggs = 0, gravid = 0;
  double where = 0.0;
  for (const Mosquito &m : agents) {
    alive += m.alive;
    eggs += m.eggs;
    gravid += m.gravid();
    where += m.x + m.y;
  }
  std::printf("mosquito: %d agents, %d steps: %ld alive, %ld gravid, %ld eggs, "
              "position checksum %.6e\n",
              n, steps, alive, gravid, eggs, where);
  return 0;
}
