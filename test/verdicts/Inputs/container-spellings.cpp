// Spellings of a std::vector of a record that the rewrite cannot rename:
// sizeof of the vector, the vector as a template argument. The report
// blocks the record; --apply keeps it.
#include <cstdio>
#include <utility>
#include <vector>

struct Agent {
  float x, v;
};

// Only the spellings: no use of a vector variable blocks the record here.
using Tagged = std::pair<std::vector<Agent>, int>;
static_assert(sizeof(std::vector<Agent>) >= sizeof(void *), "a vector");

int main() {
  std::vector<Agent> agents(64, Agent{1, 2});
  for (auto &a : agents)
    a.x += a.v;
  std::printf("%zu %.1f\n", sizeof(Tagged) > 0 ? agents.size() : 0,
              agents[3].x);
  return 0;
}
