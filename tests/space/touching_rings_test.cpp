// Free space around obstacles whose rings touch at single points, as OGC-valid polygons may: a
// hole touching its outer ring encloses free space reachable only through that point, a
// zero-width gap closed by default and passable with space.gaps=open; CGAL's Boolean operations
// get such obstacles in a form they accept, and compute the right set from them.

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "polynav/plan/planner.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"
#include "scene/validate.hpp"
#include "space/configuration_space.hpp"
#include "validity/exact_checker.hpp"

namespace polynav {
namespace {

Ring rect(double x0, double y0, double x1, double y1) {
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

Scene scene_with(std::vector<Polygon> obstacles, double radius = 0.0) {
  Scene scene;
  scene.bounds = rect(-5, -5, 15, 15);
  scene.agent.radius = radius;
  for (std::size_t i = 0; i < obstacles.size(); ++i)
    scene.obstacles.push_back(
        {std::move(obstacles[i]), {"", 0, 0, "obstacles[" + std::to_string(i) + "]"}});
  return scene;
}

// A square obstacle whose triangular hole touches it at its corner (0, 0): the room inside.
const Polygon corner_room{rect(0, 0, 10, 10), {{{0, 0}, {6, 2}, {2, 6}}}};
// The same room touching the outer ring inside its bottom edge, at (5, 0).
const Polygon edge_room{rect(0, 0, 10, 10), {{{5, 0}, {8, 4}, {2, 4}}}};

struct Room {
  Polygon shape;
  Point inside;  // a point well inside the hole
};
const Room rooms[] = {{corner_room, {2.5, 2.5}}, {edge_room, {5, 2.5}}};

// Whether the path is a valid motion by the library's own exact checks (those Planner applies
// to every path it returns) and by the independent checker of tests/validity.
void expect_valid_path(const Scene& scene, const FreeSpace& space, const std::vector<Point>& path,
                       bool open_gaps) {
  ASSERT_GE(path.size(), 2u);
  for (std::size_t i = 1; i < path.size(); ++i)
    EXPECT_TRUE(space.line_of_sight(path[i - 1], path[i])) << "segment " << i;
  for (std::size_t i = 1; i + 1 < path.size(); ++i)
    EXPECT_TRUE(space.turn_is_free(path[i - 1], path[i], path[i + 1])) << "turn " << i;
  const validity::ExactChecker checker(scene, {.open_gaps = open_gaps});
  const validity::Verdict verdict = checker.check_path(path);
  EXPECT_TRUE(verdict.valid()) << verdict.reason;
}

PlanResult plan(const Scene& scene, const std::string& method, bool open_gaps, Point a, Point b) {
  PlanOptions options;
  options.method = method;
  if (open_gaps) options.settings.set("space.gaps", std::string("open"));
  const Planner planner(scene, options);
  return planner.plan(a, b);
}

TEST(TouchingRings, TheRoomInsideAHoleTouchingItsObstacleIsAComponentOfItsOwn) {
  for (const auto& [room, inside] : rooms) {
    const Scene scene = scene_with({room});
    const FreeSpace closed(scene);
    const Point outside{-2, -3};
    EXPECT_TRUE(closed.is_free(inside));
    EXPECT_TRUE(closed.is_free(room.holes[0][0]));  // the point where they touch
    EXPECT_FALSE(closed.is_free({9, 9}));
    EXPECT_EQ(closed.component_count(), 2u);
    EXPECT_NE(closed.component(inside), closed.component(outside));
    // The room's area is free: the bounds less the square plus the hole.
    const double hole = std::abs(signed_area2(room.holes[0])) / 2;
    EXPECT_NEAR(closed.area(), 400 - 100 + hole, 1e-9);
    // Open gaps join the two at the point.
    const FreeSpace open(scene, {.open_gaps = true});
    EXPECT_EQ(open.component_count(), 1u);
    EXPECT_EQ(open.component(inside), open.component(outside));
    // Through the point: a turn there crosses between the blocked parts on either side.
    const Point at = room.holes[0][0];
    EXPECT_FALSE(closed.turn_is_free(outside, at, inside));
    EXPECT_TRUE(open.turn_is_free(outside, at, inside));
    // The point itself lies in both components: reached from either side, not through.
    EXPECT_EQ(closed.components(at).size(), 2u);
    EXPECT_EQ(closed.components(inside), std::vector{*closed.component(inside)});
    for (const Point from : {outside, inside}) {
      const PlanResult r = plan(scene, "visgraph", false, from, at);
      ASSERT_TRUE(r.found()) << r.message;
      expect_valid_path(scene, closed, r.waypoints, false);
    }
  }
}

TEST(TouchingRings, FromOutsideIntoTheRoomIsNoPathUnlessGapsAreOpen) {
  const Scene scene = scene_with({corner_room});
  const Point outside{-2, -3}, inside{2.5, 2.5};
  for (const char* method : {"visgraph", "navmesh", "grid", "quadtree"}) {
    const PlanResult closed = plan(scene, method, false, outside, inside);
    EXPECT_EQ(closed.status, search::SearchStatus::no_path) << method << ": " << closed.message;
    // Around the obstacle is still fine.
    const PlanResult around = plan(scene, method, false, outside, {12, 12});
    ASSERT_TRUE(around.found()) << method << ": " << around.message;
    expect_valid_path(scene, FreeSpace(scene), around.waypoints, false);
  }
  // The exact methods go straight through the point once gaps are open.
  for (const char* method : {"visgraph", "navmesh"}) {
    const PlanResult open = plan(scene, method, true, outside, inside);
    ASSERT_TRUE(open.found()) << method << ": " << open.message;
    EXPECT_NEAR(open.length, std::hypot(2, 3) + std::hypot(2.5, 2.5), 1e-9) << method;
    const FreeSpace space(scene, {.open_gaps = true});
    expect_valid_path(scene, space, open.waypoints, true);
    // The same path is invalid where gaps are closed, by either check.
    const validity::ExactChecker closed_checker(scene);
    EXPECT_FALSE(closed_checker.check_path(open.waypoints).valid()) << method;
    EXPECT_FALSE(
        FreeSpace(scene).turn_is_free(open.waypoints[0], open.waypoints[1], open.waypoints[2]));
  }
}

TEST(TouchingRings, HolesTouchingEachOtherAreSeparateRoomsJoinedOnlyThroughOpenGaps) {
  // Two triangular rooms inside a square obstacle, touching at (5, 5), apart from the outside.
  const Polygon two{rect(0, 0, 10, 10), {{{5, 5}, {2, 7}, {2, 3}}, {{5, 5}, {8, 3}, {8, 7}}}};
  const Scene scene = scene_with({two});
  const FreeSpace closed(scene);
  EXPECT_EQ(closed.component_count(), 3u);
  EXPECT_NE(closed.component({3, 5}), closed.component({7, 5}));
  const FreeSpace open(scene, {.open_gaps = true});
  EXPECT_EQ(open.component_count(), 2u);
  EXPECT_EQ(open.component({3, 5}), open.component({7, 5}));
  const PlanResult found = plan(scene, "visgraph", true, {3, 5}, {7, 5.5});
  ASSERT_TRUE(found.found()) << found.message;
  expect_valid_path(scene, open, found.waypoints, true);
  EXPECT_EQ(plan(scene, "visgraph", false, {3, 5}, {7, 5.5}).status, search::SearchStatus::no_path);
}

TEST(TouchingRings, AnAgentWithARadiusKeepsItsDistanceFromTheRoomsWalls) {
  // Grown by the disc, the obstacle closes the point where the room touched the outside, and
  // the room shrinks by the radius.
  for (const auto& [room, inside] : rooms) {
    const Scene scene = scene_with({room}, 0.25);
    const FreeSpace space(scene);
    EXPECT_EQ(space.component_count(), 2u);
    EXPECT_FALSE(space.is_free(room.holes[0][0]));
    EXPECT_TRUE(space.is_free(inside));
    EXPECT_FALSE(space.is_free({-0.1, -0.1}));
    const FreeSpace open(scene, {.open_gaps = true});
    EXPECT_EQ(open.component_count(), 2u);
  }
}

// Random valid polygons with holes (the generator of scene/ogc_polygons_test.cpp): CGAL's own
// validity check for Boolean operations accepts each as handed over, and the free space around
// it has the area it must have.
TEST(TouchingRings, CgalTakesEveryValidPolygonAndComputesItsArea) {
  std::mt19937 rng(611);
  const std::vector<Point> fixed_outer{{0, 0}, {8, 0}, {8, 8}, {4, 5}, {0, 8}};
  std::uniform_int_distribution<int> origin(0, 6);
  int valid = 0;
  for (int trial = 0; trial < 10'000; ++trial) {
    const int size = 2 + trial % 2;
    std::uniform_int_distribution<int> coord(0, size);
    std::vector<detail::RawRing> holes;
    for (int h = 0, n = 1 + trial % 4; h < n; ++h) {
      detail::RawRing ring;
      const Point o{double(origin(rng)), double(origin(rng))};
      for (int i = 0, k = 3 + (trial / 4) % 3; i < k; ++i)
        ring.points.push_back({o.x + coord(rng), o.y + coord(rng)});
      holes.push_back(ring);
    }
    Polygon polygon;
    try {
      polygon = detail::checked_polygon({fixed_outer, {}}, holes);
    } catch (const InputError&) {
      continue;
    }
    ++valid;
    ASSERT_TRUE(detail::cgal_takes(polygon)) << "trial " << trial;
    double area = std::abs(signed_area2(polygon.outer)) / 2;
    for (const Ring& h : polygon.holes) area -= std::abs(signed_area2(h)) / 2;
    const FreeSpace space(scene_with({polygon}));
    ASSERT_NEAR(space.area(), 400 - area, 1e-9) << "trial " << trial;
  }
  EXPECT_GT(valid, 500);
}

}  // namespace
}  // namespace polynav
