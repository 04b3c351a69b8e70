#include "polynav/discretise/visibility_graph/visibility_graph.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>

#include "polynav/kernel/exact.hpp"
#include "polynav/error.hpp"
#include "polynav/io/svg.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {

using exact::orientation;

// A uniform grid of the boundary edges, walked along a query segment to find an edge that
// crosses it properly. Such a crossing is decided exactly and is exactly FreeSpace's first
// reason to refuse line of sight, so a rejection here never disagrees with FreeSpace; a segment
// the walk cannot reject (touching contacts, cells missed by rounding at grid corners) goes on
// to FreeSpace::line_of_sight, which alone accepts. The point is speed: the R-tree query behind
// line_of_sight collects every edge whose box meets the segment's box, which for a long
// diagonal is a large part of the scene, whereas the walk stops at the first blocking edge,
// usually a few cells from where it starts.
class VisibilityGraph::SegmentFilter {
 public:
  explicit SegmentFilter(const FreeSpace& space) {
    for (const BoundaryRing& ring : space.boundary()) {
      const Ring& pts = ring.points;
      for (std::size_t i = 0; i < pts.size(); ++i)
        edges_.push_back({pts[i], pts[(i + 1) % pts.size()]});
    }
    const Box box = space.box();
    if (edges_.empty() || box.empty()) return;
    // About two edges per cell: fewer cells make the walk shorter, more make each cell cheaper.
    const double area = std::max(box.width(), 1e-300) * std::max(box.height(), 1e-300);
    cell_ = std::sqrt(2.0 * area / double(edges_.size()));
    const double longest = std::max(box.width(), box.height());
    cell_ = std::max(cell_, longest / 4096.0);
    if (!(cell_ > 0.0) || !std::isfinite(cell_)) return;
    origin_ = box.min;
    nx_ = std::max(1, int(std::ceil(box.width() / cell_)));
    ny_ = std::max(1, int(std::ceil(box.height() / cell_)));
    offsets_.assign(std::size_t(nx_) * std::size_t(ny_) + 1, 0);
    for (const Segment& e : edges_)
      walk(e.a, e.b, [&](std::size_t c) {
        ++offsets_[c + 1];
        return false;
      });
    for (std::size_t c = 1; c < offsets_.size(); ++c) offsets_[c] += offsets_[c - 1];
    items_.resize(offsets_.back());
    std::vector<std::uint32_t> next(offsets_.begin(), offsets_.end() - 1);
    for (std::uint32_t i = 0; i < edges_.size(); ++i)
      walk(edges_[i].a, edges_[i].b, [&](std::size_t c) {
        items_[next[c]++] = i;
        return false;
      });
    seen_.assign(edges_.size(), 0);
  }

  /// Whether some boundary edge crosses segment ab at a single point interior to both (exact).
  bool crossed(Point a, Point b) {
    if (offsets_.empty() || a == b) return false;
    if (++stamp_ == 0) {
      std::fill(seen_.begin(), seen_.end(), 0u);
      stamp_ = 1;
    }
    const double x0 = std::min(a.x, b.x), x1 = std::max(a.x, b.x);
    const double y0 = std::min(a.y, b.y), y1 = std::max(a.y, b.y);
    return walk(a, b, [&](std::size_t c) {
      for (std::uint32_t k = offsets_[c]; k < offsets_[c + 1]; ++k) {
        const std::uint32_t e = items_[k];
        if (seen_[e] == stamp_) continue;  // long edges sit in several cells
        seen_[e] = stamp_;
        const Point u = edges_[e].a, v = edges_[e].b;
        // Disjoint boxes cannot cross (comparisons of the given doubles: exact and cheap).
        if (std::max(u.x, v.x) < x0 || std::min(u.x, v.x) > x1 || std::max(u.y, v.y) < y0 ||
            std::min(u.y, v.y) > y1)
          continue;
        if (orientation(a, b, u) * orientation(a, b, v) < 0 &&
            orientation(u, v, a) * orientation(u, v, b) < 0)
          return true;
      }
      return false;
    });
  }

