// The exact ring checks behind the scene loader: simple rings, holes, and the sweep that finds
// self-intersections, compared against a brute-force checker on random small-integer rings
// (where degenerate cases such as collinear edges and shared vertices are common).

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

TEST(PolygonValidation, RejectsHoleTouchingOuter) {
  const std::string e = error_of([] {
    checked_polygon(raw({{0, 0}, {10, 0}, {10, 10}, {0, 10}}), {raw({{0, 5}, {4, 4}, {4, 6}})});
  });
  EXPECT_NE(e.find("its edge 0 and the outer ring's edge 3 touch at (0, 5)"), std::string::npos)
      << e;
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

TEST(PolygonValidation, RejectsTouchingHoles) {
  const std::string e = error_of([] {
    checked_polygon(raw({{0, 0}, {10, 0}, {10, 10}, {0, 10}}),
                    {raw({{1, 1}, {5, 1}, {5, 5}}), raw({{5, 5}, {8, 5}, {8, 8}})});
  });
  EXPECT_NE(e.find("holes 0 and 1 touch"), std::string::npos) << e;
  EXPECT_NE(e.find("at (5, 5)"), std::string::npos) << e;
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

// Strictly inside a simple ring, for a point known not to be on it.
bool brute_inside(IPoint q, const std::vector<IPoint>& ring) {
  int winding = 0;
  for (std::size_t i = 0, n = ring.size(); i < n; ++i) {
    const IPoint a = ring[i], b = ring[(i + 1) % n];
    if (a.y <= q.y) {
      if (b.y > q.y && orient(a, b, q) > 0) ++winding;
    } else if (b.y <= q.y && orient(a, b, q) < 0) {
      --winding;
    }
  }
  return winding != 0;
}

bool brute_polygon(const std::vector<IPoint>& outer,
                   const std::vector<std::vector<IPoint>>& holes) {
  std::vector<std::vector<IPoint>> rings{cleaned(outer)};
  if (!brute_simple(outer)) return false;
  for (const auto& h : holes) {
    if (!brute_simple(h)) return false;
    rings.push_back(cleaned(h));
  }
  for (std::size_t r = 0; r < rings.size(); ++r) {
    for (std::size_t s = r + 1; s < rings.size(); ++s) {
      const auto& a = rings[r];
      const auto& b = rings[s];
      for (std::size_t i = 0; i < a.size(); ++i) {
        for (std::size_t j = 0; j < b.size(); ++j) {
          if (segments_meet(a[i], a[(i + 1) % a.size()], b[j], b[(j + 1) % b.size()])) {
            return false;
          }
        }
      }
    }
  }
  for (std::size_t h = 1; h < rings.size(); ++h) {
    if (!brute_inside(rings[h][0], rings[0])) return false;
    for (std::size_t g = 1; g < rings.size(); ++g) {
      if (g != h && brute_inside(rings[h][0], rings[g])) return false;
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

TEST(PolygonValidation, AgreesWithBruteForceOnRandomHoles) {
  std::mt19937 rng(7);
  const std::vector<IPoint> outer{{0, 0}, {8, 0}, {8, 8}, {4, 5}, {0, 8}};
  int accepted = 0;
  for (int trial = 0; trial < 10'000; ++trial) {
    std::vector<std::vector<IPoint>> holes;
    const int count = 1 + trial % 3;
    for (int h = 0; h < count; ++h) {
      // Small holes at random places: mostly apart, often just touching each other or the
      // outer ring at a point or along an edge, the cases a sweep is most likely to miss.
      std::uniform_int_distribution<int> origin(0, 6);
      const IPoint o{origin(rng), origin(rng)};
      std::vector<IPoint> ring;
      do {
        ring = random_ring(rng, 5, 2);
      } while (!brute_simple(ring));
      for (IPoint& q : ring) q = {q.x + o.x, q.y + o.y};
      holes.push_back(ring);
    }
    const bool expected = brute_polygon(outer, holes);
    std::vector<RawRing> raw_holes;
    for (const auto& h : holes) raw_holes.push_back(to_raw(h));
    const std::string e = error_of([&] { checked_polygon(to_raw(outer), raw_holes); });
    std::string text;
    for (const auto& h : holes) {
      text += "[";
      for (const IPoint& q : h) text += point_text(q);
      text += "]";
    }
    ASSERT_EQ(expected, e.empty()) << "holes " << text << ": " << e;
    accepted += expected;
  }
  EXPECT_GT(accepted, 200);
  EXPECT_LT(accepted, 9'800);
}

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
