#include "polynav/discretise/clearance/clearance_roadmap.hpp"

// CGAL's segment Delaunay graph (Karavelas 2004) is included here only: its headers are slow to
// compile, and nothing outside this file needs them.
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Segment_Delaunay_graph_2.h>
#include <CGAL/Segment_Delaunay_graph_filtered_traits_2.h>
#include <CGAL/Segment_Delaunay_graph_traits_2.h>
#include <CGAL/Spatial_sort_traits_adapter_2.h>
#include <CGAL/hilbert_sort.h>
#include <CGAL/property_map.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "polynav/error.hpp"
#include "polynav/kernel/box_index.hpp"
#include "polynav/number.hpp"
#include "polynav/search/astar.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {

namespace clearance_detail {

// The point queries' indexes: the attachable nodes, one cell each, and the distinct boundary
// segments (the diagram's segment sites), listed along their length.
struct Index {
  BoxIndex nodes;
  std::vector<search::NodeId> node_ids;  // item k of `nodes` is node node_ids[k]
  BoxIndex segments;
  std::vector<Segment> boundary;                        // segment k is site point_count + k
  std::vector<std::array<std::uint32_t, 2>> endpoints;  // its endpoints' point sites
  std::size_t point_count = 0;
};

}  // namespace clearance_detail

namespace {

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
// Predicates: interval arithmetic first, then exact arithmetic on the input doubles, with the
// traits' own exact number types. (Gmpzf for the exact stage built degenerate diagrams about 2.4
// times faster, but the constructions' exact fallback then fed GMP a non-finite double on random
// scenes: a floating-point trap, so correctness wins.)
using Traits = CGAL::Segment_Delaunay_graph_filtered_traits_without_intersections_2<Kernel>;
using Sdg = CGAL::Segment_Delaunay_graph_2<Traits>;

// The diagram's vertices are placed in double arithmetic (they become nodes only after exact
// tests of freedom and line of sight): the filtered construction falls back to exact rationals
// where intervals cannot decide, and there a vertex that lies on the boundary itself makes
// CGAL's formula divide by zero, which GMP turns into a floating-point trap.
using InexactTraits =
    CGAL::Segment_Delaunay_graph_traits_without_intersections_2<Kernel, CGAL::Field_with_sqrt_tag>;

// Where the vertex of three sites lies when they all pass through one point (a corner and the two
// edges meeting there, or a pinch where blocked parts touch): that point, at clearance 0.
std::optional<Kernel::Point_2> shared_point(const Sdg::Site_2& a, const Sdg::Site_2& b,
                                            const Sdg::Site_2& c) {
  const auto ends = [](const Sdg::Site_2& s) {
    return s.is_point() ? std::vector<Kernel::Point_2>{s.point()}
                        : std::vector<Kernel::Point_2>{s.source(), s.target()};
  };
  const auto holds = [&](const Sdg::Site_2& s, const Kernel::Point_2& p) {
    for (const Kernel::Point_2& q : ends(s))
      if (q == p) return true;
    return false;
  };
  for (const Kernel::Point_2& p : ends(a))
    if (holds(b, p) && holds(c, p)) return p;
  return std::nullopt;
}

constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();

bool less_point(Point a, Point b) {
  return a.x < b.x || (a.x == b.x && a.y < b.y);
}

struct PointHash {
  std::size_t operator()(Point p) const noexcept {
    const std::size_t h = std::hash<double>{}(p.x);
    return h ^ (std::hash<double>{}(p.y) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2));
  }
};

Point closest_on_segment(Point a, Point b, Point p) {
  const Point d = b - a;
  const double length2 = dot(d, d);
  if (!(length2 > 0.0)) return a;
  const double t = std::clamp(dot(p - a, d) / length2, 0.0, 1.0);
  if (t == 0.0) return a;
  if (t == 1.0) return b;
  return a + t * d;
}

[[noreturn]] void refuse_nodes(double nodes, std::size_t budget) {
  std::ostringstream message;
  message.precision(15);
  message << "the clearance roadmap would have " << nodes << " nodes or more, more than "
          << "clearance.max_nodes = " << budget
          << " (raise clearance.arc_tolerance or clearance.max_nodes)";
  throw InputError({"", 0, 0, "clearance.max_nodes"}, message.str());
}

void check_options(const ClearanceOptions& o) {
  if (!(o.arc_tolerance >= 0.0) || !std::isfinite(o.arc_tolerance))
    throw InputError({"", 0, 0, "clearance.arc_tolerance"},
                     "clearance.arc_tolerance must be a finite number >= 0 (0 for the default), "
                     "not " +
                         shortest_text(o.arc_tolerance));
  if (o.max_nodes < 1)
    throw InputError({"", 0, 0, "clearance.max_nodes"}, "clearance.max_nodes must be >= 1");
  if (!(o.max_build_seconds > 0.0))
    throw InputError({"", 0, 0, "clearance.max_build_seconds"},
                     "clearance.max_build_seconds must be > 0 (infinity for none), not " +
                         shortest_text(o.max_build_seconds));
}

// An edge of the diagram in free space, before it is sampled and checked.
struct PendingEdge {
  std::uint32_t a = 0, b = 0;            // its vertices (indices into the free vertices)
  std::uint32_t site_a = 0, site_b = 0;  // its two sites
  bool parabola = false;
  Point foot, along, normal;    // the parabola's frame (see parabola_point)
  double height = 0.0;          // the focus's distance from the directrix
  double t_a = 0.0, t_b = 0.0;  // the vertices' abscissae along the directrix
  std::uint64_t chords = 1;
};

// The point of abscissa t on the parabola with focus at height h above the directrix, in the
// frame (foot of the focus, unit vector along the directrix, unit normal towards the focus): the
// points equidistant from the focus and the directrix, y = (t^2 + h^2) / (2 h).
Point parabola_point(const PendingEdge& e, double t) {
  const double y = (t * t + e.height * e.height) / (2.0 * e.height);
  return e.foot + t * e.along + y * e.normal;
}

