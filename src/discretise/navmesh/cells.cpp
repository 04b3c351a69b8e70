#include "cells.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include "polynav/kernel/box_index.hpp"
#include "polynav/kernel/exact.hpp"

namespace polynav::navmesh_detail {
namespace {

using Key = std::tuple<double, double, double, double>;

bool less(Point a, Point b) {
  return a.x < b.x || (a.x == b.x && a.y < b.y);
}

Key key_of(Point p, Point q) {
  if (less(q, p)) std::swap(p, q);
  return {p.x, p.y, q.x, q.y};
}

// The sign of a difference of two doubles is exact: the rounded difference is zero only when
// they are equal, and rounding keeps its sign.
int sign_of(double d) {
  return (d > 0) - (d < 0);
}

// Whether the vertical direction (up or down) points strictly into the free sector at v between
// the boundary edges u -> v and v -> w (free space on their left: the sector runs counter-
// clockwise from the ray towards w to the ray towards u). A cross product with a vertical
// direction is a difference of x coordinates, so only the corner's own turn needs an exact
// orientation test. A straight angle counts as no sector: an extension there would cut a cell in
// two without changing its shape.
bool points_into_free(Point u, Point v, Point w, bool up) {
  const int s = up ? 1 : -1;
  const int after = s * sign_of(w.x - v.x);    // sign of cross(w - v, direction)
  const int before = -s * sign_of(u.x - v.x);  // sign of cross(direction, u - v)
  const int turn = exact::orientation(v, w, u);
  if (turn > 0) return after > 0 && before > 0;  // a sector narrower than 180 degrees
  if (turn < 0) return after > 0 || before > 0;  // wider: all but the narrow one outside it
  if (exact::same_direction(v, w, u))            // the free end of a wall: all but the wall
    return !(after == 0 && sign_of(w.y - v.y) == s);
  return false;
}

// Where a vertical ray first meets the boundary: a boundary point (exact), or the inside of an
// edge from `left` to `right` (left.x < the ray's x < right.x).
struct Hit {
  bool found = false;
  bool vertex = false;
  Point at;
  Point left, right;
};

// The sign of (y of edge 1 - y of edge 2) at an x strictly inside both edges' x ranges, for edges
// that cross nowhere: one lies above the other over all of their common range, so any end of one
// within the other's range, not on it, tells which.
int compare_edges(Point l1, Point r1, Point l2, Point r2) {
  int o = l1.x >= l2.x ? exact::orientation(l2, r2, l1) : -exact::orientation(l1, r1, l2);
  if (o != 0) return o;
  o = r1.x <= r2.x ? exact::orientation(l2, r2, r1) : -exact::orientation(l1, r1, r2);
  return o;
}

// The sign of (y of a - y of b) on the ray's line.
int compare(const Hit& a, const Hit& b) {
  if (a.vertex && b.vertex) return sign_of(a.at.y - b.at.y);
  if (a.vertex) return exact::orientation(b.left, b.right, a.at);
  if (b.vertex) return -exact::orientation(a.left, a.right, b.at);
  return compare_edges(a.left, a.right, b.left, b.right);
}

// The crossing of the vertical line x with the edge, rounded (a measure, for stopping the walk).
double approximate_y(const Hit& h, double x) {
  if (h.vertex) return h.at.y;
  return h.left.y + (h.right.y - h.left.y) * ((x - h.left.x) / (h.right.x - h.left.x));
}

class RayShooter {
 public:
  explicit RayShooter(std::vector<Segment> edges) : edges_(std::move(edges)) {
    for (const Segment& e : edges_) {
      box_.expand(e.a);
      box_.expand(e.b);
    }
    index_ = BoxIndex(box_, edges_.size());
    index_.assign_segments(edges_);
    stamp_.assign(edges_.size(), 0);
    if (!index_.empty()) first_length_ = std::max(index_.cell_box(0, 0).height(), 1e-300);
  }

  // The first boundary point the vertical ray from v meets, up or down. The walk covers
  // doubling lengths of the ray until the nearest edge met lies well within the length walked
  // (every edge meeting that much of the ray is then among those tested) or the walk has left
  // the edges' box.
  Hit shoot(Point v, bool up) {
    Hit best;
    if (index_.empty()) return best;
    const double s = up ? 1.0 : -1.0;
    ++current_;
    for (double length = first_length_;; length *= 2) {
      const Point end{v.x, v.y + s * length};
      index_.walk(v, end, [&](std::size_t cell) {
        for (const std::uint32_t id : index_.ids_in(cell)) {
          if (stamp_[id] == current_) continue;
          stamp_[id] = current_;
          consider(edges_[id], v, up, best);
        }
        return false;
      });
      if (best.found && std::abs(approximate_y(best, v.x) - v.y) <= 0.5 * length) return best;
      if (up ? end.y > box_.max.y : end.y < box_.min.y) return best;
    }
  }

 private:
  static void offer(Hit candidate, bool up, Hit& best) {
    candidate.found = true;
    if (!best.found) {
      best = candidate;
      return;
    }
    const int c = compare(candidate, best);
    // Nearer along the ray; at the same point a boundary vertex is the better end (exact).
    if ((up ? c < 0 : c > 0) || (c == 0 && candidate.vertex && !best.vertex)) best = candidate;
  }

