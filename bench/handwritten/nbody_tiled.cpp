// nbody_tiled.cpp - examples/nbody-cpp/nbody.cpp in Tiled(16), written by
// hand.
//
// The yardstick for dl-refactor --layout=Body=tiled:16 on the C++ example:
// a std::vector of tiles of 16 bodies, each field a 16-float block, and the
// loops split into tile and lane loops plus one for the last, partial tile;
// the same arithmetic in the same order, so the output is identical.
// bench/run_benchmarks.py times the two against each other (target: within
// 2 %).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

constexpr float Softening = 1e-3f;
constexpr std::size_t T = 16;

struct Tile {
  float x[T], y[T], z[T], vx[T], vy[T], vz[T], m[T];
};

struct Bodies {
  std::vector<Tile> tiles;
  std::size_t n = 0;
  std::size_t size() const { return n; }
  void push_back(float x, float y, float z, float m) {
    if (n % T == 0)
      tiles.emplace_back();
    Tile &t = tiles.back();
    std::size_t l = n++ % T;
    t.x[l] = x;
    t.y[l] = y;
    t.z[l] = z;
    t.vx[l] = t.vy[l] = t.vz[l] = 0.0f;
    t.m[l] = m;
  }
};

#define AT(b, i, f) ((b).tiles[(i) / T].f[(i) % T])

static Bodies makeBodies(int n) {
  Bodies b;
  b.tiles.reserve((n + T - 1) / T);
  unsigned seed = 12345u;
  auto next = [&seed] {
    seed = seed * 1103515245u + 12345u;
    return seed;
  };
  for (int i = 0; i < n; ++i) {
    float x = float(next() % 2000) / 1000.0f - 1.0f;
    float y = float(next() % 2000) / 1000.0f - 1.0f;
    float z = float(next() % 2000) / 1000.0f - 1.0f;
    b.push_back(x, y, z, 1.0f + float(seed % 100) / 100.0f);
  }
  return b;
}

static void computeForces(Bodies &b, float dt) {
  const std::size_t n = b.size();
  for (std::size_t i = 0; i < n; ++i) {
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (std::size_t t = 0; t < n / T; ++t)
      for (std::size_t l = 0; l < T; ++l) {
        const Tile &tj = b.tiles[t];
        float dx = tj.x[l] - AT(b, i, x);
        float dy = tj.y[l] - AT(b, i, y);
        float dz = tj.z[l] - AT(b, i, z);
        float d2 = dx * dx + dy * dy + dz * dz + Softening;
        float inv = 1.0f / std::sqrt(d2);
        float s = tj.m[l] * inv * inv * inv;
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
      }
    for (std::size_t j = n / T * T; j < n; ++j) {
      float dx = AT(b, j, x) - AT(b, i, x);
      float dy = AT(b, j, y) - AT(b, i, y);
      float dz = AT(b, j, z) - AT(b, i, z);
      float d2 = dx * dx + dy * dy + dz * dz + Softening;
      float inv = 1.0f / std::sqrt(d2);
      float s = AT(b, j, m) * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    AT(b, i, vx) += dt * ax;
    AT(b, i, vy) += dt * ay;
    AT(b, i, vz) += dt * az;
  }
}

static void updatePositions(Bodies &b, float dt) {
  const std::size_t n = b.size();
  for (std::size_t t = 0; t < n / T; ++t)
    for (std::size_t l = 0; l < T; ++l) {
      Tile &tile = b.tiles[t];
      tile.x[l] += tile.vx[l] * dt;
      tile.y[l] += tile.vy[l] * dt;
      tile.z[l] += tile.vz[l] * dt;
    }
  for (std::size_t i = n / T * T; i < n; ++i) {
    AT(b, i, x) += AT(b, i, vx) * dt;
    AT(b, i, y) += AT(b, i, vy) * dt;
    AT(b, i, z) += AT(b, i, vz) * dt;
  }
}

static double checksum(const Bodies &b) {
  double sum = 0.0;
  for (std::size_t i = 0; i < b.size(); ++i)
    sum += AT(b, i, x) + 2.0 * AT(b, i, y) + 3.0 * AT(b, i, z) + AT(b, i, vx) +
           AT(b, i, vy) + AT(b, i, vz);
  return sum;
}

static double kineticEnergy(const Bodies &b) {
  double e = 0.0;
  for (std::size_t i = 0; i < b.size(); ++i)
    e += 0.5 * AT(b, i, m) *
         (AT(b, i, vx) * AT(b, i, vx) + AT(b, i, vy) * AT(b, i, vy) +
          AT(b, i, vz) * AT(b, i, vz));
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