// A checked straight piece of the roadmap, between node ids, before compaction.
struct RawEdge {
  std::uint32_t a, b;
  std::uint32_t site_a, site_b;
  double cost_ab, cost_ba, clearance;
  bool ab, ba;  // the directions that are valid motions
};

}  // namespace

ClearanceRoadmap::~ClearanceRoadmap() = default;
ClearanceRoadmap::ClearanceRoadmap(ClearanceRoadmap&&) noexcept = default;
ClearanceRoadmap& ClearanceRoadmap::operator=(ClearanceRoadmap&&) noexcept = default;

ClearanceRoadmap::ClearanceRoadmap(const FreeSpace& space, ClearanceOptions options)
    : space_(&space), options_(options) {
  const auto t0 = std::chrono::steady_clock::now();
  check_options(options_);
  const BuildClock clock(options_.max_build_seconds);
  const char* const what = "the clearance roadmap";
  directed_ = space.has_heights() && std::isfinite(space.agent().max_climb);
  min_cost_ = space.min_cost();
  const Box box = space.box();
  const double extent = box.empty() ? 0.0 : std::max(box.width(), box.height());
  const double tolerance = options_.arc_tolerance > 0.0 ? options_.arc_tolerance : extent / 1000.0;
  stats_.arc_tolerance = tolerance;
  // Far above the rounding of a distance (1e-16 of the coordinates), far below any clearance a
  // path cares about.
  boundary_margin_ = 1e-9 * extent;

  // The sites: the distinct boundary vertices and segments. A wall with free space on both sides
  // is traced once each way; it is one site.
  auto index = std::make_unique<clearance_detail::Index>();
  std::vector<Point> points;
  for (const BoundaryRing& ring : space.boundary())
    points.insert(points.end(), ring.points.begin(), ring.points.end());
  std::sort(points.begin(), points.end(), less_point);
  points.erase(std::unique(points.begin(), points.end()), points.end());
  const auto point_id = [&](Point p) -> std::uint32_t {
    const auto it = std::lower_bound(points.begin(), points.end(), p, less_point);
    return it != points.end() && *it == p ? std::uint32_t(it - points.begin()) : none;
  };
  std::vector<std::array<std::uint32_t, 2>> segments;
  for (const BoundaryRing& ring : space.boundary()) {
    const std::size_t n = ring.points.size();
    for (std::size_t k = 0; k < n; ++k) {
      std::uint32_t a = point_id(ring.points[k]), b = point_id(ring.points[(k + 1) % n]);
      if (a == b) continue;
      if (a > b) std::swap(a, b);
      segments.push_back({a, b});
    }
  }
  std::sort(segments.begin(), segments.end());
  segments.erase(std::unique(segments.begin(), segments.end()), segments.end());
  const auto point_count = std::uint32_t(points.size());
  const auto segment_id = [&](std::uint32_t a, std::uint32_t b) -> std::uint32_t {
    if (a > b) std::swap(a, b);
    const std::array<std::uint32_t, 2> key{a, b};
    const auto it = std::lower_bound(segments.begin(), segments.end(), key);
    return it != segments.end() && *it == key ? point_count + std::uint32_t(it - segments.begin())
                                              : none;
  };
  stats_.boundary_edges = segments.size();
  index->point_count = point_count;
  index->endpoints = segments;
  for (const auto& s : segments) index->boundary.push_back({points[s[0]], points[s[1]]});

  // The segment Delaunay graph: the points in spatial order (each insertion starts its walk at
  // the previous vertex), then the segments between their vertices. The boundary's segments
  // meet only at shared endpoints (FreeSpace's rings), so the traits without intersections
  // apply.
  const auto t_voronoi = std::chrono::steady_clock::now();
  Sdg sdg;
  {
    std::vector<Kernel::Point_2> cgal_points;
    cgal_points.reserve(points.size());
    for (const Point& p : points) cgal_points.emplace_back(p.x, p.y);
    std::vector<std::size_t> order(points.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    using SortTraits = CGAL::Spatial_sort_traits_adapter_2<
        Kernel, CGAL::Pointer_property_map<Kernel::Point_2>::const_type>;
    // Hilbert order, not CGAL::spatial_sort: that one shuffles first with CGAL's shared random
    // generator, which would make the diagram's numbering (and so the search's ties) differ
    // from build to build, and races between builds on different threads.
    // (make_property_map takes the address of the first point: none when free space has no
    // boundary.)
    if (!cgal_points.empty())
      CGAL::hilbert_sort(order.begin(), order.end(),
                         SortTraits(CGAL::make_property_map(std::as_const(cgal_points))));
    std::vector<Sdg::Vertex_handle> handle(points.size());
    Sdg::Vertex_handle hint;
    for (std::size_t k = 0; k < order.size(); ++k) {
      if (k % 4096 == 0) clock.check(what);
      hint = sdg.insert(cgal_points[order[k]], hint);
      handle[order[k]] = hint;
    }
    for (std::size_t k = 0; k < segments.size(); ++k) {
      if (k % 1024 == 0) clock.check(what);
      sdg.insert(handle[segments[k][0]], handle[segments[k][1]]);
    }
  }
  clock.check(what);
  const auto site_of = [&](const Sdg::Vertex_handle& v) -> std::uint32_t {
    const Sdg::Site_2& s = v->site();
    if (s.is_point()) return point_id({s.point().x(), s.point().y()});
    return segment_id(point_id({s.source().x(), s.source().y()}),
                      point_id({s.target().x(), s.target().y()}));
  };

  // The diagram's vertices in free space, one per distinct position. Where more than three sites
  // are cocircular (common in grid-aligned scenes), CGAL splits the one vertex into faces joined
  // by edges of length zero, and which faces it makes depends on the order its internal maps of
  // face handles (pointers) visit: their positions, constructed from different triples of sites,
  // differ in the last bits from build to build. Snapping positions to a lattice of about 2^-32
  // of the scene's extent merges each such cluster into one node, the same in every build, and
  // numbering the nodes and edges in sorted order makes the roadmap the same whatever CGAL's
  // internal order was. (The snap moves a node by far less than any tolerance; nodes and chords
  // are still tested exactly for freedom and line of sight.)
  const double snap = std::ldexp(1.0, std::ilogb(std::max(extent, 1e-300)) - 32);
  const auto snapped = [snap](double v) { return std::nearbyint(v / snap) * snap; };
  std::unordered_map<const void*, std::uint32_t> vertex_of_face;
  std::unordered_map<Point, std::uint32_t, PointHash> vertex_at;
  std::vector<Point> vertices;
  {
    std::size_t k = 0;
    for (auto f = sdg.finite_faces_begin(); f != sdg.finite_faces_end(); ++f, ++k) {
      if (k % 4096 == 0) clock.check(what);
      const Sdg::Site_2 &s0 = f->vertex(0)->site(), &s1 = f->vertex(1)->site(),
                        &s2 = f->vertex(2)->site();
      const std::optional<Kernel::Point_2> shared = shared_point(s0, s1, s2);
      const Kernel::Point_2 c =
          shared ? *shared : InexactTraits().construct_svd_vertex_2_object()(s0, s1, s2);
      const Point p{snapped(CGAL::to_double(c.x())), snapped(CGAL::to_double(c.y()))};
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !space.is_free(p)) continue;
      const auto [it, added] = vertex_at.emplace(p, std::uint32_t(vertices.size()));
      if (added) vertices.push_back(p);
      vertex_of_face.emplace(static_cast<const void*>(&*f), it->second);
    }
  }
  {
    // Vertices numbered in order of position.
    std::vector<std::uint32_t> order(vertices.size()), rank(vertices.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return less_point(vertices[a], vertices[b]);
    });
    std::vector<Point> sorted(vertices.size());
    for (std::uint32_t k = 0; k < order.size(); ++k) {
      rank[order[k]] = k;
      sorted[k] = vertices[order[k]];
    }
    vertices = std::move(sorted);
    for (auto& entry : vertex_of_face) entry.second = rank[entry.second];
  }
  const auto vertex_of = [&](const Sdg::Face_handle& f) -> std::uint32_t {
    if (sdg.is_infinite(f)) return none;  // its edges are rays, beyond the bounds
    const auto it = vertex_of_face.find(static_cast<const void*>(&*f));
    return it == vertex_of_face.end() ? none : it->second;
  };

  // The edges of the diagram between two free vertices, except the bisectors between a segment
  // and its own endpoints (perpendicular to it there: they meet the boundary at that endpoint).
  std::vector<PendingEdge> pending;
  {
    std::size_t k = 0;
    for (auto e = sdg.finite_edges_begin(); e != sdg.finite_edges_end(); ++e, ++k) {
      if (k % 4096 == 0) clock.check(what);
      const Sdg::Face_handle f = e->first;
      const int i = e->second;
      const std::uint32_t a = vertex_of(f), b = vertex_of(f->neighbor(i));
      if (a == none || b == none || a == b) continue;
      const Sdg::Site_2 s = f->vertex(sdg.ccw(i))->site();
      const Sdg::Site_2 t = f->vertex(sdg.cw(i))->site();
      PendingEdge edge;
      // Each edge from its lower-numbered vertex, its sites in order: the same edge whichever
      // face CGAL lists it from.
      edge.a = std::min(a, b);
      edge.b = std::max(a, b);
      edge.site_a = site_of(f->vertex(sdg.ccw(i)));
      edge.site_b = site_of(f->vertex(sdg.cw(i)));
      if (edge.site_a == none || edge.site_b == none) continue;
      if (edge.site_a > edge.site_b) std::swap(edge.site_a, edge.site_b);
      if (s.is_point() != t.is_point()) {
        const Sdg::Site_2& pt = s.is_point() ? s : t;
        const Sdg::Site_2& sg = s.is_point() ? t : s;
        if (pt.point() == sg.source() || pt.point() == sg.target()) continue;
        // A point and a segment: a parabola with the point as focus and the segment's line as
        // directrix, between the two vertices.
        const Point p{pt.point().x(), pt.point().y()};
        const Point u0{sg.source().x(), sg.source().y()}, u1{sg.target().x(), sg.target().y()};
        const double length = distance(u0, u1);
        edge.along = (1.0 / length) * (u1 - u0);
        edge.normal = {-edge.along.y, edge.along.x};
        edge.height = dot(p - u0, edge.normal);
        if (edge.height < 0.0) {
          edge.normal = -1.0 * edge.normal;
          edge.height = -edge.height;
        }
        edge.foot = p - edge.height * edge.normal;
        edge.t_a = dot(vertices[edge.a] - edge.foot, edge.along);
        edge.t_b = dot(vertices[edge.b] - edge.foot, edge.along);
        if (edge.height > 0.0 && std::isfinite(edge.height)) {
          // Between abscissae d apart a chord strays at most d^2 / (8 h) from the parabola
          // (its second derivative is 1 / h), measured along the normal, which bounds the
          // distance: chords of width sqrt(8 h tolerance) keep within the tolerance.
          const double width = std::sqrt(8.0 * edge.height * tolerance);
          const double chords = std::ceil(std::abs(edge.t_b - edge.t_a) / width);
          if (chords > double(options_.max_nodes) + 1.0)
            refuse_nodes(chords - 1.0, options_.max_nodes);
          edge.parabola = chords > 1.0;
          edge.chords = edge.parabola ? std::uint64_t(chords) : 1;
        }
      }
      pending.push_back(edge);
    }
  }
  // In sorted order, each once (a cluster of cocircular faces may list one edge twice).
  std::sort(pending.begin(), pending.end(), [](const PendingEdge& x, const PendingEdge& y) {
    return std::tie(x.a, x.b, x.site_a, x.site_b) < std::tie(y.a, y.b, y.site_a, y.site_b);
  });
  pending.erase(std::unique(pending.begin(), pending.end(),
                            [](const PendingEdge& x, const PendingEdge& y) {
                              return std::tie(x.a, x.b, x.site_a, x.site_b) ==
                                     std::tie(y.a, y.b, y.site_a, y.site_b);
                            }),
                pending.end());
  stats_.voronoi_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t_voronoi)
          .count();

  // The budget, before any edge is sampled or checked: the vertices in use and the samples to
  // come (the roadmap has no more nodes than these; checks may drop some).
  {
    std::vector<std::uint8_t> used(vertices.size(), 0);
    double count = 0.0;
    for (const PendingEdge& e : pending) {
      count += double(e.chords - 1) + (used[e.a] ? 0.0 : 1.0) + (used[e.b] ? 0.0 : 1.0);
      used[e.a] = used[e.b] = 1;
    }
    if (count > double(options_.max_nodes)) refuse_nodes(count, options_.max_nodes);
  }

  // Every edge as chords, each checked: a chord that is not in line of sight (exact) is dropped,
  // the rest of its edge kept. Nodes 0 .. vertices - 1 are the diagram's vertices, then samples.
  std::vector<Point> position = vertices;
  std::vector<std::uint8_t> is_vertex(vertices.size(), 1);
  std::vector<RawEdge> raw;
  raw.reserve(pending.size());
  std::vector<std::uint32_t> chain;
  for (std::size_t k = 0; k < pending.size(); ++k) {
    if (k % 256 == 0) clock.check(what);
    const PendingEdge& e = pending[k];
    chain.clear();
    chain.push_back(e.a);
    for (std::uint64_t c = 1; c < e.chords; ++c) {
      const double t = e.t_a + (e.t_b - e.t_a) * double(c) / double(e.chords);
      chain.push_back(std::uint32_t(position.size()));
      position.push_back(parabola_point(e, t));
      is_vertex.push_back(0);
    }
    chain.push_back(e.b);
    for (std::size_t c = 0; c + 1 < chain.size(); ++c) {
      const Point p = position[chain[c]], q = position[chain[c + 1]];
      if (p == q) continue;
      if (!space.line_of_sight(p, q)) {
        ++stats_.dropped_chords;
        continue;
      }
      RawEdge r{chain[c], chain[c + 1], e.site_a, e.site_b, 0.0, 0.0, 0.0, true, true};
      if (directed_) {
        r.ab = space.climbable(p, q);
        r.ba = space.climbable(q, p);
        if (!r.ab && !r.ba) continue;
      }
      r.cost_ab = space.segment_cost(p, q);
      r.cost_ba = directed_ ? space.segment_cost(q, p) : r.cost_ab;
      r.clearance = space.clearance(p, q);
      raw.push_back(r);
    }
  }
  clock.check(what);

  // Nodes on the boundary: kept only where every turn between two of their arcs is free, so that
  // no path passes through a closed zero-width gap (the vertex where two blocked parts touch, at
  // which the medial axis of both sides ends).
  const std::size_t nodes = position.size();
  std::vector<double> node_clearance(nodes, 0.0);
  std::vector<std::uint32_t> degree(nodes + 1, 0);
  for (const RawEdge& r : raw) {
    ++degree[r.a + 1];
    ++degree[r.b + 1];
  }
  std::partial_sum(degree.begin(), degree.end(), degree.begin());
  std::vector<std::uint32_t> incident(degree.back());
  {
    std::vector<std::uint32_t> fill(degree.begin(), degree.end() - 1);
    for (std::uint32_t k = 0; k < raw.size(); ++k) {
      incident[fill[raw[k].a]++] = k;
      incident[fill[raw[k].b]++] = k;
    }
  }
  std::vector<std::uint8_t> keep(nodes, 0);
  for (std::uint32_t n = 0; n < nodes; ++n) {
    if (degree[n] == degree[n + 1]) continue;  // no arcs left
    if (n % 1024 == 0) clock.check(what);
    node_clearance[n] = space.clearance(position[n], position[n]);
    keep[n] = 1;
    if (node_clearance[n] > boundary_margin_) continue;
    const auto other = [&](std::uint32_t k) {
      return position[raw[k].a == n ? raw[k].b : raw[k].a];
    };
    for (std::uint32_t i = degree[n]; i < degree[n + 1] && keep[n]; ++i)
      for (std::uint32_t j = i + 1; j < degree[n + 1] && keep[n]; ++j) {
        const Point u = other(incident[i]), w = other(incident[j]);
        if (!space.turn_is_free(u, position[n], w) || !space.turn_is_free(w, position[n], u))
          keep[n] = 0;
      }
    if (!keep[n]) ++stats_.dropped_nodes;
  }
  // Edges at a dropped node go; nodes then left without edges go too.
  std::vector<std::uint8_t> used(nodes, 0);
  for (const RawEdge& r : raw)
    if (keep[r.a] && keep[r.b]) used[r.a] = used[r.b] = 1;
  std::vector<std::uint32_t> renumber(nodes, none);
  for (std::uint32_t n = 0; n < nodes; ++n) {
    if (!used[n]) continue;
    renumber[n] = std::uint32_t(position_.size());
    position_.push_back(position[n]);
    node_clearance_.push_back(node_clearance[n]);
    vertex_.push_back(is_vertex[n]);
    if (is_vertex[n]) {
      ++stats_.voronoi_vertices;
    } else {
      ++stats_.arc_samples;
    }
  }
  first_.assign(position_.size() + 1, 0);
  for (const RawEdge& r : raw) {
    if (!(keep[r.a] && keep[r.b])) continue;
    edges_.push_back({renumber[r.a], renumber[r.b], r.site_a, r.site_b});
    if (r.ab) ++first_[renumber[r.a] + 1];
    if (r.ba) ++first_[renumber[r.b] + 1];
  }
  std::partial_sum(first_.begin(), first_.end(), first_.begin());
  arcs_.resize(first_.back());
  {
    std::vector<std::uint32_t> fill(first_.begin(), first_.end() - 1);
    for (const RawEdge& r : raw) {
      if (!(keep[r.a] && keep[r.b])) continue;
      const std::uint32_t a = renumber[r.a], b = renumber[r.b];
      if (r.ab) arcs_[fill[a]++] = {b, r.cost_ab, r.clearance};
      if (r.ba) arcs_[fill[b]++] = {a, r.cost_ba, r.clearance};
    }
  }
  // Each site's edges: the roadmap along the boundary of its Voronoi region (retraction).
  const std::size_t sites = std::size_t(point_count) + segments.size();
  site_first_.assign(sites + 1, 0);
  for (const Edge& e : edges_) {
    ++site_first_[e.site_a + 1];
    if (e.site_b != e.site_a) ++site_first_[e.site_b + 1];
  }
  std::partial_sum(site_first_.begin(), site_first_.end(), site_first_.begin());
  site_edges_.resize(site_first_.back());
  {
    std::vector<std::uint32_t> fill(site_first_.begin(), site_first_.end() - 1);
    for (std::uint32_t k = 0; k < edges_.size(); ++k) {
      site_edges_[fill[edges_[k].site_a]++] = k;
      if (edges_[k].site_b != edges_[k].site_a) site_edges_[fill[edges_[k].site_b]++] = k;
    }
  }
  components_ = search::ComponentLabels(*this);

  // The indexes of the point queries: about one node, or one segment, per cell.
  for (search::NodeId n = 0; n < position_.size(); ++n)
    if (attachable(n)) index->node_ids.push_back(n);
  if (!index->node_ids.empty()) {
    Box node_box;
    for (const search::NodeId n : index->node_ids) node_box.expand(position_[n]);
    index->nodes = BoxIndex(node_box, index->node_ids.size());
    index->nodes.assign(index->node_ids.size(), [&](std::uint32_t k, auto&& add) {
      add(index->nodes.cell(position_[index->node_ids[k]]));
    });
  }
  if (!index->boundary.empty()) {
    index->segments = BoxIndex(box, index->boundary.size());
    index->segments.assign_segments(index->boundary);
  }
  index_ = std::move(index);
  stats_.build_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void ClearanceRoadmap::attach(Point p, AttachDirection direction,
                              std::vector<Attachment>& out) const {
  out.clear();
  const clearance_detail::Index& ix = *index_;
  if (ix.node_ids.empty()) return;
  const bool outgoing = direction == AttachDirection::from_point;
  // Nodes nearest first: the cells in rings round p's cell; a node in ring r or beyond is at
  // least ring_distance(r) away, so candidates closer than that come out in order.
  struct Candidate {
    double distance;
    search::NodeId node;
    bool operator>(const Candidate& o) const {
      return distance > o.distance || (distance == o.distance && node > o.node);
    }
  };
  thread_local std::vector<Candidate> heap;
  heap.clear();
  std::size_t tried = 0;
  const auto pop = [&] {
    std::pop_heap(heap.begin(), heap.end(), std::greater<>{});
    const Candidate c = heap.back();
    heap.pop_back();
    ++tried;
    const Point q = position_[c.node];
    if (outgoing ? space_->traversable(p, q) : space_->traversable(q, p))
      out.push_back({c.node, outgoing ? space_->segment_cost(p, q) : space_->segment_cost(q, p)});
    return out.size() >= attach_count || (!out.empty() && tried >= 4 * attach_count);
  };
  bool done = false;
  ix.nodes.spiral(p, [&](std::size_t cell, int ring) {
    const double bound = ix.nodes.ring_distance(ring);
    while (!heap.empty() && heap.front().distance <= bound)
      if ((done = pop())) return true;
    for (const std::uint32_t k : ix.nodes.ids_in(cell)) {
      heap.push_back({distance(p, position_[ix.node_ids[k]]), ix.node_ids[k]});
      std::push_heap(heap.begin(), heap.end(), std::greater<>{});
    }
    return false;
  });
  while (!done && !heap.empty()) done = pop();
}

