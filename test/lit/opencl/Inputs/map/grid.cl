// The kernel of grid.c: one work-item per cell.
typedef struct Cell {
  float rho, u, v, e;
  float fx, fy;
  int n, flag;
} Cell;

__kernel void relax(__global Cell *c, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  c[i].fx = 0.5f * (c[i].u - c[i].v);
  c[i].fy = 0.25f * c[i].rho;
  c[i].e -= 0.125f * c[i].fx * c[i].fx;
  c[i].rho = 0.9f * c[i].rho + 0.1f * c[i].e;
  c[i].n += c[i].flag;
}
