// Theta* on the occupancy grid (grid.search=theta): every path is a valid motion through
// FreeSpace, found exactly when A* on the same grid finds one, never longer than A*'s path on
// that grid (never costlier than its graph cost on weighted scenes), never shorter than the exact
// Euclidean optimum, and straight wherever the goal is in sight of the start in open space.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "discretise/random_scenes.hpp"
#include "polynav/discretise/grid/grid_methods.hpp"
#include "polynav/discretise/grid/occupancy_grid.hpp"
#include "polynav/discretise/query.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/smooth/path_simplifier.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;
using test::random_scene;
using test::rect;

const fs::path scenes_dir = fs::path(POLYNAV_SOURCE_DIR) / "scenes";

PlanOptions grid_options(const char* search, int connectivity, const char* align,
                         double resolution) {
  PlanOptions options;
  options.smoother = "none";
  options.settings.set("grid.search", search);
  options.settings.set("grid.connectivity", connectivity);
  options.settings.set("grid.align", align);
  if (resolution > 0) options.settings.set("grid.resolution", resolution);
  return options;
}

TEST(ThetaStar, ValidNeverLongerThanAStarOnRandomScenes) {
  int shorter = 0, found = 0;
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const Scene scene = random_scene(seed, seed % 2 ? 0.0 : 0.3);
    const auto space = std::make_shared<const FreeSpace>(scene);
    const PathSimplifier checker(*space);
    for (const int connectivity : {4, 8, 16}) {
      for (const char* align : {"centre", "corner"}) {
        SCOPED_TRACE("seed " + std::to_string(seed) + " " + std::to_string(connectivity) +
                     "-connected " + align);
        const Planner theta(space, grid_options("theta", connectivity, align, 0.5));
        const Planner astar(space, grid_options("astar", connectivity, align, 0.5));
        std::mt19937 rng(seed * 31 + unsigned(connectivity));
        std::uniform_real_distribution<double> coord(0.0, 20.0);
        for (int q = 0; q < 12; ++q) {
          const Point s{coord(rng), coord(rng)}, g{coord(rng), coord(rng)};
          const PlanResult a = astar.plan(s, g), t = theta.plan(s, g);
          ASSERT_EQ(t.found(), a.found()) << t.message << " / " << a.message;
          if (!t.found()) continue;
          ++found;
          EXPECT_EQ(t.raw_waypoints.front(), s);
          EXPECT_EQ(t.raw_waypoints.back(), g);
          EXPECT_TRUE(checker.is_valid(t.raw_waypoints));
          EXPECT_LE(t.raw_length, a.raw_length * (1 + 1e-12));
          shorter += t.raw_length < a.raw_length * (1 - 1e-9) ? 1 : 0;
        }
      }
    }
  }
  EXPECT_GT(found, 200);
  EXPECT_GT(shorter, found / 2);  // any-angle paths are shorter almost everywhere
}

TEST(ThetaStar, NeverAboveTheGridsGraphCostOnWeightedScenes) {
  Scene scene = random_scene(4, 0.0);
  scene.regions.push_back({"mud", 3.0, std::nullopt, rect(4, 3, 13, 11), {}});
  scene.regions.push_back({"road", 0.4, std::nullopt, rect(0, 14, 20, 15.3), {}});
  const FreeSpace space(scene);
  const PathSimplifier checker(space);
  for (const GridAlign align : {GridAlign::centre, GridAlign::corner}) {
    GridOptions options;
    options.resolution = 0.5;
    options.align = align;
    const OccupancyGrid grid(space, options);
    const ThetaStarGrid theta(space, options);
    QueryWorkspace ws;
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> coord(0.0, 20.0);
    int found = 0;
    for (int q = 0; q < 40; ++q) {
      const Point s{coord(rng), coord(rng)}, g{coord(rng), coord(rng)};
      if (!space.is_free(s) || !space.is_free(g)) continue;
      const RawPath a = find_path(grid, s, g);
      const RawPath t = theta.find_path(s, g, {}, ws);
      ASSERT_EQ(t.status, a.status) << t.message;
      if (t.status != search::SearchStatus::found) continue;
      ++found;
      EXPECT_TRUE(checker.is_valid(t.points));
      // Theta*'s g is the exact cost of its segments.
      EXPECT_NEAR(t.graph_cost, space.path_cost(t.points), 1e-9 * std::max(1.0, t.graph_cost));
      EXPECT_LE(t.graph_cost, a.graph_cost * (1 + 1e-12));
    }
    EXPECT_GT(found, 20);
  }
}

