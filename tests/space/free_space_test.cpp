// FreeSpace: inflation, merging, exact line of sight on degenerate configurations, segment cost.
#include "polynav/space/free_space.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "../../src/scene/readers.hpp"
#include "polynav/kernel/exact.hpp"

namespace polynav {
namespace {

Ring rect(double x0, double y0, double x1, double y1) {
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

Scene box_scene(std::vector<Polygon> obstacles, double radius = 0.0) {
  Scene scene;
  scene.bounds = rect(0, 0, 10, 10);
  scene.agent.radius = radius;
  for (std::size_t i = 0; i < obstacles.size(); ++i)
    scene.obstacles.push_back(
        {std::move(obstacles[i]), {"", 0, 0, "obstacles[" + std::to_string(i) + "]"}});
  return scene;
}

// The inline orientation answers in doubles only when its error bound proves the sign: it must
// agree with exact arithmetic everywhere, above all on nearly collinear points.
TEST(ExactOrientation, FastPathAgreesWithExactArithmetic) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> coord(-1e3, 1e3), t(-2.0, 3.0);
  std::uniform_int_distribution<int> ulps(-4, 4);
  int decided = 0;
  for (int i = 0; i < 200000; ++i) {
    const Point p{coord(rng), coord(rng)}, q{coord(rng), coord(rng)};
    // r on the line pq (rounded), then nudged by a few units in the last place.
    Point r = p + t(rng) * (q - p);
    for (int k = ulps(rng); k != 0; k += k > 0 ? -1 : 1)
      r.x = std::nextafter(r.x, k > 0 ? INFINITY : -INFINITY);
    const int fast = exact::orientation(p, q, r), slow = exact::orientation_exact(p, q, r);
    ASSERT_EQ(fast, slow) << p.x << "," << p.y << " " << q.x << "," << q.y << " " << r.x << ","
                          << r.y;
    decided += slow != 0 ? 1 : 0;
  }
  EXPECT_GT(decided, 1000);
  EXPECT_EQ(exact::orientation({0, 0}, {1, 1}, {2, 2}), 0);
  EXPECT_EQ(exact::orientation({0, 0}, {1, 0}, {0, 1}), 1);
  EXPECT_EQ(exact::orientation({0, 0}, {1, 0}, {0, -1e-300}), -1);  // below the fast path's range
}

TEST(FreeSpace, EmptyBoxIsFreeInsideAndOnItsBoundaryOnly) {
  const FreeSpace space(box_scene({}));
  EXPECT_TRUE(space.is_free({5, 5}));
  EXPECT_TRUE(space.is_free({0, 0}));
  EXPECT_TRUE(space.is_free({10, 3}));
  EXPECT_FALSE(space.is_free({-0.001, 5}));
  EXPECT_FALSE(space.is_free({10.5, 10.5}));
  EXPECT_EQ(space.component_count(), 1u);
  EXPECT_NEAR(space.area(), 100.0, 1e-9);
  EXPECT_TRUE(space.line_of_sight({0, 0}, {10, 10}));
  EXPECT_TRUE(space.line_of_sight({0, 0}, {10, 0}));  // along the bounds
  EXPECT_FALSE(space.line_of_sight({5, 5}, {11, 5}));
  EXPECT_FALSE(space.line_of_sight({-1, 5}, {11, 5}));
}

TEST(FreeSpace, SquareObstacleBlocksItsInteriorButNotItsBoundary) {
  const FreeSpace space(box_scene({{rect(4, 4, 6, 6), {}}}));
  EXPECT_FALSE(space.is_free({5, 5}));
  EXPECT_TRUE(space.is_free({4, 5}));
  EXPECT_TRUE(space.is_free({4, 4}));
  EXPECT_NEAR(space.area(), 96.0, 1e-9);
  EXPECT_FALSE(space.line_of_sight({1, 5}, {9, 5}));          // straight through
  EXPECT_TRUE(space.line_of_sight({1, 4}, {9, 4}));           // along the bottom edge
  EXPECT_TRUE(space.line_of_sight({2, 2}, {8, 8}) == false);  // through the diagonal
  EXPECT_TRUE(space.line_of_sight({3, 5}, {5, 3}));           // grazes the corner (4, 4)
  EXPECT_FALSE(space.line_of_sight({4, 4}, {6, 6}));          // vertex to vertex through the inside
  EXPECT_TRUE(space.line_of_sight({4, 4}, {6, 4}));           // vertex to vertex along an edge
  EXPECT_TRUE(space.line_of_sight({4, 4}, {0, 0}));           // from a vertex outwards
  EXPECT_FALSE(space.line_of_sight({4, 5}, {4.5, 5}));        // from an edge inwards
  EXPECT_TRUE(space.line_of_sight({4, 5}, {3, 5}));           // from an edge outwards
  EXPECT_TRUE(space.line_of_sight({4, 4.5}, {4, 5.5}));       // inside an edge
  EXPECT_FALSE(space.line_of_sight({5, 5}, {5, 5.5}));        // wholly inside
}

TEST(FreeSpace, ObstaclesTouchingAtACornerLeaveNoGap) {
  // Squares touching at (5, 5): north-west and south-east of it.
  const FreeSpace space(box_scene({{rect(3, 5, 5, 7), {}}, {rect(5, 3, 7, 5), {}}}));
  EXPECT_TRUE(space.is_free({5, 5}));
  EXPECT_FALSE(space.line_of_sight({4, 4}, {6, 6}));  // diagonally through the pinch
  EXPECT_FALSE(space.line_of_sight({5, 8}, {5, 2}));  // along both squares' edges
  EXPECT_TRUE(space.line_of_sight({6, 6}, {5, 5}));   // up to the pinch and no further
  EXPECT_TRUE(space.line_of_sight({5, 5}, {4, 4}));
  EXPECT_TRUE(space.line_of_sight({5, 5}, {5, 8}));  // along one edge, away from the pinch
  EXPECT_TRUE(space.line_of_sight({6, 4.999}, {6, 4.999}) == false);  // a point inside
  EXPECT_FALSE(space.line_of_sight({4, 6}, {6, 4}));                  // through both squares
}

TEST(FreeSpace, TurnsThroughAPinchAreRejected) {
  // Squares touching at (5, 5): free space near it is the north-east and south-west quadrants.
  const FreeSpace space(box_scene({{rect(3, 5, 5, 7), {}}, {rect(5, 3, 7, 5), {}}}));
  EXPECT_FALSE(space.turn_is_free({6, 6}, {5, 5}, {4, 4}));  // through the pinch
  EXPECT_FALSE(space.turn_is_free({4, 4}, {5, 5}, {6, 6}));
  EXPECT_TRUE(space.turn_is_free({6, 6}, {5, 5}, {7, 5.5}));  // stays north-east
  EXPECT_TRUE(space.turn_is_free({4, 4}, {5, 5}, {3, 4.5}));  // stays south-west
  EXPECT_TRUE(space.turn_is_free({1, 1}, {2, 2}, {1, 3}));    // nowhere near the boundary
  const FreeSpace square(box_scene({{rect(4, 4, 6, 6), {}}}));
  EXPECT_TRUE(square.turn_is_free({3, 5}, {4, 4}, {5, 3}));    // grazing a corner
  EXPECT_TRUE(square.turn_is_free({3, 4}, {4, 4}, {4, 6}));    // round the corner, along an edge
  EXPECT_TRUE(square.turn_is_free({4, 4.5}, {4, 5}, {3, 5}));  // from along an edge outwards
}

TEST(FreeSpace, ObstaclesSharingAnEdgeMergeAndBlockTheSeam) {
  const FreeSpace space(box_scene({{rect(2, 4, 5, 6), {}}, {rect(5, 4, 8, 6), {}}}));
  EXPECT_FALSE(space.line_of_sight({5, 1}, {5, 9}));  // along the shared edge
  EXPECT_FALSE(space.is_free({5, 5}));
  EXPECT_TRUE(space.line_of_sight({1, 4}, {9, 4}));
}

TEST(FreeSpace, ObstacleTouchingTheBoundsClosesThePassage) {
  const FreeSpace space(box_scene({{rect(4, 0, 6, 10), {}}}));
  EXPECT_EQ(space.component_count(), 2u);
  EXPECT_NE(space.component({1, 1}), space.component({9, 9}));
  EXPECT_FALSE(space.line_of_sight({4, 0}, {6, 0}));
  EXPECT_FALSE(space.line_of_sight({1, 5}, {9, 5}));
}

TEST(FreeSpace, HoleHoldsAnIslandAndASeparateComponent) {
  Polygon ring_wall{rect(2, 2, 8, 8), {rect(3, 3, 7, 7)}};
  const FreeSpace space(box_scene({ring_wall, {rect(4.5, 4.5, 5.5, 5.5), {}}}));
  EXPECT_EQ(space.component_count(), 2u);
  ASSERT_TRUE(space.component({1, 1}));
  ASSERT_TRUE(space.component({3.5, 3.5}));
  EXPECT_NE(*space.component({1, 1}), *space.component({3.5, 3.5}));
  EXPECT_EQ(*space.component({3.5, 3.5}), *space.component({6.5, 6.5}));
  EXPECT_FALSE(space.component({5, 5}));  // on the island
  EXPECT_FALSE(space.component({2.5, 5}));
  EXPECT_FALSE(space.line_of_sight({3.5, 3.5}, {6.5, 6.5}));  // the island is in the way
  EXPECT_TRUE(space.line_of_sight({3.5, 3.5}, {6.5, 3.5}));
  EXPECT_NEAR(space.area(), 100 - 36 + 16 - 1, 1e-9);
}

// A map's free space comes as its traced boundary, whose holes are given no component: each is
// labelled by the outer ring around it. Oracle: the free cells joined through shared sides
// (cells touching only at a corner are not joined). Random maps of nested square walls (rooms in
// rooms, with doors now and then) and scattered blocked cells, so that holes lie inside pockets
// inside holes; every free cell's centre must lie in the component of its flood-filled region,
// one component per region.
TEST(FreeSpace, ComponentsOfATracedMapAreItsCellsJoinedThroughSides) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 8; ++trial) {
    const int w = 50 + trial, h = 40 + trial % 3;
    std::vector<std::string> rows(std::size_t(h), std::string(std::size_t(w), '.'));
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int k = 1; 2 * k + 2 < std::min(w, h); k += 6) {  // a square wall every 6 cells in
      for (int x = k; x < w - k; ++x) rows[k][x] = rows[h - 1 - k][x] = '@';
      for (int y = k; y < h - k; ++y) rows[y][k] = rows[y][w - 1 - k] = '@';
      if (unit(rng) < 0.25) rows[k][w / 2] = '.';  // a door, now and then
    }
    for (auto& row : rows)
      for (char& c : row)
        if (unit(rng) < 0.05) c = '@';
    std::string text =
        "type octile\nheight " + std::to_string(h) + "\nwidth " + std::to_string(w) + "\nmap\n";
    for (const auto& row : rows) text += row + "\n";
    const Scene scene = parse_movingai_map(text, "random.map");
    const FreeSpace space(scene);

