// The line-of-sight smoothers (shortcut, tentpole, shortcut-optimal) on the raw paths of every
// method over the bundled scenes: each output is valid and never costlier than its input;
// shortcut-optimal is never costlier than the other two, and on scenes without pinches it equals
// an independent shortest path (Boost.Graph Dijkstra) over the waypoints' visibility graph. The
// spline smoother's output is always valid, passes through its input's waypoints, and is curved
// where free space allows.

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <filesystem>
#include <random>

#include "polynav/plan/planner.hpp"
#include "polynav/plan/registry.hpp"
#include "polynav/smooth/path_simplifier.hpp"
#include "polynav/smooth/spline.hpp"

#include "discretise/random_scenes.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

// The least cost from the first waypoint to the last over straight moves between waypoints that
// are traversable and not costlier than the stretch of path they replace.
double visibility_optimum(const FreeSpace& space, const std::vector<Point>& path) {
  using Graph =
      boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                            boost::property<boost::edge_weight_t, double>>;
  const std::size_t n = path.size();
  Graph g(n);
  std::vector<double> prefix(n, 0.0);
  for (std::size_t k = 1; k < n; ++k)
    prefix[k] = prefix[k - 1] + space.segment_cost(path[k - 1], path[k]);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      const double c = space.segment_cost(path[i], path[j]);
      if (j == i + 1 ||
          (space.traversable(path[i], path[j]) && c <= (prefix[j] - prefix[i]) * (1 + 1e-12)))
        boost::add_edge(i, j, j == i + 1 ? prefix[j] - prefix[i] : c, g);
    }
  std::vector<double> d(n);
  boost::dijkstra_shortest_paths(g, 0, boost::distance_map(d.data()));
  return d[n - 1];
}

TEST(Smoothers, NeverCostlierShortcutOptimalBestAndExactWithinTheWaypoints) {
  const fs::path scenes = fs::path(POLYNAV_SOURCE_DIR) / "scenes";
  std::size_t paths = 0, improved = 0;
  for (const char* file : {"maze.yaml", "office.yaml", "warehouse.yaml", "island.yaml",
                           "forest.yaml", "terrain.yaml"}) {
    const Scene scene = load_scene(scenes / file);
    for (const char* method : {"grid", "quadtree", "navmesh"}) {
      PlanOptions options;
      options.method = method;
      options.smoother = "none";
      const Planner planner(scene, options);
      const PathSimplifier simplifier(planner.free_space());
      const FreeSpace& space = planner.free_space();
      for (const Query& q : scene.queries) {
        const PlanResult r = planner.plan(q.start, q.goal);
        if (!r.found() || r.raw_waypoints.size() < 3) continue;
        ++paths;
        const double raw_cost = space.path_cost(r.raw_waypoints);
        std::vector<Point> greedy = r.raw_waypoints, tent = greedy, best = greedy;
        simplifier.shortcut(greedy);
        simplifier.tentpole(tent);
        simplifier.shortcut_optimal(best, best.size());
        for (const auto* p : {&greedy, &tent, &best}) {
          EXPECT_TRUE(simplifier.is_valid(*p)) << file << " " << method << " " << q.name;
          EXPECT_EQ(p->front(), r.raw_waypoints.front());
          EXPECT_EQ(p->back(), r.raw_waypoints.back());
          EXPECT_LE(space.path_cost(*p), raw_cost * (1 + 1e-12)) << file << " " << method;
        }
        const double best_cost = space.path_cost(best);
        EXPECT_LE(best_cost, space.path_cost(greedy) * (1 + 1e-12)) << file << " " << method;
        EXPECT_LE(best_cost, space.path_cost(tent) * (1 + 1e-12)) << file << " " << method;
        // These scenes have an agent radius or no touching obstacles: no pinches, so no turn
        // constraint binds and the dynamic programme is exact within the waypoints.
        EXPECT_NEAR(best_cost, visibility_optimum(space, r.raw_waypoints), 1e-9 * best_cost)
            << file << " " << method << " " << q.name;
        improved += space.path_cost(tent) < space.path_cost(greedy) * (1 - 1e-9);
      }
    }
  }
  EXPECT_GT(paths, 20u);
  // Tentpole's backtracking pays somewhere on these scenes (otherwise it would be greedy).
  EXPECT_GT(improved, 0u);
}