TEST(ThetaStar, BetweenTheEuclideanOptimumAndAStarOnMovingAIMaps) {
  for (const char* name : {"arena.map", "den312d.map"}) {
    const Scene scene = load_scene(scenes_dir / "movingai" / name);
    const std::vector<Query> queries = load_scenario(
        scenes_dir / "movingai" / (std::string(name) + ".scen"), scene, ScenarioPoints::corners);
    Settings open;
    open.set("space.gaps", "open");
    const auto space = std::make_shared<const FreeSpace>(scene, free_space_options(open));
    const PathSimplifier checker(*space);
    for (const int connectivity : {8, 16}) {
      const Planner theta(space, grid_options("theta", connectivity, "corner", 0));
      const Planner astar(space, grid_options("astar", connectivity, "corner", 0));
      PlanOptions reference_options;
      reference_options.method = "visgraph";
      reference_options.smoother = "none";
      const Planner reference(space, reference_options);
      int compared = 0;
      for (std::size_t i = 0; i < queries.size(); i += 7) {
        const Query& q = queries[i];
        const PlanResult t = theta.plan(q.start, q.goal);
        const PlanResult a = astar.plan(q.start, q.goal);
        const PlanResult best = reference.plan(q.start, q.goal);
        ASSERT_EQ(t.found(), a.found()) << name << " query " << i;
        if (!t.found()) continue;
        ++compared;
        EXPECT_TRUE(checker.is_valid(t.raw_waypoints)) << name << " query " << i;
        EXPECT_LE(t.raw_length, a.raw_length * (1 + 1e-12)) << name << " query " << i;
        ASSERT_TRUE(best.found());
        EXPECT_GE(t.raw_length, best.length * (1 - 1e-12)) << name << " query " << i;
      }
      EXPECT_GT(compared, 15) << name;
    }
  }
}

TEST(ThetaStar, StraightWhereverTheGoalIsInSight) {
  Scene scene;
  scene.bounds = rect(0, 0, 20, 12);
  scene.obstacles.push_back({{rect(9, 0, 11, 5), {}}, {}});
  const auto space = std::make_shared<const FreeSpace>(scene);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> x(0.0, 20.0), y(0.0, 12.0);
  for (const char* align : {"centre", "corner"}) {
    const Planner theta(space, grid_options("theta", 8, align, 0.5));
    int straight = 0, bent = 0;
    for (int q = 0; q < 60; ++q) {
      const Point s{x(rng), y(rng)}, g{x(rng), y(rng)};
      const PlanResult r = theta.plan(s, g);
      if (!r.found()) continue;
      if (space->line_of_sight(s, g)) {
        // The root sees every node on the way, so each takes it as parent.
        EXPECT_EQ(r.raw_waypoints.size(), 2u)
            << align << " " << s.x << "," << s.y << " -> " << g.x << "," << g.y;
        ++straight;
      } else {
        EXPECT_GT(r.raw_waypoints.size(), 2u);
        // Around the block: one bend at a grid node near its top corner, or a few.
        EXPECT_LE(r.raw_waypoints.size(), 5u);
        ++bent;
      }
    }
    EXPECT_GT(straight, 10) << align;
    EXPECT_GT(bent, 5) << align;
  }
}

TEST(ThetaStar, GoalSetsLimitsAndReach) {
  const Scene scene = load_scene(scenes_dir / "maze.yaml");
  PlanOptions options;
  options.settings.set("grid.search", "theta");
  const Planner planner(scene, options);
  const PathSimplifier checker(planner.free_space());
  ASSERT_FALSE(scene.queries.empty());
  const Query& q = scene.queries.front();
  const Point goals[2] = {q.goal, q.start};
  // The start itself is one of the goals: the cheapest goal is reached at no cost.
  const PlanResult to_any = planner.plan(q.start, goals);
  ASSERT_TRUE(to_any.found()) << to_any.message;
  EXPECT_EQ(to_any.goal, q.start);
  EXPECT_TRUE(checker.is_valid(to_any.waypoints));

  PlanOptions limited = options;
  limited.settings.set("search.max_expanded", 3);
  const PlanResult cut = Planner(scene, limited).plan(q.start, q.goal);
  EXPECT_EQ(cut.status, search::SearchStatus::limit_reached) << cut.message;
  limited.settings.set("search.partial", true);
  const PlanResult partial = Planner(scene, limited).plan(q.start, q.goal);
  EXPECT_EQ(partial.status, search::SearchStatus::partial) << partial.message;
  EXPECT_TRUE(checker.is_valid(partial.waypoints));

  const Reach reach = planner.reach(q.start, 3.0);
  EXPECT_EQ(reach.status, search::SearchStatus::found);
  EXPECT_FALSE(reach.places.empty());
}

}  // namespace
}  // namespace polynav