    // The oracle's regions, by flood fill through shared sides.
    std::vector<int> region(std::size_t(w) * h, -1);
    int regions = 0;
    for (int y0 = 0; y0 < h; ++y0) {
      for (int x0 = 0; x0 < w; ++x0) {
        if (rows[y0][x0] != '.' || region[std::size_t(y0) * w + x0] >= 0) continue;
        std::vector<std::pair<int, int>> stack{{x0, y0}};
        region[std::size_t(y0) * w + x0] = regions;
        while (!stack.empty()) {
          const auto [x, y] = stack.back();
          stack.pop_back();
          for (const auto& [dx, dy] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) {
            const int nx = x + dx, ny = y + dy;
            if (nx < 0 || ny < 0 || nx >= w || ny >= h || rows[ny][nx] != '.') continue;
            int& r = region[std::size_t(ny) * w + nx];
            if (r < 0) {
              r = regions;
              stack.push_back({nx, ny});
            }
          }
        }
        ++regions;
      }
    }
    ASSERT_GT(regions, 2) << "trial " << trial;

    // One component per region, the same for all its cells, and no two regions sharing one.
    std::vector<std::int64_t> component_of_region(std::size_t(regions), -1);
    std::set<std::uint32_t> used;
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const int r = region[std::size_t(y) * w + x];
        if (r < 0) continue;
        const std::optional<std::uint32_t> c = space.component({x + 0.5, h - y - 0.5});
        ASSERT_TRUE(c) << "trial " << trial << ", free cell " << x << "," << y;
        if (component_of_region[r] < 0) {
          EXPECT_TRUE(used.insert(*c).second)
              << "trial " << trial << ": two regions in component " << *c;
          component_of_region[r] = *c;
        }
        EXPECT_EQ(*c, component_of_region[r]) << "trial " << trial << ", cell " << x << "," << y;
      }
    }
    EXPECT_EQ(space.component_count(), std::size_t(regions)) << "trial " << trial;

    // Every ring, holes included, carries the component of the free cell on the left of its
    // first edge (point location reads outer rings only; corners and boundary points read all).
    std::size_t holes = 0;
    for (const BoundaryRing& ring : space.boundary()) {
      const Point a = ring.points[0], b = ring.points[1];
      const Point along = (1.0 / distance(a, b)) * (b - a);
      const Point inside = a + 0.5 * along + 0.5 * Point{-along.y, along.x};
      const std::optional<std::uint32_t> c = space.component(inside);
      ASSERT_TRUE(c) << "trial " << trial;
      EXPECT_EQ(ring.component, *c) << "trial " << trial << ", a ring through " << a.x << "," << a.y
                                    << (ring.outer ? " (outer)" : " (a hole)");
      holes += ring.outer ? 0 : 1;
    }
    EXPECT_GT(holes, 10u) << "trial " << trial;
  }
}

TEST(FreeSpace, CollinearEdgesAndSegmentsThroughSeveralVertices) {
  // Three squares in a row with gaps; a segment along their common bottom line touches every
  // vertex on it and stays free.
  const FreeSpace space(
      box_scene({{rect(1, 4, 2, 5), {}}, {rect(3, 4, 4, 5), {}}, {rect(5, 4, 6, 5), {}}}));
  EXPECT_TRUE(space.line_of_sight({0, 4}, {10, 4}));
  EXPECT_TRUE(space.line_of_sight({0, 5}, {10, 5}));
  EXPECT_FALSE(space.line_of_sight({0, 4.5}, {10, 4.5}));
  EXPECT_TRUE(space.line_of_sight({2, 4}, {3, 5}));  // vertex to vertex across a gap
}

