// The potential field method: every path it returns passes the independent exact checker, on
// bundled and random scenes; in open space and past convex obstacles far apart the field reaches
// the goal on its own, nearly straight; a cup between start and goal traps it, and the fall-back
// finds the path (or, with fallback=none, the answer is no_path naming the local minimum); it
// finds a path exactly when its fall-back does; bad options are refused by name.
#include "polynav/discretise/potential/potential_field.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "discretise/random_scenes.hpp"
#include "polynav/discretise/grid/grid_methods.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/option_tables.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/plan/registry.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"
#include "scene/error_of.hpp"
#include "validity/exact_checker.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;
using search::SearchStatus;
using test::error_of;
using test::rect;

const fs::path scenes_dir = fs::path(POLYNAV_SOURCE_DIR) / "scenes";

std::string text_of(Point p) {
  return "(" + std::to_string(p.x) + ", " + std::to_string(p.y) + ")";
}

bool fell_back(const PlanResult& r) {
  return r.message.starts_with(potential_fell_back_prefix);
}

bool on_its_own(const PlanResult& r) {
  return r.message.starts_with("potential field reached the goal on its own in ");
}

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

PlanOptions options_for(const std::string& method, Settings settings = {}) {
  PlanOptions o;
  o.method = method;
  o.smoother = "none";  // the raw path, as the method made it
  o.settings = std::move(settings);
  return o;
}

Scene box_scene(double side) {
  Scene scene;
  scene.bounds = rect(0, 0, side, side);
  return scene;
}

void add_obstacle(Scene& scene, Ring ring) {
  scene.obstacles.push_back({{std::move(ring), {}}, {}});
}

// A cup open towards the start (left), its base between the opening and the goal.
Scene cup_scene() {
  Scene scene = box_scene(20);
  add_obstacle(scene, rect(6, 6, 11, 7));    // lower arm
  add_obstacle(scene, rect(6, 13, 11, 14));  // upper arm
  add_obstacle(scene, rect(10, 7, 11, 13));  // base
  return scene;
}

// Runs `queries` random queries with the potential method and with its fall-back alone: every
// path found is valid by the exact checker and runs from start to goal, the potential method
// finds a path exactly when the fall-back does, and its message is one of the fixed wordings.
// Returns how many found paths fell back.
std::size_t check_against_fallback(const Scene& scene, const std::string& fallback,
                                   std::size_t queries, unsigned seed, std::size_t* found_out) {
  auto space = std::make_shared<const FreeSpace>(scene);
  Settings settings;
  settings.set("potential.fallback", fallback);
  const Planner potential(space, options_for("potential", settings));
  const Planner alone(space, options_for(fallback));
  const validity::ExactChecker checker(scene, {.open_gaps = space->open_gaps()});
  const std::vector<Point> points = free_points(*space, 2 * queries, seed);
  std::size_t found = 0, fell = 0;
  for (std::size_t k = 0; k < queries; ++k) {
    const Point start = points[2 * k], goal = points[2 * k + 1];
    const PlanResult r = potential.plan(start, goal);
    const PlanResult f = alone.plan(start, goal);
    const std::string where = text_of(start) + " -> " + text_of(goal) + ": " + r.message;
    EXPECT_EQ(r.found(), f.found()) << where << " / " << fallback << ": " << f.message;
    if (!r.found()) {
      EXPECT_EQ(r.status, f.status) << where;
      continue;
    }
    ++found;
    EXPECT_TRUE(on_its_own(r) || fell_back(r)) << where;
    fell += fell_back(r);
    if (fell_back(r)) {
      EXPECT_NE(r.message.find(fallback + " path"), std::string::npos) << where;
      EXPECT_NE(r.message.find("local minimum ("), std::string::npos) << where;
    }
    if (r.waypoints.empty()) {
      ADD_FAILURE() << "no waypoints: " << where;
      continue;
    }
    EXPECT_EQ(r.waypoints.front(), start) << where;
    EXPECT_EQ(r.waypoints.back(), goal) << where;
    const validity::Verdict v = checker.check_path(r.waypoints);
    EXPECT_TRUE(v.valid()) << v.reason << " on " << where;
    // The cost is the exact cost of the path taken.
    EXPECT_DOUBLE_EQ(r.cost, space->path_cost(r.waypoints)) << where;
  }
  if (found_out) *found_out = found;
  return fell;
}

