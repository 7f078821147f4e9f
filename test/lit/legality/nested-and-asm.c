// Anonymous records and inline asm block the rewrite; a pointer to the
// record stored in another record holds its handle (rewrite/pointer-members
// .test) and does not.
// RUN: %clang %dlopt -fsyntax-only -Xclang -verify %s

struct In { int a, b; }; // expected-remark {{struct In (8 B, 2 fields, 1 array, 1 kernel): {a} Tiled(256) | {b} AoS}}
struct Holder { struct In *items; int n; };
static struct Holder h;

static struct { int a, b; } anon[8]; // expected-remark {{struct <anonymous> (8 B, 2 fields, 1 array): not transformable: anonymous struct without a typedef: no name to generate code with}} expected-note {{blocks the rewrite: anonymous struct without a typedef}} expected-note {{blocks the rewrite: the struct's definition also declares variables; declare them separately}}

struct Asm { int a, b; }; // expected-remark {{not transformable: array used by inline asm}}
static struct Asm as[8];

int main(void) {
  int s = 0;
  for (int i = 0; i < 4; ++i)
    s += h.items[i].a + anon[i].b + as[i].a;
  __asm__ volatile("" : : "r"(as) : "memory"); // expected-note {{blocks the rewrite: array used by inline asm}}
  return s;
}