  static void consider(const Segment& e, Point v, bool up, Hit& best) {
    const Point p = e.a, q = e.b;
    if (p == v || q == v) return;  // an edge at the ray's own vertex
    const double s = up ? 1.0 : -1.0;
    if (p.x == q.x) {
      // A vertical edge on the ray's line is met at its nearer end.
      if (p.x != v.x) return;
      const Point nearer = (p.y < q.y) == up ? p : q;
      if (s * (nearer.y - v.y) > 0) offer({false, true, nearer, {}, {}}, up, best);
      return;
    }
    const Point left = p.x < q.x ? p : q, right = p.x < q.x ? q : p;
    if (v.x < left.x || v.x > right.x) return;
    if (v.x == left.x || v.x == right.x) {
      const Point end = v.x == left.x ? left : right;
      if (s * (end.y - v.y) > 0) offer({false, true, end, {}, {}}, up, best);
      return;
    }
    // The edge lies above v (v on its right, as seen from left to right) or below.
    const int o = exact::orientation(left, right, v);
    if (up ? o < 0 : o > 0) offer({false, false, {}, left, right}, up, best);
  }

  std::vector<Segment> edges_;
  Box box_;
  BoxIndex index_;
  std::vector<std::uint32_t> stamp_;
  std::uint32_t current_ = 0;
  double first_length_ = 1.0;
};

}  // namespace

VerticalCuts vertical_cuts(const std::vector<BoundaryRing>& boundary, const BuildClock& clock) {
  // Rings without repeated points (a repeated point is no edge and no corner).
  std::vector<Ring> rings;
  std::vector<Segment> edges;
  for (const BoundaryRing& r : boundary) {
    Ring ring;
    for (const Point& p : r.points)
      if (ring.empty() || !(ring.back() == p)) ring.push_back(p);
    while (ring.size() > 1 && ring.back() == ring.front()) ring.pop_back();
    if (ring.size() < 2) continue;
    for (std::size_t k = 0; k < ring.size(); ++k)
      edges.push_back({ring[k], ring[(k + 1) % ring.size()]});
    rings.push_back(std::move(ring));
  }

  VerticalCuts cuts;
  RayShooter shooter(std::move(edges));
  std::size_t visited = 0;
  for (const Ring& ring : rings) {
    const std::size_t n = ring.size();
    for (std::size_t k = 0; k < n; ++k) {
      if (++visited % 256 == 0) clock.check("the vertical cell decomposition");
      const Point u = ring[(k + n - 1) % n], v = ring[k], w = ring[(k + 1) % n];
      for (const bool up : {true, false}) {
        if (!points_into_free(u, v, w, up)) continue;
        const Hit hit = shooter.shoot(v, up);
        if (!hit.found) continue;  // free space unbounded that way: no cell boundary to reach
        if (hit.vertex) {
          cuts.extensions.push_back({v, hit.at});
          continue;
        }
        // The crossing inside an edge, its y rounded to the nearest double on the edge or short
        // of it, on v's side: the cells then lie in free space, so that every corner of a cell
        // is a free point the graph's arcs may reach, and only points within that rounding of
        // the edge (a sliver an ulp thin) are left out of them. A wall with free space on both
        // sides may be met from both: at one x the first crossing found serves both rays.
        std::map<double, Point>& on_edge = cuts.splits[key_of(hit.left, hit.right)];
        if (const auto same_x = on_edge.find(v.x); same_x != on_edge.end()) {
          cuts.extensions.push_back({v, same_x->second});
          continue;
        }
        Point end{v.x, approximate_y(hit, v.x)};
        if (hit.left.y == hit.right.y) end.y = hit.left.y;
        const double back =
            up ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
        int side = exact::orientation(hit.left, hit.right, end);
        for (int step = 0; step < 64 && (up ? side > 0 : side < 0); ++step) {
          end.y = std::nextafter(end.y, back);
          side = exact::orientation(hit.left, hit.right, end);
        }
        // An edge passing within rounding of v leaves no room for a cut.
        if ((up ? side > 0 : side < 0) || (up ? end.y <= v.y : end.y >= v.y)) continue;
        on_edge.emplace(v.x, end);
        if (side != 0) cuts.rounded.push_back(end);
        cuts.extensions.push_back({v, end});
      }
    }
  }
  for (Segment& e : cuts.extensions)
    if (less(e.b, e.a)) std::swap(e.a, e.b);
  std::sort(cuts.extensions.begin(), cuts.extensions.end(), [](const Segment& x, const Segment& y) {
    return less(x.a, y.a) || (x.a == y.a && less(x.b, y.b));
  });
  cuts.extensions.erase(
      std::unique(cuts.extensions.begin(), cuts.extensions.end(),
                  [](const Segment& x, const Segment& y) { return x.a == y.a && x.b == y.b; }),
      cuts.extensions.end());
  std::sort(cuts.rounded.begin(), cuts.rounded.end(), less);
  return cuts;
}

Ring split_at_cuts(const Ring& ring, const VerticalCuts& cuts) {
  if (cuts.splits.empty()) return ring;
  Ring out;
  out.reserve(ring.size());
  const std::size_t n = ring.size();
  for (std::size_t k = 0; k < n; ++k) {
    const Point p = ring[k], q = ring[(k + 1) % n];
    out.push_back(p);
    if (p.x == q.x) continue;  // vertical rays never end inside a vertical edge
    const auto it = cuts.splits.find(key_of(p, q));
    if (it == cuts.splits.end()) continue;
    if (p.x < q.x) {
      for (const auto& [x, at] : it->second) out.push_back(at);
    } else {
      for (auto at = it->second.rbegin(); at != it->second.rend(); ++at) out.push_back(at->second);
    }
  }
  return out;
}

}  // namespace polynav::navmesh_detail
