#include "polynav/discretise/navmesh/navmesh.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "disjoint_sets.hpp"
#include "polynav/error.hpp"
#include "polynav/kernel/exact.hpp"

namespace polynav {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

}  // namespace

NavMesh::NavMesh(const FreeSpace& space, NavMeshOptions options)
    : NavMesh(space, std::make_shared<const NavPartition>(space, partition_options(options)),
              options) {}

NavMesh::NavMesh(const FreeSpace& space, std::shared_ptr<const NavPartition> partition,
                 NavMeshOptions options)
    : space_(&space), options_(options), partition_(std::move(partition)) {
  const auto t0 = Clock::now();
  const NavPartition& m = *partition_;
  if (!m.options().regions)
    throw std::invalid_argument(
        "NavMesh: the partition must take region outlines as constraints (regions = true)");
  options_.source = m.options().source;
  options_.merge = m.options().merge;
  options_.decomposition = m.options().decomposition;
  options_.max_triangles = m.options().max_triangles;
  static_cast<NavPartitionStats&>(stats_) = m.stats();
  min_cost_ = space.min_cost();
  directed_ = space.has_heights() && std::isfinite(space.agent().max_climb);
  requested_search_ = options_.search;
  options_.search = resolve_navmesh_search(space, options_);
  if (options_.search == NavMeshSearch::optimal) {
    // Without a graph the node placement and the landmarks do not apply; the vertex nodes stay
    // (Polyanya's turning points, and points to draw).
    options_.nodes = NavMeshNodes::vertices;
    options_.landmarks = 0;
  }
  if (directed_ && options_.search == NavMeshSearch::optimal && m.polygon_count() > 0) {
    // Polyanya takes every straight motion through the polygons to be valid both ways. With a
    // climb limit that holds when no two heights differ by more than the limit (each polygon has
    // one height); otherwise some steps up are refused and the search could not know which.
    double lo = m.polygon_height(0), hi = lo;
    for (std::size_t i = 1; i < m.polygon_count(); ++i) {
      lo = std::min(lo, m.polygon_height(i));
      hi = std::max(hi, m.polygon_height(i));
    }
    const double climb = space.agent().max_climb;
    if (hi - lo > climb) {
      std::ostringstream text;
      text << "navmesh.search=optimal does not apply: heights differ by up to " << hi - lo
           << ", more than the agent's max_climb " << climb
           << ", so some moves are one way; use navmesh.search=graph";
      throw InputError({"", 0, 0, "search"}, text.str());
    }
  }
  build_graph();
  stats_.build_ms = m.stats().build_ms + ms_since(t0);
}

bool NavMesh::motion_ok(Point a, Point b, bool check_sight) const {
  if (check_sight && !space_->line_of_sight(a, b)) return false;
  return !directed_ || space_->climbable(a, b);
}

std::optional<Point> NavMesh::bend(std::uint32_t p, std::size_t k) const {
  const NavPartition& m = *partition_;
  const Point cp = m.polygon_centre(p), cq = m.polygon_centre(m.other_side(k, p));
  const NavPartition::Portal& portal = m.portal(k);
  // The centres lie on either side of the portal's line, so the segment between them crosses
  // that line, on the portal exactly when the portal's ends are not strictly on one side of it.
  const int sa = exact::orientation(cp, cq, portal.a), sb = exact::orientation(cp, cq, portal.b);
  if (sa * sb <= 0) return std::nullopt;
  const double via_a = distance(cp, portal.a) + distance(portal.a, cq);
  const double via_b = distance(cp, portal.b) + distance(portal.b, cq);
  return via_a <= via_b ? portal.a : portal.b;
}

