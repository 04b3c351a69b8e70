#pragma once
// Internal: the exact predicates every geometric decision in polynav goes through. Inputs are
// doubles; answers are exact (CGAL's filtered predicates: interval arithmetic, falling back to
// exact arithmetic when the interval cannot decide).

#include "polynav/geometry.hpp"

namespace polynav::exact {

/// +1 when r is left of the directed line p->q, -1 when right, 0 when collinear.
int orientation(Point p, Point q, Point r);

/// Whether r, known to be collinear with p and q, lies on the closed segment pq.
inline bool collinear_between(Point p, Point q, Point r) {
  // Exact: only comparisons of the given doubles.
  if (p.x != q.x) return (p.x <= r.x && r.x <= q.x) || (q.x <= r.x && r.x <= p.x);
  return (p.y <= r.y && r.y <= q.y) || (q.y <= r.y && r.y <= p.y);
}

/// Whether r lies on the closed segment pq.
inline bool on_segment(Point p, Point q, Point r) {
  return orientation(p, q, r) == 0 && collinear_between(p, q, r);
}

/// Whether the closed segments ab and cd share a point.
bool segments_intersect(Point a, Point b, Point c, Point d);

enum class Side { outside, boundary, inside };

/// Where p is relative to a ring (either orientation, possibly touching itself at vertices).
Side side_of_ring(const Ring& ring, Point p);

}  // namespace polynav::exact
