// Agents of every size on one scene: Planner::for_radius answers exactly as a planner built
// from the scene loaded with that radius, builds each radius once, keeps at most max_radii and
// refuses radii it cannot serve; per-query radii in scene files and `.scen` rows.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/plan/registry.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

Scene warehouse() {
  return load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "warehouse.yaml");
}

TEST(RadiusPlanners, EachAnswerEqualsAPlannerBuiltWithThatRadius) {
  const Scene scene = warehouse();
  const std::vector<std::pair<Point, Point>> queries = {
      {{2, 1.5}, {30, 20}}, {{5, 18}, {38, 2}}, {{12, 3}, {20, 21}}};
  for (const std::string& method : method_names()) {
    PlanOptions options;
    options.method = method;
    options.max_radii = 4;
    const Planner planner(scene, options);
    for (const double radius : {0.0, 0.3, 0.6, 1.2}) {
      Scene sized = scene;
      sized.agent.radius = radius;
      const Planner direct(sized, options);
      const std::shared_ptr<const Planner> served = planner.for_radius(radius);
      EXPECT_EQ(served->radius(), radius);
      for (const auto& [s, g] : queries) {
        const PlanResult a = served->plan(s, g), b = direct.plan(s, g);
        EXPECT_EQ(a.status, b.status) << method << " radius " << radius;
        EXPECT_EQ(a.waypoints, b.waypoints) << method << " radius " << radius;
        EXPECT_EQ(a.radius, radius);
      }
    }
  }
}

TEST(RadiusPlanners, EachRadiusIsBuiltOnceAndAtMostTheBudgetIsKept) {
  PlanOptions options;
  options.method = "visgraph";
  options.max_radii = 2;
  const Planner planner(warehouse(), options);
  // The scene's own radius is the planner itself.
  EXPECT_EQ(planner.for_radius(planner.radius()).get(), &planner);
  const auto a = planner.for_radius(0.3);
  EXPECT_EQ(planner.for_radius(0.3).get(), a.get()) << "built once";
  const auto b = planner.for_radius(0.4);
  EXPECT_EQ(planner.for_radius(0.3).get(), a.get());  // 0.3 is now the most recently asked
  const auto c = planner.for_radius(0.5);             // lets 0.4 go
  EXPECT_EQ(planner.for_radius(0.3).get(), a.get());
  EXPECT_NE(planner.for_radius(0.4).get(), b.get()) << "0.4 was let go and is built again";
  // Whoever still holds one keeps it usable.
  EXPECT_TRUE(b->plan({2, 1.5}, {30, 20}).found());
}

TEST(RadiusPlanners, RadiiItCannotServeAreRefusedNamingTheRadius) {
  const Scene scene = warehouse();
  PlanOptions serving;
  serving.max_radii = 4;
  const Planner planner(scene, serving);
  for (const double bad : {-0.5, double(NAN), double(INFINITY)}) {
    try {
      (void)planner.for_radius(bad);
      ADD_FAILURE() << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(e.where().key_path, "radius");
      EXPECT_NE(e.message().find("finite number >= 0"), std::string::npos) << e.what();
    }
  }
  // A radius larger than the scene's scale allows: the build's own error.
  EXPECT_THROW((void)planner.for_radius(1e300), InputError);
  // A planner given its free space has no scene to build another from; nor one told to keep none.
  const Planner shared(std::make_shared<const FreeSpace>(scene));
  EXPECT_THROW((void)shared.for_radius(0.5), InputError);
  const Planner without(scene);  // max_radii 0 by default
  EXPECT_THROW((void)without.for_radius(0.5), InputError);
  EXPECT_EQ(without.for_radius(scene.agent.radius).get(), &without);
}

// A radius wider than every passage leaves no way through: no_path, not a crash.
TEST(RadiusPlanners, ARadiusTooWideForThePassagesFindsNoPath) {
  PlanOptions serving;
  serving.max_radii = 1;
  const Planner planner(warehouse(), serving);
  const PlanResult r = planner.for_radius(3.0)->plan({2, 1.5}, {30, 20});
  EXPECT_FALSE(r.found());
  EXPECT_NE(r.status, search::SearchStatus::internal_error) << r.message;
}

TEST(RadiusPlanners, SceneQueriesAndScenarioRowsCarryTheirRadius) {
  const Scene scene = parse_native_scene(R"(version: 1
bounds: [[0, 0], [10, 0], [10, 10], [0, 10]]
queries:
  - {name: small, start: [1, 1], goal: [9, 9]}
  - {name: big, start: [2, 2], goal: [8, 8], radius: 1.5}
)",
                                         "sizes.yaml");
  ASSERT_EQ(scene.queries.size(), 2u);
  EXPECT_FALSE(scene.queries[0].radius.has_value());
  EXPECT_EQ(scene.queries[1].radius, 1.5);
  try {
    (void)parse_native_scene(R"(version: 1
bounds: [[0, 0], [10, 0], [10, 10], [0, 10]]
queries:
  - {start: [1, 1], goal: [9, 9], radius: -2}
)",
                             "bad.yaml");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().line, 4);
    EXPECT_NE(std::string(e.what()).find("radius must be >= 0"), std::string::npos) << e.what();
  }
  const Scene map = load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "movingai" / "arena.map");
  const fs::path file = fs::temp_directory_path() / "polynav-radius-test.scen";
  const auto scenario = [&](const std::string& rows) {
    std::ofstream(file) << "version 1\n" << rows;
    return load_scenario(file, map);
  };
  const std::vector<Query> rows = scenario(
      "0\tarena.map\t49\t49\t1\t11\t1\t12\t1\t0.25\n"
      "0\tarena.map\t49\t49\t1\t11\t1\t12\t1\n");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].radius, 0.25);
  EXPECT_FALSE(rows[1].radius.has_value());
  try {
    (void)scenario("0\tarena.map\t49\t49\t1\t11\t1\t12\t1\t-1\n");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().line, 2);
    EXPECT_EQ(e.where().column, 31);
    EXPECT_NE(std::string(e.what()).find("agent radius"), std::string::npos) << e.what();
  }
  fs::remove(file);
}

}  // namespace
}  // namespace polynav
