// A record with arrays reached through qualified names: a class's static
// member defined outside it, an out-of-class member function and a
// namespace's function returning arrays, and a const table in a header
// and a const pointer into it (internal linkage in C++: each file that
// includes them has its own).
#ifndef POOL_H
#define POOL_H

struct P {
  double x, y;
  int id;
};

const P table[3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
const P *const middle = table + 1;

struct Pool {
  static P *parts;
  static int n;
  P *make(int count);
  static double energy();
};

namespace io {
P *load(int count);
}

double tableSum();

#endif