void NavMesh::build_graph() {
  if (options_.search == NavMeshSearch::optimal) {
    // Polyanya searches the polygons themselves: the vertex nodes are the partition's vertices
    // (its turning points, one per point and free sector: corner_node), and there are no arcs
    // and no landmarks to compute.
    graph_ = search::CsrGraph(partition_->vertex_count(), std::vector<search::Edge>{},
                              search::Direction::undirected);
    return;
  }
  std::vector<search::Edge> edges;
  const FreeSpace& space = *space_;
  const NavPartition& m = *partition_;
  const double climb = space.agent().max_climb;
  const auto step_ok = [&](std::uint32_t from, std::uint32_t to) {
    return !directed_ || m.polygon_height(to) - m.polygon_height(from) <= climb;
  };
  // The straight motion between nodes u and v inside one polygon, each way it is valid.
  const auto join = [&](search::NodeId u, search::NodeId v, bool check) {
    const Point a = node_at_[u], b = node_at_[v];
    const double cost = space.segment_cost(a, b);
    if (motion_ok(a, b, check)) edges.push_back({u, v, cost});
    if (directed_ && motion_ok(b, a, check)) edges.push_back({v, u, cost});
  };
  const auto polygons = std::uint32_t(m.polygon_count());
  const auto portals = std::uint32_t(m.portal_count());
  std::vector<Point> centres(polygons);
  for (std::uint32_t i = 0; i < polygons; ++i) centres[i] = m.polygon_centre(i);
  if (options_.nodes == NavMeshNodes::centres) {
    node_at_ = centres;
    for (std::uint32_t k = 0; k < portals; ++k) {
      const auto [p, q] = m.portal(k).side;
      const bool check = !m.polygon_exact(p) || !m.polygon_exact(q);
      for (const auto& [from, to] : {std::pair{p, q}, std::pair{q, p}}) {
        if (!directed_ && from != p) break;  // one undirected edge
        if (!step_ok(from, to)) continue;
        const Point a = centres[from], c = centres[to];
        double cost;
        if (const std::optional<Point> b = bend(from, k)) {
          if (!motion_ok(a, *b, check) || !motion_ok(*b, c, check) ||
              (check && !space.turn_is_free(a, *b, c)))
            continue;
          cost = space.segment_cost(a, *b) + space.segment_cost(*b, c);
        } else {
          if (!motion_ok(a, c, check)) continue;
          cost = space.segment_cost(a, c);
        }
        edges.push_back({from, to, cost});
      }
    }
  } else if (options_.nodes == NavMeshNodes::vertices) {
    build_vertex_graph(edges);
  } else {
    // Node 2k + s: at portal k's midpoint, inside polygon side[s]. Crossing a portal is a free
    // arc between its two nodes; arcs inside a polygon join its portals' nodes (and its centre's
    // node, with portals+centres).
    portal_nodes_ = 2 * portals;
    node_at_.resize(portal_nodes_);
    for (std::uint32_t k = 0; k < portals; ++k) {
      const auto [a, b, side] = m.portal(k);
      node_at_[2 * k] = node_at_[2 * k + 1] = 0.5 * (a + b);
      const auto [p, q] = side;
      if (!directed_) {
        edges.push_back({2 * k, 2 * k + 1, 0.0});
      } else {
        if (step_ok(p, q)) edges.push_back({2 * k, 2 * k + 1, 0.0});
        if (step_ok(q, p)) edges.push_back({2 * k + 1, 2 * k, 0.0});
      }
    }
    if (options_.nodes == NavMeshNodes::portals_and_centres)
      node_at_.insert(node_at_.end(), centres.begin(), centres.end());
    for (std::uint32_t poly = 0; poly < polygons; ++poly) {
      const bool check = !m.polygon_exact(poly);
      const std::span<const std::uint32_t> around = m.polygon_portals(poly);
      for (std::size_t s = 0; s < around.size(); ++s) {
        const search::NodeId u = portal_node(around[s], poly);
        for (std::size_t r = s + 1; r < around.size(); ++r)
          join(u, portal_node(around[r], poly), check);
        if (options_.nodes == NavMeshNodes::portals_and_centres)
          join(portal_nodes_ + poly, u, check);
      }
    }
  }
  graph_ =
      search::CsrGraph(node_at_.size(), edges,
                       directed_ ? search::Direction::directed : search::Direction::undirected);
  if (!directed_) {
    components_ = search::ComponentLabels(graph_);
    const auto t0 = Clock::now();
    landmarks_ = search::Landmarks(graph_, components_, options_.landmarks);
    for (const search::NodeId n : landmarks_.nodes()) landmark_at_.push_back(node_at_[n]);
    stats_.landmarks_ms = ms_since(t0);
  }
}

