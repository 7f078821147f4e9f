// nbody.cpp - the all-pairs n-body simulation of examples/nbody, written as
// modern C++ keeps it: a std::vector of bodies, range-for loops and a
// member function.
//
// Usage: nbody [--small] [bodies steps]   prints a checksum of the final
// state, identical for every layout of struct Body.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

constexpr float Softening = 1e-3f;

struct Body {
  float x, y, z;
  float vx, vy, vz;
  float m;

  double kinetic() const { return 0.5 * m * (vx * vx + vy * vy + vz * vz); }
};

static std::vector<Body> makeBodies(int n) {
  std::vector<Body> bodies;
  bodies.reserve(n);
  unsigned seed = 12345u;
  auto next = [&seed] {
    seed = seed * 1103515245u + 12345u;
    return seed;
  };
  for (int i = 0; i < n; ++i) {
    Body b{};
    b.x = float(next() % 2000) / 1000.0f - 1.0f;
    b.y = float(next() % 2000) / 1000.0f - 1.0f;
    b.z = float(next() % 2000) / 1000.0f - 1.0f;
    b.m = 1.0f + float(seed % 100) / 100.0f;
    bodies.push_back(b);
  }
  return bodies;
}

// Accelerations from all other bodies, integrated into the velocities.
static void computeForces(std::vector<Body> &bodies, float dt) {
  const std::size_t n = bodies.size();
  for (std::size_t i = 0; i < n; ++i) {
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (std::size_t j = 0; j < n; ++j) {
      float dx = bodies[j].x - bodies[i].x;
      float dy = bodies[j].y - bodies[i].y;
      float dz = bodies[j].z - bodies[i].z;
      float d2 = dx * dx + dy * dy + dz * dz + Softening;
      float inv = 1.0f / std::sqrt(d2);
      float s = bodies[j].m * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    bodies[i].vx += dt * ax;
    bodies[i].vy += dt * ay;
    bodies[i].vz += dt * az;
  }
}

static void updatePositions(std::vector<Body> &bodies, float dt) {
  for (auto &b : bodies) {
    b.x += b.vx * dt;
    b.y += b.vy * dt;
    b.z += b.vz * dt;
  }
}

static double checksum(const std::vector<Body> &bodies) {
  double sum = 0.0;
  for (const Body &b : bodies)
    sum += b.x + 2.0 * b.y + 3.0 * b.z + b.vx + b.vy + b.vz;
  return sum;
}

static double kineticEnergy(const std::vector<Body> &bodies) {
  double e = 0.0;
  for (std::size_t i = 0; i < bodies.size(); ++i)
    e += bodies[i].kinetic();
  return e;
}

int main(int argc, char **argv) {
  int n = 4096, steps = 10;
  int arg = 1;
  if (arg < argc && std::strcmp(argv[arg], "--small") == 0) {
    n = 256;
    steps = 3;
    ++arg;
  }
  if (arg + 1 < argc) {
    n = std::atoi(argv[arg]);
    steps = std::atoi(argv[arg + 1]);
  }
  if (n <= 0 || steps < 0) {
    std::fprintf(stderr, "usage: %s [--small] [bodies steps]\n", argv[0]);
    return 2;
  }

  std::vector<Body> bodies = makeBodies(n);
  for (int s = 0; s < steps; ++s) {
    computeForces(bodies, 0.01f);
    updatePositions(bodies, 0.01f);
  }
  std::printf("nbody: %d bodies, %d steps, checksum %.6e, kinetic %.6e\n", n,
              steps, checksum(bodies), kineticEnergy(bodies));
  return 0;
}
