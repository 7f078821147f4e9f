/* Only declares a function over the record: the analysis sees no use here,
   the rewrite would change the prototype. */
struct P;
void reset(struct P *a, int n);
