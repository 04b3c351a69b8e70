// Polygons as OGC Simple Features defines their validity, against GEOS as an independent oracle:
// checked_polygon accepts exactly what GEOSisValid accepts on random small-integer polygons with
// holes; OGC-valid polygons (holes touching the outer ring or each other at a point, multipolygon
// parts touching) load from every format; invalid ones are refused with a hint naming --repair,
// and with repair become valid obstacles covering exactly the area of GEOS's own make-valid, with
// a report line each.

#include <geos_c.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"
#include "scene/error_of.hpp"
#include "scene/polygon_files.hpp"
#include "scene/validate.hpp"

namespace polynav {
namespace {

using test::error_of;

// GEOS through its reentrant C API, for this test's own use as an oracle.
class Geos {
 public:
  Geos() : handle_(GEOS_init_r()), reader_(GEOSWKTReader_create_r(handle_)) {}
  ~Geos() {
    GEOSWKTReader_destroy_r(handle_, reader_);
    GEOS_finish_r(handle_);
  }
  Geos(const Geos&) = delete;
  Geos& operator=(const Geos&) = delete;

  struct Destroy {
    GEOSContextHandle_t handle;
    void operator()(GEOSGeometry* g) const { GEOSGeom_destroy_r(handle, g); }
  };
  using Geometry = std::unique_ptr<GEOSGeometry, Destroy>;

  Geometry read(const std::string& wkt) const {
    return Geometry(GEOSWKTReader_read_r(handle_, reader_, wkt.c_str()), Destroy{handle_});
  }
  bool valid(const std::string& wkt) const { return GEOSisValid_r(handle_, read(wkt).get()) == 1; }
  // The area of make-valid's result with the structure method (keeping collapsed parts, which
  // have no area).
  double make_valid_area(const std::string& wkt) const {
    const Geometry g = read(wkt);
    GEOSMakeValidParams* params = GEOSMakeValidParams_create_r(handle_);
    GEOSMakeValidParams_setMethod_r(handle_, params, GEOS_MAKE_VALID_STRUCTURE);
    const Geometry valid(GEOSMakeValidWithParams_r(handle_, g.get(), params), Destroy{handle_});
    GEOSMakeValidParams_destroy_r(handle_, params);
    double area = 0.0;
    GEOSArea_r(handle_, valid.get(), &area);
    return area;
  }

