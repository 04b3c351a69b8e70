#pragma once
/// @file
/// The exact predicates every geometric decision in polynav goes through, below scene/ and
/// space/. Inputs are doubles; answers are exact (a floating-point fast path where an error bound
/// proves the sign, else CGAL's filtered predicates, which fall back to exact arithmetic). No CGAL
/// header is included here: the CGAL calls live in src/kernel/exact.cpp.

#include <cmath>
#include <cstddef>
#include <span>

#include "polynav/geometry.hpp"

namespace polynav::exact {

/// The orientation decided by exact arithmetic (CGAL's filtered predicate); see orientation().
int orientation_exact(Point p, Point q, Point r);

/// +1 when r is left of the directed line p->q, -1 when right, 0 when collinear. Exact: the
/// sign is computed in doubles whenever Shewchuk's error bound for this determinant
/// (ccwerrboundA, "Adaptive precision floating-point arithmetic and fast robust geometric
/// predicates", 1997) proves it, else by orientation_exact. Inline because every line of sight,
/// point location and visibility-graph construction makes millions of these tests, and the
/// proven case costs a few multiplications instead of a call through CGAL's kernel objects.
inline int orientation(Point p, Point q, Point r) {
  const double qx = q.x - p.x, qy = q.y - p.y, rx = r.x - p.x, ry = r.y - p.y;
  const double left = qx * ry;
  const double right = qy * rx;
  const double det = left - right;
  const double magnitude = std::abs(left) + std::abs(right);
  // The common case first: the bound proves the sign. Below ~1e-250 products may have
  // underflowed, where the bound no longer holds.
  if (magnitude > 1e-250 && magnitude < 1e300) {
    const double bound = 3.3306690738754716e-16 * magnitude;
    if (det > bound) return 1;
    if (-det > bound) return -1;
  }
  // A difference of doubles is zero only when they are equal, so a zero factor is exact: then
  // both products are exactly zero (the common case of a shared end point).
  if ((qx == 0.0 || ry == 0.0) && (qy == 0.0 || rx == 0.0)) return 0;
  // q == r: the two products are equal, and the error bound cannot tell 0 from a tiny value,
  // which would cost an exact evaluation (sectors at a vertex compare a ray with itself).
  if (q.x == r.x && q.y == r.y) return 0;
  return orientation_exact(p, q, r);
}

/// For q collinear with v and p (q != v): whether q lies on the ray from v through p.
inline bool same_direction(Point v, Point p, Point q) {
  return p.x != v.x ? (p.x > v.x) == (q.x > v.x) : (p.y > v.y) == (q.y > v.y);
}

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

/// The sign of |pq| - d: +1 when p and q are farther apart than d, 0 at exactly d, -1 nearer.
/// Exact: the squared distance and d * d in doubles decide when their rounding-error bound proves
/// the sign, else both are evaluated in exact rational arithmetic. @pre d >= 0, all finite
int compare_distance(Point p, Point q, double d);

/// Whether the closed segments ab and cd share a point.
bool segments_intersect(Point a, Point b, Point c, Point d);

/// Whether the closed segment ab meets the open box (box.min.x, box.max.x) x (box.min.y,
/// box.max.y). Exact: by the separating axis theorem a segment and a box are disjoint exactly
/// when the box's own axes separate them (comparisons of the given doubles) or the segment's line
/// leaves every corner of the box on one closed side (orientation tests). A segment that only
/// runs along a side or touches a corner does not meet the open box.
bool meets_open_box(Point a, Point b, const Box& box);

/// Whether the closed segment ab meets the interior of the convex polygon `corners`, given
/// counter-clockwise with no three corners collinear (a cell of a rotated grid). Exact, by the
/// separating axis theorem as for meets_open_box: they are disjoint exactly when a and b both lie
/// on the closed outer side of one of the polygon's edges, or every corner lies on one closed
/// side of the line through a and b. A segment that only runs along a side or touches a corner
/// does not meet the interior.
bool meets_open_convex(Point a, Point b, std::span<const Point> corners);

/// Whether p lies in the closed convex polygon `corners` (counter-clockwise): on no edge's outer
/// side. Exact.
inline bool in_closed_convex(Point p, std::span<const Point> corners) {
  for (std::size_t i = 0; i < corners.size(); ++i)
    if (orientation(corners[i], corners[(i + 1) % corners.size()], p) < 0) return false;
  return true;
}

/// The sign of a ring's area: +1 counter-clockwise, -1 clockwise, 0 for a ring of zero area.
/// Exact at every magnitude: the shoelace sum in doubles decides when its rounding-error bound
/// (Higham, "Accuracy and Stability of Numerical Algorithms", 2002, section 4.2) proves the sign,
/// else the sum is evaluated in exact rational arithmetic. A plain double sum of the products
/// x_i * y_{i+1} cancels catastrophically far from the origin (at 1e8 it misjudges rings of
/// unit size), which is why no orientation decision is made with geometry.hpp's signed_area2.
int ring_orientation(const Ring& ring);

enum class Side { outside, boundary, inside };

/// Where p is relative to a ring (either orientation, possibly touching itself at vertices).
Side side_of_ring(const Ring& ring, Point p);

/// Where the ring `inner` lies relative to `outer`, for rings that meet at most at vertices (the
/// boundary rings of one free space): the side of inner's first vertex not on outer's boundary,
/// or boundary when every vertex of inner is on it.
Side side_of_ring(const Ring& outer, const Ring& inner);

}  // namespace polynav::exact