// Point location counts crossings from a reference point in each cell of an edge grid (about one
// edge per cell: 3 x 3 cells of 1 x 1 here). The pentagon's first edge runs along the middle
// cell's diagonal, where every reference candidate used to lie, and must not capture them.
TEST(FreeSpace, AnEdgeAlongAGridCellsDiagonalLeavesPointLocationExact) {
  Scene scene;
  scene.bounds = rect(0, 0, 3, 3);
  const Ring pentagon{{1, 2}, {2, 1}, {2.5, 1.2}, {2.6, 2.0}, {2, 2.5}};
  scene.obstacles.push_back({{pentagon, {}}, {"", 0, 0, "obstacles[0]"}});
  const FreeSpace space(scene);
  int wrong = 0;
  for (int i = 1; i < 60; ++i) {
    for (int j = 1; j < 60; ++j) {
      const Point p{0.05 * i + 0.0013, 0.05 * j + 0.0007};
      const bool free = exact::side_of_ring(pentagon, p) != exact::Side::inside;
      if (space.is_free(p) != free) ++wrong;
    }
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_FALSE(space.is_free({1.8, 1.5}));
  EXPECT_TRUE(space.is_free({1.2, 1.5}));
  EXPECT_FALSE(space.line_of_sight({0.5, 1.6}, {2.9, 1.6}));
  EXPECT_TRUE(space.line_of_sight({0.5, 1.5}, {1.4, 1.5}));
}

// Distance from p to a ring's edges.
double ring_distance(const Ring& ring, Point p) {
  double d = INFINITY;
  for (std::size_t k = 0; k < ring.size(); ++k) {
    const Point u = ring[k], ab = ring[(k + 1) % ring.size()] - u;
    const double t = std::clamp(dot(p - u, ab) / dot(ab, ab), 0.0, 1.0);
    d = std::min(d, distance(p, u + t * ab));
  }
  return d;
}

TEST(FreeSpace, InflationBlocksEverythingWithinTheRadiusAndNothingBeyondTheTolerance) {
  const double radius = 0.7;
  const Ring triangle = {{3, 3}, {7, 4}, {4, 7}};
  const FreeSpace space(box_scene({{triangle, {}}}, radius));
  const double tolerance = space.inflation_tolerance();
  ASSERT_GT(tolerance, 0.0);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> coord(0.0, 10.0);
  int near_checked = 0, far_checked = 0;
  for (int i = 0; i < 20000; ++i) {
    const Point p{coord(rng), coord(rng)};
    const bool inside_triangle = signed_area2({triangle[0], triangle[1], p}) > 0 &&
                                 signed_area2({triangle[1], triangle[2], p}) > 0 &&
                                 signed_area2({triangle[2], triangle[0], p}) > 0;
    const double to_obstacle = inside_triangle ? 0.0 : ring_distance(triangle, p);
    const double to_wall = std::min({p.x, p.y, 10 - p.x, 10 - p.y});
    if (to_obstacle < radius || to_wall < radius) {
      EXPECT_FALSE(space.is_free(p)) << p.x << "," << p.y;
      ++near_checked;
    } else if (to_obstacle > radius + tolerance && to_wall > radius + tolerance) {
      EXPECT_TRUE(space.is_free(p)) << p.x << "," << p.y;
      ++far_checked;
    }
  }
  EXPECT_GT(near_checked, 1000);
  EXPECT_GT(far_checked, 1000);
}

TEST(FreeSpace, InflationClosesGapsNarrowerThanTheAgent) {
  // A 1-wide corridor between two walls: open for a point, closed for an agent of radius 0.6.
  const std::vector<Polygon> walls = {{rect(0, 0, 4.5, 10), {}}, {rect(5.5, 0, 10, 10), {}}};
  EXPECT_TRUE(FreeSpace(box_scene(walls, 0.0)).line_of_sight({5, 0.5}, {5, 9.5}));
  const FreeSpace fat(box_scene(walls, 0.6));
  EXPECT_FALSE(fat.is_free({5, 5}));
  EXPECT_EQ(fat.component_count(), 0u);
  EXPECT_NE(fat.explain_blocked({5, 5}).find("within the agent radius"), std::string::npos);
}

namespace {

// A MovingAI map, a share of its cells blocked at random (many cells touching only at corners).
Scene random_map(std::mt19937& rng, int w, int h, double blocked) {
  std::bernoulli_distribution wall(blocked);
  std::string text =
      "type octile\nheight " + std::to_string(h) + "\nwidth " + std::to_string(w) + "\nmap\n";
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) text += wall(rng) ? '@' : '.';
    text += '\n';
  }
  return parse_movingai_map(text, "random.map");
}

}  // namespace

// A map's free space answers from its cells until a question needs the outline; the same scene
// without its cells is located through the outline alone: every answer must agree.
TEST(FreeSpace, AMapsCellsAnswerAsItsOutlineDoes) {
  std::mt19937 rng(3);
  std::size_t seen_free = 0, seen_blocked = 0, moves_free = 0, moves_blocked = 0;
  for (int trial = 0; trial < 6; ++trial) {
    const int w = 17 + 5 * trial, h = 13 + 3 * trial;
    const Scene scene = random_map(rng, w, h, 0.2 + 0.04 * trial);
    const FreeSpace cells(scene);
    ASSERT_NE(cells.map_cells(), nullptr);
    Scene outline_only = scene;
    outline_only.cell_map.reset();
    const FreeSpace outline(outline_only);
    ASSERT_EQ(outline.map_cells(), nullptr);
    const std::string at = "trial " + std::to_string(trial);

    EXPECT_EQ(cells.component_count(), outline.component_count()) << at;
    EXPECT_EQ(cells.box().min, outline.box().min) << at;
    EXPECT_EQ(cells.box().max, outline.box().max) << at;
    EXPECT_EQ(cells.area(), outline.area()) << at;

    // Points: every lattice point, side midpoint and centre, and random ones; the components
    // must correspond one to one.
    std::vector<Point> points;
    for (int y = -1; y <= 2 * h + 1; ++y)
      for (int x = -1; x <= 2 * w + 1; ++x) points.push_back({0.5 * x, 0.5 * y});
    std::uniform_real_distribution<double> px(-0.5, w + 0.5), py(-0.5, h + 0.5);
    for (int k = 0; k < 2000; ++k) points.push_back({px(rng), py(rng)});
    std::map<std::uint32_t, std::uint32_t> to_outline, to_cells;
    for (const Point& p : points) {
      const bool free = cells.is_free(p);
      ASSERT_EQ(free, outline.is_free(p)) << at << " at " << p.x << "," << p.y;
      (free ? seen_free : seen_blocked) += 1;
      const std::vector<std::uint32_t> a = cells.components(p), b = outline.components(p);
      ASSERT_EQ(a.size(), b.size()) << at << " at " << p.x << "," << p.y;
      ASSERT_EQ(cells.component(p).has_value(), outline.component(p).has_value()) << at;
      if (a.size() == 1) {
        const auto [i, fresh] = to_outline.emplace(a[0], b[0]);
        EXPECT_EQ(i->second, b[0]) << at << " at " << p.x << "," << p.y;
        const auto [j, fresh_back] = to_cells.emplace(b[0], a[0]);
        EXPECT_EQ(j->second, a[0]) << at << " at " << p.x << "," << p.y;
      }
    }
    EXPECT_EQ(to_outline.size(), cells.component_count()) << at;

    // Segments: grid moves from cell centres (straight and diagonal, 1 to 6 cells), and
    // segments between random points and centres; turns at centres and lattice points.
    const auto centre = [&]() {
      return Point{std::floor(px(rng)) + 0.5, std::floor(py(rng)) + 0.5};
    };
    const int dx[8] = {1, 0, -1, 0, 1, -1, -1, 1}, dy[8] = {0, 1, 0, -1, 1, 1, -1, -1};
    for (int k = 0; k < 4000; ++k) {
      const Point a = centre();
      const int d = k % 8, n = 1 + k % 6;
      const Point b{a.x + n * dx[d], a.y + n * dy[d]};
      const bool sight = cells.line_of_sight(a, b);
      ASSERT_EQ(sight, outline.line_of_sight(a, b))
          << at << ": " << a.x << "," << a.y << " to " << b.x << "," << b.y;
      (sight ? moves_free : moves_blocked) += 1;
      const Point c{px(rng), py(rng)}, e = centre();
      ASSERT_EQ(cells.line_of_sight(c, e), outline.line_of_sight(c, e))
          << at << ": " << c.x << "," << c.y << " to " << e.x << "," << e.y;
      const Point corner{std::round(px(rng)), std::round(py(rng))};
      ASSERT_EQ(cells.turn_is_free(a, corner, b), outline.turn_is_free(a, corner, b)) << at;
      ASSERT_EQ(cells.turn_is_free(c, a, e), outline.turn_is_free(c, a, e)) << at;
    }
    // The outline built on demand: the same rings, with the components the cells give.
    ASSERT_EQ(cells.boundary().size(), outline.boundary().size()) << at;
    EXPECT_EQ(cells.edge_count(), outline.edge_count()) << at;
    for (std::size_t r = 0; r < cells.boundary().size(); ++r) {
      EXPECT_EQ(cells.boundary()[r].points, outline.boundary()[r].points) << at;
      EXPECT_EQ(cells.boundary()[r].outer, outline.boundary()[r].outer) << at;
      EXPECT_EQ(to_outline.at(cells.boundary()[r].component), outline.boundary()[r].component)
          << at << ", ring " << r;
    }
  }
  // Both answers were met, so that agreement says something.
  EXPECT_GT(seen_free, 1000u);
  EXPECT_GT(seen_blocked, 1000u);
  EXPECT_GT(moves_free, 1000u);
  EXPECT_GT(moves_blocked, 1000u);
}

