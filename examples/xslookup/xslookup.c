/* A macroscopic cross-section lookup, in the style of the Monte Carlo
   neutron transport proxy apps: every nuclide has an energy grid of points,
   each point with the energy and five cross sections. A particle of random
   energy in a random material looks up, for every nuclide of the material,
   the grid interval around its energy by binary search on one nuclide's
   grid (a sub-array of the whole grid), and interpolates the five cross
   sections between the interval's two ends (element pointers low and
   high = low + 1). The grids hang off a struct of simulation data (a
   pointer member), are filled with random points and sorted by energy with
   qsort, one nuclide's sub-array at a time, and the lookups run in an
   OpenMP loop. Written for dlopt's examples.

   Usage: xslookup [--small] [lookups]   (default 68 nuclides of 4000
   points, 600000 lookups; --small: 12 nuclides of 300 points, 20000
   lookups, for tests)
   Prints a checksum that does not depend on the number of threads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  double energy;
  double total_xs;
  double elastic_xs;
  double absorption_xs;
  double fission_xs;
  double nu_fission_xs;
} NuclideGridPoint;

#define N_MATERIALS 12

typedef struct {
  int n_nuclides;
  long n_gridpoints;
  long lookups;
  NuclideGridPoint *nuclide_grid; /* n_nuclides grids of n_gridpoints */
  int num_nucs[N_MATERIALS];      /* nuclides in each material */
  int *mats;                      /* N_MATERIALS rows of n_nuclides */
  double *concs;                  /* their concentrations */
} SimulationData;

/* A 64-bit linear congruential generator: the same stream on every
   machine, and one stream per lookup, so threads may take lookups in any
   order. */
static double lcg_next(unsigned long *seed) {
  *seed = 2806196910506780709UL * *seed + 1UL;
  return (double)(*seed >> 11) / (double)(1UL << 53);
}

static int compare_energy(const void *a, const void *b) {
  const NuclideGridPoint *i = (const NuclideGridPoint *)a;
  const NuclideGridPoint *j = (const NuclideGridPoint *)b;
  if (i->energy > j->energy)
    return 1;
  if (i->energy < j->energy)
    return -1;
  return 0;
}

/* Random points, each nuclide's grid sorted by energy. */
static void generate_grids(SimulationData *sd) {
  unsigned long seed = 42;
  long points = sd->n_nuclides * sd->n_gridpoints;
  for (long i = 0; i < points; i++) {
    NuclideGridPoint *p = &sd->nuclide_grid[i];
    p->energy = lcg_next(&seed);
    p->total_xs = lcg_next(&seed);
    p->elastic_xs = lcg_next(&seed);
    p->absorption_xs = lcg_next(&seed);
    p->fission_xs = lcg_next(&seed);
    p->nu_fission_xs = lcg_next(&seed);
  }
  for (int n = 0; n < sd->n_nuclides; n++)
    qsort(&sd->nuclide_grid[n * sd->n_gridpoints], sd->n_gridpoints,
          sizeof(NuclideGridPoint), compare_energy);
}

/* Materials: material m holds nuclides 0..num_nucs[m]-1 shifted by m, with
   random concentrations. */
static void generate_materials(SimulationData *sd) {
  unsigned long seed = 7;
  sd->mats = malloc(sizeof(int) * N_MATERIALS * sd->n_nuclides);
  sd->concs = malloc(sizeof(double) * N_MATERIALS * sd->n_nuclides);
  for (int m = 0; m < N_MATERIALS; m++) {
    sd->num_nucs[m] = sd->n_nuclides / 2 + (m * 5) % (sd->n_nuclides / 2);
    for (int k = 0; k < sd->num_nucs[m]; k++) {
      sd->mats[m * sd->n_nuclides + k] = (k + 3 * m) % sd->n_nuclides;
      sd->concs[m * sd->n_nuclides + k] = lcg_next(&seed);
    }
  }
}

/* The index of the last point of grid[0..n) whose energy is below
   quarry (0 if none, n - 2 at most, so that index + 1 is a point too). */
