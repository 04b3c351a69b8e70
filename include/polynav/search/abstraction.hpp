#pragma once
/// @file
/// What hierarchical searches share (HPA*: Botea, Müller and Schaeffer 2004, "Near optimal
/// hierarchical path-finding"): the abstract graph's arcs inside a region, the cheapest path
/// between each two of its transitions that stays in the region, and the abstract graph itself
/// from its arcs. The grid's clusters (grid.search=hpa) and the navigation mesh's regions
/// (navmesh.search=hierarchical) are built through here.

#include <algorithm>
#include <limits>
#include <span>
#include <vector>

#include "polynav/search/astar.hpp"
#include "polynav/search/graph.hpp"

namespace polynav::search {

/// Adds to `edges` an arc between each two of a region's transitions, `members` (nodes of
/// `region`, the base graph restricted to the region, numbered first, first + 1, ... in the
/// abstract graph), costing the cheapest path between them inside the region; none where the
/// region does not join them. One Dijkstra from each member (`dijkstra` and `reached` are its
/// reusable state), so paths one way and the other are each their own arc.
template <SearchGraph Region>
void add_paths_within(const Region& region, std::span<const NodeId> members, NodeId first,
                      std::vector<Edge>& edges, AStar& dijkstra, ReachableSet& reached) {
  if (members.size() < 2) return;
  const double infinity = std::numeric_limits<double>::infinity();
  for (std::size_t t = 0; t < members.size(); ++t) {
    dijkstra.reachable(region, members[t], infinity, reached);
    for (std::size_t u = 0; u < members.size(); ++u) {
      if (u == t) continue;
      const double d = dijkstra.cost_to(members[u]);
      if (d < infinity) edges.push_back({NodeId(first + t), NodeId(first + u), d});
    }
  }
}

/// The abstract graph of `node_count` transitions with the arcs `edges`, of parallel arcs the
/// cheapest only, each node's arcs by target.
inline CsrGraph abstract_graph(std::size_t node_count, std::vector<Edge> edges) {
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
    return a.from != b.from ? a.from < b.from : a.to != b.to ? a.to < b.to : a.cost < b.cost;
  });
  edges.erase(
      std::unique(edges.begin(), edges.end(),
                  [](const Edge& a, const Edge& b) { return a.from == b.from && a.to == b.to; }),
      edges.end());
  return CsrGraph(node_count, edges);
}

}  // namespace polynav::search
