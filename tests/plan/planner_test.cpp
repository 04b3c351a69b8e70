// The planner's own promises, independent of any built-in method: a user's discretisation plugs
// in through MethodOf, and a raw path that fails the final exact check is reported as a defect
// (internal_error with its reason), never handed out and never called "no path".
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "polynav/discretise/grid/occupancy_grid.hpp"
#include "polynav/discretise/navmesh/navmesh.hpp"
#include "polynav/discretise/quadtree/quadtree.hpp"
#include "polynav/discretise/visibility_graph/visibility_graph.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/plan/registry.hpp"
#include "support/quick_weighted.hpp"

namespace polynav {
namespace {

Ring rect(double x0, double y0, double x1, double y1) {
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

// Two nodes on either side of a wall with an arc straight through it: a broken method.
class ThroughTheWall final : public Discretisation {
 public:
  std::string_view method() const override { return "through-the-wall"; }
  std::string_view graph_noun() const override { return "test graph"; }
  std::size_t node_count() const override { return 2; }
  Point node_position(search::NodeId n) const override { return n == 0 ? left_ : right_; }
  // Starts join the left node, goals the right one, wherever they are.
  void attach(Point, AttachDirection direction, std::vector<Attachment>& out) const override {
    out = {{direction == AttachDirection::from_point ? search::NodeId(0) : search::NodeId(1), 0.0}};
  }
  std::string unattached_reason(std::string_view which) const override {
    return std::string(which);
  }
  const search::ComponentLabels* components() const override { return nullptr; }
  Primitives primitives() const override { return {}; }
  auto heuristic(std::span<const Attachment>, Point) const {
    return [](search::NodeId) { return 0.0; };
  }
  template <class F>
  void for_each_neighbour(search::NodeId n, F&& f) const {
    f(n == 0 ? search::NodeId(1) : search::NodeId(0), distance(left_, right_));
  }

 private:
  Point left_{2, 5}, right_{8, 5};
};

Scene walled_scene() {
  Scene scene;
  scene.bounds = rect(0, 0, 10, 10);
  scene.obstacles.push_back({{rect(4, 0, 6, 10), {}}, {}});  // splits the box in two
  return scene;
}

TEST(Planner, APathThroughAnObstacleIsAnInternalErrorNotAnAnswer) {
  const auto space = std::make_shared<const FreeSpace>(walled_scene());
  PlanOptions options;
  options.smoother = "none";
  const Planner planner(space, std::make_unique<MethodOf<ThroughTheWall>>(), options);
  // Both ends in the left part (the free-space component check would answer no_path before the
  // method is asked otherwise); the method's raw path runs through the wall and back.
  const PlanResult r = planner.plan({1, 2}, {3, 8});
  EXPECT_EQ(r.status, search::SearchStatus::internal_error);
  EXPECT_TRUE(r.waypoints.empty());
  EXPECT_NE(r.message.find("failed the exact validity check"), std::string::npos) << r.message;
}

// The time budget of a build: an exhausted one stops every discretisation with an InputError
// naming space.max_build_seconds, and the option reaches them through the planner.
TEST(Planner, EveryBuildStopsAtItsTimeBudgetNamingTheOption) {
  Scene scene = walled_scene();
  scene.agent.radius = 0.25;
  const auto space = std::make_shared<const FreeSpace>(scene);
  EXPECT_EQ(space->max_build_seconds(), default_max_build_seconds);
  constexpr double spent = 1e-12;  // over by the first check
  const auto expect_stopped = [](const auto& build, std::string_view what) {
    try {
      build();
      ADD_FAILURE() << what << ": built despite an exhausted budget";
    } catch (const InputError& e) {
      EXPECT_EQ(e.where().key_path, "space.max_build_seconds") << e.what();
      EXPECT_NE(std::string(e.what()).find("building " + std::string(what)), std::string::npos)
          << e.what();
    }
  };
  GridOptions grid;
  grid.max_build_seconds = spent;
  expect_stopped([&] { OccupancyGrid g(*space, grid); }, "the grid");
  QuadtreeOptions quadtree;
  quadtree.max_build_seconds = spent;
  expect_stopped([&] { Quadtree q(*space, quadtree); }, "the quadtree");
  VisibilityGraphOptions visgraph;
  visgraph.max_build_seconds = spent;
  expect_stopped([&] { VisibilityGraph v(*space, visgraph); }, "the visibility graph");
  NavMeshOptions navmesh;
  navmesh.max_build_seconds = spent;
  expect_stopped([&] { NavMesh m(*space, navmesh); }, "the navigation mesh");
  FreeSpaceOptions free_space;
  free_space.max_build_seconds = spent;
  expect_stopped([&] { FreeSpace f(scene, free_space); }, "free space");

  // Through the planner, for every method; a generous budget changes nothing.
  for (const std::string& method : method_names()) {
    PlanOptions options;
    options.method = method;
    options.settings.set("space.max_build_seconds", "1e-12");
    expect_stopped([&] { Planner p(scene, options); }, "free space");
    options.settings.set("space.max_build_seconds", "3600");
    EXPECT_TRUE(Planner(scene, options).plan({1, 2}, {9, 8}).status ==
                search::SearchStatus::no_path)
        << method << ": the wall splits the box";
  }
}

TEST(Planner, AUsersOwnMethodIsSearchedByTheSameDriver) {
  const auto space = std::make_shared<const FreeSpace>(walled_scene());
  const Planner planner(space, std::make_unique<MethodOf<ThroughTheWall>>());
  EXPECT_EQ(planner.discretisation().method(), "through-the-wall");
  // Different components of free space: answered before the method is asked.
  EXPECT_EQ(planner.plan({1, 2}, {9, 8}).status, search::SearchStatus::no_path);
}

}  // namespace
}  // namespace polynav

namespace polynav {
namespace {

// Seeded random points of a free space, drawn in its box until one is free.
class FreePoints {
 public:
  FreePoints(const FreeSpace& space, unsigned seed)
      : space_(&space),
        rng_(seed),
        x_(space.box().min.x, space.box().max.x),
        y_(space.box().min.y, space.box().max.y) {}
  Point operator()() {
    for (;;)
      if (const Point p{x_(rng_), y_(rng_)}; space_->is_free(p)) return p;
  }

