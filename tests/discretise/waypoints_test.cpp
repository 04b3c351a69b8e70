// Waypoint graphs: the route table's answers equal an on-line A* over the same graph and its
// costs Boost.Graph's Dijkstra (an independent oracle); generated corners give the visibility
// graph's shortest lengths on the bundled scenes; every path passes the independent exact
// checker; the scene key's located errors, its JSON spelling and its round trip through the
// native writer; budgets and the straight segment.
#include "polynav/discretise/waypoints/waypoint_graph.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "polynav/discretise/method.hpp"
#include "polynav/discretise/visibility_graph/visibility_graph.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"
#include "scene/error_of.hpp"
#include "validity/exact_checker.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;
using test::error_of;

constexpr double inf = std::numeric_limits<double>::infinity();
const fs::path scenes_dir = fs::path(POLYNAV_SOURCE_DIR) / "scenes";

bool near(double a, double b, double relative = 1e-9) {
  if (a == b) return true;  // infinities too
  return std::abs(a - b) <= relative * std::max({std::abs(a), std::abs(b), 1e-12});
}

std::string text_of(Point p) {
  return "(" + std::to_string(p.x) + ", " + std::to_string(p.y) + ")";
}

double path_length(const std::vector<Point>& path) {
  double length = 0.0;
  for (std::size_t k = 1; k < path.size(); ++k) length += distance(path[k - 1], path[k]);
  return length;
}

const WaypointGraph& graph_of(const Method& method) {
  return dynamic_cast<const WaypointGraph&>(method.discretisation());
}

// Seeded free points of the space.
std::vector<Point> free_points(const FreeSpace& space, std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  const Box box = space.box();
  std::uniform_real_distribution<double> x(box.min.x, box.max.x), y(box.min.y, box.max.y);
  std::vector<Point> out;
  while (out.size() < count) {
    const Point p{x(rng), y(rng)};
    if (space.is_free(p)) out.push_back(p);
  }
  return out;
}

// Checks one raw path: a found path runs from start to goal, its exact cost is the graph cost
// reported, and the independent checker accepts it.
void expect_sound(const FreeSpace& space, const validity::ExactChecker& checker, const RawPath& r,
                  Point start, Point goal) {
  if (r.status != search::SearchStatus::found) return;
  ASSERT_GE(r.points.size(), 2u);
  EXPECT_EQ(r.points.front(), start);
  EXPECT_EQ(r.points.back(), goal);
  EXPECT_TRUE(near(space.path_cost(r.points), r.graph_cost))
      << space.path_cost(r.points) << " vs " << r.graph_cost;
  const validity::Verdict v = checker.check_path(r.points);
  EXPECT_TRUE(v.valid()) << v.reason << " on " << text_of(start) << " -> " << text_of(goal);
}

// The table's answer and an on-line A* over the same graph (max_table_nodes = 0), on every pair
// of the graph's nodes and on seeded random pairs of free points: the same status, the same cost.
void expect_table_equals_search(const Scene& scene, const FreeSpace& space, WaypointOptions options,
                                std::size_t random_pairs) {
  const std::unique_ptr<Method> table = make_waypoint_method(space, options);
  options.max_table_nodes = 0;
  const std::unique_ptr<Method> online = make_waypoint_method(space, options);
  ASSERT_TRUE(graph_of(*table).has_table());
  ASSERT_FALSE(graph_of(*online).has_table());
  EXPECT_NE(table->discretisation().summary().find("all pairs precomputed"), std::string::npos)
      << table->discretisation().summary();
  EXPECT_NE(online->discretisation().summary().find("searched by A* per query"), std::string::npos)
      << online->discretisation().summary();
  const validity::ExactChecker checker(scene);
  QueryWorkspace ws_table, ws_online;
  std::size_t found = 0, compared = 0;
  const auto compare = [&](Point start, Point goal) {
    const RawPath a = table->find_path(start, goal, {}, ws_table);
    const RawPath b = online->find_path(start, goal, {}, ws_online);
    ++compared;
    EXPECT_EQ(a.status, b.status) << text_of(start) << " -> " << text_of(goal) << ": " << a.message
                                  << " / " << b.message;
    if (a.status != search::SearchStatus::found || b.status != search::SearchStatus::found) return;
    ++found;
    EXPECT_TRUE(near(a.graph_cost, b.graph_cost)) << text_of(start) << " -> " << text_of(goal)
                                                  << ": " << a.graph_cost << " vs " << b.graph_cost;
    expect_sound(space, checker, a, start, goal);
    expect_sound(space, checker, b, start, goal);
  };
  // Every pair of nodes of a small graph; of a large one, every pair of an even sample.
  const WaypointGraph& g = graph_of(*table);
  const std::size_t step = std::max<std::size_t>(1, g.node_count() / 40);
  for (std::size_t i = 0; i < g.node_count(); i += step)
    for (std::size_t j = 0; j < g.node_count(); j += step)
      compare(g.node_position(search::NodeId(i)), g.node_position(search::NodeId(j)));
  const std::vector<Point> points = free_points(space, 2 * random_pairs, 7);
  for (std::size_t k = 0; k < random_pairs; ++k) compare(points[2 * k], points[2 * k + 1]);
  EXPECT_GT(found, compared / 2) << "too few paths found for the comparison to mean much";
}

