#include "validity/exact_checker.hpp"

#include <CGAL/Exact_rational.h>
#include <CGAL/FPU.h>
#include <CGAL/Interval_nt.h>

#include <algorithm>
#include <atomic>
#include <boost/geometry/geometries/box.hpp>
#include <boost/geometry/geometries/point.hpp>
#include <boost/geometry/index/rtree.hpp>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

namespace polynav::validity {
namespace {

namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;
using BgPoint = bg::model::point<double, 2, bg::cs::cartesian>;
using BgBox = bg::model::box<BgPoint>;
using Entry = std::pair<BgBox, std::uint32_t>;
using Tree = bgi::rtree<Entry, bgi::rstar<16>>;

// Interval arithmetic with the rounding mode set upwards by the caller (CGAL's
// Protect_FPU_rounding): each result encloses the exact value, so a sign read off an interval
// that excludes zero is the exact sign.
using Interval = CGAL::Interval_nt<false>;
using Rational = CGAL::Exact_rational;

struct RationalPoint {
  Rational x;
  Rational y;
};

std::string format(Point p) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "(%.17g, %.17g)", p.x, p.y);
  return buf;
}

std::string format(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// A direction, from one input point towards another. Both ends are input doubles, so every sign
// about directions is a polynomial in input coordinates, which the filter can decide.
struct Dir {
  Point from;
  Point to;
};

// A blocked part near a boundary point: the open sector swept counter-clockwise from `first` to
// `last` (never empty, never the whole turn: rings are simple).
struct Cone {
  Dir first;
  Dir last;
};

// The cone of one ring at a boundary point, before the cones of one part's rings are combined.
struct RingCone {
  Cone cone;
  std::uint32_t part;
  std::uint32_t ring;
};

// A blocked part: an obstacle (its outer ring and its holes) or the outside of the bounds. Every
// ring is oriented with the blocked side on its left.
struct Part {
  std::string name;
  std::vector<Ring> rings;
  Box box;
  bool outside = false;  // the outside of the bounds: blocked where the bounds' parity is even
};

struct Edge {
  Point u;
  Point w;
  std::uint32_t part;
  std::uint32_t ring;
  std::uint32_t index;  // u = rings[ring][index]
};

BgBox bg_box(double x0, double y0, double x1, double y1) {
  return {BgPoint(x0, y0), BgPoint(x1, y1)};
}

}  // namespace

const char* to_string(Failure failure) {
  switch (failure) {
    case Failure::none:
      return "none";
    case Failure::point_blocked:
      return "point_blocked";
    case Failure::enters_blocked:
      return "enters_blocked";
    case Failure::gap:
      return "gap";
    case Failure::turn:
      return "turn";
    case Failure::clearance:
      return "clearance";
  }
  return "";
}

struct ExactChecker::Impl {
  CheckerOptions options;
  double radius = 0.0;
  double pad = 0.0;         // box padding for queries within the radius (see below)
  std::vector<Part> parts;  // parts[0] is the outside of the bounds
  std::vector<Edge> edges;
  Tree edge_tree;
  Tree obstacle_tree;  // parts 1.. by their boxes
  mutable std::atomic<std::uint64_t> filtered_signs{0};
  mutable std::atomic<std::uint64_t> exact_signs{0};

  // ---- signs -------------------------------------------------------------------------------

  // The sign of an expression written once for any number type: `f(zero)` builds it from the
  // input doubles in the type of `zero`.
  template <class F>
  int sign(const F& f) const {
    if (options.filtered) {
      CGAL::Protect_FPU_rounding<true> upward;
      const Interval v = f(Interval(0));
      if (v.inf() > 0 || v.sup() < 0 || (v.inf() == 0 && v.sup() == 0)) {
        filtered_signs.fetch_add(1, std::memory_order_relaxed);
        return v.inf() > 0 ? 1 : v.sup() < 0 ? -1 : 0;
      }
    }
    exact_signs.fetch_add(1, std::memory_order_relaxed);
    const Rational value = f(Rational(0));
    return int(CGAL::sign(value));
  }