TEST(Potential, OpenFieldReachesTheGoalOnItsOwnNearlyStraight) {
  const Scene scene = box_scene(20);
  const Planner planner(scene, options_for("potential"));
  const validity::ExactChecker checker(scene);
  for (const auto& [start, goal] : std::vector<std::pair<Point, Point>>{
           {{5, 5}, {15, 15}}, {{6, 10}, {14, 10}}, {{15, 6}, {6, 13}}}) {
    const PlanResult r = planner.plan(start, goal);
    ASSERT_TRUE(r.found()) << r.message;
    EXPECT_TRUE(on_its_own(r)) << r.message;
    EXPECT_LE(r.length, 1.02 * distance(start, goal)) << r.message;
    EXPECT_TRUE(checker.check_path(r.waypoints).valid());
  }
}

TEST(Potential, ConvexObstaclesFarApartAreWalkedRound) {
  Scene scene = box_scene(30);
  add_obstacle(scene, rect(8, 9, 10, 11));              // just off the line from (3, 5) to (27, 25)
  add_obstacle(scene, {{18, 16}, {21, 18}, {19, 21}});  // on it
  const validity::ExactChecker checker(scene);
  const Planner planner(scene, options_for("potential"));
  const Point start{3, 5}, goal{27, 25};
  ASSERT_FALSE(FreeSpace(scene).line_of_sight(start, goal));  // the walk has to turn
  const PlanResult r = planner.plan(start, goal);
  ASSERT_TRUE(r.found()) << r.message;
  EXPECT_TRUE(on_its_own(r)) << r.message;
  EXPECT_TRUE(checker.check_path(r.waypoints).valid());
  EXPECT_LE(r.length, 1.25 * distance(start, goal)) << r.message;
}

