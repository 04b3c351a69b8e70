#include "polynav/space/free_space.hpp"

#include <algorithm>
#include <boost/function_output_iterator.hpp>
#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>
#include <cmath>
#include <limits>
#include <sstream>

#include "configuration_space.hpp"
#include "exact.hpp"

namespace polynav {
namespace {

namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;
using IndexPoint = bg::model::point<double, 2, bg::cs::cartesian>;
using IndexBox = bg::model::box<IndexPoint>;
using IndexSegment = bg::model::segment<IndexPoint>;
using IndexEntry = std::pair<IndexBox, std::uint32_t>;

// One directed boundary edge, free space on its left. Edges of a ring are stored contiguously
// in ring order, so the edge before edge e of the same ring is found without a lookup.
struct Edge {
  Point a;
  Point b;
  std::uint32_t ring;
};

// A boundary edge seen from one of its end vertices: the ray from that vertex along the edge.
// Free space lies on the left of every directed edge, so the angular sector just
// counter-clockwise of an outgoing ray is free and the one just counter-clockwise of an
// incoming (reversed) ray is blocked. Around a vertex the sectors alternate; this holds however
// the rings pair the edges at a vertex where several blocked parts touch.
struct Ray {
  Point toward;
  bool outgoing;
};

using exact::same_direction;

// The point of segment uv nearest to p (a construction: used for distances and snapping, never
// for a decision).
Point closest_on_segment(Point u, Point v, Point p) {
  const Point uv = v - u;
  const double length2 = dot(uv, uv);
  if (length2 == 0.0) return u;
  return u + std::clamp(dot(p - u, uv) / length2, 0.0, 1.0) * uv;
}

// Whether ray r1 comes before r2 sweeping clockwise around v from direction q (angle 0 first).
bool clockwise_before(Point v, Point q, Point r1, Point r2) {
  // Half 0: angle in [0, pi) clockwise from q; half 1: [pi, 2 pi).
  const auto half = [&](Point r) {
    const int o = exact::orientation(v, q, r);
    return o < 0 || (o == 0 && same_direction(v, q, r)) ? 0 : 1;
  };
  const int h1 = half(r1), h2 = half(r2);
  if (h1 != h2) return h1 < h2;
  const int o = exact::orientation(v, r1, r2);
  if (o != 0) return o < 0;
  // Same direction (never for a valid boundary) or opposite (only possible across halves).
  return exact::orientation(v, q, r1) == 0 && same_direction(v, q, r1);
}

// Whether the directions just counter-clockwise of direction q at v are free: decided by the
// first ray at or clockwise of q.
bool free_after(Point v, Point q, const std::vector<Ray>& rays) {
  const Ray* first = &rays.front();
  for (const Ray& r : rays)
    if (clockwise_before(v, q, r.toward, first->toward)) first = &r;
  return first->outgoing;
}

// Whether direction q at v lies in the closure of free space.
bool free_direction(Point v, Point q, const std::vector<Ray>& rays) {
  for (const Ray& r : rays)
    if (exact::orientation(v, r.toward, q) == 0 && same_direction(v, r.toward, q)) return true;
  return free_after(v, q, rays);
}

}  // namespace

struct FreeSpace::Impl {
  Agent agent;
  std::vector<Region> regions;
  std::vector<Box> region_boxes;
  Ring original_bounds;
  std::vector<Obstacle> original_obstacles;
  bool given_free_space = false;  // the scene defined free space directly (map, mesh)
  double tolerance = 0.0;

  std::vector<BoundaryRing> rings;
  std::vector<std::uint32_t> ring_begin;  // first edge of each ring; ring_begin.back() = edges
  std::vector<double> ring_area;          // |area| of each ring
  std::vector<Edge> edges;
  std::size_t components = 0;
  Box box;
  double area = 0.0;
  double min_cost = 1.0;
  bool has_heights = false;
  bgi::rtree<IndexEntry, bgi::rstar<16>> index;
  double index_pad = 0.0;

