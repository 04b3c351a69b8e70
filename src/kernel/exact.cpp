#include "polynav/kernel/exact.hpp"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>

#include <algorithm>

namespace polynav::exact {
namespace {
using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
}

int orientation_exact(Point p, Point q, Point r) {
  return static_cast<int>(CGAL::orientation(Kernel::Point_2(p.x, p.y), Kernel::Point_2(q.x, q.y),
                                            Kernel::Point_2(r.x, r.y)));
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

}  // namespace polynav::exact