void NavMesh::build_vertex_nodes(bool through_pinches) {
  // The partition's vertices (corners at one point joined through portals), joined further
  // through pinches: union-find over the vertices, the lower id the root.
  const NavPartition& m = *partition_;
  const std::size_t corners = m.corner_count();
  navmesh_detail::DisjointSets sets(m.vertex_count());
  if (through_pinches) {
    // Corners at one point still apart lie in different free sectors; they are one node where
    // the turn from one polygon's inside through the point into the other's is free.
    std::vector<std::uint32_t> order(corners);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      const Point p = m.corner_point(a), q = m.corner_point(b);
      return p.x < q.x || (p.x == q.x && p.y < q.y);
    });
    for (std::size_t run = 0, end = 0; run < corners; run = end) {
      const Point at = m.corner_point(order[run]);
      while (end < corners && m.corner_point(order[end]) == at) ++end;
      for (std::size_t a = run; a < end; ++a)
        for (std::size_t b = a + 1; b < end; ++b) {
          const std::uint32_t x = sets.find(m.corner_vertex(order[a]));
          const std::uint32_t y = sets.find(m.corner_vertex(order[b]));
          if (x != y && space_->turn_is_free(m.polygon_centre(m.corner_polygon(order[a])), at,
                                             m.polygon_centre(m.corner_polygon(order[b]))))
            sets.join_lower(x, y);
        }
    }
  }
  // Vertices are numbered in order of their first corners, so nodes numbered as their first
  // corners come are too.
  std::vector<search::NodeId> node(m.vertex_count(), search::no_node);
  corner_node_.resize(corners);
  for (std::size_t c = 0; c < corners; ++c) {
    const std::uint32_t root = sets.find(m.corner_vertex(c));
    if (node[root] == search::no_node) {
      node[root] = search::NodeId(node_at_.size());
      node_at_.push_back(m.corner_point(c));
    }
    corner_node_[c] = node[root];
  }
  node_at_.shrink_to_fit();  // kept as long as the mesh
  node_corner_first_.assign(node_at_.size() + 1, 0);
  for (std::size_t c = 0; c < corners; ++c) ++node_corner_first_[corner_node_[c] + 1];
  for (std::size_t n = 1; n < node_corner_first_.size(); ++n)
    node_corner_first_[n] += node_corner_first_[n - 1];
  node_corners_.resize(corners);
  {
    std::vector<std::uint32_t> next(node_corner_first_.begin(), node_corner_first_.end() - 1);
    for (std::size_t c = 0; c < corners; ++c)
      node_corners_[next[corner_node_[c]]++] = std::uint32_t(c);
  }
}

void NavMesh::build_vertex_graph(std::vector<search::Edge>& edges) {
  build_vertex_nodes(space_->open_gaps());
  const NavPartition& m = *partition_;
  const auto polygons = std::uint32_t(m.polygon_count());

  // Every two corners of a polygon: the segment between them lies in the (closed, convex, free)
  // polygon. A pair on a shared edge is listed by both polygons: keep one arc per direction.
  for (std::uint32_t i = 0; i < polygons; ++i) {
    const bool check = !m.polygon_exact(i);
    for (std::size_t c = m.first_corner(i); c < m.first_corner(i + 1); ++c) {
      for (std::size_t d = c + 1; d < m.first_corner(i + 1); ++d) {
        const search::NodeId u = std::min(corner_node_[c], corner_node_[d]);
        const search::NodeId v = std::max(corner_node_[c], corner_node_[d]);
        const Point a = node_at_[u], b = node_at_[v];
        const double cost = space_->segment_cost(a, b);
        if (motion_ok(a, b, check)) edges.push_back({u, v, cost});
        if (directed_ && motion_ok(b, a, check)) edges.push_back({v, u, cost});
      }
    }
  }
  std::sort(edges.begin(), edges.end(), [](const search::Edge& x, const search::Edge& y) {
    return std::tie(x.from, x.to) < std::tie(y.from, y.to);
  });
  edges.erase(std::unique(edges.begin(), edges.end(),
                          [](const search::Edge& x, const search::Edge& y) {
                            return x.from == y.from && x.to == y.to;
                          }),
              edges.end());
}

