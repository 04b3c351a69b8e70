#pragma once
// What `plan`, `scen` and `reach` share: the method, smoother and option flags, and drawing
// results.

#include <string>
#include <string_view>
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
  std::string smooth;
  std::vector<std::string> set;  // --set GROUP.OPTION=VALUE, in order
  // Older spellings of registry options, kept as aliases: each sets its GROUP.OPTION when given.
  std::string resolution, connectivity, heuristic, max_cells;
  bool snap = false;
};

// Adds --method, --smooth, --set, --snap and the aliases --resolution, --connectivity,
// --heuristic, --max-cells.
void add_method_options(CLI::App& command, MethodArgs& args, const std::string& default_smooth);

// The planner's options from the command line (checked when the planner is built).
PlanOptions plan_options(const MethodArgs& args, const SceneOptions& scene_options);

// "Options (--set GROUP.OPTION=VALUE): ..." for a subcommand's footer, from the registry.
std::string options_help();

// The SVG group a method's structure is drawn in: the grid's cells ("grid"), the quadtree's
// leaves ("quadtree"), else its graph ("graph").
std::string structure_group(std::string_view method);

// Draws the discretisation, expanded nodes, raw and smoothed paths of `results` over a scene
// already drawn with draw_scene().
void draw_results(SvgCanvas& canvas, const Planner& planner,
                  const std::vector<PlanResult>& results);

// Parses "X,Y" given to `option`. @throws InputError naming the option
Point parse_point(const std::string& text, const std::string& option);

}  // namespace polynav::cli