// Boost.Graph's Dijkstra from every node of the graph, compared with the table; the next hops,
// followed, add up to the table's cost.
void expect_table_matches_boost(const search::CsrGraph& graph, const RouteTable& table) {
  using Graph =
      boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                            boost::property<boost::edge_weight_t, double>>;
  const std::size_t n = graph.node_count();
  ASSERT_EQ(table.nodes, n);
  Graph oracle(n);
  for (search::NodeId u = 0; u < n; ++u)
    for (const search::Arc& a : graph.arcs(u)) boost::add_edge(u, a.to, a.cost, oracle);
  std::vector<double> dist(n);
  std::size_t reachable = 0;
  for (search::NodeId s = 0; s < n; ++s) {
    boost::dijkstra_shortest_paths(
        oracle, s, boost::distance_map(dist.data()).distance_inf(inf).distance_zero(0.0));
    for (search::NodeId t = 0; t < n; ++t) {
      ASSERT_TRUE(near(table.at(s, t), dist[t]))
          << s << " -> " << t << ": " << table.at(s, t) << " vs Boost " << dist[t];
      if (s == t || dist[t] == inf) continue;
      ++reachable;
      double along = 0.0;
      search::NodeId at = s;
      for (std::size_t steps = 0; at != t; ++steps) {
        ASSERT_LT(steps, n) << "the next hops from " << s << " to " << t << " loop";
        const search::NodeId next = table.hop(at, t);
        double arc = inf;
        for (const search::Arc& a : graph.arcs(at))
          if (a.to == next) arc = std::min(arc, a.cost);
        ASSERT_LT(arc, inf) << "hop " << at << " -> " << next << " is no arc";
        along += arc;
        at = next;
      }
      EXPECT_TRUE(near(along, dist[t])) << s << " -> " << t;
    }
  }
  EXPECT_GT(reachable, 0u);
}

Scene arena() {
  return load_scene(scenes_dir / "arena_waypoints.yaml");
}

// ---------------------------------------------------------------------------------------------

TEST(WaypointScene, ArenaLoadsWithItsWaypointsAndLinks) {
  const Scene scene = arena();
  ASSERT_TRUE(scene.waypoints.has_value());
  const Waypoints& w = *scene.waypoints;
  EXPECT_EQ(w.points.size(), 12u);
  EXPECT_EQ(w.point_where.size(), 12u);
  EXPECT_TRUE(w.links_given);
  EXPECT_EQ(w.links.size(), 16u);
  EXPECT_EQ(w.link_where.size(), 16u);
  EXPECT_EQ(w.points[9], (Point{27, 15}));
  EXPECT_EQ(w.point_where[9].key_path, "waypoints.points[9]");
  EXPECT_EQ((w.links[13]), (std::array<std::uint32_t, 2>{10, 5}));
  EXPECT_EQ(w.link_where[13].key_path, "waypoints.links[13]");
  EXPECT_GT(w.link_where[13].line, w.link_where[12].line);
  const FreeSpace space(scene);
  ASSERT_TRUE(space.waypoints().has_value());
  EXPECT_EQ(space.waypoints()->points, w.points);
}

TEST(WaypointScene, AbsentKeyChangesNothing) {
  const Scene warehouse = load_scene(scenes_dir / "warehouse.yaml");
  EXPECT_FALSE(warehouse.waypoints.has_value());
  const FreeSpace space(warehouse);
  EXPECT_FALSE(space.waypoints().has_value());
  // auto generates the corners; scene is refused, naming the option.
  const WaypointGraph generated(space);
  EXPECT_FALSE(generated.build_stats().from_scene);
  EXPECT_EQ(generated.node_count(), space.corners().size());
  WaypointOptions scene_only;
  scene_only.source = WaypointSource::scene;
  const std::string message = error_of([&] { WaypointGraph g(space, scene_only); });
  EXPECT_NE(message.find("waypoints.source: waypoints.source=scene needs a scene with a "
                         "`waypoints` key"),
            std::string::npos)
      << message;
  // An empty key is the key left out.
  const Scene empty = parse_native_scene(
      "version: 1\nbounds: [[0, 0], [10, 0], [10, 10], [0, 10]]\nwaypoints:\n", "empty.yaml");
  EXPECT_FALSE(empty.waypoints.has_value());
}