static long grid_search(long n, double quarry, NuclideGridPoint *grid) {
  long lower = 0, upper = n - 1;
  while (upper - lower > 1) {
    long mid = lower + (upper - lower) / 2;
    if (grid[mid].energy > quarry)
      upper = mid;
    else
      lower = mid;
  }
  return lower;
}

/* One nuclide's five cross sections at energy e, interpolated. */
static void micro_xs(double e, int nuc, const SimulationData *sd,
                     double xs[5]) {
  long idx = grid_search(sd->n_gridpoints, e,
                         &sd->nuclide_grid[nuc * sd->n_gridpoints]);
  NuclideGridPoint *low = &sd->nuclide_grid[nuc * sd->n_gridpoints + idx];
  NuclideGridPoint *high = low + 1;
  double f = (high->energy - e) / (high->energy - low->energy);
  xs[0] = high->total_xs - f * (high->total_xs - low->total_xs);
  xs[1] = high->elastic_xs - f * (high->elastic_xs - low->elastic_xs);
  xs[2] = high->absorption_xs - f * (high->absorption_xs - low->absorption_xs);
  xs[3] = high->fission_xs - f * (high->fission_xs - low->fission_xs);
  xs[4] = high->nu_fission_xs - f * (high->nu_fission_xs - low->nu_fission_xs);
}

/* The material's macroscopic cross sections at energy e. */
static void macro_xs(double e, int mat, const SimulationData *sd,
                     double macro[5]) {
  for (int k = 0; k < 5; k++)
    macro[k] = 0.0;
  for (int j = 0; j < sd->num_nucs[mat]; j++) {
    double micro[5];
    int nuc = sd->mats[mat * sd->n_nuclides + j];
    double conc = sd->concs[mat * sd->n_nuclides + j];
    micro_xs(e, nuc, sd, micro);
    for (int k = 0; k < 5; k++)
      macro[k] += micro[k] * conc;
  }
}

/* Every lookup adds the index of its largest cross section and a rounded
   total to the checksum: integers, so the sum does not depend on the
   order in which threads add them. */
static unsigned long run_lookups(const SimulationData *sd) {
  unsigned long checksum = 0;
#pragma omp parallel for schedule(dynamic, 256) reduction(+ : checksum)
  for (long i = 0; i < sd->lookups; i++) {
    unsigned long seed = 1000003UL * (unsigned long)i + 12345UL;
    double e = lcg_next(&seed);
    int mat = (int)(lcg_next(&seed) * N_MATERIALS);
    double macro[5];
    macro_xs(e, mat, sd, macro);
    int max_idx = 0;
    for (int k = 1; k < 5; k++)
      if (macro[k] > macro[max_idx])
        max_idx = k;
    checksum += (unsigned long)max_idx + 1 +
                (unsigned long)(macro[0] * 1000.0) % 1009;
  }
  return checksum;
}

int main(int argc, char **argv) {
  SimulationData sd;
  memset(&sd, 0, sizeof sd);
  sd.n_nuclides = 68;
  sd.n_gridpoints = 4000;
  sd.lookups = 600000;
  int arg = 1;
  if (arg < argc && strcmp(argv[arg], "--small") == 0) {
    sd.n_nuclides = 12;
    sd.n_gridpoints = 300;
    sd.lookups = 20000;
    arg++;
  }
  if (arg < argc)
    sd.lookups = atol(argv[arg++]);
  if (sd.lookups <= 0 || arg < argc) {
    fprintf(stderr, "usage: %s [--small] [lookups]\n", argv[0]);
    return 2;
  }
  long points = sd.n_nuclides * sd.n_gridpoints;
  sd.nuclide_grid = malloc(points * sizeof(NuclideGridPoint));
  if (!sd.nuclide_grid) {
    fprintf(stderr, "xslookup: cannot allocate %ld grid points\n", points);
    return 1;
  }
  generate_grids(&sd);
  generate_materials(&sd);
  unsigned long checksum = run_lookups(&sd);
  printf("nuclides %d, points %ld, lookups %ld\n", sd.n_nuclides,
         sd.n_gridpoints, sd.lookups);
  printf("checksum %lu\n", checksum);
  free(sd.nuclide_grid);
  free(sd.mats);
  free(sd.concs);
  return 0;
}
