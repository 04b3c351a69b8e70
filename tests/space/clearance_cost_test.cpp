// Clearance as a cost (FreeSpaceOptions::clearance_distance): the band a point falls in against
// its distance to the map's blocked cells, cost ranges that bound every cost inside a box, exact
// segment costs against dense sampling, and planning: paths keep farther from the walls at a
// measured price in length, and every method's reported cost is the exact cost of its waypoints.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "../../src/space/cell_inflation.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"
#include "support/data.hpp"
#include "support/raster_distance.hpp"

namespace polynav {
namespace {

using test_support::distance_to_blocked;

constexpr double kRadius = 0.22, kDistance = 0.4, kFactor = 3.0;
constexpr int kBands = 4;

Scene depot() {
  Scene scene = load_scene(test_support::bundled_scenes("ros") / "depot.yaml");
  scene.agent.radius = kRadius;
  return scene;
}

FreeSpaceOptions with_clearance() {
  return {.clearance_distance = kDistance, .clearance_factor = kFactor, .clearance_bands = kBands};
}

double band_cost(int k) {
  return 1.0 + (kFactor - 1.0) * (kBands - k + 1) / kBands;
}

TEST(ClearanceCost, BandsFollowTheDistanceToTheBlockedCells) {
  const Scene scene = depot();
  const FreeSpace space(scene, with_clearance());
  ASSERT_TRUE(space.has_clearance_cost());
  ASSERT_TRUE(space.weighted());
  const detail::SceneRaster raster = detail::scene_raster(scene).value();
  const double cell_diagonal = std::sqrt(2.0) * raster.cell_size;
  const Box box = space.bounds_box();
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> ux(box.min.x, box.max.x), uy(box.min.y, box.max.y);
  std::vector<int> seen(kBands + 2, 0);
  for (int i = 0; i < 30000; ++i) {
    const Point p{ux(rng), uy(rng)};
    if (!space.is_free(p)) continue;
    const double d = distance_to_blocked(raster, p, kRadius + kDistance + 1.0) - kRadius;
    const double cost = space.cost_at(p);
    // Band k spans distances [(k - 1) w, k w) beyond the radius, each edge computed on the
    // cells, so up to a cell diagonal nearer.
    const double w = kDistance / kBands;
    int band = kBands + 1;
    for (int k = 1; k <= kBands; ++k)
      if (cost == band_cost(k)) band = k;
    if (band == kBands + 1) {
      ASSERT_EQ(cost, 1.0) << p.x << "," << p.y;
    }
    ++seen[band];
    if (band <= kBands) {
      EXPECT_LE(d, band * w + cell_diagonal + 1e-9) << "band " << band << " at " << p.x;
    }
    EXPECT_GE(d, (band - 1) * w - 1e-9) << "band " << band << " at " << p.x << "," << p.y;
  }
  for (int k = 1; k <= kBands + 1; ++k) EXPECT_GT(seen[k], 0) << "no sample in band " << k;
}

TEST(ClearanceCost, CostRangesBoundEveryCostInTheirBox) {
  const FreeSpace space(depot(), with_clearance());
  const Box box = space.bounds_box();
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> ux(box.min.x, box.max.x), uy(box.min.y, box.max.y),
      side(0.01, 1.0), t(0.0, 1.0);
  int narrow = 0;
  for (int i = 0; i < 3000; ++i) {
    const Point c{ux(rng), uy(rng)};
    const double h = side(rng);
    const Box b{{c.x - h, c.y - h}, {c.x + h, c.y + h}};
    const FieldRange range = space.cost_range(b);
    ASSERT_LE(range.lowest, range.highest);
    narrow += range.lowest == range.highest;
    for (int k = 0; k < 20; ++k) {
      const Point p{b.min.x + t(rng) * 2 * h, b.min.y + t(rng) * 2 * h};
      if (!space.is_free(p)) continue;
      const double cost = space.cost_at(p);
      ASSERT_GE(cost, range.lowest) << p.x << "," << p.y;
      ASSERT_LE(cost, range.highest) << p.x << "," << p.y;
    }
  }
  EXPECT_GT(narrow, 0);
}

TEST(ClearanceCost, SegmentCostsAgreeWithDenseSampling) {
  const FreeSpace space(depot(), with_clearance());
  const Box box = space.bounds_box();
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> ux(box.min.x, box.max.x), uy(box.min.y, box.max.y);
  for (int i = 0; i < 200; ++i) {
    const Point a{ux(rng), uy(rng)};
    const Point b{a.x + std::uniform_real_distribution<double>(-3, 3)(rng),
                  a.y + std::uniform_real_distribution<double>(-3, 3)(rng)};
    const double exact = space.segment_cost(a, b);
    // A midpoint rule with n samples errs by at most a sample's length per cost change it misses,
    // each at most (factor - 1) per unit: a loose bound that a wrong band would still break.
    const int n = 20000;
    double sampled = 0.0;
    for (int k = 0; k < n; ++k)
      sampled += space.cost_at(a + ((k + 0.5) / n) * (b - a)) * distance(a, b) / n;
    EXPECT_NEAR(exact, sampled, 60 * (kFactor - 1) * distance(a, b) / n + 1e-9)
        << a.x << "," << a.y << " -> " << b.x << "," << b.y;
    EXPECT_GE(exact, distance(a, b) - 1e-12);
    EXPECT_LE(exact, kFactor * distance(a, b) + 1e-12);
  }
}

double least_clearance(const FreeSpace& space, const std::vector<Point>& path) {
  double least = INFINITY;
  for (std::size_t i = 1; i < path.size(); ++i)
    least = std::min(least, space.clearance(path[i - 1], path[i]));
  return least;
}

TEST(ClearanceCost, PathsKeepFartherFromWallsAtAMeasuredPrice) {
  const Scene scene = depot();
  const auto plain = std::make_shared<const FreeSpace>(scene);
  const auto costly = std::make_shared<const FreeSpace>(scene, with_clearance());
  const Box box = plain->bounds_box();
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> ux(box.min.x, box.max.x), uy(box.min.y, box.max.y);
  std::vector<std::pair<Point, Point>> queries;
  while (queries.size() < 40) {
    const Point a{ux(rng), uy(rng)}, b{ux(rng), uy(rng)};
    if (plain->is_free(a) && plain->is_free(b) && plain->component(a) == plain->component(b) &&
        costly->is_free(a) && distance(a, b) > 5.0)
      queries.emplace_back(a, b);
  }
  for (const std::string method : {"grid", "navmesh", "quadtree"}) {
    PlanOptions options;
    options.method = method;
    const Planner before(plain, options), after(costly, options);
    double clearance_before = 0, clearance_after = 0, length_before = 0, length_after = 0;
    for (const auto& [a, b] : queries) {
      const PlanResult r0 = before.plan(a, b), r1 = after.plan(a, b);
      ASSERT_TRUE(r0.found() && r1.found()) << method;
      // The reported cost is the exact cost of the waypoints, by the same FreeSpace and by a
      // fresh one built from the scene.
      EXPECT_NEAR(r1.cost, costly->path_cost(r1.waypoints), 1e-9 * r1.cost) << method;
      EXPECT_GE(r1.cost, r1.length - 1e-9);
      clearance_before += least_clearance(*plain, r0.waypoints);
      clearance_after += least_clearance(*plain, r1.waypoints);
      length_before += r0.length;
      length_after += r1.length;
    }
    EXPECT_GT(clearance_after, 1.3 * clearance_before) << method;
    EXPECT_LT(length_after, 1.2 * length_before) << method;
    RecordProperty(method + "_mean_clearance_before_after",
                   std::to_string(clearance_before / double(queries.size())) + " -> " +
                       std::to_string(clearance_after / double(queries.size())));
    RecordProperty(method + "_length_ratio", std::to_string(length_after / length_before));
  }
}

TEST(ClearanceCost, BadValuesAreRefusedWithTheirKey) {
  const Scene scene = depot();
  const auto refused = [&](FreeSpaceOptions o, const std::string& key) {
    try {
      const FreeSpace space(scene, o);
      ADD_FAILURE() << key << " accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.where().key_path, key) << e.what();
    }
  };
  refused({.clearance_distance = -1.0}, "space.clearance_distance");
  refused({.clearance_distance = NAN}, "space.clearance_distance");
  refused({.clearance_distance = INFINITY}, "space.clearance_distance");
  refused({.clearance_distance = 0.3, .clearance_factor = 0.5}, "space.clearance_factor");
  refused({.clearance_distance = 0.3, .clearance_factor = NAN}, "space.clearance_factor");
  refused({.clearance_distance = 0.3, .clearance_bands = 0}, "space.clearance_bands");
  // A distance wider than the map leaves the far bands empty: planning still works.
  const FreeSpace wide(scene, {.clearance_distance = 50.0});
  EXPECT_TRUE(wide.has_clearance_cost());
}

}  // namespace
}  // namespace polynav