std::string ClearanceRoadmap::unattached_reason(std::string_view which) const {
  if (position_.empty())
    return "the clearance roadmap has no nodes (free space has no medial axis to follow), and "
           "start and goal are not in line of sight";
  return "the " + std::string(which) +
         " sees no node of the clearance roadmap, and start and goal are not in line of sight";
}

std::optional<Retraction> ClearanceRoadmap::retraction(Point p) const {
  const clearance_detail::Index& ix = *index_;
  if (ix.boundary.empty() || edges_.empty()) return std::nullopt;
  // The nearest boundary segment: rings of cells until no unseen segment can be closer.
  double best = std::numeric_limits<double>::infinity();
  std::uint32_t nearest = none;
  Point q;
  ix.segments.spiral(p, [&](std::size_t cell, int ring) {
    if (best <= ix.segments.ring_distance(ring)) return true;
    for (const std::uint32_t k : ix.segments.ids_in(cell)) {
      const Point c = closest_on_segment(ix.boundary[k].a, ix.boundary[k].b, p);
      const double d = distance(p, c);
      if (d < best || (d == best && k < nearest)) {
        best = d;
        nearest = k;
        q = c;
      }
    }
    return false;
  });
  if (nearest == none || !(best > 0.0)) return std::nullopt;
  const Point away = (1.0 / best) * (p - q);
  // The arcs bounding the Voronoi regions of the segment and of its endpoints (which of the
  // three q's site is can be decided either way near a perpendicular; the ray leaves the region
  // through the arcs of its own, and the others' meet it only at the same vertices).
  const std::array<std::uint32_t, 3> sites = {std::uint32_t(ix.point_count) + nearest,
                                              ix.endpoints[nearest][0], ix.endpoints[nearest][1]};
  double first = std::numeric_limits<double>::infinity();
  std::optional<Retraction> out;
  const double slack = 1e-9 * std::max(1.0, best);
  for (const std::uint32_t site : sites) {
    for (std::uint32_t k = site_first_[site]; k < site_first_[site + 1]; ++k) {
      const Edge& e = edges_[site_edges_[k]];
      const Point a = position_[e.a], b = position_[e.b];
      const Point r = b - a, w = a - p;
      const double denominator = cross(away, r);
      if (denominator == 0.0) continue;
      const double t = cross(w, r) / denominator;
      const double u = cross(w, away) / denominator;
      if (!(t >= -slack) || !(u >= -1e-9) || !(u <= 1.0 + 1e-9) || !(t < first)) continue;
      first = t;
      const double along = std::clamp(u, 0.0, 1.0);
      out = Retraction{along == 0.0 ? a : along == 1.0 ? b : a + along * r, e.a, e.b};
    }
  }
  return out;
}

