/* A global array declared extern in a header, defined in data.c,
   allocated in alloc.c and used in loops in main.c. */
typedef struct { double e, w; int id; } Cell;
extern Cell *cells;
extern int ncells;
void alloc_cells(int n);
double step(void);