  int orient(Point p, Point q, Point r) const {
    return sign([&](auto zero) -> decltype(zero) {
      using N = decltype(zero);
      return (N(q.x) - N(p.x)) * (N(r.y) - N(p.y)) - (N(q.y) - N(p.y)) * (N(r.x) - N(p.x));
    });
  }

  // Orientation of (p, q, m) for an exact rational point m: exact arithmetic throughout.
  int orient(Point p, Point q, const RationalPoint& m) const {
    exact_signs.fetch_add(1, std::memory_order_relaxed);
    const Rational px(p.x), py(p.y);
    const Rational value = (Rational(q.x) - px) * (m.y - py) - (Rational(q.y) - py) * (m.x - px);
    return int(CGAL::sign(value));
  }

  int cross(Dir a, Dir b) const {
    return sign([&](auto zero) -> decltype(zero) {
      using N = decltype(zero);
      return (N(a.to.x) - N(a.from.x)) * (N(b.to.y) - N(b.from.y)) -
             (N(a.to.y) - N(a.from.y)) * (N(b.to.x) - N(b.from.x));
    });
  }

  int dot(Dir a, Dir b) const {
    return sign([&](auto zero) -> decltype(zero) {
      using N = decltype(zero);
      return (N(a.to.x) - N(a.from.x)) * (N(b.to.x) - N(b.from.x)) +
             (N(a.to.y) - N(a.from.y)) * (N(b.to.y) - N(b.from.y));
    });
  }

  // Whether the squared distance from p to c is at least r^2.
  bool far_from_point(Point p, Point c) const {
    const double r = radius;
    return sign([&](auto zero) -> decltype(zero) {
             using N = decltype(zero);
             const N dx = N(p.x) - N(c.x), dy = N(p.y) - N(c.y);
             return dx * dx + dy * dy - N(r) * N(r);
           }) >= 0;
  }

  // Whether the squared distance from p to the closed segment cd is at least r^2. The foot of
  // the perpendicular decides which distance applies (signs of two dot products); inside the
  // segment the squared distance is cross(d - c, p - c)^2 / |d - c|^2, compared without
  // dividing.
  bool far_from_segment(Point p, Point c, Point d) const {
    if (c == d) return far_from_point(p, c);
    if (dot({c, p}, {c, d}) <= 0) return far_from_point(p, c);
    if (dot({d, p}, {d, c}) <= 0) return far_from_point(p, d);
    const double r = radius;
    return sign([&](auto zero) -> decltype(zero) {
             using N = decltype(zero);
             const N ex = N(d.x) - N(c.x), ey = N(d.y) - N(c.y);
             const N px = N(p.x) - N(c.x), py = N(p.y) - N(c.y);
             const N cr = ex * py - ey * px;
             return cr * cr - N(r) * N(r) * (ex * ex + ey * ey);
           }) >= 0;
  }

  // The exact squared distance from p to the closed segment cd (for depths, not decisions).
  static Rational squared_distance(Point p, Point c, Point d) {
    return squared_distance(RationalPoint{Rational(p.x), Rational(p.y)}, c, d);
  }

  static Rational squared_distance(const RationalPoint& p, Point c, Point d) {
    const Rational &px = p.x, &py = p.y;
    const Rational cx(c.x), cy(c.y), dx(d.x), dy(d.y);
    const Rational ex = dx - cx, ey = dy - cy, qx = px - cx, qy = py - cy;
    const Rational len2 = ex * ex + ey * ey;
    const Rational t = len2 == 0 ? Rational(0) : (qx * ex + qy * ey) / len2;
    if (t <= 0) return qx * qx + qy * qy;
    if (t >= 1) return (px - dx) * (px - dx) + (py - dy) * (py - dy);
    const Rational cr = ex * qy - ey * qx;
    return cr * cr / len2;
  }

  // The distance from p to the nearest edge of the part: how deep inside it p lies.
  template <class P>
  double depth_in(const Part& part, const P& p) const {
    Rational best = -1;
    for (const Ring& ring : part.rings)
      for (std::size_t i = 0, n = ring.size(); i < n; ++i) {
        const Rational d2 = squared_distance(p, ring[i], ring[(i + 1) % n]);
        if (best < 0 || d2 < best) best = d2;
      }
    return std::sqrt(CGAL::to_double(best));
  }

