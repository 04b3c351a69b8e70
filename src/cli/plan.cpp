// `polynav plan SCENE`: plans the scene's queries (or one given on the command line) with a
// chosen method and smoother; prints waypoints, or one JSON object per query with --json, and
// draws the result with --svg.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

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
  std::vector<std::string> goals;  // --goal, repeatable: a goal set; each X,Y or X,Y,YAW
  bool json = false;
  std::string format = "text";  // text, json, ros-path
  std::string svg;
  int width = 1000;
  // ros-path only: the frame of the path and its poses, and the largest gap between poses
  // (0: poses at the waypoints only). `*_given`: the option was on the command line.
  std::string frame_id = "map";
  double pose_spacing = 0.0;
  bool frame_id_given = false, pose_spacing_given = false;
};

// The most poses --pose-spacing may add between waypoints in one run, over all paths.
constexpr double max_added_poses = 1e6;

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

// Why `id` cannot be a frame id, or "" when it can: a ROS name as tf2 in ROS 2 takes it, names
// of letters, digits and '_' not starting with a digit, joined by single '/', with no '/' at
// either end (tf2 refuses a frame id that starts with one).
std::string frame_id_problem(const std::string& id) {
  if (id.empty()) return "must not be empty (a ROS frame name such as map or odom)";
  for (const char c : id) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '/') continue;
    char shown[16];
    if (std::isprint(static_cast<unsigned char>(c)) != 0) {
      std::snprintf(shown, sizeof shown, "'%c'", c);
    } else {
      std::snprintf(shown, sizeof shown, "byte 0x%02x", static_cast<unsigned char>(c));
    }
    return "may hold only letters, digits, '_' and '/' (a ROS name), found " + std::string(shown) +
           " in '" + id + "'";
  }
  if (id.front() == '/')
    return "must not start with '/' (tf2 in ROS 2 refuses frame ids that do), found '" + id + "'";
  if (id.back() == '/' || id.find("//") != std::string::npos)
    return "must not end with '/' or hold '//' (the names between '/' must not be empty), "
           "found '" +
           id + "'";
  for (std::size_t i = 0; i < id.size(); ++i)
    if ((i == 0 || id[i - 1] == '/') && std::isdigit(static_cast<unsigned char>(id[i])) != 0)
      return "each name between '/' must start with a letter or '_', found '" + id + "'";
  return {};
}

// The frame id as a YAML scalar: plain, unless YAML would read it as something other than a
// string (a boolean or null), then in double quotes (the characters allowed need no escapes).
std::string yaml_frame_id(const std::string& id) {
  std::string lower = id;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  static constexpr std::string_view special[] = {"null", "true", "false", "yes", "no",
                                                 "on",   "off",  "y",     "n"};
  for (const std::string_view word : special)
    if (lower == word) return "\"" + id + "\"";
  return id;
}

// How many poses spacing `spacing` adds between the waypoints of a path (a double, as it may
// be beyond any integer: the caller compares it with its limit).
double added_poses(const std::vector<Point>& w, double spacing) {
  if (!(spacing > 0)) return 0;
  double added = 0;
  for (std::size_t i = 0; i + 1 < w.size(); ++i) {
    const double length = std::hypot(w[i + 1].x - w[i].x, w[i + 1].y - w[i].y);
    added += std::max(std::ceil(length / spacing) - 1, 0.0);
  }
  return added;
}

// The yaw `--goal` gave for the goal a result reached: the given goal nearest PlanResult::goal
// (the same point, unless --snap moved it), or nothing when that goal has no yaw.
std::optional<double> reached_goal_yaw(const PlanResult& r, const std::vector<PointYaw>& goals) {
  const PointYaw* nearest = nullptr;
  double best = 0;
  for (const PointYaw& g : goals) {
    const double d = std::hypot(g.at.x - r.goal.x, g.at.y - r.goal.y);
    if (nearest == nullptr || d < best) {
      nearest = &g;
      best = d;
    }
  }
  return nearest == nullptr ? std::nullopt : nearest->yaw;
}

struct RosPathOptions {
  std::string frame_id = "map";
  double pose_spacing = 0.0;  // 0: poses at the waypoints only
};

