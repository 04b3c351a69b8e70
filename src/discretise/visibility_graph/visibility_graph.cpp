#include "polynav/discretise/visibility_graph/visibility_graph.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <span>
#include <string>

#include "polynav/discretise/navmesh/partition.hpp"
#include "polynav/discretise/query.hpp"
#include "polynav/error.hpp"
#include "polynav/kernel/exact.hpp"

namespace polynav {

namespace {

// Which half turn round corner c point p lies in, counter-clockwise from the ray from c.at
// through c.after (where the free sector starts): 0 below 180 degrees, 1 from 180 on.
int half_of(const Corner& c, Point p) {
  const int o = exact::orientation(c.at, c.after, p);
  if (o != 0) return o > 0 ? 0 : 1;
  return exact::same_direction(c.at, c.after, p) ? 0 : 1;
}

// Whether p comes before q counter-clockwise round corner c from that ray (exact).
bool ccw_before(const Corner& c, Point p, Point q) {
  const int hp = half_of(c, p), hq = half_of(c, q);
  if (hp != hq) return hp < hq;
  return exact::orientation(c.at, p, q) > 0;
}

}  // namespace

namespace visibility_detail {

// The convex polygons of a triangulation of free space (a NavPartition without region outlines:
// every vertex a boundary vertex) as flat tables, polygon by polygon, and per distinct vertex
// position ("point") the graph's nodes there and the polygon corners meeting there.
struct Index {
  std::unique_ptr<NavPartition> mesh;  // the polygons and their point location
  std::vector<Point> at;               // per corner, each polygon counter-clockwise
  std::vector<std::uint32_t> next;     // the next corner of the same polygon
  std::vector<std::uint32_t> previous;
  std::vector<std::uint32_t> polygon;  // the corner's polygon
  std::vector<std::uint32_t> first;    // polygon i: corners first[i] .. first[i + 1]
  // The corner of the polygon across edge c -> next(c) at which that edge starts (at point
  // next(c)); -1 where the edge is a wall or the boundary of free space.
  std::vector<std::int32_t> opposite;
  std::vector<std::uint32_t> point;  // the corner's point
  // Per point: the graph's nodes there, and the corners there.
  std::vector<std::uint32_t> node_first, nodes;
  std::vector<std::uint32_t> fan_first, fan;
  // Per point: its corners form more than one chain of polygons joined by portals (a pinch, or
  // a vertex inside a wall), which a segment may pass straight through where gaps are open.
  std::vector<std::uint8_t> pinch;
  std::size_t points = 0;
};

}  // namespace visibility_detail

namespace {

using visibility_detail::Index;

// Per-thread search state of attach = expand: per point, a stamp and what is known of it this
// query. Stamps only grow, so arrays are shared by every graph the thread queries.
enum : std::uint8_t {
  seen_exact = 1,      // p sees it: proved by the search alone
  seen_candidate = 2,  // on a ray from p through another vertex: line of sight decides
  marched = 4,         // the ray from p through it has been followed beyond it
};

struct Window {
  std::uint32_t entry;  // corner of the polygon entered where the entry edge starts
  std::uint32_t right;  // corner whose point bounds the window clockwise
  std::uint32_t left;   // and counter-clockwise
};

struct Scratch {
  std::vector<std::uint32_t> stamp;
  std::vector<std::uint8_t> state;
  std::uint32_t current = 0;
  std::vector<std::uint32_t> reached;  // points marked this query
  std::vector<std::uint32_t> start;    // polygons holding p
  std::vector<Window> stack;
  std::vector<std::uint32_t> marches;  // points whose ray is still to follow

