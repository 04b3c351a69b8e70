#include "polynav/plan/replanner.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <optional>
#include <span>
#include <vector>

#include "polynav/discretise/grid/grid_methods.hpp"
#include "polynav/discretise/navmesh/navmesh.hpp"
#include "polynav/discretise/query.hpp"
#include "polynav/error.hpp"
#include "polynav/kernel/exact.hpp"
#include "polynav/search/d_star_lite.hpp"
#include "polynav/smooth/funnel.hpp"

namespace polynav {
namespace {

using search::NodeId;

// The grid a planner of the grid method searches (by A* or jump point search).
const OccupancyGrid& grid_of(const Planner& planner) {
  const Discretisation& d = planner.discretisation();
  if (const OccupancyGrid* grid = occupancy_grid_of(d)) return *grid;
  throw InputError({"", 0, 0, "method"},
                   "replanning repairs searches of the grid method; this "
                   "planner's discretisation is the " +
                       std::string(d.method()));
}

// The grid's nodes per row and per column: its cells, or their corners.
int node_columns(const OccupancyGrid& grid) {
  return grid.corners() ? grid.width() + 1 : grid.width();
}
int node_rows(const OccupancyGrid& grid) {
  return grid.corners() ? grid.height() + 1 : grid.height();
}

// The grid with the query's own two nodes: the goal (node_count()), which the goal's attached
// nodes lead to, and the start (node_count() + 1), which leads to the start's attached nodes.
// Moves on the grid run both ways at one cost, so a node's predecessors are its neighbours,
// except where terrain heights with a climb limit make some one way: then they are the nodes
// around it with a move to it.
struct QueryGraph {
  const OccupancyGrid* grid;
  const std::vector<Attachment>* from;
  const std::vector<Attachment>* to;
  bool one_way = false;

  NodeId goal() const { return NodeId(grid->node_count()); }
  NodeId start() const { return NodeId(grid->node_count() + 1); }
  std::size_t node_count() const { return grid->node_count() + 2; }
  template <class F>
  void for_each_neighbour(NodeId n, F&& f) const {
    if (n == start()) {
      for (const Attachment& a : *from) f(a.node, a.cost);
    } else if (n != goal()) {
      grid->for_each_neighbour(n, f);
      for (const Attachment& a : *to)
        if (a.node == n) f(goal(), a.cost);
    }
  }
  template <class F>
  void for_each_predecessor(NodeId n, F&& f) const {
    if (n == goal()) {
      for (const Attachment& a : *to) f(a.node, a.cost);
    } else if (n != start()) {
      if (one_way) {
        arcs_into(n, f);
      } else {
        grid->for_each_neighbour(n, f);
      }
      for (const Attachment& a : *from)
        if (a.node == n) f(start(), a.cost);
    }
  }
  // The grid's moves into n, from the nodes within a move of it (two nodes away for knight
  // moves).
  template <class F>
  void arcs_into(NodeId n, F&& f) const {
    const int across = node_columns(*grid), down = node_rows(*grid);
    const int x = int(n % NodeId(across)), y = int(n / NodeId(across));
    const int reach = grid->options().connectivity == 16 ? 2 : 1;
    for (int dy = -reach; dy <= reach; ++dy)
      for (int dx = -reach; dx <= reach; ++dx) {
        const int wx = x + dx, wy = y + dy;
        if ((dx == 0 && dy == 0) || wx < 0 || wy < 0 || wx >= across || wy >= down) continue;
        const auto w = NodeId(wy * across + wx);
        grid->for_each_neighbour(w, [&](NodeId target, double cost) {
          if (target == n) f(w, cost);
        });
      }
  }
};

bool same_arcs(const std::vector<Attachment>& a, const std::vector<Attachment>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const Attachment& x, const Attachment& y) {
                      return x.node == y.node && x.cost == y.cost;
                    });
}

