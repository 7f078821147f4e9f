// Function templates over arrays of a record, in the styles real C++ codes
// write them: a copy of an element spelled with the template parameter, a
// defaulted non-type parameter, a template instantiated for doubles too,
// recursion over sub-arrays, a member function template, a template in a
// header, and calls spelling the template arguments the arguments deduce.
// Each instantiation for Particle gets an overload of its own.
#include "particles.h"
#include <cstdio>

template <typename T, int Substeps = 2> void drift(T *p, int n, double dt) {
  for (int k = 0; k < Substeps; ++k)
    for (int i = 0; i < n; ++i) {
      T q = p[i];
      q.x += q.vx * dt / Substeps;
      q.y += q.vy * dt / Substeps;
      p[i] = q;
    }
}

template <typename T> void gather(const T *src, T *dst, const int *map, int n) {
  for (int i = 0; i < n; ++i)
    dst[i] = src[map[i]];
}

template <typename T> double sumMass(const T *p, int n) {
  if (n == 1)
    return p[0].m;
  return sumMass(p, n / 2) + sumMass(p + n / 2, n - n / 2);
}

struct System {
  Particle *parts;
  int n;

  template <typename T> void kick(T *p, const double *ax, double dt) const {
    for (int i = 0; i < n; ++i) {
      p[i].vx += ax[i] * dt;
      p[i].vy -= 9.81 * dt;
    }
  }

  void step(Particle *tmp, const int *order, const double *ax, double dt) {
    kick<Particle>(parts, ax, dt);
    drift(parts, n, dt);
    gather<Particle>(parts, tmp, order, n);
    gather(tmp, parts, order, n);
  }
};

int main() {
  const int n = 1000;
  static Particle tmp[n];
  static double w[n], wtmp[n];
  static int order[n];
  System s;
  s.parts = new Particle[n];
  s.n = n;
  for (int i = 0; i < n; ++i) {
    s.parts[i] = Particle{0.001 * i, 0.5 * (i % 17), 1.0 - 0.002 * i,
                          0.01 * (i % 5), 1.0 + 0.1 * (i % 3)};
    order[i] = (i * 7) % n;
    w[i] = 0.5 * i;
  }
  for (int step = 0; step < 10; ++step) {
    s.step(tmp, order, w, 0.01);
    gather(w, wtmp, order, n);
    gather(wtmp, w, order, n);
  }
  std::printf("kinetic %.9f mass %.9f x %.9f y %.9f w %.3f\n",
              kinetic(s.parts, n), sumMass(s.parts, n), s.parts[3].x,
              tmp[999].y, w[5]);
  delete[] s.parts;
  return 0;
}