constexpr const char* head =
    "version: 1\n"                                    // 1
    "bounds: [[0, 0], [20, 0], [20, 10], [0, 10]]\n"  // 2
    "obstacles:\n"                                    // 3
    "  - [[8, 2], [12, 2], [12, 8], [8, 8]]\n"        // 4
    "waypoints:\n";                                   // 5

std::string scene_error(const std::string& waypoints) {
  return error_of([&] { parse_native_scene(head + waypoints, "arena.yaml"); });
}

TEST(WaypointScene, ReaderErrorsAreLocated) {
  EXPECT_EQ(scene_error("  points: [[2, 5]]\n  lnks: [[0, 0]]\n"),
            "arena.yaml:7:3: waypoints.lnks: unknown key \"lnks\" (did you mean \"links\"?); the "
            "keys allowed here are points, links");
  EXPECT_EQ(scene_error("  points: [[2, 5], [18, 5], [10, 0.5], [2, 9]]\n  links: [[0, 4]]\n"),
            "arena.yaml:7:15: waypoints.links[0]: point index 4 is out of range: expected an "
            "index into waypoints.points, from 0 to 3 (it has 4 points)");
  EXPECT_EQ(scene_error("  points: [[2, 5], [18, 5]]\n  links: [[-1, 0]]\n"),
            "arena.yaml:7:12: waypoints.links[0]: point index -1 is out of range: expected an "
            "index into waypoints.points, from 0 to 1 (it has 2 points)");
  EXPECT_EQ(scene_error("  points: [[2, 5], [18, 5]]\n  links: [[0, 1.5]]\n"),
            "arena.yaml:7:15: waypoints.links[0]: expected an index into waypoints.points, from "
            "0 to 1 (it has 2 points), got 1.5");
  EXPECT_EQ(scene_error("  points: [[2, 5], [18, 5]]\n  links: [[0, 1], [1, 1]]\n"),
            "arena.yaml:7:19: waypoints.links[1]: a link joins two different points, got [1, 1] "
            "(point 1 to itself)");
  EXPECT_EQ(scene_error("  points: [[2, 5], [18, 5], [10, 0.5]]\n  links: [[0, 2], [2, 0]]\n"),
            "arena.yaml:7:19: waypoints.links[1]: duplicate link [2, 0]: points 0 and 2 are "
            "already linked by waypoints.links[0] (at 7:11); a link runs both ways");
  EXPECT_EQ(scene_error("  points: [[2, 5], [18, 5]]\n  links: [[0, 1, 1]]\n"),
            "arena.yaml:7:11: waypoints.links[0]: a link must be two point indices [i, j], got 3 "
            "values: [0, 1, 1]");
  EXPECT_EQ(scene_error("  points: []\n"),
            "arena.yaml:6:11: waypoints.points: waypoints need at least 1 point, got none");
  EXPECT_EQ(scene_error("  links: [[0, 1]]\n"),
            "arena.yaml:6:3: waypoints: missing required key \"points\" (the waypoints, a list "
            "of [x, y] points)");
  EXPECT_EQ(scene_error("  points: [[2, 5], [18]]\n"),
            "arena.yaml:6:20: waypoints.points[1]: a point must be two numbers [x, y], got 1 "
            "value: [18]");
  EXPECT_EQ(
      scene_error("  - [2, 5]\n"),
      "arena.yaml:6:3: waypoints: expected a map with points: and links:, got a list [[2, 5]]");
}

// The FreeSpace of a scene text, for errors the method finds at build.
std::string build_error(const std::string& text, WaypointOptions options = {}) {
  return error_of([&] {
    const Scene scene = parse_native_scene(text, "arena.yaml");
    const FreeSpace space(scene);
    make_waypoint_method(space, options);
  });
}

