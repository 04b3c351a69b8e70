#include "polynav/plan/registry.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <tuple>

#include "polynav/discretise/navmesh/navmesh_method.hpp"
#include "polynav/discretise/potential/potential_field.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/option_tables.hpp"
#include "polynav/smooth/funnel.hpp"
#include "polynav/smooth/path_simplifier.hpp"

namespace polynav {
namespace {

inline constexpr auto free_space_gaps_names = enum_names(false, "closed", true, "open");

// --- methods: each built from its options table -------------------------------------------

std::unique_ptr<Method> build_grid(const FreeSpace& space, const OptionValues& o) {
  GridMethodOptions options = grid_option_table().read(o);
  options.max_build_seconds = space.max_build_seconds();
  return make_grid_method(space, options);
}

std::unique_ptr<Method> update_grid(const FreeSpace& space, const OptionValues& o,
                                    const Method& before, std::span<const Box> changed) {
  GridMethodOptions options = grid_option_table().read(o);
  options.max_build_seconds = space.max_build_seconds();
  options.update = std::make_shared<const EditedFrom<OccupancyGrid>>(EditedFrom<OccupancyGrid>{
      occupancy_grid_of(before.discretisation()), {changed.begin(), changed.end()}});
  options.jumps_before = dynamic_cast<const JumpPointGrid*>(&before.discretisation());
  return make_grid_method(space, options);
}

std::unique_ptr<Method> build_hexgrid(const FreeSpace& space, const OptionValues& o) {
  HexGridOptions options = hexgrid_option_table().read(o);
  options.max_build_seconds = space.max_build_seconds();
  return std::make_unique<MethodOf<HexGrid>>(space, options);
}

std::unique_ptr<Method> build_clearance(const FreeSpace& space, const OptionValues& o) {
  ClearanceOptions options = clearance_option_table().read(o);
  options.max_build_seconds = space.max_build_seconds();
  return make_clearance_method(space, options);
}

std::unique_ptr<Method> build_waypoints(const FreeSpace& space, const OptionValues& o) {
  WaypointOptions options = waypoints_option_table().read(o);
  options.max_build_seconds = space.max_build_seconds();
  return make_waypoint_method(space, options);
}

std::unique_ptr<Method> build_hybrid(const FreeSpace& space, const OptionValues& o) {
  return make_hybrid_method(space, hybrid_option_table().read(o));
}

std::unique_ptr<Method> build_quadtree(const FreeSpace& space, const OptionValues& o) {
  QuadtreeOptions options = quadtree_option_table().read(o);
  options.max_build_seconds = space.max_build_seconds();
  return std::make_unique<MethodOf<Quadtree>>(space, options);
}

std::unique_ptr<Method> update_quadtree(const FreeSpace& space, const OptionValues& o,
                                        const Method& before, std::span<const Box> changed) {
  QuadtreeOptions options = quadtree_option_table().read(o);
  options.max_build_seconds = space.max_build_seconds();
  options.update = std::make_shared<const EditedFrom<Quadtree>>(EditedFrom<Quadtree>{
      dynamic_cast<const Quadtree*>(&before.discretisation()), {changed.begin(), changed.end()}});
  return std::make_unique<MethodOf<Quadtree>>(space, options);
}

std::unique_ptr<Method> build_visgraph(const FreeSpace& space, const OptionValues& o) {
  VisibilityGraphOptions options = visgraph_option_table().read(o);
  options.max_build_seconds = space.max_build_seconds();
  return std::make_unique<MethodOf<VisibilityGraph>>(space, options);
}

std::unique_ptr<Method> build_navmesh(const FreeSpace& space, const OptionValues& o) {
  NavMeshOptions options = navmesh_option_table().read(o);
  options.max_build_seconds = space.max_build_seconds();
  return make_navmesh_method(space, options);
}

std::unique_ptr<Method> build_potential(const FreeSpace& space, const OptionValues& o) {
  const PotentialOptions options = potential_option_table().read(o);
  std::unique_ptr<Method> fallback;
  if (options.fallback != "none") {
    // Declared choices only (potential_fallback_names); built with its default options.
    const MethodEntry& entry = find_method(options.fallback);
    fallback = entry.build(space, OptionValues(entry.name, entry.options, Settings{}));
  }
  return make_potential_method(space, options, std::move(fallback));
}

std::unique_ptr<Method> build_weighted(const FreeSpace& space, const OptionValues& o) {
  WeightedOptions options = weighted_option_table().read(o);
  options.max_build_seconds = space.max_build_seconds();
  return make_weighted_method(space, options);
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
  simplifier.shortcut_optimal(waypoints, shortcut_optimal_option_table().read(o).window);
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
  const SplineSmoothing options = spline_option_table().read(o);
  const PathSimplifier simplifier(space);
  if (options.shortcut) simplifier.shortcut(waypoints);
  simplifier.remove_collinear(waypoints);
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

// --- option tables: each group's options, once ------------------------------------------

}  // namespace

const OptionTable<GridMethodOptions>& grid_option_table() {
  using O = GridMethodOptions;
  static const OptionTable<O> table =
      OptionTable<O>()
          .number("resolution", &O::resolution,
                  "cell side; 0 = the map's own cells (MovingAI: 1), else the longest side / 256",
                  "scene units", {.min = 0.0})
          .integer("connectivity", &O::connectivity,
                   "4 (orthogonal moves), 8 (plus diagonals) or 16 (plus knight moves (1, 2), "
                   "each needing every cell its segment passes through free)",
                   {.min = 4}, {"4", "8", "16"})
          .choice("heuristic", &O::heuristic, grid_heuristic_names,
                  "auto = octile for 8-connected, manhattan for 4-connected, sixteen (the open "
                  "16-connected grid distance) for 16-connected; octile and manhattan are "
                  "refused on 16-connected grids (they overestimate a knight move)")
          .integer("max_cells", &O::max_cells, "memory budget: a larger grid is refused",
                   {.min = 1})
          .choice("align", &O::align, grid_align_names,
                  "path vertices at cell centres, or at cell corners (the any-angle literature's "
                  "grids: a move along a cell side needs a free cell beside it, a diagonal its "
                  "cell)")
          .choice("search", &O::search, grid_search_names,
                  "astar: A* over every cell, any grid; jps: jump point search (Harabor and "
                  "Grastien), the same optimal paths expanding only jump points, for 8-connected "
                  "centre-aligned grids (refused otherwise); jps+: jps over jump distances "
                  "precomputed per cell, faster queries on static maps for 16 bytes per cell. On "
                  "grids with cells of different cost, unclimbable height steps or walls along "
                  "cell sides, jps and jps+ search with A* and say so in the result's message; "
                  "theta: Theta* (Daniel, Nash, Koenig and Felner), any-angle paths whose "
                  "segments join grid nodes in exact line of sight, never longer than A*'s on "
                  "the same grid, any connectivity and alignment (no corridor); hpa: HPA* "
                  "(Botea, Mueller and Schaeffer 2004), an abstract graph over the borders of "
                  "clusters of grid.cluster nodes built once, near-optimal grid paths found "
                  "through it (any grid whose moves cost the same both ways; refused with "
                  "one-way height steps)")
          .integer("cluster", &O::cluster,
                   "grid.search=hpa: side of a cluster in grid nodes (larger: fewer abstract "
                   "nodes, longer searches inside clusters)",
                   {.min = 2})
          .choice("paths", &O::paths, grid_paths_names,
                  "which shortest grid path: any (the one the search meets first) or central "
                  "(the one through the nodes most shortest paths pass through, Goldstein et "
                  "al., JAIR 2022: shortest paths counted on exact move costs after the search; "
                  "straighter after smoothing, the same cost). Grids with cells of different "
                  "cost or one-way moves keep the searched path and say so; refused with "
                  "grid.search=theta")
          .choice("ties", &O::ties, grid_ties_names,
                  "which of the open cells of equal f grid A* expands first; move costs are "
                  "fixed point, so equal f is a real tie and the rule decides which of the "
                  "equally short grid paths is returned, which decides how short it smooths. "
                  "central64: f alone in a binary heap, moves in the order of the Central64 "
                  "reference implementation, whose regular A* paths it reproduces (4- and "
                  "8-connected grids without terrain; twice the search work of larger-g); "
                  "larger-g: the deepest first; smaller-g: the shallowest; lifo / fifo: the "
                  "latest / earliest opened; line: the nearest the straight line from start to "
                  "goal. auto: central64 where it applies, the path is smoothed and there is no "
                  "beam search (its paths smooth shortest), else larger-g (the fastest). Other "
                  "than auto and larger-g, grid.search=astar only");
  return table;
}

const OptionTable<HexGridOptions>& hexgrid_option_table() {
  using O = HexGridOptions;
  static const OptionTable<O> table =
      OptionTable<O>()
          .number("size", &O::size,
                  "side of a hexagon (its centre to a corner); auto = hexagons of the area of "
                  "the square grid's default cell (MovingAI: 1, else the longest side / 256)",
                  "scene units", {.min = 0.0, .min_exclusive = true}, /*zero_is_auto=*/true)
          .choice("orientation", &O::orientation, hex_orientation_names,
                  "pointy: a corner at the top, rows of hexagons along x; flat: a side at the "
                  "top, columns of hexagons along y")
          .integer("max_cells", &O::max_cells,
                   "memory budget: a grid of more hexagons (free and blocked) is refused",
                   {.min = 1});
  return table;
}

const OptionTable<ClearanceOptions>& clearance_option_table() {
  using O = ClearanceOptions;
  static const OptionTable<O> table =
      OptionTable<O>()
          .number("arc_tolerance", &O::arc_tolerance,
                  "largest distance between a curved piece of the medial axis (the bisector of a "
                  "corner and an edge) and the chords that stand for it; auto = the longest side "
                  "of free space / 1000. The best clearance is found to within it",
                  "scene units", {.min = 0.0, .min_exclusive = true}, /*zero_is_auto=*/true)
          .integer("max_nodes", &O::max_nodes,
                   "budget: a roadmap of more nodes (diagram vertices and arc samples) is refused",
                   {.min = 1});
  return table;
}

const OptionTable<WaypointOptions>& waypoints_option_table() {
  using O = WaypointOptions;
  static const OptionTable<O> table =
      OptionTable<O>()
          .choice("source", &O::source, waypoint_source_names,
                  "scene: the scene file's own waypoints and links (the `waypoints` key); "
                  "corners: the corners of the inflated obstacles where shortest paths bend, "
                  "linked by exact line of sight; auto: the scene's when it has them, else "
                  "corners")
          .integer("max_nodes", &O::max_nodes,
                   "budget on the waypoints (linking them tests every pair for line of sight)",
                   {.min = 1})
          .integer("max_links", &O::max_links,
                   "budget on the links, checked before their arcs are stored", {.min = 1})
          .integer("max_table_nodes", &O::max_table_nodes,
                   "all routes are precomputed at build (12 bytes per pair of waypoints) when the "
                   "graph has at most this many waypoints, so a query is a table look-up; larger "
                   "graphs are searched query by query with A*; 0 = always search",
                   {.min = 0});
  return table;
}

const OptionTable<HybridOptions>& hybrid_option_table() {
  using O = HybridOptions;
  // A heading in degrees, or auto (NaN in HybridOptions): any heading.
  const auto heading = [](const char* name, double O::*member, const char* doc) {
    OptionSpec spec;
    spec.name = name;
    spec.doc = doc;
    spec.unit = "degrees";
    return std::tuple{
        spec,
        std::function<void(const OptionValues&, O&)>([name, member](const OptionValues& v, O& o) {
          o.*member =
              v.text(name) == "auto" ? std::numeric_limits<double>::quiet_NaN() : v.number(name);
        }),
        std::function<std::string(const O&)>([member](const O& o) {
          return std::isnan(o.*member) ? std::string("auto") : option_number_text(o.*member);
        })};
  };
  const auto [start_spec, start_read, start_write] =
      heading("start_heading", &O::start_heading,
              "the heading at the start, counter-clockwise from +x; auto = any: the search "
              "starts in every heading bin (and straight towards the goal), so the path may "
              "leave the start in whichever direction is cheapest");
  const auto [goal_spec, goal_read, goal_write] = heading(
      "goal_heading", &O::goal_heading,
      "the heading the path must arrive in; auto = any (the analytic expansion tries a turn "
      "and then straight to the goal, which may lie on an obstacle's boundary, and "
      "Dubins curves to the heading towards the goal, the state's own and their mirror "
      "image)");
  static const OptionTable<O> table =
      OptionTable<O>()
          .number("turning_radius", &O::turning_radius,
                  "the agent's minimum turning radius: every arc of the path has exactly this "
                  "radius, so its curvature never exceeds 1 / radius; auto = the longest side of "
                  "free space / 64. Passages narrower than about a turn need a smaller radius or "
                  "reeds-shepp",
                  "scene units", {.min = 0.0, .min_exclusive = true}, /*zero_is_auto=*/true)
          .choice("motion", &O::motion, hybrid_motion_names,
                  "dubins: forwards only (Dubins 1957); reeds-shepp: forwards and backwards "
                  "(Reeds and Shepp 1990), backward length weighted by reverse_penalty; the "
                  "analytic curve is then the cheapest of the 48 Reeds-Shepp words, gear changes "
                  "included (with reverse_penalty 1, the exact Reeds-Shepp distance)")
          .number("reverse_penalty", &O::reverse_penalty,
                  "cost of each unit driven backwards, relative to forwards (reeds-shepp)", "",
                  {.min = 1.0})
          .integer("headings", &O::headings,
                   "heading bins of the search: one state per cell and bin is kept (more bins: "
                   "more states, finer manoeuvres)",
                   {.min = 4, .max = 3600})
          .custom(start_spec, start_read, start_write)
          .custom(goal_spec, goal_read, goal_write)
          .number("step", &O::step,
                  "length of one motion primitive (straight, or an arc of the turning radius); "
                  "the search's cells are step / 1.5 wide; auto = turning radius x pi / 6 "
                  "(30-degree arcs)",
                  "scene units", {.min = 0.0, .min_exclusive = true}, /*zero_is_auto=*/true)
          .number("spacing", &O::spacing,
                  "largest distance between raw waypoints along an arc (straight pieces are not "
                  "split); auto = step / 4",
                  "scene units", {.min = 0.0, .min_exclusive = true}, /*zero_is_auto=*/true)
          .number("heuristic_weight", &O::heuristic_weight,
                  "weighted A*: states ordered by g + w h, w this times search.weight (the "
                  "heuristic itself is admissible); 1 = plain A*, which over continuous poses "
                  "expands every state cheaper than the best path (often tens of thousands), 3 "
                  "finds most paths in a few hundred, each at most w times the cheapest the "
                  "lattice holds",
                  "", {.min = 1.0})
          .integer("max_expansions", &O::max_expansions,
                   "states expanded before the search gives up with no_path, its message naming "
                   "this budget and the turning radius (search.max_expanded, a limit of every "
                   "search, ends it with limit_reached instead)",
                   {.min = 1});
  return table;
}

const OptionTable<QuadtreeOptions>& quadtree_option_table() {
  using O = QuadtreeOptions;
  static const OptionTable<O> table =
      OptionTable<O>()
          .number("min_cell", &O::min_cell,
                  "side of the smallest leaf; auto = the grid's default cell (MovingAI: 1, else "
                  "the longest side / 256), so that the bottom cells are the grid's cells",
                  "scene units", {.min = 0.0, .min_exclusive = true}, /*zero_is_auto=*/true)
          .integer("max_depth", &O::max_depth,
                   "most levels below the root (deeper bottom cells grow)", {.min = 1, .max = 30})
          .flag("corners", &O::corners,
                "also join leaves touching only at a free corner (with portals nodes: the "
                "corner is a node where every turn through it between the two leaves is free)")
          .flag("balance", &O::balance,
                "split leaves until neighbours across a side differ by at most one level")
          .choice("nodes", &O::nodes, quadtree_nodes_names,
                  "graph nodes at the midpoints of the sides free leaves share, joined by "
                  "straight arcs across each leaf (portals: the search's cost is the length of a "
                  "path through the leaves it picks, so it picks shorter corridors), or at leaf "
                  "centres, joined centre to centre (centres: fewer nodes and arcs, longer "
                  "paths)")
          .integer("max_leaves", &O::max_leaves,
                   "memory budget: a tree with more leaves is refused", {.min = 1});
  return table;
}

const OptionTable<VisibilityGraphOptions>& visgraph_option_table() {
  using O = VisibilityGraphOptions;
  static const OptionTable<O> table =
      OptionTable<O>()
          .flag("bitangent_only", &O::bitangent_only,
                "keep only edges tangent at both ends (loses no shortest path)")
          .integer("max_nodes", &O::max_nodes,
                   "budget on corners: the edges can grow with their square", {.min = 1})
          .choice("attach", &O::attach, visibility_attach_names,
                  "how start and goal find the corners they see, and corners each other: a "
                  "visibility search through a triangulation of free space from the point "
                  "(expand), or a tangency and line-of-sight test of every corner and pair of "
                  "corners (scan); the same corners and edges either way")
          .flag("taut", &O::taut,
                "search only taut successors: from a corner, the corners round which the path "
                "wraps the obstacle (loses no shortest path; not with a climb limit)");
  return table;
}

const OptionTable<NavMeshOptions>& navmesh_option_table() {
  using O = NavMeshOptions;
  static const OptionTable<O> table =
      OptionTable<O>([] {
        O defaults;
        defaults.search = NavMeshSearch::automatic;
        return defaults;
      }())
          .choice("source", &O::source, navmesh_source_names,
                  "polygons: a .mesh scene's own faces (mesh), or free space triangulated and "
                  "merged (rebuild); auto uses the faces when the scene has usable ones")
          .choice("nodes", &O::nodes, navmesh_nodes_names,
                  "graph nodes at polygon vertices (arcs along edges and diagonals: the "
                  "shortest paths), at polygon centres, at portal (shared edge) midpoints, or at "
                  "portals and centres")
          .flag("merge", &O::merge,
                "merge triangles into convex polygons (Hertel-Mehlhorn); rebuilt meshes only")
          .choice("decomposition", &O::decomposition, navmesh_decomposition_names,
                  "convex polygons of a rebuilt mesh: cdt, triangles merged by Hertel-Mehlhorn; "
                  "c-cells, the vertical trapezoidal cells (extensions up and down from every "
                  "boundary vertex, Latombe 1991; exact with navmesh.search=optimal, long "
                  "detours through thin cells with the graph); max-area, triangles merged "
                  "greedily, the largest merge first (larger polygons, not always fewer); none "
                  "crosses a region outline; anything but cdt refuses a .mesh scene's own faces "
                  "(use navmesh.source=rebuild)")
          .integer("max_triangles", &O::max_triangles, "budget: a larger triangulation is refused",
                   {.min = 1})
          .integer("landmarks", &O::landmarks,
                   "landmarks of the ALT heuristic (graph costs from a few nodes, one double per "
                   "node and one Dijkstra search at build each; a query uses the 4 best for "
                   "it): fewer nodes expanded; 0 = straight-line distance only",
                   {.min = 0, .max = 64})
          .choice("search", &O::search, navmesh_search_names,
                  "graph: A* over the nodes (navmesh.nodes), with a corridor for funnel; "
                  "optimal: Polyanya (Cui, Harabor and Grastien 2017), the exact Euclidean "
                  "shortest path through the polygons, no graph built (nodes and landmarks do "
                  "not apply, no reach), with the corridor of the polygon edges it crosses, "
                  "through which funnel gives the same path; in weighted scenes the shortest "
                  "path, not the cheapest; refused where heights differ by more than the "
                  "agent's max_climb; auto: optimal where that is exact and the faster (every "
                  "place of cost 1, no one-way moves, zero-width gaps closed, nodes=vertices, at "
                  "most " +
                      std::to_string(auto_optimal_max_corners) +
                      " corners of free space), else graph; reach and search.partial, "
                      "beam_width and reopen use the graph; hierarchical: the graph searched "
                      "through an abstraction over regions of about navmesh.region polygons "
                      "(HPA*, Botea, Mueller and Schaeffer 2004), built once, the graph's paths "
                      "and corridors (refused with one-way height steps)")
          .integer("region", &O::region,
                   "navmesh.search=hierarchical: polygons per region, on average (larger: fewer "
                   "transitions, longer searches inside regions)",
                   {.min = 1})
          .choice("transitions", &O::transitions, navmesh_transitions_names,
                  "navmesh.search=hierarchical: all, every node with an arc into another region "
                  "(the graph's optimal paths); entrances, one or two arcs per pair of regions "
                  "that meet (HPA*'s entrances: fewer transitions, near-optimal paths)");
  return table;
}

const std::vector<std::string>& potential_fallback_names() {
  // Every method of the registry but potential itself, and none.
  static const std::vector<std::string> names = {"grid",     "quadtree",  "visgraph",  "navmesh",
                                                 "hexgrid",  "clearance", "waypoints", "hybrid",
                                                 "weighted", "none"};
  return names;
}

const OptionTable<PotentialOptions>& potential_option_table() {
  using O = PotentialOptions;
  static const OptionTable<O> table = [] {
    OptionSpec fallback;
    fallback.name = "fallback";
    fallback.type = OptionType::choice;
    fallback.choices = potential_fallback_names();
    fallback.doc =
        "the method (built with its default options over the same free space) that plans the "
        "rest of the path from a local minimum of the field; none: a local minimum is no_path "
        "(the bare local planner)";
    return OptionTable<O>()
        .number("step", &O::step,
                "length of one step down the field; auto = the longest side of free space / 256",
                "scene units", {.min = 0.0, .min_exclusive = true}, /*zero_is_auto=*/true)
        .number("influence", &O::influence,
                "distance rho0 within which obstacles repel (Khatib's FIRAS function, "
                "1/rho - 1/rho0); auto = 6 steps",
                "scene units", {.min = 0.0, .min_exclusive = true}, /*zero_is_auto=*/true)
        .number("attraction", &O::attraction,
                "gain of the pull towards the goal (lengths in units of the influence distance)",
                "", {.min = 0.0, .min_exclusive = true})
        .number("repulsion", &O::repulsion,
                "gain of the push away from obstacles: 4 x this at half the influence distance, "
                "against a conic pull of 1 x attraction; 0 = none",
                "", {.min = 0.0})
        .choice("attraction_shape", &O::attraction_shape, potential_attraction_names,
                "conic: a pull of constant strength; quadratic: a spring, proportional to the "
                "distance to the goal (in influence distances)")
        .integer("max_steps", &O::max_steps,
                 "most steps of the walk before falling back; 0 = 8 x the straight distance in "
                 "steps + 64",
                 {.min = 0})
        .integer("window", &O::window,
                 "a local minimum is declared after this many steps without coming a quarter step "
                 "closer to the goal than ever before",
                 {.min = 1})
        .custom(
            fallback, [](const OptionValues& v, O& o) { o.fallback = v.text("fallback"); },
            [](const O& o) { return o.fallback; });
  }();
  return table;
}

const OptionTable<WeightedOptions>& weighted_option_table() {
  using O = WeightedOptions;
  static const OptionTable<O> table =
      OptionTable<O>()
          .number("epsilon", &O::epsilon,
                  "approximation parameter: Steiner points on each edge between free triangles "
                  "at distances growing by 1 + epsilon x sin(least angle) / 2 from each end, so "
                  "that the graph's path is within 1 + epsilon of the optimum away from "
                  "vertices; the points grow about as (1 / epsilon) log(1 / epsilon) per edge",
                  "", {.min = 0.0, .min_exclusive = true})
          .integer("max_points", &O::max_points,
                   "budget on the Steiner points, checked before they are placed: a smaller "
                   "epsilon needing more is refused with the count",
                   {.min = 1})
          .flag("refine", &O::refine,
                "slide each bend point of the path along its edge to lower the exact cost "
                "(Snell's law at region outlines); never raises the cost")
          .flag("lower_bound", &O::lower_bound,
                "compute a certified lower bound on the optimum for each query in weighted "
                "scenes (a second search, over the intervals between Steiner points, about 7x "
                "the path's own): JSON lower_bound");
  return table;
}

const OptionTable<ShortcutOptimalOptions>& shortcut_optimal_option_table() {
  using O = ShortcutOptimalOptions;
  static const OptionTable<O> table = OptionTable<O>().integer(
      "window", &O::window,
      "predecessors tried per waypoint: exact within the waypoints on paths of up to window + "
      "1 of them; the work grows as waypoints x window",
      {.min = 1});
  return table;
}

const OptionTable<SplineSmoothing>& spline_option_table() {
  using O = SplineSmoothing;
  static const OptionTable<O> table =
      OptionTable<O>()
          .integer("samples", &O::samples, "sampled points per span between waypoints",
                   {.min = 1, .max = 1000})
          .integer("refine", &O::refinements,
                   "halvings of a colliding span's tangents tried before the span is left "
                   "straight",
                   {.min = 0, .max = 30})
          .flag("shortcut", &O::shortcut,
                "drop waypoints with the shortcut pass first (a curve through every grid node "
                "follows the staircase)");
  return table;
}

const OptionTable<search::SearchOptions>& search_option_table() {
  using O = search::SearchOptions;
  static const OptionSpec time_limit = [] {
    OptionSpec s;
    s.name = "time_limit_ms";
    s.doc = "wall-clock budget of one search (limit_reached); inf = none";
    s.unit = "ms";
    s.min = 0.0;
    s.unlimited = true;
    return s;
  }();
  static const OptionTable<O> table =
      OptionTable<O>()
          .number("weight", &O::weight,
                  "heuristic weight w of weighted A*: paths cost at most w times the optimum", "",
                  {.min = 1.0})
          .number("max_cost", &O::max_cost,
                  "paths costing more are not searched for (limit_reached); inf = none", "cost",
                  {.min = 0.0, .unlimited = true})
          .integer("max_expanded", &O::max_expansions,
                   "most nodes to expand before giving up (limit_reached)", {.min = 0.0})
          .custom(
              time_limit,
              [](const OptionValues& v, O& o) {
                // Budgets beyond what the nanosecond count holds (292 years) are none.
                const double ns = v.number("time_limit_ms") * 1e6;
                o.max_time = ns >= 9.2e18 ? std::chrono::nanoseconds::max()
                                          : std::chrono::nanoseconds(std::int64_t(ns));
              },
              [](const O& o) {
                return o.max_time == std::chrono::nanoseconds::max()
                           ? std::string("inf")
                           : option_number_text(
                                 std::chrono::duration<double, std::milli>(o.max_time).count());
              })
          .flag("partial", &O::partial_fallback,
                "when no path is found, return the one to the reached node closest to the goal")
          .integer("beam_width", &O::beam_width,
                   "most nodes in the open list (beam search: not optimal)", {.min = 1.0})
          .flag("reopen", &O::reopen_closed,
                "reopen closed nodes (needed for inconsistent heuristics)");
  return table;
}

const OptionTable<FreeSpaceOptions>& space_option_table() {
  using O = FreeSpaceOptions;
  static const OptionTable<O> table =
      OptionTable<O>()
          .choice("inflation", &O::inflation, inflation_names,
                  "how obstacles grow by the agent's disc, each blocking every point within the "
                  "radius: exact (Boolean operations, at most inflation_tolerance more), cells "
                  "(raster maps: every map cell within the radius, at most a cell diagonal more, "
                  "linear time), auto (cells for maps, exact otherwise)")
          .number("inflation_tolerance", &O::inflation_tolerance,
                  "how far inflated obstacles may exceed the exact disc sum with exact "
                  "inflation; 0 = 1% of the radius",
                  "scene units", {.min = 0.0})
          .choice("gaps", &O::open_gaps, free_space_gaps_names,
                  "closed: no path passes where two blocked parts touch at a point; open: paths "
                  "may (the any-angle literature's convention)")
          .number("clearance_distance", &O::clearance_distance,
                  "travel within this distance of the inflated obstacles costs more, like a "
                  "costmap's inflation (0 = none)",
                  "scene units", {.min = 0.0})
          .number("clearance_factor", &O::clearance_factor,
                  "the cost multiplier next to the obstacles, falling linearly band by band to 1 "
                  "at clearance_distance",
                  "", {.min = 1.0})
          .integer("clearance_bands", &O::clearance_bands,
                   "bands of equal width the clearance distance is cut into, each of one cost",
                   {.min = 1, .max = 16})
          .integer("max_vertices", &O::max_vertices,
                   "budget on the vertices the exact union of inflated obstacles takes (its time "
                   "grows faster than linearly: about 40 s at 200,000)",
                   {.min = 1})
          .number("max_build_seconds", &O::max_build_seconds,
                  "wall-clock budget of building free space, and of building the method over "
                  "it, checked between steps (the exact union is bounded by max_vertices "
                  "instead); inf = none",
                  "s", {.min = 0.0, .min_exclusive = true, .unlimited = true});
  return table;
}

// --- the rows ----------------------------------------------------------------------------

const std::vector<MethodEntry>& method_registry() {
  static const std::vector<MethodEntry> table = {
      {"grid",
       "occupancy grid: square cells, 4-, 8- or 16-connected, no corner cutting; optimal for the "
       "grid's own metric",
       grid_option_table().specs(), build_grid, update_grid},
      {"quadtree",
       "adaptive quadtree: free square leaves, large in open space and small near obstacles, "
       "joined across shared sides; paths come with a corridor for funnel",
       quadtree_option_table().specs(), build_quadtree, update_quadtree},
      {"visgraph",
       "visibility graph: corners of the inflated obstacles joined by exact line of sight; the "
       "exact Euclidean shortest path",
       visgraph_option_table().specs(), build_visgraph},
      {"navmesh",
       "navigation mesh: free space as convex polygons (a .mesh file's own faces, or constrained "
       "Delaunay triangles merged by Hertel-Mehlhorn), searched through shared edges by "
       "Polyanya (the exact shortest path) where that is the cheapest and the faster, else by "
       "A* over a graph (navmesh.search); paths come with a corridor for funnel",
       navmesh_option_table().specs(), build_navmesh},
      {"hexgrid",
       "hexagonal grid: regular hexagons, pointy or flat, six neighbours each, a hexagon free "
       "only when wholly free; optimal for the hexagons' own metric; paths come with a corridor "
       "for funnel",
       hexgrid_option_table().specs(), build_hexgrid},
      {"clearance",
       "maximum-clearance roadmap: the medial axis of free space (CGAL's segment Voronoi "
       "diagram), searched for the path whose least distance to the obstacles is largest, then "
       "the cheapest of those; the message gives that clearance. Smooth with none to keep it: "
       "every other smoother shortens the path at the expense of clearance",
       clearance_option_table().specs(), build_clearance},
      {"waypoints",
       "waypoint graph: the scene's hand-placed waypoints and links (the `waypoints` key), or "
       "the obstacles' corners linked by exact line of sight, with every route precomputed at "
       "build so that a query is a table look-up; start and goal join the waypoints they see",
       waypoints_option_table().specs(), build_waypoints},
      {"potential",
       "artificial potential field (Khatib 1986): fixed steps down an attraction to the goal "
       "plus a repulsion from obstacles within an influence distance, each step checked "
       "exactly; from a local minimum (no progress, a blocked step, the step budget) the rest is "
       "planned by potential.fallback. The message says whether the field reached the goal on "
       "its own (\"potential field reached the goal on its own in N steps\") or fell back "
       "(\"potential field fell back at (x, y) after N steps: ...\"). The field ignores terrain "
       "costs",
       potential_option_table().specs(), build_potential},
      {"hybrid",
       "hybrid A* for a car-like agent (Dolgov et al. 2008): A* over (x, y, heading) with "
       "straight and minimum-radius arc primitives, forwards only (Dubins) or also backwards "
       "(Reeds-Shepp), and exact analytic curves to the goal pose; every arc checked exactly, "
       "so the densified path keeps curvature <= 1 / hybrid.turning_radius. Smooth with none to "
       "keep that bound: every other smoother replaces the curves by straight shortcuts",
       hybrid_option_table().specs(), build_hybrid},
      {"weighted",
       "cheapest paths through weighted regions: a triangulation of free space by cost with "
       "Steiner points on every edge (Aleksandrov, Maheshwari and Sack 2005), within 1 + "
       "weighted.epsilon of the optimum away from vertices, bend points then slid along their "
       "edges (Snell's law); with weighted.lower_bound=true each query also gets a certified "
       "lower bound on the optimum (JSON lower_bound)",
       weighted_option_table().specs(), build_weighted},
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
       shortcut_optimal_option_table().specs(), smooth_shortcut_optimal},
      {"funnel",
       "string pulling through the raw path's corridor of portals (navmesh, grid): the shortest "
       "path within the corridor; per run of equal cost in weighted scenes, never costlier",
       {},
       smooth_funnel,
       true},
      {"spline",
       "a centripetal Catmull-Rom curve through the waypoints (after the shortcut pass), sampled "
       "into waypoints; every sampled piece checked exactly and, where it would leave free "
       "space, flattened or left as the input's straight segment, so the path is always valid. "
       "Curves are not shortest: the path may be longer and costlier than its input (its "
       "contract is validity, not length). The message gives the largest curvature",
       spline_option_table().specs(), smooth_spline},
  };
  return table;
}

const std::vector<OptionSpec>& search_option_specs() {
  return search_option_table().specs();
}

const std::vector<OptionSpec>& space_option_specs() {
  return space_option_table().specs();
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

search::SearchOptions search_options(const OptionValues& values) {
  return search_option_table().read(values);
}

}  // namespace polynav