// One query's path as a nav_msgs/Path message in YAML (ROS 2 field names, as `ros2 topic echo`
// prints them): every waypoint a pose in the frame at z = 0, and with a spacing, evenly spaced
// poses between them so that no two consecutive poses are farther apart than it. Each pose faces
// along the segment that leaves it; the last one faces as the segment that ends there, or the
// goal's yaw when the path reached a goal given one. Stamps are zero (tf2: the latest transform).
void print_ros_path(const PlanResult& r, const std::string& name, bool first,
                    const RosPathOptions& options, std::optional<double> goal_yaw) {
  if (!first) std::cout << "---\n";
  std::cout << "# " << (name.empty() ? "query" : name) << ": " << search::to_string(r.status);
  if (r.found()) std::cout << ", length " << full(r.length);
  std::cout << "\n";
  if (!r.message.empty()) {
    std::string message = r.message;
    std::replace(message.begin(), message.end(), '\n', ' ');
    std::cout << "# " << message << "\n";
  }
  const std::string header =
      "{frame_id: " + yaml_frame_id(options.frame_id) + ", stamp: {sec: 0, nanosec: 0}}";
  std::cout << "header: " << header << "\n";
  const std::vector<Point>& w = r.waypoints;
  if (w.empty()) {
    std::cout << "poses: []\n";
    return;
  }
  // heading[i]: the yaw of the first segment of non-zero length from waypoint i on, else of the
  // last one of the path, else 0 (a path of one point, or of one point repeated).
  const auto yaw_of = [&](std::size_t i) {
    return std::atan2(w[i + 1].y - w[i].y, w[i + 1].x - w[i].x);
  };
  std::optional<double> last, next;
  for (std::size_t i = 0; i + 1 < w.size(); ++i)
    if (!(w[i + 1] == w[i])) last = yaw_of(i);
  std::vector<double> heading(w.size(), 0.0);
  for (std::size_t i = w.size(); i-- > 0;) {
    if (i + 1 < w.size() && !(w[i + 1] == w[i])) next = yaw_of(i);
    heading[i] = next ? *next : last.value_or(0.0);
  }
  if (goal_yaw && r.found()) heading.back() = *goal_yaw;

  std::cout << "poses:\n";
  const auto pose = [&](Point p, double yaw) {
    std::cout << "  - header: " << header << "\n"
              << "    pose:\n"
              << "      position: {x: " << full(p.x) << ", y: " << full(p.y) << ", z: 0}\n"
              << "      orientation: {x: 0, y: 0, z: " << full(std::sin(yaw / 2))
              << ", w: " << full(std::cos(yaw / 2)) << "}\n";
  };
  for (std::size_t i = 0; i < w.size(); ++i) {
    pose(w[i], heading[i]);
    if (i + 1 == w.size() || !(options.pose_spacing > 0)) continue;
    // n equal steps of at most the spacing: the n - 1 points between the two waypoints.
    const double dx = w[i + 1].x - w[i].x, dy = w[i + 1].y - w[i].y;
    const double steps = std::ceil(std::hypot(dx, dy) / options.pose_spacing);
    const auto n = static_cast<std::size_t>(std::max(steps, 1.0));
    for (std::size_t k = 1; k < n; ++k) {
      const double t = double(k) / double(n);
      pose({w[i].x + t * dx, w[i].y + t * dy}, heading[i]);
    }
  }
}