  void begin(std::size_t points) {
    if (stamp.size() < points) {
      stamp.resize(points, 0);
      state.resize(points, 0);
    }
    if (++current == 0) {
      std::fill(stamp.begin(), stamp.end(), 0u);
      current = 1;
    }
    reached.clear();
    stack.clear();
    marches.clear();
  }
  std::uint8_t get(std::uint32_t v) const { return stamp[v] == current ? state[v] : 0; }
  // Adds flag to point v's state; returns whether it was new.
  bool add(std::uint32_t v, std::uint8_t flag) {
    if (stamp[v] != current) {
      stamp[v] = current;
      state[v] = 0;
      reached.push_back(v);
    }
    const bool added = (state[v] & flag) == 0;
    state[v] |= flag;
    return added;
  }
};

Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

}  // namespace

bool VisibilityGraph::visible(Point a, Point b) const {
  return space_->line_of_sight(a, b) && (!directed_ || space_->climbable(a, b));
}

VisibilityGraph::~VisibilityGraph() = default;
VisibilityGraph::VisibilityGraph(VisibilityGraph&&) noexcept = default;
VisibilityGraph& VisibilityGraph::operator=(VisibilityGraph&&) noexcept = default;

VisibilityGraph::VisibilityGraph(const FreeSpace& space, VisibilityGraphOptions options)
    : space_(&space), options_(options) {
  const auto t0 = std::chrono::steady_clock::now();
  const BuildClock clock(options_.max_build_seconds);
  directed_ = space.has_heights() && std::isfinite(space.agent().max_climb);

  corners_ = space.corners();
  if (corners_.size() > options_.max_nodes)
    throw InputError({"", 0, 0, "visgraph.max_nodes"},
                     "the visibility graph would have " + std::to_string(corners_.size()) +
                         " nodes, more than the budget of " + std::to_string(options_.max_nodes) +
                         "; its edges can grow with the square of the nodes: use --method "
                         "navmesh (or grid, quadtree) for scenes this large, or raise the budget "
                         "with --set visgraph.max_nodes=N");
  // Nodes of one component of free space get consecutive ids, so the pair loop below only
  // visits pairs that can possibly see each other.
  std::stable_sort(corners_.begin(), corners_.end(),
                   [](const Corner& l, const Corner& r) { return l.component < r.component; });

  // The polygons first: with them, each corner's edges come from the corners it sees.
  const auto t1 = std::chrono::steady_clock::now();
  build_index();
  stats_.index_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();

  std::vector<search::Edge> edges;
  const auto n = std::uint32_t(corners_.size());
  const auto add_edge = [&](std::uint32_t u, std::uint32_t w) {
    const Corner& cu = corners_[u];
    const Corner& cw = corners_[w];
    const double length = distance(cu.at, cw.at);
    if (!directed_) {
      edges.push_back({u, w, length});
      return;
    }
    if (space.climbable(cu.at, cw.at)) edges.push_back({u, w, length});
    if (space.climbable(cw.at, cu.at)) edges.push_back({w, u, length});
  };
  if (index_ && options_.bitangent_only) {
    // Output-sensitive: the expansion from each corner reaches the corners it sees that are
    // tangent at their end; the pair is an edge when it is tangent at this end too. The same
    // edges, in the same order, as the pair loop below.
    std::vector<std::uint32_t> seen;
    for (std::uint32_t u = 0; u < n; ++u) {
      const Corner& cu = corners_[u];
      clock.check("the visibility graph");
      seen_by_expansion(cu.at, AttachDirection::from_point, seen);
      for (const std::uint32_t w : seen)
        if (w > u && corners_[w].component == cu.component && tangent(cu, corners_[w].at))
          add_edge(u, w);
    }
  } else {
    // Every pair of one component: the tangency test at both ends, then line of sight.
    for (std::uint32_t u = 0; u < n; ++u) {
      const Corner& cu = corners_[u];
      clock.check("the visibility graph");
      for (std::uint32_t w = u + 1; w < n && corners_[w].component == cu.component; ++w) {
        const Corner& cw = corners_[w];
        ++stats_.pairs;
        if (options_.bitangent_only && !(tangent(cu, cw.at) && tangent(cw, cu.at))) continue;
        ++stats_.tangent_pairs;
        if (!space.line_of_sight(cu.at, cw.at)) continue;
        add_edge(u, w);
      }
    }
  }
  clock.check("the visibility graph");
  edge_count_ = edges.size();
  stats_.edges = edge_count_;
  taut_ = options_.taut && !directed_;
  if (taut_) {
    // Both arcs of each edge, each corner's sorted counter-clockwise from its free sector's start.
    std::vector<search::Edge> arcs;
    arcs.reserve(2 * edges.size());
    for (const search::Edge& e : edges) {
      arcs.push_back(e);
      arcs.push_back({e.to, e.from, e.cost});
    }
    std::sort(arcs.begin(), arcs.end(), [&](const search::Edge& a, const search::Edge& b) {
      if (a.from != b.from) return a.from < b.from;
      return ccw_before(corners_[a.from], corners_[a.to].at, corners_[b.to].at);
    });
    graph_ = search::CsrGraph(corners_.size(), arcs, search::Direction::directed);
    half_.resize(corners_.size());
    for (std::uint32_t v = 0; v < n; ++v) {
      const std::span<const search::Arc> around = graph_.arcs(v);
      half_[v] =
          std::uint32_t(std::partition_point(around.begin(), around.end(),
                                             [&](const search::Arc& a) {
                                               return half_of(corners_[v], corners_[a.to].at) == 0;
                                             }) -
                        around.begin());
    }
  } else {
    graph_ =
        search::CsrGraph(corners_.size(), edges,
                         directed_ ? search::Direction::directed : search::Direction::undirected);
  }
  components_ = search::ComponentLabels(graph_);
  stats_.build_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::optional<VisibilityGraph::TautGraph> VisibilityGraph::query_graph(
    QueryWorkspace& workspace, std::span<const search::NodeId> /*goals*/) const {
  if (!taut_) return std::nullopt;
  return TautGraph(*this, workspace.astar);
}

std::span<const search::Arc> VisibilityGraph::taut_arcs(search::NodeId v,
                                                        search::NodeId parent) const {
  const std::span<const search::Arc> arcs = graph_.arcs(v);
  if (parent >= corners_.size()) return arcs;
  // With u's angle round v, counter-clockwise from the free sector's start, at a: the path
  // u -> v -> w is taut when w's angle differs from a by 180 degrees or more within the sector.
  // Those w lie beyond the ray from v away from u (orientation(u, v, w) of one sign, or 0):
  // among the first half turn when a is in the second, else among the second.
  const Corner& c = corners_[v];
  const Point u = corners_[parent].at;
  const auto side = [&](const search::Arc& a) {
    return exact::orientation(u, c.at, corners_[a.to].at);
  };
  if (half_of(c, u) == 1) {
    const std::span<const search::Arc> first = arcs.first(half_[v]);
    const auto end = std::partition_point(first.begin(), first.end(),
                                          [&](const search::Arc& a) { return side(a) <= 0; });
    return {first.begin(), end};
  }
  const std::span<const search::Arc> second = arcs.subspan(half_[v]);
  const auto begin = std::partition_point(second.begin(), second.end(),
                                          [&](const search::Arc& a) { return side(a) < 0; });
  return {begin, second.end()};
}

void VisibilityGraph::attach(Point p, AttachDirection direction,
                             std::vector<Attachment>& out) const {
  if (index_) {
    attach_by_expansion(p, direction, out);
    return;
  }
  attach_by_scan(p, direction, out);
}

void VisibilityGraph::attach_by_scan(Point p, AttachDirection direction,
                                     std::vector<Attachment>& out) const {
  out.clear();
  const bool outgoing = direction == AttachDirection::from_point;
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

void VisibilityGraph::build_index() {
  if (options_.attach != VisibilityAttach::expand) return;
  auto index = std::make_unique<Index>();
  Index& ix = *index;
  NavPartitionOptions mesh_options;
  mesh_options.regions = false;
  // The graph's own clock bounds the build; the mesh's budget errors are the size ones below.
  mesh_options.max_build_seconds = std::numeric_limits<double>::infinity();
  try {
    ix.mesh = std::make_unique<NavPartition>(*space_, mesh_options);
  } catch (const InputError&) {
    return;  // too large a triangulation: attach scans
  }
  const NavPartition& mesh = *ix.mesh;
  const std::size_t polygons = mesh.polygon_count();
  for (std::size_t i = 0; i < polygons; ++i) {
    // A rounded crossing of constraints would make the search's orientation tests inexact.
    if (!mesh.polygon_exact(i)) return;
    const std::span<const Point> ring = mesh.polygon(i);
    const auto first = std::uint32_t(ix.at.size());
    ix.first.push_back(first);
    for (std::size_t k = 0; k < ring.size(); ++k) {
      ix.at.push_back(ring[k]);
      ix.polygon.push_back(std::uint32_t(i));
      ix.next.push_back(k + 1 == ring.size() ? first : std::uint32_t(ix.at.size()));
      ix.previous.push_back(k == 0 ? first + std::uint32_t(ring.size()) - 1
                                   : std::uint32_t(ix.at.size()) - 2);
    }
  }
  ix.first.push_back(std::uint32_t(ix.at.size()));
  const std::size_t corners = ix.at.size();
  ix.opposite.assign(corners, -1);
  for (std::size_t i = 0; i < polygons; ++i) {
    for (std::uint32_t c = ix.first[i]; c < ix.first[i + 1]; ++c) {
      const std::int64_t q = mesh.neighbour(i, c - ix.first[i]);
      if (q < 0) continue;
      for (std::uint32_t d = ix.first[std::size_t(q)]; d < ix.first[std::size_t(q) + 1]; ++d) {
        if (ix.at[d] == ix.at[ix.next[c]] && ix.at[ix.next[d]] == ix.at[c]) {
          ix.opposite[c] = std::int32_t(d);
          break;
        }
      }
      if (ix.opposite[c] < 0) return;  // neighbours that do not share the edge as it is
    }
  }

  // Points: the distinct vertex positions.
  const auto less = [](Point a, Point b) { return a.x < b.x || (a.x == b.x && a.y < b.y); };
  std::vector<Point> unique(ix.at);
  std::sort(unique.begin(), unique.end(), less);
  unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
  ix.points = unique.size();
  const auto point_of = [&](Point p) -> std::int64_t {
    const auto it = std::lower_bound(unique.begin(), unique.end(), p, less);
    return it != unique.end() && *it == p ? it - unique.begin() : -1;
  };
  ix.point.resize(corners);
  for (std::size_t c = 0; c < corners; ++c) ix.point[c] = std::uint32_t(point_of(ix.at[c]));
  const auto csr = [&](std::vector<std::uint32_t>& first, std::vector<std::uint32_t>& items,
                       const std::vector<std::uint32_t>& key) {
    first.assign(ix.points + 1, 0);
    for (std::uint32_t k : key) ++first[k + 1];
    for (std::size_t v = 1; v <= ix.points; ++v) first[v] += first[v - 1];
    items.resize(key.size());
    std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
    for (std::uint32_t i = 0; i < key.size(); ++i) items[fill[key[i]]++] = i;
  };
  csr(ix.fan_first, ix.fan, ix.point);
  std::vector<std::uint32_t> node_point(corners_.size());
  for (std::size_t u = 0; u < corners_.size(); ++u) {
    const std::int64_t v = point_of(corners_[u].at);
    if (v < 0) return;  // a corner that is no vertex of the polygons
    node_point[u] = std::uint32_t(v);
  }
  csr(ix.node_first, ix.nodes, node_point);

  // Fans: the corners at a point joined through the portals along the edges they share.
  std::vector<std::uint32_t> parent(corners);
  std::iota(parent.begin(), parent.end(), 0u);
  const auto find = [&](std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (std::uint32_t c = 0; c < corners; ++c) {
    if (ix.opposite[c] < 0) continue;
    // The edge c -> next(c) runs next(c) -> c in the other polygon: its corner at c's point
    // follows the opposite corner.
    const std::uint32_t x = find(c), y = find(ix.next[std::uint32_t(ix.opposite[c])]);
    if (x != y) parent[std::max(x, y)] = std::min(x, y);
  }
  ix.pinch.assign(ix.points, 0);
  for (std::size_t v = 0; v < ix.points; ++v)
    for (std::uint32_t s = ix.fan_first[v] + 1; s < ix.fan_first[v + 1]; ++s)
      if (find(ix.fan[s]) != find(ix.fan[ix.fan_first[v]])) ix.pinch[v] = 1;
  index_ = std::move(index);
}

// The corners p sees, by triangular expansion (Bungiu et al., EuroCG 2014) over the convex
// polygons of the index. From the polygons holding p, every vertex is seen; through each portal
// the search carries a window, the directions from p between the rays through two given points
// (right, then counter-clockwise to left) that reach the polygon beyond through the interiors of
// every portal crossed, and narrows it at each further portal. A vertex strictly inside a
// window is seen: the segment from p to it meets no vertex and crosses only portal interiors, so
// FreeSpace::line_of_sight holds. All decisions are exact::orientation on given points (p and
// mesh vertices).
//
// Segments that pass through a vertex are left to FreeSpace::line_of_sight, which judges passing
// a vertex with its star: a vertex on a window's bounding ray beyond the vertex that bounds it is
// a candidate, and where a window narrows to a single ray (through a portal's end, or along a
// portal seen edge-on) the ray is followed beyond that vertex polygon by polygon and every vertex
// on it is a candidate. With open gaps a segment may also pass straight through a pinch, so the
// ray through every pinch reached is followed too. Candidates are a superset of what those
// segments can reach; line of sight decides each.
void VisibilityGraph::attach_by_expansion(Point p, AttachDirection direction,
                                          std::vector<Attachment>& out) const {
  out.clear();
  thread_local std::vector<std::uint32_t> seen;
  seen_by_expansion(p, direction, seen);
  const bool outgoing = direction == AttachDirection::from_point;
  for (const std::uint32_t u : seen) {
    const Point q = corners_[u].at;
    if (directed_ && !(outgoing ? space_->climbable(p, q) : space_->climbable(q, p))) continue;
    out.push_back({u, distance(p, q)});
  }
}

void VisibilityGraph::seen_by_expansion(Point p, AttachDirection direction,
                                        std::vector<std::uint32_t>& out) const {
  out.clear();
  const Index& ix = *index_;
  Scratch& s = scratch();
  s.begin(ix.points);
  ix.mesh->locate(p, s.start);
  if (s.start.empty()) return;
  const bool open_gaps = space_->open_gaps();
  const auto see = [&](std::uint32_t v, std::uint8_t flag) {
    if (s.add(v, flag) && open_gaps && ix.pinch[v] && s.add(v, marched)) s.marches.push_back(v);
  };
  const auto march = [&](std::uint32_t v) {
    if (s.add(v, marched)) s.marches.push_back(v);
  };
  const auto is_start = [&](std::uint32_t poly) {
    return std::find(s.start.begin(), s.start.end(), poly) != s.start.end();
  };

  for (const std::uint32_t poly : s.start)
    for (std::uint32_t c = ix.first[poly]; c < ix.first[poly + 1]; ++c)
      see(ix.point[c], seen_exact);
  for (const std::uint32_t poly : s.start) {
    for (std::uint32_t c = ix.first[poly]; c < ix.first[poly + 1]; ++c) {
      const std::int32_t o = ix.opposite[c];
      if (o < 0 || is_start(ix.polygon[std::uint32_t(o)])) continue;
      // p lies in the polygon, on the left of its edge c -> next(c) or on its line.
      if (exact::orientation(ix.at[c], ix.at[ix.next[c]], p) > 0) {
        s.stack.push_back({std::uint32_t(o), c, ix.next[c]});
      } else {
        march(ix.point[c]);
        march(ix.point[ix.next[c]]);
      }
    }
  }

  while (!s.stack.empty()) {
    const Window w = s.stack.back();
    s.stack.pop_back();
    const std::uint32_t poly = ix.polygon[w.entry];
    const Point right = ix.at[w.right], left = ix.at[w.left];
    const std::uint32_t right_point = ix.point[w.right], left_point = ix.point[w.left];
    for (std::uint32_t c = ix.first[poly]; c < ix.first[poly + 1]; ++c) {
      const std::uint32_t v = ix.point[c];
      if (v == right_point || v == left_point) continue;
      const int r = exact::orientation(p, right, ix.at[c]);
      const int l = exact::orientation(p, left, ix.at[c]);
      if (r > 0 && l < 0) {
        see(v, seen_exact);
      } else if ((r == 0 && l < 0) || (l == 0 && r > 0)) {
        see(v, seen_candidate);
      }
    }
    for (std::uint32_t c = ix.first[poly]; c < ix.first[poly + 1]; ++c) {
      const std::int32_t o = ix.opposite[c];
      if (c == w.entry || o < 0) continue;
      const std::uint32_t d = ix.next[c];
      const Point a = ix.at[c], b = ix.at[d];
      const int side = exact::orientation(a, b, p);
      if (side < 0) continue;
      if (side == 0) {
        // Seen edge-on: a ray along the edge passes through its ends.
        if (exact::orientation(p, right, a) >= 0 && exact::orientation(p, left, a) <= 0) {
          march(ix.point[c]);
          march(ix.point[d]);
        }
        continue;
      }
      // From p, a is the edge's clockwise end and b its counter-clockwise end.
      const std::uint32_t r = exact::orientation(p, right, a) > 0 ? c : w.right;
      const std::uint32_t l = exact::orientation(p, left, b) < 0 ? d : w.left;
      const int width = exact::orientation(p, ix.at[r], ix.at[l]);
      if (width > 0) {
        s.stack.push_back({std::uint32_t(o), r, l});
      } else if (width == 0) {
        if (r == c) march(ix.point[c]);
        if (l == d) march(ix.point[d]);
      }
    }
  }

  // Rays followed beyond a vertex y: through every polygon at y whose angle there holds the
  // ray's direction, then straight on through portals until the ray leaves through a wall or the
  // boundary; vertices on it are candidates, and the ray is followed on beyond each.
  while (!s.marches.empty()) {
    const std::uint32_t y = s.marches.back();
    s.marches.pop_back();
    const Point at_y = ix.at[ix.fan[ix.fan_first[y]]];
    if (at_y == p) continue;
    for (std::uint32_t f = ix.fan_first[y]; f < ix.fan_first[y + 1]; ++f) {
      const std::uint32_t c = ix.fan[f];
      if (exact::orientation(p, at_y, ix.at[ix.next[c]]) > 0 ||
          exact::orientation(p, at_y, ix.at[ix.previous[c]]) < 0)
        continue;
      std::int64_t entry = -1;
      std::uint32_t poly = ix.polygon[c];
      for (;;) {
        std::int64_t exit = -1;
        for (std::uint32_t k = ix.first[poly]; k < ix.first[poly + 1]; ++k) {
          const int here = exact::orientation(p, at_y, ix.at[k]);
          if (here == 0 && ix.point[k] != y && !exact::same_direction(at_y, p, ix.at[k])) {
            see(ix.point[k], seen_candidate);
            march(ix.point[k]);
          }
          if (std::int64_t(k) == entry) continue;
          const int there = exact::orientation(p, at_y, ix.at[ix.next[k]]);
          if ((here > 0 && there < 0) || (here < 0 && there > 0)) exit = k;
        }
        if (exit < 0 || ix.opposite[std::size_t(exit)] < 0) break;
        entry = ix.opposite[std::size_t(exit)];
        poly = ix.polygon[std::size_t(entry)];
      }
    }
  }

  const bool outgoing = direction == AttachDirection::from_point;
  for (const std::uint32_t v : s.reached) {
    const std::uint8_t state = s.get(v);
    if ((state & (seen_exact | seen_candidate)) == 0) continue;
    int sight = (state & seen_exact) ? 1 : -1;  // -1: not yet decided
    for (std::uint32_t k = ix.node_first[v]; k < ix.node_first[v + 1]; ++k) {
      const std::uint32_t u = ix.nodes[k];
      const Corner& c = corners_[u];
      if (!tangent(c, p)) continue;
      if (sight < 0)
        sight =
            (outgoing ? space_->line_of_sight(p, c.at) : space_->line_of_sight(c.at, p)) ? 1 : 0;
      if (sight == 0) continue;
      out.push_back(u);
    }
  }
  std::sort(out.begin(), out.end());
}

std::string VisibilityGraph::unattached_reason(std::string_view which) const {
  return "no_path: the " + std::string(which) +
         " sees no corner of free space and the goal is not in line of sight";
}

std::optional<double> VisibilityGraph::direct_cost(Point start, Point goal) const {
  if (!visible(start, goal)) return std::nullopt;
  return distance(start, goal);
}

std::vector<search::NodeId> VisibilityGraph::visible_nodes(Point p) const {
  std::vector<Attachment> arcs;
  attach(p, AttachDirection::from_point, arcs);
  std::vector<search::NodeId> nodes;
  for (const Attachment& a : arcs) nodes.push_back(a.node);
  return nodes;
}

Primitives VisibilityGraph::primitives() const {
  Primitives out;
  for (search::NodeId u = 0; u < corners_.size(); ++u)
    for (const search::Arc& a : graph_.arcs(u))
      if (directed_ || u < a.to) out.arcs.push_back({corners_[u].at, corners_[a.to].at});
  for (const Corner& c : corners_) out.nodes.push_back(c.at);
  return out;
}

}  // namespace polynav