// A window of grid nodes, [x0, x1) x [y0, y1).
struct NodeWindow {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

// The grid nodes in `window` whose moves (targets or costs) differ between two grids of the same
// frame, appended to `changed`.
void changed_nodes(const OccupancyGrid& before, const OccupancyGrid& after,
                   const NodeWindow& window, std::vector<NodeId>& changed) {
  std::array<search::Arc, 16> a, b;
  const int columns = node_columns(after);
  for (int y = window.y0; y < window.y1; ++y)
    for (int x = window.x0; x < window.x1; ++x) {
      const auto n = NodeId(y * columns + x);
      std::size_t na = 0, nb = 0;
      before.for_each_neighbour(n, [&](NodeId to, double cost) { a[na++] = {to, cost}; });
      after.for_each_neighbour(n, [&](NodeId to, double cost) { b[nb++] = {to, cost}; });
      if (!std::equal(a.begin(), a.begin() + std::ptrdiff_t(na), b.begin(),
                      b.begin() + std::ptrdiff_t(nb),
                      [](const search::Arc& p, const search::Arc& q) {
                        return p.to == q.to && p.cost == q.cost;
                      }))
        changed.push_back(n);
    }
}

// The window of nodes whose moves can change when free space, costs and heights change within
// `box`: its cells, and the nodes a move (a knight's included) or a wall along a cell side ties
// to them.
NodeWindow window_around(const OccupancyGrid& grid, const Box& box) {
  int x0 = INT_MAX, y0 = INT_MAX, x1 = INT_MIN, y1 = INT_MIN;
  for (const Point corner :
       {box.min, Point{box.max.x, box.min.y}, box.max, Point{box.min.x, box.max.y}}) {
    const auto [cx, cy] = grid.cell_of(corner);
    x0 = std::min(x0, cx);
    y0 = std::min(y0, cy);
    x1 = std::max(x1, cx);
    y1 = std::max(y1, cy);
  }
  constexpr int reach = 3;
  return {std::clamp(x0 - reach, 0, node_columns(grid)), std::clamp(y0 - reach, 0, node_rows(grid)),
          std::clamp(x1 + reach + 1, 0, node_columns(grid)),
          std::clamp(y1 + reach + 1, 0, node_rows(grid))};
}

// Where in a corridor p lies: the last j for which p is in the hull of portals j - 1 and j
// (portal -1 the point `from`, portal n the point `to`, n = portals.size()), so that the funnel
// from p through portals j.. stays in the corridor. Each hull lies in the convex polygon the two
// portals bound, and its corners go round it counter-clockwise: the left and right ends of the
// portal it enters by (Segment::a on the left), then the right and left ends of the one it
// leaves by. A hull of no area, or not convex (a corridor that does not read so), holds nothing.
std::optional<std::size_t> corridor_cell(std::span<const Segment> portals, Point from, Point to,
                                         Point p) {
  const auto portal = [&](std::size_t j) {  // portal j - 1
    if (j == 0) return Segment{from, from};
    if (j > portals.size()) return Segment{to, to};
    return portals[j - 1];
  };
  for (std::size_t j = portals.size() + 1; j-- > 0;) {
    const Segment in = portal(j), out = portal(j + 1);
    const std::array<Point, 4> hull = {in.a, in.b, out.b, out.a};
    bool convex = true, area = false;
    for (std::size_t i = 0; i < 4 && convex; ++i) {
      const int turn = exact::orientation(hull[i], hull[(i + 1) % 4], hull[(i + 2) % 4]);
      convex = turn >= 0;
      area = area || turn > 0;
    }
    if (convex && area && exact::in_closed_convex(p, hull)) return j;
  }
  return std::nullopt;
}

// The distance from p to the closed box b.
double distance_to(Point p, const Box& b) {
  const double dx = std::max({b.min.x - p.x, 0.0, p.x - b.max.x});
  const double dy = std::max({b.min.y - p.y, 0.0, p.y - b.max.y});
  return std::hypot(dx, dy);
}

}  // namespace