void NavMesh::attach(Point p, AttachDirection direction, std::vector<Attachment>& out) const {
  out.clear();
  thread_local std::vector<std::uint32_t> found;
  partition_->locate(p, found);
  const bool outgoing = direction == AttachDirection::from_point;
  const auto join = [&](search::NodeId node, bool check) {
    const Point q = node_position(node);
    const Point a = outgoing ? p : q, b = outgoing ? q : p;
    if (!motion_ok(a, b, check)) return;
    for (const Attachment& e : out)
      if (e.node == node) return;
    out.push_back({node, space_->segment_cost(a, b)});
  };
  for (const std::uint32_t poly : found) {
    const bool check = !partition_->polygon_exact(poly);
    for_each_polygon_node(poly, [&](search::NodeId node) { join(node, check); });
  }
}

template <class F>
void NavMesh::for_each_polygon_node(std::uint32_t poly, F&& f) const {
  if (options_.nodes == NavMeshNodes::vertices) {
    for (std::size_t c = partition_->first_corner(poly); c < partition_->first_corner(poly + 1);
         ++c)
      f(corner_node(c));
    return;
  }
  if (portal_nodes_ > 0)
    for (const std::uint32_t k : partition_->polygon_portals(poly)) f(portal_node(k, poly));
  if (options_.nodes == NavMeshNodes::centres ||
      options_.nodes == NavMeshNodes::portals_and_centres)
    f(portal_nodes_ + poly);
}

search::LandmarkTarget NavMesh::landmark_target(std::span<const Attachment> starts,
                                                std::span<const Attachment> goals,
                                                Point goal) const {
  const std::size_t count = landmarks_.count();
  if (starts.empty() || count <= active_landmarks) return landmarks_.target(goals);
  // Rank by |d(L, goal) - d(L, start)| in straight-line distance, an estimate of each landmark's
  // bound from the start that reads nothing but the landmarks' positions.
  const Point start = node_at_[starts.front().node];
  std::array<double, search::LandmarkTarget::capacity> score{};
  std::array<std::uint8_t, search::LandmarkTarget::capacity> ranking{};
  for (std::size_t l = 0; l < count; ++l) {
    score[l] = std::abs(distance(landmark_at_[l], goal) - distance(landmark_at_[l], start));
    ranking[l] = std::uint8_t(l);
  }
  std::sort(ranking.begin(), ranking.begin() + std::ptrdiff_t(count),
            [&](std::uint8_t a, std::uint8_t b) { return score[a] > score[b]; });
  return landmarks_.target(goals, std::span<const std::uint8_t>(ranking.data(), count),
                           active_landmarks);
}

std::string NavMesh::unattached_reason(std::string_view which) const {
  return std::string(which) + " lies in no polygon of the navigation mesh that joins the others";
}

std::optional<double> NavMesh::direct_cost(Point start, Point goal) const {
  thread_local std::vector<std::uint32_t> a, b;
  partition_->locate(start, a);
  partition_->locate(goal, b);
  for (std::uint32_t p : a)
    for (std::uint32_t q : b)
      if (p == q && motion_ok(start, goal, !partition_->polygon_exact(p)))
        return space_->segment_cost(start, goal);
  return std::nullopt;
}

Ring NavMesh::node_region(search::NodeId n) const {
  if (options_.nodes == NavMeshNodes::vertices) return {};
  const std::span<const Point> ring = partition_->polygon(node_polygon(n));
  return Ring(ring.begin(), ring.end());
}

void NavMesh::arc_points(search::NodeId from, search::NodeId to, std::vector<Point>& out) const {
  if (options_.nodes != NavMeshNodes::centres) return;
  const std::int64_t k = partition_->portal_between(from, to);
  if (k < 0) return;
  if (const std::optional<Point> b = bend(from, std::size_t(k))) out.push_back(*b);
}

