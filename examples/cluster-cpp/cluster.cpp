// cluster.cpp - online facility-location clustering of a stream of points,
// written as streaming clustering codes write it: each point is a weight, a
// pointer to its coordinates (one row of a separate block of floats), the
// centre it is assigned to and the cost of that assignment; the points are
// a member of a Points struct reached as points->p[i]; the stream is
// shuffled with whole-element swaps through a temporary; distances take
// two points by value.
//
// Per chunk of the stream: shuffle, open centres greedily where the
// assignment cost exceeds the facility cost (a speedy pass), then a few
// rounds of local search reassigning each point to its nearest open
// centre. Deterministic (its own random generator).
//
// Usage: cluster [--small] [points dim chunks]   prints the total cost and
// the number of centres, identical for every layout of struct Point.
#include <cstdio>
#include <cstdlib>
#include <cstring>

struct Point {
  float weight;
  float *coord;
  long assign; // the point's centre
  float cost;  // distance to it, times the weight
};

struct Points {
  long num;
  int dim;
  Point *p;
};

static unsigned long long seed = 88172645463325252ull;
static unsigned long next_random() {
  seed ^= seed << 13;
  seed ^= seed >> 7;
  seed ^= seed << 17;
  return (unsigned long)(seed >> 11);
}

// Squared distance, the points taken by value as the original code does.
static float dist(Point p1, Point p2, int dim) {
  float result = 0.0f;
  for (int i = 0; i < dim; i++)
    result += (p1.coord[i] - p2.coord[i]) * (p1.coord[i] - p2.coord[i]);
  return result;
}

static void shuffle(Points *points) {
  for (long i = 0; i < points->num - 1; i++) {
    long j = i + (long)(next_random() % (unsigned long)(points->num - i));
    Point temp = points->p[i];
    points->p[i] = points->p[j];
    points->p[j] = temp;
  }
}

// Opens a centre at each point whose cost to the nearest centre exceeds
// the facility cost; returns the number of centres.
static long speedy(Points *points, float z, long *centres) {
  long k = 0;
  for (long i = 0; i < points->num; i++) {
    points->p[i].assign = -1;
    points->p[i].cost = 0.0f;
  }
  for (long i = 0; i < points->num; i++) {
    float best = 0.0f;
    long to = -1;
    for (long c = 0; c < k; c++) {
      float d = dist(points->p[i], points->p[centres[c]], points->dim) *
                points->p[i].weight;
      if (to < 0 || d < best) {
        best = d;
        to = centres[c];
      }
    }
    if (to < 0 || best > z) {
      centres[k++] = i;
      points->p[i].assign = i;
      points->p[i].cost = 0.0f;
    } else {
      points->p[i].assign = to;
      points->p[i].cost = best;
    }
  }
  return k;
}

// Reassigns every point to its nearest centre; returns the total cost.
static double local_search(Points *points, const long *centres, long k,
                           float z) {
  double total = z * k;
  for (long i = 0; i < points->num; i++) {
    for (long c = 0; c < k; c++) {
      float d = dist(points->p[i], points->p[centres[c]], points->dim) *
                points->p[i].weight;
      if (d < points->p[i].cost) {
        points->p[i].cost = d;
        points->p[i].assign = centres[c];
      }
    }
    total += points->p[i].cost;
  }
  return total;
}

int main(int argc, char **argv) {
  long num = 20000, chunks = 4;
  int dim = 16;
  int arg = 1;
  if (arg < argc && std::strcmp(argv[arg], "--small") == 0) {
    num = 600;
    chunks = 2;
    ++arg;
  }
  if (arg + 2 < argc) {
    num = std::atol(argv[arg]);
    dim = std::atoi(argv[arg + 1]);
    chunks = std::atol(argv[arg + 2]);
  }
  float *block = new float[num * dim];
  Points points;
  points.num = num;
  points.dim = dim;
  points.p = new Point[num];
  long *centres = new long[num];
  double cost = 0.0;
  long k = 0;
  for (long chunk = 0; chunk < chunks; chunk++) {
    for (long i = 0; i < num; i++) {
      points.p[i].weight = 1.0f + (float)(next_random() % 4);
      points.p[i].coord = &block[i * dim];
      for (int d = 0; d < dim; d++)
        points.p[i].coord[d] =
            (float)(next_random() % 1000) / 100.0f + (float)(i % 7);
    }
    shuffle(&points);
    float z = 40.0f * dim;
    k = speedy(&points, z, centres);
    for (int round = 0; round < 3; round++)
      cost += local_search(&points, centres, k, z);
  }
  std::printf("cluster: %ld points, %d dimensions, %ld chunks: cost %.6e, "
              "%ld centres\n",
              num, dim, chunks, cost, k);
  delete[] centres;
  delete[] points.p;
  delete[] block;
  return 0;
}