 private:
  GEOSContextHandle_t handle_;
  GEOSWKTReader* reader_;
};

using IRing = std::vector<std::pair<int, int>>;

std::string wkt_ring(const IRing& r) {
  std::string s = "(";
  for (std::size_t i = 0; i <= r.size(); ++i) {
    const auto& [x, y] = r[i % r.size()];
    s += (i > 0 ? ", " : "") + std::to_string(x) + " " + std::to_string(y);
  }
  return s + ")";
}

std::string wkt_polygon(const IRing& outer, const std::vector<IRing>& holes) {
  std::string s = "POLYGON (" + wkt_ring(outer);
  for (const IRing& h : holes) s += ", " + wkt_ring(h);
  return s + ")";
}

detail::RawRing raw(const IRing& r) {
  detail::RawRing out;
  for (const auto& [x, y] : r) out.points.push_back({double(x), double(y)});
  out.where = {"test.wkt", 1, 1, "geometries[0]"};
  return out;
}

IRing random_ring(std::mt19937& rng, int points, int size, int x0, int y0) {
  std::uniform_int_distribution<int> coord(0, size);
  IRing r;
  for (int i = 0; i < points; ++i) r.push_back({x0 + coord(rng), y0 + coord(rng)});
  return r;
}

TEST(OgcValidity, AgreesWithGeosOnRandomPolygonsWithHoles) {
  const Geos geos;
  std::mt19937 rng(20250611);
  const IRing fixed_outer{{0, 0}, {8, 0}, {8, 8}, {4, 5}, {0, 8}};
  int valid = 0, with_contacts = 0;
  const int trials = 20'000;
  for (int trial = 0; trial < trials; ++trial) {
    // Small holes on a small grid: they often touch each other or the outer ring at a point or
    // along an edge, share corners, cross at shared corners or sit inside one another.
    const IRing outer = trial % 4 == 3 ? random_ring(rng, 4 + trial % 3, 8, 0, 0) : fixed_outer;
    std::vector<IRing> holes;
    std::uniform_int_distribution<int> origin(0, 6);
    for (int h = 0, n = 1 + trial % 4; h < n; ++h)
      holes.push_back(
          random_ring(rng, 3 + (trial / 4) % 3, 2 + trial % 2, origin(rng), origin(rng)));
    const std::string wkt = wkt_polygon(outer, holes);
    const bool expected = geos.valid(wkt);
    std::vector<detail::RawRing> raw_holes;
    for (const IRing& h : holes) raw_holes.push_back(raw(h));
    std::string e;
    Polygon p;
    try {
      p = detail::checked_polygon(raw(outer), raw_holes);
    } catch (const InputError& error) {
      e = error.what();
    }
    ASSERT_EQ(expected, e.empty()) << wkt << ": " << e;
    if (expected) {
      ++valid;
      const Polygon split = detail::with_contacts_as_vertices(p);
      std::size_t before = p.outer.size(), after = split.outer.size();
      for (std::size_t h = 0; h < p.holes.size(); ++h) {
        before += p.holes[h].size();
        after += split.holes[h].size();
      }
      with_contacts += after > before ? 1 : 0;
    }
  }
  // Both verdicts well represented, and many valid polygons whose rings touch inside an edge.
  EXPECT_GT(valid, trials / 20);
  EXPECT_LT(valid, trials - trials / 20);
  EXPECT_GT(with_contacts, 100);
}

// ---------------------------------------------------------------------------------------------
// Valid polygons whose rings touch load from every format.

// A square obstacle with a hole touching it at its corner (0, 0), one touching it inside its top
// edge at (5, 10), two holes touching each other at (6, 5), and two squares of a multipolygon
// touching at (20, 10).
const char* const touching_wkt =
    "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (0 0, 3 1, 1 3, 0 0), (5 10, 4 8, 6 8, 5 10),\n"
    "  (6 5, 8 4, 8 6, 6 5), (6 5, 4 6, 4 4, 6 5))\n"
    "MULTIPOLYGON (((12 0, 20 0, 20 10, 12 10, 12 0)), ((20 10, 28 10, 28 20, 20 20, 20 10)))\n";

TEST(OgcValidity, TouchingRingsLoadFromWkt) {
  const Scene s = detail::parse_wkt_scene(touching_wkt, "t.wkt");
  ASSERT_EQ(s.obstacles.size(), 3u);
  EXPECT_EQ(s.obstacles[0].shape.holes.size(), 4u);
  EXPECT_TRUE(s.repairs.empty());
  const FreeSpace space(s);
  EXPECT_TRUE(space.is_free({1, 1}));    // inside the hole at the corner
  EXPECT_TRUE(space.is_free({5, 9}));    // inside the hole at the top edge
  EXPECT_FALSE(space.is_free({2, 7}));   // the obstacle itself
  EXPECT_TRUE(space.is_free({20, 10}));  // where the two squares touch (a boundary point)
  EXPECT_FALSE(space.is_free({19, 9}));
  EXPECT_EQ(space.component_count(), 5u);  // around, and in each hole (two touch at a point)
}

TEST(OgcValidity, TouchingRingsLoadFromGeoJsonAndNativeScenes) {
  const std::string geojson = R"({"type": "MultiPolygon", "coordinates": [
    [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]], [[0, 0], [3, 1], [1, 3], [0, 0]],
     [[5, 10], [4, 8], [6, 8], [5, 10]], [[6, 5], [8, 4], [8, 6], [6, 5]],
     [[6, 5], [4, 6], [4, 4], [6, 5]]],
    [[[12, 0], [20, 0], [20, 10], [12, 10], [12, 0]]],
    [[[20, 10], [28, 10], [28, 20], [20, 20], [20, 10]]]]})";
  const Scene g = detail::parse_geojson_scene(geojson, "t.geojson");
  ASSERT_EQ(g.obstacles.size(), 3u);
  EXPECT_EQ(g.obstacles[0].shape.holes.size(), 4u);

  const std::string yaml =
      "version: 1\n"
      "bounds: [[-5, -5], [35, -5], [35, 25], [-5, 25]]\n"
      "obstacles:\n"
      "  - outer: [[0, 0], [10, 0], [10, 10], [0, 10]]\n"
      "    holes: [[[0, 0], [3, 1], [1, 3]], [[5, 10], [4, 8], [6, 8]], [[6, 5], [8, 4], [8, 6]],\n"
      "            [[6, 5], [4, 6], [4, 4]]]\n"
      "  - [[12, 0], [20, 0], [20, 10], [12, 10]]\n"
      "  - [[20, 10], [28, 10], [28, 20], [20, 20]]\n";
  const Scene y = parse_native_scene(yaml, "t.yaml");
  ASSERT_EQ(y.obstacles.size(), 3u);
  EXPECT_EQ(y.obstacles[0].shape.holes.size(), 4u);
  const std::string json =
      R"({"version": 1, "bounds": [[-5, -5], [15, -5], [15, 15], [-5, 15]],
          "obstacles": [{"outer": [[0, 0], [10, 0], [10, 10], [0, 10]],
                         "holes": [[[0, 0], [3, 1], [1, 3]], [[5, 10], [4, 8], [6, 8]]]}]})";
  EXPECT_EQ(parse_native_scene(json, "t.json").obstacles[0].shape.holes.size(), 2u);
}

