#pragma once
// What `plan`, `scen` and `reach` share: the method, smoother and option flags, and the paths
// of results as the plan picture draws them.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common.hpp"
#include "polynav/io/plan_picture.hpp"
#include "polynav/plan/planner.hpp"

namespace CLI {
class App;
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

// The points of each result that the plan picture draws (io/plan_picture.hpp).
std::vector<PathDrawing> path_drawings(const std::vector<PlanResult>& results);

// Serves other radii (PlanOptions::max_radii, which keeps a copy of the scene) where some query
// has an agent radius of its own.
void serve_query_radii(PlanOptions& options, const std::vector<Query>& queries);

// The planner for the query's own agent radius (Planner::for_radius), when it has one, else
// `planner`; its errors are located at the query.
std::shared_ptr<const Planner> planner_for(const Planner& planner, const Query& query);

// Parses "X,Y" given to `option`. @throws InputError naming the option
Point parse_point(const std::string& text, const std::string& option);

// Parses "X,Y" or "X,Y,X,Y,...": one or more points. @throws InputError naming the option
std::vector<Point> parse_points(const std::string& text, const std::string& option);

// A point and, when the text gave one, a heading: yaw in radians, counterclockwise from +x.
struct PointYaw {
  Point at;
  std::optional<double> yaw;
};
// Parses "X,Y" or "X,Y,YAW" (finite numbers) given to `option`. @throws InputError naming it
PointYaw parse_point_yaw(const std::string& text, const std::string& option);

}  // namespace polynav::cli