 private:
  // Visits the cells along segment ab from a (Amanatides & Woo 1987) until visit(cell) returns
  // true; returns whether it did. Rounding may skip a cell the segment only clips at a corner,
  // which costs the filter a rejection, never a wrong one.
  template <class Visit>
  bool walk(Point a, Point b, Visit&& visit) const {
    const auto cell_of = [&](double v, double o, int n) {
      return std::clamp(int(std::floor((v - o) / cell_)), 0, n - 1);
    };
    int cx = cell_of(a.x, origin_.x, nx_), cy = cell_of(a.y, origin_.y, ny_);
    const int ex = cell_of(b.x, origin_.x, nx_), ey = cell_of(b.y, origin_.y, ny_);
    const double dx = b.x - a.x, dy = b.y - a.y;
    const int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
    constexpr double inf = std::numeric_limits<double>::infinity();
    double tx = dx == 0.0 ? inf : (origin_.x + (cx + (sx > 0)) * cell_ - a.x) / dx;
    double ty = dy == 0.0 ? inf : (origin_.y + (cy + (sy > 0)) * cell_ - a.y) / dy;
    const double step_x = dx == 0.0 ? inf : cell_ / std::abs(dx);
    const double step_y = dy == 0.0 ? inf : cell_ / std::abs(dy);
    // Bounded by the cells between the ends, so rounding can never make it run away.
    for (int left = std::abs(ex - cx) + std::abs(ey - cy) + 1; left > 0; --left) {
      if (visit(std::size_t(cy) * std::size_t(nx_) + std::size_t(cx))) return true;
      if (cx == ex && cy == ey) break;
      if (tx < ty ? cx != ex : cy == ey) {
        cx += sx;
        tx += step_x;
      } else {
        cy += sy;
        ty += step_y;
      }
    }
    return false;
  }

  std::vector<Segment> edges_;
  Point origin_;
  double cell_ = 0.0;
  int nx_ = 0;
  int ny_ = 0;
  std::vector<std::uint32_t> offsets_;  // per cell, into items_
  std::vector<std::uint32_t> items_;    // edge ids
  std::vector<std::uint32_t> seen_;     // per edge: the stamp of the last query that tested it
  std::uint32_t stamp_ = 0;
};

namespace {

using exact::same_direction;

// A boundary edge seen from its end `at`: the ray from `at` towards its other end. Free space
// lies on the left of every directed edge, so it lies just counter-clockwise of an outgoing
// ray and just clockwise of an incoming one.
struct EdgeRay {
  Point at;
  Point toward;
  bool outgoing;
  std::uint32_t component;
};

// Counter-clockwise order of directions around v, starting at +x (exact).
bool counter_clockwise_before(Point v, Point a, Point b) {
  const auto half = [&](Point t) { return t.y > v.y || (t.y == v.y && t.x > v.x) ? 0 : 1; };
  const int ha = half(a), hb = half(b);
  if (ha != hb) return ha < hb;
  return exact::orientation(v, a, b) > 0;
}

struct FoundCorner {
  Point at;
  Point before;  // the far end of the incoming edge
  Point after;   // the far end of the outgoing edge
  std::uint32_t component;
};

// The corners of the boundary whose free sector is wider than 180 degrees.
//
// A free sector at vertex v runs counter-clockwise from an outgoing ray to the next ray, which
// is incoming; it is wider than 180 degrees exactly when the boundary turns right there. Where
// several edges meet at one point (blocked parts touching, a hole touching the outer ring), how
// the rings pair incoming with outgoing edges is arbitrary (two squares touching at a corner may
// come as one ring through the point twice or as two rings), so the sectors are rebuilt from
// all rays at the point, sorted by angle: each free sector is then bounded by its own two edges
// whatever the pairing. A spike (both rays in one direction, nothing else at the point) has a
// free sector of 360 degrees and is a node.
std::vector<FoundCorner> wide_corners(const FreeSpace& space) {
  std::vector<EdgeRay> rays;
  for (const BoundaryRing& ring : space.boundary()) {
    const Ring& pts = ring.points;
    const std::size_t m = pts.size();
    for (std::size_t i = 0; i < m; ++i) {
      const Point a = pts[i], b = pts[(i + 1) % m];
      if (a == b) continue;  // a repeated point is no edge
      rays.push_back({a, b, true, ring.component});
      rays.push_back({b, a, false, ring.component});
    }
  }
  std::sort(rays.begin(), rays.end(), [](const EdgeRay& l, const EdgeRay& r) {
    return l.at.x < r.at.x || (l.at.x == r.at.x && l.at.y < r.at.y);
  });
  std::vector<FoundCorner> corners;
  for (std::size_t i = 0, j = 0; i < rays.size(); i = j) {
    const Point v = rays[i].at;
    for (j = i; j < rays.size() && rays[j].at == v; ++j) {
    }
    const auto first = rays.begin() + std::ptrdiff_t(i), last = rays.begin() + std::ptrdiff_t(j);
    if (j - i > 2)
      std::sort(first, last, [&](const EdgeRay& l, const EdgeRay& r) {
        return counter_clockwise_before(v, l.toward, r.toward);
      });
    const std::size_t k = j - i;
    for (std::size_t q = 0; q < k; ++q) {
      const EdgeRay& out = rays[i + q];
      const EdgeRay& in = rays[i + (q + 1) % k];
      if (!out.outgoing || in.outgoing) continue;  // not a free sector (or malformed rings)
      const int o = exact::orientation(v, out.toward, in.toward);
      const bool spike = o == 0 && k == 2 && same_direction(v, out.toward, in.toward);
      if (o < 0 || spike) corners.push_back({v, in.toward, out.toward, out.component});
    }
  }
  return corners;
}

}  // namespace

