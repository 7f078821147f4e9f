// mesh.cpp - a small 2-D staggered-mesh hydrodynamics step, written as
// unstructured-mesh proxy apps write it: a value class for 2-D vectors with
// its own constructors, copy, assignment and operators; the mesh's point,
// zone and side arrays are members of a class, allocated with new[] in its
// constructor, released in its destructor, and reached from its member
// functions; each zone's quantities are gathered from its sides' points,
// and the sides' forces and masses are summed to the points by one member
// function template serving doubles and double2s alike.
//
// The mesh is a grid of nx x ny quadrilateral zones; each zone has four
// sides, each side one point (its corner). Per step: zone centres and
// areas from the points, a pressure force per side, the forces summed to
// the points, velocities and positions advanced.
//
// Usage: mesh [--small] [nx ny steps]   prints a checksum of the final
// positions and velocities, identical for every layout of struct double2.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

struct double2 {
  double x, y;
  double2() {}
  double2(double x_, double y_) : x(x_), y(y_) {}
  double2(const double2 &o) : x(o.x), y(o.y) {}
  double2 &operator=(const double2 &o) {
    x = o.x;
    y = o.y;
    return *this;
  }
  ~double2() {}
  double2 &operator+=(const double2 &o) {
    x += o.x;
    y += o.y;
    return *this;
  }
  double2 &operator-=(const double2 &o) {
    x -= o.x;
    y -= o.y;
    return *this;
  }
  double2 &operator*=(double s) {
    x *= s;
    y *= s;
    return *this;
  }
  double2 operator-() const { return double2(-x, -y); }
};

inline double2 operator+(const double2 &a, const double2 &b) {
  return double2(a.x + b.x, a.y + b.y);
}
inline double2 operator-(const double2 &a, const double2 &b) {
  return double2(a.x - b.x, a.y - b.y);
}
inline double2 operator*(const double2 &a, double s) {
  return double2(a.x * s, a.y * s);
}
inline double dot(const double2 &a, const double2 &b) {
  return a.x * b.x + a.y * b.y;
}
inline double cross(const double2 &a, const double2 &b) {
  return a.x * b.y - a.y * b.x;
}
// The normal of an edge, rotated a quarter turn.
inline double2 rotateCCW(const double2 &a) { return double2(-a.y, a.x); }

class Mesh {
public:
  int nump, numz, nums;
  double2 *px;   // point positions
  double2 *pu;   // point velocities
  double2 *pf;   // forces gathered at the points
  double *pmass; // point masses
  double2 *zx;   // zone centres
  double *zarea, *zp, *zm;
  double2 *sf;                  // side forces
  double *smass;                // side masses
  int *mapsp1, *mapsp2, *mapsz; // side -> its point, the next point, zone

  Mesh(int nx, int ny)
      : nump((nx + 1) * (ny + 1)), numz(nx * ny), nums(4 * nx * ny) {
    px = new double2[nump];
    pu = new double2[nump];
    pf = new double2[nump];
    pmass = new double[nump];
    zx = new double2[numz];
    zarea = new double[numz];
    zp = new double[numz];
    zm = new double[numz];
    sf = new double2[nums];
    smass = new double[nums];
    mapsp1 = new int[nums];
    mapsp2 = new int[nums];
    mapsz = new int[nums];
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) {
        int p = j * (nx + 1) + i;
        // A slightly distorted grid, so that no two zones are alike.
        px[p] =
            double2(i + 0.1 * std::sin(0.7 * j), j + 0.1 * std::cos(0.3 * i));
        pu[p] = double2(0.0, 0.0);
      }
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        int z = j * nx + i;
        int c[4] = {j * (nx + 1) + i, j * (nx + 1) + i + 1,
                    (j + 1) * (nx + 1) + i + 1, (j + 1) * (nx + 1) + i};
        for (int k = 0; k < 4; ++k) {
          mapsp1[4 * z + k] = c[k];
          mapsp2[4 * z + k] = c[(k + 1) % 4];
          mapsz[4 * z + k] = z;
        }
        zm[z] = 1.0 + 0.5 * ((i * 7 + j * 3) % 5);
      }
    for (int s = 0; s < nums; ++s)
      smass[s] = 0.125 * zm[mapsz[s]];
    sumToPoints(smass, pmass, 0.0);
  }

  ~Mesh() {
    delete[] px;
    delete[] pu;
    delete[] pf;
    delete[] pmass;
    delete[] zx;
    delete[] zarea;
    delete[] zp;
    delete[] zm;
    delete[] sf;
    delete[] smass;
    delete[] mapsp1;
    delete[] mapsp2;
    delete[] mapsz;
  }

  // Sums a quantity of the sides to their two points (PENNANT's
  // sumToPoints): the masses, doubles, and the forces, double2s.
  template <typename T>
  void sumToPoints(const T *svar, T *pvar, const T &zero) const {
    for (int p = 0; p < nump; ++p)
      pvar[p] = zero;
    for (int s = 0; s < nums; ++s) {
      pvar[mapsp1[s]] += svar[s];
      pvar[mapsp2[s]] += svar[s];
    }
  }

  // Zone centres and areas, gathered from the sides' points.
  void calcZones() {
    for (int z = 0; z < numz; ++z) {
      zx[z] = double2(0.0, 0.0);
      zarea[z] = 0.0;
    }
    for (int s = 0; s < nums; ++s) {
      int z = mapsz[s];
      zx[z] += px[mapsp1[s]] * 0.25;
      zarea[z] += 0.5 * cross(px[mapsp1[s]], px[mapsp2[s]]);
    }
    for (int z = 0; z < numz; ++z)
      zp[z] = zm[z] / zarea[z];
  }

  // Each side pushes its two points along its outward normal.
  void calcForces() {
    for (int s = 0; s < nums; ++s) {
      double2 edge = px[mapsp2[s]] - px[mapsp1[s]];
      sf[s] = -rotateCCW(edge) * (0.5 * zp[mapsz[s]]);
    }
    sumToPoints(sf, pf, double2(0.0, 0.0));
  }

  void advance(double dt) {
    for (int p = 0; p < nump; ++p) {
      double2 a = pf[p] * (1.0 / pmass[p]);
      pu[p] += a * dt;
      px[p] += pu[p] * dt;
    }
  }

  double checksum() const {
    double s = 0.0;
    for (int p = 0; p < nump; ++p)
      s += dot(px[p], px[p]) * 1e-3 + dot(pu[p], pu[p]);
    return s;
  }
};

int main(int argc, char **argv) {
  int nx = 800, ny = 800, steps = 100;
  int arg = 1;
  if (arg < argc && std::strcmp(argv[arg], "--small") == 0) {
    nx = ny = 24;
    steps = 5;
    ++arg;
  }
  if (arg + 2 < argc) {
    nx = std::atoi(argv[arg]);
    ny = std::atoi(argv[arg + 1]);
    steps = std::atoi(argv[arg + 2]);
  }
  Mesh mesh(nx, ny);
  for (int step = 0; step < steps; ++step) {
    mesh.calcZones();
    mesh.calcForces();
    mesh.advance(1e-4);
  }
  std::printf("mesh: %d x %d zones, %d steps, checksum %.10e\n", nx, ny, steps,
              mesh.checksum());
  return 0;
}