struct Replanner::State {
  const EditablePlanner* live = nullptr;
  Point goal;
  EditablePlanner::Snapshot searched_on;  // the version searched last (its grid is compared)
  const OccupancyGrid* grid = nullptr;    // its grid
  std::vector<Attachment> from, to;       // the start's and the goal's arcs on that grid
  bool searched = false;                  // `search` holds a search on `grid` from `from` to `to`
  search::DStarLite search;
  QueryWorkspace workspace;  // attach_ends' lists, trace_points' bends
  std::vector<NodeId> changed;
  Repair last;

  // On a mesh: the corridor of the last search, followed while it holds.
  bool mesh = false;
  EditablePlanner::Snapshot corridor_on;   // the version it was found on
  Point corridor_from;                     // the start it was found from
  std::vector<Segment> portals;            // start to goal
  bool kept = false;                       // a corridor is kept
  std::uint64_t extent_for = 0;            // the version `edited` compares with corridor_on
  std::vector<Box> edited;                 // the boxes edited between them (edited_boxes)
  std::optional<std::vector<Box>> extent;  // where their free spaces differ (edit_extent),
                                           // once needed
  std::vector<Point> points;               // the funnel's path
  std::vector<Segment> scratch;            // the funnel's oriented portals

  RawPath follow(const EditablePlanner::Snapshot& version, Point start, Point goal_at,
                 const QueryOptions& options);
  // The answer through the kept corridor from `start`, when it holds on `version`; else none.
  bool follow_corridor(const EditablePlanner::Snapshot& version, Point start, Point goal_at,
                       const QueryOptions& options, RawPath& out);
  // Whether `version`'s free space differs from the corridor's version's within `length` of
  // start and goal together (a changed box meets the ellipse).
  bool changed_within(const EditablePlanner::Snapshot& version, Point start, Point goal_at,
                      double length);

  RawPath find(const EditablePlanner::Snapshot& version, Point start, Point goal_at,
               const QueryOptions& options);
  // Whether the search on the last version can be repaired for `version`'s grid `now`: the
  // same frame of cells (so the same node ids) and the same heuristic.
  bool repairable(const EditablePlanner::Snapshot& version, const OccupancyGrid& now) const;
  // The nodes whose moves differ between the last version's grid and `now`, into `changed`.
  void find_changes(const EditablePlanner::Snapshot& version, const OccupancyGrid& now);
};

Replanner::Replanner(const EditablePlanner& live, Point goal) : state_(new State) {
  state_->live = &live;
  state_->goal = goal;
  const std::shared_ptr<const Planner> planner = live.planner();
  const PlanOptions& options = planner->options();
  if (options.method == "navmesh") {
    state_->mesh = true;
    return;
  }
  if (options.method != "grid")
    throw InputError({"", 0, 0, "method"},
                     "replanning repairs searches of the grid method (D* Lite) and follows "
                     "corridors of the navmesh method; this planner's method is " +
                         options.method);
  if (const auto& values = options.settings.values(); values.contains("grid.search")) {
    const std::string& search = values.at("grid.search");
    if (search != "astar" && search != "jps" && search != "jps+")
      throw InputError({"", 0, 0, "grid.search"},
                       "replanning repairs cheapest grid paths (grid.search astar, jps or jps+); "
                       "found grid.search=" +
                           search);
  }
  grid_of(*planner);
}

Replanner::~Replanner() = default;

const Replanner::Repair& Replanner::last_repair() const {
  return state_->last;
}

PlanResult Replanner::plan(Point start) {
  const EditablePlanner::Snapshot version = state_->live->snapshot();
  const Planner::Search find = [&](Point s, Point g, const QueryOptions& options) {
    return state_->mesh ? state_->follow(version, s, g, options)
                        : state_->find(version, s, g, options);
  };
  state_->last = {version.number, true, 0, INFINITY};
  return version.planner->plan_with(start, state_->goal, find);
}

bool Replanner::State::repairable(const EditablePlanner::Snapshot& version,
                                  const OccupancyGrid& now) const {
  // A cheaper region scales every heuristic down at once: no shift of the keys covers that.
  return searched && grid->width() == now.width() && grid->height() == now.height() &&
         grid->cell_size() == now.cell_size() && grid->origin() == now.origin() &&
         grid->corners() == now.corners() &&
         searched_on.planner->free_space().min_cost() == version.planner->free_space().min_cost();
}