TEST(WaypointScene, BlockedWaypointsAndLinksAreRefusedWhereWritten) {
  // Link 2 joins (2, 5) and (18, 5) straight through the obstacle; links 0 and 1 pass below it.
  EXPECT_EQ(build_error(std::string(head) + "  points: [[2, 5], [18, 5], [10, 0.5], [2, 9]]\n"
                                            "  links: [[0, 2], [2, 1], [0, 1]]\n"),
            "arena.yaml:7:27: waypoints.links[2]: the link from waypoint 0 (2, 5) to waypoint 1 "
            "(18, 5) is not a valid motion: the straight segment between them leaves free space "
            "(it crosses an obstacle or the bounds, or passes within the agent's radius of one)");
  EXPECT_EQ(build_error(std::string(head) + "  points: [[2, 5], [10, 5]]\n"),
            "arena.yaml:6:20: waypoints.points[1]: waypoint 1 (10, 5) is not in free space: it "
            "lies inside obstacles[0]; a waypoint must be a place the agent can stand");
  // Free for a point, not for an agent of radius 0.5.
  EXPECT_EQ(build_error("version: 1\n"
                        "bounds: [[0, 0], [20, 0], [20, 10], [0, 10]]\n"
                        "agent: {radius: 0.5}\n"
                        "obstacles:\n"
                        "  - [[8, 2], [12, 2], [12, 8], [8, 8]]\n"
                        "waypoints:\n"
                        "  points: [[2, 5], [7.8, 5]]\n"),
            "arena.yaml:7:20: waypoints.points[1]: waypoint 1 (7.8, 5) is not in free space: it "
            "lies within the agent radius 0.5 of obstacles[0]; a waypoint must be a place the "
            "agent can stand");
  // Without links, only the pairs in line of sight are linked: nothing is refused.
  const Scene scene = parse_native_scene(
      std::string(head) + "  points: [[2, 5], [18, 5], [10, 0.5], [2, 9]]\n", "arena.yaml");
  const FreeSpace space(scene);
  const WaypointGraph g(space);
  EXPECT_TRUE(g.build_stats().from_scene);
  EXPECT_FALSE(g.build_stats().links_given);
  // 0-2, 0-3, 2-1 see each other; 0-1, 1-3 and 2-3 are blocked by the obstacle.
  EXPECT_EQ(g.build_stats().links, 3u);
}

TEST(WaypointScene, BudgetsAreRefusedNamingTheirOptions) {
  const std::string text = std::string(head) + "  points: [[2, 5], [18, 5], [10, 0.5], [2, 9]]\n";
  WaypointOptions few;
  few.max_nodes = 3;
  EXPECT_NE(build_error(text, few).find("waypoints.max_nodes: the waypoint graph would have 4 "
                                        "waypoints, more than the budget of 3"),
            std::string::npos)
      << build_error(text, few);
  WaypointOptions thin;
  thin.max_links = 2;
  EXPECT_NE(build_error(text, thin).find("waypoints.max_links: "), std::string::npos)
      << build_error(text, thin);
  WaypointOptions slow;
  slow.max_build_seconds = 0.0;  // any build takes longer
  slow.source = WaypointSource::corners;
  EXPECT_NE(error_of([&] {
              const FreeSpace space(load_scene(scenes_dir / "warehouse.yaml"));
              WaypointGraph g(space, slow);
            }).find("space.max_build_seconds"),
            std::string::npos);
}

TEST(WaypointScene, JsonSpellingReadsTheSame) {
  const Scene yaml = parse_native_scene(std::string(head) +
                                            "  points: [[2, 5], [18, 5], [10, 0.5]]\n"
                                            "  links: [[0, 2], [2, 1]]\n",
                                        "arena.yaml");
  const Scene json = parse_native_scene(
      R"({"version": 1, "bounds": [[0, 0], [20, 0], [20, 10], [0, 10]],
 "obstacles": [[[8, 2], [12, 2], [12, 8], [8, 8]]],
 "waypoints": {"points": [[2, 5], [18, 5], [10, 0.5]], "links": [[0, 2], [2, 1]]}})",
      "arena.json");
  ASSERT_TRUE(yaml.waypoints && json.waypoints);
  EXPECT_EQ(yaml.waypoints->points, json.waypoints->points);
  EXPECT_EQ(yaml.waypoints->links, json.waypoints->links);
  EXPECT_EQ(json.waypoints->link_where[1].line, 3);
  EXPECT_EQ(error_of([] {
              parse_native_scene(R"({"version": 1, "bounds": [[0, 0], [20, 0], [20, 10], [0, 10]],
 "waypoints": {"points": [[2, 5], [18, 5]], "links": [[0, 3]]}})",
                                 "arena.json");
            }),
            "arena.json:2:59: waypoints.links[0]: point index 3 is out of range: expected an "
            "index into waypoints.points, from 0 to 1 (it has 2 points)");
}

TEST(WaypointScene, RoundTripThroughTheNativeWriterKeepsPointsAndLinks) {
  const auto round_trip = [](const Scene& scene) {
    return parse_native_scene(export_native_scene(scene).text, "again.yaml");
  };
  const Scene scene = arena();
  const Scene again = round_trip(scene);
  ASSERT_TRUE(again.waypoints.has_value());
  EXPECT_EQ(again.waypoints->points, scene.waypoints->points);
  EXPECT_EQ(again.waypoints->links, scene.waypoints->links);
  EXPECT_TRUE(again.waypoints->links_given);
  // Links left out stay left out (every pair in sight is linked); an empty list stays empty.
  for (const char* links : {"", "  links: []\n"}) {
    const Scene s = parse_native_scene(
        std::string(head) + "  points: [[2, 5], [18, 5], [0.1, 0.2]]\n" + links, "arena.yaml");
    const Scene t = round_trip(s);
    ASSERT_TRUE(t.waypoints.has_value());
    EXPECT_EQ(t.waypoints->points, s.waypoints->points);
    EXPECT_EQ(t.waypoints->links_given, s.waypoints->links_given);
    EXPECT_TRUE(t.waypoints->links.empty());
  }
  EXPECT_FALSE(round_trip(load_scene(scenes_dir / "office.yaml")).waypoints.has_value());
  // And the converted arena plans the same.
  const FreeSpace a(scene), b(again);
  const std::unique_ptr<Method> ma = make_waypoint_method(a, {}), mb = make_waypoint_method(b, {});
  QueryWorkspace ws;
  for (const Query& q : scene.queries) {
    const RawPath ra = ma->find_path(q.start, q.goal, {}, ws);
    const RawPath rb = mb->find_path(q.start, q.goal, {}, ws);
    EXPECT_EQ(ra.points, rb.points) << q.name;
  }
}