  // r - sqrt(d2) for d2 close to r^2, without cancellation: (r^2 - d2) / (r + sqrt(d2)).
  double shortfall(const Rational& d2) const {
    const Rational r(radius);
    const double d = std::sqrt(CGAL::to_double(d2));
    return CGAL::to_double(r * r - d2) / (radius + d);
  }

  // Whether the closed segments ab and cd (a != b, c != d) share a point.
  bool segments_meet(Point a, Point b, Point c, Point d) const {
    const int o1 = orient(a, b, c), o2 = orient(a, b, d);
    if (o1 * o2 > 0) return false;
    const int o3 = orient(c, d, a), o4 = orient(c, d, b);
    if (o3 * o4 > 0) return false;
    if (o1 != 0 || o2 != 0) return true;
    // Collinear: the lexicographic ranges overlap.
    const auto less = [](Point p, Point q) { return p.x < q.x || (p.x == q.x && p.y < q.y); };
    const Point lo1 = std::min(a, b, less), hi1 = std::max(a, b, less);
    const Point lo2 = std::min(c, d, less), hi2 = std::max(c, d, less);
    return !less(hi1, lo2) && !less(hi2, lo1);
  }

  static bool on_box(Point p, Point u, Point w) {
    return std::min(u.x, w.x) <= p.x && p.x <= std::max(u.x, w.x) && std::min(u.y, w.y) <= p.y &&
           p.y <= std::max(u.y, w.y);
  }

  // ---- sectors -----------------------------------------------------------------------------

  bool same_direction(Dir x, Dir y) const { return cross(x, y) == 0 && dot(x, y) > 0; }

  // Whether x lies strictly inside the sector swept counter-clockwise from c1 to c2, which are
  // not the same direction.
  bool strictly_in(Dir x, Dir c1, Dir c2) const {
    const int s = cross(c1, c2);
    if (s > 0) return cross(c1, x) > 0 && cross(x, c2) > 0;
    // Wider than a half-turn: x is inside unless it is in the closed sector from c2 to c1.
    if (s < 0) return !(cross(c2, x) >= 0 && cross(x, c1) >= 0);
    return cross(c1, x) > 0;  // exactly a half-turn
  }

  // Whether the open sector swept counter-clockwise from s1 to s2 meets the open cone. Two open
  // arcs of a circle meet exactly when one contains the other's start or both start together.
  bool meets(Dir s1, Dir s2, const Cone& c) const {
    return strictly_in(s1, c.first, c.last) || strictly_in(c.first, s1, s2) ||
           same_direction(s1, c.first);
  }

  // Whether the open sector from s1 counter-clockwise to s2 holds no blocked part. A sector of
  // no width is free.
  bool sector_free(Dir s1, Dir s2, const std::vector<Cone>& cones) const {
    if (same_direction(s1, s2)) return true;
    for (const Cone& c : cones)
      if (meets(s1, s2, c)) return false;
    return true;
  }

  // Whether some direction out of a boundary point is free: free space lies just
  // counter-clockwise of the last ray of some cone that no cone covers.
  bool some_direction_free(const std::vector<Cone>& cones) const {
    for (const Cone& k : cones) {
      bool free = true;
      for (const Cone& c : cones) {
        if (strictly_in(k.last, c.first, c.last) || same_direction(k.last, c.first)) {
          free = false;
          break;
        }
      }
      if (free) return true;
    }
    return false;
  }

  // The cone of edge e's ring at a point of e: its start, its end or a point inside it.
  RingCone cone_of(const Edge& e, bool at_u, bool at_w) const {
    const Ring& ring = parts[e.part].rings[e.ring];
    const std::size_t n = ring.size();
    if (at_u)
      return {{{e.u, ring[(e.index + 1) % n]}, {e.u, ring[(e.index + n - 1) % n]}}, e.part, e.ring};
    if (at_w) return {{{e.w, ring[(e.index + 2) % n]}, {e.w, e.u}}, e.part, e.ring};
    return {{{e.u, e.w}, {e.w, e.u}}, e.part, e.ring};
  }

