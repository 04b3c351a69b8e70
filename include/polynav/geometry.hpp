#pragma once
/// @file
/// Plain geometric value types shared by every part of polynav. Coordinates are doubles, x to
/// the right and y up. These types carry no predicates: every yes/no question about geometry is
/// answered exactly by FreeSpace (space/free_space.hpp), never by arithmetic on these values.

#include <cmath>
#include <vector>

namespace polynav {

/// A point or a vector in the plane.
struct Point {
  double x = 0.0;
  double y = 0.0;

  friend constexpr bool operator==(const Point&, const Point&) = default;
  friend constexpr Point operator+(Point a, Point b) { return {a.x + b.x, a.y + b.y}; }
  friend constexpr Point operator-(Point a, Point b) { return {a.x - b.x, a.y - b.y}; }
  friend constexpr Point operator*(double s, Point a) { return {s * a.x, s * a.y}; }
};

constexpr double dot(Point a, Point b) {
  return a.x * b.x + a.y * b.y;
}
/// z component of the cross product; positive when b is counter-clockwise of a. Approximate:
/// use it for constructions and measurements, never to decide a predicate.
constexpr double cross(Point a, Point b) {
  return a.x * b.y - a.y * b.x;
}
inline double norm(Point a) {
  return std::hypot(a.x, a.y);
}
inline double distance(Point a, Point b) {
  return norm(b - a);
}
/// The distance as sqrt(dx^2 + dy^2): within two ulps of `distance` and several times faster
/// than std::hypot, for heuristics evaluated at every search node. Planned coordinates stay below
/// 2^50 in magnitude (scene/scale), so the squares cannot overflow.
inline double quick_distance(Point a, Point b) {
  const Point d = b - a;
  return std::sqrt(dot(d, d));
}

/// A closed straight segment.
struct Segment {
  Point a;
  Point b;
};

/// An axis-aligned box [min.x, max.x] x [min.y, max.y]. Default-constructed it is empty.
struct Box {
  Point min{INFINITY, INFINITY};
  Point max{-INFINITY, -INFINITY};

  bool empty() const { return min.x > max.x || min.y > max.y; }
  /// Whether `b` lies within this box (its sides included).
  bool contains(const Box& b) const {
    return b.min.x >= min.x && b.min.y >= min.y && b.max.x <= max.x && b.max.y <= max.y;
  }
  /// Whether p lies in this box, its sides included (exact: comparisons only).
  bool contains(Point p) const {
    return p.x >= min.x && p.x <= max.x && p.y >= min.y && p.y <= max.y;
  }
  double width() const { return max.x - min.x; }
  double height() const { return max.y - min.y; }
  /// Grows the box to hold p; a NaN coordinate leaves it as it is (as std::fmin would, without
  /// the library call).
  void expand(Point p) {
    if (p.x < min.x) min.x = p.x;
    if (p.y < min.y) min.y = p.y;
    if (p.x > max.x) max.x = p.x;
    if (p.y > max.y) max.y = p.y;
  }
  void expand(const Box& b) {
    if (!b.empty()) {
      expand(b.min);
      expand(b.max);
    }
  }
};

/// A closed polygonal chain given by its vertices; the last vertex connects back to the first
/// (the first point is not repeated). Orientation is documented where a ring is stored.
using Ring = std::vector<Point>;

/// A turn by `yaw` radians, counter-clockwise, about `pivot`: how the frame of a rotated raster
/// map (a ROS map whose origin has a yaw) lies in the scene. A construction, rounded to doubles:
/// points that were collinear need not stay exactly so. apply() is compiled once, out of line, so
/// that every caller rounds a given point alike and a vertex two rings share stays one vertex.
class Rotation {
 public:
  /// No turn: apply() and undo() return their point unchanged.
  Rotation() = default;
  Rotation(Point pivot, double yaw);

  /// p turned about the pivot; p itself, unchanged (not multiplied by cos 0), when yaw is 0.
  Point apply(Point p) const { return yaw_ == 0.0 ? p : turned(p, sin_); }
  /// The inverse turn, rounded: for finding which cell of the frame holds a point, never to
  /// decide a predicate (apply(undo(p)) need not be p).
  Point undo(Point p) const { return yaw_ == 0.0 ? p : turned(p, -sin_); }
  bool identity() const { return yaw_ == 0.0; }
  Point pivot() const { return pivot_; }
  double yaw() const { return yaw_; }

 private:
  Point turned(Point p, double sine) const;

  Point pivot_;
  double yaw_ = 0.0;
  double cos_ = 1.0;
  double sin_ = 0.0;
};

/// A polygon with an outer ring and zero or more holes.
struct Polygon {
  Ring outer;
  std::vector<Ring> holes;
};

/// The bounding box of a ring.
inline Box bounding_box(const Ring& ring) {
  Box b;
  for (const Point& p : ring) b.expand(p);
  return b;
}

/// Twice the signed area of a ring (positive when counter-clockwise). Approximate: for sizes
/// and ordering, never for a decision (exact::ring_orientation decides orientation). Taken
/// relative to the first vertex, so that rings far from the origin keep their precision.
inline double signed_area2(const Ring& ring) {
  double s = 0.0;
  if (ring.empty()) return s;
  const Point o = ring.front();
  for (std::size_t i = 1, n = ring.size(); i + 1 < n; ++i) s += cross(ring[i] - o, ring[i + 1] - o);
  return s;
}

/// Euclidean length of a polyline.
inline double polyline_length(const std::vector<Point>& path) {
  double s = 0.0;
  for (std::size_t i = 1; i < path.size(); ++i) s += distance(path[i - 1], path[i]);
  return s;
}

/// The total turning of a polyline: the sum of the absolute angles (radians) between consecutive
/// segments. Zero-length segments are skipped.
inline double turning_angle(const std::vector<Point>& path) {
  double total = 0.0;
  Point previous{0.0, 0.0};
  for (std::size_t i = 1; i < path.size(); ++i) {
    const Point d = path[i] - path[i - 1];
    if (d.x == 0.0 && d.y == 0.0) continue;
    if (previous.x != 0.0 || previous.y != 0.0)
      total += std::abs(std::atan2(cross(previous, d), dot(previous, d)));
    previous = d;
  }
  return total;
}

}  // namespace polynav