 private:
  const FreeSpace* space_;
  std::mt19937 rng_;
  std::uniform_real_distribution<double> x_, y_;
};

// A goal set is one search for the cheapest goal: its path is as short as the shortest of the
// single-goal paths, and it ends at that goal.
TEST(Planner, AGoalSetReachesTheCheapestGoal) {
  const Scene scene = load_scene(std::string(POLYNAV_SOURCE_DIR) + "/scenes/maze.yaml");
  for (const std::string& method : method_names()) {
    PlanOptions options;
    options.method = method;
    options.smoother = "none";
    options.settings.set("weighted.epsilon", test::quick_weighted_epsilon);
    const Planner planner(scene, options);
    FreePoints free_point(planner.free_space(), 17);
    int checked = 0;
    for (int q = 0; q < 30; ++q) {
      const Point start = free_point();
      const std::vector<Point> goals = {free_point(), free_point(), free_point()};
      double best = INFINITY;
      std::size_t best_goal = goals.size();
      // The clearance roadmap reaches, of the goals, one with the largest least clearance, and
      // the shortest path to it at that clearance; every other method the shortest path.
      const bool widest = method == "clearance";
      double best_clearance = -INFINITY;
      for (std::size_t i = 0; i < goals.size(); ++i) {
        const PlanResult r = planner.plan(start, goals[i]);
        if (!r.found()) continue;
        double clearance = INFINITY;
        for (std::size_t k = 1; k < r.raw_waypoints.size(); ++k)
          clearance = std::min(clearance, planner.free_space().clearance(r.raw_waypoints[k - 1],
                                                                         r.raw_waypoints[k]));
        const bool wider = clearance > best_clearance * (1 + 1e-9) + 1e-12;
        const bool as_wide = clearance >= best_clearance * (1 - 1e-9) - 1e-12;
        if (widest ? wider || (as_wide && r.raw_length < best) : r.raw_length < best) {
          best = r.raw_length;
          best_clearance = clearance;
          best_goal = i;
        }
      }
      const PlanResult set = planner.plan(start, goals);
      if (method == "hybrid") {
        // Hybrid A* is not optimal (it stops at the first free analytic curve) and searches the
        // set in one search: a path to one of the goals, not necessarily the cheapest.
        ASSERT_TRUE(set.found() || set.status == search::SearchStatus::no_path) << set.message;
        if (!set.found()) continue;
        EXPECT_EQ(set.raw_waypoints.back(), set.goal);
        EXPECT_NE(std::find(goals.begin(), goals.end(), set.goal), goals.end());
        ++checked;
        continue;
      }
      if (best_goal == goals.size()) {
        EXPECT_EQ(set.status, search::SearchStatus::no_path) << method;
        continue;
      }
      ASSERT_TRUE(set.found()) << method << ": " << set.message;
      EXPECT_NEAR(set.raw_length, best, 1e-9 * std::max(1.0, best)) << method << " query " << q;
      EXPECT_EQ(set.raw_waypoints.back(), set.goal);
      EXPECT_NE(std::find(goals.begin(), goals.end(), set.goal), goals.end());
      ++checked;
    }
    EXPECT_GT(checked, method == "hybrid" ? 5 : 20) << method;
  }
}

}  // namespace
}  // namespace polynav

namespace polynav {
namespace {

// A corridor is stated where it is read: by the funnel smoother, or when PlanOptions::corridor
// asks. Stating it changes nothing else: the same raw path, and its portals are those the
// funnel pulls through.
TEST(Planner, TheCorridorIsStatedWhereItIsRead) {
  const Scene scene = load_scene(std::string(POLYNAV_SOURCE_DIR) + "/scenes/maze.yaml");
  for (const std::string& method : method_names()) {
    PlanOptions plain;
    plain.method = method;
    plain.smoother = "none";
    plain.settings.set("weighted.epsilon", test::quick_weighted_epsilon);
    PlanOptions asked = plain;
    asked.corridor = true;
    PlanOptions funnel = plain;
    funnel.smoother = "funnel";
    const Planner without(scene, plain), with(scene, asked), pulled(scene, funnel);
    const bool has_corridors = with.discretisation().has_corridors();
    FreePoints free_point(with.free_space(), 5);
    int stated = 0;
    for (int q = 0; q < 20; ++q) {
      const Point start = free_point(), goal = free_point();
      const PlanResult a = without.plan(start, goal), b = with.plan(start, goal),
                       c = pulled.plan(start, goal);
      SCOPED_TRACE(method + " query " + std::to_string(q));
      ASSERT_EQ(a.status, b.status);
      EXPECT_EQ(a.raw_waypoints, b.raw_waypoints);
      EXPECT_TRUE(a.corridor.empty());
      if (!b.found()) continue;
      // (A smoothed search may pick another of the equally cheap raw paths, so the funnel's
      // raw path is not compared with the others.)
      if (has_corridors && b.raw_waypoints.size() > 2) {
        EXPECT_FALSE(b.corridor.empty());
        stated += !b.corridor.empty();
      } else if (!has_corridors) {
        EXPECT_TRUE(b.corridor.empty());
      }
      if (has_corridors && c.raw_waypoints.size() > 2) {
        EXPECT_FALSE(c.corridor.empty());
        EXPECT_EQ(c.message.find("does not apply"), std::string::npos) << c.message;
      }
    }
    if (has_corridors) {
      EXPECT_GT(stated, 5) << method;
    }
  }
}

}  // namespace
}  // namespace polynav

namespace polynav {
namespace {

// One planner built with every smoother answers plan(start, goal, smoother) as a planner built
// with that smoother alone answers plan(start, goal): the same search (ties and corridors
// follow the smoother), the same smoothed path, the same message.
TEST(Planner, ANamedSmootherPlansAsAPlannerBuiltWithItAlone) {
  const Scene scene = load_scene(std::string(POLYNAV_SOURCE_DIR) + "/scenes/warehouse.yaml");
  const std::vector<std::string> smoothers = smoother_names();
  for (const std::string& method : method_names()) {
    PlanOptions every;
    every.method = method;
    every.smoother = smoothers.front();
    every.settings.set("weighted.epsilon", test::quick_weighted_epsilon);
    every.also_smooth.assign(smoothers.begin() + 1, smoothers.end());
    const Planner shared(scene, every);
    for (const std::string& smoother : smoothers) {
      PlanOptions alone;
      alone.method = method;
      alone.smoother = smoother;
      alone.settings = every.settings;
      const Planner own(scene, alone);
      FreePoints free_point(own.free_space(), 11);
      for (int q = 0; q < 8; ++q) {
        const Point start = free_point(), goal = free_point();
        const PlanResult a = shared.plan(start, goal, smoother), b = own.plan(start, goal);
        SCOPED_TRACE(method + " + " + smoother + " query " + std::to_string(q));
        EXPECT_EQ(a.status, b.status);
        EXPECT_EQ(a.smoother, smoother);
        EXPECT_EQ(a.raw_waypoints, b.raw_waypoints);
        EXPECT_EQ(a.waypoints, b.waypoints);
        EXPECT_EQ(a.message, b.message);
        EXPECT_EQ(a.corridor.empty(), b.corridor.empty());
      }
    }
    // A smoother the planner was not built with is refused, naming the option.
    PlanOptions one;
    one.method = method;
    const Planner only(scene, one);
    try {
      (void)only.plan({1, 1}, {2, 2}, "funnel");
      ADD_FAILURE() << method << ": a smoother not built with was accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.where().key_path, "smoother");
      EXPECT_NE(std::string(e.what()).find("shortcut"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace polynav