  // 0 for directions in the upper half-plane or along +x, 1 for the others: with cross(), an
  // exact order of directions by angle.
  int half(Dir d) const {
    const int sy = sign([&](auto zero) -> decltype(zero) {
      using N = decltype(zero);
      return N(d.to.y) - N(d.from.y);
    });
    if (sy != 0) return sy > 0 ? 0 : 1;
    return sign([&](auto zero) -> decltype(zero) {
             using N = decltype(zero);
             return N(d.to.x) - N(d.from.x);
           }) > 0
               ? 0
               : 1;
  }

  // The blocked sectors at a boundary point from the cones of the rings through it. A part is
  // blocked where all its rings' cones are, inside its outer ring and outside its holes: with one
  // ring through the point that is the ring's cone, but a valid polygon's hole may touch its outer
  // ring (or another hole) there, and then the part's blocked sectors are the outer ring's cone
  // less the hole's. Cut the turn at every cone's directions; an arc between two neighbouring
  // directions lies wholly inside or outside each cone, and its start decides which.
  std::vector<Cone> blocked_cones(std::vector<RingCone> ring_cones) const {
    std::sort(ring_cones.begin(), ring_cones.end(), [](const RingCone& a, const RingCone& b) {
      return a.part < b.part || (a.part == b.part && a.ring < b.ring);
    });
    std::vector<Cone> out;
    for (std::size_t i = 0; i < ring_cones.size();) {
      std::size_t j = i;
      std::vector<Cone> part;  // one cone per ring (the edges at a vertex give it twice)
      for (; j < ring_cones.size() && ring_cones[j].part == ring_cones[i].part; ++j)
        if (j == i || ring_cones[j].ring != ring_cones[j - 1].ring)
          part.push_back(ring_cones[j].cone);
      i = j;
      if (part.size() == 1) {
        out.push_back(part[0]);
        continue;
      }
      std::vector<Dir> dirs;
      for (const Cone& c : part) {
        dirs.push_back(c.first);
        dirs.push_back(c.last);
      }
      std::sort(dirs.begin(), dirs.end(), [&](Dir a, Dir b) {
        const int ha = half(a), hb = half(b);
        return ha != hb ? ha < hb : cross(a, b) > 0;
      });
      std::vector<Dir> distinct;
      for (const Dir& d : dirs)
        if (distinct.empty() || !same_direction(distinct.back(), d)) distinct.push_back(d);
      if (distinct.size() > 1 && same_direction(distinct.front(), distinct.back()))
        distinct.pop_back();
      const std::size_t n = distinct.size();
      std::vector<bool> blocked(n);
      for (std::size_t k = 0; k < n; ++k) {
        blocked[k] = std::all_of(part.begin(), part.end(), [&](const Cone& c) {
          return strictly_in(distinct[k], c.first, c.last) || same_direction(distinct[k], c.first);
        });
      }
      // Runs of blocked arcs, each one cone (a run may wrap round past the first direction).
      for (std::size_t k = 0; k < n; ++k) {
        if (!blocked[k] || blocked[(k + n - 1) % n]) continue;
        std::size_t end = k;
        while (blocked[(end + 1) % n] && (end + 1) % n != k) end = (end + 1) % n;
        out.push_back({distinct[k], distinct[(end + 1) % n]});
      }
    }
    return out;
  }

  // ---- point location ----------------------------------------------------------------------

  // Crossing parity of the ray from p towards +x over the part's rings. @pre p is on none of
  // them.
  template <class P, class Above, class Orient>
  static bool odd_crossings(const Part& part, const P& p, Above above, Orient orientation) {
    bool odd = false;
    for (const Ring& ring : part.rings) {
      for (std::size_t i = 0, n = ring.size(); i < n; ++i) {
        const Point u = ring[i], w = ring[(i + 1) % n];
        const bool ua = above(u.y, p), wa = above(w.y, p);
        if (ua == wa) continue;
        if ((orientation(u, w, p) > 0) == wa) odd = !odd;
      }
    }
    return odd;
  }

