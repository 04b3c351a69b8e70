#include "polynav/discretise/grid/grid_methods.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>

#include "polynav/discretise/grid/hierarchical_grid.hpp"
#include "polynav/error.hpp"
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
  if (!attach_ends(grid_, start, goals, {}, ws, out)) return out;

  // The start and each goal are extra nodes at their own points, joined by the attachments.
  search::AugmentedGraph<OccupancyGrid>& graph = detail::augmented(ws, grid_);
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
  search::ThetaStar& theta = ws.state<search::ThetaStar>();
  search::SearchResult& result = ws.result;
  theta.search(graph, s, ws.extra_goal_nodes, geometry, h, options.search, result);

  out.status = result.status;
  out.stats = result.stats;
  out.graph_cost = result.cost;
  if (out.status != search::SearchStatus::found) out.message = result.explanation();
  std::string note;
  if (options.search.beam_search()) note = "search.beam_width does not apply to grid.search=theta";
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

namespace {

// What finding a central path needs besides the grid, kept in the query's workspace.
struct CentralScratch {
  CentralGridPaths central;
  std::vector<Attachment> legs;
  std::vector<CentralGridPaths::Seed> sources, targets;
  std::vector<search::NodeId> nodes;
};

}  // namespace

void centralise_grid_path(const OccupancyGrid& grid, std::string_view note, Point start, Point goal,
                          const QueryOptions& options, QueryWorkspace& ws, RawPath& raw) {
  if (raw.status != search::SearchStatus::found || raw.nodes.empty()) return;
  if (!note.empty()) {
    raw.message = raw.message.empty() ? std::string(note) : raw.message + "; " + std::string(note);
    return;
  }
  // The ends of the central path. A point that is a grid node itself starts there, joined to
  // the other nodes it attaches to by legs of one move each where the grid has no such arc
  // (diagonal legs of a 4-connected grid), so that no shortest path is counted twice; any other
  // point keeps the node the search joined it to, and that attachment's cost.
  using Seed = CentralGridPaths::Seed;
  CentralScratch& scratch = ws.state<CentralScratch>();
  std::vector<Attachment>& legs = scratch.legs;
  std::vector<Seed>& sources = scratch.sources;
  std::vector<Seed>& targets = scratch.targets;
  const double cell = grid.cell_size();
  const auto seeds_of = [&](Point p, AttachDirection direction, search::NodeId searched,
                            std::vector<Seed>& out) {
    out.clear();
    grid.attach(p, direction, legs);
    search::NodeId at = search::no_node;
    for (const Attachment& a : legs)
      if (a.cost == 0.0 && grid.node_position(a.node) == p) at = a.node;
    if (at == search::no_node) {
      for (const Attachment& a : legs)
        if (a.node == searched) out.push_back({searched, {}});
      return;
    }
    out.push_back({at, {}});
    for (const Attachment& a : legs) {
      if (a.node == at) continue;
      bool arc = false;
      grid.for_each_neighbour(at, [&](search::NodeId n, double) { arc = arc || n == a.node; });
      if (arc) continue;
      double dx = 0.0, dy = 0.0;
      if (grid.rotated()) {
        // Turned positions no longer differ by whole cells; the node ids give the offset.
        const std::int64_t across = grid.width() + (grid.corners() ? 1 : 0);
        dx = double(std::abs(std::int64_t(a.node % across) - std::int64_t(at % across)));
        dy = double(std::abs(std::int64_t(a.node / across) - std::int64_t(at / across)));
      } else {
        const Point q = grid.node_position(a.node);
        dx = std::abs(q.x - p.x) / cell;
        dy = std::abs(q.y - p.y) / cell;
      }
      Seed seed{a.node, {}};
      if (dx == 1.0 && dy == 1.0) {
        seed.leg.diagonal = 1;
      } else if (dx + dy == 1.0) {
        seed.leg.straight = 1;
      } else {
        continue;  // not a lattice neighbour: never the case for a point at a node
      }
      out.push_back(seed);
    }
  };
  seeds_of(start, AttachDirection::from_point, raw.nodes.front(), sources);
  seeds_of(goal, AttachDirection::to_point, raw.nodes.back(), targets);
  if (sources.empty() || targets.empty()) return;  // left as searched
  std::vector<search::NodeId>& nodes = scratch.nodes;
  if (!scratch.central.find(grid, sources, targets, nodes)) return;
  // The legs' exact costs, from the attachments of the ends the central path took.
  const auto leg_cost = [&](Point p, AttachDirection direction, search::NodeId node) {
    grid.attach(p, direction, legs);
    for (const Attachment& a : legs)
      if (a.node == node) return a.cost;
    return 0.0;
  };
  const double leg_start = leg_cost(start, AttachDirection::from_point, nodes.front());
  const double leg_goal = leg_cost(goal, AttachDirection::to_point, nodes.back());
  double internal = 0.0;
  for (std::size_t k = 1; k < nodes.size(); ++k)
    grid.for_each_neighbour(nodes[k - 1], [&](search::NodeId to, double cost) {
      if (to == nodes[k]) internal += cost;
    });
  raw.nodes.assign(nodes.begin(), nodes.end());
  raw.graph_cost = leg_start + internal + leg_goal;
  raw.points.clear();
  raw.points.push_back(start);
  const auto add = [&](Point p) {
    if (!(p == raw.points.back())) raw.points.push_back(p);
  };
  for (const search::NodeId n : raw.nodes) add(grid.node_position(n));
  add(goal);
  raw.method_has_corridors = grid.has_corridors();
  raw.corridor.clear();
  raw.has_corridor = false;
  if (!options.corridor) return;
  std::optional<std::vector<Segment>> corridor = grid.corridor(start, raw.nodes, goal);
  raw.has_corridor = corridor.has_value();
  if (corridor) raw.corridor = std::move(*corridor);
}

