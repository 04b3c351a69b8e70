#include "polynav/discretise/weighted/weighted_graph.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "polynav/discretise/method.hpp"
#include "polynav/error.hpp"
#include "polynav/space/free_space.hpp"

// The approximation guarantee, and what it assumes.
//
// Let an optimal path cross the triangles' edges at x_1 .. x_k in order (x_0 = start, x_{k+1} =
// goal): the piece w_i from x_i to x_{i+1} is a straight segment of length L_i inside one
// triangle f_i of multiplier c_i (Mitchell and Papadimitriou 1991: optimal paths are straight
// where the cost is constant). Let x_i lie on edge e at distance a_i from e's nearer end, and
// let s_e be the least sine of the angles at e's ends in its two triangles (1 for an obtuse one).
//  (1) Moving x_i along e to the nearer end of its Steiner interval moves it by at most
//      Delta_i <= delta_e a_i / 2 (the points are a geometric progression of ratio 1 + delta_e
//      from each end, so an interval is at most delta_e times its distance from the end long).
//  (2) When x_{i+1} lies on another side of f_i, L_i >= s_e a_i (the distance from x_i to the
//      other two sides), and likewise L_{i-1} >= s_e a_i.
//  (3) |w + d| <= |w| + (w / |w|) . d + |d|^2 / (2 |w|) for any vectors (square both sides).
// Snap every x_i to its Steiner point y_i: piece i becomes w_i + d_i with d_i = (y_{i+1} -
// x_{i+1}) - (y_i - x_i), still inside f_i. By (3) the cost rises by at most a linear term plus
// sum_i c_i |d_i|^2 / (2 L_i). The linear term, gathered per crossing, is Delta_i times the
// derivative of the path's cost as x_i slides along e, which is 0 at an optimum where x_i is
// inside an edge between free triangles (refraction, Snell's law). The rest is at most
// sum_i c_i (Delta_i^2 + Delta_{i+1}^2) / L_i <= sum_i c_i L_i delta^2 / (2 s^2) by (1) and (2).
// With delta_e = s_e sqrt(2 epsilon) the snapped path, a path of the graph, costs at most
// (1 + epsilon) times the optimum: the O(1 / sqrt(epsilon)) points per edge of Aleksandrov,
// Maheshwari and Sack (2005), whose analysis this follows in a simpler, planar form. A run of
// the path along an edge is linear in its ends' places and adds no quadratic term.
// What the argument does not cover, and the method says so rather than hiding it:
//  - a crossing within r_e = epsilon s_e |e| / 8 of a vertex is snapped to the vertex; by the
//    same algebra that adds at most (c_{i-1} + c_i) epsilon |e| / 8 per such crossing, an
//    additive term;
//  - the first and last crossings: the start's piece has no lower bound on its length, so its
//    linear term is bounded by (c_0 + c_1) Delta_1 instead (and the goal's alike);
//  - triangles with an angle below 10 degrees at an edge's end: s_e is taken as sin(10 degrees),
//    so the pieces beside such a crossing are charged up to epsilon (sin(10 deg) / s_e)^2;
//  - heights with a climb limit (arcs that climb too high are dropped; the argument is for the
//    unconstrained optimum), and zero-width gaps left open (the graph does not pass them).
// The lower bound (lower_bound()) assumes none of this; the experiment harness and the tests use
// it to check answers rather than trust the argument above. The refinement after the search
// (refine()) only ever lowers the cost.

