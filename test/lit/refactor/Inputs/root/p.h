/* A record in a header that project-root.test puts inside or outside the
   project root. */
typedef struct P {
  float x;
  float y;
  int id;
} P;

float kernel(P *a, int n);
