#pragma once
/// @file
/// The navigation mesh as a discretisation: a search graph over the convex partition of free
/// space (partition.hpp). The graph's nodes lie at the polygons' vertices (default), on the
/// portals they share or at their centres; a path through it comes with its corridor of portals,
/// which the funnel smoother (smooth/funnel.hpp) pulls taut. The search is guided by
/// straight-line distance and landmark bounds (search/landmarks.hpp).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "polynav/discretise/discretisation.hpp"
#include "polynav/discretise/navmesh/options.hpp"
#include "polynav/discretise/navmesh/partition.hpp"
#include "polynav/geometry.hpp"
#include "polynav/search/components.hpp"
#include "polynav/search/graph.hpp"
#include "polynav/search/landmarks.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {

/// Counters of one build: the partition's (build_ms then counts everything, the partition's
/// build included), and the landmarks'.
struct NavMeshStats : NavPartitionStats {
  double landmarks_ms = 0.0;  ///< choosing the landmarks and their Dijkstra searches
};

/// A navigation mesh over a FreeSpace: a graph over a NavPartition (the polygons, their portals
/// and point location; see partition.hpp for where they come from and what holds of them). The
/// partition is built with the mesh, or given and shared (it is const).
///
/// A query's start and goal are located in the polygons that contain them (exactly: points on
/// shared edges and vertices belong to every polygon they touch) and joined to those polygons'
/// nodes by straight segments inside them; start and goal in one polygon are joined directly,
/// without a search.
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
  /// Builds the mesh and its partition (partition_options(options)) over space, which must
  /// outlive it.
  /// @throws InputError (key "max_triangles") when the triangulation exceeds the budget, (key
  /// "source") when the source is `mesh` and the scene's mesh faces cannot be used, (key
  /// "decomposition") when the decomposition is not `cdt` and the scene's mesh faces would be
  /// used, (key "search") when the search is `optimal` and heights differ by more than the
  /// climb limit.
  explicit NavMesh(const FreeSpace& space, NavMeshOptions options = {});
  /// Builds the graph over a partition of space built with region outlines as constraints
  /// (NavPartitionOptions::regions), which it shares; options' source, merge, decomposition and
  /// max_triangles are the partition's. @throws InputError (key "search") as above.
  NavMesh(const FreeSpace& space, std::shared_ptr<const NavPartition> partition,
          NavMeshOptions options = {});

  std::string_view method() const override { return "navmesh"; }
  std::string_view graph_noun() const override { return "navigation mesh"; }
  std::size_t node_count() const override {
    return optimal() ? partition_->vertex_count() : node_at_.size();
  }
  Point node_position(search::NodeId n) const override {
    return optimal() ? partition_->vertex_point(n) : node_at_[n];
  }
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

  /// The convex partition the graph is built over.
  const NavPartition& partition() const { return *partition_; }
  /// The partition, to share with another mesh over it (a graph with other nodes).
  const std::shared_ptr<const NavPartition>& shared_partition() const { return partition_; }
  // The partition's polygons, as NavPartition has them.
  std::size_t polygon_count() const { return partition_->polygon_count(); }
  std::span<const Point> polygon(std::size_t i) const { return partition_->polygon(i); }
  double polygon_cost(std::size_t i) const { return partition_->polygon_cost(i); }
  std::int64_t neighbour(std::size_t i, std::size_t k) const { return partition_->neighbour(i, k); }
  std::size_t portal_count() const { return partition_->portal_count(); }
  bool polygon_exact(std::size_t i) const { return partition_->polygon_exact(i); }
  void locate(Point p, std::vector<std::uint32_t>& out) const { partition_->locate(p, out); }
  static void trim_ends(Point start, Point end, std::vector<Segment>& portals) {
    NavPartition::trim_ends(start, end, portals);
  }
  /// The vertex node of corner k of polygon i: one per polygon vertex and free sector round it
  /// (a pinch point has one per side, unless gaps are open and a path may pass through it).
  /// Defined for `vertices` nodes and for search `optimal`.
  search::NodeId vertex_node(std::size_t i, std::size_t k) const {
    return corner_node(partition_->first_corner(i) + k);
  }
  /// Whether queries are searched by Polyanya (NavMeshOptions::search).
  bool optimal() const { return options_.search == NavMeshSearch::optimal; }
  /// Landmarks of the ALT heuristic in use (none where moves are one way).
  std::size_t landmark_count() const { return landmarks_.count(); }
  const NavMeshOptions& options() const { return options_; }
  const NavMeshStats& stats() const { return stats_; }

 private:
  void build_graph();
  // Portal nodes (portals, portals+centres): node 2k + s on polygon side[s]'s side of portal k.
  search::NodeId portal_node(std::uint32_t k, std::uint32_t poly) const {
    return 2 * k + (partition_->portal(k).side[0] == poly ? 0u : 1u);
  }
  // The polygon a node stands for (centres and portal nodes; not vertices).
  std::uint32_t node_polygon(search::NodeId n) const {
    return n < portal_nodes_ ? partition_->portal(n / 2).side[n % 2] : n - portal_nodes_;
  }
  // Calls f(node) for every node of polygon poly: its centre, its portals' nodes on its side or
  // its vertices' nodes.
  template <class F>
  void for_each_polygon_node(std::uint32_t poly, F&& f) const;
  // The corner (index into the partition's corners) of polygon poly at node n, or -1.
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
  // The vertex nodes: the partition's vertices (corners joined through portals along edges
  // ending at their point), and, with through_pinches, those at one point in different free
  // sectors where FreeSpace lets a path pass from one to the other (space.gaps=open, where
  // blocked parts touch at a point).
  void build_vertex_nodes(bool through_pinches);
  // The vertex node of corner c: with search `optimal`, the partition's vertex itself (nodes
  // are joined through no pinch there, so the two numberings are one and nothing is kept).
  search::NodeId corner_node(std::size_t c) const {
    return optimal() ? partition_->corner_vertex(c) : corner_node_[c];
  }
  void build_vertex_graph(std::vector<search::Edge>& edges);
  // The landmark bounds of a query (see heuristic()).
  search::LandmarkTarget landmark_target(std::span<const Attachment> starts,
                                         std::span<const Attachment> goals, Point goal) const;
  // The bend of the arc from polygon p's centre through portal k to the other side's centre, if the
  // straight segment misses it.
  std::optional<Point> bend(std::uint32_t p, std::size_t k) const;
  bool motion_ok(Point a, Point b, bool check_sight) const;

  const FreeSpace* space_;
  NavMeshOptions options_;
  NavMeshSearch requested_search_ = NavMeshSearch::graph;  // before resolving automatic
  NavMeshStats stats_;
  double min_cost_ = 1.0;
  bool directed_ = false;
  std::shared_ptr<const NavPartition> partition_;
  // Per corner of the partition: its vertex node (vertices; see corner_node).
  std::vector<search::NodeId> corner_node_;
  // Node numbering: portal nodes 0 .. portal_nodes_ - 1 (portals, portals+centres; 0 otherwise),
  // then the centres' nodes (centres, portals+centres).
  std::uint32_t portal_nodes_ = 0;
  // Vertices: the corners of each node, node_corners_[node_corner_first_[n] ..
  // node_corner_first_[n + 1]).
  std::vector<std::uint32_t> node_corner_first_;
  std::vector<std::uint32_t> node_corners_;
  // The search graph (empty with search `optimal`: node_position).
  std::vector<Point> node_at_;
  search::CsrGraph graph_;
  search::ComponentLabels components_;
  search::Landmarks landmarks_;
  std::vector<Point> landmark_at_;  // the landmarks' positions
};

}  // namespace polynav
