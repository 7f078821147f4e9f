// nbody_soa.cpp - examples/nbody-cpp/nbody.cpp in SoA, written by hand.
//
// The yardstick for dl-refactor --layout=Body=soa on the C++ example: one
// std::vector per field and index loops, the same arithmetic in the same
// order, so the output is identical; bench/run_benchmarks.py times the two
// against each other (target: within 2 %).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

constexpr float Softening = 1e-3f;

struct Bodies {
  std::vector<float> x, y, z, vx, vy, vz, m;
  std::size_t size() const { return x.size(); }
};

static Bodies makeBodies(int n) {
  Bodies b;
  unsigned seed = 12345u;
  auto next = [&seed] {
    seed = seed * 1103515245u + 12345u;
    return seed;
  };
  for (int i = 0; i < n; ++i) {
    float x = float(next() % 2000) / 1000.0f - 1.0f;
    float y = float(next() % 2000) / 1000.0f - 1.0f;
    float z = float(next() % 2000) / 1000.0f - 1.0f;
    b.x.push_back(x);
    b.y.push_back(y);
    b.z.push_back(z);
    b.vx.push_back(0.0f);
    b.vy.push_back(0.0f);
    b.vz.push_back(0.0f);
    b.m.push_back(1.0f + float(seed % 100) / 100.0f);
  }
  return b;
}

static void computeForces(Bodies &b, float dt) {
  const std::size_t n = b.size();
  for (std::size_t i = 0; i < n; ++i) {
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (std::size_t j = 0; j < n; ++j) {
      float dx = b.x[j] - b.x[i];
      float dy = b.y[j] - b.y[i];
      float dz = b.z[j] - b.z[i];
      float d2 = dx * dx + dy * dy + dz * dz + Softening;
      float inv = 1.0f / std::sqrt(d2);
      float s = b.m[j] * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    b.vx[i] += dt * ax;
    b.vy[i] += dt * ay;
    b.vz[i] += dt * az;
  }
}

static void updatePositions(Bodies &b, float dt) {
  for (std::size_t i = 0; i < b.size(); ++i) {
    b.x[i] += b.vx[i] * dt;
    b.y[i] += b.vy[i] * dt;
    b.z[i] += b.vz[i] * dt;
  }
}

static double checksum(const Bodies &b) {
  double sum = 0.0;
  for (std::size_t i = 0; i < b.size(); ++i)
    sum += b.x[i] + 2.0 * b.y[i] + 3.0 * b.z[i] + b.vx[i] + b.vy[i] + b.vz[i];
  return sum;
}

static double kineticEnergy(const Bodies &b) {
  double e = 0.0;
  for (std::size_t i = 0; i < b.size(); ++i)
    e += 0.5 * b.m[i] *
         (b.vx[i] * b.vx[i] + b.vy[i] * b.vy[i] + b.vz[i] * b.vz[i]);
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

  Bodies bodies = makeBodies(n);
  for (int s = 0; s < steps; ++s) {
    computeForces(bodies, 0.01f);
    updatePositions(bodies, 0.01f);
  }
  std::printf("nbody: %d bodies, %d steps, checksum %.6e, kinetic %.6e\n", n,
              steps, checksum(bodies), kineticEnergy(bodies));
  return 0;
}
