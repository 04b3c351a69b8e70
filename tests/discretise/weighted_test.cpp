// The weighted method: against an independent oracle (Boost.Graph Dijkstra over a fine lattice
// of points joined by straight segments, each costed by FreeSpace), its cost lies within
// 1 + epsilon of the oracle's and its certified lower bound never exceeds the oracle's cost;
// across one cost boundary the path refracts by Snell's law; the experiment on the bundled
// weighted scenes scores no method below 1 - epsilon against it; every path passes the
// independent exact checker; bad options are refused by name.
#include "polynav/discretise/weighted/weighted_graph.hpp"

#include <gtest/gtest.h>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <cmath>
#include <filesystem>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "discretise/random_scenes.hpp"
#include "polynav/experiment/experiment.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/plan/registry.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"
#include "scene/error_of.hpp"
#include "validity/exact_checker.hpp"

namespace polynav {
namespace {

using test::rect;

Region region(std::string name, double cost, Ring polygon) {
  Region r;
  r.name = std::move(name);
  r.cost = cost;
  r.polygon = std::move(polygon);
  return r;
}

// A 12 x 8 field with a dear marsh, a cheap road and a rock.
Scene small_terrain() {
  Scene scene;
  scene.bounds = rect(0, 0, 12, 8);
  scene.obstacles.push_back({{{{6, 5}, {7, 5}, {7, 6.5}, {6, 6.5}}, {}}, {}});
  scene.regions.push_back(region("marsh", 4.0, {{2, 1}, {7, 1.5}, {6, 4.5}, {1.5, 4}}));
  scene.regions.push_back(region("road", 0.4, rect(0, 6.8, 12, 7.4)));
  scene.regions.push_back(region("sand", 1.7, {{8, 0}, {12, 0}, {12, 5}, {9, 3}}));
  return scene;
}

// The oracle: points on a lattice of spacing h (and the two ends), each joined to every point
// within `reach` lattice steps that it sees, at FreeSpace's exact segment cost; Dijkstra's
// algorithm from Boost.Graph. A fine lattice with long reach approaches the optimum from above
// (its paths are real paths).
double oracle_cost(const FreeSpace& space, Point start, Point goal, double h, int reach) {
  const Box box = space.box();
  const int nx = int(std::floor(box.width() / h)) + 1, ny = int(std::floor(box.height() / h)) + 1;
  std::vector<Point> at;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) at.push_back({box.min.x + i * h, box.min.y + j * h});
  const std::size_t s = at.size(), g = s + 1;
  at.push_back(start);
  at.push_back(goal);
  using Graph =
      boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                            boost::property<boost::edge_weight_t, double>>;
  Graph graph(at.size());
  std::vector<std::uint8_t> free(at.size());
  for (std::size_t k = 0; k < at.size(); ++k) free[k] = space.is_free(at[k]);
  const auto link = [&](std::size_t a, std::size_t b) {
    if (!free[a] || !free[b] || !space.traversable(at[a], at[b])) return;
    boost::add_edge(a, b, space.segment_cost(at[a], at[b]), graph);
  };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      for (int dj = -reach; dj <= reach; ++dj)
        for (int di = -reach; di <= reach; ++di) {
          if ((di == 0 && dj == 0) || std::gcd(std::abs(di), std::abs(dj)) != 1) continue;
          const int x = i + di, y = j + dj;
          if (x < 0 || y < 0 || x >= nx || y >= ny) continue;
          link(std::size_t(j * nx + i), std::size_t(y * nx + x));
        }
  // The ends join every lattice point within reach steps.
  for (std::size_t k = 0; k < s; ++k) {
    if (distance(at[k], start) <= reach * h) link(s, k);
    if (distance(at[k], goal) <= reach * h) link(k, g);
  }
  link(s, g);
  std::vector<double> dist(at.size());
  boost::dijkstra_shortest_paths(graph, s, boost::distance_map(dist.data()));
  return dist[g];
}

PlanOptions weighted_options(double epsilon, const std::string& smoother = "none") {
  PlanOptions options;
  options.method = "weighted";
  options.smoother = smoother;
  options.settings.set("weighted.epsilon", epsilon);
  options.settings.set("weighted.lower_bound", true);
  return options;
}

TEST(Weighted, WithinEpsilonOfAFineOracleAndNeverAboveItsLowerBound) {
  const Scene scene = small_terrain();
  const auto space = std::make_shared<const FreeSpace>(scene);
  const double epsilon = 0.1;
  const Planner planner(space, weighted_options(epsilon));
  const validity::ExactChecker checker(scene);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> x(0.2, 11.8), y(0.2, 7.8);
  int compared = 0;
  while (compared < 6) {
    const Point start{x(rng), y(rng)}, goal{x(rng), y(rng)};
    if (!space->is_free(start) || !space->is_free(goal)) continue;
    const PlanResult r = planner.plan(start, goal);
    ASSERT_TRUE(r.found()) << r.message;
    ASSERT_TRUE(checker.check_path(r.waypoints).valid());
    ASSERT_TRUE(r.lower_bound.has_value());
    const double oracle = oracle_cost(*space, start, goal, 0.1, 4);
    ASSERT_TRUE(std::isfinite(oracle));
    // The oracle's path is a real path: the bound may not exceed it, nor the method's cost.
    EXPECT_GE(oracle, *r.lower_bound - 1e-9) << "start " << start.x << "," << start.y;
    EXPECT_GE(r.cost, *r.lower_bound - 1e-9);
    // Within 1 + epsilon of the optimum, which is at most the oracle's cost.
    EXPECT_LE(r.cost, (1 + epsilon) * oracle) << "start " << start.x << "," << start.y;
    ++compared;
  }
}

TEST(Weighted, RefractsBySnellsLawAtOneCostBoundary) {
  // The lower half costs k, the upper half 1: sin(theta1) / sin(theta2) = k at the crossing,
  // angles from the boundary's normal.
  const double k = 3.0;
  Scene scene;
  scene.bounds = rect(0, 0, 20, 10);
  scene.regions.push_back(region("slow", k, rect(0, 0, 20, 5)));
  const auto space = std::make_shared<const FreeSpace>(scene);
  const Point start{2, 9}, goal{15, 1};
  // The optimum by golden-section over the crossing point (convex in it).
  const auto cost_through = [&](double cx) {
    return distance(start, {cx, 5}) + k * distance({cx, 5}, goal);
  };
  double lo = start.x, hi = goal.x;
  for (int it = 0; it < 200; ++it) {
    const double a = lo + (hi - lo) / 3, b = hi - (hi - lo) / 3;
    if (cost_through(a) < cost_through(b)) {
      hi = b;
    } else {
      lo = a;
    }
  }
  const double optimum = cost_through(0.5 * (lo + hi));
  for (const double epsilon : {0.2, 0.1, 0.05}) {
    const Planner planner(space, weighted_options(epsilon));
    const PlanResult r = planner.plan(start, goal);
    ASSERT_TRUE(r.found()) << r.message;
    EXPECT_LE(r.cost, (1 + epsilon) * optimum);
    EXPECT_GE(r.cost, optimum * (1 - 1e-9));
    ASSERT_TRUE(r.lower_bound.has_value());
    EXPECT_LE(*r.lower_bound, optimum * (1 + 1e-9));
    // The crossing: the waypoint on y = 5 (refined paths cross there, at a bend).
    std::size_t at = 0;
    for (std::size_t i = 1; i + 1 < r.waypoints.size(); ++i)
      if (std::abs(r.waypoints[i].y - 5) < 1e-9) at = i;
    ASSERT_GT(at, 0u) << "no waypoint on the boundary";
    const Point in = r.waypoints[at] - r.waypoints[at - 1],
                out = r.waypoints[at + 1] - r.waypoints[at];
    const double sin1 = std::abs(in.x) / std::hypot(in.x, in.y);
    const double sin2 = std::abs(out.x) / std::hypot(out.x, out.y);
    // Refinement slides the crossing to the cost's minimum along the edge, which the graph
    // found within epsilon: the ratio follows to a few per cent.
    EXPECT_NEAR(sin1 / sin2, k, 0.05 * k) << "epsilon " << epsilon;
  }
}

TEST(Weighted, EveryPathValidOnRandomWeightedScenes) {
  for (unsigned seed = 1; seed <= 3; ++seed) {
    Scene scene = test::random_scene(seed, seed == 2 ? 0.3 : 0.0);
    scene.regions.push_back(region("mud", 3.0, rect(2, 2, 11, 9)));
    scene.regions.push_back(region("road", 0.5, rect(0, 12, 20, 13.5)));
    const auto space = std::make_shared<const FreeSpace>(scene);
    const Planner planner(space, weighted_options(0.2, "shortcut"));
    const validity::ExactChecker checker(scene);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> c(0.5, 19.5);
    for (int q = 0; q < 12; ++q) {
      const Point start{c(rng), c(rng)}, goal{c(rng), c(rng)};
      if (!space->is_free(start) || !space->is_free(goal)) continue;
      const PlanResult r = planner.plan(start, goal);
      if (!r.found()) continue;
      EXPECT_TRUE(checker.check_path(r.waypoints).valid()) << "seed " << seed;
      EXPECT_TRUE(checker.check_path(r.raw_waypoints).valid()) << "seed " << seed;
      ASSERT_TRUE(r.lower_bound.has_value());
      EXPECT_LE(*r.lower_bound, r.cost * (1 + 1e-9));
      EXPECT_LE(*r.lower_bound, r.raw_cost * (1 + 1e-9));
    }
  }
}

TEST(Weighted, ExperimentOnBundledWeightedScenesScoresNothingBelowOneMinusEpsilon) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(POLYNAV_SOURCE_DIR) / "scenes";
  std::vector<experiment::SceneInput> scenes;
  for (const char* file : {"terrain.yaml", "warehouse.yaml"}) {
    experiment::SceneInput in;
    in.scene = load_scene(dir / file);
    in.name = fs::path(file).stem().string();
    scenes.push_back(std::move(in));
  }
  experiment::Options options;
  for (const char* m : {"grid", "navmesh", "visgraph"})
    options.methods.push_back(experiment::parse_method_spec(m));
  options.smoothers = {"none", "shortcut"};
  options.random = experiment::RandomQueries{20, 11, true};
  options.jobs = 2;
  const double epsilon = 0.1;
  const experiment::Results results = experiment::run(scenes, options);
  std::size_t scored = 0;
  for (const experiment::SceneReport& s : results.scenes) {
    EXPECT_TRUE(s.has_reference) << s.name << ": " << s.reference_note;
    EXPECT_EQ(s.reference_method, "weighted") << s.name;
  }
  for (const experiment::Row& row : results.rows) {
    if (!std::isfinite(row.ratio)) continue;
    ++scored;
    EXPECT_GE(row.ratio, 1 - epsilon)
        << row.scene << " " << row.method << " " << row.smoother << " query " << row.query;
  }
  EXPECT_GT(scored, results.rows.size() / 2);
}