void Replanner::State::find_changes(const EditablePlanner::Snapshot& version,
                                    const OccupancyGrid& now) {
  changed.clear();
  const FreeSpace& before = searched_on.planner->free_space();
  const FreeSpace& after = version.planner->free_space();
  const NodeWindow everywhere{0, 0, node_columns(now), node_rows(now)};
  // The first region (or the last removed) changes how every move is costed: then every node
  // is compared.
  if (before.weighted() != after.weighted()) {
    changed_nodes(*grid, now, everywhere, changed);
    return;
  }
  // Elsewhere free space, costs and heights change only within the edit's extent in the two
  // versions' free spaces (FreeSpace::edit_extent).
  const std::vector<Box> boxes =
      edited_boxes(*searched_on.scene, searched_on.ids, *version.scene, version.ids);
  for (const Box& box : after.edit_extent(before, boxes))
    changed_nodes(*grid, now, window_around(now, box), changed);
  // Windows may overlap: each node once.
  std::sort(changed.begin(), changed.end());
  changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
}

RawPath Replanner::State::find(const EditablePlanner::Snapshot& version, Point start, Point goal_at,
                               const QueryOptions& options) {
  const OccupancyGrid& now = grid_of(*version.planner);
  RawPath out;
  out.method = now.method();
  out.method_has_corridors = out.has_corridor = now.has_corridors();
  std::vector<Attachment> old_from = std::move(from), old_to = std::move(to);
  if (!attach_ends(now, start, std::span(&goal_at, 1), {}, workspace, out)) {
    searched = false;  // the next plan() starts afresh
    return out;
  }
  from = workspace.from;
  to = workspace.goal_arcs[0];
  const FreeSpace& space = version.planner->free_space();
  const QueryGraph graph{&now, &from, &to,
                         space.has_heights() && std::isfinite(space.agent().max_climb)};
  const NodeId start_node = graph.start();

  if (!repairable(version, now)) {
    search.reset(graph.node_count(), graph.goal());
  } else {
    last.fresh = false;
    if (version.planner != searched_on.planner) {
      find_changes(version, now);
      last.changed_nodes = changed.size();
      for (const NodeId n : changed) search.arcs_changed(graph, n);
    }
    if (!same_arcs(old_to, to)) {  // the arcs into the goal changed
      for (const Attachment& a : old_to) search.arcs_changed(graph, a.node);
      for (const Attachment& a : to) search.arcs_changed(graph, a.node);
    }
    if (!same_arcs(old_from, from)) {
      // The heuristic measures from the start's arcs: it falls by at most the old heuristic at
      // a new arc's node less that arc's cost (the grid's heuristic keeps the triangle
      // inequality), so the keys already queued stay below their nodes' keys after the shift.
      const OccupancyGrid::Estimate before = now.heuristic(old_from, start);
      double shift = 0.0;
      for (const Attachment& a : from) shift = std::max(shift, before(a.node) - a.cost);
      search.start_moved(shift);
      search.arcs_changed(graph, start_node);
    }
  }
  searched_on = version;
  grid = &now;
  searched = true;

  // A lower bound of the cost from the start to each node: the grid's heuristic towards the
  // start's arcs; 0 at the query's own nodes.
  const OccupancyGrid::Estimate estimate = now.heuristic(from, start);
  const NodeId grid_nodes = NodeId(now.node_count());
  out.stats.expanded = search.compute(graph, start_node,
                                      [&](NodeId n) { return n < grid_nodes ? estimate(n) : 0.0; });
  std::vector<NodeId> path;
  search.path(graph, start_node, path);
  if (path.empty()) {
    out.status = search::SearchStatus::no_path;
    out.message = "no_path: no path on the grid joins the start to the goal";
    return out;
  }
  out.status = search::SearchStatus::found;
  out.graph_cost = last.cost = search.cost(start_node);
  out.nodes.assign(path.begin() + 1, path.end() - 1);  // without the query's own nodes
  detail::trace_points(now, start, goal_at, workspace, out);
  detail::set_corridor(now, options, out);
  return out;
}

