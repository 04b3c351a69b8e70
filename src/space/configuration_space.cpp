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
#include <optional>
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

// The double nearest an exact value (the lower one on a tie).
template <class Exact>
double nearest_double(const Exact& value) {
  const std::pair<double, double> tight = CGAL::to_interval(value);
  if (tight.first == tight.second) return tight.first;
  return value > (Exact(tight.first) + Exact(tight.second)) / 2 ? tight.second : tight.first;
}

// The point of doubles nearest an exact point: a function of the point alone. (A lazy point's
// own approximation depends on how it was constructed, so the same vertex reached through
// different Boolean operations could otherwise round a unit in the last place apart.)
Point nearest_point(const CgalPoint& p) {
  const auto& approximate = p.approx();
  if (approximate.x().inf() == approximate.x().sup() &&
      approximate.y().inf() == approximate.y().sup())
    return {approximate.x().inf(), approximate.y().inf()};  // doubles already
  const auto& exact = p.exact();
  return {nearest_double(exact.x()), nearest_double(exact.y())};
}

// A double point near the exact vertex `v` on the free side (the left) of both boundary edges at
// it, u -> v and v -> w, decided exactly. Rounding a vertex where two obstacles' edges cross to
// nearest can put it a fraction of a unit in the last place inside an obstacle, and a point
// agent would then turn there. On the left of both lines the vertex is in free space, and so are
// its two edges: each lies on the left of its own line, as its other end does too. The cone of
// such points opens at v, so walking into it finds one.
Point round_into_free(const CgalPoint& u, const CgalPoint& v, const CgalPoint& w) {
  const Point nearest = nearest_point(v);
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

// A vertex of free space's boundary, exact and rounded (nearest_point).
struct Vertex {
  CgalPoint exact;
  Point at;
};

using VertexRing = std::vector<Vertex>;

// `into_free`: round each vertex with round_into_free; otherwise to its nearest double, which
// suits a boundary whose inflation keeps a margin of more than the rounding.
Ring to_ring(const VertexRing& polygon, bool into_free) {
  Ring ring;
  const std::size_t n = polygon.size();
  ring.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Point q = into_free ? round_into_free(polygon[(i + n - 1) % n].exact, polygon[i].exact,
                                                polygon[(i + 1) % n].exact)
                              : polygon[i].at;
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

CGAL::Bbox_2 empty_box() {
  return {INFINITY, INFINITY, -INFINITY, -INFINITY};
}

bool is_empty(const CGAL::Bbox_2& box) {
  return box.xmin() > box.xmax();
}

// Makes `joined` the union of `parts`. Without a union it joins them whole; with the union of
// parts that differ from them only inside the box `changed`, it keeps that union outside a window
// around the box, and inside the window joins again the parts that reach into it, clipped to
// it. The operations are exact, so the result is the union itself, with its edges split where
// the window's sides crossed them (free_rings reads both the same). An edit that reaches most
// parts is joined whole. Returns whether it kept the union (joining locally, or not at all when
// nothing changed).
bool rejoin(std::optional<CgalPolygonSet>& joined, const std::vector<CgalPolygonWithHoles>& parts,
            const CGAL::Bbox_2& changed) {
  const auto whole = [&] {
    joined.emplace();  // in place: copying an arrangement costs about as much as a sweep
    joined->join(parts.begin(), parts.end());
    return false;
  };
  if (!joined.has_value()) return whole();
  if (is_empty(changed)) return true;
  // A margin keeps the window's sides off the changed parts' own edges (an overlap along a
  // line costs the sweep exact arithmetic); its corners are doubles, exact as they are.
  const double size = std::max(changed.xmax() - changed.xmin(), changed.ymax() - changed.ymin());
  const double far = std::max({std::abs(changed.xmin()), std::abs(changed.xmax()),
                               std::abs(changed.ymin()), std::abs(changed.ymax())});
  const double margin = 0.0625 * size + 1e-9 * (1.0 + far);
  const CGAL::Bbox_2 window(changed.xmin() - margin, changed.ymin() - margin,
                            changed.xmax() + margin, changed.ymax() + margin);
  std::vector<CgalPolygonWithHoles> inside;
  std::size_t part_edges = 0;
  for (const CgalPolygonWithHoles& part : parts) {
    part_edges += part.outer_boundary().size();
    for (const CgalPolygon& hole : part.holes()) part_edges += hole.size();
    if (CGAL::do_overlap(part.outer_boundary().bbox(), window)) inside.push_back(part);
  }
  // The window costs two passes over the kept union, each about as dear per edge as joining
  // the parts whole is per part edge where they do not overlap; where they overlap, the whole
  // join pays for every crossing too. Measured on the bundled scenes (bench_free_space,
  // FreeSpace/<scene>/moved), the window wins where overlaps have merged the parts' edges into
  // a union of at most two thirds as many (the maze: 1,455 of 2,891, twice as fast), and loses
  // where the parts stand apart (the forest: every edge kept, 1.4 times slower).
  if (2 * inside.size() > parts.size() ||
      3 * joined->arrangement().number_of_edges() > 2 * part_edges)
    return whole();
  CgalPolygon clip;
  clip.push_back(CgalPoint(window.xmin(), window.ymin()));
  clip.push_back(CgalPoint(window.xmax(), window.ymin()));
  clip.push_back(CgalPoint(window.xmax(), window.ymax()));
  clip.push_back(CgalPoint(window.xmin(), window.ymax()));
  CgalPolygonSet local;
  local.join(inside.begin(), inside.end());
  local.intersection(clip);
  joined->difference(clip);
  joined->join(local);
  return true;
}

// By the rounded point, then exactly: an order of the exact points that seldom needs their
// exact values (points sharing a coordinate, as the corners of parallel walls do, would make the
// exact comparison fall back to them).
bool vertex_less(const Vertex& a, const Vertex& b) {
  if (a.at.x != b.at.x) return a.at.x < b.at.x;
  if (a.at.y != b.at.y) return a.at.y < b.at.y;
  return CGAL::compare_xy(a.exact, b.exact) == CGAL::SMALLER;
}

bool vertex_equal(const Vertex& a, const Vertex& b) {
  return a.at == b.at && a.exact == b.exact;
}

// Rings compared vertex by vertex, the shorter first on a tie.
bool ring_less(const VertexRing& a, const VertexRing& b) {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), vertex_less);
}