namespace polynav {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// The sine of the angle at `at` between the rays to u and v, or 1 when it is obtuse: then the
// nearest point of the ray to v from any point of the ray to u is `at` itself.
double corner_sine(Point at, Point u, Point v) {
  const Point du = u - at, dv = v - at;
  if (dot(du, dv) <= 0.0) return 1.0;
  const double lengths = std::hypot(du.x, du.y) * std::hypot(dv.x, dv.y);
  return lengths > 0.0 ? std::abs(cross(du, dv)) / lengths : 0.0;
}

double point_segment_distance(Point p, const Segment& s) {
  const Point d = s.b - s.a;
  const double len2 = dot(d, d);
  if (len2 == 0.0) return distance(p, s.a);
  const double t = std::clamp(dot(p - s.a, d) / len2, 0.0, 1.0);
  return distance(p, s.a + t * d);
}

// Pieces of one triangle's boundary meet only at their ends, never cross: their distance is the
// least of the four end-to-segment distances.
double segment_distance(const Segment& u, const Segment& v) {
  return std::min({point_segment_distance(u.a, v), point_segment_distance(u.b, v),
                   point_segment_distance(v.a, u), point_segment_distance(v.b, u)});
}

NavPartitionOptions triangles_by_cost(const WeightedOptions& options) {
  if (!(options.epsilon > 0.0) || !std::isfinite(options.epsilon)) {
    std::ostringstream text;
    text << "weighted.epsilon must be a finite number > 0, found " << options.epsilon;
    throw InputError({"", 0, 0, "weighted.epsilon"}, text.str());
  }
  if (options.max_points < 1)
    throw InputError({"", 0, 0, "weighted.max_points"}, "weighted.max_points must be >= 1");
  NavPartitionOptions out;
  out.source = NavMeshSource::rebuild;  // triangles, whatever the scene's own faces
  out.merge = false;
  out.regions = true;  // every region outline is a constraint: one multiplier per triangle
  out.max_build_seconds = options.max_build_seconds;
  return out;
}

// Angles below 10 degrees are taken as 10 degrees: the points an edge needs grow as 1 / sine,
// and the constrained triangulation of inflated obstacles has slivers whose points would
// outnumber all others (see the comment at the top for what this costs the guarantee).
constexpr double min_sine = 0.17364817766693033;

// The placement on an edge: the vicinity radius r (as a share of the edge's length) and the
// ratio 1 + delta of the progression.
struct Spacing {
  double vicinity;
  double delta;
};

Spacing spacing(double epsilon, double sine) {
  return {epsilon * sine / 8.0, sine * std::sqrt(2.0 * epsilon)};
}

// The distances from one end of an edge of length `length` at which its Steiner points lie, up
// to (not including) the middle: r, r (1 + delta), r (1 + delta)^2, ...
template <class F>
void progression(double length, Spacing s, F&& f) {
  for (double d = s.vicinity * length; d < 0.5 * length; d *= 1.0 + s.delta) f(d);
}

// How many, computed without the loop so that a refused budget costs nothing (an upper bound:
// log((length / 2) / r) / log(1 + delta), rounded up).
std::size_t progression_count(Spacing s) {
  const double n = std::ceil(std::log(0.5 / s.vicinity) / std::log1p(s.delta)) + 1.0;
  return n > 0 ? std::size_t(n) : 0;
}

}  // namespace