TEST(Smoothers, TentpoleBendsWhereTheCheaperPathDoes) {
  // A wall from (4, 1) up to (4, 10) in a 10 x 10 room; the raw path runs right along y = 0.5
  // to (5, 0.5), then up to (5, 9) and left to (1, 9). From (0, 0.5) greedy sight runs to
  // (5, 0.5) and breaks at (5, 9); tentpole may bend earlier, at (4.5, 0.5), which sees (5, 9).
  Scene scene = parse_native_scene(R"(
version: 1
bounds: [[0, 0], [10, 0], [10, 10], [0, 10]]
obstacles:
  - [[3.9, 1], [4.1, 1], [4.1, 10], [3.9, 10]]
)",
                                   "wall.yaml");
  const FreeSpace space(scene);
  const PathSimplifier simplifier(space);
  const std::vector<Point> raw = {{0, 0.5}, {4.5, 0.5}, {5, 0.5}, {5, 9}, {5, 9.5}};
  ASSERT_TRUE(simplifier.is_valid(raw));
  std::vector<Point> greedy = raw, tent = raw, best = raw;
  simplifier.shortcut(greedy);
  simplifier.tentpole(tent);
  simplifier.shortcut_optimal(best, 16);
  EXPECT_LT(space.path_cost(tent), space.path_cost(greedy));
  EXPECT_NEAR(space.path_cost(best), space.path_cost(tent), 1e-12);
  EXPECT_EQ(tent, (std::vector<Point>{{0, 0.5}, {4.5, 0.5}, {5, 9.5}}));
}

TEST(Smoothers, ShortcutMayEndItsSightlineInsideAStraightRun) {
  // The raw path runs up from (0, 0) to (0, 5), then right along y = 5 to (10, 5), one waypoint
  // per unit. A block from (3.3, 0.5) to (3.7, 2.7) hides (7, 5) .. (10, 5) from (0, 0), which
  // still sees (6, 5) over it. Every waypoint is a candidate, so the sightline ends at (6, 5) in
  // the middle of the run, not at the bend (0, 5) that a path of bends alone would offer.
  Scene scene = parse_native_scene(R"(
version: 1
bounds: [[-1, -1], [12, -1], [12, 7], [-1, 7]]
obstacles:
  - [[3.3, 0.5], [3.7, 0.5], [3.7, 2.7], [3.3, 2.7]]
)",
                                   "run.yaml");
  const FreeSpace space(scene);
  const PathSimplifier simplifier(space);
  std::vector<Point> raw;
  for (int y = 0; y <= 5; ++y) raw.push_back({0, double(y)});
  for (int x = 1; x <= 10; ++x) raw.push_back({double(x), 5});
  ASSERT_TRUE(simplifier.is_valid(raw));
  ASSERT_FALSE(space.traversable({0, 0}, {7, 5}));
  std::vector<Point> greedy = raw, tent = raw, bends_only = raw;
  simplifier.shortcut(greedy);
  simplifier.remove_collinear(greedy);
  EXPECT_EQ(greedy, (std::vector<Point>{{0, 0}, {6, 5}, {10, 5}}));
  simplifier.tentpole(tent);
  EXPECT_TRUE(simplifier.is_valid(tent));
  EXPECT_LE(space.path_cost(tent), space.path_cost(greedy) * (1 + 1e-12));
  // Offered only the bends, the same pass cannot stop mid-run and keeps the corner.
  simplifier.remove_collinear(bends_only);
  simplifier.shortcut(bends_only);
  EXPECT_GT(space.path_cost(bends_only), space.path_cost(greedy) + 1.0);
}

