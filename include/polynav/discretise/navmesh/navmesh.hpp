#pragma once
/// @file
/// The navigation mesh: free space cut into convex polygons. Scenes read from a navigation mesh
/// (`.mesh`) can use its own faces as the polygons; otherwise a constrained Delaunay triangulation
/// of free space (its boundary and the outlines of weighted regions as constraints) is merged
/// into convex polygons by Hertel and Mehlhorn's algorithm ("Fast triangulation of simple
/// polygons", 1983: drop every diagonal whose removal leaves both of its ends convex), never
/// across a wall, a region outline or a change of cost or height. The search graph's nodes lie at
/// the polygons' vertices (default), on the edges they share (portals) or at their centres; a
/// path through it comes with its corridor of portals, which the funnel smoother
/// (smooth/funnel.hpp) pulls taut. The search is guided by straight-line distance and landmark
/// bounds (search/landmarks.hpp).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "polynav/discretise/discretisation.hpp"
#include "polynav/enum_names.hpp"
#include "polynav/geometry.hpp"
#include "polynav/kernel/build_clock.hpp"
#include "polynav/search/components.hpp"
#include "polynav/search/graph.hpp"
#include "polynav/search/landmarks.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {

/// Where the search graph's nodes lie.
enum class NavMeshNodes : std::uint8_t {
  centres,   ///< one node per polygon, at the mean of its vertices
  portals,   ///< two nodes per portal, at its midpoint, one on each side
  vertices,  ///< one node per polygon vertex and free sector round it (a pinch point has two)
  portals_and_centres,  ///< the portals' nodes and the centres' nodes
};
inline constexpr EnumNames<NavMeshNodes, 4> navmesh_nodes_names{
    {{NavMeshNodes::vertices, "vertices"},
     {NavMeshNodes::centres, "centres"},
     {NavMeshNodes::portals, "portals"},
     {NavMeshNodes::portals_and_centres, "portals+centres"}}};
/// A name of navmesh_nodes_names; throws InputError (key "nodes") on anything else.
inline NavMeshNodes parse_navmesh_nodes(const std::string& name) {
  return from_name(navmesh_nodes_names, name, "nodes", "node placement");
}
inline std::string_view navmesh_nodes_name(NavMeshNodes nodes) {
  return name_of(navmesh_nodes_names, nodes);
}

/// Where the polygons come from.
enum class NavMeshSource : std::uint8_t {
  automatic,  ///< the scene's mesh faces when they can be used (see NavMesh), else rebuild
  mesh,       ///< the scene's mesh faces (FreeSpace::mesh_faces), or an InputError saying why not
  rebuild,    ///< triangulate free space and merge the triangles
};
inline constexpr EnumNames<NavMeshSource, 3> navmesh_source_names{
    {{NavMeshSource::automatic, "auto"},
     {NavMeshSource::mesh, "mesh"},
     {NavMeshSource::rebuild, "rebuild"}}};
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
};
inline constexpr EnumNames<NavMeshSearch, 3> navmesh_search_names{
    {{NavMeshSearch::automatic, "auto"},
     {NavMeshSearch::graph, "graph"},
     {NavMeshSearch::optimal, "optimal"}}};
