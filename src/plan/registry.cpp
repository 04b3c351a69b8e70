#include "polynav/plan/registry.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <optional>
#include <span>
#include <sstream>
#include <string>

#include "polynav/discretise/grid/jump_point_grid.hpp"
#include "polynav/discretise/grid/occupancy_grid.hpp"
#include "polynav/discretise/navmesh/navmesh.hpp"
#include "polynav/discretise/navmesh/polyanya.hpp"
#include "polynav/discretise/quadtree/quadtree.hpp"
#include "polynav/discretise/visibility_graph/visibility_graph.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/grid_methods.hpp"
#include "polynav/smooth/funnel.hpp"
#include "polynav/smooth/path_simplifier.hpp"
#include "polynav/smooth/spline.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

constexpr double unlimited = 1e308;  // "inf" as an option value

OptionSpec number(std::string name, std::string default_value, std::string doc, std::string unit,
                  double min, bool min_exclusive = false, double max = unlimited) {
  OptionSpec s;
  s.name = std::move(name);
  s.type = OptionType::number;
  s.default_value = std::move(default_value);
  s.doc = std::move(doc);
  s.unit = std::move(unit);
  s.min = min;
  s.min_exclusive = min_exclusive;
  s.max = max;
  return s;
}

OptionSpec integer(std::string name, std::string default_value, std::string doc, double min,
                   std::vector<std::string> choices = {}) {
  OptionSpec s = number(std::move(name), std::move(default_value), std::move(doc), "", min);
  s.type = OptionType::integer;
  s.choices = std::move(choices);
  return s;
}

OptionSpec flag(std::string name, std::string default_value, std::string doc) {
  OptionSpec s;
  s.name = std::move(name);
  s.type = OptionType::flag;
  s.default_value = std::move(default_value);
  s.doc = std::move(doc);
  return s;
}

OptionSpec choice(std::string name, std::string default_value, std::string doc,
                  std::vector<std::string> choices) {
  OptionSpec s;
  s.name = std::move(name);
  s.type = OptionType::choice;
  s.default_value = std::move(default_value);
  s.doc = std::move(doc);
  s.choices = std::move(choices);
  return s;
}

// A count option's value; "inf", and anything beyond what a count can hold, means no limit.
std::size_t count_or_unlimited(double v) {
  return v >= 1.8e19 ? std::numeric_limits<std::size_t>::max() : std::size_t(v);
}

// --- methods: one row each ---------------------------------------------------------------

std::unique_ptr<Method> build_grid(const FreeSpace& space, const OptionValues& o) {
  GridOptions options;
  options.resolution = o.number("resolution");
  options.connectivity = int(o.integer("connectivity"));
  options.heuristic = parse_grid_heuristic(o.text("heuristic"));
  options.max_cells = count_or_unlimited(o.number("max_cells"));
  options.align = o.text("align") == "corner" ? GridAlign::corner : GridAlign::centre;
  options.max_build_seconds = space.max_build_seconds();
  options.ties = parse_grid_ties(o.text("ties"));
  const GridSearch search = parse_grid_search(o.text("search"));
  // Other searches order their own way; the grid still generates its moves in auto's order, so
  // that central paths, which take the first of equal candidates, do not depend on the search.
  if (search != GridSearch::astar && options.ties != GridTies::automatic &&
      options.ties != GridTies::larger_g)
    throw InputError({"", 0, 0, "grid.ties"},
                     "grid.ties=" + o.text("ties") + " chooses among the open cells of grid A*; " +
                         "grid.search=" + o.text("search") +
                         " orders its search its own way (use grid.search=astar, or leave "
                         "grid.ties at auto)");
  if (o.text("paths") == "central") {
    if (search == GridSearch::theta)
      throw InputError(
          {"", 0, 0, "grid.paths"},
          "grid.paths=central chooses among shortest grid paths, which Theta* does not "
          "search for (use grid.search=astar, jps or jps+ with it)");
    if (search == GridSearch::astar)
      return std::make_unique<CentralGrid<OccupancyGrid>>(space, options);
    return std::make_unique<CentralGrid<JumpPointGrid>>(space, options, JumpOptions{search});
  }
  if (search == GridSearch::astar) return std::make_unique<MethodOf<OccupancyGrid>>(space, options);
  if (search == GridSearch::theta) return std::make_unique<ThetaStarGrid>(space, options);
  return std::make_unique<MethodOf<JumpPointGrid>>(space, options, JumpOptions{search});
}