TEST(Smoothers, EveryRegisteredSmootherRunsThroughThePlanner) {
  const Scene scene = load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "warehouse.yaml");
  for (const std::string& smoother : smoother_names()) {
    PlanOptions options;
    options.smoother = smoother;
    const Planner planner(scene, options);
    for (const Query& q : scene.queries) {
      const PlanResult r = planner.plan(q.start, q.goal);
      ASSERT_TRUE(r.found()) << smoother << " " << q.name << ": " << r.message;
      EXPECT_TRUE(PathSimplifier(planner.free_space()).is_valid(r.waypoints)) << smoother;
      EXPECT_EQ(r.message.find("invalid"), std::string::npos) << smoother << ": " << r.message;
      // Curves are not shortest: spline's contract is validity, not cost.
      if (smoother != "spline") {
        EXPECT_LE(r.cost, r.raw_cost * (1 + 1e-12)) << smoother;
      }
    }
  }
}

// A navigation-mesh path that turns near a pinch: shortcut jumped to a point where the path then
// had to turn through the pinch (so its result was refused for the raw path), and the spline
// smoother, starting from that shortcut, backtracked for ever. Every smoother must now give a
// valid path of its own, on every method, and end.
TEST(Smoothers, NoSmootherTurnsThroughAPinchOrLoops) {
  const Scene scene = load_scene(fs::path(POLYNAV_SOURCE_DIR) / "tests" / "corpus" / "smoothing" /
                                 "pinch_turn_far.yaml");
  ASSERT_EQ(scene.queries.size(), 1u);
  const Query& q = scene.queries.front();
  for (const std::string method : {"navmesh", "grid", "quadtree", "visgraph"}) {
    for (const std::string& smoother : smoother_names()) {
      PlanOptions options;
      options.method = method;
      options.smoother = smoother;
      const Planner planner(scene, options);
      const PlanResult r = planner.plan(q.start, q.goal);
      ASSERT_TRUE(r.found()) << method << " " << smoother << ": " << r.message;
      EXPECT_TRUE(PathSimplifier(planner.free_space()).is_valid(r.waypoints))
          << method << " " << smoother;
      EXPECT_EQ(r.message.find("invalid"), std::string::npos)
          << method << " " << smoother << ": " << r.message;
    }
  }
}

// Whether `inner` appears in `outer` in order (not necessarily next to each other).
bool in_order(const std::vector<Point>& inner, const std::vector<Point>& outer) {
  std::size_t k = 0;
  for (const Point& p : outer)
    if (k < inner.size() && p == inner[k]) ++k;
  return k == inner.size();
}

