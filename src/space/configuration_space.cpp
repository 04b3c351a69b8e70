#include "configuration_space.hpp"

#include <CGAL/Boolean_set_operations_2.h>
#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Polygon_set_2.h>
#include <CGAL/Small_side_angle_bisector_decomposition_2.h>
#include <CGAL/minkowski_sum_2.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <mutex>
#include <numbers>
#include <unordered_map>

#include "../scene/validate.hpp"
#include "polynav/kernel/exact.hpp"

namespace polynav::detail {
namespace {

using Kernel = CGAL::Exact_predicates_exact_constructions_kernel;
using CgalPoint = Kernel::Point_2;
using CgalPolygon = CGAL::Polygon_2<Kernel>;
using CgalPolygonWithHoles = CGAL::Polygon_with_holes_2<Kernel>;
using CgalPolygonSet = CGAL::Polygon_set_2<Kernel>;

CgalPolygon to_cgal(const Ring& ring, CGAL::Orientation orientation) {
  CgalPolygon polygon;
  // Rings are validated simple with non-zero area at load, so the sign of the area decides the
  // orientation (CGAL's own orientation() asserts simplicity instead). A ring handed to CGAL the
  // wrong way round breaks its sweep, so the sign is exact.
  const bool counter_clockwise = exact::ring_orientation(ring) > 0;
  if (counter_clockwise == (orientation == CGAL::COUNTERCLOCKWISE)) {
    for (const Point& p : ring) polygon.push_back(CgalPoint(p.x, p.y));
  } else {
    for (auto it = ring.rbegin(); it != ring.rend(); ++it)
      polygon.push_back(CgalPoint(it->x, it->y));
  }
  return polygon;
}

CgalPolygonWithHoles to_cgal(const Polygon& shape) {
  // A valid polygon's holes may touch its outer ring or each other at single points, and CGAL
  // takes such contacts only at vertices both rings have (a vertex inside another ring's edge
  // makes the polygon invalid to its Boolean operations): such points become vertices of both.
  const Polygon split = with_contacts_as_vertices(shape);
  CgalPolygonWithHoles result(to_cgal(split.outer, CGAL::COUNTERCLOCKWISE));
  for (const Ring& hole : split.holes) result.add_hole(to_cgal(hole, CGAL::CLOCKWISE));
  return result;
}

// A regular polygon around the origin that contains the disc of `radius`: its inradius is at
// least `radius`, so every Minkowski sum with it contains the true sum with the disc.
// `rounding` is the largest distance a vertex of the result moves when it is rounded back to
// doubles: the inradius exceeds the radius by that, so the rounded boundary still keeps the
// agent's clearance.
CgalPolygon circumscribed_disc(double radius, double tolerance, double rounding) {
  const int sides = circumscribed_sides(radius, tolerance);
  // The disc's own vertices are rounded to doubles too; the relative margin keeps the inradius
  // >= radius + rounding despite that (its effect on the width is ~1e-12 * radius).
  const double circumradius =
      (radius + rounding) / std::cos(std::numbers::pi / sides) * (1.0 + 1e-12);
  CgalPolygon disc;
  for (int i = 0; i < sides; ++i) {
    const double angle = 2.0 * std::numbers::pi * i / sides;
    disc.push_back(CgalPoint(circumradius * std::cos(angle), circumradius * std::sin(angle)));
  }
  return disc;
}

// A double point near the exact vertex `v` on the free side (the left) of both boundary edges at
// it, u -> v and v -> w, decided exactly. Rounding a vertex where two obstacles' edges cross to
// nearest can put it a fraction of a unit in the last place inside an obstacle, and a point
// agent would then turn there. On the left of both lines the vertex is in free space, and so are
// its two edges: each lies on the left of its own line, as its other end does too. The cone of
// such points opens at v, so walking into it finds one.
Point round_into_free(const CgalPoint& u, const CgalPoint& v, const CgalPoint& w) {
  const Point nearest{CGAL::to_double(v.x()), CGAL::to_double(v.y())};
  const auto on_free_side = [&](Point q) {
    const CgalPoint exact_q(q.x, q.y);
    return CGAL::orientation(u, v, exact_q) != CGAL::RIGHT_TURN &&
           CGAL::orientation(v, w, exact_q) != CGAL::RIGHT_TURN;
  };
  // An input vertex converts exactly (its interval is a single double) and is already free.
  const auto ix = CGAL::to_interval(v.x()), iy = CGAL::to_interval(v.y());
  if (ix.first == ix.second && iy.first == iy.second) return nearest;
  if (on_free_side(nearest)) return nearest;

  // Candidates at growing distances: back along the incoming edge, on along the outgoing one
  // (on an axis-parallel edge these stay exactly on its line, so points on the obstacle's side
  // stay in free space), then into the cone along the bisector of the two directions.
  const Point pu{CGAL::to_double(u.x()), CGAL::to_double(u.y())};
  const Point pw{CGAL::to_double(w.x()), CGAL::to_double(w.y())};
  const auto unit = [](Point d) {
    const double n = std::hypot(d.x, d.y);
    return n > 0.0 ? Point{d.x / n, d.y / n} : Point{0.0, 0.0};
  };
  const Point a = unit({nearest.x - pu.x, nearest.y - pu.y});
  const Point b = unit({pw.x - nearest.x, pw.y - nearest.y});
  const double turn = a.x * b.y - a.y * b.x;
  Point into = turn > 0.0 ? Point{b.x - a.x, b.y - a.y} : Point{a.x - b.x, a.y - b.y};
  if (std::abs(turn) < 1e-12) into = {-a.y, a.x};  // straight on: the left normal
  into = unit(into);
  const double ulp = std::max(std::nextafter(std::abs(nearest.x), INFINITY) - std::abs(nearest.x),
                              std::nextafter(std::abs(nearest.y), INFINITY) - std::abs(nearest.y));
  // The cone is narrow when the edges are nearly parallel: a step of 2^k units finds room for a
  // double within it after about log2(1 / angle) doublings. The walk stops short of the
  // vertex's neighbours: a step that long would mean edges parallel to within rounding, which
  // leaves nothing better than the nearest double.
  const double reach =
      std::max(0.25 * std::min(distance(pu, nearest), distance(nearest, pw)), 2.0 * ulp);
  for (double step = ulp; step <= reach; step *= 2.0) {
    for (const Point d : {Point{-a.x, -a.y}, b, into}) {
      const Point q{nearest.x + d.x * step, nearest.y + d.y * step};
      if (on_free_side(q)) {
        return q;
      }
    }
  }
  return nearest;
}

// `into_free`: round each vertex with round_into_free; otherwise to its nearest double, which
// suits a boundary whose inflation keeps a margin of more than the rounding.
Ring to_ring(const CgalPolygon& polygon, bool into_free) {
  Ring ring;
  const std::size_t n = polygon.size();
  ring.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const CgalPoint& v = polygon[i];
    const Point q = into_free ? round_into_free(polygon[(i + n - 1) % n], v, polygon[(i + 1) % n])
                              : Point{CGAL::to_double(v.x()), CGAL::to_double(v.y())};
    // Distinct exact vertices can round to the same double; a zero-length edge carries nothing.
    if (ring.empty() || !(ring.back() == q)) ring.push_back(q);
  }
  while (ring.size() > 1 && ring.front() == ring.back()) ring.pop_back();
  return ring;
}

bool passes_a_vertex_twice(const Ring& ring) {
  std::vector<Point> sorted = ring;
  std::sort(sorted.begin(), sorted.end(),
            [](Point a, Point b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  return std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
}

// CGAL reports free regions that touch at single points as one polygon with holes whose rings
// pass through those points twice: a hole touching its obstacle's outer ring makes the region
// inside it and the region around the obstacle one such polygon, and so do obstacles touching in
// a checkerboard. A path cannot pass through such a point while gaps are closed, so they are
// separate components: the rings of component `c` (rings[first] on) are cut into loops there,
// each counter-clockwise loop bounds a component of its own (the largest keeps `c`, the others
// are numbered from `next`), and each clockwise loop is a hole of the smallest of them around it.
// FreeSpace joins them again at those points when gaps are open.
void split_pinched_component(std::vector<BoundaryRing>& rings, std::size_t first, std::uint32_t c,
                             std::uint32_t& next) {
  bool pinched = false;
  for (std::size_t r = first; r < rings.size() && !pinched; ++r)
    pinched = passes_a_vertex_twice(rings[r].points);
  if (!pinched) return;
  std::vector<Ring> loops;
  for (std::size_t r = first; r < rings.size(); ++r)
    split_at_repeated_vertices(rings[r].points, loops);
  std::vector<int> turn;
  std::vector<double> area;
  std::vector<std::size_t> outers;
  for (std::size_t i = 0; i < loops.size(); ++i) {
    turn.push_back(exact::ring_orientation(loops[i]));
    area.push_back(std::abs(signed_area2(loops[i])));
    if (turn.back() > 0) outers.push_back(i);
  }
  if (outers.size() < 2) return;  // one region after all: its rings stay as CGAL gave them
  std::sort(outers.begin(), outers.end(),
            [&](std::size_t a, std::size_t b) { return area[a] < area[b]; });
  std::vector<std::uint32_t> component(loops.size(), c);
  for (std::size_t k = 0; k + 1 < outers.size(); ++k) component[outers[k]] = next++;
  std::vector<Box> boxes;
  for (const std::size_t o : outers) boxes.push_back(bounding_box(loops[o]));
  for (std::size_t i = 0; i < loops.size(); ++i) {
    if (turn[i] >= 0) continue;
    const Box box = bounding_box(loops[i]);
    for (std::size_t k = 0; k < outers.size(); ++k) {
      // Loops meet only at vertices: the first vertex not on the outer loop decides.
      if (boxes[k].contains(box) &&
          exact::side_of_ring(loops[outers[k]], loops[i]) == exact::Side::inside) {
        component[i] = component[outers[k]];
        break;
      }
    }
  }
  rings.resize(first);
  for (std::size_t i = 0; i < loops.size(); ++i)
    rings.push_back({std::move(loops[i]), component[i], turn[i] > 0});
}

// The numbers that decide a part's sum with the disc: its rings' coordinates, each ring after
// its vertex count.
std::vector<double> shape_key(const Polygon& shape) {
  std::vector<double> key;
  const auto add = [&](const Ring& ring) {
    key.push_back(double(ring.size()));
    for (const Point& p : ring) key.insert(key.end(), {p.x, p.y});
  };
  add(shape.outer);
  for (const Ring& hole : shape.holes) add(hole);
  return key;
}

}  // namespace
}  // namespace polynav::detail

namespace polynav {

struct InflationCache::Impl {
  // The disc a sum was made with: agent radius, inflation tolerance, rounding margin.
  using Disc = std::array<double, 3>;
  struct Sum {
    detail::CgalPolygonWithHoles polygon;
    std::uint64_t build = 0;  // the last build that used it
  };
  struct DiscSums {
    std::map<std::vector<double>, Sum> sums;
    std::uint64_t build = 0;
  };
  static constexpr std::size_t max_discs = 32;