// ---------------------------------------------------------------------------------------------

TEST(WaypointGraph, ArenaTableEqualsOnlineSearch) {
  const Scene scene = arena();
  const FreeSpace space(scene);
  const WaypointGraph g(space);
  EXPECT_TRUE(g.build_stats().from_scene);
  EXPECT_TRUE(g.build_stats().links_given);
  EXPECT_EQ(g.build_stats().links, 16u);
  EXPECT_EQ(g.node_count(), 12u);
  EXPECT_TRUE(g.has_table());
  expect_table_equals_search(scene, space, {}, 300);
}

TEST(WaypointGraph, ArenaQueriesGoThroughTheWaypoints) {
  const Scene scene = arena();
  const FreeSpace space(scene);
  const std::unique_ptr<Method> method = make_waypoint_method(space, {});
  const validity::ExactChecker checker(scene);
  QueryWorkspace ws;
  method->prepare(ws);
  for (const Query& q : scene.queries) {
    const RawPath r = method->find_path(q.start, q.goal, {}, ws);
    ASSERT_EQ(r.status, search::SearchStatus::found) << q.name << ": " << r.message;
    EXPECT_EQ(r.method, "waypoints");
    EXPECT_FALSE(r.nodes.empty()) << q.name << " goes straight, not through the waypoints";
    expect_sound(space, checker, r, q.start, q.goal);
    // Every point between the ends is a waypoint, and consecutive ones are linked.
    for (std::size_t k = 1; k + 1 < r.points.size(); ++k)
      EXPECT_NE(
          std::find(scene.waypoints->points.begin(), scene.waypoints->points.end(), r.points[k]),
          scene.waypoints->points.end());
    for (std::size_t k = 1; k < r.nodes.size(); ++k) {
      const auto [a, b] = std::minmax(r.nodes[k - 1], r.nodes[k]);
      bool linked = false;
      for (const auto& l : scene.waypoints->links)
        linked = linked || (std::min(l[0], l[1]) == a && std::max(l[0], l[1]) == b);
      EXPECT_TRUE(linked) << q.name << ": " << a << " - " << b;
    }
  }
  // Through the Planner too, whose final exact check must pass.
  const auto shared = std::make_shared<const FreeSpace>(scene);
  const Planner planner(shared, make_waypoint_method(*shared, {}));
  for (const Query& q : scene.queries) {
    const PlanResult result = planner.plan(q.start, q.goal);
    EXPECT_EQ(result.status, search::SearchStatus::found) << q.name << ": " << result.message;
  }
}

TEST(WaypointGraph, StraightSegmentWhenCheaper) {
  const Scene scene = arena();
  const FreeSpace space(scene);
  const std::unique_ptr<Method> method = make_waypoint_method(space, {});
  QueryWorkspace ws;
  // In open ground beside a base: straight, no waypoint.
  const RawPath r = method->find_path({2, 6}, {6, 7}, {}, ws);
  ASSERT_EQ(r.status, search::SearchStatus::found);
  EXPECT_EQ(r.points, (std::vector<Point>{{2, 6}, {6, 7}}));
  EXPECT_TRUE(r.nodes.empty());
  EXPECT_TRUE(near(r.graph_cost, distance({2, 6}, {6, 7})));
  // The sand region is weighted: the straight segment is offered but not taken on faith.
  EXPECT_FALSE(graph_of(*method).direct_cost({2, 6}, {6, 7}).has_value());
}

