// `polynav plan SCENE`: plans the scene's queries (or one given on the command line) with a
// chosen method and smoother; prints waypoints, or one JSON object per query with --json, and
// draws the result with --svg.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "common.hpp"
#include "planning.hpp"
#include "polynav/error.hpp"
#include "polynav/io/plan_picture.hpp"
#include "polynav/plan/json.hpp"

namespace polynav::cli {
namespace {

struct PlanArgs {
  std::string scene;
  MethodArgs method;
  std::string start, query;
  std::vector<std::string> goals;  // --goal, repeatable: a goal set
  bool json = false;
  std::string format = "text";  // text, json, ros-path
  std::string svg;
  int width = 1000;
};

int exit_code_for(const std::vector<PlanResult>& results) {
  int code = exit_ok;
  for (const PlanResult& r : results)
    if (r.status == search::SearchStatus::internal_error) return exit_internal;
  for (const PlanResult& r : results) {
    if (r.status == search::SearchStatus::invalid_query) return exit_bad_input;
    if (!r.found()) code = exit_no_path;
  }
  return code;
}

void print_human(const PlanResult& r, const std::string& name) {
  std::cout << (name.empty() ? "query" : name) << ": " << search::to_string(r.status) << "  "
            << format_point(r.start) << " -> " << format_point(r.goal) << "\n";
  if (!r.message.empty()) std::cout << "  " << r.message << "\n";
  if (r.waypoints.empty()) return;
  std::cout << "  length " << format_number(r.length) << ", cost " << format_number(r.cost);
  if (r.smoother == "none") {
    std::cout << " (" << r.method << " path, not smoothed)\n";
  } else {
    std::cout << " (" << r.method << " path " << format_number(r.raw_length) << " before "
              << r.smoother << " smoothing)\n";
  }
  std::cout << "  expanded " << r.stats.expanded << " of " << r.stats.nodes << " nodes; search "
            << format_number(r.stats.search_ms, 3) << " ms, smoothing "
            << format_number(r.stats.smooth_ms, 3) << " ms\n"
            << "  waypoints (" << r.waypoints.size() << "):";
  for (const Point& p : r.waypoints) std::cout << " " << format_point(p);
  std::cout << "\n";
}

// A number at full precision: the shortest text that reads back as the same double.
std::string full(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

// One query's path as a nav_msgs/Path message in YAML (ROS 2 field names, as `ros2 topic echo`
// prints them): every waypoint a pose in frame `map` at z = 0, facing along the path (the
// segment it starts; the last one faces as the segment that ends there). Stamps are zero.
void print_ros_path(const PlanResult& r, const std::string& name, bool first) {
  if (!first) std::cout << "---\n";
  std::cout << "# " << (name.empty() ? "query" : name) << ": " << search::to_string(r.status);
  if (r.found()) std::cout << ", length " << full(r.length);
  std::cout << "\n";
  if (!r.message.empty()) {
    std::string message = r.message;
    std::replace(message.begin(), message.end(), '\n', ' ');
    std::cout << "# " << message << "\n";
  }
  constexpr const char* header = "{frame_id: map, stamp: {sec: 0, nanosec: 0}}";
  std::cout << "header: " << header << "\n";
  if (r.waypoints.empty()) {
    std::cout << "poses: []\n";
    return;
  }
  std::cout << "poses:\n";
  double yaw = 0.0;
  const std::vector<Point>& w = r.waypoints;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (i + 1 < w.size() && !(w[i + 1] == w[i]))
      yaw = std::atan2(w[i + 1].y - w[i].y, w[i + 1].x - w[i].x);
    std::cout << "  - header: " << header << "\n"
              << "    pose:\n"
              << "      position: {x: " << full(w[i].x) << ", y: " << full(w[i].y) << ", z: 0}\n"
              << "      orientation: {x: 0, y: 0, z: " << full(std::sin(yaw / 2))
              << ", w: " << full(std::cos(yaw / 2)) << "}\n";
  }
}

int run_plan(const PlanArgs& args, const SceneOptions& options) {
  if (args.json && args.format != "text" && args.format != "json")
    throw InputError({"", 0, 0, "--format"},
                     "--json is --format json; it cannot go with --format " + args.format);
  const std::string format = args.json ? "json" : args.format;
  check_output_path(args.svg, "--svg");
  const Scene scene = load_scene_with_options(args.scene, options);
  std::vector<Query> queries;
  std::vector<Point> goal_set;  // the command line's goals beyond the first
  if (!args.start.empty() || !args.goals.empty()) {
    if (args.start.empty() || args.goals.empty())
      throw InputError({"", 0, 0, args.start.empty() ? "--start" : "--goal"},
                       "--start and --goal go together");
    queries.push_back({"",
                       parse_point(args.start, "--start"),
                       parse_point(args.goals.front(), "--goal"),
                       std::nullopt,
                       {}});
    if (args.goals.size() > 1)
      for (const std::string& g : args.goals) goal_set.push_back(parse_point(g, "--goal"));
  } else if (!args.query.empty()) {
    for (const Query& q : scene.queries)
      if (q.name == args.query) queries.push_back(q);
    if (queries.empty()) {
      std::string names;
      for (const Query& q : scene.queries) names += (names.empty() ? "" : ", ") + q.name;
      throw InputError({"", 0, 0, "--query"}, "the scene has no query named '" + args.query +
                                                  "' (it has: " + (names.empty() ? "none" : names) +
                                                  ")");
    }
  } else {
    queries = scene.queries;
    if (queries.empty())
      throw InputError({args.scene, 0, 0, "queries"},
                       "the scene has no queries: give --start X,Y --goal X,Y or add queries");
  }

  PlanOptions plan = plan_options(args.method, options);
  plan.record_expanded = !args.svg.empty();
  Planner planner(scene, plan);
  if (const std::string summary = planner.discretisation().summary();
      !summary.empty() && format == "text")
    std::cout << planner.discretisation().method() << ": " << summary << "\n";
  std::vector<PlanResult> results;
  for (const Query& q : queries) {
    if (goal_set.empty()) {
      results.push_back(planner.plan(q.start, q.goal));
    } else {
      results.push_back(planner.plan(q.start, goal_set));
    }
    if (results.back().status == search::SearchStatus::invalid_query) {
      // The reason goes to stderr too, located at the query when the scene file gave it.
      const std::string name = q.name.empty() ? std::string("query") : "query '" + q.name + "'";
      const std::string where = q.where.file.empty() ? "" : q.where.to_string() + ": ";
      print_error(where + name + ": " + results.back().message);
    }
    if (format == "json") {
      std::cout << plan_result_json(results.back(), q.name) << "\n";
    } else if (format == "ros-path") {
      print_ros_path(results.back(), q.name, results.size() == 1);
    } else {
      print_human(results.back(), q.name);
    }
  }
  if (!args.svg.empty()) {
    plan_picture(scene, planner.free_space(), planner.discretisation().primitives(),
                 path_drawings(results), {.width = double(args.width)})
        .save(args.svg);
    if (format == "text") std::cout << "wrote " << args.svg << "\n";
  }
  return exit_code_for(results);
}

}  // namespace

void add_plan_command(CLI::App& app) {
  auto args = std::make_shared<PlanArgs>();
  CLI::App* cmd = app.add_subcommand("plan", "Plan paths through a scene");
  cmd->add_option("SCENE", args->scene, "Scene file")->required()->type_name("");
  add_method_options(*cmd, args->method, "shortcut");
  cmd->add_option("--start", args->start, "Start point X,Y (with --goal)")->type_name("X,Y");
  cmd->add_option("--goal", args->goals,
                  "Goal point X,Y (with --start); repeat it for a goal set: the path goes to the "
                  "cheapest reachable one")
      ->type_name("X,Y")
      ->allow_extra_args(false)
      ->take_all();
  cmd->add_option("--query", args->query, "Plan only the scene's query of this name")
      ->type_name("NAME");
  cmd->add_flag("--json", args->json, "One JSON object per query per line (docs/output.md)");
  cmd->add_option("--format", args->format,
                  "text (default), json (as --json), or ros-path: each path as a\n"
                  "nav_msgs/Path in YAML, documents separated by '---' (docs/output.md)")
      ->type_name("FORMAT")
      ->check(CLI::IsMember({"text", "json", "ros-path"}));
  cmd->add_option("--svg", args->svg,
                  "Draw the scene, the discretisation, expanded nodes, raw and smoothed paths")
      ->type_name("FILE");
  cmd->add_option("--width", args->width, "Picture width in pixels")->check(CLI::Range(100, 20000));
  cmd->footer(std::string("Without --start/--goal or --query, every query in the scene is "
                          "planned.\n\nExamples:\n"
                          "  polynav plan scenes/warehouse.yaml --svg warehouse.svg\n"
                          "  polynav plan scenes/maze.yaml --method grid --resolution 0.25 "
                          "--smooth none --json\n"
                          "  polynav plan scenes/maze.yaml --set grid.connectivity=4 --set "
                          "search.weight=2\n"
                          "  polynav plan scenes/movingai/arena.map --start 3.5,10.5 --goal "
                          "40.5,30.5\n\n") +
              options_help() + "\n" + global_options_help + "\n\n" + exit_codes_help);
  cmd->callback([args, cmd] { set_exit_status(run_plan(*args, scene_options(*cmd))); });
}

}  // namespace polynav::cli
