#include "polynav/kernel/exact.hpp"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Exact_rational.h>

#include <algorithm>
#include <cmath>

namespace polynav::exact {
namespace {
using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
}

int orientation_exact(Point p, Point q, Point r) {
  return static_cast<int>(CGAL::orientation(Kernel::Point_2(p.x, p.y), Kernel::Point_2(q.x, q.y),
                                            Kernel::Point_2(r.x, r.y)));
}

int compare_distance(Point p, Point q, double d) {
  const double dx = p.x - q.x, dy = p.y - q.y;
  const double squared = dx * dx + dy * dy, limit = d * d;
  // Each difference is rounded once (relative 2^-53), each square and the sum once more: the
  // squared distance is within 6 * 2^-53 of itself, d * d within 2^-53; 8 * 2^-53 of the larger
  // covers both. Tiny or huge magnitudes (underflow, overflow) go to exact arithmetic.
  const double magnitude = std::max(squared, limit);
  if (magnitude > 1e-250 && magnitude < 1e300) {
    const double bound = 8.0 * 0x1p-53 * magnitude;
    if (squared - limit > bound) return 1;
    if (limit - squared > bound) return -1;
  }
  const CGAL::Exact_rational ex = CGAL::Exact_rational(p.x) - CGAL::Exact_rational(q.x);
  const CGAL::Exact_rational ey = CGAL::Exact_rational(p.y) - CGAL::Exact_rational(q.y);
  const CGAL::Exact_rational ed(d);
  return CGAL::sign(ex * ex + ey * ey - ed * ed);
}

bool segments_intersect(Point a, Point b, Point c, Point d) {
  const int o1 = orientation(a, b, c), o2 = orientation(a, b, d);
  const int o3 = orientation(c, d, a), o4 = orientation(c, d, b);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  return (o1 == 0 && collinear_between(a, b, c)) || (o2 == 0 && collinear_between(a, b, d)) ||
         (o3 == 0 && collinear_between(c, d, a)) || (o4 == 0 && collinear_between(c, d, b));
}

bool meets_open_box(Point a, Point b, const Box& box) {
  // The box's axes: the segment's extent must overlap the open intervals.
  if (std::max(a.x, b.x) <= box.min.x || std::min(a.x, b.x) >= box.max.x ||
      std::max(a.y, b.y) <= box.min.y || std::min(a.y, b.y) >= box.max.y)
    return false;
  if (a == b) return true;  // a point strictly inside the box on both axes
  // The segment's normal: some corner strictly on each side of the line through a and b.
  const Point corners[4] = {box.min, {box.max.x, box.min.y}, box.max, {box.min.x, box.max.y}};
  bool left = false, right = false;
  for (const Point& c : corners) {
    const int o = orientation(a, b, c);
    left = left || o > 0;
    right = right || o < 0;
  }
  return left && right;
}

bool meets_open_convex(Point a, Point b, std::span<const Point> corners) {
  const std::size_t n = corners.size();
  if (a == b) {
    // A point meets the interior when it lies strictly inside every edge.
    for (std::size_t i = 0; i < n; ++i)
      if (orientation(corners[i], corners[(i + 1) % n], a) <= 0) return false;
    return true;
  }
  // The polygon's edges: both ends on the closed outer side of one separate them.
  for (std::size_t i = 0; i < n; ++i) {
    const Point u = corners[i], v = corners[(i + 1) % n];
    if (orientation(u, v, a) <= 0 && orientation(u, v, b) <= 0) return false;
  }
  // The segment's line: some corner strictly on each side of it, or it separates them.
  bool left = false, right = false;
  for (const Point& c : corners) {
    const int o = orientation(a, b, c);
    left = left || o > 0;
    right = right || o < 0;
  }
  return left && right;
}

int ring_orientation(const Ring& ring) {
  const std::size_t n = ring.size();
  double sum = 0.0, magnitude = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const Point u = ring[i], v = ring[(i + 1) % n];
    const double left = u.x * v.y, right = v.x * u.y;
    sum += left - right;
    magnitude += std::abs(left) + std::abs(right);
  }
  // 2n roundings in the products and the sum, each of relative size 2^-53 at most: the error
  // is below gamma_(2n+1) * magnitude (Higham, eq. 4.4); the factor 2 covers gamma's
  // denominator for any ring that fits in memory. Tiny or huge magnitudes go to exact.
  if (magnitude > 1e-250 && magnitude < 1e300) {
    const double bound = 2.0 * double(2 * n + 1) * 0x1p-53 * magnitude;
    if (sum > bound) return 1;
    if (-sum > bound) return -1;
  }
  CGAL::Exact_rational exact(0);
  for (std::size_t i = 0; i < n; ++i) {
    const Point u = ring[i], v = ring[(i + 1) % n];
    exact += CGAL::Exact_rational(u.x) * CGAL::Exact_rational(v.y) -
             CGAL::Exact_rational(v.x) * CGAL::Exact_rational(u.y);
  }
  return CGAL::sign(exact);
}

Side side_of_ring(const Ring& ring, Point p) {
  // Crossing number of a ray from p towards +x, with the half-open rule on y so that a ray
  // through a vertex counts once (Shimrat 1962; Haines, "Point in polygon strategies", 1994).
  bool inside = false;
  for (std::size_t i = 0, n = ring.size(); i < n; ++i) {
    const Point u = ring[i], v = ring[(i + 1) % n];
    if ((u.y > p.y) != (v.y > p.y)) {
      const int o = orientation(u, v, p);
      if (o == 0) return Side::boundary;
      if ((o > 0) == (v.y > u.y)) inside = !inside;
    } else if (std::min(u.x, v.x) <= p.x && p.x <= std::max(u.x, v.x) &&
               std::min(u.y, v.y) <= p.y && p.y <= std::max(u.y, v.y) && on_segment(u, v, p)) {
      return Side::boundary;
    }
  }
  return inside ? Side::inside : Side::outside;
}

Side side_of_ring(const Ring& outer, const Ring& inner) {
  for (const Point& p : inner)
    if (const Side side = side_of_ring(outer, p); side != Side::boundary) return side;
  return Side::boundary;
}

}  // namespace polynav::exact
