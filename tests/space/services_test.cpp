// The services FreeSpace offers every discretisation, each against an independent oracle: the
// exact segment/open-box predicate, box classification, whole-frame cell classification, the
// cost and height ranges over a box, and the corners.
#include <gtest/gtest.h>

#include <array>
#include <random>

#include "polynav/kernel/exact.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

Ring rect(double x0, double y0, double x1, double y1) {
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

// Lattice data (multiples of 0.5 up to 8) keep every sample below exact in doubles: a segment
// meets an open lattice box in a parameter interval of length at least 1/256 when at all, so
// samples at t = k / 4096 find it.
TEST(MeetsOpenBox, AgreesWithExactSamplingOnALattice) {
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> half(0, 16);
  int meets = 0, misses = 0;
  for (int i = 0; i < 20000; ++i) {
    const Point a{half(rng) * 0.5, half(rng) * 0.5}, b{half(rng) * 0.5, half(rng) * 0.5};
    int x0 = half(rng), x1 = half(rng), y0 = half(rng), y1 = half(rng);
    if (x0 == x1 || y0 == y1) continue;
    const Box box{{std::min(x0, x1) * 0.5, std::min(y0, y1) * 0.5},
                  {std::max(x0, x1) * 0.5, std::max(y0, y1) * 0.5}};
    bool sampled = false;
    for (int k = 0; k <= 4096 && !sampled; ++k) {
      const double t = k / 4096.0;
      const Point p{a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)};
      sampled = box.min.x < p.x && p.x < box.max.x && box.min.y < p.y && p.y < box.max.y;
    }
    ASSERT_EQ(exact::meets_open_box(a, b, box), sampled)
        << a.x << "," << a.y << " -> " << b.x << "," << b.y << " box " << box.min.x << ","
        << box.min.y << " " << box.max.x << "," << box.max.y;
    ++(sampled ? meets : misses);
  }
  EXPECT_GT(meets, 1000);
  EXPECT_GT(misses, 1000);
  // Along a side and through a corner only: no meeting.
  EXPECT_FALSE(exact::meets_open_box({0, 0}, {4, 0}, {{1, 0}, {2, 1}}));
  EXPECT_FALSE(exact::meets_open_box({0, 2}, {2, 0}, {{1, 1}, {2, 2}}));
  EXPECT_TRUE(exact::meets_open_box({0, 2.5}, {2.5, 0}, {{1, 1}, {2, 2}}));
}

Scene random_scene(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coord(0.5, 18.0), size(0.5, 3.0);
  Scene scene;
  scene.bounds = rect(0, 0, 20, 20);
  for (int k = 0; k < 14; ++k) {
    const double x = coord(rng), y = coord(rng);
    scene.obstacles.push_back(
        {{{{x, y}, {x + size(rng), y + 0.3 * size(rng)}, {x + 0.5 * size(rng), y + size(rng)}}, {}},
         {}});
  }
  scene.obstacles.push_back({{rect(6, 6, 8, 8), {}}, {}});
  scene.obstacles.push_back({{rect(8, 8, 10, 10), {}}, {}});  // touching at a corner
  scene.regions.push_back({"mud", 3.0, 2.0, rect(2, 2, 9, 7), {}});
  scene.regions.push_back({"road", 0.5, std::nullopt, rect(0, 12, 20, 13.5), {}});
  return scene;
}

// The oracle of "the closed box lies in free space": its four sides in line of sight, its centre
// free and no boundary vertex strictly inside.
bool box_in_free_space(const FreeSpace& space, const Box& b) {
  const Point p0 = b.min, p1{b.max.x, b.min.y}, p2 = b.max, p3{b.min.x, b.max.y};
  for (const BoundaryRing& ring : space.boundary())
    for (const Point& v : ring.points)
      if (v.x > b.min.x && v.x < b.max.x && v.y > b.min.y && v.y < b.max.y) return false;
  return space.line_of_sight(p0, p1) && space.line_of_sight(p1, p2) &&
         space.line_of_sight(p2, p3) && space.line_of_sight(p3, p0) &&
         space.is_free({0.5 * (b.min.x + b.max.x), 0.5 * (b.min.y + b.max.y)});
}