std::unique_ptr<Method> build_quadtree(const FreeSpace& space, const OptionValues& o) {
  QuadtreeOptions options;
  options.min_cell = o.number("min_cell");
  options.max_depth = int(o.integer("max_depth"));
  options.corners = o.flag("corners");
  options.balance = o.flag("balance");
  options.nodes = parse_quadtree_nodes(o.text("nodes"));
  options.max_leaves = count_or_unlimited(o.number("max_leaves"));
  options.max_build_seconds = space.max_build_seconds();
  return std::make_unique<MethodOf<Quadtree>>(space, options);
}

std::unique_ptr<Method> build_visgraph(const FreeSpace& space, const OptionValues& o) {
  VisibilityGraphOptions options;
  options.bitangent_only = o.flag("bitangent_only");
  options.max_nodes = count_or_unlimited(o.number("max_nodes"));
  options.max_build_seconds = space.max_build_seconds();
  options.attach = parse_visibility_attach(o.text("attach"));
  options.taut = o.flag("taut");
  return std::make_unique<MethodOf<VisibilityGraph>>(space, options);
}

// The navigation mesh searched by Polyanya (navmesh.search=optimal, or auto where it resolves
// to optimal): not A* over a graph, so its own Method. The polygons and point location are the
// NavMesh's; the search state (nodes, open list, best length per turning point) lives in the
// workspace's method state, sized at build. Chosen by auto, it keeps what the graph offered:
// reach, and the search options Polyanya cannot honour (partial paths, beam width, reopening),
// run over the graph of the same polygons, built on first use.
class NavMeshOptimal final : public Method {
 public:
  NavMeshOptimal(const FreeSpace& space, const NavMeshOptions& options)
      : space_(&space),
        options_(options),
        mesh_(space, options),
        search_(mesh_.partition()),
        weighted_(!space.regions().empty()),
        automatic_(options.search == NavMeshSearch::automatic) {}

  const Discretisation& discretisation() const override { return mesh_; }

  void prepare(QueryWorkspace& workspace) const override { (void)state(workspace); }

  RawPath find_path(Point start, Point goal, const QueryOptions& options,
                    QueryWorkspace& workspace) const override {
    if (for_graph(options)) return polynav::find_path(graph(), start, goal, options, workspace);
    if (const std::optional<double> direct = mesh_.direct_cost(start, goal)) {
      // One polygon holds both: the straight segment, without a search.
      RawPath out = empty();
      out.status = search::SearchStatus::found;
      out.points = {start, goal};
      out.has_corridor = true;
      out.graph_cost = distance(start, goal);
      out.message = note();
      return out;
    }
    std::size_t reached = 0;
    return run(start, std::span(&goal, 1), options, workspace, reached);
  }

  RawPath find_path_to_any(Point start, std::span<const Point> goals, const QueryOptions& options,
                           QueryWorkspace& workspace, std::size_t& reached_goal) const override {
    if (for_graph(options))
      return polynav::find_path_to_any(graph(), start, goals, options, workspace, reached_goal);
    if (goals.empty()) {
      reached_goal = 0;
      RawPath out = empty();
      out.message = "the goal set is empty";
      return out;
    }
    return run(start, goals, options, workspace, reached_goal);
  }

