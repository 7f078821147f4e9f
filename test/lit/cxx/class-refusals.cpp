// A C++ class whose elements do more than hold their fields when created,
// copied, assigned or destroyed is refused, each reason where it is
// declared; a class with plain member functions and defaulted special
// members is plain data and is planned.
// RUN: %dl-refactor-rules --report %s -- -std=c++17 | FileCheck %s
// RUN: %dl-refactor-rules --report %s -- -std=c++17 | FileCheck --check-prefix=PLAIN %s

#include <vector>

struct Virtual {
  float x, y;
  // CHECK-DAG: class-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: virtual function 'norm'
  virtual float norm() const { return x * x + y * y; }
};

struct Base { float w; };
// CHECK-DAG: class-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: base class 'Base' with fields
struct Derived : Base { float x, y; };

static int destroyed;
struct Counted {
  float x, y;
  // CHECK-DAG: class-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: user-provided destructor '~Counted': destroying an element runs it
  ~Counted() { ++destroyed; }
};

static int copies;
struct Copied {
  float x, y;
  Copied() = default;
  // CHECK-DAG: class-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: user-provided copy or move constructor: copying an element runs it
  Copied(const Copied &o) : x(o.x), y(o.y) { ++copies; }
  // CHECK-DAG: class-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: user-provided assignment operator: assigning an element runs it
  Copied &operator=(const Copied &o) { x = o.x; y = o.y; ++copies; return *this; }
};

// Constructors and initializers are kept for std::vector
// (vector-classes.cpp), not for plain arrays.
struct Initialized {
  // CHECK-DAG: class-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: default member initializer of 'x': plain arrays of the record are not initialized by it (std::vector is rewritten; initializers that zero every field are)
  float x = 1.0f;
  float y;
};

struct Constructed {
  float x, y;
  // CHECK-DAG: class-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: user-provided default constructor that does something: new T[n] and T a[N] run it for each element, and the new layout's arrays are not made of T (std::vector is rewritten)
  Constructed() : x(2), y(3) {}
};

// In a std::vector, what a constructor or initializer does beyond giving
// the fields values would run once per resize instead of once per element.
static int made;
struct Noisy {
  float x, y;
  // CHECK-DAG: class-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: constructor that does more than initialize the fields: the container would run it once per resize, not once per element
  Noisy() : x(0), y(0) { ++made; }
};
struct Numbered {
  float x, y;
  // CHECK-DAG: class-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: default member initializer of 'id' has side effects: the container would run it once per resize, not once per element
  int id = made++;
};
// CHECK-DAG: class-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: no default constructor (the element proxy converts to a default-constructed T)
struct NoDefault {
  float x, y;
  NoDefault(double x, float y) : x(x), y(y) {} // converts x: no fieldwise one
};

// CHECK-DAG: class-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: fields under different access control (not standard-layout)
class Mixed {
public:
  float x;
  float get() const { return y; }
private:
  float y;
};

struct Tag {};
// CHECK-DAG: class-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: base class 'Tag' (classes with bases are not rewritten)
struct Tagged : Tag { float x, y; };

struct Plain {
  float x, y;
  Plain() = default;
  Plain(const Plain &) = default;
  float norm() const { return x * x + y * y; }
};
// PLAIN: struct Plain at
// PLAIN-NOT: not transformable
// PLAIN: plan: Plain:

// A value class whose special members spell out what the implicit ones do
// (copy every field, an empty body), with constructors that make values
// and operators: planned like plain data.
struct Value {
  float x, y;
  Value() {}
  Value(float x, float y) : x(x), y(y) {}
  Value(const Value &o) : x(o.x), y(o.y) {}
  Value &operator=(const Value &o) {
    x = o.x;
    y = o.y;
    return *this;
  }
  ~Value() {}
  Value &operator+=(const Value &o) {
    x += o.x;
    y += o.y;
    return *this;
  }
};
// A copy that skips a field is not the implicit one.
struct Partial {
  float x, y;
  Partial() {}
  // CHECK-DAG: class-refusals.cpp:[[@LINE+1]]:{{[0-9]+}}: user-provided copy or move constructor: copying an element runs it
  Partial(const Partial &o) : x(o.x), y(o.x) {}
};
// PLAIN: struct Value at
// PLAIN-NOT: not transformable
// PLAIN: plan: Value:

static Virtual vs[64];
static Derived ds[64];
static Counted cs[64];
static Copied ps[64];
static Initialized is[64];
static Constructed ks[64];
static Mixed ms[64];
static Tagged ts[64];
static Plain pl[64];
static Value va[64];
static Partial pa[64];

int main() {
  std::vector<Noisy> noisy(64);
  std::vector<Numbered> numbered(64);
  std::vector<NoDefault> nodefault;
  for (int i = 0; i < 64; ++i)
    nodefault.emplace_back(i, i);
  float s = 0;
  for (int i = 0; i < 64; ++i)
    s += noisy[i].x + numbered[i].y + nodefault[i].x;
  for (int i = 0; i < 64; ++i) {
    vs[i].x = ds[i].x = cs[i].x = ps[i].x = is[i].y = ks[i].x = ms[i].x =
        ts[i].x = pl[i].x = va[i].x = pa[i].x = i;
    va[i] += Value(1, 2);
    s += vs[i].y + ds[i].y + cs[i].y + ps[i].y + is[i].x + ks[i].y +
         ms[i].get() + ts[i].y + pl[i].y;
  }
  return (int)s;
}