  // Whether p lies strictly inside the blocked part. @pre p is on none of its rings.
  bool strictly_blocked(const Part& part, Point p) const {
    const bool in_box = part.box.min.x <= p.x && p.x <= part.box.max.x && part.box.min.y <= p.y &&
                        p.y <= part.box.max.y;
    if (!in_box) return part.outside;
    const bool odd = odd_crossings(
        part, p, [](double y, Point q) { return y > q.y; },
        [this](Point u, Point w, Point q) { return orient(u, w, q); });
    return part.outside ? !odd : odd;
  }

  bool strictly_blocked(const Part& part, const RationalPoint& p) const {
    const bool in_box = Rational(part.box.min.x) <= p.x && p.x <= Rational(part.box.max.x) &&
                        Rational(part.box.min.y) <= p.y && p.y <= Rational(part.box.max.y);
    if (!in_box) return part.outside;
    const bool odd = odd_crossings(
        part, p, [](double y, const RationalPoint& q) { return Rational(y) > q.y; },
        [this](Point u, Point w, const RationalPoint& q) { return orient(u, w, q); });
    return part.outside ? !odd : odd;
  }

  template <class F>
  void for_edges_near(double x0, double y0, double x1, double y1, F&& f) const {
    for (auto it = edge_tree.qbegin(bgi::intersects(bg_box(x0, y0, x1, y1)));
         it != edge_tree.qend(); ++it)
      f(edges[it->second]);
  }

  // The blocked parts whose box may hold the point (approximately at x, y; boxes are padded far
  // beyond the error of that approximation): the outside of the bounds and nearby obstacles.
  template <class F>
  void for_parts_near(double x, double y, F&& f) const {
    const double slack = 1e-9 * (1.0 + std::abs(x) + std::abs(y));
    f(std::uint32_t(0));
    for (auto it = obstacle_tree.qbegin(
             bgi::intersects(bg_box(x - slack, y - slack, x + slack, y + slack)));
         it != obstacle_tree.qend(); ++it)
      f(it->second);
  }

  std::string edge_name(const Edge& e) const {
    const Part& part = parts[e.part];
    std::string ring;
    if (!part.outside) ring = e.ring == 0 ? " outer ring" : " hole " + std::to_string(e.ring - 1);
    return part.name + ring + " edge " + std::to_string(e.index) + " " + format(e.u) + "-" +
           format(e.w);
  }

  // ---- checks ------------------------------------------------------------------------------

  Verdict check_point(Point p) const {
    if (radius > 0) {
      Verdict v;
      for_edges_near(p.x - pad, p.y - pad, p.x + pad, p.y + pad, [&](const Edge& e) {
        if (v.valid() && !far_from_segment(p, e.u, e.w)) {
          const double short_by = shortfall(squared_distance(p, e.u, e.w));
          v = {Failure::point_blocked,
               "within the radius " + format(radius) + " of " + edge_name(e) + " (by " +
                   format(short_by) + ")",
               short_by};
        }
      });
      if (!v.valid()) return v;
      // No edge within r > 0: p is on no ring, so parity decides.
      for_parts_near(p.x, p.y, [&](std::uint32_t k) {
        if (v.valid() && strictly_blocked(parts[k], p))
          v = {Failure::point_blocked, "inside " + parts[k].name, radius + depth_in(parts[k], p)};
      });
      return v;
    }
    std::vector<RingCone> ring_cones;
    std::vector<std::uint32_t> touching;
    for_edges_near(p.x, p.y, p.x, p.y, [&](const Edge& e) {
      if (!on_box(p, e.u, e.w) || orient(e.u, e.w, p) != 0) return;
      ring_cones.push_back(cone_of(e, p == e.u, p == e.w));
      touching.push_back(e.part);
    });
    const std::vector<Cone> cones = blocked_cones(std::move(ring_cones));
    Verdict v;
    for_parts_near(p.x, p.y, [&](std::uint32_t k) {
      if (v.valid() && std::find(touching.begin(), touching.end(), k) == touching.end() &&
          strictly_blocked(parts[k], p)) {
        const double depth = depth_in(parts[k], p);
        v = {Failure::point_blocked, "inside " + parts[k].name + " (by " + format(depth) + ")",
             depth};
      }
    });
    if (v.valid() && !cones.empty() && !some_direction_free(cones))
      v = {Failure::point_blocked, "on the boundary with blocked parts all round"};
    return v;
  }