// A ring's component comes from the cell on the left of its first edge, whichever way that edge
// runs: the traced rings, started at each of their corners in turn.
TEST(FreeSpace, AMapsRingsTakeTheirCellsComponentsFromAnyFirstEdge) {
  const Scene traced = parse_movingai_map(
      "type octile\nheight 4\nwidth 6\nmap\n@@@@@@\n@.@..@\n@@@.@@\n@@@@@@\n", "two.map");
  ASSERT_EQ(traced.free_boundary.size(), 2u);
  for (std::size_t k = 0; k < 4; ++k) {
    Scene scene = traced;
    for (Ring& ring : scene.free_boundary)
      std::rotate(ring.begin(), ring.begin() + std::ptrdiff_t(k % ring.size()), ring.end());
    const FreeSpace space(scene);
    ASSERT_NE(space.map_cells(), nullptr) << k;
    ASSERT_EQ(space.component_count(), 2u);
    for (const BoundaryRing& ring : space.boundary()) {
      const Point a = ring.points[0], b = ring.points[1];
      const Point along = (1.0 / distance(a, b)) * (b - a);
      const Point inside = a + 0.5 * along + 0.5 * Point{-along.y, along.x};
      ASSERT_TRUE(space.is_free(inside)) << k;
      EXPECT_EQ(ring.component, space.component(inside))
          << "start " << k << " at " << a.x << "," << a.y;
    }
  }
}

// A map's cells answer for its rings only when the rings are exactly their outline, each side
// once; a side covered twice or a side between two cells of one kind is refused, however long
// the edge (the checks of a horizontal edge go a word of 64 sides at a time).
TEST(FreeSpace, AMapsCellsAreUsedOnlyWhenItsRingsAreTheirOutline) {
  std::mt19937 rng(5);
  for (const int w : {3, 64, 65, 150}) {
    const Scene traced = random_map(rng, w, 7, 0.25);
    const std::string at = "width " + std::to_string(w);
    ASSERT_NE(FreeSpace(traced).map_cells(), nullptr) << at;
    // The same outline with every edge split at each side it covers: still the outline.
    Scene split = traced;
    for (Ring& ring : split.free_boundary) {
      Ring every;
      for (std::size_t i = 0; i < ring.size(); ++i) {
        const Point a = ring[i], b = ring[(i + 1) % ring.size()];
        const double n = std::abs(b.x - a.x) + std::abs(b.y - a.y);
        for (double k = 0; k < n; ++k) every.push_back(a + (k / n) * (b - a));
      }
      ring = every;
    }
    EXPECT_NE(FreeSpace(split).map_cells(), nullptr) << at;
    // A ring twice: its sides covered twice.
    Scene doubled = traced;
    doubled.free_boundary.push_back(doubled.free_boundary.front());
    EXPECT_EQ(FreeSpace(doubled).map_cells(), nullptr) << at;
    // The bottom of the map's outline moved up a row: its sides lie between two cells of a kind
    // wherever the bottom row has free cells.
    Scene moved = traced;
    moved.free_boundary.clear();
    moved.free_boundary.push_back({{0, 1}, {double(w), 1}, {double(w), 7}, {0, 7}});
    Scene whole = traced;
    for (unsigned char& cell : whole.cell_map->blocked) cell = 0;
    whole.free_boundary = {{{0, 0}, {double(w), 0}, {double(w), 7}, {0, 7}}};
    EXPECT_NE(FreeSpace(whole).map_cells(), nullptr) << at;
    moved.cell_map = whole.cell_map;
    EXPECT_EQ(FreeSpace(moved).map_cells(), nullptr) << at;
  }
}

// Threads that first ask for a map's outline at the same time share one build.
TEST(FreeSpace, ThreadsFirstAskingForAMapsOutlineShareOneBuild) {
  std::mt19937 rng(9);
  const Scene scene = random_map(rng, 60, 50, 0.3);
  Scene outline_only = scene;
  outline_only.cell_map.reset();
  const FreeSpace outline(outline_only);
  const FreeSpace cells(scene);
  std::vector<std::size_t> edges(4), corners(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      edges[t] = cells.edge_count();
      corners[t] = cells.corners().size();
    });
  for (std::thread& t : threads) t.join();
  for (std::size_t t = 0; t < 4; ++t) {
    EXPECT_EQ(edges[t], outline.edge_count());
    EXPECT_EQ(corners[t], outline.corners().size());
  }
}

TEST(FreeSpace, ExplainsWhyAPointIsBlocked) {
  const FreeSpace space(box_scene({{rect(4, 4, 6, 6), {}}}, 0.5));
  EXPECT_EQ(space.explain_blocked({1, 1}), "");
  EXPECT_EQ(space.explain_blocked({11, 1}), "outside the bounds");
  EXPECT_EQ(space.explain_blocked({5, 5}), "inside obstacles[0]");
  EXPECT_EQ(space.explain_blocked({3.8, 5}), "within the agent radius 0.5 of obstacles[0]");
  EXPECT_EQ(space.explain_blocked({0.2, 5}), "within the agent radius 0.5 of the bounds");
}