Primitives ClearanceRoadmap::primitives() const {
  Primitives out;
  for (const Edge& e : edges_) out.arcs.push_back({position_[e.a], position_[e.b]});
  for (search::NodeId n = 0; n < position_.size(); ++n)
    if (vertex_[n]) out.nodes.push_back(position_[n]);
  return out;
}

std::string ClearanceRoadmap::summary() const {
  std::ostringstream s;
  s.precision(4);
  s << position_.size() << " nodes on the medial axis of " << stats_.boundary_edges
    << " boundary edges (" << stats_.voronoi_vertices << " Voronoi vertices, " << stats_.arc_samples
    << " arc samples at tolerance " << stats_.arc_tolerance;
  if (stats_.dropped_chords > 0)
    s << "; " << stats_.dropped_chords << " chords out of line of sight dropped";
  s << ")";
  return s.str();
}

namespace {

// A query's graph: the roadmap plus the query's own nodes (start, goals, the points where they
// retract onto the roadmap) and arcs, each arc with its cost and clearance. Arcs whose clearance
// is below `threshold` are left out of for_each_neighbour (the view A* searches).
struct QueryGraph {
  struct ExtraArc {
    search::NodeId from, to;
    double cost, clearance;
  };
  const ClearanceRoadmap* roadmap = nullptr;
  std::size_t base = 0;
  std::vector<Point> extra_position;
  std::vector<ExtraArc> arcs;           // sorted by `from` once the query's arcs are in
  std::vector<std::uint8_t> from_base;  // per roadmap node: some extra arc leaves it
  std::vector<search::NodeId> flagged;
  double threshold = -std::numeric_limits<double>::infinity();

