// GeoJSON polygons as a scene (polygon_files.hpp). Format: RFC 7946, "The GeoJSON Format" (2016).
// The text is strict JSON (checked by strict_json.cpp) read into the located tree of document.hpp,
// so every message names the line, column and key path of what it is about.

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "document.hpp"
#include "polygon_files.hpp"
#include "repair.hpp"
#include "validate.hpp"

namespace polynav::detail {
namespace {

using RawPolygon = RawObstacle;

class GeoJsonReader : public DocumentReader {
 public:
  using DocumentReader::DocumentReader;

  void read(std::vector<RawPolygon>& polygons, std::optional<Box>& bbox) {
    const Item top = root();
    if (kind(top.node) != Kind::map) {
      fail(top, "a GeoJSON document must be an object with a \"type\", got " + kind_of(top.node));
    }
    const Fields f = collect(top, "a GeoJSON object");
    if (const Entry* e = f.find("bbox")) bbox = read_bbox(child(f, *e));
    object(top, polygons, /*top_level=*/true);
  }

  // Features with properties or an id, which polynav does not use.
  std::size_t annotated() const { return annotated_; }

 private:
  std::string type_of(const Fields& f) const {
    const Item type = required(f, "type", "the GeoJSON type");
    if (kind(type.node) != Kind::scalar || doc_[type.node].style != Style::quoted) {
      fail(type, "expected the type as a string, got " + kind_of(type.node));
    }
    return std::string(doc_.text(type.node));
  }

  // A type as written, in double quotes and on one line: a JSON string may hold escaped line
  // breaks and other control characters, which messages show escaped.
  static std::string quoted(std::string_view type) {
    std::string out = "\"";
    append_one_line(out, type, std::numeric_limits<std::size_t>::max());
    return out + "\"";
  }

  // Any GeoJSON object: a FeatureCollection, a Feature or a geometry.
  void object(const Item& item, std::vector<RawPolygon>& polygons, bool top_level) {
    const Fields f = collect(item, "a GeoJSON object");
    const std::string type = type_of(f);
    if (type == "FeatureCollection") {
      if (!top_level) fail(item, "a FeatureCollection may only be the whole document");
      reject_unknown(f, {"type", "features", "bbox"});
      for (const Item& feature :
           list(required(f, "features", "the list of features"), "features")) {
        const Fields ff = collect(feature, "a Feature object");
        if (type_of(ff) != "Feature") {
          fail(feature, "expected a Feature in \"features\", got the type " + quoted(type_of(ff)));
        }
        object(feature, polygons, false);
      }
    } else if (type == "Feature") {
      reject_unknown(f, {"type", "geometry", "properties", "id", "bbox"});
      const Entry* properties = f.find("properties");
      const bool has_properties = properties != nullptr && kind(properties->value) == Kind::map &&
                                  doc_.size(properties->value) > 0;
      if (has_properties || f.find("id") != nullptr) ++annotated_;
      const Item geometry = required(f, "geometry", "the feature's geometry, or null");
      if (kind(geometry.node) == Kind::null) return;  // a feature without a place (RFC 7946 3.2)
      geometry_object(geometry, polygons);
    } else {
      geometry_object(item, polygons);
    }
  }

  void geometry_object(const Item& item, std::vector<RawPolygon>& polygons) {
    const Fields f = collect(item, "a GeoJSON geometry");
    const std::string type = type_of(f);
    if (type == "GeometryCollection") {
      reject_unknown(f, {"type", "geometries", "bbox"});
      for (const Item& g : list(required(f, "geometries", "the list of geometries"), "geometries"))
        geometry_object(g, polygons);
      return;
    }
    if (type != "Polygon" && type != "MultiPolygon") {
      const Item t = child(f, *f.find("type"));
      static constexpr std::string_view known[] = {
          "Point",        "MultiPoint",         "LineString", "MultiLineString",  "Polygon",
          "MultiPolygon", "GeometryCollection", "Feature",    "FeatureCollection"};
      bool is_known = false;
      for (const std::string_view k : known) is_known = is_known || k == type;
      std::string message =
          "only Polygon and MultiPolygon geometries can be obstacles; found " + quoted(type);
      if (!is_known) {
        static constexpr std::string_view names[] = {"Polygon", "MultiPolygon", "Feature",
                                                     "FeatureCollection", "GeometryCollection"};
        const std::string_view near = closest_name(type, names);
        message = "unknown GeoJSON type " + quoted(type) +
                  (near.empty() ? std::string() : " (did you mean \"" + std::string(near) + "\"?)");
      }
      fail(t, message);
    }
    reject_unknown(f, {"type", "coordinates", "bbox"});
    const Item coordinates = required(f, "coordinates", "the polygon's rings");
    if (type == "Polygon") {
      polygons.push_back(polygon(coordinates));
    } else {
      for (const Item& p : list(coordinates, "polygons (lists of rings)"))
        polygons.push_back(polygon(p));
    }
  }