// ---------------------------------------------------------------------------------------------
// Invalid polygons: refused with a hint, or made valid with --repair.

struct InvalidCase {
  const char* name;
  IRing outer;
  std::vector<IRing> holes;
  const char* problem;  // in the message without repair and in the report with it
};

const std::vector<InvalidCase>& invalid_cases() {
  static const std::vector<InvalidCase> cases = {
      {"bow-tie", {{0, 0}, {10, 10}, {10, 0}, {0, 10}}, {}, "edges 0 and 2 cross near (5, 5)"},
      {"hole crossing the outer ring",
       {{0, 0}, {10, 0}, {10, 10}, {0, 10}},
       {{{6, 2}, {14, 2}, {14, 6}, {6, 6}}},
       "hole is not strictly inside its outer ring"},
      {"hole touching the outer ring along an edge",
       {{0, 0}, {10, 0}, {10, 10}, {0, 10}},
       {{{0, 2}, {4, 2}, {4, 6}, {0, 6}}},
       "overlap from (0, 2)"},
      {"hole touching the outer ring at two points",
       {{0, 0}, {10, 0}, {10, 10}, {0, 10}},
       {{{5, 0}, {7, 5}, {5, 10}, {3, 5}}},
       "which cuts the polygon's inside apart"},
      {"hole outside",
       {{0, 0}, {10, 0}, {10, 10}, {0, 10}},
       {{{12, 2}, {14, 2}, {14, 4}}},
       "is outside it"},
      {"ring through a point twice",
       {{0, 0}, {10, 0}, {5, 5}, {10, 10}, {0, 10}, {5, 5}},
       {},
       "passes through (5, 5) twice"},
  };
  return cases;
}

std::string yaml_ring(const IRing& r) {
  std::string s = "[";
  for (std::size_t i = 0; i < r.size(); ++i)
    s += (i > 0 ? ", [" : "[") + std::to_string(r[i].first) + ", " + std::to_string(r[i].second) +
         "]";
  return s + "]";
}

