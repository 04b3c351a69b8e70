// WKT and GeoJSON polygon files as scenes: what they hold becomes obstacles, with bounds from a
// GeoJSON "bbox" or the polygons' box and margin; bad files are refused with line:column.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "../../src/scene/polygon_files.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"
#include "scene/error_of.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;
using detail::parse_geojson_scene;
using detail::parse_wkt_scene;
using test::error_of;

double area(const Polygon& p) {
  double a = std::abs(signed_area2(p.outer)) / 2;
  for (const Ring& h : p.holes) a -= std::abs(signed_area2(h)) / 2;
  return a;
}

TEST(Wkt, PolygonsMultiPolygonsAndHolesInEitherOrientation) {
  const Scene s = parse_wkt_scene(
      "POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0), (1 1, 1 3, 3 3, 3 1, 1 1))\n"
      "polygon((10 0, 10 2, 12 2, 12 0, 10 0)); MULTIPOLYGON (((20 0, 21 0, 21 1, 20 0)),\n"
      "((30 0, 32 0, 32 2, 30 2, 30 0)))",
      "a.wkt");
  ASSERT_EQ(s.obstacles.size(), 4u);
  EXPECT_EQ(s.obstacles[0].shape.holes.size(), 1u);
  EXPECT_DOUBLE_EQ(area(s.obstacles[0].shape), 12);
  EXPECT_DOUBLE_EQ(area(s.obstacles[1].shape), 4);  // clockwise as written
  EXPECT_DOUBLE_EQ(area(s.obstacles[2].shape), 0.5);
  EXPECT_DOUBLE_EQ(area(s.obstacles[3].shape), 4);
  // Bounds: the polygons' box, 0..32 x 0..4, grown by 5% of its larger side on every side.
  const Box b = bounding_box(s.bounds);
  EXPECT_DOUBLE_EQ(b.min.x, -1.6);
  EXPECT_DOUBLE_EQ(b.max.x, 33.6);
  EXPECT_DOUBLE_EQ(b.min.y, -1.6);
  EXPECT_DOUBLE_EQ(b.max.y, 5.6);
  EXPECT_EQ(s.obstacles[3].where.key_path, "geometries[2][1]");
  EXPECT_EQ(s.obstacles[3].where.line, 2);
  // The hole is free space again.
  const FreeSpace space(s);
  EXPECT_TRUE(space.is_free({2, 2}));
  EXPECT_FALSE(space.is_free({0.5, 2}));
}

TEST(Wkt, BadFilesPointAtTheProblem) {
  const auto error = [](const std::string& text) {
    return error_of([&] { parse_wkt_scene(text, "b.wkt"); });
  };
  EXPECT_EQ(error("POLYGON ((0 0, 1 0, 1 1, 0 1))"),
            "b.wkt:1:1: geometries[0].exterior: the ring is not closed: its last point must equal "
            "its first");
  EXPECT_EQ(error("\n  POLYGON ((0 0, 1 0 5, 1 1, 0 0))"),
            "b.wkt:2:22: a position is two numbers 'x y' (only 2D coordinates are read); found a "
            "third, '5'");
  EXPECT_EQ(error("POLYGON Z ((0 0 0, 1 0 0, 1 1 0, 0 0 0))"),
            "b.wkt:1:9: only 2D coordinates are read; found the dimension 'Z'");
  EXPECT_EQ(error("POLYGON ((0 0, nan 0, 1 1, 0 0))"),
            "b.wkt:1:16: expected a finite number, found 'nan'");
  // An empty position is refused where it is, not filled in.
  EXPECT_EQ(error("POLYGON ((0 0, , 0 2, 2 2, 0 0))"),
            "b.wkt:1:16: expected a position 'x y' before this ','");
  EXPECT_EQ(error("POLYGON ((0 0, 0 2, 2 2, 0 0, ))"),
            "b.wkt:1:31: expected a position 'x y' before this ')'");
  EXPECT_EQ(error("POLYGON (())"), "b.wkt:1:11: expected a position 'x y' before this ')'");
  EXPECT_EQ(error("LINESTRING (0 0, 1 1)"),
            "b.wkt:1:1: only POLYGON and MULTIPOLYGON geometries can be obstacles; found "
            "'LINESTRING'");
  EXPECT_EQ(error("POLYGON ((0 0, 1 0, 1 1, 0 0)"),
            "b.wkt:1:1: the POLYGON starting here has unbalanced parentheses");
  EXPECT_EQ(error("POLYGON ((0 0, 1 0, 1 1, 0 0), (0.2 0.1, 0.5 0.1, 0.5 0.4, 0.2 0.1)) x"),
            "b.wkt:1:70: only POLYGON and MULTIPOLYGON geometries can be obstacles; found 'x'");
  EXPECT_EQ(error("POLYGON ((0 0, 1 0, 1 1, 0 0)) 42"),
            "b.wkt:1:32: expected a WKT geometry (POLYGON or MULTIPOLYGON), found '42'");
  EXPECT_EQ(
      error("POLYGON ((0 0, 2 0, 0 2, 2 2, 0 0))").rfind("b.wkt:1:1: geometries[0].exterior: ", 0),
      0u);  // a bow tie: self-intersecting, reported by the ring check
  EXPECT_EQ(error(""),
            "b.wkt: the file holds no polygons: expected POLYGON or MULTIPOLYGON "
            "geometries");
}