const OccupancyGrid* occupancy_grid_of(const Discretisation& d) {
  if (const auto* grid = dynamic_cast<const OccupancyGrid*>(&d)) return grid;
  if (const auto* jumps = dynamic_cast<const JumpPointGrid*>(&d)) return &jumps->grid();
  if (const auto* clusters = dynamic_cast<const HierarchicalGrid*>(&d)) return &clusters->grid();
  return nullptr;
}

std::unique_ptr<Method> make_grid_method(const FreeSpace& space, const GridMethodOptions& options) {
  const GridOptions& grid = options;
  // Other searches order their own way; the grid still generates its moves in auto's order, so
  // that central paths, which take the first of equal candidates, do not depend on the search.
  if (options.search != GridSearch::astar && options.ties != GridTies::automatic &&
      options.ties != GridTies::larger_g)
    throw InputError({"", 0, 0, "grid.ties"},
                     "grid.ties=" + std::string(name_of(grid_ties_names, options.ties)) +
                         " chooses among the open cells of grid A*; grid.search=" +
                         std::string(name_of(grid_search_names, options.search)) +
                         " orders its search its own way (use grid.search=astar, or leave "
                         "grid.ties at auto)");
  if (options.paths == GridPaths::central) {
    if (options.search == GridSearch::theta || options.search == GridSearch::hpa)
      throw InputError({"", 0, 0, "grid.paths"},
                       "grid.paths=central chooses among shortest grid paths, which grid.search=" +
                           std::string(name_of(grid_search_names, options.search)) +
                           " does not search for (use grid.search=astar, jps or jps+ with it)");
    if (options.search == GridSearch::astar)
      return std::make_unique<CentralGrid<OccupancyGrid>>(space, grid);
    return std::make_unique<CentralGrid<JumpPointGrid>>(
        space, grid, JumpOptions{options.search, JumpOptions{}.jump_limit, options.jumps_before});
  }
  if (options.search == GridSearch::astar)
    return std::make_unique<MethodOf<OccupancyGrid>>(space, grid);
  if (options.search == GridSearch::theta) return std::make_unique<ThetaStarGrid>(space, grid);
  if (options.search == GridSearch::hpa)
    return std::make_unique<HierarchicalGridMethod>(space, grid, options.cluster);
  return std::make_unique<MethodOf<JumpPointGrid>>(
      space, grid, JumpOptions{options.search, JumpOptions{}.jump_limit, options.jumps_before});
}

}  // namespace polynav
