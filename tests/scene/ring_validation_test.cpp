// The exact ring checks behind the scene loader: simple rings, holes (OGC Simple Features
// validity), and the sweep that finds self-intersections, compared against a brute-force checker
// on random small-integer rings (where degenerate cases such as collinear edges and shared vertices
// are common).

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "scene/error_of.hpp"
#include "scene/validate.hpp"

namespace polynav::detail {
namespace {

RawRing raw(std::vector<Point> points) {
  return {std::move(points), {"test.yaml", 3, 5, "obstacles[0]"}};
}

using test::error_of;

TEST(RingValidation, AcceptsSquareInEitherOrientation) {
  const Ring ccw = checked_ring(raw({{0, 0}, {4, 0}, {4, 3}, {0, 3}}));
  EXPECT_EQ(ccw.size(), 4u);
  const Ring cw = checked_ring(raw({{0, 0}, {0, 3}, {4, 3}, {4, 0}}));
  EXPECT_EQ(cw.size(), 4u);
}

TEST(RingValidation, DropsClosingAndRepeatedPoints) {
  const Ring r = checked_ring(raw({{0, 0}, {0, 0}, {4, 0}, {4, 3}, {4, 3}, {0, 3}, {0, 0}}));
  EXPECT_EQ(r, (Ring{{0, 0}, {4, 0}, {4, 3}, {0, 3}}));
}

TEST(RingValidation, AcceptsCollinearConsecutiveEdges) {
  // Straight-through points are not folds.
  EXPECT_NO_THROW(checked_ring(raw({{0, 0}, {2, 0}, {4, 0}, {4, 3}, {0, 3}, {0, 1.5}})));
}

TEST(RingValidation, AcceptsNonConvexRings) {
  // A comb: long teeth side by side, close but never touching.
  std::vector<Point> comb{{0, 0}};
  for (int i = 0; i < 50; ++i) {
    comb.push_back({i + 0.0, 10});
    comb.push_back({i + 0.5, 10});
    comb.push_back({i + 0.5, 1});
    comb.push_back({i + 1.0, 1});
  }
  comb.push_back({50, 0});
  EXPECT_NO_THROW(checked_ring(raw(comb)));
}

TEST(RingValidation, RejectsTooFewPoints) {
  const std::string e = error_of([] { checked_ring(raw({{0, 0}, {1, 1}, {0, 0}})); });
  EXPECT_NE(e.find("test.yaml:3:5: obstacles[0]: a ring needs at least 3 distinct points, got 2"),
            std::string::npos)
      << e;
}

TEST(RingValidation, RejectsZeroArea) {
  const std::string e = error_of([] { checked_ring(raw({{0, 0}, {1, 1}, {3, 3}, {2, 2}})); });
  EXPECT_NE(e.find("zero area"), std::string::npos) << e;
}

TEST(RingValidation, NamesCrossingEdgesAndPlace) {
  const std::string e = error_of([] { checked_ring(raw({{0, 0}, {4, 4}, {4, 0}, {0, 4}})); });
  EXPECT_NE(e.find("ring is self-intersecting: edges 0 and 2 cross near (2, 2)"), std::string::npos)
      << e;
}

TEST(RingValidation, EdgeNumbersCountTheInputPoints) {
  // The repeated point 1 is dropped, but messages still count it: edges 0..4 as written.
  const std::string e = error_of([] {
    checked_ring(raw({{0, 0}, {0, 0}, {4, 4}, {4, 0}, {0, 4}}));
  });
  EXPECT_NE(e.find("edges 1 and 3 cross"), std::string::npos) << e;
}

TEST(RingValidation, RejectsRingThroughOnePointTwice) {
  const std::string e = error_of([] {
    checked_ring(raw({{0, 0}, {2, 2}, {4, 0}, {4, 4}, {2, 2}, {0, 4}}));
  });
  EXPECT_NE(e.find("passes through (2, 2) twice (points 1 and 4)"), std::string::npos) << e;
}

TEST(RingValidation, RejectsSpikeThatFoldsBack) {
  const std::string e = error_of([] {
    checked_ring(raw({{0, 0}, {4, 0}, {4, 3}, {2, 3}, {2, 6}, {2, 4}, {0, 3}}));
  });
  EXPECT_NE(e.find("edges 3 and 4 overlap (the ring folds back at (2, 6))"), std::string::npos)
      << e;
}

TEST(RingValidation, RejectsVertexOnAnotherEdge) {
  const std::string e = error_of([] {
    checked_ring(raw({{0, 0}, {4, 0}, {4, 4}, {2, 0}, {0, 4}}));
  });
  // Edges 2 and 3 both end on edge 0; either pair is a right answer.
  EXPECT_NE(e.find("ring is self-intersecting: edges 0 and "), std::string::npos) << e;
  EXPECT_NE(e.find("touch at (2, 0)"), std::string::npos) << e;
}

TEST(RingValidation, RejectsOverlappingNonConsecutiveEdges) {
  const std::string e = error_of([] {
    checked_ring(raw({{0, 0}, {6, 0}, {6, 2}, {4, 2}, {4, 0}, {2, 0}, {2, 2}, {0, 2}}));
  });
  EXPECT_NE(e.find("overlap"), std::string::npos) << e;
}

// A star with `n` points alternating between radius 10 and 5: many long edges side by side.
std::vector<Point> star(std::size_t n, double inner = 5.0) {
  std::vector<Point> p;
  p.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double a = 2 * std::numbers::pi * double(i) / double(n);
    const double r = i % 2 == 0 ? 10.0 : inner;
    p.push_back({20 + r * std::cos(a), 20 + r * std::sin(a)});
  }
  return p;
}

TEST(RingValidation, AcceptsHundredThousandPointStar) {
  const Ring r = checked_ring(raw(star(100'000)));
  EXPECT_EQ(r.size(), 100'000u);
}

TEST(RingValidation, FindsTheOneCrossingInHundredThousandPoints) {
  // Points on a circle (a star with equal radii); swapping points k and k + 1 makes edge k - 1
  // (from k - 1 to the old k + 1) and edge k + 1 (from the old k to k + 2) cross, and nothing else.
  std::vector<Point> p = star(100'000, 10.0);
  const std::size_t k = 61'234;
  std::swap(p[k], p[k + 1]);
  const std::string e = error_of([&] { checked_ring(raw(p)); });
  EXPECT_NE(e.find("edges 61233 and 61235 cross near"), std::string::npos) << e;
}

TEST(PolygonValidation, AcceptsHoles) {
  const Polygon p = checked_polygon(
      raw({{0, 0}, {10, 0}, {10, 10}, {0, 10}}),
      {raw({{1, 1}, {4, 1}, {4, 4}, {1, 4}, {1, 1}}), raw({{6, 6}, {6, 9}, {9, 9}, {9, 6}})});
  ASSERT_EQ(p.holes.size(), 2u);
  EXPECT_EQ(p.holes[0].size(), 4u);
}

TEST(PolygonValidation, RejectsHoleOutside) {
  const std::string e = error_of([] {
    checked_polygon(raw({{0, 0}, {10, 0}, {10, 10}, {0, 10}}), {raw({{11, 1}, {14, 1}, {14, 4}})});
  });
  EXPECT_NE(e.find("hole is not strictly inside its outer ring: its point 0 (11, 1) is outside"),
            std::string::npos)
      << e;
}

// OGC Simple Features: rings of a polygon may touch at single points that leave its inside in
// one piece.
const std::vector<Point> square10 = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};

TEST(PolygonValidation, AcceptsHoleTouchingOuterInsideAnEdge) {
  const Polygon p = checked_polygon(raw(square10), {raw({{0, 5}, {4, 4}, {4, 6}})});
  EXPECT_EQ(p.holes.size(), 1u);
  // Kept as written; with_contacts_as_vertices puts the contact into the outer ring's edge.
  EXPECT_EQ(p.outer.size(), 4u);
  const Polygon split = with_contacts_as_vertices(p);
  EXPECT_EQ(split.outer, (Ring{{0, 0}, {10, 0}, {10, 10}, {0, 10}, {0, 5}}));
  EXPECT_EQ(split.holes, p.holes);
}

TEST(PolygonValidation, AcceptsHoleTouchingOuterAtASharedCorner) {
  EXPECT_NO_THROW(checked_polygon(raw(square10), {raw({{0, 0}, {6, 2}, {2, 6}})}));
  // Either orientation of either ring.
  EXPECT_NO_THROW(
      checked_polygon(raw({{0, 10}, {10, 10}, {10, 0}, {0, 0}}), {raw({{2, 6}, {6, 2}, {0, 0}})}));
}

TEST(PolygonValidation, AcceptsOuterCornerInsideAHoleEdge) {
  // The outer ring's reflex corner (5, 5) lies inside the hole's edge from (3, 5) to (7, 5).
  const Polygon p =
      checked_polygon(raw({{0, 0}, {10, 0}, {10, 10}, {6, 10}, {5, 5}, {4, 10}, {0, 10}}),
                      {raw({{3, 5}, {7, 5}, {5, 2}})});
  const Polygon split = with_contacts_as_vertices(p);
  EXPECT_EQ(split.outer, p.outer);
  EXPECT_EQ(split.holes[0], (Ring{{3, 5}, {5, 5}, {7, 5}, {5, 2}}));
}

TEST(PolygonValidation, AcceptsHolesTouchingAtAPointAndAChainToTheOuterRing) {
  // Hole 0 touches the outer ring at (0, 0), hole 1 touches hole 0 at (4, 4) (a vertex of both)
  // and hole 2 touches hole 1 inside its edge at (6, 5): a chain, no loop.
  const Polygon p = checked_polygon(
      raw(square10), {raw({{0, 0}, {4, 1}, {4, 4}, {1, 4}}), raw({{4, 4}, {7, 4}, {7, 6}, {5, 6}}),
                      raw({{7, 5}, {9, 5}, {8, 8}})});
  EXPECT_EQ(p.holes.size(), 3u);
  EXPECT_EQ(with_contacts_as_vertices(p).holes[1], (Ring{{4, 4}, {7, 4}, {7, 5}, {7, 6}, {5, 6}}));
}

TEST(PolygonValidation, RejectsHoleTouchingOuterAlongAnEdge) {
  const std::string e = error_of([] {
    checked_polygon(raw(square10), {raw({{0, 2}, {4, 2}, {4, 6}, {0, 6}})});
  });
  EXPECT_NE(e.find("test.yaml:3:5: obstacles[0]: hole is not strictly inside its outer ring: its "
                   "edge 3 and the outer ring's edge 3 overlap from (0, 2)"),
            std::string::npos)
      << e;
}

TEST(PolygonValidation, RejectsHoleCrossingOuterAtASharedPoint) {
  // The hole's corner sits on the outer ring's corner, but the hole lies outside there.
  const std::string e = error_of([] {
    checked_polygon(raw(square10), {raw({{10, 10}, {12, 11}, {11, 12}})});
  });
  EXPECT_NE(e.find("its point 0 and the outer ring's point 2 meet at (10, 10), where it reaches "
                   "outside"),
            std::string::npos)
      << e;
  // A hole whose corner lies inside an outer edge and that pokes out through it.
  const std::string f = error_of([] {
    checked_polygon(raw(square10), {raw({{5, 0}, {6, -1}, {7, 3}})});
  });
  EXPECT_NE(f.find("hole is not strictly inside its outer ring"), std::string::npos) << f;
}

TEST(PolygonValidation, RejectsHolesOverlappingAtASharedPoint) {
  // Hole 1 lies in hole 0, their only common point a corner of both.
  const std::string e = error_of([] {
    checked_polygon(raw(square10), {raw({{5, 5}, {9, 5}, {5, 9}}), raw({{5, 5}, {7, 6}, {6, 7}})});
  });
  EXPECT_NE(e.find("holes 0 and 1 overlap: hole 1's point 0 and hole 0's point 0 meet at (5, 5), "
                   "where their insides overlap (holes may touch only at single points)"),
            std::string::npos)
      << e;
}

TEST(PolygonValidation, RejectsRingsCuttingTheInsideApart) {
  // A hole touching the outer ring at two points cuts the polygon in two.
  const std::string e = error_of([] {
    checked_polygon(raw(square10), {raw({{5, 0}, {7, 5}, {5, 10}, {3, 5}})});
  });
  EXPECT_NE(e.find("the outer ring and hole 0 touch at 2 points, (5, 0) and (5, 10), which cuts "
                   "the polygon's inside apart"),
            std::string::npos)
      << e;
  // So does a loop of three rings, each touching the next once: hole 0 the outer ring at (0, 5),
  // hole 1 at (10, 5), and each other at (5, 5).
  const std::string f = error_of([] {
    checked_polygon(raw(square10), {raw({{0, 5}, {5, 5}, {2, 7}}), raw({{5, 5}, {10, 5}, {7, 3}})});
  });
  EXPECT_NE(f.find("obstacles[0]: the outer ring, hole 0 and hole 1 touch one another in a closed "
                   "loop, at "),
            std::string::npos)
      << f;
  EXPECT_NE(f.find("which cuts the polygon's inside apart"), std::string::npos) << f;
}

TEST(PolygonValidation, RejectsHoleAroundOuter) {
  const std::string e = error_of([] {
    checked_polygon(raw({{2, 2}, {3, 2}, {3, 3}, {2, 3}}),
                    {raw({{0, 0}, {10, 0}, {10, 10}, {0, 10}})});
  });
  EXPECT_NE(e.find("is outside it"), std::string::npos) << e;
}

TEST(PolygonValidation, RejectsCrossingHoles) {
  const std::string e = error_of([] {
    checked_polygon(raw({{0, 0}, {10, 0}, {10, 10}, {0, 10}}),
                    {raw({{1, 1}, {5, 1}, {5, 5}, {1, 5}}), raw({{4, 4}, {8, 4}, {8, 8}, {4, 8}})});
  });
  EXPECT_NE(e.find("holes 0 and 1 overlap"), std::string::npos) << e;
}

TEST(PolygonValidation, AcceptsHolesTouchingAtAPointRejectsThemAlongAnEdge) {
  EXPECT_NO_THROW(checked_polygon(raw({{0, 0}, {10, 0}, {10, 10}, {0, 10}}),
                                  {raw({{1, 1}, {5, 1}, {5, 5}}), raw({{5, 5}, {8, 5}, {8, 8}})}));
  const std::string e = error_of([] {
    checked_polygon(raw({{0, 0}, {10, 0}, {10, 10}, {0, 10}}),
                    {raw({{1, 1}, {5, 1}, {5, 5}, {1, 5}}), raw({{5, 2}, {8, 2}, {8, 4}, {5, 4}})});
  });
  EXPECT_NE(e.find("holes 0 and 1 touch along an edge: hole 1's edge 3 and hole 0's edge 1 "
                   "overlap from (5, 2)"),
            std::string::npos)
      << e;
}

TEST(PolygonValidation, RejectsNestedHoles) {
  const std::string e = error_of([] {
    checked_polygon(raw({{0, 0}, {10, 0}, {10, 10}, {0, 10}}),
                    {raw({{2, 2}, {3, 2}, {3, 3}}), raw({{1, 1}, {8, 1}, {8, 8}, {1, 8}})});
  });
  EXPECT_NE(e.find("holes 0 and 1 overlap: hole 0 lies inside hole 1"), std::string::npos) << e;
}

// ---------------------------------------------------------------------------------------------
// An independent, quadratic checker on integer coordinates (exact in 64-bit arithmetic).

struct IPoint {
  std::int64_t x;
  std::int64_t y;
  bool operator==(const IPoint&) const = default;
};

// "(x,y)", for the traces of failed checks (appended: GCC 12 warns -Wrestrict at -O3 on a chain
// of + building the same string).
std::string point_text(const IPoint& q) {
  std::string t = "(";
  t += std::to_string(q.x);
  t += ',';
  t += std::to_string(q.y);
  t += ')';
  return t;
}

int orient(IPoint a, IPoint b, IPoint c) {
  const std::int64_t d = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  return (d > 0) - (d < 0);
}

bool on_segment(IPoint p, IPoint a, IPoint b) {
  return orient(a, b, p) == 0 && std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) &&
         std::min(a.y, b.y) <= p.y && p.y <= std::max(a.y, b.y);
}

bool segments_meet(IPoint a, IPoint b, IPoint c, IPoint d) {
  const int o1 = orient(a, b, c);
  const int o2 = orient(a, b, d);
  const int o3 = orient(c, d, a);
  const int o4 = orient(c, d, b);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  return on_segment(c, a, b) || on_segment(d, a, b) || on_segment(a, c, d) || on_segment(b, c, d);
}

std::vector<IPoint> cleaned(const std::vector<IPoint>& in) {
  std::vector<IPoint> r;
  for (const IPoint& p : in) {
    if (r.empty() || !(r.back() == p)) r.push_back(p);
  }
  while (r.size() > 1 && r.back() == r.front()) r.pop_back();
  return r;
}

bool brute_simple(const std::vector<IPoint>& in) {
  const std::vector<IPoint> p = cleaned(in);
  const std::size_t n = p.size();
  if (n < 3) return false;
  bool any_turn = false;
  for (std::size_t i = 2; i < n; ++i) any_turn = any_turn || orient(p[0], p[1], p[i]) != 0;
  if (!any_turn) return false;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      const IPoint a = p[i], b = p[(i + 1) % n], c = p[j], d = p[(j + 1) % n];
      if (j == i + 1) {
        // Shared point b == c: bad only when the ring folds back over itself.
        if (orient(a, b, d) == 0 && on_segment(d, a, b)) return false;
        if (orient(a, b, d) == 0 && on_segment(a, c, d)) return false;
      } else if (i == 0 && j == n - 1) {
        if (orient(c, d, b) == 0 && (on_segment(b, c, d) || on_segment(c, a, b))) return false;
      } else if (segments_meet(a, b, c, d)) {
        return false;
      }
    }
  }
  return true;
}

RawRing to_raw(const std::vector<IPoint>& p) {
  std::vector<Point> d;
  for (const IPoint& q : p) d.push_back({double(q.x), double(q.y)});
  return raw(d);
}

std::vector<IPoint> random_ring(std::mt19937& rng, int max_points, int grid) {
  std::uniform_int_distribution<int> count(3, max_points);
  std::uniform_int_distribution<int> coord(0, grid);
  std::vector<IPoint> p(std::size_t(count(rng)));
  for (IPoint& q : p) q = {coord(rng), coord(rng)};
  return p;
}

TEST(RingValidation, AgreesWithBruteForceOnRandomRings) {
  std::mt19937 rng(20240611);
  int simple = 0;
  for (int trial = 0; trial < 30'000; ++trial) {
    // Small grids make coincidences (shared points, collinear edges) the rule, not the exception.
    const int grid = trial % 3 == 0 ? 3 : trial % 3 == 1 ? 6 : 40;
    const int max_points = trial % 3 == 2 ? 14 : 8;
    const std::vector<IPoint> p = random_ring(rng, max_points, grid);
    const bool expected = brute_simple(p);
    const std::string e = error_of([&] { checked_ring(to_raw(p)); });
    std::string text;
    for (const IPoint& q : p) text += point_text(q);
    ASSERT_EQ(expected, e.empty()) << "ring " << text << ": " << e;
    simple += expected;
  }
  // Both verdicts must be well represented for the comparison to mean something.
  EXPECT_GT(simple, 3'000);
  EXPECT_LT(simple, 27'000);
}

// Polygons with holes are compared with GEOS's OGC validity on random inputs in
// ogc_polygons_test.cpp.

// ---------------------------------------------------------------------------------------------
// find_cover_defect: directed boundary segments of faces, shared edges cancelled.

// The boundary of a set of counter-clockwise faces: every directed edge whose reverse is not an
// edge of another face (each reverse cancels one edge), as a mesh reader traces it.
std::vector<DirectedSegment> boundary_of(const std::vector<std::vector<Point>>& faces) {
  std::vector<DirectedSegment> edges;
  for (const auto& f : faces) {
    for (std::size_t i = 0; i < f.size(); ++i) edges.push_back({f[i], f[(i + 1) % f.size()]});
  }
  std::vector<bool> gone(edges.size(), false);
  for (std::size_t i = 0; i < edges.size(); ++i) {
    for (std::size_t j = i + 1; j < edges.size() && !gone[i]; ++j) {
      if (!gone[j] && edges[i].from == edges[j].to && edges[i].to == edges[j].from) {
        gone[i] = gone[j] = true;
      }
    }
  }
  std::vector<DirectedSegment> kept;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (!gone[i]) kept.push_back(edges[i]);
  }
  return kept;
}

std::vector<Point> square(double x, double y, double s) {
  return {{x, y}, {x + s, y}, {x + s, y + s}, {x, y + s}};
}

TEST(CoverDefect, AcceptsFacesTilingARegionWithHolesAndPinches) {
  // A 3x3 block of unit squares, the centre one split into two triangles, and a fourth row
  // touching the block only at a corner; then the same with the centre removed (a hole).
  std::vector<std::vector<Point>> faces;
  for (int x = 0; x < 3; ++x) {
    for (int y = 0; y < 3; ++y) {
      if (x == 1 && y == 1) continue;
      faces.push_back(square(x, y, 1));
    }
  }
  faces.push_back(square(3, 3, 1));
  EXPECT_FALSE(find_cover_defect(boundary_of(faces)));
  faces.push_back({{1, 1}, {2, 1}, {2, 2}});
  faces.push_back({{1, 1}, {2, 2}, {1, 2}});
  EXPECT_FALSE(find_cover_defect(boundary_of(faces)));
  // A wall: a segment in both directions, free on both sides.
  std::vector<DirectedSegment> walled = boundary_of(faces);
  walled.push_back({{1, 1}, {2, 2}});
  walled.push_back({{2, 2}, {1, 1}});
  EXPECT_FALSE(find_cover_defect(walled));
}

TEST(CoverDefect, FindsAFaceInsideAnotherAndCrossingEdges) {
  const auto inside = find_cover_defect(boundary_of({square(0, 0, 4), square(1, 1, 1)}));
  ASSERT_TRUE(inside);
  EXPECT_FALSE(inside->other);
  EXPECT_EQ(inside->times, 2);
  EXPECT_GE(inside->segment, 4u) << "the inner square's edge shows it";

  // Two squares overlapping at a corner: the place covered twice is met before the crossing.
  EXPECT_TRUE(find_cover_defect(boundary_of({square(0, 0, 2), square(1, 1, 2)})));
  const auto crossing =
      find_cover_defect(boundary_of({{{0, 0}, {2, 0}, {0, 2}}, {{1, 0.5}, {3, 0.5}, {1, 2.5}}}));
  ASSERT_TRUE(crossing);
  ASSERT_TRUE(crossing->other);
  EXPECT_EQ(crossing->how.rfind("cross near", 0), 0u) << crossing->how;

  // Collinear edges of two faces on the same side of their line.
  const auto along = find_cover_defect(boundary_of({square(0, 0, 2), {{1, 0}, {3, 0}, {3, 1}}}));
  ASSERT_TRUE(along);
  ASSERT_TRUE(along->other);
  EXPECT_EQ(along->how.rfind("overlap from", 0), 0u) << along->how;
}

// Random faces on a 5x5 lattice: unit squares and diamonds (a cell's side midpoints), some
// repeated. Oracle, cell by cell: a defect exactly when a cell is covered twice (two faces in
// it), or a diamond's corner lies inside the side of a square in the next cell whose side is on
// the boundary (a vertex inside another face's edge).
TEST(CoverDefect, AgreesWithCellCountsOnRandomLatticeFaces) {
  std::mt19937 rng(7);
  int defects = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    constexpr int n = 5;
    int squares[n][n] = {};
    int diamonds[n][n] = {};
    std::vector<std::vector<Point>> faces;
    const int count = 1 + int(rng() % 12);
    for (int k = 0; k < count; ++k) {
      const int x = int(rng() % n);
      const int y = int(rng() % n);
      if (rng() % 3 == 0) {
        ++diamonds[x][y];
        faces.push_back(
            {{x + 0.5, double(y)}, {x + 1.0, y + 0.5}, {x + 0.5, y + 1.0}, {double(x), y + 0.5}});
      } else {
        ++squares[x][y];
        faces.push_back(square(x, y, 1));
      }
    }
    bool expected = false;
    for (int x = 0; x < n; ++x) {
      for (int y = 0; y < n; ++y) {
        if (squares[x][y] + diamonds[x][y] > 1) expected = true;
        if (diamonds[x][y] == 0 || squares[x][y] > 0) continue;
        const int dx[] = {1, -1, 0, 0};
        const int dy[] = {0, 0, 1, -1};
        for (int d = 0; d < 4; ++d) {
          const int nx = x + dx[d];
          const int ny = y + dy[d];
          if (nx >= 0 && nx < n && ny >= 0 && ny < n && squares[nx][ny] > 0) expected = true;
        }
      }
    }
    const auto defect = find_cover_defect(boundary_of(faces));
    EXPECT_EQ(defect.has_value(), expected) << "trial " << trial;
    defects += expected;
  }
  // Both answers are exercised.
  EXPECT_GT(defects, 200);
  EXPECT_LT(defects, 1800);
}

}  // namespace
}  // namespace polynav::detail
