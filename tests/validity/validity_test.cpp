// Every registered method and smoother on seeded random scenes, each found path (and each raw
// path) held to a checker that shares nothing with FreeSpace; and the checker itself, on paths
// made by hand to be just valid or just invalid.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <sstream>

#include "polynav/plan/planner.hpp"
#include "polynav/space/free_space.hpp"
#include "support/scale.hpp"
#include "validity/exact_checker.hpp"
#include "validity/sweep.hpp"

namespace polynav::validity {
namespace {

Ring rect(double x0, double y0, double x1, double y1) {
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

Scene scene_of(double radius, std::vector<Polygon> obstacles, Ring bounds = rect(0, 0, 10, 10)) {
  Scene scene;
  scene.bounds = std::move(bounds);
  scene.agent.radius = radius;
  for (Polygon& p : obstacles) scene.obstacles.push_back({std::move(p), {}});
  return scene;
}

// Checks with and without the interval filter: both must give the same verdict.
Failure failure_of(const Scene& scene, std::vector<Point> path, bool open_gaps = false) {
  const ExactChecker filtered(scene, {open_gaps, true});
  const ExactChecker exact(scene, {open_gaps, false});
  const Verdict a = filtered.check_path(path), b = exact.check_path(path);
  EXPECT_EQ(a.failure, b.failure) << a.reason << " / " << b.reason;
  return a.failure;
}

// A point agent among: A = [2,4]^2 and B = [4,6]^2 touching at (4,4); C = [6,8] x [1,3] and
// D = [8,9] x [1,3] sharing the side x = 8; E = [0,1] x [6,7] against the bounds' side x = 0;
// H = [6,9] x [6,9] with the hole [7,8]^2.
Scene point_scene() {
  return scene_of(0.0, {{rect(2, 2, 4, 4), {}},
                        {rect(4, 4, 6, 6), {}},
                        {rect(6, 1, 8, 3), {}},
                        {rect(8, 1, 9, 3), {}},
                        {rect(0, 6, 1, 7), {}},
                        {rect(6, 6, 9, 9), {rect(7, 7, 8, 8)}}});
}

TEST(ExactChecker, PointAgentAcceptsPathsThatTouchTheBoundary) {
  const Scene s = point_scene();
  EXPECT_EQ(failure_of(s, {{1, 1}, {1, 9}}), Failure::none);
  EXPECT_EQ(failure_of(s, {{1, 2}, {5, 2}}), Failure::none) << "along A's lower side";
  EXPECT_EQ(failure_of(s, {{3, 1}, {5, 3}}), Failure::none) << "grazing A's corner (4, 2)";
  EXPECT_EQ(failure_of(s, {{3, 5}, {4, 4}, {3, 6}}), Failure::none)
      << "into the pinch and back out on the same side";
  EXPECT_EQ(failure_of(s, {{2, 5}, {4, 5}, {4, 7}}), Failure::none) << "along B's left side";
  EXPECT_EQ(failure_of(s, {{0, 1}, {0, 5}}), Failure::none) << "along the bounds";
  EXPECT_EQ(failure_of(s, {{7.5, 7.25}, {7.75, 7.5}}), Failure::none) << "inside H's hole";
  EXPECT_EQ(failure_of(s, {{7, 7.5}, {8, 7.5}}), Failure::none) << "across H's hole, side to side";
  EXPECT_EQ(failure_of(s, {{4, 4}}), Failure::none) << "standing in the pinch";
  EXPECT_EQ(failure_of(s, {{1, 0.5}, {10, 0.5}, {10, 10}}), Failure::none);
}

TEST(ExactChecker, PointAgentRejectsPathsThroughBlockedParts) {
  const Scene s = point_scene();
  EXPECT_EQ(failure_of(s, {{1, 3}, {5, 3}}), Failure::enters_blocked) << "through A";
  EXPECT_EQ(failure_of(s, {{3, 3}}), Failure::point_blocked) << "inside A";
  EXPECT_EQ(failure_of(s, {{1, 2}, {3, 2}, {3, 3}}), Failure::point_blocked);
  EXPECT_EQ(failure_of(s, {{1, 2}, {3.5, 2}, {3.5, 4}, {1, 4}}), Failure::enters_blocked)
      << "a turn on A's side into A";
  EXPECT_EQ(failure_of(s, {{3, 5}, {5, 3}}), Failure::gap)
      << "through the zero-width gap between A and B";
  EXPECT_EQ(failure_of(s, {{3, 5}, {5, 3}}, true), Failure::none) << "open gaps";
  EXPECT_EQ(failure_of(s, {{3, 5}, {4, 4}, {5, 3.5}}), Failure::turn)
      << "a turn in the pinch from one free side to the other";
  EXPECT_EQ(failure_of(s, {{3, 5}, {4, 4}, {5, 3.5}}, true), Failure::none);
  EXPECT_EQ(failure_of(s, {{8, 0.5}, {8, 3.5}}), Failure::enters_blocked)
      << "along the side C and D share";
  EXPECT_EQ(failure_of(s, {{8, 2}}), Failure::point_blocked) << "on the side C and D share";
  EXPECT_EQ(failure_of(s, {{0, 5}, {0, 8}}), Failure::enters_blocked)
      << "along the bounds where E stands against them";
  EXPECT_EQ(failure_of(s, {{-1, 5}, {1, 5}}), Failure::point_blocked) << "outside the bounds";
  EXPECT_EQ(failure_of(s, {{7.5, 7.5}, {7.5, 8.5}}), Failure::point_blocked);
  EXPECT_EQ(failure_of(s, {{7.5, 7.5}, {7.5, 9.5}}), Failure::enters_blocked)
      << "from the hole across H";
  EXPECT_EQ(failure_of(s, {{5, 3}, {5, 3}, {3, 5}}), Failure::gap) << "repeated waypoints are one";
}

TEST(ExactChecker, PointAgentAtAVertexOnAnEdgeAndAcrossOverlaps) {
  // A triangle's apex touches the box's top side at (5, 4); C overlaps the box.
  const Scene s = scene_of(
      0.0, {{rect(3, 2, 7, 4), {}}, {{{5, 4}, {6, 6}, {4, 6}}, {}}, {rect(6, 3, 8, 5), {}}});
  EXPECT_EQ(failure_of(s, {{2, 4}, {5.5, 4}}), Failure::gap) << "between apex and side";
  EXPECT_EQ(failure_of(s, {{2, 4}, {5.5, 4}}, true), Failure::none);
  EXPECT_EQ(failure_of(s, {{2, 4}, {5, 4}, {2, 5}}), Failure::none) << "up to the apex and back";
  EXPECT_EQ(failure_of(s, {{2, 4}, {5, 4}, {5.5, 4.5}}), Failure::turn);
  EXPECT_EQ(failure_of(s, {{4.5, 5}, {5, 4}, {5.5, 5}}), Failure::turn)
      << "down one side of the triangle and up the other, between its apex and the box";
  EXPECT_EQ(failure_of(s, {{5.5, 4}, {8.5, 4}}), Failure::enters_blocked)
      << "along the box's side, inside C";
  EXPECT_EQ(failure_of(s, {{6.5, 5}, {8, 5}}), Failure::none) << "along C's top";
}

TEST(ExactChecker, PointAgentInNonConvexBounds) {
  const Scene s = scene_of(0.0, {}, {{0, 0}, {10, 0}, {10, 5}, {5, 5}, {5, 10}, {0, 10}});
  EXPECT_EQ(failure_of(s, {{2, 8}, {8, 2}}), Failure::none) << "touching the reflex corner";
  EXPECT_EQ(failure_of(s, {{2, 8}, {8, 4}}), Failure::enters_blocked) << "across the notch";
  EXPECT_EQ(failure_of(s, {{2, 8}, {5, 5}, {8, 4}}), Failure::none);
  EXPECT_EQ(failure_of(s, {{2, 5}, {8, 5}}), Failure::none) << "along the notch's side";
}

TEST(ExactChecker, DiscAgentNeedsClearanceOfTheRadiusExactly) {
  const double r = 0.5;
  const Scene s = scene_of(r, {{rect(4, 4, 6, 6), {}}});
  EXPECT_EQ(failure_of(s, {{1, 1}, {9, 1}}), Failure::none);
  EXPECT_EQ(failure_of(s, {{1, 3.5}, {9, 3.5}}), Failure::none) << "clearance exactly r";
  EXPECT_EQ(failure_of(s, {{1, 3.5 + 1e-12}, {9, 3.5 + 1e-12}}), Failure::clearance)
      << "clearance r - 1e-12";
  const double tight = std::nextafter(3.5, 4.0);
  EXPECT_EQ(failure_of(s, {{1, tight}, {9, tight}}), Failure::clearance)
      << "clearance r less one unit in the last place";
  EXPECT_EQ(failure_of(s, {{1, 5}, {9, 5}}), Failure::clearance) << "through the obstacle";
  EXPECT_EQ(failure_of(s, {{0.5, 0.5}, {0.5, 9.5}}), Failure::none) << "r from the bounds";
  EXPECT_EQ(failure_of(s, {{std::nextafter(0.5, 0.0), 1}, {1, 1}}), Failure::point_blocked)
      << "a waypoint just within r of the bounds";
  EXPECT_EQ(failure_of(s, {{0.4, 5}}), Failure::point_blocked);
  EXPECT_EQ(failure_of(s, {{5, 5}}), Failure::point_blocked) << "inside the obstacle";
  const Scene big = scene_of(r, {{rect(2, 2, 8, 8), {}}});
  EXPECT_EQ(failure_of(big, {{5, 5}, {5.5, 5}}), Failure::point_blocked)
      << "deep inside: far from every edge, still blocked";
}

TEST(ExactChecker, DiscAgentGrazingACorner) {
  // r = 5/8 and the corner (4, 4): the point at distance r towards (-4, -3) is (3.5, 3.625),
  // exact in binary. The segment through it along (3, -4) keeps exactly r from the corner.
  const double r = 0.625;
  const Scene s = scene_of(r, {{rect(4, 4, 6, 6), {}}});
  EXPECT_EQ(failure_of(s, {{2, 5.625}, {5, 1.625}}), Failure::none);
  // Moved towards the corner by 5 * 2^-42 (about 1.1e-12).
  const double e = 0x1p-42;
  EXPECT_EQ(failure_of(s, {{2 + 4 * e, 5.625 + 3 * e}, {5 + 4 * e, 1.625 + 3 * e}}),
            Failure::clearance);
  // Ending at the point of closest approach, then turning away.
  EXPECT_EQ(failure_of(s, {{2, 5.625}, {3.5, 3.625}, {3.5, 1}}), Failure::none);
}

TEST(ExactChecker, DiscAgentAtAPinch) {
  const Scene s = scene_of(0.5, {{rect(2, 2, 4, 4), {}}, {rect(4, 4, 6, 6), {}}});
  EXPECT_EQ(failure_of(s, {{2, 6}, {6, 2}}), Failure::clearance);
  EXPECT_EQ(failure_of(s, {{1, 6}, {3, 8}}), Failure::none);
}

// The checker must agree with the library's own exact line of sight on random segments between
// free points for a point agent (both are exact; segments that touch the boundary are rare),
// and never reject what line of sight accepts for a disc (free space is a subset of the exact
// configuration space).
TEST(ExactChecker, AgreesWithLineOfSightOnRandomSegments) {
  std::size_t compared = 0, rejected = 0;
  for (std::uint64_t seed = 0; seed < 24; ++seed) {
    const Scene scene = random_scene(seed);
    const FreeSpace space(scene);
    const ExactChecker checker(scene);
    std::mt19937_64 rng(seed);
    const Box b = bounding_box(scene.bounds);
    std::uniform_real_distribution<double> ux(b.min.x, b.max.x), uy(b.min.y, b.max.y);
    for (int i = 0; i < 300; ++i) {
      const Point p{ux(rng), uy(rng)}, q{ux(rng), uy(rng)};
      if (!space.is_free(p) || !space.is_free(q)) continue;
      const bool sight = space.line_of_sight(p, q);
      const Verdict v = checker.check_path(std::vector<Point>{p, q});
      ++compared;
      rejected += !v.valid();
      if (scene.agent.radius == 0.0) {
        EXPECT_EQ(sight, v.valid()) << scene.name << " " << v.reason;
      } else if (sight) {
        EXPECT_TRUE(v.valid()) << scene.name << " " << v.reason;
      }
    }
  }
  EXPECT_GT(compared, 2000u);
  EXPECT_GT(rejected, compared / 10) << "random segments should often be blocked";
}

// Paths the library returns that the checker rejects, each reduced to a few obstacles. Both come
// from FreeSpace rounding the vertices it constructs to the nearest double, which may move free
// space's boundary into the blocked side by up to half a unit in the last place of the
// coordinates. Each test runs once its GTEST_SKIP is removed (after the fix).
TEST(RoundingRegressions, DiscClearanceKeepsTheRadiusDespiteRounding) {
  // Inflated vertices are rounded to nearest: a margin of 1e-12 of the radius (1e-15 here) was
  // less than half a unit in the last place of coordinates near 17 (1.8e-15), and this visgraph
  // path passed 5.9e-16 closer than the radius 0.001 to the box's corner (17.375, 18.1875). The
  // disc's inradius now also covers the rounding of the largest coordinate.
  const Scene scene =
      scene_of(0.001, {{rect(16.3125, 16.6875, 17.375, 18.1875), {}}}, rect(0, 0, 20, 20));
  PlanOptions options;
  options.method = "visgraph";
  options.smoother = "none";
  const Planner planner(scene, options);
  const PlanResult r = planner.plan({17.113334362266521, 19.036943367723609},
                                    {18.120626086265339, 12.345491638848781});
  ASSERT_TRUE(r.found());
  const Verdict v = ExactChecker(scene).check_path(r.waypoints);
  EXPECT_TRUE(v.valid()) << v.reason;
}

// The box's side x = 5.125 crosses an edge of obstacles[2] at a point no double holds; rounded
// to nearest it was 9.8e-16 inside obstacles[2], and the raw navmesh path turned there.
TEST(RoundingRegressions, PointAgentTurnsAtACrossingThatStaysInFreeSpace) {
  const Scene scene = scene_of(0.0,
                               {{{{3.761539252979821, 12.64353418331677},
                                  {5.149088016064149, 13.1711288536531},
                                  {4.72484364696386, 14.505457865271266},
                                  {3.6013296231920897, 14.997496099126241},
                                  {3.124957631907762, 15.468357355808314},
                                  {1.6645662211805834, 15.220946284049559},
                                  {2.496825723043701, 13.680773798349174},
                                  {1.390137223250122, 13.27132533757062},
                                  {1.8582231367177804, 11.409199799934019},
                                  {2.940857634204613, 11.85623224161348}},
                                 {}},
                                {rect(5.125, 13.875, 7.5625, 17), {}},
                                {{{5.330005548029208, 13.219063412014219},
                                  {5.573337676297207, 12.594346839668496},
                                  {5.800322239940997, 12.491293020973728},
                                  {5.906358836854382, 11.766844862514652},
                                  {6.5342648445380025, 10.747720454612605},
                                  {7.414983261946807, 11.993175611697003},
                                  {7.454036906817066, 12.788443380942937},
                                  {8.31670375035096, 13.68299166916417},
                                  {6.262499008493956, 13.136979768804123},
                                  {5.83113578204305, 14.633964202824748},
                                  {5.1037055489480725, 14.075794880143954}},
                                 {}}},
                               rect(0, 0, 20, 20));
  PlanOptions options;
  options.method = "navmesh";
  options.smoother = "none";
  options.settings.set("navmesh.merge", "false");
  options.settings.set("navmesh.search", "graph");  // the raw graph path of the report
  const Planner planner(scene, options);
  const PlanResult r = planner.plan({5.125, 15.4375}, {5.125, 13.875});
  ASSERT_TRUE(r.found());
  const Verdict v = ExactChecker(scene).check_path(r.waypoints);
  EXPECT_TRUE(v.valid()) << v.reason;
}

// Random scenes, 4 shards so that ctest runs them in parallel. Each query is planned by every
// method (the navigation mesh with each node placement) and smoothed by every smoother.
class RandomScenes : public testing::TestWithParam<int> {};

TEST_P(RandomScenes, EveryFoundPathIsValid) {
  SweepOptions options;
  options.seed = 1000 + std::uint64_t(GetParam());
  options.queries = test::scaled(1500);
  options.queries_per_scene = 25;
  options.variants = method_variants(false);
  options.cross_check_every = 50;
  std::size_t failures = 0;
  const SweepResult result = run_sweep(options, [&](const Rejection& r) {
    if (++failures > 10) return;
    std::ostringstream path;
    for (const Point& p : r.path) path << " (" << p.x << ", " << p.y << ")";
    ADD_FAILURE() << r.variant << " / " << r.smoother << ", scene seed " << r.scene_seed
                  << ", start (" << r.start.x << ", " << r.start.y << "), goal (" << r.goal.x
                  << ", " << r.goal.y << "): " << r.reason << "\n  path:" << path.str();
  });
  std::uint64_t found = 0, checked = 0, smoothed_rows = 0;
  for (const Tally& t : result.tallies) {
    EXPECT_EQ(t.invalid, 0u) << t.variant << " / " << t.smoother;
    EXPECT_EQ(t.other, 0u) << t.variant << " / " << t.smoother << ": " << t.other_example;
    EXPECT_EQ(t.fell_back, 0u) << t.variant << " / " << t.smoother;
    if (t.smoother != "raw") {
      found += t.found;
      ++smoothed_rows;
    }
    checked += t.found;
  }
  EXPECT_EQ(result.queries, options.queries);
  // Most queries have a path: the sweep is not vacuous.
  EXPECT_GT(found, smoothed_rows * options.queries / 2);
  EXPECT_EQ(result.cross_check_mismatches, 0u) << "the interval filter changed a verdict";
  EXPECT_GT(result.cross_checked, 0u);
  // Constructed vertices are rounded into free space, so FreeSpace never calls a point free
  // that lies in an obstacle.
  EXPECT_EQ(result.disputed_points, 0u);
  std::cout << result.queries << " queries x " << options.variants.size() << " methods: " << checked
            << " paths checked, " << result.cross_checked
            << " of them again with rationals only, in " << result.seconds << " s CPU; "
            << result.disputed_points
            << " query ends FreeSpace calls free but the checker does not\n";
}

INSTANTIATE_TEST_SUITE_P(Shards, RandomScenes, testing::Range(0, 4));

}  // namespace
}  // namespace polynav::validity