  // Point location without long rays: a uniform grid of buckets over the box, each listing the
  // edges that touch it and a reference point of known status. A point's status is its
  // bucket's reference status flipped once per edge crossing the segment between them, and
  // only the bucket's own edges can cross that segment (the bucket is convex).
  struct Locator {
    Point origin;
    double bucket_w = 1.0, bucket_h = 1.0;
    int nx = 0, ny = 0;
    std::vector<std::uint32_t> offsets;  // CSR: edges of bucket b in edge_ids[offsets[b]..]
    std::vector<std::uint32_t> edge_ids;
    std::vector<Point> reference;
    std::vector<std::uint8_t> reference_free;
    int bucket_x(double x) const { return std::clamp(int((x - origin.x) / bucket_w), 0, nx - 1); }
    int bucket_y(double y) const { return std::clamp(int((y - origin.y) / bucket_h), 0, ny - 1); }
  } locator;

  template <class Predicate, class Visit>
  void for_each_edge(const Predicate& predicate, Visit&& visit) const {
    index.query(predicate, boost::make_function_output_iterator(
                               [&](const IndexEntry& entry) { visit(entry.second); }));
  }

  void build_index();
  void build_locator();
  // Whether segment c->p crosses edge e, for c and p on no edge: endpoints of e on the line cp
  // count as lying on its left (a symbolic perturbation of the line), so a crossing through a
  // vertex counts exactly once.
  bool crosses(Point c, Point p, std::uint32_t e) const {
    const Point u = edges[e].a, v = edges[e].b;
    const bool u_left = exact::orientation(c, p, u) >= 0, v_left = exact::orientation(c, p, v) >= 0;
    if (u_left == v_left) return false;
    return exact::orientation(u, v, c) * exact::orientation(u, v, p) < 0;
  }
  void label_components_by_nesting();
  // Crossing parity of a ray from p towards +x; sets on_boundary when p lies on an edge.
  // With `per_ring`, also counts crossings per ring.
  bool ray_parity(Point p, bool& on_boundary, std::vector<std::uint32_t>* per_ring) const;
};

void FreeSpace::Impl::build_index() {
  std::vector<IndexEntry> entries;
  ring_begin.clear();
  for (std::uint32_t r = 0; r < rings.size(); ++r) {
    ring_begin.push_back(static_cast<std::uint32_t>(edges.size()));
    const Ring& pts = rings[r].points;
    for (std::size_t i = 0; i < pts.size(); ++i) {
      const Point a = pts[i], b = pts[(i + 1) % pts.size()];
      const auto id = static_cast<std::uint32_t>(edges.size());
      edges.push_back({a, b, r});
      entries.emplace_back(IndexBox(IndexPoint(std::min(a.x, b.x), std::min(a.y, b.y)),
                                    IndexPoint(std::max(a.x, b.x), std::max(a.y, b.y))),
                           id);
      box.expand(a);
    }
    const double signed_area = 0.5 * signed_area2(pts);
    ring_area.push_back(std::abs(signed_area));
    area += signed_area;
  }
  ring_begin.push_back(static_cast<std::uint32_t>(edges.size()));
  // The index only filters; exact predicates decide. Boxes are padded so that Boost's
  // floating-point segment-box test (error ~1e-16 of the coordinates) can never drop an edge
  // that touches a query segment exactly.
  index_pad = 1e-9 * std::max({box.width(), box.height(), std::abs(box.min.x), std::abs(box.min.y),
                               std::abs(box.max.x), std::abs(box.max.y), 1e-300});
  for (IndexEntry& entry : entries) {
    entry.first.min_corner().set<0>(entry.first.min_corner().get<0>() - index_pad);
    entry.first.min_corner().set<1>(entry.first.min_corner().get<1>() - index_pad);
    entry.first.max_corner().set<0>(entry.first.max_corner().get<0>() + index_pad);
    entry.first.max_corner().set<1>(entry.first.max_corner().get<1>() + index_pad);
  }
  index = decltype(index)(entries.begin(), entries.end());  // packing (STR bulk load)
  build_locator();
}

void FreeSpace::Impl::build_locator() {
  Locator& loc = locator;
  if (edges.empty()) return;
  // About two edges per bucket, at most 2048 buckets a side.
  const double cells = std::max(1.0, double(edges.size()) / 2.0);
  const double aspect = std::max(box.width(), 1e-300) / std::max(box.height(), 1e-300);
  loc.nx = std::clamp(int(std::sqrt(cells * aspect)), 1, 2048);
  loc.ny = std::clamp(int(std::sqrt(cells / aspect)), 1, 2048);
  loc.origin = box.min;
  loc.bucket_w = box.width() > 0 ? box.width() / loc.nx : 1.0;
  loc.bucket_h = box.height() > 0 ? box.height() / loc.ny : 1.0;
  const std::size_t buckets = std::size_t(loc.nx) * loc.ny;

  // Edges to buckets, by each edge's bounding box (conservative: an edge listed in a bucket it
  // misses only costs a test).
  std::vector<std::uint32_t> counts(buckets + 1, 0);
  const auto for_buckets = [&](const Edge& e, auto&& f) {
    const int x0 = loc.bucket_x(std::min(e.a.x, e.b.x)), x1 = loc.bucket_x(std::max(e.a.x, e.b.x));
    const int y0 = loc.bucket_y(std::min(e.a.y, e.b.y)), y1 = loc.bucket_y(std::max(e.a.y, e.b.y));
    for (int y = std::max(0, y0 - 1); y <= std::min(loc.ny - 1, y1 + 1); ++y)
      for (int x = std::max(0, x0 - 1); x <= std::min(loc.nx - 1, x1 + 1); ++x)
        f(std::size_t(y) * loc.nx + x);
  };
  for (const Edge& e : edges) for_buckets(e, [&](std::size_t b) { ++counts[b + 1]; });
  for (std::size_t b = 0; b < buckets; ++b) counts[b + 1] += counts[b];
  loc.offsets = counts;
  loc.edge_ids.resize(counts.back());
  for (std::uint32_t id = 0; id < edges.size(); ++id)
    for_buckets(edges[id], [&](std::size_t b) { loc.edge_ids[counts[b]++] = id; });

  // Reference points: bucket centres, moved off any edge through them; their status by one ray
  // per bucket row, then along the row by crossings between neighbouring references.
  loc.reference.resize(buckets);
  loc.reference_free.assign(buckets, 0);
  std::vector<std::uint32_t> seen(edges.size(), 0);
  std::uint32_t stamp = 0;
  for (int y = 0; y < loc.ny; ++y) {
    for (int x = 0; x < loc.nx; ++x) {
      const std::size_t b = std::size_t(y) * loc.nx + x;
      const double fx[] = {0.5, 0.382, 0.618, 0.271, 0.729, 0.153};
      for (double f : fx) {
        const Point c{loc.origin.x + (x + f) * loc.bucket_w,
                      loc.origin.y + (y + 1.0 - f) * loc.bucket_h};
        loc.reference[b] = c;
        bool on_edge = false;
        for (std::uint32_t k = loc.offsets[b]; k < loc.offsets[b + 1] && !on_edge; ++k)
          on_edge = exact::on_segment(edges[loc.edge_ids[k]].a, edges[loc.edge_ids[k]].b, c);
        if (!on_edge) break;
      }
      if (x == 0) {
        bool on_boundary = false;
        loc.reference_free[b] = ray_parity(loc.reference[b], on_boundary, nullptr) ? 1 : 0;
        continue;
      }
      // The segment between the two references lies in the union of the two buckets.
      const std::size_t a = b - 1;
      bool flip = false;
      ++stamp;
      for (std::size_t bucket : {a, b}) {
        for (std::uint32_t k = loc.offsets[bucket]; k < loc.offsets[bucket + 1]; ++k) {
          const std::uint32_t e = loc.edge_ids[k];
          if (seen[e] == stamp) continue;
          seen[e] = stamp;
          if (crosses(loc.reference[a], loc.reference[b], e)) flip = !flip;
        }
      }
      loc.reference_free[b] = loc.reference_free[a] ^ (flip ? 1 : 0);
    }
  }
}

bool FreeSpace::Impl::ray_parity(Point p, bool& on_boundary,
                                 std::vector<std::uint32_t>* per_ring) const {
  on_boundary = false;
  bool odd = false;
  if (box.empty() || p.x > box.max.x) return false;
  const IndexBox ray(IndexPoint(p.x, p.y), IndexPoint(box.max.x, p.y));
  for_each_edge(bgi::intersects(ray), [&](std::uint32_t e) {
    if (on_boundary) return;
    const Point u = edges[e].a, v = edges[e].b;
    if ((u.y > p.y) != (v.y > p.y)) {
      const int o = exact::orientation(u, v, p);
      if (o == 0) {
        on_boundary = true;
      } else if ((o > 0) == (v.y > u.y)) {
        odd = !odd;
        if (per_ring) ++(*per_ring)[edges[e].ring];
      }
    } else if (exact::on_segment(u, v, p)) {
      on_boundary = true;
    }
  });
  return odd;
}

void FreeSpace::Impl::label_components_by_nesting() {
  // Rings given directly (maps, meshes) come without component labels: an outer ring (counter-
  // clockwise) starts a component, and each hole belongs to the smallest outer ring around it.
  std::vector<std::uint32_t> outers;
  for (std::uint32_t r = 0; r < rings.size(); ++r) {
    rings[r].outer = signed_area2(rings[r].points) > 0.0;
    if (rings[r].outer) outers.push_back(r);
  }
  std::sort(outers.begin(), outers.end(),
            [&](std::uint32_t a, std::uint32_t b) { return ring_area[a] < ring_area[b]; });
  std::vector<Box> outer_boxes;
  for (std::uint32_t c = 0; c < outers.size(); ++c) {
    rings[outers[c]].component = c;
    outer_boxes.push_back(bounding_box(rings[outers[c]].points));
  }
  components = outers.size();
  for (BoundaryRing& ring : rings) {
    if (ring.outer) continue;
    ring.component = 0;
    const Box hole_box = bounding_box(ring.points);
    for (std::uint32_t c = 0; c < outers.size(); ++c) {
      const Box& ob = outer_boxes[c];
      if (hole_box.min.x < ob.min.x || hole_box.min.y < ob.min.y || hole_box.max.x > ob.max.x ||
          hole_box.max.y > ob.max.y)
        continue;
      // A hole may touch its outer ring at shared vertices; the first vertex that is not on
      // the outer ring decides.
      exact::Side side = exact::Side::boundary;
      for (const Point& p : ring.points) {
        side = exact::side_of_ring(rings[outers[c]].points, p);
        if (side != exact::Side::boundary) break;
      }
      if (side != exact::Side::outside) {
        ring.component = c;
        break;
      }
    }
  }
}

FreeSpace::FreeSpace(const Scene& scene, FreeSpaceOptions options) : impl_(new Impl) {
  Impl& s = *impl_;
  s.agent = scene.agent;
  s.regions = scene.regions;
  s.original_bounds = scene.bounds;
  s.original_obstacles = scene.obstacles;
  s.given_free_space = !scene.free_boundary.empty();
  s.tolerance =
      options.inflation_tolerance > 0.0 ? options.inflation_tolerance : 0.01 * scene.agent.radius;
  for (const Region& region : s.regions) {
    s.region_boxes.push_back(bounding_box(region.polygon));
    s.min_cost = std::min(s.min_cost, region.cost);
    s.has_heights = s.has_heights || region.height.has_value();
  }

  if (s.given_free_space && scene.agent.radius == 0.0) {
    for (const Ring& ring : scene.free_boundary) s.rings.push_back({ring, 0, false});
    s.build_index();
    s.label_components_by_nesting();
  } else {
    if (s.given_free_space && scene.obstacles.empty())
      throw InputError(
          {scene.source.string(), 0, 0, "agent.radius"},
          "an agent radius > 0 is not supported yet for scenes whose free space is "
          "given as a mesh; found radius " +
              [&] {
                std::ostringstream r;
                r << scene.agent.radius;
                return r.str();
              }());
    s.rings = detail::build_configuration_space(scene, s.tolerance);
    std::uint32_t max_component = 0;
    for (const BoundaryRing& ring : s.rings)
      max_component = std::max(max_component, ring.component);
    s.components = s.rings.empty() ? 0 : max_component + 1;
    s.build_index();
  }
}

FreeSpace::~FreeSpace() = default;
FreeSpace::FreeSpace(FreeSpace&&) noexcept = default;
FreeSpace& FreeSpace::operator=(FreeSpace&&) noexcept = default;

bool FreeSpace::is_free(Point p) const {
  const Impl& s = *impl_;
  if (s.edges.empty() || p.x < s.box.min.x || p.x > s.box.max.x || p.y < s.box.min.y ||
      p.y > s.box.max.y)
    return false;
  const Impl::Locator& loc = s.locator;
  const std::size_t b = std::size_t(loc.bucket_y(p.y)) * loc.nx + loc.bucket_x(p.x);
  const Point c = loc.reference[b];
  bool free = loc.reference_free[b] != 0;
  // Only edges whose box meets the box of segment c-p can touch p or cross the segment; the
  // box test is comparisons of the given doubles, so it is exact.
  const double min_x = std::min(c.x, p.x), max_x = std::max(c.x, p.x);
  const double min_y = std::min(c.y, p.y), max_y = std::max(c.y, p.y);
  for (std::uint32_t k = loc.offsets[b]; k < loc.offsets[b + 1]; ++k) {
    const std::uint32_t e = loc.edge_ids[k];
    const Point u = s.edges[e].a, v = s.edges[e].b;
    if (std::max(u.x, v.x) < min_x || std::min(u.x, v.x) > max_x || std::max(u.y, v.y) < min_y ||
        std::min(u.y, v.y) > max_y)
      continue;
    if (exact::on_segment(u, v, p)) return true;
    if (s.crosses(c, p, e)) free = !free;
  }
  return free;
}

bool FreeSpace::line_of_sight(Point a, Point b) const {
  const Impl& s = *impl_;
  if (a == b) return is_free(a);
  bool blocked = false;
  bool touched = false;  // the segment met the boundary (validly) somewhere
  // Boundary vertices on the segment, each with the rays of the edges that meet there.
  struct Contact {
    Point v;
    Ray ray;
  };
  thread_local std::vector<Contact> contacts;
  contacts.clear();

  // Candidates: the edges whose (padded) box the segment itself meets; the first proper
  // crossing ends the query.
  const IndexSegment query(IndexPoint(a.x, a.y), IndexPoint(b.x, b.y));
  const auto check_edge = [&](std::uint32_t e) {
    const Point u = s.edges[e].a, v = s.edges[e].b;
    const int ou = exact::orientation(a, b, u), ov = exact::orientation(a, b, v);
    if (ou * ov > 0) return;  // the edge lies strictly on one side of the segment's line
    const int oa = exact::orientation(u, v, a), ob = exact::orientation(u, v, b);
    if (ou * ov < 0 && oa * ob < 0) {  // proper crossing
      blocked = true;
      return;
    }
    // An end of the segment inside the edge (not at its vertices): the segment must leave
    // towards the free side (left) or run along the edge.
    const auto strictly_inside_edge = [&](Point p, int o) {
      return o == 0 && exact::collinear_between(u, v, p) && !(p == u) && !(p == v);
    };
    if (strictly_inside_edge(a, oa)) {
      touched = true;
      if (ob < 0) blocked = true;
    }
    if (strictly_inside_edge(b, ob)) {
      touched = true;
      if (oa < 0) blocked = true;
    }
    // The edge's vertices on the segment are judged below, with all edges meeting there.
    if (ou == 0 && exact::collinear_between(a, b, u)) contacts.push_back({u, {v, true}});
    if (ov == 0 && exact::collinear_between(a, b, v)) contacts.push_back({v, {u, false}});
  };
  for (auto it = s.index.qbegin(bgi::intersects(query)); it != s.index.qend() && !blocked; ++it)
    check_edge(it->second);
  if (blocked) return false;

  std::sort(contacts.begin(), contacts.end(), [](const Contact& l, const Contact& r) {
    return l.v.x < r.v.x || (l.v.x == r.v.x && l.v.y < r.v.y);
  });
  thread_local std::vector<Ray> rays;
  for (std::size_t i = 0; i < contacts.size();) {
    const Point v = contacts[i].v;
    rays.clear();
    for (; i < contacts.size() && contacts[i].v == v; ++i) rays.push_back(contacts[i].ray);
    bool passes;
    if (v == a) {
      passes = free_direction(v, b, rays);
    } else if (v == b) {
      passes = free_direction(v, a, rays);
    } else {
      // Passing through v: one side of the segment's line must be wholly free near v. If
      // boundary edges leave v into both sides, blocked parts lie on both sides: the segment
      // would enter an obstacle or slip through a zero-width gap between two that touch.
      bool edges_left = false, edges_right = false;
      for (const Ray& r : rays) {
        const int o = exact::orientation(a, b, r.toward);
        edges_left = edges_left || o > 0;
        edges_right = edges_right || o < 0;
      }
      passes = (!edges_left && free_after(v, b, rays)) || (!edges_right && free_after(v, a, rays));
    }
    if (!passes) return false;
    touched = true;
  }
  // With no contact the segment lies inside one face of the arrangement: free iff a is.
  return touched || is_free(a);
}

bool FreeSpace::turn_is_free(Point from, Point w, Point to) const {
  const Impl& s = *impl_;
  thread_local std::vector<Ray> rays;
  rays.clear();
  const IndexBox at(IndexPoint(w.x, w.y), IndexPoint(w.x, w.y));
  s.for_each_edge(bgi::intersects(at), [&](std::uint32_t e) {
    const Point u = s.edges[e].a, v = s.edges[e].b;
    if (u == w) {
      rays.push_back({v, true});
    } else if (v == w) {
      rays.push_back({u, false});
    } else if (exact::on_segment(u, v, w)) {  // inside an edge: it continues both ways
      rays.push_back({v, true});
      rays.push_back({u, false});
    }
  });
  if (rays.empty()) return true;  // w is inside free space
  // The turn sweeps counter-clockwise from `from` to `to`, or the other way round; one of the
  // two sectors must hold no boundary edge and be free.
  const auto sector_free = [&](Point first, Point last) {
    for (const Ray& r : rays) {
      const bool on_first =
          exact::orientation(w, first, r.toward) == 0 && same_direction(w, first, r.toward);
      const bool on_last =
          exact::orientation(w, last, r.toward) == 0 && same_direction(w, last, r.toward);
      // Strictly inside the counter-clockwise sweep from first to last: met before `first`
      // when sweeping clockwise from `last`.
      if (!on_first && !on_last && clockwise_before(w, last, r.toward, first)) return false;
    }
    return free_after(w, first, rays);
  };
  return sector_free(from, to) || sector_free(to, from);
}

double FreeSpace::cost_at(Point p) const {
  for (std::size_t i = impl_->regions.size(); i-- > 0;) {
    const Box& b = impl_->region_boxes[i];
    if (p.x < b.min.x || p.x > b.max.x || p.y < b.min.y || p.y > b.max.y) continue;
    if (exact::side_of_ring(impl_->regions[i].polygon, p) != exact::Side::outside)
      return impl_->regions[i].cost;
  }
  return 1.0;
}

double FreeSpace::height_at(Point p) const {
  for (std::size_t i = impl_->regions.size(); i-- > 0;) {
    const Region& region = impl_->regions[i];
    if (!region.height) continue;
    const Box& b = impl_->region_boxes[i];
    if (p.x < b.min.x || p.x > b.max.x || p.y < b.min.y || p.y > b.max.y) continue;
    if (exact::side_of_ring(region.polygon, p) != exact::Side::outside) return *region.height;
  }
  return 0.0;
}

template <class F>
void FreeSpace::for_each_piece(Point a, Point b, F&& f) const {
  // Split the segment where it meets region boundaries; each piece lies in a fixed set of
  // regions, whose winner is found at the piece's midpoint.
  thread_local std::vector<double> cuts;
  cuts.assign({0.0, 1.0});
  const Point d = b - a;
  for (std::size_t i = 0; i < impl_->regions.size(); ++i) {
    const Box& rb = impl_->region_boxes[i];
    if (std::max(a.x, b.x) < rb.min.x || std::min(a.x, b.x) > rb.max.x ||
        std::max(a.y, b.y) < rb.min.y || std::min(a.y, b.y) > rb.max.y)
      continue;
    const Ring& ring = impl_->regions[i].polygon;
    for (std::size_t k = 0; k < ring.size(); ++k) {
      const Point u = ring[k], v = ring[(k + 1) % ring.size()];
      if (!exact::segments_intersect(a, b, u, v)) continue;
      const Point e = v - u;
      const double denom = cross(d, e);
      if (denom != 0.0) {
        cuts.push_back(std::clamp(cross(u - a, e) / denom, 0.0, 1.0));
      } else {  // collinear overlap: cut at the edge's ends
        const double dd = dot(d, d);
        cuts.push_back(std::clamp(dot(u - a, d) / dd, 0.0, 1.0));
        cuts.push_back(std::clamp(dot(v - a, d) / dd, 0.0, 1.0));
      }
    }
  }
  std::sort(cuts.begin(), cuts.end());
  for (std::size_t k = 1; k < cuts.size(); ++k) {
    const double t0 = cuts[k - 1], t1 = cuts[k];
    if (t1 > t0) f(t0, t1, a + (0.5 * (t0 + t1)) * d);
  }
}

double FreeSpace::segment_cost(Point a, Point b) const {
  const double length = distance(a, b);
  if (impl_->regions.empty() || length == 0.0) return length;
  double cost = 0.0;
  for_each_piece(
      a, b, [&](double t0, double t1, Point mid) { cost += cost_at(mid) * (t1 - t0) * length; });
  return cost;
}

bool FreeSpace::climbable(Point a, Point b) const {
  if (!impl_->has_heights || !std::isfinite(impl_->agent.max_climb) || a == b) return true;
  bool ok = true;
  double previous = height_at(a);
  for_each_piece(a, b, [&](double, double, Point mid) {
    const double h = height_at(mid);
    ok = ok && h - previous <= impl_->agent.max_climb;
    previous = h;
  });
  return ok && height_at(b) - previous <= impl_->agent.max_climb;
}

double FreeSpace::path_cost(const std::vector<Point>& path) const {
  double cost = 0.0;
  for (std::size_t i = 1; i < path.size(); ++i) cost += segment_cost(path[i - 1], path[i]);
  return cost;
}

std::optional<Point> FreeSpace::nearest_free(Point p) const {
  const Impl& s = *impl_;
  if (is_free(p)) return p;
  if (s.edges.empty()) return std::nullopt;
  // The nearest point of F lies on its boundary: take the closest edges (by box distance,
  // then exact segment distance) and project; the projection is rounded, so nudge it towards
  // the free side until it tests free.
  double best = std::numeric_limits<double>::infinity();
  std::uint32_t best_edge = 0;
  Point best_point;
  for (auto it = s.index.qbegin(bgi::nearest(IndexPoint(p.x, p.y), 64)); it != s.index.qend();
       ++it) {
    if (bg::distance(IndexPoint(p.x, p.y), it->first) > best) break;
    const Edge& e = s.edges[it->second];
    const Point q = closest_on_segment(e.a, e.b, p);
    if (distance(p, q) < best) {
      best = distance(p, q);
      best_edge = it->second;
      best_point = q;
    }
  }
  const Edge& e = s.edges[best_edge];
  const Point along = e.b - e.a;
  const Point left = (1.0 / norm(along)) * Point{-along.y, along.x};
  const double scale = std::max({std::abs(best_point.x), std::abs(best_point.y), 1.0});
  for (double step = 0.0; step < 1e-3 * scale; step = step == 0.0 ? 1e-14 * scale : step * 4.0) {
    const Point q = best_point + step * left;
    if (is_free(q)) return q;
  }
  if (is_free(e.a)) return e.a;
  return std::nullopt;
}

std::optional<std::uint32_t> FreeSpace::component(Point p) const {
  const Impl& s = *impl_;
  thread_local std::vector<std::uint32_t> per_ring;
  per_ring.assign(s.rings.size(), 0);
  bool on_boundary = false;
  const bool odd = s.ray_parity(p, on_boundary, &per_ring);
  if (on_boundary) {
    // A boundary point belongs to the component of a ring through it.
    std::optional<std::uint32_t> found;
    const IndexBox at(IndexPoint(p.x, p.y), IndexPoint(p.x, p.y));
    s.for_each_edge(bgi::intersects(at), [&](std::uint32_t e) {
      if (!found && exact::on_segment(s.edges[e].a, s.edges[e].b, p))
        found = s.rings[s.edges[e].ring].component;
    });
    return found;
  }
  if (!odd) return std::nullopt;
  // The innermost ring around p (smallest area among those crossed an odd number of times) is
  // the outer ring of p's component.
  std::optional<std::uint32_t> innermost;
  for (std::uint32_t r = 0; r < s.rings.size(); ++r)
    if (per_ring[r] % 2 == 1 && (!innermost || s.ring_area[r] < s.ring_area[*innermost]))
      innermost = r;
  if (!innermost) return std::nullopt;
  return s.rings[*innermost].component;
}

std::size_t FreeSpace::component_count() const {
  return impl_->components;
}

std::string FreeSpace::explain_blocked(Point p) const {
  if (is_free(p)) return {};
  const Impl& s = *impl_;
  std::ostringstream out;
  if (exact::side_of_ring(s.original_bounds, p) != exact::Side::inside &&
      exact::side_of_ring(s.original_bounds, p) != exact::Side::boundary)
    return "outside the bounds";
  if (s.given_free_space && s.original_obstacles.empty())
    return "outside the free space the scene defines";
  double nearest = std::numeric_limits<double>::infinity();
  std::size_t nearest_index = 0;
  for (std::size_t i = 0; i < s.original_obstacles.size(); ++i) {
    const Polygon& shape = s.original_obstacles[i].shape;
    bool in_hole = false;
    for (const Ring& hole : shape.holes)
      in_hole = in_hole || exact::side_of_ring(hole, p) == exact::Side::inside;
    if (exact::side_of_ring(shape.outer, p) != exact::Side::outside && !in_hole) {
      const std::string& key = s.original_obstacles[i].where.key_path;
      return "inside " + (key.empty() ? "obstacle " + std::to_string(i) : key);
    }
    const auto ring_distance = [&](const Ring& ring) {
      double d = std::numeric_limits<double>::infinity();
      for (std::size_t k = 0; k < ring.size(); ++k)
        d = std::min(d, distance(p, closest_on_segment(ring[k], ring[(k + 1) % ring.size()], p)));
      return d;
    };
    double d = ring_distance(shape.outer);
    for (const Ring& hole : shape.holes) d = std::min(d, ring_distance(hole));
    if (d < nearest) {
      nearest = d;
      nearest_index = i;
    }
  }
  out << "within the agent radius " << s.agent.radius << " of ";
  if (nearest <= s.agent.radius + s.tolerance && !s.original_obstacles.empty()) {
    const std::string& key = s.original_obstacles[nearest_index].where.key_path;
    out << (key.empty() ? "obstacle " + std::to_string(nearest_index) : key);
  } else {
    out << "the bounds";
  }
  return out.str();
}

const std::vector<BoundaryRing>& FreeSpace::boundary() const {
  return impl_->rings;
}
std::size_t FreeSpace::edge_count() const {
  return impl_->edges.size();
}
Box FreeSpace::box() const {
  return impl_->box;
}
double FreeSpace::area() const {
  return impl_->area;
}
double FreeSpace::min_cost() const {
  return impl_->min_cost;
}
bool FreeSpace::has_heights() const {
  return impl_->has_heights;
}
const Agent& FreeSpace::agent() const {
  return impl_->agent;
}
const std::vector<Region>& FreeSpace::regions() const {
  return impl_->regions;
}
double FreeSpace::inflation_tolerance() const {
  return impl_->tolerance;
}

}  // namespace polynav