TEST(WaypointGraph, GoalSetsAndReach) {
  const Scene scene = arena();
  const FreeSpace space(scene);
  WaypointOptions options;
  const std::unique_ptr<Method> table = make_waypoint_method(space, options);
  options.max_table_nodes = 0;
  const std::unique_ptr<Method> online = make_waypoint_method(space, options);
  QueryWorkspace ws;
  const std::vector<Point> points = free_points(space, 60, 11);
  for (std::size_t k = 0; k + 3 < points.size(); k += 4) {
    const std::vector<Point> goals(points.begin() + k + 1, points.begin() + k + 4);
    std::size_t ra = 9, rb = 9;
    const RawPath a = table->find_path_to_any(points[k], goals, {}, ws, ra);
    const RawPath b = online->find_path_to_any(points[k], goals, {}, ws, rb);
    ASSERT_EQ(a.status, b.status) << a.message << " / " << b.message;
    if (a.status != search::SearchStatus::found) continue;
    EXPECT_TRUE(near(a.graph_cost, b.graph_cost));
    // The cheapest goal: no single goal is cheaper.
    for (const Point& goal : goals) {
      const RawPath one = table->find_path(points[k], goal, {}, ws);
      if (one.status == search::SearchStatus::found) {
        EXPECT_LE(a.graph_cost, one.graph_cost * (1 + 1e-12));
      }
    }
    ASSERT_LT(ra, goals.size());
    EXPECT_EQ(a.points.back(), goals[ra]);
  }
  const Reach reach = table->reach({4, 4}, 20.0, ws);
  EXPECT_EQ(reach.status, search::SearchStatus::found) << reach.message;
  EXPECT_FALSE(reach.places.empty());
  for (std::size_t k = 1; k < reach.places.size(); ++k)
    EXPECT_LE(reach.places[k - 1].cost, reach.places[k].cost);
  for (const ReachedPlace& p : reach.places) EXPECT_LE(p.cost, 20.0);
}

TEST(WaypointGraph, CostLimitAndPartialPaths) {
  const Scene scene = arena();
  const FreeSpace space(scene);
  const std::unique_ptr<Method> method = make_waypoint_method(space, {});
  QueryWorkspace ws;
  const Query& q = scene.queries[0];  // base to base, the length of the arena and more
  QueryOptions limited;
  limited.search.max_cost = 10.0;
  const RawPath r = method->find_path(q.start, q.goal, limited, ws);
  EXPECT_EQ(r.status, search::SearchStatus::limit_reached) << r.message;
  limited.search.partial_fallback = true;
  const RawPath p = method->find_path(q.start, q.goal, limited, ws);
  EXPECT_EQ(p.status, search::SearchStatus::partial) << p.message;
  // A scene whose waypoints cannot reach each other: different components, said so.
  const Scene split = parse_native_scene(
      std::string(head) + "  points: [[2, 5], [18, 5]]\n  links: []\n", "arena.yaml");
  const FreeSpace split_space(split);
  const std::unique_ptr<Method> m = make_waypoint_method(split_space, {});
  const RawPath none = m->find_path({1, 5}, {19, 5}, {}, ws);
  EXPECT_EQ(none.status, search::SearchStatus::no_path);
  EXPECT_NE(none.message.find("different connected components of the waypoint graph"),
            std::string::npos)
      << none.message;
  // A start in a courtyard sees no waypoint, and the goal is not in sight.
  const Scene courtyard = parse_native_scene(
      "version: 1\n"
      "bounds: [[0, 0], [20, 0], [20, 10], [0, 10]]\n"
      "obstacles:\n"
      "  - outer: [[8, 2], [12, 2], [12, 8], [8, 8]]\n"
      "    holes: [[[9, 3], [11, 3], [11, 7], [9, 7]]]\n"
      "waypoints:\n"
      "  points: [[2, 5], [18, 5]]\n",
      "courtyard.yaml");
  const FreeSpace courtyard_space(courtyard);
  const std::unique_ptr<Method> c = make_waypoint_method(courtyard_space, {});
  const RawPath blind = c->find_path({10, 5}, {19, 5}, {}, ws);
  EXPECT_EQ(blind.status, search::SearchStatus::no_path);
  EXPECT_NE(blind.message.find("the start sees no waypoint"), std::string::npos) << blind.message;
}

TEST(WaypointGraph, OneWayLinksDownASteps) {
  // A plateau of height 2 with a climb limit of 1: the link onto it runs down only.
  const Scene scene = parse_native_scene(
      "version: 1\n"
      "bounds: [[0, 0], [20, 0], [20, 10], [0, 10]]\n"
      "agent: {max_climb: 1}\n"
      "regions:\n"
      "  - {cost: 1, height: 2, polygon: [[10, 0], [20, 0], [20, 10], [10, 10]]}\n"
      "waypoints:\n"
      "  points: [[2, 5], [8, 5], [12, 5], [18, 5]]\n"
      "  links: [[0, 1], [1, 2], [2, 3]]\n",
      "plateau.yaml");
  const FreeSpace space(scene);
  WaypointOptions options;
  const std::unique_ptr<Method> table = make_waypoint_method(space, options);
  EXPECT_TRUE(graph_of(*table).directed());
  EXPECT_EQ(graph_of(*table).components(), nullptr);
  QueryWorkspace ws;
  const RawPath down = table->find_path({19, 2}, {1, 2}, {}, ws);
  EXPECT_EQ(down.status, search::SearchStatus::found) << down.message;
  const RawPath up = table->find_path({1, 2}, {19, 2}, {}, ws);
  EXPECT_EQ(up.status, search::SearchStatus::no_path) << up.message;
  expect_table_equals_search(scene, space, options, 100);
}

