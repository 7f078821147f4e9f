// A call into the C++ library is judged by what it inlines to: std::sqrt
// on a float is __builtin_sqrtf, which sets errno, so the loop stays
// scalar unless -fno-math-errno / -ffast-math; std::min and the vector's
// own operator[] inline to plain code, and their returns end the call, not
// the loop.
// RUN: %dl-refactor-rules --report --format=json %s -- -std=c++17 | FileCheck --check-prefix=ERRNO %s
// RUN: %dl-refactor-rules --report --format=json %s -- -std=c++17 -fno-math-errno | FileCheck --check-prefix=NOERRNO %s
#include <algorithm>
#include <cmath>

struct P { float x, y; };

static P ps[1024];

int main() {
  for (int i = 0; i < 1024; ++i)
    ps[i].y = std::sqrt(ps[i].x);
  // ERRNO: "location": "{{.*}}library-calls.cpp:[[@LINE-1]]:11",
  // ERRNO-NEXT: "loop_depth": 1,
  // ERRNO-NEXT: "loop_indexed": true,
  // ERRNO-NEXT: "position": {{[0-9]+}},
  // ERRNO-NEXT: "vectorizable": false
  // NOERRNO: "location": "{{.*}}library-calls.cpp:[[@LINE-6]]:11",
  // NOERRNO-NEXT: "loop_depth": 1,
  // NOERRNO-NEXT: "loop_indexed": true,
  // NOERRNO-NEXT: "position": {{[0-9]+}},
  // NOERRNO-NEXT: "vectorizable": true
  for (int i = 0; i < 1024; ++i)
    ps[i].x = std::min(ps[i].x, 1.0f);
  // ERRNO: "location": "{{.*}}library-calls.cpp:[[@LINE-1]]:11",
  // ERRNO-NEXT: "loop_depth": 1,
  // ERRNO-NEXT: "loop_indexed": true,
  // ERRNO-NEXT: "position": {{[0-9]+}},
  // ERRNO-NEXT: "vectorizable": true
  return ps[3].y > 0;
}