WeightedGraph::WeightedGraph(const FreeSpace& space, WeightedOptions options)
    : space_(&space), options_(options), partition_(space, triangles_by_cost(options)) {
  const auto t0 = Clock::now();
  const BuildClock clock(options_.max_build_seconds);
  has_heights_ = space.has_heights() && std::isfinite(space.agent().max_climb);
  const NavPartition& part = partition_;
  const std::size_t faces = part.polygon_count();
  for (std::size_t f = 0; f < faces; ++f)
    if (part.polygon(f).size() != 3)
      throw std::logic_error("weighted: the partition is not made of triangles");
  stats_.triangles = faces;

  // Vertices: the partition's (one per point and free sector round it). A constructed vertex
  // (a rounded crossing of a region outline with the boundary) that rounding put outside free
  // space is no node.
  vertex_nodes_ = part.vertex_count();
  nodes_.reserve(vertex_nodes_);
  std::vector<std::uint8_t> usable(vertex_nodes_, 1);
  for (std::size_t v = 0; v < vertex_nodes_; ++v) {
    nodes_.push_back(part.vertex_point(v));
    usable[v] = space.is_free(nodes_.back()) ? 1 : 0;
  }
  stats_.vertices = std::size_t(std::count(usable.begin(), usable.end(), 1));

  // Steiner points per portal (an edge between two free triangles), counted before any is
  // stored so that a refused budget costs nothing.
  const std::size_t portals = part.portal_count();
  std::vector<std::array<Spacing, 2>> place(portals);
  std::size_t total = 0;
  for (std::size_t k = 0; k < portals; ++k) {
    const NavPartition::Portal& portal = part.portal(k);
    double sa = 1.0, sb = 1.0;
    for (const std::uint32_t f : portal.side) {
      const std::span<const Point> t = part.polygon(f);
      Point z = t[0];
      for (const Point& p : t)
        if (!(p == portal.a) && !(p == portal.b)) z = p;
      sa = std::min(sa, corner_sine(portal.a, portal.b, z));
      sb = std::min(sb, corner_sine(portal.b, portal.a, z));
    }
    // One sine for both ends: a piece from near one end is bounded by the angles at both (the
    // far side's distance shrinks with the far end's angle too).
    const Spacing both = spacing(options_.epsilon, std::max(std::min(sa, sb), min_sine));
    place[k] = {both, both};
    const double length = distance(portal.a, portal.b);
    total += length > 0.0 ? progression_count(place[k][0]) + progression_count(place[k][1]) + 1 : 0;
  }
  if (total > options_.max_points) {
    std::ostringstream text;
    text << "weighted.epsilon = " << options_.epsilon << " needs about " << total
         << " Steiner points on the " << portals
         << " edges between free triangles, more than weighted.max_points = " << options_.max_points
         << "; raise weighted.max_points or use a larger weighted.epsilon (the points grow "
            "about as log(1 / epsilon) / sqrt(epsilon))";
    throw InputError({"", 0, 0, "weighted.max_points"}, text.str());
  }
  clock.check("the weighted Steiner graph");
  portal_first_point_.resize(portals);
  portal_points_.resize(portals);
  std::vector<double> along;
  for (std::size_t k = 0; k < portals; ++k) {
    const NavPartition::Portal& portal = part.portal(k);
    const double length = distance(portal.a, portal.b);
    along.clear();
    if (length > 0.0) {
      progression(length, place[k][0], [&](double d) { along.push_back(d); });
      along.push_back(0.5 * length);
      progression(length, place[k][1], [&](double d) { along.push_back(length - d); });
      std::sort(along.begin(), along.end());
      along.erase(std::unique(along.begin(), along.end()), along.end());
    }
    portal_first_point_[k] = std::uint32_t(nodes_.size());
    portal_points_[k] = std::uint32_t(along.size());
    const Point d = portal.b - portal.a;
    for (const double t : along) {
      nodes_.push_back(portal.a + (t / length) * d);
      point_portal_.push_back(std::uint32_t(k));
    }
  }
  stats_.points = nodes_.size() - vertex_nodes_;
  clock.check("the weighted Steiner graph");

  // Each face's boundary nodes, with the sides each lies on, and the multipliers.
  face_first_.assign(1, 0);
  face_cost_.resize(faces);
  side_cost_.resize(3 * faces);
  min_cost_ = std::numeric_limits<double>::infinity();
  for (std::uint32_t f = 0; f < faces; ++f) {
    const std::span<const Point> t = part.polygon(f);
    face_cost_[f] = part.polygon_cost(f);
    min_cost_ = std::min(min_cost_, face_cost_[f]);
    const std::size_t c0 = part.first_corner(f);
    for (int k = 0; k < 3; ++k) {
      // Along a side, the multiplier FreeSpace gives the side itself (a region outline
      // belongs to one of the regions it separates), so that arcs cost what the path costs.
      side_cost_[3 * f + k] = space.cost_at(0.5 * (t[k] + t[(k + 1) % 3]));
      min_cost_ = std::min(min_cost_, side_cost_[3 * f + k]);
      const std::uint32_t v = part.corner_vertex(c0 + k);
      if (usable[v]) {
        face_nodes_.push_back(v);
        face_sides_.push_back(std::uint8_t((1u << k) | (1u << ((k + 2) % 3))));
      }
    }
    for (int k = 0; k < 3; ++k) {
      const std::int32_t portal = part.corner_portal(c0 + k);
      if (portal < 0) continue;
      for (std::uint32_t j = 0; j < portal_points_[portal]; ++j) {
        face_nodes_.push_back(portal_first_point_[portal] + j);
        face_sides_.push_back(std::uint8_t(1u << k));
      }
    }
    face_first_.push_back(std::uint32_t(face_nodes_.size()));
  }
  if (faces == 0) min_cost_ = space.min_cost();

  // Each node's faces.
  node_face_first_.assign(nodes_.size() + 1, 0);
  for (const search::NodeId n : face_nodes_) ++node_face_first_[n + 1];
  for (std::size_t n = 1; n <= nodes_.size(); ++n) node_face_first_[n] += node_face_first_[n - 1];
  node_faces_.resize(face_nodes_.size());
  {
    std::vector<std::uint32_t> next(node_face_first_.begin(), node_face_first_.end() - 1);
    for (std::uint32_t f = 0; f < faces; ++f)
      for (std::uint32_t j = face_first_[f]; j < face_first_[f + 1]; ++j)
        node_faces_[next[face_nodes_[j]]++] = {f, j - face_first_[f]};
  }
  for (std::uint32_t f = 0; f < faces; ++f) {
    const std::size_t n = face_first_[f + 1] - face_first_[f];
    stats_.arcs += n * (n - 1);
  }
  // A segment inside a triangle is at its height but at its ends, which may take a touching
  // triangle's height (FreeSpace gives a boundary point the last region containing it): where
  // every triangle sharing a vertex with it has its height, no arc of it climbs.
  face_flat_.assign(faces, 1);
  if (has_heights_) {
    for (std::uint32_t f = 0; f < faces; ++f) {
      const double h = part.polygon_height(f);
      for (int k = 0; k < 3 && face_flat_[f]; ++k) {
        const std::uint32_t v = part.corner_vertex(part.first_corner(f) + k);
        if (!usable[v]) face_flat_[f] = 0;
        for (std::uint32_t j = node_face_first_[v]; j < node_face_first_[v + 1]; ++j)
          if (part.polygon_height(node_faces_[j].face) != h) face_flat_[f] = 0;
      }
    }
  }
  clock.check("the weighted Steiner graph");

  // The lower bound's pieces: every vertex (with zero-width gaps open, the vertices at one
  // point are one piece: a path may pass from one sector to another there), then the intervals
  // between consecutive points of each portal, its ends included.
  std::vector<std::uint32_t> vertex_element(vertex_nodes_);
  std::iota(vertex_element.begin(), vertex_element.end(), 0u);
  if (space.open_gaps()) {
    std::vector<std::uint32_t> order(vertex_nodes_);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      const Point p = nodes_[a], q = nodes_[b];
      return p.x < q.x || (p.x == q.x && (p.y < q.y || (p.y == q.y && a < b)));
    });
    for (std::size_t i = 1; i < order.size(); ++i)
      if (nodes_[order[i]] == nodes_[order[i - 1]])
        vertex_element[order[i]] = vertex_element[order[i - 1]];
  }
  lb_segments_.clear();
  for (std::size_t v = 0; v < vertex_nodes_; ++v) lb_segments_.push_back({nodes_[v], nodes_[v]});
  std::vector<std::uint32_t> interval_first(portals);
  for (std::size_t k = 0; k < portals; ++k) {
    const NavPartition::Portal& portal = part.portal(k);
    interval_first[k] = std::uint32_t(lb_segments_.size());
    Point from = portal.a;
    for (std::uint32_t j = 0; j < portal_points_[k]; ++j) {
      const Point p = nodes_[portal_first_point_[k] + j];
      lb_segments_.push_back({from, p});
      from = p;
    }
    lb_segments_.push_back({from, portal.b});
    lb_interval_portal_.resize(lb_segments_.size() - vertex_nodes_, std::uint32_t(k));
  }
  lb_face_first_.assign(1, 0);
  lb_face_cost_.resize(faces);
  for (std::uint32_t f = 0; f < faces; ++f) {
    const std::size_t c0 = part.first_corner(f);
    // The least multiplier anywhere on the closed triangle: its own, or one of its sides'
    // (a path may run along a side, where FreeSpace may give the other region's multiplier).
    double least = face_cost_[f];
    for (int k = 0; k < 3; ++k) {
      least = std::min(least, side_cost_[3 * f + k]);
      lb_face_elements_.push_back(vertex_element[part.corner_vertex(c0 + k)]);
      lb_face_sides_.push_back(std::uint8_t((1u << k) | (1u << ((k + 2) % 3))));
    }
    lb_face_cost_[f] = least;
    for (int k = 0; k < 3; ++k) {
      const std::int32_t portal = part.corner_portal(c0 + k);
      if (portal < 0) continue;
      for (std::uint32_t j = 0; j <= portal_points_[portal]; ++j) {
        lb_face_elements_.push_back(interval_first[portal] + j);
        lb_face_sides_.push_back(std::uint8_t(1u << k));
      }
    }
    lb_face_first_.push_back(std::uint32_t(lb_face_elements_.size()));
  }
  lb_element_face_first_.assign(lb_segments_.size() + 1, 0);
  for (const std::uint32_t e : lb_face_elements_) ++lb_element_face_first_[e + 1];
  for (std::size_t e = 1; e <= lb_segments_.size(); ++e)
    lb_element_face_first_[e] += lb_element_face_first_[e - 1];
  lb_element_faces_.resize(lb_face_elements_.size());
  {
    std::vector<std::uint32_t> next(lb_element_face_first_.begin(),
                                    lb_element_face_first_.end() - 1);
    for (std::uint32_t f = 0; f < faces; ++f)
      for (std::uint32_t j = lb_face_first_[f]; j < lb_face_first_[f + 1]; ++j)
        lb_element_faces_[next[lb_face_elements_[j]]++] = {f, j - lb_face_first_[f]};
  }
  clock.check("the weighted Steiner graph");
  stats_.build_ms = ms_since(t0);
}