TEST(Classify, FreeBoxesAreExactlyThoseInFreeSpaceAndBlockedOnesHoldNoFreePoint) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const FreeSpace space(random_scene(seed));
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> coord(-1.0, 21.0), size(0.05, 4.0), t(0.001, 0.999);
    int counts[3] = {0, 0, 0};
    for (int i = 0; i < 3000; ++i) {
      const double x = coord(rng), y = coord(rng);
      const Box box{{x, y}, {x + size(rng), y + size(rng)}};
      const BoxClass c = space.classify(box);
      ++counts[int(c)];
      EXPECT_EQ(c == BoxClass::free, box_in_free_space(space, box)) << seed << " box " << i;
      if (c == BoxClass::blocked) {
        for (int k = 0; k < 20; ++k)
          EXPECT_FALSE(
              space.is_free({box.min.x + t(rng) * box.width(), box.min.y + t(rng) * box.height()}));
      }
    }
    EXPECT_GT(counts[int(BoxClass::free)], 100);
    EXPECT_GT(counts[int(BoxClass::blocked)], 100);
    EXPECT_GT(counts[int(BoxClass::mixed)], 100);
  }
}

TEST(FreeCells, AgreeWithClassifyingEachCell) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const FreeSpace space(random_scene(seed));
    // Cells on the obstacles' own lattice (edges along cell sides) and off it.
    for (const double side : {0.5, 0.37}) {
      const CellFrame frame{{-0.5, -0.5}, side, int(21.0 / side), int(21.0 / side), {}};
      const std::vector<std::uint8_t> free = space.free_cells(frame);
      int n = 0;
      for (int cy = 0; cy < frame.rows; ++cy)
        for (int cx = 0; cx < frame.columns; ++cx) {
          const bool expected = space.classify(frame.cell(cx, cy)) == BoxClass::free;
          EXPECT_EQ(free[std::size_t(cy) * frame.columns + cx] != 0, expected)
              << "seed " << seed << " side " << side << " cell " << cx << "," << cy;
          n += expected ? 1 : 0;
        }
      EXPECT_GT(n, 200);
    }
  }
}

// A rotated frame's cells are the quadrilaterals of their turned corners: free exactly when the
// quadrilateral lies in free space (its sides in line of sight, no boundary vertex inside, its
// centre free), as for upright cells.
TEST(FreeCells, RotatedFrameCellsAreFreeExactlyWhenTheirQuadrilateralIs) {
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const FreeSpace space(random_scene(seed));
    for (const double yaw : {0.3, -2.2}) {
      const CellFrame frame{{1.0, 1.0}, 0.45, 40, 40, Rotation({10.0, 10.0}, yaw)};
      const std::vector<std::uint8_t> free = space.free_cells(frame);
      int n = 0;
      for (int cy = 0; cy < frame.rows; ++cy)
        for (int cx = 0; cx < frame.columns; ++cx) {
          const std::array<Point, 4> q = frame.quad(cx, cy);
          bool expected = space.is_free(frame.centre(cx, cy));
          for (int k = 0; k < 4 && expected; ++k)
            expected = space.line_of_sight(q[std::size_t(k)], q[std::size_t((k + 1) % 4)]);
          for (const BoundaryRing& ring : space.boundary())
            for (const Point& v : ring.points)
              if (expected && exact::meets_open_convex(v, v, q)) expected = false;
          EXPECT_EQ(free[std::size_t(cy) * frame.columns + cx] != 0, expected)
              << "seed " << seed << " yaw " << yaw << " cell " << cx << "," << cy;
          n += expected ? 1 : 0;
        }
      EXPECT_GT(n, 100);
      EXPECT_LT(n, frame.rows * frame.columns - 100);
    }
  }
}

