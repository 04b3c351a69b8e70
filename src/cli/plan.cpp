// `polynav plan SCENE`: plans the scene's queries (or one given on the command line) with a
// chosen method and smoother; prints waypoints, or one JSON object per query with --json, and
// draws the result with --svg.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <string_view>

#include "commands.hpp"
#include "common.hpp"
#include "planning.hpp"
#include "polynav/error.hpp"
#include "polynav/io/plan_picture.hpp"
#include "polynav/number.hpp"
#include "polynav/plan/editable_planner.hpp"
#include "polynav/plan/json.hpp"
#include "polynav/plan/replanner.hpp"
#include "polynav/plan/ros_path.hpp"
#include "polynav/text.hpp"

namespace polynav::cli {
namespace {

struct PlanArgs {
  std::string scene;
  MethodArgs method;
  std::string start, query;
  std::vector<std::string> goals;  // --goal, repeatable: a goal set; each X,Y or X,Y,YAW
  // --flee-from, repeatable, each X,Y[,X,Y...]: the threats to get --distance away from.
  std::vector<std::string> flee_from;
  double distance = 0.0;
  bool distance_given = false;
  bool json = false;
  std::string format = "text";  // text, json, ros-path
  std::string svg;
  std::string edits;    // --edits: a file of timed edits, the queries planned again after each
  bool replan = false;  // --replan: each query's search repaired between the times (Replanner)
  int width = 1000;
  // ros-path only: the frame of the path and its poses, and the largest gap between poses
  // (0: poses at the waypoints only). `*_given`: the option was on the command line.
  std::string frame_id = "map";
  double pose_spacing = 0.0;
  bool frame_id_given = false, pose_spacing_given = false;
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

void print_human(const PlanResult& r, const std::string& name, bool own_radius) {
  // One line per item, whatever the query's name or the message holds.
  std::cout << (name.empty() ? "query" : one_line(name)) << ": " << search::to_string(r.status)
            << "  " << format_point(r.start) << " -> " << format_point(r.goal)
            << (own_radius ? "  (agent radius " + format_number(r.radius) + ")" : "") << "\n";
  if (!r.message.empty()) std::cout << "  " << one_line(r.message) << "\n";
  if (r.waypoints.empty()) return;
  std::cout << "  length " << format_number(r.length) << ", cost " << format_number(r.cost);
  if (r.smoother == "none") {
    std::cout << " (" << r.method << " path, not smoothed)\n";
  } else {
    std::cout << " (" << r.method << " path " << format_number(r.raw_length) << " before "
              << r.smoother << " smoothing)\n";
  }
  // A method whose states are made as it searches (hybrid A*) has no nodes to count beforehand.
  std::cout << "  expanded " << r.stats.expanded
            << (r.stats.nodes > 0 ? " of " + std::to_string(r.stats.nodes) + " nodes" : " states")
            << "; search " << format_number(r.stats.search_ms, 3) << " ms, smoothing "
            << format_number(r.stats.smooth_ms, 3) << " ms\n"
            << "  waypoints (" << r.waypoints.size() << "):";
  for (const Point& p : r.waypoints) std::cout << " " << format_point(p);
  std::cout << "\n";
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
  // Comments are one line each, whatever the query's name or the message holds.
  std::cout << "# " << (name.empty() ? "query" : one_line(name)) << ": "
            << search::to_string(r.status);
  if (r.found()) std::cout << ", length " << shortest_text(r.length);
  std::cout << "\n";
  if (!r.message.empty()) std::cout << "# " << one_line(r.message) << "\n";
  const std::string header =
      "{frame_id: " + yaml_frame_id(options.frame_id) + ", stamp: {sec: 0, nanosec: 0}}";
  std::cout << "header: " << header << "\n";
  if (r.waypoints.empty()) {
    std::cout << "poses: []\n";
    return;
  }
  std::cout << "poses:\n";
  for (const PathPose& pose : path_poses(r.waypoints, options.pose_spacing,
                                         r.found() ? goal_yaw : std::nullopt, r.headings)) {
    std::cout << "  - header: " << header << "\n"
              << "    pose:\n"
              << "      position: {x: " << shortest_text(pose.at.x)
              << ", y: " << shortest_text(pose.at.y) << ", z: 0}\n"
              << "      orientation: {x: 0, y: 0, z: " << shortest_text(std::sin(pose.yaw / 2))
              << ", w: " << shortest_text(std::cos(pose.yaw / 2)) << "}\n";
  }
}

// Why a query is invalid, located at the query when the scene file gave it.
std::string invalid_query_reason(const Query& q, const PlanResult& r) {
  const std::string name = q.name.empty() ? std::string("query") : "query '" + q.name + "'";
  const std::string where = q.where.file.empty() ? "" : q.where.to_string() + ": ";
  return where + name + ": " + r.message;
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
  if (!args.edits.empty() && format == "ros-path")
    throw InputError({"", 0, 0, "--edits"},
                     "goes with the text and json formats; ros-path writes one path per query");
  if (args.replan && args.edits.empty())
    throw InputError({"", 0, 0, "--replan"},
                     "repairs each query's search between the times of --edits; give --edits FILE");
  // The command line's query, read before the scene so that a mistyped point costs nothing.
  std::optional<Point> start;
  std::vector<PointYaw> goals;
  std::vector<Point> threats;  // a flee query's
  if (!args.flee_from.empty() || args.distance_given) {
    if (args.flee_from.empty() || !args.distance_given)
      throw InputError({"", 0, 0, args.flee_from.empty() ? "--flee-from" : "--distance"},
                       "--flee-from and --distance go together");
    if (args.start.empty())
      throw InputError({"", 0, 0, "--start"}, "--flee-from needs --start: where to run from");
    if (!args.goals.empty() || !args.query.empty())
      throw InputError({"", 0, 0, args.goals.empty() ? "--query" : "--goal"},
                       "a flee query finds its own goal; it cannot go with --goal or --query");
    start = parse_point(args.start, "--start");
    for (const std::string& t : args.flee_from)
      for (const Point& p : parse_points(t, "--flee-from")) threats.push_back(p);
  } else if (!args.start.empty() || !args.goals.empty()) {
    if (args.start.empty() || args.goals.empty())
      throw InputError({"", 0, 0, args.start.empty() ? "--start" : "--goal"},
                       "--start and --goal go together");
    start = parse_point(args.start, "--start");
    for (const std::string& g : args.goals) goals.push_back(parse_point_yaw(g, "--goal"));
  }
  const Scene scene = load_scene_with_options(args.scene, options);
  std::vector<Query> queries;
  std::vector<Point> goal_set;  // the command line's goals, when it gave more than one
  if (start && !threats.empty()) {
    queries.push_back({"", *start, *start, std::nullopt, {}});
  } else if (start) {
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
  serve_query_radii(plan, queries);
  // With --edits, the queries are planned on the scene as loaded and again after each time's
  // edits, each time on the version those edits made.
  std::vector<TimedEdits> timeline;
  std::optional<EditablePlanner> live;
  std::shared_ptr<const Planner> planner;
  // With --replan, one Replanner per query follows its goal from one time to the next.
  std::vector<std::unique_ptr<Replanner>> routes;
  if (!args.edits.empty()) {
    timeline = load_scene_edits(args.edits);
    live.emplace(scene, plan);
    planner = live->planner();
    if (args.replan) {
      for (const Query& q : queries) {
        if (!threats.empty() || !goal_set.empty() || q.radius)
          throw InputError({"", 0, 0, "--replan"},
                           "repairs searches from a start to one goal; it cannot go with a goal "
                           "set, a flee query or a query with a radius of its own");
        routes.push_back(std::make_unique<Replanner>(*live, q.goal));
      }
    }
  } else {
    planner = std::make_shared<const Planner>(scene, plan);
  }
  if (const std::string summary = planner->discretisation().summary();
      !summary.empty() && format == "text")
    std::cout << planner->discretisation().method() << ": " << summary << "\n";
  std::vector<PlanResult> results;
  std::vector<std::optional<double>> goal_yaws;  // per result: the yaw of the goal it reached
  std::vector<std::string> invalid;              // why each invalid query is, in order
  const auto plan_all = [&](std::optional<EditStamp> stamp) {
    for (std::size_t i = 0; i < queries.size(); ++i) {
      const Query& q = queries[i];
      if (!routes.empty()) {
        results.push_back(routes[i]->plan(q.start));
      } else if (!threats.empty()) {
        results.push_back(planner->flee(q.start, threats, args.distance));
      } else if (goal_set.empty()) {
        results.push_back(planner_for(*planner, q)->plan(q.start, q.goal));
      } else {
        results.push_back(planner->plan(q.start, goal_set));
      }
      goal_yaws.push_back(reached_goal_yaw(results.back(), goals));
      if (results.back().status == search::SearchStatus::invalid_query)
        invalid.push_back(invalid_query_reason(q, results.back()));
      if (format == "json") {
        std::cout << plan_result_json(results.back(), q.name, goal_yaws.back(), stamp) << "\n";
      } else if (format == "text") {
        print_human(results.back(), q.name, q.radius.has_value());
      }
    }
  };
  if (live && format == "text") std::cout << "as loaded: version 0\n";
  plan_all(live ? std::optional<EditStamp>(EditStamp{}) : std::nullopt);
  for (const TimedEdits& step : timeline) {
    const EditablePlanner::Applied applied = live->apply(step.edits);
    planner = live->planner();
    if (format == "text")
      std::cout << "time " << format_number(step.time) << ": " << step.edits.size()
                << (step.edits.size() == 1 ? " edit" : " edits") << ", version " << applied.version
                << " built in " << format_number(applied.build_ms, 3) << " ms\n";
    plan_all(EditStamp{step.time, applied.version});
  }
  if (format == "ros-path") {
    // Written once every path is known, so that a spacing too fine for them all is refused
    // before any document is written.
    std::vector<std::vector<Point>> paths;
    for (const PlanResult& r : results) paths.push_back(r.waypoints);
    check_pose_spacing(paths, args.pose_spacing, "--pose-spacing");
    const RosPathOptions ros{args.frame_id, args.pose_spacing};
    for (std::size_t i = 0; i < results.size(); ++i)
      print_ros_path(results[i], queries[i].name, i == 0, ros, goal_yaws[i]);
  }
  if (!args.svg.empty()) {
    // The scene as the last edits left it, with the last time's paths.
    const std::vector<PlanResult> last(results.end() - std::ptrdiff_t(queries.size()),
                                       results.end());
    SvgCanvas picture = plan_picture(live ? *live->scene() : scene, planner->free_space(),
                                     planner->discretisation().primitives(), path_drawings(last),
                                     {.width = double(args.width)});
    if (!threats.empty()) draw_threats(picture, threats, args.distance);
    picture.save(args.svg);
    if (format == "text") std::cout << "wrote " << args.svg << "\n";
  }
  // Last, so that a failure after planning (an output that cannot be written) is the one line.
  if (!invalid.empty())
    print_error(
        queries_error(invalid, queries.size(), "are invalid (each reason is also in the output)"));
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
  cmd->add_option("--flee-from", args->flee_from,
                  "Run away (with --start and --distance): plan to the cheapest free point at\n"
                  "least --distance in a straight line from every one of these threats (repeat\n"
                  "it or list them: X,Y,X,Y); the goal reached is reported as the goal")
      ->type_name("X,Y[,X,Y...]")
      ->allow_extra_args(false);
  add_number_option(*cmd, "--distance", args->distance,
                    "With --flee-from: how far from every threat to get (straight-line distance,\n"
                    ">= 0)")
      ->type_name("D")
      ->check(non_negative_finite);
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
  cmd->add_option("--edits", args->edits,
                  "A file of timed edits (docs/scene-format.md, Edits): obstacles and regions\n"
                  "added, removed and moved by id. The queries are planned on the scene as\n"
                  "loaded, then again after each time's edits; --json adds \"time\" and\n"
                  "\"version\" to each object, --svg draws the last")
      ->type_name("FILE");
  cmd->add_flag("--replan", args->replan,
                "With --edits: reuse each query's last answer after each time's edits\n"
                "instead of searching again. The grid method repairs its search (D* Lite:\n"
                "only what the edits changed is searched again; the expanded nodes show it;\n"
                "the paths cost what a new search finds, of equally cheap ones it may give\n"
                "another). The navmesh method follows the last search's corridor (no search)\n"
                "unless an edit could block or shorten its path");
  cmd->add_option("--svg", args->svg,
                  "Draw the scene, the discretisation, expanded nodes, raw and smoothed paths")
      ->type_name("FILE");
  cmd->add_option("--width", args->width, "Picture width in pixels")->check(CLI::Range(100, 20000));
  cmd->footer(
      std::string("Without --start/--goal or --query, every query in the scene is "
                  "planned.\n\nExamples:\n"
                  "  polynav plan scenes/warehouse.yaml --svg warehouse.svg\n"
                  "  polynav plan scenes/maze.yaml --method grid --resolution 0.25 "
                  "--smooth none --json\n"
                  "  polynav plan scenes/maze.yaml --set grid.connectivity=4 --set "
                  "search.weight=2\n"
                  "  polynav plan scenes/movingai/arena.map --start 3.5,10.5 --goal "
                  "40.5,30.5\n"
                  "  polynav plan scenes/ros/depot.yaml --start 16,1 --goal 29,14,1.5708 "
                  "--format ros-path --pose-spacing 0.05 --frame-id map\n"
                  "  polynav plan scenes/warehouse.yaml --start 5,5 --flee-from 8,6 "
                  "--distance 12 --json\n"
                  "  polynav plan scenes/warehouse.yaml --edits examples/warehouse-edits.yaml"
                  " --replan\n\n") +
      options_help() + "\n" + global_options_help + "\n\n" + exit_codes_help);
  cmd->callback([args, cmd] {
    args->frame_id_given = cmd->count("--frame-id") > 0;
    args->pose_spacing_given = cmd->count("--pose-spacing") > 0;
    args->distance_given = cmd->count("--distance") > 0;
    set_exit_status(run_plan(*args, scene_options(*cmd)));
  });
}

}  // namespace polynav::cli