TEST(Potential, CupTrapFallsBackAndIsFound) {
  const Scene scene = cup_scene();
  const validity::ExactChecker checker(scene);
  const Point start{2, 10}, goal{17, 10};
  ASSERT_FALSE(FreeSpace(scene).line_of_sight(start, goal));
  for (const char* fallback : {"navmesh", "visgraph", "grid"}) {
    Settings settings;
    settings.set("potential.fallback", fallback);
    const Planner planner(scene, options_for("potential", settings));
    const PlanResult r = planner.plan(start, goal);
    ASSERT_TRUE(r.found()) << fallback << ": " << r.message;
    EXPECT_TRUE(fell_back(r)) << r.message;
    EXPECT_NE(r.message.find("local minimum"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("; the rest follows the " + std::string(fallback) + " path"),
              std::string::npos)
        << r.message;
    const validity::Verdict v = checker.check_path(r.waypoints);
    EXPECT_TRUE(v.valid()) << v.reason;
    EXPECT_EQ(r.waypoints.front(), start);
    EXPECT_EQ(r.waypoints.back(), goal);
  }
  // Without a fall-back the trap is no_path, said to be a local minimum; with search.partial the
  // steps up to the closest come back.
  Settings none;
  none.set("potential.fallback", "none");
  const PlanResult bare = Planner(scene, options_for("potential", none)).plan(start, goal);
  EXPECT_EQ(bare.status, SearchStatus::no_path) << bare.message;
  EXPECT_TRUE(bare.message.starts_with("potential field stopped at (")) << bare.message;
  EXPECT_NE(bare.message.find("local minimum"), std::string::npos) << bare.message;
  EXPECT_NE(bare.message.find("no fall-back (potential.fallback=none)"), std::string::npos);
  none.set("search.partial", true);
  const PlanResult partial = Planner(scene, options_for("potential", none)).plan(start, goal);
  EXPECT_EQ(partial.status, SearchStatus::partial) << partial.message;
  ASSERT_GE(partial.waypoints.size(), 2u);
  EXPECT_LT(distance(partial.waypoints.back(), goal), distance(start, goal));
  EXPECT_TRUE(checker.check_path(partial.waypoints).valid());
}

// The field is measured in influence distances and the automatic step follows the scene's size,
// so a scene scaled as a whole walks the same steps, scaled, and falls back at the same point.
TEST(Potential, AScaledSceneWalksTheSameSteps) {
  const auto scaled = [](Scene scene, double k) {
    for (Point& p : scene.bounds) p = k * p;
    for (Obstacle& o : scene.obstacles)
      for (Point& p : o.shape.outer) p = k * p;
    return scene;
  };
  const std::vector<std::pair<Point, Point>> queries = {
      {{2, 10}, {17, 10}}, {{2, 2}, {18, 17}}, {{12, 10}, {3, 18}}};
  const Scene small = cup_scene(), large = scaled(cup_scene(), 8.0);
  const Planner a(small, options_for("potential")), b(large, options_for("potential"));
  std::size_t fell = 0;
  for (const auto& [start, goal] : queries) {
    const PlanResult r = a.plan(start, goal), s = b.plan(8.0 * start, 8.0 * goal);
    ASSERT_TRUE(r.found() && s.found()) << r.message << " / " << s.message;
    EXPECT_EQ(fell_back(r), fell_back(s)) << r.message << " / " << s.message;
    fell += fell_back(r);
    if (on_its_own(r)) {
      EXPECT_EQ(r.message, s.message);
      EXPECT_NEAR(s.raw_length, 8.0 * r.raw_length, 1e-6 * s.raw_length);
    }
  }
  EXPECT_GT(fell, 0u);
  EXPECT_LT(fell, queries.size());
}

// When the fall-back fails too, its status is the answer, from the local minimum or from the
// start alike: a grid of 7-unit cells has no cell wholly free in the cup scene, so it refuses
// every query, and so does the potential method where the cup traps the walk, while a walk that
// reaches the goal on its own is found all the same.
TEST(Potential, AFailingFallbackGivesItsStatus) {
  const Scene scene = cup_scene();
  const FreeSpace space(scene);
  GridMethodOptions coarse;
  coarse.resolution = 7.0;
  const std::unique_ptr<Method> grid = make_grid_method(space, coarse);
  const std::unique_ptr<Method> potential =
      make_potential_method(space, {}, make_grid_method(space, coarse));
  QueryWorkspace ws;
  const Point start{2, 10}, trapped{17, 10}, open{18.5, 18.5};
  const RawPath alone = grid->find_path(start, trapped, {}, ws);
  ASSERT_NE(alone.status, SearchStatus::found) << alone.message;
  const RawPath r = potential->find_path(start, trapped, {}, ws);
  EXPECT_EQ(r.status, alone.status) << r.message;
  EXPECT_TRUE(r.message.starts_with(potential_fell_back_prefix)) << r.message;
  EXPECT_NE(r.message.find("; the grid found no path: "), std::string::npos) << r.message;
  EXPECT_TRUE(r.points.empty());
  // Reached on its own: found, though the grid alone refuses the goal.
  const RawPath own = potential->find_path({15, 15}, open, {}, ws);
  EXPECT_EQ(own.status, SearchStatus::found) << own.message;
  EXPECT_NE(grid->find_path({15, 15}, open, {}, ws).status, SearchStatus::found);
}

// Under search.max_cost a walk's detour may cost more than the limit while the fall-back's own
// path keeps within it: that path is the answer, so the method still finds a path exactly when
// its fall-back does.
TEST(Potential, ACostLimitFallsBackOnTheWholeFallbackPath) {
  const Scene scene = cup_scene();
  const Point start{2, 10}, goal{17, 10};
  const PlanResult best = Planner(scene, options_for("visgraph")).plan(start, goal);
  ASSERT_TRUE(best.found());
  const PlanResult free_walk = Planner(scene, options_for("potential")).plan(start, goal);
  ASSERT_TRUE(fell_back(free_walk)) << free_walk.message;
  ASSERT_GT(free_walk.cost, 1.05 * best.cost) << "the walk into the cup is no detour";
  Settings settings;
  settings.set("search.max_cost", 1.05 * best.cost);
  const PlanResult r = Planner(scene, options_for("potential", settings)).plan(start, goal);
  const PlanResult f = Planner(scene, options_for("navmesh", settings)).plan(start, goal);
  ASSERT_TRUE(f.found()) << f.message;
  ASSERT_TRUE(r.found()) << r.message;
  EXPECT_TRUE(fell_back(r)) << r.message;
  EXPECT_NE(r.message.find("costs more than search.max_cost, so the whole path is the navmesh "
                           "path from the start"),
            std::string::npos)
      << r.message;
  EXPECT_LE(r.cost, 1.05 * best.cost);
  EXPECT_TRUE(validity::ExactChecker(scene).check_path(r.waypoints).valid());
  // Below the optimum nothing is found, as with the fall-back alone.
  settings.set("search.max_cost", 0.9 * best.cost);
  EXPECT_EQ(Planner(scene, options_for("potential", settings)).plan(start, goal).status,
            Planner(scene, options_for("navmesh", settings)).plan(start, goal).status);
}

TEST(Potential, StepBudgetIsALocalMinimum) {
  const Scene scene = box_scene(20);
  Settings settings;
  settings.set("potential.max_steps", 3);
  const PlanResult r = Planner(scene, options_for("potential", settings)).plan({2, 2}, {18, 18});
  ASSERT_TRUE(r.found()) << r.message;
  EXPECT_TRUE(fell_back(r)) << r.message;
  EXPECT_NE(r.message.find("after 3 steps: local minimum (step budget spent)"), std::string::npos)
      << r.message;
}

TEST(Potential, FindsAPathExactlyWhenItsFallbackDoes) {
  std::size_t fell = 0, found = 0, queries = 0;
  for (unsigned seed = 1; seed <= 6; ++seed) {
    for (const double radius : {0.0, 0.3}) {
      const Scene scene = test::random_scene(seed, radius);
      std::size_t f = 0;
      fell += check_against_fallback(scene, seed % 2 ? "navmesh" : "visgraph", 30, seed, &f);
      found += f;
      queries += 30;
    }
  }
  EXPECT_GT(found, queries / 2);
  EXPECT_GT(fell, 0u) << "no query fell back: the comparison says little about the fall-back";
  EXPECT_LT(fell, found) << "every query fell back: the field never reached a goal";
}

TEST(Potential, BundledScenesGiveValidPaths) {
  for (const char* name : {"warehouse.yaml", "island.yaml", "maze.yaml", "office.yaml",
                           "forest.yaml", "terrain.yaml"}) {
    SCOPED_TRACE(name);
    const Scene scene = load_scene(scenes_dir / name);
    std::size_t found = 0;
    check_against_fallback(scene, "navmesh", 25, 11, &found);
    EXPECT_GT(found, 0u);
  }
}

TEST(Potential, GoalSetsReachAGoalOfTheSet) {
  const Scene scene = cup_scene();
  const Planner planner(scene, options_for("potential"));
  const std::vector<Point> goals = {{17, 10}, {2, 18}};
  const PlanResult r = planner.plan({2, 10}, goals);
  ASSERT_TRUE(r.found()) << r.message;
  EXPECT_TRUE(r.waypoints.back() == goals[0] || r.waypoints.back() == goals[1]);
  EXPECT_EQ(r.goal, r.waypoints.back());
  EXPECT_TRUE(validity::ExactChecker(scene).check_path(r.waypoints).valid());
}

TEST(Potential, BadOptionsAreRefusedByName) {
  const Scene scene = box_scene(10);
  const auto refused = [&](const char* key, const char* value) {
    Settings settings;
    settings.set(key, value);
    return error_of([&] { Planner(scene, options_for("potential", settings)); });
  };
  std::string e = refused("potential.fallback", "potential");
  EXPECT_NE(e.find("potential.fallback"), std::string::npos) << e;
  e = refused("potential.fallback", "navmsh");
  EXPECT_NE(e.find("potential.fallback"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'navmesh'"), std::string::npos) << e;
  for (const auto& [key, value] :
       std::vector<std::pair<const char*, const char*>>{{"potential.step", "-1"},
                                                        {"potential.step", "0"},
                                                        {"potential.influence", "nan"},
                                                        {"potential.attraction", "0"},
                                                        {"potential.repulsion", "-2"},
                                                        {"potential.window", "0"},
                                                        {"potential.attraction_shape", "cone"}}) {
    e = refused(key, value);
    EXPECT_NE(e.find(key), std::string::npos) << key << "=" << value << ": " << e;
  }
  EXPECT_NE(error_of([] {
              const FreeSpace space(box_scene(10));
              PotentialOptions o;
              o.step = -1;
              (void)make_potential_method(space, o, nullptr);
            }).find("potential.step"),
            std::string::npos);
}

TEST(Potential, FallbackChoicesAreEveryOtherMethod) {
  std::set<std::string> expected;
  for (const std::string& name : method_names())
    if (name != "potential") expected.insert(name);
  expected.insert("none");
  const std::vector<std::string>& names = potential_fallback_names();
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()), expected)
      << "a method added to the registry belongs in potential_fallback_names()";
}

}  // namespace
}  // namespace polynav
