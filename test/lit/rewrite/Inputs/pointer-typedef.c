/* Records declared with a pointer typedef in their definition, as the
   Olden benchmarks declare theirs (typedef struct vert_st {...} *Vertex;),
   with a block of vertices allocated at once and indexed in loops (also
   through an element pointer, whose sizeof(*v) reads nothing), and a
   record with both a name and a pointer typedef. Written for dlopt's
   tests. */
#include <stdio.h>
#include <stdlib.h>

typedef struct vert_st {
  int mindist;
  int next;
  float weight;
} *Vertex;

typedef struct edge {
  int from, to;
  double cost;
} Edge, *EdgePtr;

static long relax(Vertex block, EdgePtr edges, int n, int m) {
  long changed = 0;
  for (int e = 0; e < m; e++) {
    int d = block[edges[e].from].mindist + (int)edges[e].cost;
    if (d < block[edges[e].to].mindist) {
      block[edges[e].to].mindist = d;
      block[edges[e].to].next = edges[e].from;
      changed++;
    }
  }
  for (int i = 0; i < n; i++)
    block[i].weight = block[i].weight * 0.5f + (float)block[i].mindist;
  return changed;
}

/* A local that hides the typedef Edge: sizeof(*p) is the struct's size. */
static double edge_bytes(EdgePtr edges, int m) {
  double s = 0;
  for (int e = 0; e < m; e++) {
    EdgePtr p = &edges[e];
    int Edge = 2;
    s += p->cost * (double)sizeof(*p) + Edge;
  }
  return s;
}

int main(void) {
  int n = 200, m = 800;
  Vertex block = (Vertex)malloc(n * sizeof(struct vert_st));
  EdgePtr edges = malloc((size_t)m * sizeof(Edge));
  if (!block || !edges)
    return 1;
  for (int i = 0; i < n; i++) {
    block[i].mindist = i == 0 ? 0 : 9999999;
    block[i].next = -1;
    block[i].weight = 0;
  }
  for (int e = 0; e < m; e++) {
    edges[e].from = (e * 7) % n;
    edges[e].to = (e * 13 + 1) % n;
    edges[e].cost = 1 + e % 5;
  }
  long rounds = 0;
  while (relax(block, edges, n, m) && rounds < n)
    rounds++;
  long sum = 0;
  for (int i = 0; i < n; i++) {
    Vertex v = &block[i];
    sum += v->mindist + v->next + (long)v->weight + (long)sizeof(*v);
  }
  printf("%ld %ld %.1f\n", rounds, sum, edge_bytes(edges, m));
  free(edges);
  free(block);
  return 0;
}
