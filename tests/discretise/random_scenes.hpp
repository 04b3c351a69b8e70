#pragma once
// Scenes shared by the discretisation tests: a box and fifteen random triangles in a 20 x 20
// square, the same for a given seed.

#include <random>

#include "polynav/scene/scene.hpp"

namespace polynav::test {

inline Ring rect(double x0, double y0, double x1, double y1) {
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

inline Scene random_scene(unsigned seed, double radius) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coord(0.0, 18.0), size(0.5, 3.0);
  Scene scene;
  scene.bounds = rect(0, 0, 20, 20);
  scene.agent.radius = radius;
  for (int k = 0; k < 15; ++k) {
    const double x = coord(rng), y = coord(rng);
    scene.obstacles.push_back(
        {{{{x, y}, {x + size(rng), y + 0.3 * size(rng)}, {x + 0.5 * size(rng), y + size(rng)}}, {}},
         {}});
  }
  return scene;
}

}  // namespace polynav::test