TEST(FreeSpace, ExplainsABlockedPointOfAMapByItsCell) {
  // Rows as the file writes them, top first: the named cell must be blocked in the text, at
  // cell centres, on sides between two blocked cells and at the map's right and top edges.
  const std::vector<std::string> rows = {"..@@", ".@@.", "...@"};
  std::string text = "type octile\nheight 3\nwidth 4\nmap\n";
  for (const std::string& row : rows) text += row + "\n";
  const FreeSpace space(parse_movingai_map(text, "cells.map"));
  ASSERT_NE(space.map_cells(), nullptr);
  const int h = int(rows.size());
  std::size_t explained = 0;
  for (double y = 0.0; y <= h; y += 0.5)
    for (double x = 0.0; x <= 4.0; x += 0.5) {
      const std::string why = space.explain_blocked({x, y});
      if (space.is_free({x, y})) {
        EXPECT_EQ(why, "") << x << "," << y;
        continue;
      }
      int cx = -1, cy = -1;
      ASSERT_EQ(std::sscanf(why.c_str(), "in blocked map cell (%d, %d)", &cx, &cy), 2) << why;
      ASSERT_TRUE(cx >= 0 && cx < 4 && cy >= 0 && cy < h) << why;
      EXPECT_EQ(rows[std::size_t(cy)][std::size_t(cx)], '@') << why << " for " << x << "," << y;
      // The cell holds the point: column x, row y counted down from the top.
      EXPECT_TRUE(x >= cx && x <= cx + 1 && y >= h - 1 - cy && y <= h - cy) << why;
      ++explained;
    }
  EXPECT_GT(explained, 5u);
  EXPECT_EQ(space.explain_blocked({5, 1}), "outside the bounds");
}

TEST(FreeSpace, NearestFreePointIsFreeAndClose) {
  const FreeSpace space(box_scene({{rect(4, 4, 6, 6), {}}}, 0.5));
  for (const Point p : {Point{5, 5}, Point{4.2, 5.1}, Point{-3, 5}, Point{9.9, 9.9}}) {
    const auto q = space.nearest_free(p);
    ASSERT_TRUE(q);
    EXPECT_TRUE(space.is_free(*q));
    EXPECT_LE(distance(p, *q),
              distance(p, {5, 3.4}) + 1e-9);  // no farther than a known free point... roughly
  }
  EXPECT_EQ(*space.nearest_free({1, 1}), (Point{1, 1}));
}

TEST(FreeSpace, SegmentCostIntegratesOverlappingRegionsLaterWins) {
  Scene scene = box_scene({});
  scene.regions.push_back({"mud", 3.0, std::nullopt, rect(2, 0, 6, 10), {}});
  scene.regions.push_back({"road", 0.5, std::nullopt, rect(4, 4, 8, 6), {}});
  const FreeSpace space(scene);
  EXPECT_DOUBLE_EQ(space.min_cost(), 0.5);
  // y = 5: [0,2] plain, [2,4] mud, [4,8] road (wins over mud), [8,10] plain.
  EXPECT_NEAR(space.segment_cost({0, 5}, {10, 5}), 2 + 2 * 3 + 4 * 0.5 + 2, 1e-9);
  // y = 1: only mud between 2 and 6.
  EXPECT_NEAR(space.segment_cost({0, 1}, {10, 1}), 2 + 4 * 3 + 4, 1e-9);
  // A diagonal: cost = sum of piece lengths times multipliers.
  const double s = std::sqrt(2.0);
  EXPECT_NEAR(space.segment_cost({0, 0}, {10, 10}), s * (2 + 2 * 3 + 2 * 0.5 + 0 + 4), 1e-9);
  EXPECT_DOUBLE_EQ(space.cost_at({5, 5}), 0.5);
  EXPECT_DOUBLE_EQ(space.cost_at({5, 1}), 3.0);
  EXPECT_DOUBLE_EQ(space.cost_at({9, 9}), 1.0);
  EXPECT_NEAR(space.path_cost({{0, 1}, {2, 1}, {2, 3}}), 2 + 2 * 3, 1e-9);
}

// Walls: a boundary edge traced both ways (the ring runs along it and back), which is what a
// navigation mesh's constrained edge between two free faces becomes. Free space lies on both
// sides and on the wall itself; no segment and no turn crosses it, and paths pass it only round a
// free end. Where the rings start must not matter.
Scene given_boundary(std::vector<Ring> rings) {
  Scene scene;
  scene.bounds = rect(0, 0, 2, 2);
  scene.free_boundary = std::move(rings);
  return scene;
}

// The 2 x 2 square with a wall from (1, 0) on its bottom side up to (1, 1) or (1, 2).
void expect_wall_up_from_the_bottom(const FreeSpace& space) {
  EXPECT_TRUE(space.is_free({1, 0.5}));
  EXPECT_TRUE(space.is_free({0.5, 0.5}));
  EXPECT_TRUE(space.is_free({1.5, 0.5}));
  EXPECT_FALSE(space.line_of_sight({0.5, 0.5}, {1.5, 0.5}));  // across
  EXPECT_FALSE(space.line_of_sight({1.5, 0.5}, {0.5, 0.5}));
  EXPECT_FALSE(space.line_of_sight({0.5, 0.2}, {1.5, 0.8}));
  EXPECT_FALSE(space.line_of_sight({0.5, 0}, {1.5, 0}));  // through its foot along the border
  EXPECT_FALSE(space.line_of_sight({0, 0}, {2, 0}));
  EXPECT_TRUE(space.line_of_sight({1, 0.2}, {1, 0.8}));  // along it
  EXPECT_TRUE(space.line_of_sight({1, 0}, {1, 1}));
  EXPECT_TRUE(space.line_of_sight({1, 1}, {1, 0}));
  EXPECT_TRUE(space.line_of_sight({0.5, 0.5}, {1, 0.5}));  // onto it and off it, either side
  EXPECT_TRUE(space.line_of_sight({1.5, 0.5}, {1, 0.5}));
  EXPECT_TRUE(space.line_of_sight({1, 0.5}, {0.5, 0.5}));
  EXPECT_TRUE(space.line_of_sight({1, 0.5}, {1.5, 0.5}));
  EXPECT_TRUE(space.line_of_sight({0.5, 0.5}, {1, 0}));  // to its foot and away
  EXPECT_TRUE(space.line_of_sight({1, 0}, {1.5, 0.5}));
  EXPECT_TRUE(space.turn_is_free({0.5, 0.5}, {1, 0.5}, {0.5, 0.8}));  // touching it, each side
  EXPECT_TRUE(space.turn_is_free({1.5, 0.5}, {1, 0.5}, {1.5, 0.8}));
  EXPECT_FALSE(space.turn_is_free({0.5, 0.5}, {1, 0.5}, {1.5, 0.5}));  // through a point of it
  EXPECT_FALSE(space.turn_is_free({1.5, 0.5}, {1, 0.5}, {0.5, 0.5}));
  EXPECT_FALSE(space.turn_is_free({0.5, 0.5}, {1, 0}, {1.5, 0.5}));  // through its foot
  EXPECT_NEAR(space.area(), 4.0, 1e-12);
}

