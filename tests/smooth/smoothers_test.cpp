// The line-of-sight smoothers (shortcut, tentpole, shortcut-optimal) on the raw paths of every
// method over the bundled scenes: each output is valid and never costlier than its input;
// shortcut-optimal is never costlier than the other two, and on scenes without pinches it equals
// an independent shortest path (Boost.Graph Dijkstra) over the waypoints' visibility graph.

#include <gtest/gtest.h>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <filesystem>

#include "polynav/plan/planner.hpp"
#include "polynav/plan/registry.hpp"
#include "polynav/smooth/path_simplifier.hpp"

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

TEST(Smoothers, EveryRegisteredSmootherRunsThroughThePlanner) {
  const Scene scene = load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "warehouse.yaml");
  for (const std::string& smoother : smoother_names()) {
    PlanOptions options;
    options.smoother = smoother;
    const Planner planner(scene, options);
    for (const Query& q : scene.queries) {
      const PlanResult r = planner.plan(q.start, q.goal);
      ASSERT_TRUE(r.found()) << smoother << " " << q.name << ": " << r.message;
      EXPECT_LE(r.cost, r.raw_cost * (1 + 1e-12)) << smoother;
    }
  }
}

}  // namespace
}  // namespace polynav