  void reset(const ClearanceRoadmap& r) {
    roadmap = &r;
    base = r.node_count();
    extra_position.clear();
    arcs.clear();
    for (const search::NodeId n : flagged) from_base[n] = 0;
    flagged.clear();
    from_base.resize(base, 0);
    threshold = -std::numeric_limits<double>::infinity();
  }
  search::NodeId add_node(Point p) {
    extra_position.push_back(p);
    return search::NodeId(base + extra_position.size() - 1);
  }
  void add_arc(search::NodeId from, search::NodeId to, double cost, double clearance) {
    arcs.push_back({from, to, cost, clearance});
    if (from < base && !from_base[from]) {
      from_base[from] = 1;
      flagged.push_back(from);
    }
  }
  void seal() {
    std::stable_sort(arcs.begin(), arcs.end(),
                     [](const ExtraArc& a, const ExtraArc& b) { return a.from < b.from; });
  }
  Point position(search::NodeId n) const {
    return n < base ? roadmap->node_position(n) : extra_position[n - base];
  }
  std::size_t node_count() const { return base + extra_position.size(); }
  template <class F>
  void for_each_arc(search::NodeId n, F&& f) const {
    if (n < base) {
      roadmap->for_each_arc(n, f);
      if (!from_base[n]) return;
    }
    auto it = std::lower_bound(arcs.begin(), arcs.end(), n,
                               [](const ExtraArc& a, search::NodeId v) { return a.from < v; });
    for (; it != arcs.end() && it->from == n; ++it) f(it->to, it->cost, it->clearance);
  }
  template <class F>
  void for_each_neighbour(search::NodeId n, F&& f) const {
    for_each_arc(n, [&](search::NodeId to, double cost, double clearance) {
      if (clearance >= threshold) f(to, cost);
    });
  }
};

// The widest-path search's records, stamped per query so that nothing is cleared between them.
struct WidestState {
  std::vector<double> width;
  std::vector<std::uint32_t> stamp;
  std::vector<std::uint8_t> closed;
  std::uint32_t current = 0;
  std::vector<std::pair<double, search::NodeId>> heap;

