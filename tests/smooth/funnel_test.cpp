// The funnel: hand-made corridors with known shortest paths, never longer than the raw path,
// equal to the visibility graph's exact optimum where the corridor is the only one (simply
// connected free space, where the dual graph of a convex partition is a tree), the grid's
// corridor convention, and "does not apply" on paths without a corridor.
#include "polynav/smooth/funnel.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numbers>
#include <random>

#include "polynav/plan/planner.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

TEST(Funnel, StraightThroughWidePortals) {
  // Three vertical portals across y in [0, 4], travelling east: left (a) is the upper end.
  const std::vector<Segment> portals = {{{1, 4}, {1, 0}}, {{2, 4}, {2, 0}}, {{3, 4}, {3, 0}}};
  const std::vector<Point> path = funnel({0, 1}, {4, 3}, portals);
  EXPECT_EQ(path, (std::vector<Point>{{0, 1}, {4, 3}}));
}

TEST(Funnel, BendsAroundTheCornersItMust) {
  // An S through two narrow gaps: the path bends at the gaps' ends.
  const std::vector<Segment> portals = {{{2, 10}, {2, 8}}, {{4, 2}, {4, 0}}};
  const std::vector<Point> path = funnel({0, 9}, {6, 9}, portals);
  EXPECT_EQ(path, (std::vector<Point>{{0, 9}, {2, 8}, {4, 2}, {6, 9}}));
  // The same portals listed the wrong way round are turned to face the travel direction.
  const std::vector<Segment> swapped = {{{2, 8}, {2, 10}}, {{4, 0}, {4, 2}}};
  EXPECT_EQ(funnel({0, 9}, {6, 9}, swapped), path);
}

TEST(Funnel, PointPortalsAreWaypoints) {
  const std::vector<Segment> portals = {{{1, 1}, {1, 1}}, {{2, 0}, {2, 0}}};
  EXPECT_EQ(funnel({0, 0}, {3, 0}, portals), (std::vector<Point>{{0, 0}, {1, 1}, {2, 0}, {3, 0}}));
  EXPECT_EQ(funnel({0, 0}, {3, 0}, {}), (std::vector<Point>{{0, 0}, {3, 0}}));
}

// A random comb (simply connected, no obstacles): triangular teeth hang alternately from the
// floor and the ceiling of a 20 x 10 room, at disjoint spans of x, so the polygon is simple and
// shortest paths wind round the teeth's tips. Any two points have one corridor.
Scene comb_room(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> tip(0.1, 0.9), depth(4.0, 8.0);
  std::vector<Point> floor, ceiling;
  for (int k = 0; k < 6; ++k) {
    const double x = 2 + 3 * k, w = 1.0;
    if (k % 2 == 0) {
      floor.insert(floor.end(), {{x, 0}, {x + tip(rng) * w, depth(rng)}, {x + w, 0}});
    } else {
      ceiling.insert(ceiling.begin(), {{x + w, 10}, {x + tip(rng) * w, 10 - depth(rng)}, {x, 10}});
    }
  }
  Scene scene;
  scene.bounds.push_back({0, 0});
  scene.bounds.insert(scene.bounds.end(), floor.begin(), floor.end());
  scene.bounds.insert(scene.bounds.end(), {{20, 0}, {20, 10}});
  scene.bounds.insert(scene.bounds.end(), ceiling.begin(), ceiling.end());
  scene.bounds.push_back({0, 10});
  return scene;
}

TEST(Funnel, EqualsTheExactOptimumInASingleCorridor) {
  for (unsigned seed = 1; seed <= 10; ++seed) {
    const auto space = std::make_shared<const FreeSpace>(comb_room(seed));
    PlanOptions graph_options;
    graph_options.method = "visgraph";
    graph_options.smoother = "none";
    const Planner graph(space, graph_options);
    int bent = 0;  // queries whose optimum bends: the corridor matters
    for (const char* nodes : {"centres", "portals", "vertices", "portals+centres"}) {
      for (const char* merge : {"true", "false"}) {
        PlanOptions options;
        options.method = "navmesh";
        options.smoother = "funnel";
        options.settings.set("navmesh.nodes", std::string(nodes));
        options.settings.set("navmesh.merge", std::string(merge));
        const Planner mesh(space, options);
        std::mt19937 rng(seed);
        std::uniform_real_distribution<double> ux(0, 20), uy(0, 10);
        int compared = 0;
        for (int i = 0; i < 100; ++i) {
          const Point a{ux(rng), uy(rng)}, b{ux(rng), uy(rng)};
          if (!space->is_free(a) || !space->is_free(b)) continue;
          const PlanResult g = graph.plan(a, b), m = mesh.plan(a, b);
          ASSERT_TRUE(g.found());
          ASSERT_TRUE(m.found()) << m.message;
          EXPECT_NEAR(m.length, g.length, 1e-9 * g.length)
              << "seed " << seed << " " << nodes << " merge " << merge;
          EXPECT_LE(m.length, m.raw_length * (1 + 1e-12));
          ++compared;
          bent += g.waypoints.size() > 2;
        }
        EXPECT_GT(compared, 20);
      }
    }
    EXPECT_GT(bent, 0);
  }
}

