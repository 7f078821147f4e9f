// A record and a function template over its arrays, in a header: the
// overload rewritten for the record is declared inline there, since every
// unit including the header defines it.
#ifndef PARTICLES_H
#define PARTICLES_H

struct Particle {
  double x, y, vx, vy, m;
};

template <typename T> double kinetic(const T *p, int n) {
  double e = 0;
  for (int i = 0; i < n; ++i)
    e += 0.5 * p[i].m * (p[i].vx * p[i].vx + p[i].vy * p[i].vy);
  return e;
}

#endif