TEST(Spline, ValidThroughItsWaypointsOnEveryMethodsPathsAndRandomScenes) {
  std::size_t paths = 0, curved = 0, flattened = 0, straight = 0;
  const auto check = [&](const FreeSpace& space, const std::vector<Point>& raw,
                         const std::string& where) {
    const PathSimplifier simplifier(space);
    std::vector<Point> input = raw;
    simplifier.remove_collinear(input);
    simplifier.shortcut(input);
    simplifier.remove_collinear(input);
    for (const std::size_t samples : {std::size_t{1}, std::size_t{8}}) {
      SplineOptions options;
      options.samples = samples;
      const SplineResult r = spline_smooth(space, input, options);
      ++paths;
      ASSERT_TRUE(simplifier.is_valid(r.path)) << where;
      EXPECT_FALSE(r.fell_back) << where << ": every piece was checked, the whole must pass";
      EXPECT_EQ(r.path.front(), input.front()) << where;
      EXPECT_EQ(r.path.back(), input.back()) << where;
      EXPECT_TRUE(in_order(input, r.path)) << where << ": the curve interpolates its waypoints";
      EXPECT_EQ(r.curved + r.straight, r.spans) << where;
      EXPECT_LE(r.path.size(), r.spans * samples + 1) << where;
      if (samples > 1 && r.curved > r.flattened && input.size() > 2) {
        EXPECT_GT(r.max_curvature, 0.0) << where;
      }
      curved += r.curved;
      flattened += r.flattened;
      straight += r.straight;
    }
  };
  const fs::path scenes = fs::path(POLYNAV_SOURCE_DIR) / "scenes";
  for (const char* file : {"maze.yaml", "office.yaml", "warehouse.yaml", "island.yaml",
                           "forest.yaml", "terrain.yaml", "movingai/arena.map"}) {
    const Scene scene = load_scene(scenes / file);
    for (const char* method : {"grid", "quadtree", "navmesh", "visgraph"}) {
      PlanOptions options;
      options.method = method;
      options.smoother = "none";
      const Planner planner(scene, options);
      std::vector<Query> queries = scene.queries;
      if (queries.empty()) queries = load_scenario(scenes / "movingai" / "arena.map.scen", scene);
      for (std::size_t i = 0; i < queries.size();
           i += std::max<std::size_t>(1, queries.size() / 20)) {
        const PlanResult r = planner.plan(queries[i].start, queries[i].goal);
        if (r.found())
          check(planner.free_space(), r.raw_waypoints, std::string(file) + " " + method);
      }
    }
  }
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const Scene scene = test::random_scene(seed, seed % 2 ? 0.0 : 0.3);
    PlanOptions options;
    options.smoother = "none";
    options.settings.set("grid.resolution", 0.5);
    const Planner planner(scene, options);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> coord(0.0, 20.0);
    for (int q = 0; q < 20; ++q) {
      const PlanResult r = planner.plan({coord(rng), coord(rng)}, {coord(rng), coord(rng)});
      if (r.found())
        check(planner.free_space(), r.raw_waypoints, "random scene " + std::to_string(seed));
    }
  }
  EXPECT_GT(paths, 200u);
  EXPECT_GT(curved, straight);  // mostly curves
  // Somewhere a full curve would have left free space and the span was refined.
  EXPECT_GT(flattened + straight, 0u);
}

TEST(Spline, FlattensOrStraightensWhereTheCurveWouldCutAWall) {
  // A corridor of width 1 turning a right angle round a wall: the full curve through the
  // corner waypoint overshoots into the wall on the outer side, so that span must be refined.
  Scene scene = parse_native_scene(R"(
version: 1
bounds: [[0, 0], [10, 0], [10, 10], [0, 10]]
obstacles:
  - [[0, 1], [9, 1], [9, 10], [0, 10]]
)",
                                   "corridor.yaml");
  const FreeSpace space(scene);
  const PathSimplifier simplifier(space);
  // Along y = 0.5, then up the gap x in [9, 10].
  const std::vector<Point> input = {{0.5, 0.5}, {9.5, 0.5}, {9.5, 9.5}};
  ASSERT_TRUE(simplifier.is_valid(input));
  const SplineResult r = spline_smooth(space, input);
  EXPECT_TRUE(simplifier.is_valid(r.path));
  EXPECT_FALSE(r.fell_back);
  EXPECT_GT(r.curved, 0u);
  EXPECT_GT(r.flattened + r.straight, 0u);
  EXPECT_TRUE(in_order(input, r.path));
  // With no refinement allowed, the colliding spans stay straight.
  SplineOptions rigid;
  rigid.refinements = 0;
  const SplineResult s = spline_smooth(space, input, rigid);
  EXPECT_TRUE(simplifier.is_valid(s.path));
  EXPECT_FALSE(s.fell_back);
  EXPECT_EQ(s.flattened, 0u);
  EXPECT_GT(s.straight, 0u);
}

TEST(Spline, MessageReportsTheLargestCurvature) {
  const Scene scene = load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "warehouse.yaml");
  PlanOptions options;
  options.smoother = "spline";
  const Planner planner(scene, options);
  bool curved = false;
  for (const Query& q : scene.queries) {
    const PlanResult r = planner.plan(q.start, q.goal);
    ASSERT_TRUE(r.found()) << r.message;
    EXPECT_NE(r.message.find("max curvature"), std::string::npos) << r.message;
    curved = curved || r.message.find("radius") != std::string::npos;
    EXPECT_TRUE(PathSimplifier(planner.free_space()).is_valid(r.waypoints));
  }
  EXPECT_TRUE(curved);
}

}  // namespace
}  // namespace polynav