TEST(FreeSpaceWalls, AWallIsCrossedNowhereAndPassedRoundItsFreeEnd) {
  // One ring going up the wall and back, started at three different points.
  for (const Ring& ring : {Ring{{0, 0}, {1, 0}, {1, 1}, {1, 0}, {2, 0}, {2, 2}, {0, 2}},
                           Ring{{1, 1}, {1, 0}, {2, 0}, {2, 2}, {0, 2}, {0, 0}, {1, 0}},
                           Ring{{1, 0}, {2, 0}, {2, 2}, {0, 2}, {0, 0}, {1, 0}, {1, 1}}}) {
    SCOPED_TRACE("ring starting at (" + std::to_string(ring[0].x) + ", " +
                 std::to_string(ring[0].y) + ")");
    const FreeSpace space(given_boundary({ring}));
    expect_wall_up_from_the_bottom(space);
    EXPECT_EQ(space.component_count(), 1u);
    EXPECT_TRUE(space.line_of_sight({0.5, 1.5}, {1.5, 1.5}));  // above its end
    EXPECT_TRUE(space.line_of_sight({0.5, 1}, {1.5, 1}));      // grazing its end
    EXPECT_TRUE(space.line_of_sight({1.5, 1}, {0.5, 1}));
    EXPECT_TRUE(space.line_of_sight({0.5, 0.5}, {1, 1}));  // to its end and away
    EXPECT_TRUE(space.line_of_sight({1, 1}, {1.5, 0.5}));
    EXPECT_TRUE(space.line_of_sight({1, 1}, {1, 2}));
    EXPECT_TRUE(space.line_of_sight({1, 0.5}, {1, 2}));  // along it and on past its end
    EXPECT_TRUE(space.turn_is_free({0.5, 0.5}, {1, 1}, {1.5, 0.5}));  // round its end
    EXPECT_TRUE(space.turn_is_free({1.5, 0.5}, {1, 1}, {0.5, 0.5}));
    // The end is a corner with a free sector all round (the way a path bends round the wall).
    int at_end = 0;
    for (const Corner& c : space.corners()) at_end += c.at == Point{1, 1} ? 1 : 0;
    EXPECT_EQ(at_end, 1);
  }
}

TEST(FreeSpaceWalls, AWallAcrossSplitsFreeSpaceInTwo) {
  const Ring left{{0, 0}, {1, 0}, {1, 2}, {0, 2}}, right{{1, 0}, {2, 0}, {2, 2}, {1, 2}};
  for (const std::vector<Ring>& rings : {std::vector<Ring>{left, right}, {right, left}}) {
    const FreeSpace space(given_boundary(rings));
    expect_wall_up_from_the_bottom(space);
    EXPECT_EQ(space.component_count(), 2u);
    EXPECT_NE(space.component({0.5, 1.5}), space.component({1.5, 1.5}));
    EXPECT_FALSE(space.line_of_sight({0.5, 1.5}, {1.5, 1.5}));
    EXPECT_FALSE(space.line_of_sight({0.5, 2}, {1.5, 2}));  // through its top along the border
  }
}

TEST(FreeSpaceWalls, TheRingRoundARoomOfWallsIsAHoleOfTheSpaceOutside) {
  // Walls all round the square (1, 1)-(2, 2) inside (0, 0)-(4, 4): the room is one component,
  // the space around it another, whose hole runs along the walls the other way.
  Scene scene;
  scene.bounds = rect(0, 0, 4, 4);
  scene.free_boundary = {rect(0, 0, 4, 4), rect(1, 1, 2, 2), {{1, 1}, {1, 2}, {2, 2}, {2, 1}}};
  const FreeSpace space(scene);
  EXPECT_EQ(space.component_count(), 2u);
  const auto outside = space.component({0.5, 0.5});
  ASSERT_TRUE(outside.has_value());
  EXPECT_EQ(space.component({3.5, 3.5}), outside);
  EXPECT_NE(space.component({1.5, 1.5}), outside);
  EXPECT_EQ(space.boundary()[2].component, *outside);
  EXPECT_FALSE(space.line_of_sight({0.5, 1.5}, {1.5, 1.5}));
  EXPECT_TRUE(space.line_of_sight({0.5, 0.5}, {2, 1}));
  EXPECT_TRUE(space.line_of_sight({0.5, 0.5}, {1, 2}));
  EXPECT_NEAR(space.area(), 16.0, 1e-12);
  // The room's corners are corners of the space outside (free all round but 90 degrees), not
  // of the room.
  ASSERT_EQ(space.corners().size(), 4u);
  for (const Corner& c : space.corners()) EXPECT_EQ(c.component, *outside);
}

// Property: whatever line_of_sight accepts, every sampled point along the segment is free (a
// different code path: point location by ray crossing).
TEST(FreeSpace, AcceptedSegmentsAreFreeAllAlongOnRandomScenes) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> coord(0.0, 10.0);
  std::uniform_real_distribution<double> size(0.3, 2.0);
  for (int scene_index = 0; scene_index < 20; ++scene_index) {
    std::vector<Polygon> obstacles;
    for (int k = 0; k < 12; ++k) {
      // Snapped to a coarse lattice so touching and collinear cases are common.
      const double x = std::round(coord(rng) * 2) / 2, y = std::round(coord(rng) * 2) / 2;
      const double w = std::round(size(rng) * 2) / 2, h = std::round(size(rng) * 2) / 2;
      if (x + w > 10.0 || y + h > 10.0) continue;  // keep every obstacle a proper rectangle
      obstacles.push_back({rect(x, y, x + w, y + h), {}});
    }
    const FreeSpace space(box_scene(obstacles, scene_index % 2 ? 0.0 : 0.15));
    int accepted = 0;
    for (int q = 0; q < 300; ++q) {
      Point a{std::round(coord(rng) * 2) / 2, std::round(coord(rng) * 2) / 2};
      Point b{std::round(coord(rng) * 2) / 2, std::round(coord(rng) * 2) / 2};
      if (!space.line_of_sight(a, b)) continue;
      ++accepted;
      for (int i = 0; i <= 200; ++i) {
        const double t = i / 200.0;
        const Point p = a + t * (b - a);
        ASSERT_TRUE(space.is_free(p)) << "scene " << scene_index << " segment (" << a.x << ","
                                      << a.y << ")-(" << b.x << "," << b.y << ") t=" << t;
      }
      EXPECT_TRUE(space.line_of_sight(b, a)) << "line of sight must be symmetric";
    }
    EXPECT_GT(accepted, 0);
  }
}

// free_cells over a window answers, cell for cell, as over the whole frame: on obstacles whose
// sides lie on the cells' sides (vertical ones separate the runs of a row), on inflated ones off
// the lattice, and on frames whose origin is not a multiple of the side (cells computed from the
// whole frame's origin, not the window's), for random windows touching the frame's edges too.
TEST(FreeSpace, FreeCellsInAWindowAreTheWholeFramesCells) {
  std::vector<Polygon> obstacles = {{rect(1, 1, 3, 6), {}},
                                    {rect(3, 6, 7, 7), {}},
                                    {rect(5, 2, 6, 5), {}},
                                    {{{7.3, 1.1}, {9.2, 2.7}, {8.1, 4.9}}, {}}};
  const FreeSpace lattice(box_scene(obstacles));
  const FreeSpace inflated(box_scene(obstacles, 0.35));
  std::mt19937 rng(17);
  int windows = 0;
  for (const FreeSpace* space : {&lattice, &inflated}) {
    for (const auto& [origin, side] : std::vector<std::pair<Point, double>>{
             {{0, 0}, 1.0}, {{0, 0}, 0.25}, {{-0.1, 0.07}, 0.3}, {{0.013, -0.2}, 0.1}}) {
      CellFrame frame;
      frame.origin = origin;
      frame.side = side;
      frame.columns = int(std::ceil((10 - origin.x) / side));
      frame.rows = int(std::ceil((10 - origin.y) / side));
      const std::vector<std::uint8_t> whole = space->free_cells(frame);
      for (int k = 0; k < 12; ++k) {
        std::uniform_int_distribution<int> x(0, frame.columns), y(0, frame.rows);
        int x0 = x(rng), x1 = x(rng), y0 = y(rng), y1 = y(rng);
        if (x0 > x1) std::swap(x0, x1);
        if (y0 > y1) std::swap(y0, y1);
        if (k == 0) x0 = y0 = 0;                          // at the frame's lower-left corner, and
        if (k == 1) x1 = frame.columns, y1 = frame.rows;  // its upper-right one
        const CellWindow window{x0, y0, x1, y1};
        const std::vector<std::uint8_t> part = space->free_cells(frame, window);
        ASSERT_EQ(part.size(), window.size());
        int differ = 0;
        for (int r = y0; r < y1; ++r)
          for (int c = x0; c < x1; ++c)
            differ += part[std::size_t(r - y0) * std::size_t(x1 - x0) + std::size_t(c - x0)] !=
                      whole[std::size_t(r) * std::size_t(frame.columns) + std::size_t(c)];
        EXPECT_EQ(differ, 0) << "side " << side << " window " << x0 << " " << y0 << " " << x1 << " "
                             << y1;
        ++windows;
      }
      // The whole frame has free and blocked cells.
      EXPECT_GT(std::count(whole.begin(), whole.end(), std::uint8_t{1}), 0);
      EXPECT_GT(std::count(whole.begin(), whole.end(), std::uint8_t{0}), 0);
    }
  }
  EXPECT_EQ(windows, 96);
}