  Reach reach(Point from, double max_cost, QueryWorkspace& workspace) const override {
    if (automatic_) return polynav::reach(graph(), from, max_cost, workspace);
    Reach out;
    out.message =
        "reach needs a graph, and navmesh.search=optimal builds none; use navmesh.search=graph "
        "or auto";
    return out;
  }

 private:
  struct State final : MethodState {
    PolyanyaWorkspace workspace;
    PolyanyaResult result;
  };

  State& state(QueryWorkspace& workspace) const {
    if (auto* s = dynamic_cast<State*>(workspace.method_state.get())) return *s;
    auto made = std::make_unique<State>();
    search_.prepare(made->workspace);
    State& s = *made;
    workspace.method_state = std::move(made);
    return s;
  }

  // Whether auto's query goes to the graph: options that only a graph search honours.
  bool for_graph(const QueryOptions& options) const {
    const search::SearchOptions& s = options.search;
    return automatic_ && (s.partial_fallback || s.reopen_closed || s.beam_search());
  }

  // The graph over the same polygons (vertex nodes, landmarks), for auto's reach and graph-only
  // options; built once, by the first thread that needs it.
  const NavMesh& graph() const {
    std::call_once(graph_once_, [this] {
      NavMeshOptions o = options_;
      o.search = NavMeshSearch::graph;
      graph_ = std::make_unique<const NavMesh>(*space_, o);
    });
    return *graph_;
  }

  RawPath empty() const {
    RawPath out;
    out.method = mesh_.method();
    out.method_has_corridors = true;
    out.has_corridor = false;
    return out;
  }

  // Said with every path found in a scene with weighted regions, as the visibility graph's
  // lengths are: Polyanya minimises length.
  std::string note() const {
    return weighted_ ? "navmesh.search=optimal minimises length: in this weighted scene the path "
                       "is the shortest, not the cheapest"
                     : std::string();
  }

  RawPath run(Point start, std::span<const Point> goals, const QueryOptions& options,
              QueryWorkspace& workspace, std::size_t& reached_goal) const {
    State& s = state(workspace);
    PolyanyaResult& r = s.result;
    search_.search(start, goals, options.search, options.record_expanded, s.workspace, r);
    RawPath out = empty();
    out.status = r.status;
    out.stats = r.stats;
    out.expanded = std::move(r.expanded);
    reached_goal = r.status == search::SearchStatus::found ? r.goal : goals.size();
    switch (r.status) {
      case search::SearchStatus::found:
        out.points = r.points;
        out.corridor = r.corridor;
        out.has_corridor = true;
        out.graph_cost = r.length;
        out.message = note();
        break;
      case search::SearchStatus::no_path:
        out.message =
            "no path: no goal is reachable from the start through the navigation mesh "
            "(expanded " +
            std::to_string(r.stats.expanded) + " nodes, all that are reachable)";
        break;
      case search::SearchStatus::limit_reached: {
        search::SearchResult explained;
        explained.status = r.status;
        explained.limit = r.limit;
        explained.stats = r.stats;
        explained.limit_value =
            r.limit == search::SearchLimit::cost ? options.search.max_cost
            : r.limit == search::SearchLimit::expansions
                ? double(options.search.max_expansions)
                : std::chrono::duration<double, std::milli>(options.search.max_time).count();
        out.message = explained.explanation();
        break;
      }
      default:
        out.message = "the start or the goal lies in no polygon of the navigation mesh";
        break;
    }
    return out;
  }

  const FreeSpace* space_;
  NavMeshOptions options_;
  NavMesh mesh_;
  Polyanya search_;
  bool weighted_;
  bool automatic_;  // navmesh.search=auto chose Polyanya
  mutable std::once_flag graph_once_;
  mutable std::unique_ptr<const NavMesh> graph_;
};