TEST(GeoJson, FeatureCollectionWithBboxAndHoles) {
  const Scene s = parse_geojson_scene(R"({
  "type": "FeatureCollection", "bbox": [-5, -5, 50, 40],
  "features": [
    {"type": "Feature", "id": 7, "properties": {"name": "a"},
     "geometry": {"type": "Polygon", "coordinates": [
       [[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]], [[2, 2], [2, 8], [8, 8], [8, 2], [2, 2]]]}},
    {"type": "Feature", "properties": null, "geometry": {"type": "MultiPolygon", "coordinates": [
       [[[20, 0], [20, 5], [25, 5], [25, 0], [20, 0]]], [[[30, 0], [31, 0], [31, 1], [30, 0]]]]}},
    {"type": "Feature", "properties": {}, "geometry": null},
    {"type": "Feature", "properties": {}, "geometry": {"type": "GeometryCollection",
     "geometries": [{"type": "Polygon", "coordinates": [[[40, 30], [41, 30], [41, 31], [40, 30]]]}]}}
  ]})",
                                      "c.geojson");
  ASSERT_EQ(s.obstacles.size(), 4u);
  EXPECT_DOUBLE_EQ(area(s.obstacles[0].shape), 64);
  EXPECT_DOUBLE_EQ(area(s.obstacles[1].shape), 25);
  const Box b = bounding_box(s.bounds);
  EXPECT_EQ(b.min, (Point{-5, -5}));
  EXPECT_EQ(b.max, (Point{50, 40}));
  EXPECT_EQ(s.obstacles[0].where.line, 5);
  EXPECT_EQ(s.obstacles[0].where.key_path, "features[0].geometry.coordinates");
  // The first feature's id and properties are not used (the others' are null or empty).
  EXPECT_EQ(s.unused, (std::vector<std::string>{"the properties and ids of 1 feature are not "
                                                "used: every polygon is an obstacle"}));
}

TEST(GeoJson, BareGeometryGetsTheMarginBounds) {
  const Scene s = parse_geojson_scene(
      R"({"type": "Polygon", "coordinates": [[[0, 0], [0, 20], [10, 20], [10, 0], [0, 0]]]})",
      "d.geojson");
  ASSERT_EQ(s.obstacles.size(), 1u);
  const Box b = bounding_box(s.bounds);
  EXPECT_DOUBLE_EQ(b.min.x, -1);
  EXPECT_DOUBLE_EQ(b.max.y, 21);
}

TEST(GeoJson, BadFilesPointAtTheProblem) {
  const auto error = [](const std::string& text) {
    return error_of([&] { parse_geojson_scene(text, "e.geojson"); });
  };
  EXPECT_EQ(error(R"({"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1]]]})"),
            "e.geojson:1:37: coordinates[0]: the ring is not closed: its last position must equal "
            "its first (RFC 7946 3.1.6), found [0, 0] and [0, 1]");
  EXPECT_EQ(error(R"({"type": "Polygon", "coordinates": [[[0, 0, 3], [1, 0], [1, 1], [0, 0]]]})"),
            "e.geojson:1:38: coordinates[0][0]: a position must be two numbers [x, y] (polynav is "
            "2D; no altitude), got a list [0, 0, 3]");
  EXPECT_EQ(error(R"({"type": "LineString", "coordinates": [[0, 0], [1, 1]]})"),
            "e.geojson:1:10: type: only Polygon and MultiPolygon geometries can be obstacles; "
            "found \"LineString\"");
  EXPECT_EQ(error(R"({"type": "Polygn", "coordinates": []})"),
            "e.geojson:1:10: type: unknown GeoJSON type \"Polygn\" (did you mean \"Polygon\"?)");
  // Escaped line breaks and tabs in a type are shown escaped: a message is one line.
  EXPECT_EQ(error(R"({"type": "MultiPolyg\n", "coordinates": []})"),
            "e.geojson:1:10: type: unknown GeoJSON type \"MultiPolyg\\n\" (did you mean "
            "\"MultiPolygon\"?)");
  EXPECT_EQ(error(R"({"type": "FeatureCollection", "features": [{"type": "Feat\ture"}]})"),
            "e.geojson:1:44: features[0]: expected a Feature in \"features\", got the type "
            "\"Feat\\ture\"");
  EXPECT_EQ(error(R"({"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]],)"
                  "\n \"crs\": 4326}"),
            "e.geojson:2:2: crs: unknown key \"crs\"; the keys allowed here are type, coordinates, "
            "bbox");
  EXPECT_EQ(error(R"({"type": "Polygon", "coordinates": [],})"),
            "e.geojson:1:38: not valid JSON: trailing comma before '}'");
  EXPECT_EQ(error(R"({"type": "Polygon", "coords": []})"),
            "e.geojson:1:21: coords: unknown key \"coords\"; the keys allowed here are type, "
            "coordinates, bbox");
  EXPECT_EQ(error(R"({"type": "Polygon", "coordinate": []})"),
            "e.geojson:1:21: coordinate: unknown key \"coordinate\" (did you mean "
            "\"coordinates\"?); the keys allowed here are type, coordinates, bbox");
  EXPECT_EQ(error(R"({"type": "FeatureCollection", "bbox": [0, 0, 0, 5], "features": []})"),
            "e.geojson:1:39: bbox: bbox must have min x < max x and min y < max y, got [0, 0, 0, "
            "5]");
  EXPECT_EQ(error(R"({"type": "FeatureCollection", "features": []})"),
            "e.geojson: the file holds no polygons and no \"bbox\": there is no scene to make");
}

TEST(PolygonFiles, BundledExamplesLoad) {
  const fs::path dir = fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "polygons";
  const Scene wkt = load_scene(dir / "yard.wkt");
  EXPECT_EQ(wkt.obstacles.size(), 5u);
  const Scene geojson = load_scene(dir / "campus.geojson");
  EXPECT_EQ(geojson.obstacles.size(), 4u);
  EXPECT_EQ(bounding_box(geojson.bounds).max, (Point{40, 30}));
}

}  // namespace
}  // namespace polynav
