// Scenes far from the origin: every bundled scene translated by 1e3 ... 1e15 either plans to the
// lengths of the original (visibility graph, relative 1e-9) with valid paths from every method,
// or is refused with a located InputError, exactly when ScaleLimits says so. Never a wrong path,
// never a crash. Maps, whose coordinates are integers, translate exactly by integer offsets, so
// the grid there must give the same lengths too.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "polynav/plan/planner.hpp"
#include "polynav/smooth/path_simplifier.hpp"
#include "support/quick_weighted.hpp"
#include "support/scale.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

void translate(Ring& ring, Point d) {
  for (Point& p : ring) p = p + d;
}

Scene translated(Scene scene, Point d) {
  translate(scene.bounds, d);
  for (Obstacle& o : scene.obstacles) {
    translate(o.shape.outer, d);
    for (Ring& hole : o.shape.holes) translate(hole, d);
  }
  for (Region& r : scene.regions) translate(r.polygon, d);
  for (Ring& ring : scene.free_boundary) translate(ring, d);
  for (Query& q : scene.queries) q.start = q.start + d, q.goal = q.goal + d;
  if (scene.waypoints) translate(scene.waypoints->points, d);
  scene.mesh.reset();  // faces would need translating too; the rebuilt mesh is tested instead
  scene.cell_map.reset();
  return scene;
}

// What ScaleLimits promises, computed independently of check_scale: the spacing of doubles at
// the largest coordinate against the bounds' extent.
bool within_precision(const Scene& scene) {
  Box box = bounding_box(scene.bounds);
  for (const Ring& ring : scene.free_boundary) box.expand(bounding_box(ring));
  const double far = std::max(
      {std::abs(box.min.x), std::abs(box.max.x), std::abs(box.min.y), std::abs(box.max.y)});
  const double extent = std::max(box.width(), box.height());
  return std::nextafter(far, INFINITY) - far <= std::ldexp(extent, -32);
}

std::vector<fs::path> bundled_scenes() {
  const fs::path root = fs::path(POLYNAV_SOURCE_DIR) / "scenes";
  std::vector<fs::path> scenes;
  for (const auto& e : fs::directory_iterator(root))
    if (e.path().extension() == ".yaml" || e.path().extension() == ".json")
      scenes.push_back(e.path());
  scenes.push_back(root / "movingai" / "arena.map");
  scenes.push_back(root / "mesh" / "arena.mesh");
  std::sort(scenes.begin(), scenes.end());
  return scenes;
}

// The offsets 1e3 ... 1e15 tried: all of them, or with a reduced test scale (support/scale.hpp)
// the three every scene must plan at and every third beyond, the largest included.
std::vector<int> offset_exponents() {
  std::vector<int> exponents;
  for (int e = 3; e <= 15; ++e)
    if (test::test_scale() == 1.0 || e <= 5 || (e - 5) % 3 == 0 || e == 15) exponents.push_back(e);
  return exponents;
}

// Unsmoothed, and the weighted method at a quick epsilon: translation, not its bound, is tested.
PlanOptions raw_options(const std::string& method) {
  PlanOptions options;
  options.method = method;
  options.smoother = "none";
  if (method == "weighted") options.settings.set("weighted.epsilon", test::quick_weighted_epsilon);
  return options;
}

std::vector<Query> some_queries(const Scene& scene, const fs::path& path) {
  std::vector<Query> queries = scene.queries;
  if (queries.empty()) {
    const fs::path scen = path.extension() == ".map" ? fs::path(path) += ".scen"
                                                     : path.parent_path() / "arena-euclidean.scen";
    queries = load_scenario(scen, scene);
  }
  return test::evenly(queries, 12);
}

class Offsets : public testing::TestWithParam<fs::path> {};