std::unique_ptr<Method> build_navmesh(const FreeSpace& space, const OptionValues& o) {
  NavMeshOptions options;
  options.source = parse_navmesh_source(o.text("source"));
  options.nodes = parse_navmesh_nodes(o.text("nodes"));
  options.merge = o.flag("merge");
  options.max_triangles = count_or_unlimited(o.number("max_triangles"));
  options.landmarks = std::size_t(o.integer("landmarks"));
  options.search = parse_navmesh_search(o.text("search"));
  options.max_build_seconds = space.max_build_seconds();
  // The mesh resolves auto itself, the same way, and remembers that it was asked for.
  if (resolve_navmesh_search(space, options) == NavMeshSearch::optimal)
    return std::make_unique<NavMeshOptimal>(space, options);
  return std::make_unique<MethodOf<NavMesh>>(space, options);
}

// --- smoothers ---------------------------------------------------------------------------

std::string smooth_none(const FreeSpace&, const RawPath&, const OptionValues&,
                        std::vector<Point>&) {
  return {};
}

std::string smooth_shortcut(const FreeSpace& space, const RawPath&, const OptionValues&,
                            std::vector<Point>& waypoints) {
  // Every raw waypoint is a candidate: the sightline may end inside a straight run.
  const PathSimplifier simplifier(space);
  simplifier.shortcut(waypoints);
  simplifier.remove_collinear(waypoints);
  return {};
}

std::string smooth_tentpole(const FreeSpace& space, const RawPath&, const OptionValues&,
                            std::vector<Point>& waypoints) {
  const PathSimplifier simplifier(space);
  simplifier.tentpole(waypoints);
  simplifier.remove_collinear(waypoints);
  return {};
}

std::string smooth_shortcut_optimal(const FreeSpace& space, const RawPath&, const OptionValues& o,
                                    std::vector<Point>& waypoints) {
  // Every raw waypoint stays a candidate bend point (collinear ones too: the best shortcut may
  // leave a straight run from its middle).
  const PathSimplifier simplifier(space);
  simplifier.shortcut_optimal(waypoints, count_or_unlimited(o.number("window")));
  simplifier.remove_collinear(waypoints);
  return {};
}

std::string smooth_funnel(const FreeSpace& space, const RawPath& raw, const OptionValues&,
                          std::vector<Point>& waypoints) {
  if (!raw.has_corridor && raw.method_has_corridors)
    return "funnel does not apply to this " + std::string(raw.method) +
           " path (its corridor cannot be stated exactly); the path is not smoothed";
  if (!raw.has_corridor)
    return "funnel does not apply to " +
           (raw.method.empty() ? std::string("these") : std::string(raw.method)) +
           " paths (no corridor); the path is not smoothed";
  if (waypoints.size() < 3) return {};
  waypoints = funnel_smooth(space, raw.corridor, waypoints);
  return {};
}

std::string smooth_spline(const FreeSpace& space, const RawPath&, const OptionValues& o,
                          std::vector<Point>& waypoints) {
  // Through every waypoint of a grid path the curve would follow the staircase: by default the
  // shortcut pass first keeps only the bends that matter.
  const PathSimplifier simplifier(space);
  if (o.flag("shortcut")) simplifier.shortcut(waypoints);
  simplifier.remove_collinear(waypoints);
  SplineOptions options;
  options.samples = std::size_t(o.integer("samples"));
  options.refinements = int(o.integer("refine"));
  SplineResult result = spline_smooth(space, waypoints, options);
  waypoints = std::move(result.path);
  if (result.fell_back) return "spline: the curve failed the final exact check; path not curved";
  std::ostringstream note;
  note.precision(4);
  note << "spline: " << result.curved << " of " << result.spans << " spans curved";
  if (result.flattened > 0) note << " (" << result.flattened << " flattened to stay free)";
  if (result.straight > 0) note << ", " << result.straight << " left straight";
  note << ", max curvature " << result.max_curvature;
  if (result.max_curvature > 0) note << " (radius " << 1.0 / result.max_curvature << ")";
  if (result.corners > 0) note << ", " << result.corners << " corners left";
  return note.str();
}