bool WeightedGraph::climbable(Point a, Point b) const {
  return space_->climbable(a, b);
}

void WeightedGraph::attach(Point p, AttachDirection direction, std::vector<Attachment>& out) const {
  out.clear();
  std::vector<std::uint32_t> faces;
  locate(p, faces);
  for (const std::uint32_t f : faces) {
    for (std::uint32_t j = face_first_[f]; j < face_first_[f + 1]; ++j) {
      const search::NodeId m = face_nodes_[j];
      const Point q = nodes_[m];
      if (q == p) {
        out.push_back({m, 0.0});
        continue;
      }
      const Point a = direction == AttachDirection::from_point ? p : q;
      const Point b = direction == AttachDirection::from_point ? q : p;
      // Inside the closed triangle, so in free space; checked all the same, since a triangle
      // with a rounded corner may stick out of it by that rounding.
      if (!space_->traversable(a, b)) continue;
      out.push_back({m, space_->segment_cost(a, b)});
    }
  }
}

std::string WeightedGraph::unattached_reason(std::string_view which) const {
  return "the " + std::string(which) + " lies in no triangle of the weighted Steiner graph";
}

std::optional<double> WeightedGraph::same_triangle_cost(Point start, Point goal) const {
  std::vector<std::uint32_t> a, b;
  locate(start, a);
  locate(goal, b);
  for (const std::uint32_t f : a) {
    if (std::find(b.begin(), b.end(), f) == b.end()) continue;
    if (!space_->traversable(start, goal)) return std::nullopt;
    return space_->segment_cost(start, goal);
  }
  return std::nullopt;
}