  void begin(std::size_t nodes) {
    if (stamp.size() < nodes) {
      width.resize(nodes);
      stamp.resize(nodes, 0);
      closed.resize(nodes);
    }
    if (++current == 0) {
      std::fill(stamp.begin(), stamp.end(), 0u);
      current = 1;
    }
    heap.clear();
  }
  double width_of(search::NodeId n) const {
    return stamp[n] == current ? width[n] : -std::numeric_limits<double>::infinity();
  }
};

struct QueryState {
  QueryGraph graph;
  WidestState widest;
  std::vector<search::NodeId> goal_nodes;
  std::vector<Attachment> attached;
};

class ClearanceMethod final : public Method {
 public:
  ClearanceMethod(const FreeSpace& space, const ClearanceOptions& options)
      : space_(&space), roadmap_(space, options) {}

  const Discretisation& discretisation() const override { return roadmap_; }

  void prepare(QueryWorkspace& workspace) const override {
    workspace.astar.reserve(roadmap_.node_count() + 8);
    QueryState& q = workspace.state<QueryState>();
    q.widest.begin(roadmap_.node_count() + 8);
    q.graph.reset(roadmap_);
  }

  RawPath find_path(Point start, Point goal, const QueryOptions& options,
                    QueryWorkspace& workspace) const override {
    std::size_t reached = 0;
    return run(start, std::span(&goal, 1), options, workspace, reached);
  }