// An edit changes free space only within edit_reach of what it changed: the agent radius and
// tolerance, and the farthest clearance band's with a clearance cost.
TEST(FreeSpace, EditReachIsTheFarthestDiscAnObstacleGrowsBy) {
  std::vector<Polygon> obstacles = {{rect(4, 4, 5, 5), {}}};
  EXPECT_EQ(FreeSpace(box_scene(obstacles)).edit_reach(), 0.0);
  const FreeSpace agent(box_scene(obstacles, 0.5));
  EXPECT_DOUBLE_EQ(agent.edit_reach(), 0.5 + agent.inflation_tolerance());
  FreeSpaceOptions clearance;
  clearance.clearance_distance = 1.0;
  const FreeSpace banded(box_scene(obstacles, 0.5), clearance);
  EXPECT_GE(banded.edit_reach(), 1.5);
  EXPECT_LE(banded.edit_reach(), 1.5 * 1.02);
}

// An edit's extent: the changed boxes grown by the reach, and every boundary edge with an end in
// one of those, all along its length (a vertex there is rounded anew, tilting the edge).
TEST(FreeSpace, EditExtentCoversTheEdgesAnEditCanTilt) {
  const FreeSpace wall(box_scene({{{{1, 1}, {9, 8}, {9, 8.5}, {1, 1.5}}, {}}}, 0.25));
  const Box changed{{0.5, 0.5}, {1.5, 2.0}};
  const std::vector<Box> extent = wall.edit_extent(wall, std::span(&changed, 1));
  ASSERT_FALSE(extent.empty());
  const double r = wall.edit_reach();
  EXPECT_EQ(extent[0].min, (Point{0.5 - r, 0.5 - r}));
  EXPECT_EQ(extent[0].max, (Point{1.5 + r, 2.0 + r}));
  // The grown wall's long lower side starts near (1, 1) and runs to near (9, 8).
  bool long_side = false;
  for (const Box& b : extent) long_side |= b.min.x < 2.0 && b.max.x > 8.5 && b.max.y > 7.5;
  EXPECT_TRUE(long_side);
  // Nothing far from the edit but such edges.
  for (const Box& b : extent) EXPECT_LT(b.min.x, 2.0 + r);
}

TEST(FreeSpaceBudget, RefusesTooManyVerticesBeforeTheUnionAndCountsTheDisc) {
  Scene scene;
  scene.bounds = {{0, 0}, {100, 0}, {100, 100}, {0, 100}};
  for (int i = 0; i < 50; ++i) {
    const double x = 1 + 1.9 * i;
    Obstacle o;
    o.shape.outer = {{x, 10}, {x + 1, 10}, {x + 1, 11}, {x, 11}};
    scene.obstacles.push_back(o);
  }
  FreeSpaceOptions options;
  options.max_vertices = 4 + 50 * 4;  // exactly the point agent's vertices
  EXPECT_NO_THROW(FreeSpace(scene, options));
  scene.agent.radius = 0.2;  // now each part adds the inflated disc's sides
  try {
    FreeSpace space(scene, options);
    ADD_FAILURE() << "over the budget, accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().key_path, "space.max_vertices");
    EXPECT_NE(std::string(e.what()).find("--set space.max_vertices"), std::string::npos);
  }
  options.max_vertices = 1'000'000;
  EXPECT_NO_THROW(FreeSpace(scene, options));
}

// The free space built through an InflationCache is the one built without it, bit for bit, after
// any sequence of edits, on shapes of every kind the sums meet: rectangles, a concave L whose
// notch is narrower than the disc (its sum's convolution crosses itself), a polygon with a hole,
// obstacles that overlap; with a clearance cost, whose bands use discs of their own. Each build
// grows only the shapes the last build with its disc did not use.
TEST(InflationCache, ReusedSumsBuildTheSameFreeSpaceAndOnlyNewShapesAreGrown) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> x(1, 35), y(1, 25), shift(-3, 3);
  const auto l_shape = [](Point at) {
    return Polygon{{at, at + Point{4, 0}, at + Point{4, 0.4}, at + Point{0.4, 0.4},
                    at + Point{0.4, 4}, at + Point{0, 4}},
                   {}};
  };
  const auto framed = [](Point at) {
    return Polygon{{at, at + Point{5, 0}, at + Point{5, 5}, at + Point{0, 5}},
                   {{at + Point{1, 1}, at + Point{1, 4}, at + Point{4, 4}, at + Point{4, 1}}}};
  };
  for (const double clearance : {0.0, 1.0}) {
    Scene scene;
    scene.bounds = rect(0, 0, 40, 30);
    scene.agent.radius = 0.6;
    scene.obstacles = {{l_shape({3, 3}), {}},
                       {framed({20, 15}), {}},
                       {{rect(10, 10, 14, 12), {}}, {}},
                       {{rect(13, 11, 16, 16), {}}, {}}};  // overlaps the one before
    FreeSpaceOptions plain;
    plain.clearance_distance = clearance;
    plain.clearance_bands = 2;
    FreeSpaceOptions cached = plain;
    cached.reuse = std::make_shared<InflationCache>();
    const std::size_t discs = clearance > 0.0 ? 3 : 1;  // the agent's, one per band
    // The shapes the last build used (the outside of the bounds stays the same throughout).
    std::set<std::vector<double>> kept;
    const auto key = [](const Polygon& shape) {
      std::vector<double> k;
      for (const Point& p : shape.outer) k.insert(k.end(), {p.x, p.y});
      for (const Ring& hole : shape.holes) {
        k.push_back(-1e300);  // where a hole starts
        for (const Point& p : hole) k.insert(k.end(), {p.x, p.y});
      }
      return k;
    };
    for (int step = 0; step < 10; ++step) {
      if (step > 0) {
        switch (rng() % 3) {
          case 0: {  // move one
            Polygon& shape = scene.obstacles[rng() % scene.obstacles.size()].shape;
            const Point by{shift(rng), shift(rng)};
            for (Point& p : shape.outer) p = p + by;
            for (Ring& hole : shape.holes)
              for (Point& p : hole) p = p + by;
            break;
          }
          case 1: {  // add one: an L or a rectangle
            const Point at{x(rng), y(rng)};
            scene.obstacles.push_back(
                {rng() % 2 ? l_shape(at) : Polygon{rect(at.x, at.y, at.x + 2, at.y + 1), {}}, {}});
            break;
          }
          default:  // remove one
            if (scene.obstacles.size() > 1)
              scene.obstacles.erase(scene.obstacles.begin() +
                                    std::ptrdiff_t(rng() % scene.obstacles.size()));
        }
      }
      // Obstacles moved outside the bounds are fine: they block nothing.
      std::set<std::vector<double>> shapes;
      for (const Obstacle& o : scene.obstacles) shapes.insert(key(o.shape));
      std::size_t fresh = 0;
      for (const auto& k : shapes) fresh += kept.contains(k) ? 0 : 1;
      kept = shapes;

      const InflationCache::Counts before = cached.reuse->counts();
      const FreeSpace reference(scene, plain), reusing(scene, cached);
      const InflationCache::Counts after = cached.reuse->counts();
      ASSERT_EQ(reusing.boundary().size(), reference.boundary().size()) << "step " << step;
      for (std::size_t r = 0; r < reference.boundary().size(); ++r) {
        EXPECT_EQ(reusing.boundary()[r].points, reference.boundary()[r].points) << "step " << step;
        EXPECT_EQ(reusing.boundary()[r].component, reference.boundary()[r].component);
      }
      const auto bands = reference.clearance_bands(), reused_bands = reusing.clearance_bands();
      ASSERT_EQ(reused_bands.size(), bands.size());
      for (std::size_t b = 0; b < bands.size(); ++b) {
        ASSERT_EQ(bands[b].beyond == nullptr, reused_bands[b].beyond == nullptr);
        if (bands[b].beyond == nullptr) continue;
        ASSERT_EQ(reused_bands[b].beyond->size(), bands[b].beyond->size());
        for (std::size_t r = 0; r < bands[b].beyond->size(); ++r)
          EXPECT_EQ((*reused_bands[b].beyond)[r].points, (*bands[b].beyond)[r].points);
      }
      // Every part (each obstacle and the outside of the bounds) is summed with every disc
      // (the bounds leave room for both bands); the first build grows each distinct shape and
      // the outside once per disc, each later one only the shapes the build before it lacked.
      ASSERT_EQ(bands.size(), discs - 1);
      EXPECT_EQ(after.computed + after.reused - before.computed - before.reused,
                (scene.obstacles.size() + 1) * discs);
      EXPECT_EQ(after.computed - before.computed, (step == 0 ? fresh + 1 : fresh) * discs)
          << "step " << step;
    }
  }
}

