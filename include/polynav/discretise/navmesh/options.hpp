#pragma once
/// @file
/// The navigation mesh's options (navmesh.* in the registry): where the polygons come from, where
/// the graph's nodes lie and how queries are searched, with the names the registry reads.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "polynav/enum_names.hpp"
#include "polynav/kernel/build_clock.hpp"

namespace polynav {

class FreeSpace;

/// Where the search graph's nodes lie.
enum class NavMeshNodes : std::uint8_t {
  centres,   ///< one node per polygon, at the mean of its vertices
  portals,   ///< two nodes per portal, at its midpoint, one on each side
  vertices,  ///< one node per polygon vertex and free sector round it (a pinch point has two)
  portals_and_centres,  ///< the portals' nodes and the centres' nodes
};
inline constexpr auto navmesh_nodes_names = enum_names(
    NavMeshNodes::vertices, "vertices", NavMeshNodes::centres, "centres", NavMeshNodes::portals,
    "portals", NavMeshNodes::portals_and_centres, "portals+centres");
/// A name of navmesh_nodes_names; throws InputError (key "nodes") on anything else.
inline NavMeshNodes parse_navmesh_nodes(const std::string& name) {
  return from_name(navmesh_nodes_names, name, "nodes", "node placement");
}
inline std::string_view navmesh_nodes_name(NavMeshNodes nodes) {
  return name_of(navmesh_nodes_names, nodes);
}

/// Where the polygons come from.
enum class NavMeshSource : std::uint8_t {
  automatic,  ///< the scene's mesh faces when they can be used (see NavPartition), else rebuild
  mesh,       ///< the scene's mesh faces (FreeSpace::mesh_faces), or an InputError saying why not
  rebuild,    ///< triangulate free space and merge the triangles
};
inline constexpr auto navmesh_source_names =
    enum_names(NavMeshSource::automatic, "auto", NavMeshSource::mesh, "mesh",
               NavMeshSource::rebuild, "rebuild");
/// A name of navmesh_source_names; throws InputError (key "source") on anything else.
inline NavMeshSource parse_navmesh_source(const std::string& name) {
  return from_name(navmesh_source_names, name, "source", "polygon source");
}

/// How a query is searched.
enum class NavMeshSearch : std::uint8_t {
  graph,    ///< A* over the graph of nodes (NavMeshNodes) through the query driver
  optimal,  ///< Polyanya (discretise/navmesh/polyanya.hpp): the Euclidean shortest path, no graph
  /// optimal where it finds the path the graph aims at (the shortest is the cheapest) and is
  /// faster than the graph, else graph: see resolve_navmesh_search
  automatic,
  /// the graph's search through an abstraction over regions of polygons (Botea, Mueller and
  /// Schaeffer 2004, HPA*): hierarchical_navmesh.hpp
  hierarchical,
};
inline constexpr auto navmesh_search_names =
    enum_names(NavMeshSearch::automatic, "auto", NavMeshSearch::graph, "graph",
               NavMeshSearch::optimal, "optimal", NavMeshSearch::hierarchical, "hierarchical");
/// A name of navmesh_search_names; throws InputError (key "search") on anything else.
inline NavMeshSearch parse_navmesh_search(const std::string& name) {
  return from_name(navmesh_search_names, name, "search", "navmesh search");
}
inline std::string_view navmesh_search_name(NavMeshSearch search) {
  return name_of(navmesh_search_names, search);
}

/// Which graph nodes become transitions of navmesh.search=hierarchical (HierarchicalNavMesh).
enum class NavMeshTransitions : std::uint8_t {
  /// every node with an arc to another region: the abstraction holds every graph path, so its
  /// paths cost the graph's optimum
  all,
  /// per pair of regions joined by arcs, the ends of one or two of those arcs (HPA*'s entrances):
  /// fewer transitions, near-optimal paths
  entrances,
};
inline constexpr auto navmesh_transitions_names =
    enum_names(NavMeshTransitions::all, "all", NavMeshTransitions::entrances, "entrances");

/// How a rebuilt mesh cuts free space into convex polygons. Every decomposition starts from the
/// constrained Delaunay triangulation of free space (its boundary and, in NavPartition, the
/// region outlines as constraints) and never merges across a wall, a region outline or a change
/// of cost or height.
enum class NavMeshDecomposition : std::uint8_t {
  /// the triangles merged by Hertel and Mehlhorn ("Fast triangulation of simple polygons",
  /// 1983): every diagonal whose removal leaves both its ends convex, in triangle order
  cdt,
  /// the vertical trapezoidal cell decomposition (Latombe, "Robot Motion Planning", 1991, ch. 5;
  /// Chazelle's trapezoidation): from every boundary vertex, vertical extensions up and down
  /// through free space to the first boundary point; the cells between them are trapezoids or
  /// triangles (each cut further by region outlines in weighted scenes)
  c_cells,
  /// the triangles merged greedily, always removing next the diagonal whose merge gives the
  /// largest convex polygon: fewer, larger polygons than cdt (not the optimum)
  max_area,
};
inline constexpr auto navmesh_decomposition_names =
    enum_names(NavMeshDecomposition::cdt, "cdt", NavMeshDecomposition::c_cells, "c-cells",
               NavMeshDecomposition::max_area, "max-area");
/// A name of navmesh_decomposition_names; throws InputError (key "decomposition") on anything
/// else.
inline NavMeshDecomposition parse_navmesh_decomposition(const std::string& name) {
  return from_name(navmesh_decomposition_names, name, "decomposition", "navmesh decomposition");
}
inline std::string_view navmesh_decomposition_name(NavMeshDecomposition decomposition) {
  return name_of(navmesh_decomposition_names, decomposition);
}

struct NavMeshOptions {
  /// Where the polygons come from. [Default: automatic: a `.mesh` file's faces already are convex
  /// polygons tiling free space]
  NavMeshSource source = NavMeshSource::automatic;
  /// Node placement. [Default: vertices: the shortest raw and funnelled paths on the bundled
  /// scenes and the arena mesh (bench/README.md)]
  NavMeshNodes nodes = NavMeshNodes::vertices;
  /// Merge triangles into convex polygons (Hertel and Mehlhorn); false keeps the triangles.
  /// Applies to rebuilt meshes only.
  bool merge = true;
  /// How a rebuilt mesh cuts free space into convex polygons (NavMeshDecomposition). A `.mesh`
  /// scene's own faces are not decomposed again: with another decomposition than `cdt` where
  /// they would be used (source `mesh`, or `automatic` with usable faces) the build is refused
  /// (InputError, key "decomposition"); source `rebuild` decomposes free space. With `merge`
  /// false every decomposition keeps its triangles (`c_cells`: cut by the vertical extensions).
  /// [Default: cdt]
  NavMeshDecomposition decomposition = NavMeshDecomposition::cdt;
  /// Budget on the triangulation's faces: a larger one is refused. [Limit: > 0]
  std::size_t max_triangles = std::size_t{1} << 23;
  /// How queries are searched. With `optimal` no graph is built (no arcs, no landmarks: `nodes`
  /// and `landmarks` do not apply); the vertex nodes remain as points for pictures, and the
  /// polygons, portals and point location serve Polyanya (polyanya.hpp). Refused (InputError,
  /// key "search") where moves are one way: heights that differ by more than the agent's
  /// max_climb (a climb limit that no two heights exceed changes nothing). `automatic` is
  /// resolved at construction (resolve_navmesh_search), and options().search then says which.
  /// [Default: graph, the class's own search through the query driver. The planner's option
  /// `navmesh.search` defaults to `auto` instead, and builds Polyanya beside the mesh where it
  /// resolves to `optimal`]
  NavMeshSearch search = NavMeshSearch::graph;
  /// Landmarks of the ALT heuristic (search/landmarks.hpp): the search is bounded by the graph's
  /// own costs as well as by straight-line distance, so it expands far fewer nodes. Each costs one
  /// double per node and one Dijkstra search at build; a query reads the 4 best for it, so more
  /// landmarks cover more queries well at no cost per expansion. Not used where moves are one way
  /// (heights with a climb limit). 0 = straight-line distance alone. [Limit: 0 to 64]
  std::size_t landmarks = 32;
  /// search `hierarchical`: polygons per region, on average (HierarchicalNavMesh: regions are the
  /// connected pieces of the graph inside the squares of a grid sized so that each square holds
  /// about this many polygons of the mesh's bounding box). Larger: fewer, larger regions, fewer
  /// transitions between them, longer searches inside them. [Limit: >= 1]
  std::size_t region = 64;
  /// search `hierarchical`: which nodes become transitions (NavMeshTransitions). [Default: all]
  NavMeshTransitions transitions = NavMeshTransitions::all;
  /// Wall-clock budget of the build, checked between its steps (BuildClock): a longer build
  /// stops with an InputError naming space.max_build_seconds. The planner passes the free
  /// space's (FreeSpace::max_build_seconds). [Units: s] [Limit: > 0; infinity for none]
  double max_build_seconds = default_max_build_seconds;
};

/// Free-space corners (Polyanya's turning points) up to which `automatic` searches by Polyanya.
/// Measured on 26 unweighted scenes and maps (bench/README.md, "navmesh.search=auto"): on all 13
/// with at most 211 corners Polyanya's query took 0.40 to 0.57 of the graph's A* plus funnel; on
/// 11 of the 13 with 267 or more (random obstacles, Dragon Age and StarCraft maps, a full ROS
/// map, aurora) it took 1.13 to 2.9 times as long (maze-100-1, one-cell corridors, and Brushfire
/// were the exceptions), where the ALT landmarks guide the graph better than straight-line
/// distance guides Polyanya, and the graph's funnelled paths were within 0.8% of the optimum on
/// average on each.
inline constexpr std::size_t auto_optimal_max_corners = 256;

/// The search `options.search` stands for on this space: `graph` and `optimal` as they are;
/// `automatic` is `optimal` when Polyanya's shortest path is what the graph's search minimises and
/// Polyanya is the faster, that is when all of these hold, else `graph`:
/// - every place costs the same (no region with a cost multiplier other than 1), so that the
///   shortest path is the cheapest;
/// - no moves are one way (no heights that differ by more than the agent's max_climb);
/// - zero-width gaps are closed (Polyanya never passes a pinch point; the graph does when they
///   are open);
/// - the nodes are `vertices` (another placement asks for its graph);
/// - free space has at most auto_optimal_max_corners corners (FreeSpace::corners).
/// Deterministic: it reads the space and the options only. O(regions).
NavMeshSearch resolve_navmesh_search(const FreeSpace& space, const NavMeshOptions& options);

}  // namespace polynav