  std::mutex mutex;  // held for a whole build: the sums' lazy exact numbers are not thread-safe
  std::map<Disc, DiscSums> discs;
  std::uint64_t builds = 0;
  Counts counts;

  // Starts a build with `disc`: returns its sums, forgetting the least recently used disc
  // beyond max_discs.
  DiscSums& start(const Disc& disc) {
    ++builds;
    if (!discs.contains(disc) && discs.size() >= max_discs) {
      auto oldest = discs.begin();
      for (auto it = discs.begin(); it != discs.end(); ++it)
        if (it->second.build < oldest->second.build) oldest = it;
      discs.erase(oldest);
    }
    DiscSums& sums = discs[disc];
    sums.build = builds;
    return sums;
  }
  // The sum of `shape` (handed to CGAL as `part`) with the disc, from `sums` or computed.
  template <class Compute>
  const detail::CgalPolygonWithHoles& sum(DiscSums& sums, const Polygon& shape, Compute&& compute) {
    auto [it, added] = sums.sums.try_emplace(detail::shape_key(shape));
    if (added) {
      it->second.polygon = compute();
      ++counts.computed;
    } else {
      ++counts.reused;
    }
    it->second.build = builds;
    return it->second.polygon;
  }
  // Ends a build: the sums it did not use (obstacles removed or moved) are forgotten.
  void finish(DiscSums& sums) {
    std::erase_if(sums.sums, [&](const auto& entry) { return entry.second.build != builds; });
  }
};

InflationCache::InflationCache() : impl_(new Impl) {}
InflationCache::~InflationCache() = default;
InflationCache::Counts InflationCache::counts() const {
  const std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->counts;
}

}  // namespace polynav

namespace polynav::detail {

int circumscribed_sides(double radius, double tolerance) {
  if (radius <= 0.0) return 0;
  // circumradius = radius / cos(pi / n) <= radius + tolerance  <=>  n >= pi / acos(r / (r + t)).
  const double needed = std::numbers::pi / std::acos(radius / (radius + tolerance));
  return std::clamp(static_cast<int>(std::ceil(needed)), 8, 1024);
}

std::vector<BoundaryRing> build_configuration_space(const Scene& scene, double tolerance,
                                                    const BuildClock& clock,
                                                    InflationCache* reuse) {
  // With a cache, the sums are made and joined under its lock, and every exact object derived
  // from them is gone before it is released (it is declared first, so it is destroyed last).
  std::unique_lock<std::mutex> lock;
  const double radius = scene.agent.radius;
  Box box = bounding_box(scene.bounds);
  const double margin = std::max({box.width(), box.height(), 1.0}) + 4.0 * radius;
  const Ring frame = {{box.min.x - margin, box.min.y - margin},
                      {box.max.x + margin, box.min.y - margin},
                      {box.max.x + margin, box.max.y + margin},
                      {box.min.x - margin, box.max.y + margin}};

  // Everything blocked, as polygons with holes: the outside of the bounds (a frame with the
  // bounds as its hole, which lies well inside it) and every obstacle, each grown by the agent's
  // disc.
  const Polygon outside{frame, {scene.bounds}};
  const auto part = [&](std::size_t i) {
    if (i > 0) return to_cgal(scene.obstacles[i - 1].shape);
    CgalPolygonWithHoles polygon(to_cgal(frame, CGAL::COUNTERCLOCKWISE));
    polygon.add_hole(to_cgal(scene.bounds, CGAL::CLOCKWISE));
    return polygon;
  };
  std::vector<CgalPolygonWithHoles> blocked;
  blocked.reserve(scene.obstacles.size() + 1);

  if (radius <= 0.0) {
    for (std::size_t i = 0; i <= scene.obstacles.size(); ++i) blocked.push_back(part(i));
  } else {
    // Vertices of the sum are rounded to nearest on the way back to doubles (to_ring): by at
    // most half a unit in the last place of the largest coordinate in each axis. Two units
    // cover that with room, and far from the origin they are more than 1e-12 of the radius.
    // (A point agent has no such margin: its vertices are rounded into free space instead.)
    const double far = std::max(
        {std::abs(frame[0].x), std::abs(frame[0].y), std::abs(frame[2].x), std::abs(frame[2].y)});
    const double rounding = 2.0 * (std::nextafter(far, INFINITY) - far);
    const CgalPolygon disc = circumscribed_disc(radius, tolerance, rounding);
    // A convex part and the (convex) disc are summed as one convex piece each, their edges
    // merged by angle, through CGAL's decomposition strategy; the reduced convolution, kept
    // for every other part, builds an arrangement of candidate edges first, about three times
    // the work for the rectangles most scenes are made of.
    const CGAL::Small_side_angle_bisector_decomposition_2<Kernel> convex_pieces;
    const auto grown = [&](std::size_t i) {
      clock.check("free space (inflating the obstacles)");
      const CgalPolygonWithHoles exact = part(i);
      if (exact.number_of_holes() == 0 && exact.outer_boundary().is_convex())
        return CGAL::minkowski_sum_2(exact.outer_boundary(), disc, convex_pieces);
      return CGAL::minkowski_sum_2(exact, disc);
    };
    if (reuse == nullptr) {
      for (std::size_t i = 0; i <= scene.obstacles.size(); ++i) blocked.push_back(grown(i));
    } else {
      InflationCache::Impl& cache = reuse->impl();
      lock = std::unique_lock<std::mutex>(cache.mutex);
      InflationCache::Impl::DiscSums& sums = cache.start({radius, tolerance, rounding});
      for (std::size_t i = 0; i <= scene.obstacles.size(); ++i) {
        const Polygon& shape = i == 0 ? outside : scene.obstacles[i - 1].shape;
        blocked.push_back(cache.sum(sums, shape, [&] { return grown(i); }));
      }
      cache.finish(sums);
    }
  }

  // Overlapping and touching parts merge here: the union is regularised, so obstacles that
  // touch become one blocked set and the gap between them is no passage.
  clock.check("free space");
  CgalPolygonSet blocked_set;
  blocked_set.join(blocked.begin(), blocked.end());
  CgalPolygonSet free_set(to_cgal(frame, CGAL::COUNTERCLOCKWISE));
  free_set.difference(blocked_set);

  std::vector<CgalPolygonWithHoles> components;
  free_set.polygons_with_holes(std::back_inserter(components));

  std::vector<BoundaryRing> rings;
  std::uint32_t next_component = std::uint32_t(components.size());
  for (std::uint32_t c = 0; c < components.size(); ++c) {
    const CgalPolygonWithHoles& component = components[c];
    const std::size_t first = rings.size();
    // CGAL returns outer boundaries counter-clockwise and holes clockwise: free on the left.
    Ring outer = to_ring(component.outer_boundary(), radius == 0.0);
    if (outer.size() >= 3) rings.push_back({std::move(outer), c, true});
    for (const CgalPolygon& hole : component.holes()) {
      Ring ring = to_ring(hole, radius == 0.0);
      if (ring.size() >= 3) rings.push_back({std::move(ring), c, false});
    }
    split_pinched_component(rings, first, c, next_component);
  }
  return rings;
}

bool cgal_takes(const Polygon& shape) {
  return CGAL::is_valid_polygon_with_holes(to_cgal(shape), CGAL::Gps_segment_traits_2<Kernel>());
}

}  // namespace polynav::detail
