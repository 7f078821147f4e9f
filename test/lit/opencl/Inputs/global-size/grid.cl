// The kernels of host.c (global-size.test), one work-item per cell.
typedef struct Cell {
  float u, v;
  float w, h;
} Cell;

__kernel void diffuse(__global Cell *c, int n) {
  int i = get_global_id(0);
  if (i < n)
    c[i].u += 0.25f * c[i].v;
}

__kernel void boundary(__global Cell *c) {
  int i = get_global_id(0);
  c[i].v = -c[i].v;
}

__kernel void plane(__global Cell *c, int width) {
  int i = get_global_id(1) * width + get_global_id(0);
  c[i].w += c[i].h;
}

__kernel void probe(__global Cell *c) {
  int i = get_global_id(0);
  c[i].h *= 0.5f;
}

__kernel void relax(__global Cell *c, int n) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    c[i].u *= 0.9f;
}

__kernel void mixed(__global Cell *c) {
  int i = get_global_id(0);
  c[i].w = c[i].u;
}

__kernel void rewritten(__global Cell *c) {
  int i = get_global_id(0);
  c[i].h = c[i].v;
}

__kernel void halo(__global Cell *c) {
  int i = get_global_id(0);
  c[i].u -= c[i].w;
}

__kernel void sheet(__global Cell *c) {
  int i = get_global_id(0);
  c[i].v += c[i].w;
}

__kernel void resized(__global Cell *c) {
  int i = get_global_id(0);
  c[i].w *= 2.0f;
}

__kernel void filled(__global Cell *c) {
  int i = get_global_id(0);
  c[i].h += 1.0f;
}