std::string yaml_scene(const InvalidCase& c) {
  std::string s =
      "version: 1\n"
      "bounds: [[-20, -20], [30, -20], [30, 30], [-20, 30]]\n"
      "obstacles:\n";
  if (c.holes.empty()) return s + "  - " + yaml_ring(c.outer) + "\n";
  s += "  - outer: " + yaml_ring(c.outer) + "\n    holes:\n";
  for (const IRing& h : c.holes) s += "      - " + yaml_ring(h) + "\n";
  return s;
}

std::string geojson_scene(const InvalidCase& c) {
  const auto ring = [](const IRing& r) {
    IRing closed = r;
    closed.push_back(r.front());
    return yaml_ring(closed);
  };
  std::string s =
      R"({"type": "Polygon", "bbox": [-20, -20, 30, 30], "coordinates": [)" + ring(c.outer);
  for (const IRing& h : c.holes) s += ", " + ring(h);
  return s + "]}";
}

// The area the obstacles cover inside the bounds (all of them here), from the free space.
double covered_area(const Scene& s) {
  const FreeSpace space(s);
  return std::abs(signed_area2(s.bounds)) / 2 - space.area();
}

TEST(Repair, WithoutRepairInvalidObstaclesAreRefusedWithAHint) {
  for (const InvalidCase& c : invalid_cases()) {
    for (const std::string& e :
         {error_of([&] { parse_native_scene(yaml_scene(c), "s.yaml"); }),
          error_of([&] { detail::parse_wkt_scene(wkt_polygon(c.outer, c.holes), "s.wkt"); }),
          error_of([&] { detail::parse_geojson_scene(geojson_scene(c), "s.geojson"); })}) {
      EXPECT_NE(e.find(c.problem), std::string::npos) << c.name << ": " << e;
      EXPECT_NE(e.find("--repair"), std::string::npos) << c.name << ": " << e;
    }
    // Located: the native scene's obstacle (or its hole) by line and column.
    const std::string e = error_of([&] { parse_native_scene(yaml_scene(c), "s.yaml"); });
    EXPECT_TRUE(e.starts_with(c.holes.empty() ? "s.yaml:4:5: obstacles[0]: "
                                              : "s.yaml:6:9: obstacles[0].holes[0]: "))
        << e;
  }
}

TEST(Repair, RepairedObstaclesAreValidAndCoverMakeValidsArea) {
  const Geos geos;
  for (const InvalidCase& c : invalid_cases()) {
    const std::string wkt = wkt_polygon(c.outer, c.holes);
    const double expected = geos.make_valid_area(wkt);
    ASSERT_GT(expected, 0.0) << c.name;
    const Scene scenes[] = {parse_native_scene(yaml_scene(c), "s.yaml", 1000, true),
                            detail::parse_wkt_scene(wkt, "s.wkt", true),
                            detail::parse_geojson_scene(geojson_scene(c), "s.geojson", true)};
    for (const Scene& s : scenes) {
      ASSERT_EQ(s.repairs.size(), 1u) << c.name;
      const std::string& report = s.repairs[0];
      EXPECT_NE(report.find(c.problem), std::string::npos) << c.name << ": " << report;
      EXPECT_NE(report.find("; made valid as "), std::string::npos) << report;
      EXPECT_NE(report.find("; area "), std::string::npos) << report;
      // Every obstacle is a valid polygon now, and they cover what make-valid covers.
      double area = 0.0;
      for (const Obstacle& o : s.obstacles) {
        detail::RawRing outer{o.shape.outer, o.where};
        std::vector<detail::RawRing> holes;
        for (const Ring& h : o.shape.holes) holes.push_back({h, o.where});
        EXPECT_NO_THROW(detail::checked_polygon(outer, holes)) << c.name;
        area += std::abs(signed_area2(o.shape.outer)) / 2;
        for (const Ring& h : o.shape.holes) area -= std::abs(signed_area2(h)) / 2;
      }
      EXPECT_NEAR(area, expected, 1e-9 * expected) << c.name;
      // The obstacles of one repaired polygon do not overlap: their union has that area too.
      EXPECT_NEAR(covered_area(s), expected, 1e-9 * expected) << c.name;
    }
  }
}

