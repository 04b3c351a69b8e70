// check_scale: the numeric range polynav plans in (ScaleLimits).

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "polynav/scene/scene.hpp"

namespace polynav {
namespace {

// The shortest text that reads back as v.
std::string number(double v) {
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
  return std::string(buffer, end);
}

InputLocation located(const Scene& scene, const InputLocation& where, const std::string& key) {
  if (!where.file.empty()) return where;
  InputLocation at = where;
  at.file = scene.source.string();
  if (at.key_path.empty()) at.key_path = key;
  return at;
}

void check_value(const Scene& scene, double v, const InputLocation& where, const std::string& key,
                 const std::string& what) {
  if (!std::isfinite(v)) {
    throw InputError(located(scene, where, key), what + " must be finite, found " + number(v));
  }
  if (std::abs(v) > ScaleLimits::max_coordinate) {
    throw InputError(located(scene, where, key),
                     what + " " + number(v) +
                         " is beyond the largest magnitude polynav plans in (" +
                         number(ScaleLimits::max_coordinate) + " = 2^50)");
  }
}

bool in_range(double v) {
  return std::abs(v) <= ScaleLimits::max_coordinate;  // false for NaN too
}

// Checks every coordinate of `ring` and returns the largest magnitude among them. `key` makes the
// key path, wanted only for the message: a map's hundred thousand obstacles are checked without
// a string each, and a ring in range is read once, without a branch a coordinate.
template <class Key>
double check_ring(const Scene& scene, const Ring& ring, const InputLocation& where, const Key& key,
                  const char* what) {
  bool in = true;
  double largest = 0.0;
  for (const Point& p : ring) {
    in = in & in_range(p.x) & in_range(p.y);
    largest = std::max(largest, std::max(std::abs(p.x), std::abs(p.y)));
  }
  if (in) return largest;
  for (const Point& p : ring) {
    if (in_range(p.x) && in_range(p.y)) continue;
    const std::string text = std::string("a coordinate of ") + what;
    check_value(scene, p.x, where, key(), text);
    check_value(scene, p.y, where, key(), text);
  }
  return largest;
}

}  // namespace

void check_scale(const Scene& scene, ScaleScope scope) {
  const InputLocation nowhere{};
  const auto fixed = [](const char* key) { return [key] { return std::string(key); }; };
  const auto indexed = [](const char* list, std::size_t i) {
    return [list, i] { return std::string(list) + "[" + std::to_string(i) + "]"; };
  };
  // The largest magnitude of the bounds, the obstacles' outer rings and the free space's, for
  // the precision below.
  double far = check_ring(scene, scene.bounds, scene.bounds_where, fixed("bounds"), "the bounds");
  const std::size_t obstacles =
      scope == ScaleScope::whole_scene ? scene.obstacles.size() : std::size_t{0};
  for (std::size_t i = 0; i < obstacles; ++i) {
    const Obstacle& o = scene.obstacles[i];
    const auto key = indexed("obstacles", i);
    far = std::max(far, check_ring(scene, o.shape.outer, o.where, key, "the obstacle"));
    for (const Ring& hole : o.shape.holes) check_ring(scene, hole, o.where, key, "the obstacle");
  }
  for (std::size_t i = 0; i < scene.regions.size(); ++i) {
    const Region& r = scene.regions[i];
    const std::string key = "regions[" + std::to_string(i) + "]";
    check_ring(scene, r.polygon, r.where, fixed(key.c_str()), "the region");
    if (r.height) check_value(scene, *r.height, r.where, key + ".height", "the height");
    if (!(r.cost > 0.0) || !(r.cost <= ScaleLimits::max_cost)) {
      throw InputError(located(scene, r.where, key + ".cost"),
                       "the region's cost multiplier must be > 0 and at most " +
                           number(ScaleLimits::max_cost) + ", found " + number(r.cost));
    }
  }
  for (std::size_t i = 0; i < scene.queries.size(); ++i) {
    const Query& q = scene.queries[i];
    const std::string key = "queries[" + std::to_string(i) + "]";
    for (const Point p : {q.start, q.goal}) {
      check_value(scene, p.x, q.where, key, "a coordinate of the query");
      check_value(scene, p.y, q.where, key, "a coordinate of the query");
    }
    if (q.radius) check_value(scene, *q.radius, q.where, key + ".radius", "the query's radius");
  }
  Box box = bounding_box(scene.bounds);
  for (const Ring& ring : scene.free_boundary) {
    far = std::max(
        far, check_ring(scene, ring, nowhere, fixed("free space"), "the free space's boundary"));
    box.expand(bounding_box(ring));
  }
  check_value(scene, scene.agent.radius, nowhere, "agent.radius", "the agent's radius");
  if (scene.native_cell_size)
    check_value(scene, *scene.native_cell_size, nowhere, "cell_size", "the cell size");

  // Precision: the spacing of doubles at the largest coordinate against the scene's extent.
  if (box.empty()) return;
  const double extent = std::max(box.width(), box.height());
  const double spacing = far > 0.0 ? std::nextafter(far, INFINITY) - far : 0.0;
  if (spacing > ScaleLimits::min_relative_precision * extent) {
    const double cx = std::round(box.min.x), cy = std::round(box.min.y);
    throw InputError(
        located(scene, scene.bounds_where, "bounds"),
        "the scene lies too far from the origin for its size: its largest coordinate is " +
            number(far) + ", where doubles are " + number(spacing) +
            " apart, coarser than 2^-32 of the scene's extent " + number(extent) +
            "; translate it nearer the origin (for example subtract (" + number(cx) + ", " +
            number(cy) + ") from every coordinate)");
  }
}

}  // namespace polynav