  RawPath find_path_to_any(Point start, std::span<const Point> goals, const QueryOptions& options,
                           QueryWorkspace& workspace, std::size_t& reached_goal) const override {
    return run(start, goals, options, workspace, reached_goal);
  }

  Reach reach(Point from, double max_cost, QueryWorkspace& workspace) const override {
    return polynav::reach(roadmap_, from, max_cost, workspace);
  }

 private:
  // Joins the query's end `p` (extra node `end`) to the roadmap: its nearest visible nodes and
  // its retraction; returns the roadmap nodes it joins.
  void connect(Point p, search::NodeId end, AttachDirection direction, QueryState& q,
               std::vector<search::NodeId>& joined) const {
    const bool outgoing = direction == AttachDirection::from_point;
    const auto add = [&](search::NodeId from, search::NodeId to, Point a, Point b) {
      // a -> b in the direction of travel; from -> to the node ids.
      if (!space_->traversable(a, b)) return false;
      q.graph.add_arc(from, to, space_->segment_cost(a, b), space_->clearance(a, b));
      return true;
    };
    roadmap_.attach(p, direction, q.attached);
    for (const Attachment& a : q.attached) {
      const Point at = roadmap_.node_position(a.node);
      const double clearance = space_->clearance(p, at);
      if (outgoing) {
        q.graph.add_arc(end, a.node, a.cost, clearance);
      } else {
        q.graph.add_arc(a.node, end, a.cost, clearance);
      }
      joined.push_back(a.node);
    }
    const std::optional<Retraction> r = roadmap_.retraction(p);
    if (!r) return;
    for (const search::NodeId n : {r->a, r->b}) {
      if (!roadmap_.attachable(n)) continue;
      const Point at = roadmap_.node_position(n);
      if (r->at == at) {
        if (outgoing ? add(end, n, p, at) : add(n, end, at, p)) joined.push_back(n);
        return;
      }
    }
    if (r->at == p) {
      // p lies on the arc itself: along it to either end.
      for (const search::NodeId n : {r->a, r->b}) {
        if (!roadmap_.attachable(n)) continue;
        const Point at = roadmap_.node_position(n);
        if (outgoing ? add(end, n, p, at) : add(n, end, at, p)) joined.push_back(n);
      }
      return;
    }
    const search::NodeId m = q.graph.add_node(r->at);
    if (!(outgoing ? add(end, m, p, r->at) : add(m, end, r->at, p))) return;
    for (const search::NodeId n : {r->a, r->b}) {
      if (!roadmap_.attachable(n)) continue;
      const Point at = roadmap_.node_position(n);
      if (outgoing ? add(m, n, r->at, at) : add(n, m, at, r->at)) joined.push_back(n);
    }
  }

  RawPath empty() const {
    RawPath out;
    out.method = roadmap_.method();
    out.method_has_corridors = false;
    out.has_corridor = false;
    return out;
  }

