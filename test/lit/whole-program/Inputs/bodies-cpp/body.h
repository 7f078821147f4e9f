// body.h - a C++ program in two files for the whole-program test: a record
// with a member function defined in body.cpp only, and a function taking
// std::vector<Body> & that main.cpp calls but body.cpp defines.
#pragma once
#include <vector>
struct Body {
  float x, y, vx, vy;
  void move(float dt);
  float speed2() const { return vx * vx + vy * vy; }
};
void step(std::vector<Body> &v, float dt);