  Verdict check_segment_disc(Point a, Point b) const {
    const double x0 = std::min(a.x, b.x) - pad, x1 = std::max(a.x, b.x) + pad;
    const double y0 = std::min(a.y, b.y) - pad, y1 = std::max(a.y, b.y) + pad;
    Verdict v;
    for_edges_near(x0, y0, x1, y1, [&](const Edge& e) {
      if (!v.valid()) return;
      if (segments_meet(a, b, e.u, e.w)) {
        v = {Failure::clearance, "meets " + edge_name(e), radius};
      } else if (!far_from_segment(a, e.u, e.w) || !far_from_segment(b, e.u, e.w) ||
                 !far_from_segment(e.u, a, b) || !far_from_segment(e.w, a, b)) {
        const Rational d2 = std::min({squared_distance(a, e.u, e.w), squared_distance(b, e.u, e.w),
                                      squared_distance(e.u, a, b), squared_distance(e.w, a, b)});
        const double short_by = shortfall(d2);
        v = {Failure::clearance,
             "comes closer than the radius " + format(radius) + " to " + edge_name(e) + " (by " +
                 format(short_by) + ")",
             short_by};
      }
    });
    return v;
  }

  Verdict check_segment_point(Point a, Point b) const {
    struct Touch {
      std::uint32_t edge;
      Rational lo, hi;  // the parameters along ab of what the edge shares with it
      bool along;       // collinear over a piece of positive length
    };
    std::vector<Touch> touches;
    const Rational ax(a.x), ay(a.y), dx = Rational(b.x) - ax, dy = Rational(b.y) - ay;
    for_edges_near(
        std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x), std::max(a.y, b.y),
        [&](const Edge& e) {
          const int o1 = orient(a, b, e.u), o2 = orient(a, b, e.w);
          if (o1 * o2 > 0) return;
          const int o3 = orient(e.u, e.w, a), o4 = orient(e.u, e.w, b);
          if (o3 * o4 > 0) return;
          const std::uint32_t id = std::uint32_t(&e - edges.data());
          if (o1 == 0 && o2 == 0) {
            const Rational len2 = dx * dx + dy * dy;
            const Rational tu = ((Rational(e.u.x) - ax) * dx + (Rational(e.u.y) - ay) * dy) / len2;
            const Rational tw = ((Rational(e.w.x) - ax) * dx + (Rational(e.w.y) - ay) * dy) / len2;
            const Rational lo = std::max(Rational(0), std::min(tu, tw));
            const Rational hi = std::min(Rational(1), std::max(tu, tw));
            if (lo > hi) return;
            touches.push_back({id, lo, hi, lo < hi});
            return;
          }
          // The lines cross once: ab at t = cross(u - a, w - u) / cross(b - a, w - u).
          const Rational ex = Rational(e.w.x) - Rational(e.u.x);
          const Rational ey = Rational(e.w.y) - Rational(e.u.y);
          const Rational t =
              ((Rational(e.u.x) - ax) * ey - (Rational(e.u.y) - ay) * ex) / (dx * ey - dy * ex);
          touches.push_back({id, t, t, false});
        });
    if (touches.empty()) return {};  // inside one face: the waypoints' checks decide

    std::vector<Rational> ts = {Rational(0), Rational(1)};
    for (const Touch& t : touches) {
      ts.push_back(t.lo);
      ts.push_back(t.hi);
    }
    std::sort(ts.begin(), ts.end());
    ts.erase(std::unique(ts.begin(), ts.end()), ts.end());