std::string WeightedGraph::summary() const {
  std::ostringstream out;
  out << stats_.points << " Steiner points (epsilon " << options_.epsilon << ") and "
      << stats_.vertices << " vertices on " << stats_.triangles << " triangles, " << stats_.arcs
      << " implicit arcs";
  return out.str();
}

Primitives WeightedGraph::primitives() const {
  Primitives out;
  for (std::size_t f = 0; f < partition_.polygon_count(); ++f) {
    const std::span<const Point> t = partition_.polygon(f);
    out.regions.emplace_back(t.begin(), t.end());
  }
  for (std::size_t n = vertex_nodes_; n < nodes_.size(); ++n) out.nodes.push_back(nodes_[n]);
  return out;
}

std::optional<double> WeightedGraph::lower_bound(Point start, Point goal,
                                                 QueryWorkspace& workspace) const {
  // Why this bounds the optimum. Cut an optimal path where it passes from one triangle into
  // another (through the interior of an edge, or through a vertex): the pieces between cuts
  // lie in one closed triangle each, consecutive pieces in different triangles, and each is a
  // straight segment between two points on different sides of its triangle, or a run along one
  // side (a bend inside a triangle, or two runs in a row along one side, would not be optimal:
  // the straight segment or the one run is no dearer). A piece from piece E to piece E' of the
  // triangle's boundary costs at least the triangle's least multiplier times the distance
  // between E and E'. So the cheapest walk over the pieces that follows the same rules is at
  // most the optimum's cost. The rules matter: without them a walk could hop along an edge from
  // interval to touching interval for nothing. A state is a vertex, or an interval with how it
  // was reached: through the triangle on side 0 or on side 1 of its edge (the next piece lies in
  // the other), or by a run along its edge (the next piece is no run).
  struct State {
    std::vector<double> dist;
    std::vector<std::uint32_t> stamp;
    std::uint32_t generation = 0;
    std::vector<std::uint32_t> start_faces, goal_faces;
    std::vector<std::pair<double, std::uint32_t>> heap;
  };
  State& st = workspace.state<State>();
  locate(start, st.start_faces);
  locate(goal, st.goal_faces);
  if (st.start_faces.empty() || st.goal_faces.empty()) return std::nullopt;
  const std::uint32_t vertices = std::uint32_t(vertex_nodes_);
  const std::size_t intervals = lb_segments_.size() - vertex_nodes_;
  const std::uint32_t target = std::uint32_t(vertex_nodes_ + 3 * intervals);
  if (st.dist.size() < std::size_t(target) + 1) {
    st.dist.assign(std::size_t(target) + 1, 0.0);
    st.stamp.assign(std::size_t(target) + 1, 0);
    st.generation = 0;
  }
  if (++st.generation == 0) {
    std::fill(st.stamp.begin(), st.stamp.end(), 0u);
    st.generation = 1;
  }
  const auto value = [&](std::uint32_t e) {
    return st.stamp[e] == st.generation ? st.dist[e] : std::numeric_limits<double>::infinity();
  };
  std::vector<std::pair<double, std::uint32_t>>& heap = st.heap;
  heap.clear();
  const auto greater = std::greater<std::pair<double, std::uint32_t>>();
  const auto relax = [&](std::uint32_t e, double d) {
    if (d < value(e)) {
      st.dist[e] = d;
      st.stamp[e] = st.generation;
      heap.emplace_back(d, e);
      std::push_heap(heap.begin(), heap.end(), greater);
    }
  };
  const auto is_goal_face = [&](std::uint32_t f) {
    return std::find(st.goal_faces.begin(), st.goal_faces.end(), f) != st.goal_faces.end();
  };
  // The state of arriving at element o through face f (run: along one of f's sides).
  const auto state_of = [&](std::uint32_t o, std::uint32_t f, bool run) {
    if (o < vertices) return o;
    const std::uint32_t i = o - vertices;
    const NavPartition::Portal& p = partition_.portal(lb_interval_portal_[i]);
    return vertices + 3 * i + (run ? 2u : p.side[0] == f ? 0u : 1u);
  };
  // Every piece from element e (sides `mine` of face f) across f.
  const auto across = [&](std::uint32_t e, std::uint32_t f, std::uint8_t mine, double d,
                          bool runs) {
    const double c = lb_face_cost_[f];
    const Segment& here = lb_segments_[e];
    for (std::uint32_t j = lb_face_first_[f]; j < lb_face_first_[f + 1]; ++j) {
      const std::uint32_t o = lb_face_elements_[j];
      if (o == e) continue;
      const bool run = (mine & lb_face_sides_[j]) != 0;
      if (run && !runs) continue;
      relax(state_of(o, f, run), d + c * segment_distance(here, lb_segments_[o]));
    }
    if (is_goal_face(f)) relax(target, d + c * point_segment_distance(goal, here));
  };
  for (const std::uint32_t f : st.start_faces) {
    for (std::uint32_t j = lb_face_first_[f]; j < lb_face_first_[f + 1]; ++j) {
      const std::uint32_t o = lb_face_elements_[j];
      relax(state_of(o, f, false),
            lb_face_cost_[f] * point_segment_distance(start, lb_segments_[o]));
    }
    if (is_goal_face(f)) relax(target, lb_face_cost_[f] * distance(start, goal));
  }
  double best = std::numeric_limits<double>::infinity();
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), greater);
    const auto [d, s] = heap.back();
    heap.pop_back();
    if (d > value(s)) continue;  // a stale entry
    if (s == target) {
      best = d;
      break;
    }
    const std::uint32_t e = s < vertices ? s : vertices + (s - vertices) / 3;
    const std::uint32_t how = s < vertices ? 3u : (s - vertices) % 3;
    for (std::uint32_t k = lb_element_face_first_[e]; k < lb_element_face_first_[e + 1]; ++k) {
      const FaceSlot slot = lb_element_faces_[k];
      if (how < 2) {
        // Reached through one triangle of its edge: on into the other one only.
        const NavPartition::Portal& p = partition_.portal(lb_interval_portal_[e - vertices]);
        if (slot.face == p.side[how]) continue;
      }
      across(e, slot.face, lb_face_sides_[lb_face_first_[slot.face] + slot.index], d, how != 2);
    }
  }
  if (!std::isfinite(best)) return std::nullopt;
  // The distances are rounded; a relative margin far above their error keeps the bound safe.
  return best * (1.0 - 1e-9);
}

