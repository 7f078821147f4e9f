// The kernel of forces.c: one work-group per box, each box's atoms copied
// into a __local tile, interacting with the next box's.
#define PER_BOX 32
#define DOT(A, B) ((A.x) * (B.x) + (A.y) * (B.y) + (A.z) * (B.z))

typedef struct Atom {
  float v, x, y, z;
} Atom;

__kernel void box_forces(__global Atom *pos, __global Atom *force,
                         long boxes) {
  __local Atom home[PER_BOX];
  __local Atom other[PER_BOX];
  int box = get_group_id(0);
  int i = get_local_id(0);
  long next = (box + 1) % boxes;
  home[i] = pos[box * PER_BOX + i];
  other[i] = pos[next * PER_BOX + i];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int j = 0; j < PER_BOX; ++j) {
    float r2 = home[i].v + other[j].v - DOT(home[i], other[j]);
    float s = 2 * exp(-0.5f * r2);
    force[box * PER_BOX + i].v += s;
    force[box * PER_BOX + i].x += s * (home[i].x - other[j].x);
    force[box * PER_BOX + i].y += s * (home[i].y - other[j].y);
    force[box * PER_BOX + i].z += s * (home[i].z - other[j].z);
  }
}