std::string names_of(const auto& table) {
  std::string s;
  for (const auto& row : table) s += (s.empty() ? "" : ", ") + row.name;
  return s;
}

template <class Table>
const auto& find_row(const Table& table, std::string_view name, const char* what, const char* key) {
  for (const auto& row : table)
    if (row.name == name) return row;
  std::vector<std::string_view> names;
  for (const auto& row : table) names.push_back(row.name);
  std::string message = "unknown " + std::string(what) + " '" + std::string(name) + "'";
  if (const std::string_view near = closest_name(name, names); !near.empty())
    message += " (did you mean '" + std::string(near) + "'?)";
  throw InputError({"", 0, 0, key}, message + "; available: " + names_of(table));
}

}  // namespace

const std::vector<MethodEntry>& method_registry() {
  static const std::vector<MethodEntry> table = {
      {"grid",
       "occupancy grid: square cells, 4-, 8- or 16-connected, no corner cutting; optimal for the "
       "grid's own metric",
       {number("resolution", "0",
               "cell side; 0 = the map's own cells (MovingAI: 1), else the longest side / 256",
               "scene units", 0.0),
        integer("connectivity", "8",
                "4 (orthogonal moves), 8 (plus diagonals) or 16 (plus knight moves (1, 2), each "
                "needing every cell its segment passes through free)",
                4, {"4", "8", "16"}),
        choice("heuristic", "auto",
               "auto = octile for 8-connected, manhattan for 4-connected, sixteen (the open "
               "16-connected grid distance) for 16-connected; octile and manhattan are refused "
               "on 16-connected grids (they overestimate a knight move)",
               {"auto", "manhattan", "octile", "chebyshev", "euclidean", "zero", "sixteen"}),
        integer("max_cells", "33554432", "memory budget: a larger grid is refused", 1),
        choice("align", "centre",
               "path vertices at cell centres, or at cell corners (the any-angle literature's "
               "grids: a move along a cell side needs a free cell beside it, a diagonal its cell)",
               {"centre", "corner"}),
        choice("search", "astar",
               "astar: A* over every cell, any grid; jps: jump point search (Harabor and "
               "Grastien), the same optimal paths expanding only jump points, for 8-connected "
               "centre-aligned grids (refused otherwise); jps+: jps over jump distances "
               "precomputed per cell, faster queries on static maps for 16 bytes per cell. On "
               "grids with cells of different cost, unclimbable height steps or walls along cell "
               "sides, jps and jps+ search with A* and say so in the result's message; theta: "
               "Theta* (Daniel, Nash, Koenig and Felner), any-angle paths whose segments join "
               "grid nodes in exact line of sight, never longer than A*'s on the same grid, "
               "any connectivity and alignment (no corridor)",
               {"astar", "jps", "jps+", "theta"}),
        choice("paths", "any",
               "which shortest grid path: any (the one the search meets first) or central (the "
               "one through the nodes most shortest paths pass through, Goldstein et al., JAIR "
               "2022: shortest paths counted on exact move costs after the search; straighter "
               "after smoothing, the same cost). Grids with cells of different cost or one-way "
               "moves keep the searched path and say so; refused with grid.search=theta",
               {"any", "central"}),
        choice("ties", "auto",
               "which of the open cells of equal f grid A* expands first; move costs are fixed "
               "point, so equal f is a real tie and the rule decides which of the equally short "
               "grid paths is returned, which decides how short it smooths. central64: f alone "
               "in a binary heap, moves in the order of the Central64 reference implementation, "
               "whose regular A* paths it reproduces (4- and 8-connected grids without terrain; "
               "twice the search work of larger-g); larger-g: the deepest first; smaller-g: the "
               "shallowest; lifo / fifo: the latest / earliest opened; line: the nearest the "
               "straight line from start to goal. auto: central64 where it applies, the path "
               "is smoothed and there is no beam search (its paths smooth shortest), else "
               "larger-g (the fastest). Other than "
               "auto and larger-g, grid.search=astar only",
               {"auto", "larger-g", "smaller-g", "lifo", "fifo", "line", "central64"})},
       build_grid},
      {"quadtree",
       "adaptive quadtree: free square leaves, large in open space and small near obstacles, "
       "joined across shared sides; paths come with a corridor for funnel",
       {number("min_cell", "auto",
               "side of the smallest leaf; auto = the grid's default cell (MovingAI: 1, else the "
               "longest side / 256), so that the bottom cells are the grid's cells",
               "scene units", 0.0, true),
        [] {
          OptionSpec s = integer("max_depth", "24",
                                 "most levels below the root (deeper bottom cells grow)", 1);
          s.max = 30;
          return s;
        }(),
        flag("corners", "false",
             "also join leaves touching only at a free corner (with portals nodes: the corner "
             "is a node where every turn through it between the two leaves is free)"),
        flag("balance", "false",
             "split leaves until neighbours across a side differ by at most one level"),
        choice("nodes", "portals",
               "graph nodes at the midpoints of the sides free leaves share, joined by straight "
               "arcs across each leaf (portals: the search's cost is the length of a path "
               "through the leaves it picks, so it picks shorter corridors), or at leaf centres, "
               "joined centre to centre (centres: fewer nodes and arcs, longer paths)",
               {"portals", "centres"}),
        integer("max_leaves", "8388608", "memory budget: a tree with more leaves is refused", 1)},
       build_quadtree},
      {"visgraph",
       "visibility graph: corners of the inflated obstacles joined by exact line of sight; the "
       "exact Euclidean shortest path",
       {flag("bitangent_only", "true",
             "keep only edges tangent at both ends (loses no shortest path)"),
        integer("max_nodes", "40000", "budget on corners: the edges can grow with their square", 1),
        choice("attach", "expand",
               "how start and goal find the corners they see, and corners each other: a "
               "visibility search through a triangulation of free space from the point "
               "(expand), or a tangency and line-of-sight test of every corner and pair of "
               "corners (scan); the same corners and edges either way",
               {"expand", "scan"}),
        flag("taut", "true",
             "search only taut successors: from a corner, the corners round which the path "
             "wraps the obstacle (loses no shortest path; not with a climb limit)")},
       build_visgraph},
      {"navmesh",
       "navigation mesh: free space as convex polygons (a .mesh file's own faces, or constrained "
       "Delaunay triangles merged by Hertel-Mehlhorn), searched through shared edges by "
       "Polyanya (the exact shortest path) where that is the cheapest and the faster, else by "
       "A* over a graph (navmesh.search); paths come with a corridor for funnel",
       {choice("source", "auto",
               "polygons: a .mesh scene's own faces (mesh), or free space triangulated and "
               "merged (rebuild); auto uses the faces when the scene has usable ones",
               {"auto", "mesh", "rebuild"}),
        choice("nodes", "vertices",
               "graph nodes at polygon vertices (arcs along edges and diagonals: the shortest "
               "paths), at polygon centres, at portal (shared edge) midpoints, or at portals and "
               "centres",
               {"vertices", "centres", "portals", "portals+centres"}),
        flag("merge", "true",
             "merge triangles into convex polygons (Hertel-Mehlhorn); rebuilt meshes only"),
        integer("max_triangles", "8388608", "budget: a larger triangulation is refused", 1),
        [] {
          OptionSpec s =
              integer("landmarks", "32",
                      "landmarks of the ALT heuristic (graph costs from a few nodes, one "
                      "double per node and one Dijkstra search at build each; a query uses the "
                      "4 best for it): fewer nodes expanded; 0 = straight-line distance only",
                      0);
          s.max = 64;
          return s;
        }(),
        choice("search", "auto",
               "graph: A* over the nodes (navmesh.nodes), with a corridor for funnel; optimal: "
               "Polyanya (Cui, Harabor and Grastien 2017), the exact Euclidean shortest path "
               "through the polygons, no graph built (nodes and landmarks do not apply, no "
               "reach), with the corridor of the polygon edges it crosses, through which funnel "
               "gives the same path; in weighted scenes the shortest path, not the cheapest; "
               "refused where heights differ by more than the agent's max_climb; auto: optimal "
               "where that is exact and the faster (every place of cost 1, no one-way moves, "
               "zero-width gaps closed, nodes=vertices, at most " +
                   std::to_string(auto_optimal_max_corners) +
                   " corners of free space), else graph; reach and search.partial, beam_width "
                   "and reopen use the graph",
               {"auto", "graph", "optimal"})},
       build_navmesh},
  };
  return table;
}

