#include "polynav/plan/grid_methods.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "polynav/search/graph.hpp"
#include "polynav/search/theta_star.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {

ThetaStarGrid::ThetaStarGrid(const FreeSpace& space, GridOptions options)
    : space_(&space), grid_(space, options) {}

RawPath ThetaStarGrid::find_path(Point start, Point goal, const QueryOptions& options,
                                 QueryWorkspace& workspace) const {
  std::size_t reached = 0;
  return search(start, std::span<const Point>(&goal, 1), options, workspace, reached);
}

RawPath ThetaStarGrid::find_path_to_any(Point start, std::span<const Point> goals,
                                        const QueryOptions& options, QueryWorkspace& workspace,
                                        std::size_t& reached_goal) const {
  return search(start, goals, options, workspace, reached_goal);
}

RawPath ThetaStarGrid::search(Point start, std::span<const Point> goals,
                              const QueryOptions& options, QueryWorkspace& ws,
                              std::size_t& reached_goal) const {
  RawPath out;
  out.method = grid_.method();
  // Theta*'s segments cross cells in any direction: no corridor of portals describes them.
  out.method_has_corridors = out.has_corridor = false;
  reached_goal = goals.size();
  if (goals.empty()) {
    out.message = "the goal set is empty";
    return out;
  }
  grid_.attach(start, AttachDirection::from_point, ws.from);
  if (ws.from.empty()) {
    out.status = grid_.unattached_status();
    out.message = grid_.unattached_reason("start");
    return out;
  }
  ws.goal_arcs.resize(goals.size());
  bool any_goal = false, shared = false;
  const search::ComponentLabels* labels = grid_.components();
  for (std::size_t i = 0; i < goals.size(); ++i) {
    grid_.attach(goals[i], AttachDirection::to_point, ws.goal_arcs[i]);
    any_goal = any_goal || !ws.goal_arcs[i].empty();
    for (const Attachment& a : ws.from)
      for (const Attachment& b : ws.goal_arcs[i])
        shared = shared || labels == nullptr || labels->same_component(a.node, b.node);
  }
  if (!any_goal) {
    out.status = grid_.unattached_status();
    out.message = grid_.unattached_reason("goal");
    return out;
  }
  if (!shared) {
    out.status = search::SearchStatus::no_path;
    out.message = "no_path: start and goal attach to different connected components of the grid";
    return out;
  }

  // The start and each goal are extra nodes at their own points, joined by the attachments.
  thread_local search::AugmentedGraph<OccupancyGrid> graph(grid_);
  graph.rebind(grid_);
  const auto base = search::NodeId(grid_.node_count());
  const search::NodeId s = graph.add_node();
  for (const Attachment& a : ws.from) graph.add_arc(s, a.node, a.cost);
  ws.extra_goal_nodes.clear();
  for (std::size_t i = 0; i < goals.size(); ++i) {
    const search::NodeId g = graph.add_node();
    ws.extra_goal_nodes.push_back(g);
    for (const Attachment& b : ws.goal_arcs[i]) graph.add_arc(b.node, g, b.cost);
  }
  const auto position = [&](search::NodeId n) {
    if (n < base) return grid_.node_position(n);
    return n == s ? start : goals[n - s - 1];
  };
  const FreeSpace& space = *space_;
  const bool interior_nodes = !grid_.corners();
  struct Geometry {
    const FreeSpace* space;
    decltype(position)* at;
    search::NodeId base;
    bool interior_nodes;
    double cost(search::NodeId a, search::NodeId b) const {
      return space->segment_cost((*at)(a), (*at)(b));
    }
    bool visible(search::NodeId a, search::NodeId b) const {
      return space->traversable((*at)(a), (*at)(b));
    }
    bool turn_allowed(search::NodeId before, search::NodeId w, search::NodeId after) const {
      if (before == search::no_node) return true;
      // A cell centre lies inside its free cell, never on the boundary: every turn is free.
      if (interior_nodes && w < base) return true;
      const Point p = (*at)(before), q = (*at)(w), r = (*at)(after);
      if (p == q || r == q) return true;
      return space->turn_is_free(p, q, r);
    }
  };
  const Geometry geometry{&space, &position, base, interior_nodes};
  const double scale = space.min_cost();
  const auto h = [&](search::NodeId n) {
    if (n > s) return 0.0;  // a goal node
    const Point p = position(n);
    double best = std::numeric_limits<double>::infinity();
    for (const Point& g : goals) best = std::min(best, distance(p, g));
    return best * scale;
  };
  thread_local search::ThetaStar theta;
  search::SearchResult& result = ws.result;
  theta.search(graph, s, ws.extra_goal_nodes, geometry, h, options.search, result);

  out.status = result.status;
  out.stats = result.stats;
  out.graph_cost = result.cost;
  if (out.status != search::SearchStatus::found) out.message = result.explanation();
  std::string note;
  if (options.search.beam_width != std::numeric_limits<std::size_t>::max())
    note = "search.beam_width does not apply to grid.search=theta";
  if (options.search.reopen_closed)
    note +=
        std::string(note.empty() ? "" : "; ") + "search.reopen does not apply to grid.search=theta";
  if (!note.empty()) out.message = out.message.empty() ? note : out.message + "; " + note;
  if (result.path.empty()) return out;
  for (const search::NodeId n : result.path) {
    if (n < base) out.nodes.push_back(n);
    const Point p = position(n);
    if (out.points.empty() || !(out.points.back() == p)) out.points.push_back(p);
  }
  if (out.status == search::SearchStatus::found) reached_goal = result.path.back() - s - 1;
  return out;
}

}  // namespace polynav