// A long run of small edits on a crowded scene: each build through the cache joins the grown
// obstacles again only in a window around the ones that changed, and still gives the free space
// built from scratch, ring for ring and component for component. The obstacles sit on a lattice,
// so many touch or overlap once grown (pinches, merged walls, holes closed off), some touch the
// bounds, and one has a hole.
TEST(InflationCache, EditsJoinedLocallyGiveTheFreeSpaceBuiltWhole) {
  std::mt19937_64 rng(29);
  Scene scene;
  scene.bounds = rect(0, 0, 60, 40);
  scene.agent.radius = 0.5;
  for (int i = 0; i < 19; ++i)
    for (int j = 0; j < 6; ++j) {
      const double x = 1 + 3 * i, y = 1 + 6.5 * j;  // neighbours in a row touch or overlap
      switch ((i + 2 * j) % 4) {
        case 0:
          scene.obstacles.push_back({{rect(x, y, x + 3, y + 1), {}}, {}});
          break;
        case 1:
          scene.obstacles.push_back({{rect(x - 1, y, x + 1, y + 4), {}}, {}});
          break;
        case 2:
          scene.obstacles.push_back({{{{x, y}, {x + 3, y}, {x + 1.5, y + 3}}, {}}, {}});
          break;
        default:
          scene.obstacles.push_back({{rect(x, y, x + 2.2, y + 2.2), {}}, {}});
      }
    }
  scene.obstacles.push_back({{rect(0, 20, 3, 22), {}}, {}});  // on the bounds
  scene.obstacles.push_back(
      {{rect(40, 14, 46, 20), {rect(41.5, 15.5, 44.5, 18.5)}}, {}});  // a hole 3 wide
  std::uniform_int_distribution<int> step_of(-4, 4);
  std::uniform_real_distribution<double> x(1, 57), y(1, 37);
  FreeSpaceOptions cached;
  cached.reuse = std::make_shared<InflationCache>();
  std::size_t local = 0;
  const int steps = 30;
  for (int step = 0; step < steps; ++step) {
    if (step > 0) {
      switch (rng() % 4) {
        case 0:
        case 1: {  // move one by half-units, so that it may come to touch others exactly
          Polygon& shape = scene.obstacles[rng() % scene.obstacles.size()].shape;
          const Point by{0.5 * step_of(rng), 0.5 * step_of(rng)};
          for (Point& p : shape.outer) p = p + by;
          for (Ring& hole : shape.holes)
            for (Point& p : hole) p = p + by;
          break;
        }
        case 2: {  // add one
          const double ax = std::round(x(rng)), ay = std::round(y(rng));
          scene.obstacles.push_back({{rect(ax, ay, ax + 1, ay + 2), {}}, {}});
          break;
        }
        default:
          scene.obstacles.erase(scene.obstacles.begin() +
                                std::ptrdiff_t(rng() % scene.obstacles.size()));
      }
    }
    FreeSpaceOptions plain;
    plain.open_gaps = cached.open_gaps = step % 3 == 2;
    const std::size_t before = cached.reuse->counts().joined_locally;
    const FreeSpace reference(scene, plain), reusing(scene, cached);
    local += cached.reuse->counts().joined_locally - before;
    ASSERT_EQ(reusing.boundary().size(), reference.boundary().size()) << "step " << step;
    for (std::size_t r = 0; r < reference.boundary().size(); ++r) {
      EXPECT_EQ(reusing.boundary()[r].points, reference.boundary()[r].points) << "step " << step;
      EXPECT_EQ(reusing.boundary()[r].component, reference.boundary()[r].component);
      EXPECT_EQ(reusing.boundary()[r].outer, reference.boundary()[r].outer);
    }
    EXPECT_EQ(reusing.component_count(), reference.component_count()) << "step " << step;
  }
  // Every build but the first had a union to start from, its edit reached few parts, and the
  // parts overlap enough for the window to pay.
  EXPECT_GE(local, std::size_t(steps - 1) * 3 / 4);
}

// A build that runs out of time while growing an obstacle leaves nothing half-made in the
// cache: the next build of the same scene through it is the free space built whole.
TEST(InflationCache, ABuildOutOfTimeLeavesNothingBehind) {
  Scene scene;
  scene.bounds = rect(0, 0, 20, 20);
  scene.agent.radius = 0.5;
  scene.obstacles = {
      {{rect(2, 2, 6, 4), {}}, {}}, {{rect(5, 3, 7, 9), {}}, {}}, {{rect(12, 12, 15, 13), {}}, {}}};
  FreeSpaceOptions cached;
  cached.reuse = std::make_shared<InflationCache>();
  const FreeSpace first(scene, cached);
  for (Point& p : scene.obstacles[1].shape.outer) p = p + Point{1, 0};
  FreeSpaceOptions hurried = cached;
  hurried.max_build_seconds = 1e-12;
  EXPECT_THROW((FreeSpace{scene, hurried}), InputError);
  const FreeSpace again(scene, cached), reference(scene);
  ASSERT_EQ(again.boundary().size(), reference.boundary().size());
  for (std::size_t r = 0; r < reference.boundary().size(); ++r)
    EXPECT_EQ(again.boundary()[r].points, reference.boundary()[r].points);
  EXPECT_DOUBLE_EQ(again.area(), reference.area());
}

}  // namespace
}  // namespace polynav
