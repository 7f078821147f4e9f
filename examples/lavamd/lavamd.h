/* lavamd.h - shared declarations of the lavaMD-like example.
 *
 * Particles live in a 3-D grid of boxes; each particle interacts with the
 * particles of its own box and of the up to 26 neighbouring boxes. The
 * arrays of struct particle and struct box are allocated in main.c and
 * walked by the kernel in kernel.c: a whole program of two translation
 * units that share these records through this header.
 */
#ifndef LAVAMD_H
#define LAVAMD_H

/* One particle: position and charge, read together in the hot loop. */
struct particle {
  double x, y, z;
  double q;
};

/* The potential and force a particle accumulates. */
struct force {
  double v, x, y, z;
};

/* One box of the grid: its particles are [offset, offset + count). */
struct box {
  int offset;
  int count;
  int neighbours; /* how many entries of nei are used */
  int nei[26];    /* indices of the neighbouring boxes */
};

/* Fills the forces of every particle from its box and the neighbours. */
void lavamd_kernel(const struct box *boxes, int nboxes,
                   const struct particle *p, struct force *f, double alpha);

#endif
