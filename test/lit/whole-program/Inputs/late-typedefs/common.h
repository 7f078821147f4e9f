#ifndef COMMON_H
#define COMMON_H
#include <stdlib.h>
#include <string.h>

/* One record for positions, velocities and forces, named by typedefs
   declared after it, as small MD codes do. */
struct triple {
  double x;
  double y;
  double z;
};
typedef struct triple pos_t;
typedef struct triple vel_t;
typedef struct triple frc_t;

void calc_forces(frc_t *forces, const pos_t *positions, int n);
#endif
