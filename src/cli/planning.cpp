#include "planning.hpp"

#include <CLI/CLI.hpp>
#include <optional>
#include <string_view>

#include "polynav/error.hpp"
#include "polynav/io/svg.hpp"
#include "polynav/number.hpp"

namespace polynav::cli {
namespace {

std::string names(const auto& table) {
  std::string s;
  for (const auto& row : table) s += (s.empty() ? "" : ", ") + row.name;
  return s;
}

}  // namespace

void add_method_options(CLI::App& command, MethodArgs& args, const std::string& default_smooth) {
  args.smooth = default_smooth;
  command.add_option("--method", args.method, "Discretisation: " + names(method_registry()))
      ->type_name("NAME")
      ->capture_default_str();
  command.add_option("--smooth", args.smooth, "Smoother: " + names(smoother_registry()))
      ->type_name("NAME")
      ->capture_default_str();
  command
      .add_option("--set", args.set,
                  "Set an option of the method, smoother, search or free space, e.g.\n"
                  "grid.resolution=0.25, search.weight=1.5 (repeatable; 'polynav methods' lists "
                  "them all)")
      ->type_name("GROUP.OPTION=VALUE")
      ->allow_extra_args(false)
      ->take_all();
  command.add_option("--resolution", args.resolution, "Same as --set grid.resolution=S")
      ->type_name("S");
  command.add_option("--connectivity", args.connectivity, "Same as --set grid.connectivity=N")
      ->type_name("N");
  command.add_option("--heuristic", args.heuristic, "Same as --set grid.heuristic=NAME")
      ->type_name("NAME");
  command.add_option("--max-cells", args.max_cells, "Same as --set grid.max_cells=N")
      ->type_name("N");
  command.add_flag("--snap", args.snap,
                   "Move a start or goal that is not free to the nearest free point");
}

PlanOptions plan_options(const MethodArgs& args, const SceneOptions& scene_options) {
  PlanOptions options;
  options.method = args.method;
  options.smoother = args.smooth;
  options.snap_to_free = args.snap;
  if (scene_options.inflation_tolerance > 0.0)
    options.settings.set("space.inflation_tolerance", scene_options.inflation_tolerance);
  const std::pair<const std::string*, const char*> aliases[] = {
      {&args.resolution, "grid.resolution"},
      {&args.connectivity, "grid.connectivity"},
      {&args.heuristic, "grid.heuristic"},
      {&args.max_cells, "grid.max_cells"}};
  for (const auto& [value, key] : aliases)
    if (!value->empty()) options.settings.set(key, *value);
  for (const std::string& assignment : args.set) options.settings.set_assignment(assignment);
  return options;
}

std::string options_help() {
  std::string s = "Options, set with --set GROUP.OPTION=VALUE ('polynav methods' explains each):\n";
  const auto line = [&](const std::string& group, const std::vector<OptionSpec>& specs) {
    if (specs.empty()) return;
    s += "  " + group + ":";
    for (const OptionSpec& o : specs) s += " " + o.name;
    s += "\n";
  };
  for (const MethodEntry& m : method_registry()) line(m.name, m.options);
  for (const SmootherEntry& m : smoother_registry()) line(m.name, m.options);
  line("search", search_option_specs());
  line("space", space_option_specs());
  return s;
}

void draw_discretisation(SvgCanvas& canvas, const Discretisation& discretisation) {
  // Cells in the "grid" layer, graph-like structure (regions, arcs, nodes) in the "graph" layer.
  Primitives p = discretisation.primitives();
  canvas.group("grid");
  draw_primitives(canvas, {std::move(p.blocked), {}, std::move(p.lattice), {}, {}});
  canvas.group("graph");
  draw_primitives(canvas, {{}, std::move(p.regions), {}, std::move(p.arcs), std::move(p.nodes)});
}

void draw_results(SvgCanvas& canvas, const Planner& planner,
                  const std::vector<PlanResult>& results) {
  draw_discretisation(canvas, planner.discretisation());
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

Point parse_point(const std::string& text, const std::string& option) {
  const std::string_view view = text;
  const auto comma = view.find(',');
  if (comma != std::string_view::npos) {
    const std::optional<double> x = parse_finite(view.substr(0, comma));
    const std::optional<double> y = parse_finite(view.substr(comma + 1));
    if (x && y) return {*x, *y};
  }
  throw InputError({"", 0, 0, option},
                   "expected X,Y with two finite numbers, found '" + text + "'");
}

}  // namespace polynav::cli