TEST(FieldRanges, BoundEveryValueInsideTheBox) {
  const FreeSpace space(random_scene(2));
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> coord(0.0, 19.0), size(0.05, 3.0), t(0.001, 0.999);
  int exact_boxes = 0;
  for (int i = 0; i < 3000; ++i) {
    const double x = coord(rng), y = coord(rng);
    const Box box{{x, y}, {x + size(rng), y + size(rng)}};
    const FieldRange cost = space.cost_range(box), height = space.height_range(box);
    ASSERT_LE(cost.lowest, cost.highest);
    double seen_low = INFINITY, seen_high = -INFINITY;
    for (int k = 0; k < 30; ++k) {
      const Point p{box.min.x + t(rng) * box.width(), box.min.y + t(rng) * box.height()};
      const double c = space.cost_at(p), h = space.height_at(p);
      EXPECT_GE(c, cost.lowest);
      EXPECT_LE(c, cost.highest);
      EXPECT_GE(h, height.lowest);
      EXPECT_LE(h, height.highest);
      seen_low = std::min(seen_low, c);
      seen_high = std::max(seen_high, c);
    }
    exact_boxes += seen_low == cost.lowest && seen_high == cost.highest ? 1 : 0;
  }
  EXPECT_GT(exact_boxes, 2000);  // tight, not merely safe
  // Wholly inside the mud: exactly its cost and height; wholly outside every region: ground.
  EXPECT_EQ(space.cost_range({{3, 3}, {4, 4}}).lowest, 3.0);
  EXPECT_EQ(space.cost_range({{3, 3}, {4, 4}}).highest, 3.0);
  EXPECT_EQ(space.height_range({{3, 3}, {4, 4}}).highest, 2.0);
  EXPECT_EQ(space.cost_range({{15, 15}, {16, 16}}).highest, 1.0);
  EXPECT_EQ(space.height_range({{15, 15}, {16, 16}}).highest, 0.0);
}

TEST(Corners, AreTheBoundaryPointsWithAFreeSectorWiderThanHalfATurn) {
  const FreeSpace space(random_scene(1));
  ASSERT_FALSE(space.corners().empty());
  for (const Corner& c : space.corners()) {
    // The boundary turns right at a corner: `after` lies right of the edge arriving at `at`.
    EXPECT_LT(exact::orientation(c.before, c.at, c.after), 0);
    EXPECT_TRUE(space.is_free(c.at));
  }
  // The point where the two squares touch is a pinch: no corner there.
  for (const Corner& c : space.corners()) EXPECT_FALSE((c.at == Point{8, 8}));
}

TEST(RingOrientation, IsExactFarFromTheOriginAndAtTheEdgeOfDegeneracy) {
  // Unit-sized rings of random shape moved up to 1e15 away: the orientation is that of the
  // untranslated ring, whose small integer coordinates make the double shoelace exact. A plain
  // shoelace sum on the moved ring cancels to noise from about 1e8 on.
  std::mt19937_64 random(7);
  std::uniform_int_distribution<int> coordinate(-8, 8);
  int decided = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    Ring ring;
    for (int k = 0; k < 3 + trial % 5; ++k)
      ring.push_back({double(coordinate(random)), double(coordinate(random))});
    double twice = 0.0;
    for (std::size_t i = 0; i < ring.size(); ++i)
      twice += cross(ring[i], ring[(i + 1) % ring.size()]);
    const int expected = (twice > 0) - (twice < 0);
    for (double offset : {0.0, 1e8, 3e11, 1e15}) {
      Ring moved = ring;
      // Integer coordinates up to 2^53 translate exactly.
      for (Point& p : moved) p = {p.x + offset, p.y - offset};
      EXPECT_EQ(exact::ring_orientation(moved), expected)
          << "trial " << trial << " offset " << offset;
    }
    decided += expected != 0;
  }
  EXPECT_GT(decided, 1000);
  // A sliver whose area is one unit in 2^104: collinear to double precision at the far end.
  const double big = 0x1p52;
  EXPECT_EQ(exact::ring_orientation({{0, 0}, {big, big + 1}, {big - 1, big - 1}}), -1);
  EXPECT_EQ(exact::ring_orientation({{0, 0}, {big - 1, big - 1}, {big, big + 1}}), 1);
  EXPECT_EQ(exact::ring_orientation({{0, 0}, {big, big}, {big - 1, big - 1}}), 0);
  // Beyond the fast path's range: still exact.
  EXPECT_EQ(exact::ring_orientation({{0, 0}, {1e300, 0}, {0, 1e300}}), 1);
}

}  // namespace
}  // namespace polynav
