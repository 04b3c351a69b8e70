#include "polynav/discretise/visibility_graph/visibility_graph.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>

#include "polynav/error.hpp"
#include "polynav/kernel/exact.hpp"

namespace polynav {

bool VisibilityGraph::visible(Point a, Point b) const {
  return space_->line_of_sight(a, b) && (!directed_ || space_->climbable(a, b));
}

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
                         "; its build time grows with the square of the nodes: use --method "
                         "navmesh (or grid, quadtree) for scenes this large, or raise the budget "
                         "with --set visgraph.max_nodes=N");
  // Nodes of one component of free space get consecutive ids, so the pair loop below only
  // visits pairs that can possibly see each other.
  std::stable_sort(corners_.begin(), corners_.end(),
                   [](const Corner& l, const Corner& r) { return l.component < r.component; });

  std::vector<search::Edge> edges;
  const auto n = std::uint32_t(corners_.size());
  for (std::uint32_t u = 0; u < n; ++u) {
    const Corner& cu = corners_[u];
    clock.check("the visibility graph");
    for (std::uint32_t w = u + 1; w < n && corners_[w].component == cu.component; ++w) {
      const Corner& cw = corners_[w];
      ++stats_.pairs;
      if (options_.bitangent_only && !(tangent(cu, cw.at) && tangent(cw, cu.at))) continue;
      ++stats_.tangent_pairs;
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
  clock.check("the visibility graph");
  edge_count_ = edges.size();
  stats_.edges = edge_count_;
  graph_ =
      search::CsrGraph(corners_.size(), edges,
                       directed_ ? search::Direction::directed : search::Direction::undirected);
  components_ = search::ComponentLabels(graph_);
  stats_.build_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void VisibilityGraph::attach(Point p, AttachDirection direction,
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
