#pragma once
// What `plan` and `scen` share: the method and smoother options, and drawing results.

#include <string>
#include <vector>

#include "common.hpp"
#include "polynav/plan/planner.hpp"

namespace CLI {
class App;
}

namespace polynav {
class SvgCanvas;
}

namespace polynav::cli {

struct MethodArgs {
  std::string method = "grid";
  double resolution = 0.0;
  int connectivity = 8;
  std::string heuristic = "auto";
  std::string smooth;
  std::size_t max_cells = GridOptions{}.max_cells;
  bool snap = false;
};

// Adds --method, --resolution, --connectivity, --heuristic, --smooth, --max-cells, --snap.
void add_method_options(CLI::App& command, MethodArgs& args, const std::string& default_smooth);

// The planner's options from the command line.
PlanOptions plan_options(const MethodArgs& args, const SceneOptions& scene_options);

// Draws the discretisation, expanded nodes, raw and smoothed paths of `results` over a scene
// already drawn with draw_scene().
void draw_results(SvgCanvas& canvas, const Planner& planner,
                  const std::vector<PlanResult>& results);

}  // namespace polynav::cli
