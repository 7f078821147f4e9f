// Record shapes the rewriter does not take: bit-fields, packed and aligned
// records, volatile and _Atomic fields, flexible array members, unions.
// RUN: %clang %dlopt -fsyntax-only -Xclang -verify %s

struct Bits { int a : 3; int b; }; // expected-remark {{struct Bits (8 B, 2 fields, 1 array): not transformable: bit-field 'a'}} expected-note {{blocks the rewrite: bit-field 'a'}}
struct __attribute__((packed)) Packed { char c; int i; }; // expected-remark {{not transformable: the struct is packed}} expected-note {{blocks the rewrite: the struct is packed}}
struct __attribute__((aligned(64))) Aligned { int i; }; // expected-remark {{not transformable: the struct has an aligned attribute}} expected-note {{blocks the rewrite: the struct has an aligned attribute}}
struct Vol { volatile int v; int w; }; // expected-remark {{not transformable: volatile field 'v'}}
// expected-note@-1 {{blocks the rewrite: volatile field 'v'}}
struct Atom { _Atomic int v; int w; }; // expected-remark {{not transformable: _Atomic field 'v'}}
// expected-note@-1 {{blocks the rewrite: _Atomic field 'v'}}
struct InUnion { int a, b; }; // expected-remark {{not transformable: member of union 'U'}}
union U { struct InUnion s; int raw[2]; }; // expected-note {{blocks the rewrite: member of union 'U'}}
struct Outer { struct Inner { int x; } in; union { int y; float z; }; }; // expected-remark {{not transformable: field '' is a union or anonymous member}}
// expected-note@-1 {{blocks the rewrite: field '' is a union or anonymous member}}

static struct Bits bits[8];
static struct Packed packed[8];
static struct Aligned aligned[8];
static struct Vol vol[8];
static struct Atom atom[8];
static struct InUnion inunion[8];
static struct Outer outer[8];

int main(void) {
  int s = 0;
  for (int i = 0; i < 8; ++i)
    s += bits[i].b + packed[i].i + aligned[i].i + vol[i].w + atom[i].w +
         inunion[i].a + outer[i].y;
  return s;
}