    // Between two consecutive points where ab meets the boundary, it lies in one face of the
    // arrangement of all rings: free space on at least one side is needed.
    for (std::size_t k = 0; k + 1 < ts.size(); ++k) {
      const Rational &t0 = ts[k], &t1 = ts[k + 1];
      bool left = false, right = false;
      std::vector<std::uint32_t> touching;
      const Edge* left_edge = nullptr;
      const Edge* right_edge = nullptr;
      for (const Touch& t : touches) {
        if (!t.along || t1 > t.hi || t0 < t.lo) continue;
        const Edge& e = edges[t.edge];
        touching.push_back(e.part);
        // Rings have the blocked side on their left.
        if (dot({a, b}, {e.u, e.w}) > 0) {
          left = true;
          left_edge = &e;
        } else {
          right = true;
          right_edge = &e;
        }
      }
      if (left && right)
        return {Failure::enters_blocked, "runs along " + edge_name(*left_edge) + " and " +
                                             edge_name(*right_edge) +
                                             " with blocked parts on both sides"};
      const Rational tm = (t0 + t1) / 2;
      const RationalPoint m{ax + tm * dx, ay + tm * dy};
      Verdict v;
      for_parts_near(CGAL::to_double(m.x), CGAL::to_double(m.y), [&](std::uint32_t p) {
        if (v.valid() && std::find(touching.begin(), touching.end(), p) == touching.end() &&
            strictly_blocked(parts[p], m)) {
          const double depth = depth_in(parts[p], m);
          v = {Failure::enters_blocked,
               (parts[p].outside ? "leaves the bounds"
                                 : "passes through the inside of " + parts[p].name) +
                   std::string(" (between parameters ") + format(CGAL::to_double(t0)) + " and " +
                   format(CGAL::to_double(t1)) + " of the segment, by " + format(depth) +
                   " at the middle)",
               depth};
        }
      });
      if (!v.valid()) return v;
    }

    if (options.open_gaps) return {};
    // Where ab passes a boundary point, one side of it must be wholly free there.
    for (const Rational& t : ts) {
      if (t == 0 || t == 1) continue;
      const RationalPoint v{ax + t * dx, ay + t * dy};
      std::vector<RingCone> ring_cones;
      for (const Touch& touch : touches) {
        if (t < touch.lo || t > touch.hi) continue;
        const Edge& e = edges[touch.edge];
        ring_cones.push_back(cone_of(e, v.x == Rational(e.u.x) && v.y == Rational(e.u.y),
                                     v.x == Rational(e.w.x) && v.y == Rational(e.w.y)));
      }
      const std::vector<Cone> cones = blocked_cones(std::move(ring_cones));
      if (!sector_free({b, a}, {a, b}, cones) && !sector_free({a, b}, {b, a}, cones))
        return {Failure::gap, "passes " +
                                  format(Point{CGAL::to_double(v.x), CGAL::to_double(v.y)}) +
                                  " (about) with blocked parts on both sides"};
    }
    return {};
  }

  Verdict check_turn(Point p, Point w, Point q) const {
    std::vector<RingCone> ring_cones;
    for_edges_near(w.x, w.y, w.x, w.y, [&](const Edge& e) {
      if (on_box(w, e.u, e.w) && orient(e.u, e.w, w) == 0)
        ring_cones.push_back(cone_of(e, w == e.u, w == e.w));
    });
    const std::vector<Cone> cones = blocked_cones(std::move(ring_cones));
    if (cones.empty()) return {};
    if (sector_free({w, p}, {w, q}, cones) || sector_free({w, q}, {w, p}, cones)) return {};
    return {Failure::turn, "turns at " + format(w) + " across blocked parts on both sides"};
  }
};

