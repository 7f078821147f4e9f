/* No include guard: read twice by more.c; its branch is skipped both times. */
#ifdef GUI
static void draw_first(void) { printf("%f\n", cells[0].x); }
#endif