std::vector<Point> WeightedGraph::refine(Point start, std::span<const search::NodeId> nodes,
                                         Point end) const {
  std::vector<Point> points;
  points.reserve(nodes.size() + 2);
  points.push_back(start);
  for (const search::NodeId n : nodes) points.push_back(nodes_[n]);
  points.push_back(end);
  const std::vector<Point> before = points;
  // Each Steiner point's edge; vertices stay where they are.
  std::vector<std::optional<Segment>> edge(points.size());
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    if (nodes[k] < vertex_nodes_) continue;
    const NavPartition::Portal& portal = partition_.portal(point_portal_[nodes[k] - vertex_nodes_]);
    edge[k + 1] = Segment{portal.a, portal.b};
  }
  const auto local = [&](std::size_t k, Point p) {
    return space_->segment_cost(points[k - 1], p) + space_->segment_cost(p, points[k + 1]);
  };
  // Each point's cost is convex along its edge (both segments lie in triangles of one
  // multiplier each, and |x - q| is convex in x on a line), so golden-section search finds the
  // best place for it given its neighbours; sweeps repeat until the path stops improving
  // (coordinate descent on a convex function of the points' places).
  const double golden = (std::sqrt(5.0) - 1.0) / 2.0;
  for (int sweep = 0; sweep < 6; ++sweep) {
    double gain = 0.0;
    for (std::size_t k = 1; k + 1 < points.size(); ++k) {
      if (!edge[k]) continue;
      const Segment e = *edge[k];
      const auto at = [&](double t) { return e.a + t * (e.b - e.a); };
      double lo = 0.0, hi = 1.0;
      double x1 = hi - golden * (hi - lo), x2 = lo + golden * (hi - lo);
      double f1 = local(k, at(x1)), f2 = local(k, at(x2));
      for (int it = 0; it < 30; ++it) {
        if (f1 <= f2) {
          hi = x2, x2 = x1, f2 = f1;
          x1 = hi - golden * (hi - lo);
          f1 = local(k, at(x1));
        } else {
          lo = x1, x1 = x2, f1 = f2;
          x2 = lo + golden * (hi - lo);
          f2 = local(k, at(x2));
        }
      }
      const double t = f1 <= f2 ? x1 : x2;
      const double now = local(k, points[k]), next = std::min(f1, f2);
      if (next < now) {
        gain += now - next;
        points[k] = at(t);
      }
    }
    if (gain <= 1e-12 * std::max(1.0, space_->path_cost(points))) break;
  }
  // Every segment a valid motion and every turn free, else the unrefined path.
  std::vector<Point> out;
  for (const Point& p : points)
    if (out.empty() || !(out.back() == p)) out.push_back(p);
  for (std::size_t k = 0; k + 1 < out.size(); ++k) {
    if (!space_->traversable(out[k], out[k + 1])) return before;
    if (k > 0 && !space_->turn_is_free(out[k - 1], out[k], out[k + 1])) return before;
  }
  if (space_->path_cost(out) > space_->path_cost(before)) return before;
  return out;
}