bool VisibilityGraph::tangent(const Corner& c, Point q) {
  // The line through the corner and q separates the incident edges exactly when it enters the
  // blocked wedge (narrower than 180 degrees) on one side of the corner: then either the
  // segment runs into the obstacle or a path through the corner could be shortened by cutting
  // it. Collinear with an edge counts as tangent (the path runs along it).
  return orientation(c.at, q, c.before) * orientation(c.at, q, c.after) >= 0;
}

bool VisibilityGraph::visible(Point a, Point b) {
  if (filter_->crossed(a, b)) return false;
  if (!space_->line_of_sight(a, b)) return false;
  return !directed_ || space_->climbable(a, b);
}

VisibilityGraph::VisibilityGraph(const FreeSpace& space, VisibilityGraphOptions options)
    : space_(&space), options_(options) {
  const auto t0 = std::chrono::steady_clock::now();
  directed_ = space.has_heights() && std::isfinite(space.agent().max_climb);

  for (const FoundCorner& c : wide_corners(space))
    corners_.push_back({c.at, c.before, c.after, c.component});
  if (corners_.size() > options_.max_nodes)
    throw InputError({"", 0, 0, "max_nodes"},
                     "the visibility graph would have " + std::to_string(corners_.size()) +
                         " nodes, more than the budget of " + std::to_string(options_.max_nodes) +
                         " (raise the visgraph option max_nodes, or use another method)");
  // Nodes of one component of free space get consecutive ids, so the pair loop below only
  // visits pairs that can possibly see each other.
  std::stable_sort(corners_.begin(), corners_.end(),
                   [](const Corner& l, const Corner& r) { return l.component < r.component; });

  filter_ = std::make_unique<SegmentFilter>(space);
  std::vector<search::Edge> edges;
  const auto n = std::uint32_t(corners_.size());
  for (std::uint32_t u = 0; u < n; ++u) {
    const Corner& cu = corners_[u];
    for (std::uint32_t w = u + 1; w < n && corners_[w].component == cu.component; ++w) {
      const Corner& cw = corners_[w];
      ++stats_.pairs;
      if (options_.bitangent_only && !(tangent(cu, cw.at) && tangent(cw, cu.at))) continue;
      ++stats_.tangent_pairs;
      if (filter_->crossed(cu.at, cw.at)) continue;
      ++stats_.filtered_pairs;
      if (!space.line_of_sight(cu.at, cw.at)) continue;
      const double length = distance(cu.at, cw.at);
      if (!directed_) {
        edges.push_back({u, w, length});
        continue;
      }
      if (space.climbable(cu.at, cw.at)) edges.push_back({u, w, length});
      if (space.climbable(cw.at, cu.at)) edges.push_back({w, u, length});
    }
  }
  edge_count_ = edges.size();
  stats_.edges = edge_count_;
  graph_ =
      search::CsrGraph(corners_.size(), edges,
                       directed_ ? search::Direction::directed : search::Direction::undirected);
  components_ = search::ComponentLabels(graph_);
  stats_.build_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

VisibilityGraph::~VisibilityGraph() = default;

void VisibilityGraph::attach(Point p, bool outgoing, std::vector<search::Arc>& out) {
  out.clear();
  // Every node is tried, whatever its component: a point on a pinch vertex belongs to the
  // closure of two components at once. The tangency test at the node is valid whether or not
  // the graph keeps only bitangent edges: a shortest path bends at a node only along tangents.
  for (std::uint32_t u = 0; u < corners_.size(); ++u) {
    const Corner& c = corners_[u];
    if (!tangent(c, p)) continue;
    if (!(outgoing ? visible(p, c.at) : visible(c.at, p))) continue;
    out.push_back({u, distance(p, c.at)});
  }
}

std::vector<search::NodeId> VisibilityGraph::visible_nodes(Point p) {
  std::vector<search::Arc> arcs;
  attach(p, true, arcs);
  std::vector<search::NodeId> nodes;
  for (const search::Arc& a : arcs) nodes.push_back(a.to);
  return nodes;
}

RawPath VisibilityGraph::find_path(Point start, Point goal, const QueryOptions& options) {
  RawPath out;
  if (visible(start, goal)) {
    out.status = search::SearchStatus::found;
    out.points = {start, goal};
    out.graph_cost = distance(start, goal);
    return out;
  }
  attach(start, true, from_start_);
  attach(goal, false, to_goal_);
  if (from_start_.empty() || to_goal_.empty()) {
    out.status = search::SearchStatus::no_path;
    out.message = std::string("no_path: the ") + (from_start_.empty() ? "start" : "goal") +
                  " sees no corner of free space and the goal is not in line of sight";
    return out;
  }
  bool shared = false;
  for (const search::Arc& a : from_start_)
    for (const search::Arc& b : to_goal_)
      shared = shared || components_.label(a.to) == components_.label(b.to);
  // Labels are weakly connected components, so different labels rule a path out even when the
  // graph is directed.
  if (!shared) {
    out.status = search::SearchStatus::no_path;
    out.message =
        "no_path: start and goal see only corners in different components of the visibility graph";
    return out;
  }

  search::AugmentedGraph<search::CsrGraph> graph(graph_);
  const search::NodeId s = graph.add_node(), g = graph.add_node();
  for (const search::Arc& a : from_start_) graph.add_arc(s, a.to, a.cost);
  for (const search::Arc& b : to_goal_) graph.add_arc(b.to, g, b.cost);
  // Straight-line distance to the goal: admissible and consistent for Euclidean arc lengths.
  const auto h = [&](search::NodeId n) {
    if (n == g) return 0.0;
    return distance(n == s ? start : corners_[n].at, goal);
  };
  const search::SearchOptions defaults;
  const search::SearchOptions& search_options = options.search ? *options.search : defaults;
  const search::NodeId goals[1] = {g};
  if (options.record_expanded) {
    struct Recorder {
      const VisibilityGraph* graph;
      std::vector<Point>* out;
      search::NodeId extras;
      void examine(search::NodeId n) {
        if (n < extras) out->push_back(graph->node_position(n));
      }
      void relax(search::NodeId, search::NodeId, double) {}
      void finish(search::NodeId) {}
    } recorder{this, &out.expanded, s};
    astar_.search(graph, s, goals, h, search_options, result_, recorder);
  } else {
    astar_.search(graph, s, goals, h, search_options, result_);
  }
  out.status = result_.status;
  out.stats = result_.stats;
  out.graph_cost = result_.cost;
  if (out.status != search::SearchStatus::found) out.message = result_.explanation();
  for (search::NodeId n : result_.path)
    out.points.push_back(n == s ? start : n == g ? goal : corners_[n].at);
  return out;
}

void VisibilityGraph::draw(SvgCanvas& canvas) const {
  SvgStyle edge_style;
  edge_style.stroke = "#8a93a3";
  edge_style.stroke_width = 0.4;
  edge_style.stroke_opacity = 0.45;
  for (search::NodeId u = 0; u < corners_.size(); ++u)
    for (const search::Arc& a : graph_.arcs(u))
      if (directed_ || u < a.to) canvas.line(corners_[u].at, corners_[a.to].at, edge_style);
  SvgStyle node_style;
  node_style.fill = "#5b6270";
  for (const Corner& c : corners_) canvas.marker(c.at, SvgMarker::circle, 3.0, node_style);
}

}  // namespace polynav
