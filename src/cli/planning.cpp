#include "planning.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "polynav/error.hpp"
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
  if (scene_options.inflation)
    options.settings.set("space.inflation",
                         std::string(name_of(inflation_names, *scene_options.inflation)));
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

std::vector<PathDrawing> path_drawings(const std::vector<PlanResult>& results) {
  std::vector<PathDrawing> out;
  out.reserve(results.size());
  for (const PlanResult& r : results) out.push_back({r.waypoints, r.raw_waypoints, r.expanded});
  return out;
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

void serve_query_radii(PlanOptions& options, const std::vector<Query>& queries) {
  if (std::any_of(queries.begin(), queries.end(), [](const Query& q) { return q.radius; }))
    options.max_radii = 4;
}

std::shared_ptr<const Planner> planner_for(const Planner& planner, const Query& q) {
  try {
    return planner.for_radius(q.radius.value_or(planner.radius()));
  } catch (const InputError& e) {
    InputLocation where = q.where;
    where.key_path = (where.key_path.empty() ? std::string("query") : where.key_path) + ".radius";
    throw InputError(where, (q.name.empty() ? std::string("query") : "query '" + q.name + "'") +
                                ": " + e.message());
  }
}

namespace {

std::vector<std::string_view> comma_fields(std::string_view text) {
  std::vector<std::string_view> parts;
  for (std::string_view rest = text;;) {
    const auto comma = rest.find(',');
    parts.push_back(rest.substr(0, comma));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return parts;
}

}  // namespace

std::vector<Point> parse_points(const std::string& text, const std::string& option) {
  const std::vector<std::string_view> parts = comma_fields(text);
  std::vector<Point> points;
  for (std::size_t i = 0; i + 1 < parts.size(); i += 2) {
    const std::optional<double> x = parse_finite(parts[i]), y = parse_finite(parts[i + 1]);
    if (!x || !y) break;
    points.push_back({*x, *y});
  }
  if (points.empty() || points.size() * 2 != parts.size())
    throw InputError({"", 0, 0, option},
                     "expected X,Y or X,Y,X,Y,... (pairs of finite numbers), found '" + text + "'");
  return points;
}

PointYaw parse_point_yaw(const std::string& text, const std::string& option) {
  const std::vector<std::string_view> parts = comma_fields(text);
  const std::optional<double> x = parse_finite(parts[0]);
  const std::optional<double> y = parts.size() > 1 ? parse_finite(parts[1]) : std::nullopt;
  if (parts.size() > 3 || !x || !y)
    throw InputError({"", 0, 0, option},
                     "expected X,Y or X,Y,YAW with finite numbers, found '" + text + "'");
  if (parts.size() == 2) return {{*x, *y}, std::nullopt};
  const std::optional<double> yaw = parse_finite(parts[2]);
  if (!yaw)
    throw InputError({"", 0, 0, option},
                     "the yaw (YAW of X,Y,YAW, in radians) must be a finite "
                     "number, found '" +
                         std::string(parts[2]) + "' in '" + text + "'");
  return {{*x, *y}, *yaw};
}

}  // namespace polynav::cli