TEST(Funnel, NeverLongerThanTheRawPathOnTheBundledScenes) {
  const fs::path root = fs::path(POLYNAV_SOURCE_DIR) / "scenes";
  for (const fs::path& file :
       {root / "warehouse.yaml", root / "maze.yaml", root / "terrain.yaml", root / "office.yaml"}) {
    const Scene scene = load_scene(file);
    const auto space = std::make_shared<const FreeSpace>(scene);
    for (const char* method : {"navmesh", "grid"}) {
      PlanOptions options;
      options.method = method;
      options.smoother = "funnel";
      const Planner planner(space, options);
      for (const Query& q : scene.queries) {
        const PlanResult r = planner.plan(q.start, q.goal);
        if (!r.found()) continue;
        SCOPED_TRACE(file.filename().string() + " " + method + " " + q.name);
        EXPECT_LE(r.cost, r.raw_cost * (1 + 1e-12));
        if (scene.regions.empty()) {
          EXPECT_LE(r.length, r.raw_length * (1 + 1e-12));
        }
        EXPECT_TRUE(r.message.empty()) << r.message;
      }
    }
  }
}

TEST(Funnel, GridCorridorsArePulledTaut) {
  // An open room on a unit grid. A row of cells holds the straight segment; otherwise the
  // corridor of a diagonal step is the corner it passes, so every bend is at a cell corner.
  Scene scene;
  scene.bounds = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  const auto space = std::make_shared<const FreeSpace>(scene);
  PlanOptions options;
  options.method = "grid";
  options.smoother = "funnel";
  options.settings.set("grid.resolution", 1.0);
  const Planner planner(space, options);
  const PlanResult row = planner.plan({0.5, 0.5}, {9.5, 0.8});
  ASSERT_TRUE(row.found());
  EXPECT_EQ(row.waypoints, (std::vector<Point>{{0.5, 0.5}, {9.5, 0.8}}));
  const PlanResult reversed = planner.plan({9.5, 0.8}, {0.5, 0.2});
  ASSERT_TRUE(reversed.found());
  EXPECT_EQ(reversed.waypoints, (std::vector<Point>{{9.5, 0.8}, {0.5, 0.2}}));
  for (const auto& [a, b] :
       {std::pair{Point{0.5, 0.5}, Point{9.5, 3.5}}, std::pair{Point{9.2, 9.7}, Point{0.3, 2.5}},
        std::pair{Point{1.5, 8.5}, Point{8.5, 1.5}}}) {
    const PlanResult r = planner.plan(a, b);
    ASSERT_TRUE(r.found());
    EXPECT_LE(r.length, r.raw_length * (1 + 1e-12));
    for (std::size_t k = 1; k + 1 < r.waypoints.size(); ++k) {
      EXPECT_EQ(r.waypoints[k].x, std::round(r.waypoints[k].x));
      EXPECT_EQ(r.waypoints[k].y, std::round(r.waypoints[k].y));
    }
  }
}

TEST(Funnel, DoesNotApplyToVisibilityGraphPaths) {
  const Scene scene = load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "warehouse.yaml");
  PlanOptions options;
  options.method = "visgraph";
  options.smoother = "funnel";
  const Planner planner(scene, options);
  int bent = 0;
  for (const Query& q : scene.queries) {
    const PlanResult r = planner.plan(q.start, q.goal);
    if (!r.found()) continue;
    EXPECT_EQ(r.waypoints, r.raw_waypoints);
    EXPECT_EQ(r.message,
              "funnel does not apply to visgraph paths (no corridor); the path is not "
              "smoothed");
    bent += r.raw_waypoints.size() > 2;
  }
  EXPECT_GT(bent, 0);
}

TEST(Funnel, SaysSoWhenAPathHasNoCorridor) {
  // A path of a method with corridors whose own corridor could not be stated: left alone, with a
  // note, never pulled through a wrong or empty corridor.
  Scene scene;
  scene.bounds = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  const FreeSpace space(scene);
  RawPath raw;
  raw.method = "navmesh";
  raw.method_has_corridors = true;
  raw.has_corridor = false;
  raw.points = {{1, 1}, {5, 2}, {9, 9}};
  const SmootherEntry& funnel_row = find_smoother("funnel");
  std::vector<Point> waypoints = raw.points;
  const std::string note =
      funnel_row.run(space, raw, OptionValues("funnel", funnel_row.options, Settings{}), waypoints);
  EXPECT_EQ(waypoints, raw.points);
  EXPECT_EQ(note,
            "funnel does not apply to this navmesh path (its corridor cannot be stated exactly); "
            "the path is not smoothed");
  // With its corridor (empty: one region), the same path is pulled straight.
  raw.has_corridor = true;
  EXPECT_EQ(
      funnel_row.run(space, raw, OptionValues("funnel", funnel_row.options, Settings{}), waypoints),
      "");
  EXPECT_EQ(waypoints, (std::vector<Point>{{1, 1}, {9, 9}}));
}

}  // namespace
}  // namespace polynav