ExactChecker::ExactChecker(const Scene& scene, CheckerOptions options)
    : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.options = options;
  s.radius = scene.agent.radius;
  double magnitude = 1.0;
  // Orients a ring with `blocked_inside` telling which side is blocked: counter-clockwise puts
  // the inside on the left. The lexicographically smallest vertex of a simple ring is a strictly
  // convex corner, so its orientation is the ring's.
  const auto oriented = [&](Ring ring, bool inside_on_left) {
    std::size_t i = 0;
    for (std::size_t k = 1; k < ring.size(); ++k)
      if (ring[k].x < ring[i].x || (ring[k].x == ring[i].x && ring[k].y < ring[i].y)) i = k;
    const std::size_t n = ring.size();
    const bool ccw = s.orient(ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]) > 0;
    if (ccw != inside_on_left) std::reverse(ring.begin(), ring.end());
    for (const Point& p : ring) magnitude = std::max({magnitude, std::abs(p.x), std::abs(p.y)});
    return ring;
  };
  Part outside;
  outside.name = "the outside of the bounds";
  outside.outside = true;
  outside.rings.push_back(oriented(scene.bounds, false));
  outside.box = bounding_box(scene.bounds);
  s.parts.push_back(std::move(outside));
  for (std::size_t k = 0; k < scene.obstacles.size(); ++k) {
    const Polygon& shape = scene.obstacles[k].shape;
    Part part;
    part.name = "obstacles[" + std::to_string(k) + "]";
    part.rings.push_back(oriented(shape.outer, true));
    for (const Ring& hole : shape.holes) part.rings.push_back(oriented(hole, false));
    part.box = bounding_box(shape.outer);
    s.parts.push_back(std::move(part));
  }
  std::vector<Entry> edge_entries, obstacle_entries;
  for (std::uint32_t p = 0; p < s.parts.size(); ++p) {
    const Part& part = s.parts[p];
    if (p > 0)
      obstacle_entries.push_back(
          {bg_box(part.box.min.x, part.box.min.y, part.box.max.x, part.box.max.y), p});
    for (std::uint32_t r = 0; r < part.rings.size(); ++r) {
      const Ring& ring = part.rings[r];
      for (std::uint32_t i = 0; i < ring.size(); ++i) {
        const Point u = ring[i], w = ring[(i + 1) % ring.size()];
        edge_entries.push_back(
            {bg_box(std::min(u.x, w.x), std::min(u.y, w.y), std::max(u.x, w.x), std::max(u.y, w.y)),
             std::uint32_t(s.edges.size())});
        s.edges.push_back({u, w, p, r, i});
      }
    }
  }
  s.edge_tree = Tree(edge_entries.begin(), edge_entries.end());
  s.obstacle_tree = Tree(obstacle_entries.begin(), obstacle_entries.end());
  // Edges within the radius of a box lie in the box grown by the radius; rounding the grown box
  // is covered many times over by the relative and absolute slack. Only which edges are tested
  // depends on it, never a decision.
  s.pad = s.radius * (1.0 + 1e-6) + 1e-9 * magnitude;
}

ExactChecker::~ExactChecker() = default;

double ExactChecker::radius() const {
  return impl_->radius;
}

CheckerCounters ExactChecker::counters() const {
  return {impl_->filtered_signs.load(), impl_->exact_signs.load()};
}

Verdict ExactChecker::check_point(Point p) const {
  return impl_->check_point(p);
}

Verdict ExactChecker::check_path(std::span<const Point> path) const {
  const Impl& s = *impl_;
  if (path.empty()) return {Failure::point_blocked, "the path has no waypoints"};
  // Waypoints with their index in the path; a repeated point is one waypoint.
  std::vector<std::pair<Point, std::size_t>> points;
  for (std::size_t i = 0; i < path.size(); ++i)
    if (points.empty() || !(points.back().first == path[i])) points.push_back({path[i], i});
  const auto at = [&](std::size_t k) {
    return "waypoint " + std::to_string(points[k].second) + " " + format(points[k].first) + ": ";
  };
  for (std::size_t k = 0; k < points.size(); ++k) {
    Verdict v = s.check_point(points[k].first);
    if (!v.valid()) return {v.failure, at(k) + v.reason, v.depth};
  }
  for (std::size_t k = 0; k + 1 < points.size(); ++k) {
    const Point a = points[k].first, b = points[k + 1].first;
    Verdict v = s.radius > 0 ? s.check_segment_disc(a, b) : s.check_segment_point(a, b);
    if (!v.valid())
      return {v.failure,
              "segment " + std::to_string(points[k].second) + " " + format(a) + " -> " + format(b) +
                  ": " + v.reason,
              v.depth};
  }
  if (s.radius == 0 && !s.options.open_gaps) {
    for (std::size_t k = 1; k + 1 < points.size(); ++k) {
      Verdict v = s.check_turn(points[k - 1].first, points[k].first, points[k + 1].first);
      if (!v.valid()) return {v.failure, at(k) + v.reason, v.depth};
    }
  }
  return {};
}

}  // namespace polynav::validity