  RawPolygon polygon(const Item& item) {
    if (kind(item.node) != Kind::sequence || doc_.size(item.node) == 0) {
      fail(item,
           "a polygon's coordinates must be a non-empty list of rings, got " + kind_of(item.node));
    }
    RawPolygon p;
    p.where = at(item);
    for (std::size_t i = 0; i < doc_.size(item.node); ++i) {
      const Item r = element(item, doc_.child(item.node, i), i);
      if (i == 0) {
        p.outer = ring(r);
      } else {
        p.holes.push_back(ring(r));
      }
    }
    return p;
  }

  // A linear ring: at least four positions, the last equal to the first (RFC 7946 3.1.6).
  RawRing ring(const Item& item) {
    if (kind(item.node) != Kind::sequence) {
      fail(item, "a ring must be a list of [x, y] positions, got " + kind_of(item.node));
    }
    const std::size_t n = doc_.size(item.node);
    RawRing r;
    r.where = at(item);
    for (std::size_t i = 0; i < n; ++i) {
      r.points.push_back(position(element(item, doc_.child(item.node, i), i)));
    }
    if (n < 4) {
      fail(item, "a ring needs at least 4 positions (the last repeating the first), found " +
                     std::to_string(n));
    }
    if (!(r.points.front() == r.points.back())) {
      fail(item,
           "the ring is not closed: its last position must equal its first (RFC 7946 "
           "3.1.6), found " +
               describe(doc_.child(item.node, 0)) + " and " +
               describe(doc_.child(item.node, n - 1)));
    }
    return r;
  }

  Point position(const Item& item) const {
    if (kind(item.node) != Kind::sequence) {
      fail(item, "a position must be a list [x, y], got " + kind_of(item.node));
    }
    if (doc_.size(item.node) != 2) {
      fail(item, "a position must be two numbers [x, y] (polynav is 2D; no altitude), got " +
                     kind_of(item.node));
    }
    return {finite(element(item, doc_.child(item.node, 0), 0), "x"),
            finite(element(item, doc_.child(item.node, 1), 1), "y")};
  }

  Box read_bbox(const Item& item) const {
    if (kind(item.node) != Kind::sequence || doc_.size(item.node) != 4) {
      fail(item,
           "bbox must be four numbers [min x, min y, max x, max y], got " + kind_of(item.node));
    }
    double v[4];
    static constexpr const char* names[] = {"min x", "min y", "max x", "max y"};
    for (std::size_t i = 0; i < 4; ++i) {
      v[i] = finite(element(item, doc_.child(item.node, i), i), names[i]);
    }
    if (!(v[0] < v[2]) || !(v[1] < v[3])) {
      fail(item, "bbox must have min x < max x and min y < max y, got " + describe(item.node));
    }
    return {{v[0], v[1]}, {v[2], v[3]}};
  }

  std::size_t annotated_ = 0;
};

}  // namespace

double polygon_margin(const Box& box) {
  const double side = std::max(box.width(), box.height());
  return side > 0.0 ? 0.05 * side : 1.0;
}

Scene parse_geojson_scene(std::string_view text, const std::string& file_name, bool repair) {
  if (text.size() > max_native_scene_bytes) {
    throw InputError({file_name, 0, 0, ""}, "the file is " + std::to_string(text.size() >> 20) +
                                                " MiB; GeoJSON files may be at most " +
                                                std::to_string(max_native_scene_bytes >> 20) +
                                                " MiB");
  }
  const Document doc = parse_document(text, file_name, "GeoJSON document");
  if (doc[doc.root].kind == Kind::null) {
    throw InputError({file_name, 0, 0, ""}, "the file is empty; expected a GeoJSON object");
  }
  std::vector<RawPolygon> raw;
  std::optional<Box> bbox;
  GeoJsonReader reader(doc, file_name);
  reader.read(raw, bbox);

  Scene scene;
  scene.name = valid_utf8(std::filesystem::path(file_name).stem().string());
  for (const RawPolygon& p : raw) add_obstacle(p, repair, scene.obstacles, scene.repairs);
  Box box;
  for (const Obstacle& o : scene.obstacles) box.expand(bounding_box(o.shape.outer));
  if (!bbox) {
    if (box.empty()) {
      throw InputError({file_name, 0, 0, ""},
                       "the file holds no polygons and no \"bbox\": there is no scene to make");
    }
    const double m = polygon_margin(box);
    bbox = Box{{box.min.x - m, box.min.y - m}, {box.max.x + m, box.max.y + m}};
  }
  scene.bounds = {bbox->min, {bbox->max.x, bbox->min.y}, bbox->max, {bbox->min.x, bbox->max.y}};
  if (const std::size_t n = reader.annotated(); n > 0) {
    scene.unused.push_back("the properties and ids of " + std::to_string(n) +
                           (n == 1 ? " feature are" : " features are") +
                           " not used: every polygon is an obstacle");
  }
  return scene;
}

}  // namespace polynav::detail