std::optional<std::vector<Segment>> NavMesh::corridor(Point start,
                                                      std::span<const search::NodeId> path,
                                                      Point end) const {
  const NavPartition& m = *partition_;
  std::vector<Segment> portals;
  if (options_.nodes == NavMeshNodes::vertices) {
    // With search `optimal` there are no graph paths: Polyanya's carry the corridor it crossed.
    if (optimal() || !vertex_corridor(start, path, end, portals)) return std::nullopt;
    NavPartition::trim_ends(start, end, portals);
    return portals;
  }
  for (std::size_t i = 1; i < path.size(); ++i) {
    if (options_.nodes == NavMeshNodes::centres) {
      const std::int64_t k = m.portal_between(path[i - 1], path[i]);
      if (k >= 0) portals.push_back(m.oriented(std::size_t(k), path[i - 1]));
    } else if (path[i - 1] < portal_nodes_ && path[i] < portal_nodes_ &&
               path[i - 1] / 2 == path[i] / 2) {
      // The two nodes of one portal: the path crosses it from side[n % 2].
      const std::uint32_t k = path[i] / 2;
      portals.push_back(m.oriented(k, m.portal(k).side[path[i - 1] % 2]));
    }
  }
  NavPartition::trim_ends(start, end, portals);
  return portals;
}

std::int64_t NavMesh::corner_at(std::uint32_t poly, search::NodeId n) const {
  for (std::size_t c = partition_->first_corner(poly); c < partition_->first_corner(poly + 1); ++c)
    if (corner_node(c) == n) return std::int64_t(c);
  return -1;
}

template <class Arrive>
bool NavMesh::turn_round(search::NodeId v, std::uint32_t from, Arrive&& arrive, int turn,
                         std::vector<Segment>& out, std::vector<std::uint32_t>& chain) const {
  // Round a vertex, polygon by polygon: leaving a polygon clockwise crosses the edge from its
  // corner at v to the next corner, counter-clockwise the edge from the previous corner to v.
  const NavPartition& mesh = *partition_;
  const std::size_t most = node_corner_first_[v + 1] - node_corner_first_[v];
  const auto round = [&](std::uint32_t poly, bool clockwise) {
    const std::size_t mark = out.size(), chain_mark = chain.size();
    for (std::size_t step = 0; !arrive(poly); ++step) {
      const std::int64_t c = corner_at(poly, v);
      const std::size_t first = mesh.first_corner(poly), m = mesh.first_corner(poly + 1) - first;
      const std::int32_t k =
          c < 0 || step >= most
              ? -1
              : mesh.corner_portal(clockwise ? std::size_t(c)
                                             : first + (std::size_t(c) - first + m - 1) % m);
      if (k < 0) {
        out.resize(mark);
        chain.resize(chain_mark);
        return false;
      }
      out.push_back(mesh.oriented(std::size_t(k), poly));
      poly = mesh.other_side(std::size_t(k), poly);
      chain.push_back(poly);
    }
    return true;
  };
  for (const bool clockwise : {turn > 0, turn <= 0})
    if (round(from, clockwise)) return true;
  // Through a pinch (the node joins free sectors that touch at v only): a zero-length portal at
  // v into a polygon of another sector, then round v there.
  const Point at = node_at_[v];
  for (std::size_t i = node_corner_first_[v]; i < node_corner_first_[v + 1]; ++i) {
    const std::uint32_t poly = mesh.corner_polygon(node_corners_[i]);
    if (poly == from) continue;
    out.push_back({at, at});
    chain.push_back(poly);
    for (const bool clockwise : {turn > 0, turn <= 0})
      if (round(poly, clockwise)) return true;
    out.pop_back();
    chain.pop_back();
  }
  return false;
}