TEST(Repair, ReportsSayWhereWhatAndTheAreas) {
  const Scene s = parse_native_scene(yaml_scene(invalid_cases()[0]), "yard.yaml", 1000, true);
  ASSERT_EQ(s.repairs.size(), 1u);
  EXPECT_EQ(s.repairs[0],
            "obstacles[0] (yard.yaml:4:5): ring is self-intersecting: edges 0 and 2 cross near "
            "(5, 5); made valid as 2 polygons; area 0 -> 50");
  ASSERT_EQ(s.obstacles.size(), 2u);
  EXPECT_EQ(s.obstacles[1].where.key_path, "obstacles[0]");  // both parts keep their source
  const Scene h = detail::parse_wkt_scene(
      wkt_polygon(invalid_cases()[1].outer, invalid_cases()[1].holes), "yard.wkt", true);
  EXPECT_EQ(h.repairs[0],
            "geometries[0] (yard.wkt:1:1): interiors[0]: hole is not strictly inside its outer "
            "ring: its edge 0 and the outer ring's edge 1 cross near (10, 2); made valid as 1 "
            "polygon; area 68 -> 84");
}

TEST(Repair, ValidObstaclesAreLeftAsTheyAreAndUnreported) {
  const Scene s = detail::parse_wkt_scene(touching_wkt, "t.wkt", true);
  EXPECT_TRUE(s.repairs.empty());
  EXPECT_EQ(s.obstacles[0].shape.outer, (Ring{{0, 0}, {10, 0}, {10, 10}, {0, 10}}));
}

TEST(Repair, ObstaclesWithoutAreaCannotBeRepaired) {
  // A ring that runs out to (10, 10) and back along itself: make-valid leaves only lines.
  const std::string e = error_of([] {
    parse_native_scene(
        "version: 1\nbounds: [[-20, -20], [30, -20], [30, 30], [-20, 30]]\nobstacles:\n"
        "  - [[0, 0], [10, 0], [10, 10], [10, 0]]\n",
        "flat.yaml", 1000, true);
  });
  EXPECT_TRUE(e.starts_with("flat.yaml:4:5: obstacles[0]: ring is self-intersecting")) << e;
  EXPECT_NE(e.find("cannot be repaired: make-valid leaves no area (the obstacle collapses to lines "
                   "or points)"),
            std::string::npos)
      << e;
  // Rings without area are refused as before, with or without repair.
  EXPECT_EQ(
      error_of([] { detail::parse_wkt_scene("POLYGON ((0 0, 1 0, 2 0, 0 0))", "z.wkt", true); }),
      "z.wkt:1:1: geometries[0].exterior: ring has zero area (all its points lie on one "
      "line): [[0, 0], [1, 0], [2, 0], [0, 0]]");
}

TEST(Repair, ConvertedScenesReadBackTheRepairedObstacles) {
  const Scene s = parse_native_scene(yaml_scene(invalid_cases()[1]), "s.yaml", 1000, true);
  const NativeExport out = export_native_scene(s);
  ASSERT_EQ(out.notes.size(), 1u);
  EXPECT_TRUE(out.notes[0].starts_with("repaired obstacles[0] (s.yaml:4:5): holes[0]: "))
      << out.notes[0];
  const Scene back = parse_native_scene(out.text, "back.yaml");  // no repair needed now
  ASSERT_EQ(back.obstacles.size(), s.obstacles.size());
  for (std::size_t i = 0; i < s.obstacles.size(); ++i) {
    EXPECT_EQ(back.obstacles[i].shape.outer, s.obstacles[i].shape.outer);
    EXPECT_EQ(back.obstacles[i].shape.holes, s.obstacles[i].shape.holes);
  }
  EXPECT_TRUE(back.repairs.empty());
}

}  // namespace
}  // namespace polynav