// Two triangles touching at (5, 5): free space there has a narrow sector below the point and a
// wide one above, and a route from below to above may not pass between them (gaps are closed).
constexpr const char* pinch =
    "version: 1\n"                                    // 1
    "bounds: [[0, 0], [10, 0], [10, 10], [0, 10]]\n"  // 2
    "obstacles:\n"                                    // 3
    "  - [[5, 5], [2, 4], [3.5, 2]]\n"                // 4
    "  - [[5, 5], [6.5, 2], [8, 4]]\n";               // 5

TEST(WaypointGraph, RoutesDoNotSlipThroughAPinch) {
  const Scene scene = parse_native_scene(pinch, "pinch.yaml");
  const Point below{5, 3}, above{5, 8};
  for (const bool open : {false, true}) {
    SCOPED_TRACE(open ? "open gaps" : "closed gaps");
    FreeSpaceOptions space_options;
    space_options.open_gaps = open;
    const FreeSpace space(scene, space_options);
    const bool pinch_is_a_corner =
        std::any_of(space.corners().begin(), space.corners().end(), [](const Corner& c) {
          return c.at == Point{5, 5};
        });
    ASSERT_TRUE(pinch_is_a_corner);
    const std::unique_ptr<Method> method = make_waypoint_method(space, {});
    QueryWorkspace ws;
    const RawPath r = method->find_path(below, above, {}, ws);
    ASSERT_EQ(r.status, search::SearchStatus::found) << r.message;
    validity::CheckerOptions checker_options;
    checker_options.open_gaps = open;
    const validity::ExactChecker checker(scene, checker_options);
    const validity::Verdict v = checker.check_path(r.points);
    EXPECT_TRUE(v.valid()) << v.reason;
    const RawPath shortest = find_path(VisibilityGraph(space), below, above);
    ASSERT_EQ(shortest.status, search::SearchStatus::found);
    EXPECT_TRUE(near(r.graph_cost, path_length(shortest.points)))
        << r.graph_cost << " vs " << path_length(shortest.points);
    if (open) {
      EXPECT_TRUE(near(r.graph_cost, 5.0)) << "straight through the open gap";
    } else {
      EXPECT_GT(r.graph_cost, 5.5) << "round a triangle";
    }
  }
  // A waypoint on the point itself is refused where it is written, unless gaps are open.
  const std::string text = std::string(pinch) + "waypoints:\n  points: [[5, 3], [5, 5], [5, 8]]\n";
  EXPECT_EQ(build_error(text),
            "arena.yaml:7:20: waypoints.points[1]: waypoint 1 (5, 5) lies where blocked parts "
            "touch (a gap of zero width), and a route turning there could slip through the gap: "
            "move it off that point (or open gaps with --set space.gaps=open)");
  FreeSpaceOptions open;
  open.open_gaps = true;
  const FreeSpace open_space(parse_native_scene(text, "arena.yaml"), open);
  const WaypointGraph g(open_space);
  EXPECT_EQ(g.node_count(), 3u);
}

// ---------------------------------------------------------------------------------------------

TEST(RouteTable, DijkstraAndFloydWarshallMatchBoost) {
  const Scene scene = arena();
  const FreeSpace space(scene);
  const WaypointGraph arena_graph(space);
  const FreeSpace warehouse(load_scene(scenes_dir / "warehouse.yaml"));
  WaypointOptions corners;
  corners.source = WaypointSource::corners;
  const WaypointGraph corner_graph(warehouse, corners);
  ASSERT_GT(corner_graph.node_count(), 64u);  // above Floyd-Warshall's share: Dijkstra built it
  EXPECT_FALSE(corner_graph.build_stats().floyd_warshall);
  EXPECT_TRUE(arena_graph.build_stats().floyd_warshall);
  for (const WaypointGraph* g : {&arena_graph, &corner_graph}) {
    SCOPED_TRACE(g->summary());
    expect_table_matches_boost(g->graph(), g->table());
    expect_table_matches_boost(g->graph(), all_pairs_dijkstra(g->graph()));
    expect_table_matches_boost(g->graph(), all_pairs_floyd_warshall(g->graph()));
  }
}