bool NavMesh::vertex_corridor(Point start, std::span<const search::NodeId> path, Point end,
                              std::vector<Segment>& out) const {
  out.clear();
  // No nodes: start and goal share a polygon (the only direct arcs).
  if (path.empty()) return true;
  thread_local std::vector<std::uint32_t> found, chain;
  // The start's polygon: one holding it with a corner at the first node.
  partition_->locate(start, found);
  std::int64_t first = -1;
  for (const std::uint32_t poly : found)
    if (first < 0 && corner_at(poly, path[0]) >= 0) first = poly;
  if (first < 0) return false;
  partition_->locate(end, found);  // the polygons holding the end
  // chain[j] is the polygon entered through out[j - 1] (chain[0] holds the start).
  chain.assign(1, std::uint32_t(first));
  Point before = start;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const search::NodeId v = path[i];
    // Round v to the polygon of the arc to the next node (one with a corner there too), or to
    // one holding the end; the current polygon when it already is one.
    const bool last = i + 1 == path.size();
    const Point after = last ? end : node_at_[path[i + 1]];
    const auto arrive = [&](std::uint32_t poly) {
      return last ? std::find(found.begin(), found.end(), poly) != found.end()
                  : corner_at(poly, path[i + 1]) >= 0;
    };
    if (!turn_round(v, chain.back(), arrive, exact::orientation(before, node_at_[v], after), out,
                    chain))
      return false;
    before = node_at_[v];
  }
  // A polygon entered twice: drop the loop between, back to its first visit (the chain stays
  // one of adjacent polygons, and the path's pieces in the loop are replaced by a straight
  // segment inside that convex polygon, which is never longer). The kept chain's positions are
  // found through a small open-addressing table over this chain's polygons; an entry is current
  // when the kept chain still has its polygon at its position.
  thread_local std::vector<std::pair<std::uint32_t, std::uint32_t>> table;  // (polygon + 1, at)
  const std::size_t size = std::bit_ceil(2 * chain.size());
  table.assign(size, {0u, 0u});
  std::size_t kept = 0;
  for (std::size_t j = 0; j < chain.size(); ++j) {
    const std::uint32_t poly = chain[j];
    std::size_t i = (std::size_t(poly) * 0x9E3779B1u) & (size - 1);
    while (table[i].first != 0 && table[i].first != poly + 1) i = (i + 1) & (size - 1);
    if (table[i].first == poly + 1 && table[i].second < kept && chain[table[i].second] == poly) {
      kept = table[i].second + 1;
      continue;
    }
    if (j > 0) out[kept - 1] = out[j - 1];  // the portal from chain[kept - 1] into poly
    chain[kept] = poly;
    table[i] = {poly + 1, std::uint32_t(kept++)};
  }
  out.resize(kept - 1);
  return true;
}

Primitives NavMesh::primitives() const {
  Primitives out;
  for (std::size_t i = 0; i < polygon_count(); ++i) {
    const std::span<const Point> ring = polygon(i);
    out.regions.emplace_back(ring.begin(), ring.end());
  }
  if (node_count() <= 20000) {
    for (std::size_t n = 0; n < node_count(); ++n)
      if (n >= portal_nodes_ || n % 2 == 0) out.nodes.push_back(node_position(search::NodeId(n)));
  }
  return out;
}

std::string NavMesh::summary() const {
  const std::string graph =
      optimal()
          ? "no graph: searched by Polyanya (navmesh.search=" +
                std::string(navmesh_search_name(requested_search_)) + ")"
          : std::to_string(node_count()) + " nodes" +
                (requested_search_ == NavMeshSearch::automatic ? " (navmesh.search=auto: the graph)"
                                                               : "");
  if (stats().from_mesh)
    return std::to_string(stats().polygons) + " convex polygons (the mesh's faces), " +
           std::to_string(stats().portals) + " portals; " + graph;
  const NavMeshDecomposition decomposition = partition_->options().decomposition;
  std::string how = "decomposition " + std::string(navmesh_decomposition_name(decomposition));
  if (decomposition == NavMeshDecomposition::c_cells)
    how += ", " + std::to_string(stats().extensions) + " vertical extensions";
  if (!partition_->options().merge) how += ", not merged";
  return std::to_string(stats().triangles) + " triangles (" +
         std::to_string(stats().free_triangles) + " free), " + std::to_string(stats().polygons) +
         " convex polygons (" + how + "), " + std::to_string(stats().portals) + " portals; " +
         graph;
}

}  // namespace polynav