const std::vector<SmootherEntry>& smoother_registry() {
  static const std::vector<SmootherEntry> table = {
      {"none", "the discretisation's own path", {}, smooth_none},
      {"shortcut",
       "from each waypoint jump to the farthest later one in exact line of sight, never raising "
       "the exact cost; then drop collinear points",
       {},
       smooth_shortcut},
      {"tentpole",
       "greedy line of sight that, where a sightline breaks, backtracks to the bend point giving "
       "the cheaper path (Central64 report, 2023); never raises the exact cost",
       {},
       smooth_tentpole},
      {"shortcut-optimal",
       "the cheapest path through the raw waypoints' mutual visibility (dynamic programming); "
       "never costlier than shortcut or tentpole",
       {integer("window", "256",
                "predecessors tried per waypoint: exact within the waypoints on paths of up to "
                "window + 1 of them; the work grows as waypoints x window",
                1)},
       smooth_shortcut_optimal},
      {"funnel",
       "string pulling through the raw path's corridor of portals (navmesh, grid): the shortest "
       "path within the corridor; per run of equal cost in weighted scenes, never costlier",
       {},
       smooth_funnel},
      {"spline",
       "a centripetal Catmull-Rom curve through the waypoints (after the shortcut pass), sampled "
       "into waypoints; every sampled piece checked exactly and, where it would leave free "
       "space, flattened or left as the input's straight segment, so the path is always valid. "
       "Curves are not shortest: the path may be longer and costlier than its input (its "
       "contract is validity, not length). The message gives the largest curvature",
       {[] {
          OptionSpec s = integer("samples", "8", "sampled points per span between waypoints", 1);
          s.max = 1000;
          return s;
        }(),
        [] {
          OptionSpec s = integer("refine", "3",
                                 "halvings of a colliding span's tangents tried before the span "
                                 "is left straight",
                                 0);
          s.max = 30;
          return s;
        }(),
        flag("shortcut", "true",
             "drop waypoints with the shortcut pass first (a curve through every grid node "
             "follows the staircase)")},
       smooth_spline},
  };
  return table;
}

