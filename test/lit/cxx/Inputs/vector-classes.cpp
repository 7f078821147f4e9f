// Records that are C++ classes, kept in std::vector and std::array: default
// member initializers, constructors that only initialize fields, aggregate
// initialization and member functions. The program prints the same after
// the rewrite into each layout.
#include <array>
#include <cstdio>
#include <vector>

struct Agent {
  float x = 1.5f, y = -2.0f;
  int id = -1;
  double energy = 100;
  Agent() = default;
  Agent(float x, float y, int id) : x(x), y(y), id(id) {}
  explicit Agent(int id) : id(id), energy(id * 0.5) {}
  double dist2() const { return x * x + y * y; }
};

struct P {
  float x, y;
  int id;
};

int main() {
  std::vector<Agent> agents(3); // value-initialized: the initializers
  agents.resize(5);
  agents.emplace_back(0.5f, 0.25f, 7);
  agents.emplace_back(9);
  agents.push_back(Agent(1, 2, 3));
  agents.push_back({4, 5, 6});
  agents.emplace_back();
  std::vector<Agent> more(4, Agent(2));
  for (const Agent &a : more)
    agents.push_back(a);
  agents[1] = Agent(3, 4, 5);
  agents.at(2) = {6, 7, 8};
  for (auto &a : agents)
    a.energy -= a.dist2();
  double e = 0;
  for (std::size_t i = 0; i < agents.size(); ++i) {
    agents[i].x += agents[i].id;
    e += agents[i].energy * (i + 1) + agents[i].x + agents[i].y;
  }
  std::printf("agents %zu %.3f\n", agents.size(), e);

  std::array<Agent, 6> team; // each element gets the initializers
  team[1] = Agent(2);
  team.at(2) = {1, 1, 1};
  team.back().energy = 5;
  double t = 0;
  for (const auto &a : team)
    t += a.energy + a.dist2() + a.id;
  std::printf("team %.3f\n", t);

  std::vector<P> ps = {{1, 2, 3}, {4, 5, 6}};
  ps.push_back({7, 8, 9});
  ps.push_back(P{10, 11, 12});
  ps.emplace_back(P{13, 14, 15});
  ps.resize(7); // zeroes
  ps[5] = {16, 17, 18};
  P copy = ps[1];
  copy.x += 100;
  ps[6] = copy;
  float s = 0;
  for (std::size_t i = 0; i < ps.size(); ++i)
    s += (ps[i].x + 2 * ps[i].y) * (i + 1) + ps[i].id;
  std::printf("ps %zu %.2f\n", ps.size(), s);
  return 0;
}
