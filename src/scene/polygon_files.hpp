#pragma once
// Polygon files as scenes: WKT (.wkt) and GeoJSON (.geojson). Every polygon is an obstacle; the
// bounds are GeoJSON's top-level "bbox" when it has one, else the polygons' bounding box grown by
// a margin on every side (polygon_margin). docs/scene-format.md describes both.

#include <string>
#include <string_view>

#include "polynav/geometry.hpp"
#include "polynav/scene/scene.hpp"

namespace polynav::detail {

// The margin around the polygons' bounding box when a file gives no bounds: 5% of the box's
// larger side, or 1 when the polygons have no extent.
double polygon_margin(const Box& box);

// Reads WKT (ISO 19125 / OGC Simple Features well-known text): one or more POLYGON or
// MULTIPOLYGON geometries, separated by whitespace or semicolons, with 2D coordinates and closed
// rings in either orientation. Each geometry is parsed by Boost.Geometry's read_wkt; messages
// point at the geometry (line:column) or at the offending coordinate.
// `repair` as LoadOptions::repair.
Scene parse_wkt_scene(std::string_view text, const std::string& file_name, bool repair = false);

// Reads GeoJSON (RFC 7946): a FeatureCollection, Feature, GeometryCollection, Polygon or
// MultiPolygon, checked as strict JSON first so that every message has line:column. Positions
// are [x, y]; rings are closed (first position = last) with at least 4 positions, either
// orientation. A Feature's "properties" and "id" are allowed and not used.
Scene parse_geojson_scene(std::string_view text, const std::string& file_name, bool repair = false);

}  // namespace polynav::detail