const std::vector<OptionSpec>& search_option_specs() {
  static const std::vector<OptionSpec> specs = {
      number("weight", "1",
             "heuristic weight w of weighted A*: paths cost at most w times the optimum", "", 1.0),
      number("max_cost", "inf", "paths costing more are not searched for (limit_reached)", "cost",
             0.0),
      integer("max_expanded", "inf", "most nodes to expand before giving up (limit_reached)", 0.0),
      number("time_limit_ms", "inf", "wall-clock budget of one search (limit_reached)", "ms", 0.0),
      flag("partial", "false",
           "when no path is found, return the one to the reached node closest to the goal"),
      integer("beam_width", "inf", "most nodes in the open list (beam search: not optimal)", 1.0),
      flag("reopen", "false", "reopen closed nodes (needed for inconsistent heuristics)"),
  };
  return specs;
}

const std::vector<OptionSpec>& space_option_specs() {
  static const std::vector<OptionSpec> specs = {
      number("inflation_tolerance", "0",
             "how far inflated obstacles may exceed the exact disc sum; 0 = 1% of the radius",
             "scene units", 0.0),
      choice("gaps", "closed",
             "closed: no path passes where two blocked parts touch at a point; open: paths may "
             "(the any-angle literature's convention)",
             {"closed", "open"}),
      integer("max_vertices", "150000",
              "budget on the vertices the exact union of inflated obstacles takes (its time "
              "grows faster than linearly: about 40 s at 200,000)",
              1),
      number("max_build_seconds", "300",
             "wall-clock budget of building free space, and of building the method over it, "
             "checked between steps (the exact union is bounded by max_vertices instead)",
             "s", 0.0, true),
  };
  return specs;
}

