#include "planning.hpp"

#include <CLI/CLI.hpp>

#include "polynav/io/svg.hpp"
#include "polynav/smooth/path_simplifier.hpp"

namespace polynav::cli {

void add_method_options(CLI::App& command, MethodArgs& args, const std::string& default_smooth) {
  args.smooth = default_smooth;
  std::string methods;
  for (const std::string& m : available_methods()) methods += (methods.empty() ? "" : ", ") + m;
  command.add_option("--method", args.method, "Discretisation: " + methods)
      ->check(CLI::IsMember(available_methods()))
      ->capture_default_str();
  command
      .add_option("--resolution", args.resolution,
                  "Grid cell size (default: the map's own cells, else the longest side / 256)")
      ->check(non_negative_finite);
  command.add_option("--connectivity", args.connectivity, "Grid moves: 4 or 8")
      ->check(CLI::IsMember({4, 8}))
      ->capture_default_str();
  command
      .add_option("--heuristic", args.heuristic,
                  "Grid heuristic: auto, manhattan, octile, chebyshev, euclidean, zero")
      ->check(CLI::IsMember({"auto", "manhattan", "octile", "chebyshev", "euclidean", "zero"}))
      ->capture_default_str();
  command.add_option("--smooth", args.smooth, "Smoother: none or shortcut")
      ->check(CLI::IsMember(smoother_names()))
      ->capture_default_str();
  command.add_option("--max-cells", args.max_cells, "Largest grid allowed (memory budget)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command.add_flag("--snap", args.snap,
                   "Move a start or goal that is not free to the nearest free point");
}

PlanOptions plan_options(const MethodArgs& args, const SceneOptions& scene_options) {
  PlanOptions options;
  options.method = args.method;
  options.grid.resolution = args.resolution;
  options.grid.connectivity = args.connectivity;
  options.grid.heuristic = parse_grid_heuristic(args.heuristic);
  options.grid.max_cells = args.max_cells;
  options.smoother = args.smooth;
  options.snap_to_free = args.snap;
  options.free_space.inflation_tolerance = scene_options.inflation_tolerance;
  return options;
}

void draw_results(SvgCanvas& canvas, const Planner& planner,
                  const std::vector<PlanResult>& results) {
  canvas.group(planner.options().method == "grid" ? "grid" : "graph");
  planner.discretisation().draw(canvas);
  canvas.group("expanded");
  SvgStyle expanded_style;
  expanded_style.fill = "#e8a33d";
  expanded_style.fill_opacity = 0.22;
  for (const PlanResult& r : results)
    for (const Point& p : r.expanded) canvas.marker(p, SvgMarker::square, 1.6, expanded_style);
  canvas.group("raw-path");
  SvgStyle raw_style;
  raw_style.stroke = "#8250df";
  raw_style.stroke_width = 1.4;
  raw_style.dash = {4, 3};
  raw_style.round_joins = true;
  for (const PlanResult& r : results)
    if (r.raw_waypoints.size() > 1) canvas.polyline(r.raw_waypoints, raw_style);
  canvas.group("path");
  SvgStyle path_style;
  path_style.stroke = "#0969da";
  path_style.stroke_width = 2.6;
  path_style.round_joins = true;
  SvgStyle waypoint_style;
  waypoint_style.fill = "#ffffff";
  waypoint_style.stroke = "#0969da";
  waypoint_style.stroke_width = 1.2;
  for (const PlanResult& r : results) {
    if (r.waypoints.size() < 2) continue;
    canvas.polyline(r.waypoints, path_style);
    for (const Point& p : r.waypoints) canvas.marker(p, SvgMarker::circle, 5, waypoint_style);
  }
}

}  // namespace polynav::cli