/// A name of navmesh_search_names; throws InputError (key "search") on anything else.
inline NavMeshSearch parse_navmesh_search(const std::string& name) {
  return from_name(navmesh_search_names, name, "search", "navmesh search");
}
inline std::string_view navmesh_search_name(NavMeshSearch search) {
  return name_of(navmesh_search_names, search);
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
  /// Wall-clock budget of the build, checked between its steps (BuildClock): a longer build
  /// stops with an InputError naming space.max_build_seconds. The planner passes the free
  /// space's (FreeSpace::max_build_seconds). [Units: s] [Limit: > 0; infinity for none]
  double max_build_seconds = default_max_build_seconds;
  /// Build the polygons, their portals and point location only: no nodes, no graph, no
  /// landmarks, and rebuilt meshes take only the boundary of free space as constraints (region
  /// outlines are not, so no vertex is a constructed crossing; a polygon may then span regions
  /// of different cost or height, and `search` does not apply). For code that walks the polygons
  /// itself (the visibility graph's attachment); not a registry option.
  bool polygons_only = false;
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

/// Counters of one build.
struct NavMeshStats {
  bool from_mesh = false;          ///< the polygons are the scene's mesh faces (no triangulation)
  std::size_t triangles = 0;       ///< faces of the constrained Delaunay triangulation
  std::size_t free_triangles = 0;  ///< of them, those in free space
  std::size_t polygons = 0;        ///< convex polygons after merging
  std::size_t portals = 0;         ///< shared edges between polygons a path may cross
  double triangulate_ms = 0.0;
  double landmarks_ms = 0.0;  ///< choosing the landmarks and their Dijkstra searches
  double build_ms = 0.0;      ///< everything
};

/// A convex navigation mesh over a FreeSpace.
///
/// The polygons are either rebuilt from free space (triangulated, then merged) or, for scenes
/// read from a navigation mesh with a point agent (FreeSpace::mesh_faces), the mesh's own
/// traversable faces, adjacent across shared edges that are not constrained (walls). Faces are
/// used only when each is convex (exact orientation; straight angles allowed) and lies in one
/// cost and height: with regions, a face whose bounding box meets more than one cost or height
/// (FreeSpace::cost_range, height_range; conservative) needs the rebuild. `mesh` refuses such
/// scenes, `automatic` rebuilds them. Everything after the polygons and their portals (point
/// location, the graph, corridors) is the same for both sources.
///
/// Every polygon lies in free space, is convex (decided with exact orientation tests), and has
/// one cost multiplier and one height (the FreeSpace values at its vertex mean). Two polygons are
/// adjacent only when they share an edge that is not a wall, so zero-width gaps (polygons meeting
/// at a point) stay closed. A query's start and goal are located in the polygons that contain
/// them (exactly: points on shared edges and vertices belong to every polygon they touch) and
/// joined to those polygons' nodes by straight segments inside them; start and goal in one
/// polygon are joined directly, without a search.
///
/// Nodes and arcs (NavMeshNodes):
/// - `centres`: an arc between two adjacent polygons runs straight from centre to centre when
///   that segment crosses their portal, else through the portal's end nearest to it (arc_points
///   reports that bend).
/// - `portals`: node 2k + s lies at portal k's midpoint on polygon side[s]'s side; crossing the
///   portal is an arc of length 0, and arcs inside a polygon join its portals' nodes.
/// - `vertices`: a node per polygon vertex and free sector round it: polygons meeting at a vertex
///   share its node when a chain of portals ending there joins them, so a pinch point (polygons
///   touching only there) or a vertex on a wall has one node per side. Arcs join every two
///   vertices of a polygon (its edges and diagonals: straight motions inside a convex polygon).
/// - `portals+centres`: the portals' nodes and arcs, and arcs from each polygon's centre to its
///   portals' nodes.
///
/// Arc costs are exact (FreeSpace::segment_cost along the motion). Arcs over polygons whose
/// vertices were constructed (crossings of region outlines with each other or the boundary, whose
/// coordinates are rounded) are checked with FreeSpace::traversable and dropped if they fail.
///
/// Corridors: with portal nodes a path names the portals it crosses; with centres, consecutive
/// polygons. A path through vertex nodes crosses portals at vertices: at each vertex it turns
/// from the polygon of one arc to the polygon of the next through the polygons round that vertex
/// (on the side of the smaller angle where both sides are free), so the corridor is a chain of
/// adjacent polygons containing the path; a polygon entered twice cuts the loop between. Where
/// such a chain cannot be found (polygons that do not share vertices along their portals), the
/// path has no corridor and the funnel says so.
///
/// Optimality: the search minimises exact cost over the graph, which is not the shortest path
/// through free space; the funnel over its corridor is the shortest path within that corridor.
class NavMesh final : public Discretisation {
 public:
  /// Builds the mesh over space, which must outlive it.
  /// @throws InputError (key "max_triangles") when the triangulation exceeds the budget, (key
  /// "source") when the source is `mesh` and the scene's mesh faces cannot be used, (key
  /// "search") when the search is `optimal` and heights differ by more than the climb limit.
  explicit NavMesh(const FreeSpace& space, NavMeshOptions options = {});

  std::string_view method() const override { return "navmesh"; }
  std::string_view graph_noun() const override { return "navigation mesh"; }
  std::size_t node_count() const override { return node_at_.size(); }
  Point node_position(search::NodeId n) const override { return node_at_[n]; }
  void attach(Point p, AttachDirection direction, std::vector<Attachment>& out) const override;
  std::string unattached_reason(std::string_view which) const override;
  /// Start and goal in one polygon: the straight segment between them.
  std::optional<double> direct_cost(Point start, Point goal) const override;
  /// None where moves are one way, and none with search `optimal` (the graph has no arcs).
  const search::ComponentLabels* components() const override {
    return directed_ || optimal() ? nullptr : &components_;
  }
  /// The polygon of node n (with portal nodes, the polygon on the node's side); empty for a
  /// vertex node, which stands for a point.
  Ring node_region(search::NodeId n) const override;
  void arc_points(search::NodeId from, search::NodeId to, std::vector<Point>& out) const override;
  /// The portals crossed, each oriented as seen in the direction of travel: Segment::a on the
  /// left, Segment::b on the right.
  std::optional<std::vector<Segment>> corridor(Point start, std::span<const search::NodeId> path,
                                               Point end) const override;
  /// True: the graph's paths have the corridor corridor() derives from their nodes, Polyanya's
  /// (search `optimal`) that of the polygon edges its search crossed (PolyanyaResult::corridor),
  /// through which the funnel returns the same path.
  bool has_corridors() const override { return true; }
  /// "N triangles (M free), P convex polygons, Q portals; R nodes", or for the scene's own faces
  /// "P convex polygons (the mesh's faces), Q portals; R nodes"; with search `optimal`, "...; no
  /// graph: searched by Polyanya (navmesh.search=optimal)" instead of the nodes (`=auto` where
  /// automatic chose it; where it chose the graph, "R nodes (navmesh.search=auto: the graph)").
  std::string summary() const override;
  /// The polygons outlined, the portals' midpoints or the centres as nodes.
  Primitives primitives() const override;

  /// The larger of straight-line distance to the goal times the cheapest multiplier and the
  /// landmarks' bound towards the goal's attachments: admissible and consistent. Given the
  /// start's attachments, only active_landmarks landmarks are consulted: those whose difference
  /// of straight-line distances to the goal and to the start is largest (where their bound from
  /// the start is likely largest), so that choosing reads no landmark costs but theirs.
  auto heuristic(std::span<const Attachment> starts, std::span<const Attachment> goals,
                 Point goal) const {
    return [this, goal, target = landmark_target(starts, goals, goal)](search::NodeId n) {
      const Point d = node_at_[n] - goal;
      return std::max(min_cost_ * std::sqrt(d.x * d.x + d.y * d.y),
                      landmarks_.lower_bound(n, target));
    };
  }
  auto heuristic(std::span<const Attachment> goals, Point goal) const {
    return heuristic({}, goals, goal);
  }
  /// Landmarks consulted per query. On a 10,000-polygon random map (vertices), a search reading
  /// 4 of 32 landmarks expands about a third fewer nodes than one reading 4 of 16, and about a
  /// fifth more than one reading all 32, for an eighth of the landmark costs read per node.
  static constexpr std::size_t active_landmarks = 4;

  template <class F>
  void for_each_neighbour(search::NodeId n, F&& f) const {
    graph_.for_each_neighbour(n, f);
  }
  /// Prefetches n's arcs (search::PrefetchingGraph).
  void prefetch(search::NodeId n) const noexcept { graph_.prefetch(n); }

  std::size_t polygon_count() const { return polygon_first_.size() - 1; }
  /// The vertices of polygon i, counter-clockwise.
  std::span<const Point> polygon(std::size_t i) const {
    return {points_.data() + polygon_first_[i], polygon_first_[i + 1] - polygon_first_[i]};
  }
  double polygon_cost(std::size_t i) const { return cost_[i]; }
  /// The polygon across edge k of polygon i (from vertex k to vertex k + 1), or -1 where the
  /// edge is a wall or lies on the boundary of free space. Across an edge, the other polygon
  /// lists the same two vertices in the other order.
  std::int64_t neighbour(std::size_t i, std::size_t k) const {
    const std::int32_t portal = corners_[polygon_first_[i] + k].portal;
    return portal < 0 ? -1 : std::int64_t(other_side(std::size_t(portal), std::uint32_t(i)));
  }
  /// The vertex node of corner k of polygon i: one per polygon vertex and free sector round it
  /// (a pinch point has one per side). Defined for `vertices` nodes and for search `optimal`.
  search::NodeId vertex_node(std::size_t i, std::size_t k) const {
    return corners_[polygon_first_[i] + k].node;
  }
  /// Whether queries are searched by Polyanya (NavMeshOptions::search).
  bool optimal() const { return options_.search == NavMeshSearch::optimal; }
  std::size_t portal_count() const { return portals_.size(); }
  /// Whether every vertex of polygon i is a given point (a boundary or mesh vertex), not a
  /// rounded crossing of two constraints.
  bool polygon_exact(std::size_t i) const { return exact_[i] != 0; }
  /// Landmarks of the ALT heuristic in use (none where moves are one way).
  std::size_t landmark_count() const { return landmarks_.count(); }
  /// The polygons containing p (several when p lies on a shared edge or vertex), into out.
  void locate(Point p, std::vector<std::uint32_t>& out) const;
  const NavMeshOptions& options() const { return options_; }
  const NavMeshStats& stats() const { return stats_; }
  /// Drops the leading portals of a corridor that the start lies on and the trailing ones the
  /// end lies on (exact tests): the funnel would take an apex inside a portal for a funnel
  /// already closed, and the polygon after such a portal holds the start too.
  static void trim_ends(Point start, Point end, std::vector<Segment>& portals);

 private:
  struct Portal {
    Point a, b;                         ///< polygon side[0] lies on the left of a -> b
    std::array<std::uint32_t, 2> side;  ///< the two polygons
  };
  void build(const FreeSpace& space);
  // The polygons are the scene's mesh faces (already checked by mesh_faces_problem).
  void build_from_faces(const FreeSpace& space);
  // Portals of polygon p (its ring as in points_): others[e] is the polygon across edge e (from
  // vertex e to e + 1), or -1. Maximal runs towards one polygon make one portal, listed from the
  // lower id.
  void add_portals(std::uint32_t p, const std::vector<std::int64_t>& others);
  // Renumbers polygons and portals in Morton order of their places (memory locality).
  void order_by_place();
  // Each polygon's portal list and the point location buckets, once polygons and portals exist.
  void index_polygons();
  void build_graph();
  // The portal between polygons p and q, or -1.
  std::int64_t portal_between(std::uint32_t p, std::uint32_t q) const;
  // Portal k as crossed leaving polygon `from`: a on the left, b on the right.
  Segment oriented(std::size_t k, std::uint32_t from) const;
  // Portal nodes (portals, portals+centres): node 2k + s on polygon side[s]'s side of portal k.
  search::NodeId portal_node(std::uint32_t k, std::uint32_t poly) const {
    return 2 * k + (portals_[k].side[0] == poly ? 0u : 1u);
  }
  // The polygon a node stands for (centres and portal nodes; not vertices).
  std::uint32_t node_polygon(search::NodeId n) const {
    return n < portal_nodes_ ? portals_[n / 2].side[n % 2] : n - portal_nodes_;
  }
  // Calls f(node) for every node of polygon poly: its centre, its portals' nodes on its side or
  // its vertices' nodes.
  template <class F>
  void for_each_polygon_node(std::uint32_t poly, F&& f) const;
  // The corner (index into points_) of polygon poly at node n, or -1.
  std::int64_t corner_at(std::uint32_t poly, search::NodeId n) const;
  // The corridor of a path through vertex nodes (see the class comment).
  bool vertex_corridor(Point start, std::span<const search::NodeId> path, Point end,
                       std::vector<Segment>& out) const;
  // Appends the portals crossed turning round vertex node v from polygon `from` (which has a
  // corner there) to the first polygon for which arrive(polygon) holds, and the polygons entered
  // to chain; clockwise first when turn > 0 (the path turns left), else counter-clockwise
  // first. Where neither way round gets there, the path passes v through a pinch into another
  // of v's free sectors: a zero-length portal at v, then round v there. False when nothing does.
  template <class Arrive>
  bool turn_round(search::NodeId v, std::uint32_t from, Arrive&& arrive, int turn,
                  std::vector<Segment>& out, std::vector<std::uint32_t>& chain) const;
  // The vertex nodes: corners joined through portals along edges ending at their vertex, and,
  // with through_pinches, corners at one point in different free sectors where FreeSpace lets a
  // path pass from one to the other (space.gaps=open, where blocked parts touch at a point).
  void build_vertex_nodes(bool through_pinches);
  void build_vertex_graph(std::vector<search::Edge>& edges);
  // The landmark bounds of a query (see heuristic()).
  search::LandmarkTarget landmark_target(std::span<const Attachment> starts,
                                         std::span<const Attachment> goals, Point goal) const;
  // The bend of the arc from polygon p's centre through portal k to the other side's centre, if the
  // straight segment misses it.
  std::optional<Point> bend(std::uint32_t p, std::size_t k) const;
  bool motion_ok(Point a, Point b, bool check_sight) const;
  std::uint32_t other_side(std::size_t k, std::uint32_t p) const {
    return portals_[k].side[0] == p ? portals_[k].side[1] : portals_[k].side[0];
  }

  const FreeSpace* space_;
  NavMeshOptions options_;
  NavMeshSearch requested_search_ = NavMeshSearch::graph;  // before resolving automatic
  NavMeshStats stats_;
  double min_cost_ = 1.0;
  bool directed_ = false;
  // Polygons: vertices in points_[polygon_first_[i] .. polygon_first_[i + 1]).
  std::vector<Point> points_;
  std::vector<std::size_t> polygon_first_{0};
  std::vector<double> cost_;
  std::vector<double> height_;
  std::vector<Point> centre_;
  std::vector<std::uint8_t> exact_;  // every vertex of the polygon is a given point
  std::vector<Portal> portals_;
  // Portals of polygon i: portal_ids_[portal_first_[i] .. portal_first_[i + 1]).
  std::vector<std::uint32_t> portal_first_;
  std::vector<std::uint32_t> portal_ids_;
  // Per corner (index into points_): its vertex node (vertices), the portal across the edge
  // from it to the next corner (or -1) and its polygon, together because walking round a vertex
  // reads them together.
  struct Corner {
    search::NodeId node = search::no_node;
    std::int32_t portal = -1;
    std::uint32_t polygon = 0;
  };
  std::vector<Corner> corners_;
  // Node numbering: portal nodes 0 .. portal_nodes_ - 1 (portals, portals+centres; 0 otherwise),
  // then the centres' nodes (centres, portals+centres).
  std::uint32_t portal_nodes_ = 0;
  // Vertices: the corners of each node, node_corners_[node_corner_first_[n] ..
  // node_corner_first_[n + 1]).
  std::vector<std::uint32_t> node_corner_first_;
  std::vector<std::uint32_t> node_corners_;
  // Point location: a uniform grid of buckets listing the polygons whose boxes meet them.
  Point bucket_origin_;
  double bucket_side_ = 1.0;
  int bucket_columns_ = 0, bucket_rows_ = 0;
  std::vector<std::uint32_t> bucket_first_;
  std::vector<std::uint32_t> bucket_polygons_;
  // The search graph.
  std::vector<Point> node_at_;
  search::CsrGraph graph_;
  search::ComponentLabels components_;
  search::Landmarks landmarks_;
  std::vector<Point> landmark_at_;  // the landmarks' positions
};

}  // namespace polynav