std::vector<std::string> method_names() {
  std::vector<std::string> names;
  for (const MethodEntry& m : method_registry()) names.push_back(m.name);
  return names;
}

std::vector<std::string> smoother_names() {
  std::vector<std::string> names;
  for (const SmootherEntry& s : smoother_registry()) names.push_back(s.name);
  return names;
}

void smooth_path(const FreeSpace& space, std::string_view smoother, std::vector<Point>& waypoints) {
  const SmootherEntry& entry = find_smoother(smoother);
  RawPath raw;
  raw.points = waypoints;
  (void)entry.run(space, raw, OptionValues(entry.name, entry.options, Settings{}), waypoints);
}

const MethodEntry& find_method(std::string_view name) {
  return find_row(method_registry(), name, "method", "method");
}

const SmootherEntry& find_smoother(std::string_view name) {
  return find_row(smoother_registry(), name, "smoother", "smooth");
}

void check_settings(const Settings& settings, std::string_view method, std::string_view smoother) {
  std::vector<std::string> groups = {"search", "space"};
  for (const MethodEntry& m : method_registry()) groups.push_back(m.name);
  for (const SmootherEntry& s : smoother_registry()) groups.push_back(s.name);
  for (const auto& [key, value] : settings.values()) {
    const std::string group = key.substr(0, key.find('.'));
    if (std::find(groups.begin(), groups.end(), group) != groups.end()) continue;
    std::vector<std::string_view> names(groups.begin(), groups.end());
    std::string message = "unknown option group '" + group + "' in '" + key + "'";
    if (const std::string_view near = closest_name(group, names); !near.empty())
      message += " (did you mean '" + std::string(near) + "'?)";
    std::string all;
    for (const std::string& g : groups) all += (all.empty() ? "" : ", ") + g;
    throw InputError({"", 0, 0, key}, message + "; groups: " + all);
  }
  // Every method's and smoother's own options are checked, in use or not, so that a typo in an
  // option of a method given elsewhere (an experiment's other methods) is caught as early.
  for (const MethodEntry& m : method_registry()) OptionValues(m.name, m.options, settings);
  for (const SmootherEntry& s : smoother_registry()) OptionValues(s.name, s.options, settings);
  OptionValues("search", search_option_specs(), settings);
  OptionValues("space", space_option_specs(), settings);
  find_method(method);
  find_smoother(smoother);
}

search::SearchOptions search_options(const OptionValues& o) {
  search::SearchOptions s;
  s.weight = o.number("weight");
  if (o.number("max_cost") < unlimited) s.max_cost = o.number("max_cost");
  if (const std::size_t n = count_or_unlimited(o.number("max_expanded"));
      n != std::numeric_limits<std::size_t>::max())
    s.max_expansions = n;
  if (o.number("time_limit_ms") < unlimited)
    s.max_time = std::chrono::nanoseconds(std::int64_t(o.number("time_limit_ms") * 1e6));
  s.partial_fallback = o.flag("partial");
  s.beam_width = count_or_unlimited(o.number("beam_width"));
  s.reopen_closed = o.flag("reopen");
  return s;
}

}  // namespace polynav