int run_plan(const PlanArgs& args, const SceneOptions& options) {
  if (args.json && args.format != "text" && args.format != "json")
    throw InputError({"", 0, 0, "--format"},
                     "--json is --format json; it cannot go with --format " + args.format);
  const std::string format = args.json ? "json" : args.format;
  for (const auto& [given, option] : {std::pair{args.frame_id_given, "--frame-id"},
                                      std::pair{args.pose_spacing_given, "--pose-spacing"}})
    if (given && format != "ros-path")
      throw InputError({"", 0, 0, option},
                       "applies to --format ros-path only; it cannot go with --format " + format);
  if (const std::string problem = frame_id_problem(args.frame_id); !problem.empty())
    throw InputError({"", 0, 0, "--frame-id"}, problem);
  check_output_path(args.svg, "--svg");
  // The command line's query, read before the scene so that a mistyped point costs nothing.
  std::optional<Point> start;
  std::vector<PointYaw> goals;
  if (!args.start.empty() || !args.goals.empty()) {
    if (args.start.empty() || args.goals.empty())
      throw InputError({"", 0, 0, args.start.empty() ? "--start" : "--goal"},
                       "--start and --goal go together");
    start = parse_point(args.start, "--start");
    for (const std::string& g : args.goals) goals.push_back(parse_point_yaw(g, "--goal"));
  }
  const Scene scene = load_scene_with_options(args.scene, options);
  std::vector<Query> queries;
  std::vector<Point> goal_set;  // the command line's goals, when it gave more than one
  if (start) {
    queries.push_back({"", *start, goals.front().at, std::nullopt, {}});
    if (goals.size() > 1)
      for (const PointYaw& g : goals) goal_set.push_back(g.at);
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
  std::vector<std::optional<double>> goal_yaws;  // per result: the yaw of the goal it reached
  for (const Query& q : queries) {
    if (goal_set.empty()) {
      results.push_back(planner.plan(q.start, q.goal));
    } else {
      results.push_back(planner.plan(q.start, goal_set));
    }
    goal_yaws.push_back(reached_goal_yaw(results.back(), goals));
    if (results.back().status == search::SearchStatus::invalid_query) {
      // The reason goes to stderr too, located at the query when the scene file gave it.
      const std::string name = q.name.empty() ? std::string("query") : "query '" + q.name + "'";
      const std::string where = q.where.file.empty() ? "" : q.where.to_string() + ": ";
      print_error(where + name + ": " + results.back().message);
    }
    if (format == "json") {
      std::string line = plan_result_json(results.back(), q.name);
      if (goal_yaws.back()) {
        // One more key at the end of the object (written without spaces), the others unchanged.
        line.insert(line.size() - 1, ",\"goal_yaw\":" + nlohmann::json(*goal_yaws.back()).dump());
      }
      std::cout << line << "\n";
    } else if (format == "text") {
      print_human(results.back(), q.name);
    }
  }
  if (format == "ros-path") {
    // Written once every path is known, so that a spacing too fine for them all is refused
    // before any document is written.
    double added = 0;
    for (const PlanResult& r : results) added += added_poses(r.waypoints, args.pose_spacing);
    if (added > max_added_poses)
      throw InputError({"", 0, 0, "--pose-spacing"},
                       "a spacing of " + format_number(args.pose_spacing) + " needs " +
                           format_number(added) + " poses between the waypoints, more than the " +
                           format_number(max_added_poses) + " allowed: give a larger spacing");
    const RosPathOptions ros{args.frame_id, args.pose_spacing};
    for (std::size_t i = 0; i < results.size(); ++i)
      print_ros_path(results[i], queries[i].name, i == 0, ros, goal_yaws[i]);
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
                  "Goal point X,Y (with --start); repeat it for a goal set: the path goes to the\n"
                  "cheapest reachable one. X,Y,YAW adds the heading to arrive with (radians,\n"
                  "counterclockwise from +x): ros-path turns the last pose to it, --json\n"
                  "reports it as goal_yaw, the text output ignores it")
      ->type_name("X,Y[,YAW]")
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
  cmd->add_option("--frame-id", args->frame_id,
                  "ros-path: the frame_id of the path and of every pose (default map): letters,\n"
                  "digits and '_', names joined by '/' (odom, robot1/map)")
      ->type_name("NAME");
  add_number_option(*cmd, "--pose-spacing", args->pose_spacing,
                    "ros-path: add evenly spaced poses along each segment so that consecutive\n"
                    "poses are at most D apart, the waypoints kept exactly (> 0; without it,\n"
                    "poses at the waypoints only)")
      ->type_name("D")
      ->check(positive_finite);
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
                          "40.5,30.5\n"
                          "  polynav plan scenes/ros/depot.yaml --start 16,1 --goal 29,14,1.5708 "
                          "--format ros-path --pose-spacing 0.05 --frame-id map\n\n") +
              options_help() + "\n" + global_options_help + "\n\n" + exit_codes_help);
  cmd->callback([args, cmd] {
    args->frame_id_given = cmd->count("--frame-id") > 0;
    args->pose_spacing_given = cmd->count("--pose-spacing") > 0;
    set_exit_status(run_plan(*args, scene_options(*cmd)));
  });
}

}  // namespace polynav::cli