  RawPath run(Point start, std::span<const Point> goals, const QueryOptions& options,
              QueryWorkspace& workspace, std::size_t& reached_goal) const {
    RawPath out = empty();
    reached_goal = goals.size();
    if (goals.empty()) {
      out.message = "the goal set is empty";
      return out;
    }
    QueryState& q = workspace.state<QueryState>();
    QueryGraph& graph = q.graph;
    graph.reset(roadmap_);
    const search::NodeId s = graph.add_node(start);
    std::vector<search::NodeId> start_nodes, goal_nodes;
    connect(start, s, AttachDirection::from_point, q, start_nodes);
    q.goal_nodes.clear();
    bool direct = false, goal_joined = false;
    for (const Point& goal : goals) {
      const search::NodeId g = graph.add_node(goal);
      q.goal_nodes.push_back(g);
      const std::size_t before = goal_nodes.size();
      connect(goal, g, AttachDirection::to_point, q, goal_nodes);
      goal_joined = goal_joined || goal_nodes.size() > before;
      // The straight segment, when it is a valid motion, competes like any other path.
      if (space_->traversable(start, goal)) {
        graph.add_arc(s, g, space_->segment_cost(start, goal), space_->clearance(start, goal));
        direct = true;
      }
    }
    graph.seal();
    const auto refuse = [&](search::SearchStatus status, std::string message) {
      out.status = status;
      out.message = std::move(message);
      return out;
    };
    if (!direct) {
      if (start_nodes.empty())
        return refuse(roadmap_.unattached_status(), roadmap_.unattached_reason("start"));
      if (!goal_joined)
        return refuse(roadmap_.unattached_status(), roadmap_.unattached_reason("goal"));
      const search::ComponentLabels& labels = *roadmap_.components();
      bool shared = false;
      for (const search::NodeId a : start_nodes)
        for (const search::NodeId b : goal_nodes) shared = shared || labels.same_component(a, b);
      if (!shared)
        return refuse(search::SearchStatus::no_path,
                      goals.size() == 1
                          ? "no_path: start and goal attach to different connected "
                            "components of the clearance roadmap"
                          : "no_path: no goal of the set is reachable from the start");
    }

    // First the bottleneck: the widest path to any goal.
    const search::SearchOptions& so = options.search;
    const search::SearchBudget budget(std::numeric_limits<double>::infinity(), so.max_expansions,
                                      so.max_time);
    WidestState& w = q.widest;
    w.begin(graph.node_count());
    const auto open = [&](search::NodeId n, double width) {
      w.stamp[n] = w.current;
      w.width[n] = width;
      w.closed[n] = 0;
      w.heap.emplace_back(width, n);
      std::push_heap(w.heap.begin(), w.heap.end());
    };
    const auto is_goal = [&](search::NodeId n) {
      return std::find(q.goal_nodes.begin(), q.goal_nodes.end(), n) != q.goal_nodes.end();
    };
    open(s, std::numeric_limits<double>::infinity());
    search::SearchStats stats;
    search::SearchLimit stop = search::SearchLimit::none;
    search::NodeId widest_goal = search::no_node;
    while (!w.heap.empty()) {
      std::pop_heap(w.heap.begin(), w.heap.end());
      // Named, not structured bindings: the lambda below uses them (clang 14 cannot capture
      // those).
      const double width = w.heap.back().first;
      const search::NodeId n = w.heap.back().second;
      w.heap.pop_back();
      ++stats.heap_pops;
      if (w.closed[n] || width < w.width[n]) continue;
      w.closed[n] = 1;
      if (is_goal(n)) {
        widest_goal = n;
        break;
      }
      if ((stop = budget.before_expansion(stats.expanded)) != search::SearchLimit::none) break;
      ++stats.expanded;
      graph.for_each_arc(n, [&](search::NodeId to, double, double clearance) {
        ++stats.generated;
        const double through = std::min(width, clearance);
        if (through > w.width_of(to)) {
          open(to, through);
          ++stats.heap_pushes;
        }
      });
    }

    // Then the cost, over the arcs at least as wide.
    search::SearchOptions astar_options = so;
    if (so.max_time != std::chrono::nanoseconds::max()) {
      astar_options.max_time = std::max(
          std::chrono::nanoseconds(0),
          so.max_time - std::chrono::duration_cast<std::chrono::nanoseconds>(budget.elapsed()));
    }
    if (widest_goal != search::no_node) {
      // A relative 1e-9 below the bottleneck, so that paths as wide but for rounding count too.
      const double bottleneck = w.width[widest_goal];
      graph.threshold = bottleneck >= 0.0 ? bottleneck * (1.0 - 1e-9) : bottleneck;
    } else if (so.partial_fallback) {
      graph.threshold = -std::numeric_limits<double>::infinity();
    } else {
      out.stats = stats;
      out.stats.elapsed = budget.elapsed();
      if (stop != search::SearchLimit::none)
        return refuse(search::SearchStatus::limit_reached,
                      search::limit_reached_explanation(stop, budget.value_of(stop), stats));
      return refuse(search::SearchStatus::no_path,
                    goals.size() == 1
                        ? "no_path: no path through the clearance roadmap joins start and goal"
                        : "no_path: no goal of the set is reachable from the start");
    }
    const double min_cost = space_->min_cost();
    const auto h = [&](search::NodeId n) {
      const Point at = graph.position(n);
      double best = std::numeric_limits<double>::infinity();
      for (const Point& goal : goals) best = std::min(best, min_cost * distance(at, goal));
      return best;
    };
    search::SearchResult& result = workspace.result;
    if (options.record_expanded) {
      workspace.astar.search(graph, s, q.goal_nodes, h, astar_options, result,
                             detail::ExpandedRecorder<ClearanceRoadmap>{&roadmap_, &out.expanded});
    } else {
      workspace.astar.search(graph, s, q.goal_nodes, h, astar_options, result);
    }
    out.status = result.status;
    out.graph_cost = result.cost;
    out.stats = result.stats;
    out.stats.expanded += stats.expanded;
    out.stats.generated += stats.generated;
    out.stats.heap_pushes += stats.heap_pushes;
    out.stats.heap_pops += stats.heap_pops;
    out.stats.elapsed = budget.elapsed();
    if (result.path.empty()) {
      out.message = result.explanation();
      return out;
    }
    // The path, and its least clearance: of each step, the cheapest arc A* could take.
    double least = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < result.path.size(); ++k) {
      const search::NodeId n = result.path[k];
      const Point at = graph.position(n);
      if (out.points.empty() || !(out.points.back() == at)) out.points.push_back(at);
      if (n < graph.base) out.nodes.push_back(n);
      if (k + 1 == result.path.size()) break;
      double cost = std::numeric_limits<double>::infinity(), width = 0.0;
      graph.for_each_arc(n, [&](search::NodeId to, double c, double clearance) {
        if (to == result.path[k + 1] && clearance >= graph.threshold && c < cost) {
          cost = c;
          width = clearance;
        }
      });
      least = std::min(least, width);
    }
    if (out.status == search::SearchStatus::found) {
      const auto it = std::find(q.goal_nodes.begin(), q.goal_nodes.end(), result.path.back());
      reached_goal = std::size_t(it - q.goal_nodes.begin());
      out.message = "least clearance " + shortest_text(least) +
                    (widest_goal != search::no_node
                         ? std::string(" (the largest any roadmap path keeps)")
                         : std::string(" (the widest-path search stopped short: not "
                                       "necessarily the largest)"));
    } else {
      out.message = result.explanation();
    }
    return out;
  }

  const FreeSpace* space_;
  ClearanceRoadmap roadmap_;
};

}  // namespace

std::unique_ptr<Method> make_clearance_method(const FreeSpace& space,
                                              const ClearanceOptions& options) {
  return std::make_unique<ClearanceMethod>(space, options);
}

}  // namespace polynav
