/* One record for the whole program: main.c and kernel/k.c include this
   header by different names. */
typedef struct P {
  float x;
  float y;
  int id;
} P;

float kernel(P *a, int n);