// The ring without the vertices where it runs straight on, except `pinches` (points the
// boundary passes more than once, where components or gaps meet: FreeSpace reads those from
// the rings), turned to start where its sequence of vertices is least. Boolean operations keep
// the vertices where they split an edge, so the same region read from arrangements made in
// different ways differs only in such vertices and in where each ring starts; this makes the
// rings of free space depend on the region alone. Decided exactly.
VertexRing canonical_ring(const VertexRing& all, const VertexRing& pinches) {
  const std::size_t n = all.size();
  const auto needed = [&](std::size_t i) {
    return !CGAL::collinear(all[(i + n - 1) % n].exact, all[i].exact, all[(i + 1) % n].exact) ||
           std::binary_search(pinches.begin(), pinches.end(), all[i], vertex_less);
  };
  // A straight run's inner vertices all go: each is collinear with its original neighbours,
  // which lie on the run's line too.
  VertexRing kept;
  kept.reserve(n);
  for (std::size_t i = 0; i < n; ++i)
    if (needed(i)) kept.push_back(all[i]);
  if (kept.size() < 3) return all;  // not a region's boundary: nothing to simplify
  const std::size_t m = kept.size();
  std::size_t best = 0;
  for (std::size_t i = 1; i < m; ++i) {
    if (vertex_less(kept[i], kept[best])) {
      best = i;
    } else if (vertex_equal(kept[i], kept[best])) {  // a pinch at the least vertex
      for (std::size_t k = 1; k < m; ++k) {
        const Vertex &a = kept[(i + k) % m], &b = kept[(best + k) % m];
        if (vertex_equal(a, b)) continue;
        if (vertex_less(a, b)) best = i;
        break;
      }
    }
  }
  std::rotate(kept.begin(), kept.begin() + std::ptrdiff_t(best), kept.end());
  return kept;
}