namespace {

// The method: the driver's A* over the graph, then the straight segment where start and goal
// share a triangle and it is cheaper, the refinement, and the lower bound.
class WeightedMethod final : public Method {
 public:
  WeightedMethod(const FreeSpace& space, const WeightedOptions& options) : d_(space, options) {}
  const Discretisation& discretisation() const override { return d_; }

  RawPath find_path(Point start, Point goal, const QueryOptions& options,
                    QueryWorkspace& workspace) const override {
    RawPath out = polynav::find_path(d_, start, goal, options, workspace);
    if (const std::optional<double> direct = d_.same_triangle_cost(start, goal);
        direct && (out.status != search::SearchStatus::found || *direct <= out.graph_cost)) {
      out.status = search::SearchStatus::found;
      out.message.clear();
      out.nodes.clear();
      out.points = {start, goal};
      out.graph_cost = *direct;
    }
    finish(out, start, goal);
    // Without regions or a clearance cost the optimum is the visibility graph's, exactly; the
    // bound's search over every interval would only slow such scenes down.
    if (d_.options().lower_bound && d_.space().weighted())
      out.lower_bound = d_.lower_bound(start, goal, workspace);
    return out;
  }
  RawPath find_path_to_any(Point start, std::span<const Point> goals, const QueryOptions& options,
                           QueryWorkspace& workspace, std::size_t& reached_goal) const override {
    RawPath out = polynav::find_path_to_any(d_, start, goals, options, workspace, reached_goal);
    if (reached_goal < goals.size()) finish(out, start, goals[reached_goal]);
    return out;
  }
  Reach reach(Point from, double max_cost, QueryWorkspace& workspace) const override {
    return polynav::reach(d_, from, max_cost, workspace);
  }
  RawPath find_path_away(Point start, const FleeGoal& flee, std::span<const Point> places,
                         const QueryOptions& options, QueryWorkspace& workspace,
                         std::size_t& reached_place) const override {
    RawPath out =
        polynav::find_path_away(d_, start, flee, places, options, workspace, reached_place);
    if (out.status == search::SearchStatus::found && !out.points.empty())
      finish(out, start, out.points.back());
    return out;
  }

 private:
  void finish(RawPath& out, Point start, Point end) const {
    if (out.status != search::SearchStatus::found || !d_.options().refine || out.nodes.empty())
      return;
    // The raw path is start, the nodes, end (the graph's arcs are straight).
    out.points = d_.refine(start, out.nodes, end);
  }

  WeightedGraph d_;
};

}  // namespace

std::unique_ptr<Method> make_weighted_method(const FreeSpace& space,
                                             const WeightedOptions& options) {
  return std::make_unique<WeightedMethod>(space, options);
}

}  // namespace polynav