TEST(RouteTable, RandomGraphsMatchBoost) {
  std::mt19937 rng(3);
  for (int round = 0; round < 20; ++round) {
    const std::size_t n = 1 + rng() % 90;
    std::vector<search::Edge> edges;
    const std::size_t m = rng() % (3 * n + 1);
    std::uniform_real_distribution<double> cost(0.0, 10.0);
    for (std::size_t k = 0; k < m; ++k)
      edges.push_back({search::NodeId(rng() % n), search::NodeId(rng() % n),
                       (rng() % 5 == 0) ? 0.0 : cost(rng)});
    const search::CsrGraph graph(n, edges, search::Direction::directed);
    expect_table_matches_boost(graph, all_pairs_dijkstra(graph));
    expect_table_matches_boost(graph, all_pairs_floyd_warshall(graph));
  }
}

// ---------------------------------------------------------------------------------------------

// The bundled native scenes.
std::vector<fs::path> bundled() {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(scenes_dir))
    if (entry.path().extension() == ".yaml") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(WaypointCorners, TableEqualsOnlineSearchOnTheWarehouse) {
  const Scene scene = load_scene(scenes_dir / "warehouse.yaml");
  const FreeSpace space(scene);
  WaypointOptions corners;
  corners.source = WaypointSource::corners;
  expect_table_equals_search(scene, space, corners, 200);
}

// Generated corners linked by line of sight contain the visibility graph's edges, and no path
// through them is shorter than the Euclidean shortest path: on unweighted scenes their lengths
// are the visibility graph's. On the weighted warehouse the waypoints minimise cost, so they
// cost at most what the visibility graph's shortest path does.
TEST(WaypointCorners, LengthsEqualTheVisibilityGraphsOnBundledScenes) {
  std::size_t compared = 0;
  for (const fs::path& file : bundled()) {
    SCOPED_TRACE(file.filename().string());
    Scene scene = load_scene(file);
    scene.regions.clear();  // unweighted: both are shortest over the same corners
    const FreeSpace space(scene);
    WaypointOptions corners;
    corners.source = WaypointSource::corners;
    const std::unique_ptr<Method> method = make_waypoint_method(space, corners);
    const VisibilityGraph visgraph(space);
    const validity::ExactChecker checker(scene);
    QueryWorkspace ws;
    std::vector<std::pair<Point, Point>> pairs;
    for (const Query& q : scene.queries) pairs.push_back({q.start, q.goal});
    const std::vector<Point> points = free_points(space, 40, 5);
    for (std::size_t k = 0; k + 1 < points.size(); k += 2)
      pairs.push_back({points[k], points[k + 1]});
    for (const auto& [start, goal] : pairs) {
      if (!space.is_free(start) || !space.is_free(goal)) continue;
      const RawPath w = method->find_path(start, goal, {}, ws);
      const RawPath v = find_path(visgraph, start, goal);
      ASSERT_EQ(w.status, v.status)
          << text_of(start) << " -> " << text_of(goal) << ": " << w.message << " / " << v.message;
      if (w.status != search::SearchStatus::found) continue;
      ++compared;
      EXPECT_TRUE(near(w.graph_cost, path_length(v.points)))
          << text_of(start) << " -> " << text_of(goal) << ": " << w.graph_cost << " vs "
          << path_length(v.points);
      expect_sound(space, checker, w, start, goal);
    }
  }
  EXPECT_GT(compared, 100u);

  const Scene warehouse = load_scene(scenes_dir / "warehouse.yaml");
  const FreeSpace space(warehouse);
  WaypointOptions corners;
  corners.source = WaypointSource::corners;
  const std::unique_ptr<Method> method = make_waypoint_method(space, corners);
  const VisibilityGraph visgraph(space);
  QueryWorkspace ws;
  for (const Query& q : warehouse.queries) {
    const RawPath w = method->find_path(q.start, q.goal, {}, ws);
    const RawPath v = find_path(visgraph, q.start, q.goal);
    ASSERT_EQ(w.status, search::SearchStatus::found) << q.name << ": " << w.message;
    ASSERT_EQ(v.status, search::SearchStatus::found) << q.name;
    EXPECT_LE(w.graph_cost, space.path_cost(v.points) * (1 + 1e-9)) << q.name;
  }
}

TEST(WaypointCorners, PrimitivesAndSummary) {
  const Scene scene = arena();
  const FreeSpace space(scene);
  const WaypointGraph g(space);
  const Primitives p = g.primitives();
  EXPECT_EQ(p.nodes.size(), 12u);
  EXPECT_EQ(p.arcs.size(), 16u);
  const std::string s = g.summary();
  EXPECT_NE(s.find("12 waypoints (the scene's), 16 links (the scene's)"), std::string::npos) << s;
  EXPECT_NE(s.find("per waypoint"), std::string::npos) << s;
  EXPECT_EQ(g.method(), "waypoints");
  EXPECT_EQ(g.graph_noun(), "waypoint graph");
}

}  // namespace
}  // namespace polynav
