// Load a scene, plan between two points, print the waypoints.
//   plan_scene SCENE X0 Y0 X1 Y1
#include <cstdlib>
#include <iostream>

#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"

int main(int argc, char** argv) {
  if (argc != 6) {
    std::cerr << "usage: plan_scene SCENE X0 Y0 X1 Y1\n";
    return 2;
  }
  try {
    const polynav::Scene scene = polynav::load_scene(argv[1]);

    polynav::PlanOptions options;  // grid method, shortcut smoothing
    options.settings.set("grid.resolution", 0.25);
    polynav::Planner planner(scene, options);  // builds free space and the grid once

    const polynav::PlanResult result = planner.plan({std::atof(argv[2]), std::atof(argv[3])},
                                                    {std::atof(argv[4]), std::atof(argv[5])});
    if (!result.found()) {
      std::cout << "no path: " << result.message << "\n";
      return 1;
    }
    std::cout << "length " << result.length << ", cost " << result.cost << "\n";
    for (const polynav::Point& p : result.waypoints) std::cout << p.x << " " << p.y << "\n";
    return 0;
  } catch (const polynav::InputError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
}