TEST(Weighted, BadOptionsAreRefusedByName) {
  const Scene scene = small_terrain();
  const auto space = std::make_shared<const FreeSpace>(scene);
  const auto error = [&](const std::string& key, const std::string& value) {
    PlanOptions options;
    options.method = "weighted";
    options.settings.set(key, value);
    return test::error_of([&] { const Planner planner(space, options); });
  };
  for (const char* bad : {"0", "-1", "nan", "inf"})
    EXPECT_NE(error("weighted.epsilon", bad).find("weighted.epsilon"), std::string::npos) << bad;
  const std::string budget = error("weighted.epsilon", "1e-7");
  EXPECT_NE(budget.find("weighted.max_points"), std::string::npos) << budget;
  EXPECT_NE(error("weighted.max_points", "0").find("weighted.max_points"), std::string::npos);
  // Built directly, too.
  WeightedOptions direct;
  direct.epsilon = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(test::error_of([&] { WeightedGraph g(*space, direct); }).find("weighted.epsilon"),
            std::string::npos);
}

TEST(Weighted, SmallerEpsilonPlacesMorePointsAndTheBoundHoldsForEach) {
  const Scene scene = small_terrain();
  const auto space = std::make_shared<const FreeSpace>(scene);
  const Point start{0.5, 0.5}, goal{11.5, 7.5};
  std::size_t points = 0;
  for (const double epsilon : {0.4, 0.1, 0.05}) {
    WeightedOptions o;
    o.epsilon = epsilon;
    o.lower_bound = true;
    const WeightedGraph g(*space, o);
    EXPECT_GT(g.build_stats().points, points);
    points = g.build_stats().points;
    const Planner planner(space, weighted_options(epsilon));
    const PlanResult r = planner.plan(start, goal);
    ASSERT_TRUE(r.found());
    ASSERT_TRUE(r.lower_bound.has_value());
    EXPECT_GE(r.cost, *r.lower_bound * (1 - 1e-9));
    EXPECT_TRUE(validity::ExactChecker(scene).check_path(r.waypoints).valid());
  }
}

}  // namespace
}  // namespace polynav