// Free space's components (the bounded faces outside `blocked`) as boundary rings, in an order
// that depends on the region alone (canonical_ring, components ordered by their outer rings and
// holes by theirs).
std::vector<BoundaryRing> free_rings(const CgalPolygonSet& blocked, bool into_free) {
  // A face's boundary runs with the face on its left: its outer boundary counter-clockwise, its
  // holes clockwise, as free space's rings run. Each vertex is rounded once, here.
  const auto ring_of = [](auto halfedge) {
    VertexRing ring;
    const auto first = halfedge;
    do {
      const CgalPoint& p = halfedge->target()->point();
      ring.push_back({p, nearest_point(p)});
    } while (++halfedge != first);
    return ring;
  };
  struct Face {
    VertexRing outer;
    std::vector<VertexRing> holes;
  };
  std::vector<Face> faces;
  const auto& arrangement = blocked.arrangement();
  for (auto f = arrangement.faces_begin(); f != arrangement.faces_end(); ++f) {
    if (f->contained() || f->is_unbounded()) continue;
    Face face{ring_of(f->outer_ccb()), {}};
    for (auto hole = f->holes_begin(); hole != f->holes_end(); ++hole)
      face.holes.push_back(ring_of(*hole));
    faces.push_back(std::move(face));
  }

  VertexRing pinches;
  for (const Face& face : faces) {
    pinches.insert(pinches.end(), face.outer.begin(), face.outer.end());
    for (const VertexRing& hole : face.holes)
      pinches.insert(pinches.end(), hole.begin(), hole.end());
  }
  std::sort(pinches.begin(), pinches.end(), vertex_less);
  std::size_t repeated = 0;  // each point that occurs more than once, once
  for (std::size_t i = 1; i < pinches.size(); ++i)
    if (vertex_equal(pinches[i - 1], pinches[i]) &&
        (repeated == 0 || !vertex_equal(pinches[repeated - 1], pinches[i])))
      pinches[repeated++] = pinches[i];
  pinches.resize(repeated);

  struct Component {
    VertexRing outer;
    std::vector<VertexRing> holes;
  };
  std::vector<Component> components;
  components.reserve(faces.size());
  for (const Face& face : faces) {
    Component c{canonical_ring(face.outer, pinches), {}};
    for (const VertexRing& hole : face.holes) c.holes.push_back(canonical_ring(hole, pinches));
    std::sort(c.holes.begin(), c.holes.end(), ring_less);
    components.push_back(std::move(c));
  }
  std::sort(components.begin(), components.end(),
            [](const Component& a, const Component& b) { return ring_less(a.outer, b.outer); });

  std::vector<BoundaryRing> rings;
  std::uint32_t next_component = std::uint32_t(components.size());
  for (std::uint32_t c = 0; c < components.size(); ++c) {
    const std::size_t first = rings.size();
    Ring outer = to_ring(components[c].outer, into_free);
    if (outer.size() >= 3) rings.push_back({std::move(outer), c, true});
    for (const VertexRing& hole : components[c].holes) {
      Ring ring = to_ring(hole, into_free);
      if (ring.size() >= 3) rings.push_back({std::move(ring), c, false});
    }
    split_pinched_component(rings, first, c, next_component);
  }
  return rings;
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
    // The union of the sums, kept for the next build to join again only where its parts
    // differ; it holds when the last build with the disc finished (a failed one leaves sums
    // that are not in it).
    std::optional<detail::CgalPolygonSet> joined;
    bool finished = false;
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
    if (!sums.finished) sums.joined.reset();
    sums.finished = false;
    return sums;
  }
  // The sum of `shape` with the disc, from `sums` or made by `compute` (then `changed` grows
  // by its box).
  template <class Compute>
  const detail::CgalPolygonWithHoles& sum(DiscSums& sums, const Polygon& shape, Compute&& compute,
                                          CGAL::Bbox_2& changed) {
    auto [it, added] = sums.sums.try_emplace(detail::shape_key(shape));
    if (added) {
      try {
        it->second.polygon = compute();
      } catch (...) {  // out of time: no empty sum may stay behind for the next build to reuse
        sums.sums.erase(it);
        throw;
      }
      changed += it->second.polygon.outer_boundary().bbox();
      ++counts.computed;
    } else {
      ++counts.reused;
    }
    it->second.build = builds;
    return it->second.polygon;
  }
  // Ends a build: the sums it did not use (obstacles removed or moved) are forgotten, and
  // `changed` grows by their boxes.
  void finish(DiscSums& sums, CGAL::Bbox_2& changed) {
    std::erase_if(sums.sums, [&](const auto& entry) {
      if (entry.second.build == builds) return false;
      changed += entry.second.polygon.outer_boundary().bbox();
      return true;
    });
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
      CGAL::Bbox_2 changed = empty_box();
      for (std::size_t i = 0; i <= scene.obstacles.size(); ++i) {
        const Polygon& shape = i == 0 ? outside : scene.obstacles[i - 1].shape;
        blocked.push_back(cache.sum(
            sums, shape, [&] { return grown(i); }, changed));
      }
      cache.finish(sums, changed);
      clock.check("free space");
      if (detail::rejoin(sums.joined, blocked, changed)) ++cache.counts.joined_locally;
      sums.finished = true;
      return free_rings(*sums.joined, radius == 0.0);
    }
  }

  // Overlapping and touching parts merge here: the union is regularised, so obstacles that
  // touch become one blocked set and the gap between them is no passage.
  clock.check("free space");
  CgalPolygonSet joined;
  joined.join(blocked.begin(), blocked.end());
  return free_rings(joined, radius == 0.0);
}

bool cgal_takes(const Polygon& shape) {
  return CGAL::is_valid_polygon_with_holes(to_cgal(shape), CGAL::Gps_segment_traits_2<Kernel>());
}

}  // namespace polynav::detail