RawPath Replanner::State::follow(const EditablePlanner::Snapshot& version, Point start,
                                 Point goal_at, const QueryOptions& options) {
  RawPath out;
  if (kept && follow_corridor(version, start, goal_at, options, out)) return out;
  QueryOptions with_corridor = options;
  with_corridor.corridor = true;
  out = version.planner->search_method(start, goal_at, with_corridor);
  if (out.status == search::SearchStatus::found) last.cost = polyline_length(out.points);
  kept = out.status == search::SearchStatus::found && out.has_corridor;
  if (kept) {
    corridor_on = version;
    corridor_from = start;
    portals = out.corridor;
    extent_for = version.number;
    edited.clear();
    extent.reset();
    last.portals = portals.size();
  }
  if (!options.corridor) {
    out.corridor.clear();
    out.has_corridor = false;
  }
  return out;
}

bool Replanner::State::follow_corridor(const EditablePlanner::Snapshot& version, Point start,
                                       Point goal_at, const QueryOptions& options, RawPath& out) {
  const Planner& planner = *version.planner;
  // The funnel shortens; a graph search in a weighted scene minimises cost.
  if (planner.free_space().weighted()) {
    const auto* navmesh = dynamic_cast<const NavMesh*>(&planner.discretisation());
    if (navmesh == nullptr || !navmesh->optimal()) return false;
  }
  const std::optional<std::size_t> cell = corridor_cell(portals, corridor_from, goal_at, start);
  if (!cell) return false;
  const std::span<const Segment> ahead = std::span(portals).subspan(*cell);
  funnel(start, goal_at, ahead, points, scratch);
  // The path lies in the hulls, so in the corridor's version's free space; and within the
  // ellipse, where free space is as it was unless changed_within. (plan_with checks it again.)
  const double length = polyline_length(points);
  if (changed_within(version, start, goal_at, length)) return false;
  out.status = search::SearchStatus::found;
  out.method = planner.discretisation().method();
  out.method_has_corridors = true;
  out.points = points;
  out.graph_cost = length;
  if (options.corridor) {
    out.corridor.assign(ahead.begin(), ahead.end());
    NavPartition::trim_ends(start, goal_at, out.corridor);
  }
  out.has_corridor = options.corridor;
  last.fresh = false;
  last.cost = length;
  last.portals = ahead.size();
  return true;
}

bool Replanner::State::changed_within(const EditablePlanner::Snapshot& version, Point start,
                                      Point goal_at, double length) {
  if (version.planner == corridor_on.planner) return false;
  const FreeSpace &before = corridor_on.planner->free_space(),
                  &after = version.planner->free_space();
  if (extent_for != version.number) {
    edited = edited_boxes(*corridor_on.scene, corridor_on.ids, *version.scene, version.ids);
    extent.reset();
    extent_for = version.number;
  }
  // A path through a point p is at least |start p| + |p goal| long; the margin covers the
  // rounding of the distances (a few ulps each).
  const double reach = length * (1.0 + 1e-12);
  const auto within = [&](const std::vector<Box>& boxes, double grow) {
    return std::any_of(boxes.begin(), boxes.end(), [&](const Box& b) {
      const Box grown{{b.min.x - grow, b.min.y - grow}, {b.max.x + grow, b.max.y + grow}};
      return distance_to(start, grown) + distance_to(goal_at, grown) <= reach;
    });
  };
  // The edited boxes grown by the edit's reach first: they are the extent but for the boundary
  // edges with an end in them, which cost a pass over every edge to find.
  if (within(edited, std::max(after.edit_reach(), before.edit_reach()))) return true;
  if (!extent) extent = after.edit_extent(before, edited);
  return within(*extent, 0.0);
}

}  // namespace polynav