TEST_P(Offsets, PlanLikeTheOriginalOrAreRefused) {
  const Scene original = load_scene(GetParam());
  std::vector<Query> queries = some_queries(original, GetParam());
  ASSERT_FALSE(queries.empty());
  Scene base = original;
  base.queries = queries;
  base.mesh.reset();
  base.cell_map.reset();
  const bool integer_scene = GetParam().extension() == ".map";

  // Lengths of the untranslated scene, per method.
  const std::vector<std::string> methods = method_names();
  std::map<std::string, std::vector<double>> reference;
  for (const std::string& method : methods) {
    const Planner planner(base, raw_options(method));
    for (const Query& q : queries)
      reference[method].push_back(planner.plan(q.start, q.goal).length);
  }

  int planned = 0;
  for (const int e : offset_exponents()) {
    const double offset = std::pow(10.0, e);
    SCOPED_TRACE("offset 1e" + std::to_string(e));
    const Scene moved = translated(base, {offset, offset});
    if (!within_precision(moved)) {
      // Refused, at load's check and at FreeSpace, with a message that says what to do.
      try {
        check_scale(moved);
        ADD_FAILURE() << "not refused";
      } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("translate it nearer the origin"),
                  std::string::npos)
            << error.what();
      }
      EXPECT_THROW(FreeSpace{moved}, InputError);
      continue;
    }
    ++planned;
    for (const std::string& method : methods) {
      SCOPED_TRACE(method);
      const Planner planner(moved, raw_options(method));
      const PathSimplifier checker(planner.free_space());
      for (std::size_t k = 0; k < moved.queries.size(); ++k) {
        const Query& q = moved.queries[k];
        const PlanResult r = planner.plan(q.start, q.goal);
        if (r.found()) {
          EXPECT_TRUE(checker.is_valid(r.waypoints)) << "query " << k;
        }
        // The visibility graph's optimum is a continuous function of the input, so it moves
        // only by the rounding of the translated coordinates: each corner of the path is
        // rounded twice (the scene's vertices when translated, free space's back from exact
        // arithmetic), by up to an ulp of the offset in each coordinate, and moves the two
        // segments at it. The grid on integer maps is translated exactly.
        if (method == "visgraph" || (method == "grid" && integer_scene)) {
          const double expected = reference[method][k];
          ASSERT_EQ(std::isfinite(r.length), std::isfinite(expected)) << "query " << k;
          if (std::isfinite(expected)) {
            const double ulp = std::nextafter(offset, INFINITY) - offset;
            const double rounding = 4.0 * std::sqrt(2.0) * ulp * double(r.waypoints.size());
            EXPECT_NEAR(r.length, expected, std::max(1e-9 * std::max(1.0, expected), rounding))
                << "query " << k << ", " << r.waypoints.size() << " waypoints";
          }
        }
      }
    }
  }
  // The bound lets every bundled scene be used at UTM-like offsets.
  EXPECT_GE(planned, 3) << "refused even at 1e5";
}

INSTANTIATE_TEST_SUITE_P(BundledScenes, Offsets, testing::ValuesIn(bundled_scenes()),
                         [](const testing::TestParamInfo<fs::path>& param) {
                           std::string name = param.param.filename().string();
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

TEST(Scale, HugeValuesAreRefusedWithTheirLocation) {
  Scene scene;
  scene.source = "huge.yaml";
  scene.bounds = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  Obstacle o;
  o.shape.outer = {{2, 2}, {0.7e308, 2}, {3, 3}};
  o.where = {"huge.yaml", 4, 5, "obstacles[0]"};
  scene.obstacles.push_back(o);
  try {
    check_scale(scene);
    ADD_FAILURE() << "not refused";
  } catch (const InputError& error) {
    EXPECT_EQ(error.where().line, 4);
    EXPECT_NE(std::string(error.what()).find("7e+307"), std::string::npos) << error.what();
  }
  scene.obstacles.clear();
  EXPECT_NO_THROW(check_scale(scene));
  scene.agent.radius = 1e308;
  EXPECT_THROW(FreeSpace{scene}, InputError);
  scene.agent.radius = 0.5;
  Region region;
  region.polygon = {{2, 2}, {5, 2}, {5, 5}};
  region.cost = 1.7e308;
  scene.regions.push_back(region);
  EXPECT_THROW(check_scale(scene), InputError);
  scene.regions[0].cost = 1e12;
  EXPECT_NO_THROW(check_scale(scene));
}

}  // namespace
}  // namespace polynav
