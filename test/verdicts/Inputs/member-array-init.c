// An initializer that sets an array member whose elements would be
// regrouped: refused in the report, kept by --apply.
struct P { float x, y; };
struct Box { struct P items[4]; int n; };
static struct Box b = {{{1, 2}}, 1};
int main(void) { float s = 0; for (int i = 0; i < 4; ++i) s += b.items[i].x; return (int)s; }
