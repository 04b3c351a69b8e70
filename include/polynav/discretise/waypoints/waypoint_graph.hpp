#pragma once
/// @file
/// Waypoint graphs, as shooters and MOBAs place them: points a path may pass through, joined by
/// links, with every shortest route between two waypoints computed when the graph is built, so
/// that a query is a look-up in a table rather than a search. The waypoints are the scene's own
/// (the `waypoints` key, docs/scene-format.md), or generated: the corners of free space where a
/// shortest path can bend.

#include <cstddef>
#include <cstdint>
#include <memory>
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

namespace polynav {

class FreeSpace;
class Method;

/// Where the waypoints come from (WaypointOptions::source).
enum class WaypointSource : std::uint8_t {
  /// The scene's waypoints when it has a `waypoints` key, else the corners.
  automatic,
  /// The scene's waypoints and links as written; a scene without them is refused.
  scene,
  /// Generated: the corners of free space (FreeSpace::corners), every two that see each other
  /// linked.
  corners,
};
inline constexpr auto waypoint_source_names =
    enum_names(WaypointSource::automatic, "auto", WaypointSource::scene, "scene",
               WaypointSource::corners, "corners");

/// A name of waypoint_source_names; throws InputError (key "waypoints.source") on anything else.
inline WaypointSource parse_waypoint_source(std::string_view text) {
  return from_name(waypoint_source_names, text, "waypoints.source", "waypoint source");
}

struct WaypointOptions {
  /// Where the waypoints come from. [Default: auto]
  WaypointSource source = WaypointSource::automatic;
  /// Budget on the waypoints: a graph with more is refused (linking them tests every pair for
  /// line of sight, quadratic in the waypoints). [Limit: > 0]
  std::size_t max_nodes = 10'000;
  /// Budget on the links: a graph with more is refused before its arcs are stored (16 bytes per
  /// arc, two per link). [Limit: > 0]
  std::size_t max_links = 4'000'000;
  /// All pairs of routes are computed at build when the graph has at most this many waypoints
  /// (12 bytes per pair: a double cost and a 32-bit next hop, so 2048 waypoints take 48 MiB);
  /// larger graphs are searched query by query with A*. 0 = always search. [Limit: >= 0]
  std::size_t max_table_nodes = 2048;
  /// Wall-clock budget of the build, checked between its steps (BuildClock): a longer build
  /// stops with an InputError naming space.max_build_seconds. The planner passes the free
  /// space's (FreeSpace::max_build_seconds). [Units: s] [Limit: > 0; infinity for none]
  double max_build_seconds = default_max_build_seconds;
};

/// The cheapest routes between every two nodes of a graph: row s holds the costs from node s
/// and the node after s on a cheapest route to each target.
struct RouteTable {
  std::size_t nodes = 0;
  /// cost[s * nodes + t]: the cost of a cheapest route from s to t; infinity where t cannot be
  /// reached, 0 for t = s.
  std::vector<double> cost;
  /// next[s * nodes + t]: the node after s on that route (t itself for a single arc);
  /// search::no_node where t cannot be reached or t = s.
  std::vector<search::NodeId> next;

  double at(search::NodeId s, search::NodeId t) const { return cost[std::size_t(s) * nodes + t]; }
  search::NodeId hop(search::NodeId s, search::NodeId t) const {
    return next[std::size_t(s) * nodes + t];
  }
  /// Bytes held by the two tables.
  std::size_t bytes() const {
    return cost.size() * sizeof(double) + next.size() * sizeof(search::NodeId);
  }
};

/// All-pairs cheapest routes by Dijkstra's algorithm from every node (a binary heap over the
/// CSR arcs): O(n (n + m) log n) time for n nodes and m arcs, O(n^2) memory for the table.
/// Directed graphs are fine. `clock`, when given, is checked between sources.
RouteTable all_pairs_dijkstra(const search::CsrGraph& graph, const BuildClock* clock = nullptr);
/// All-pairs cheapest routes by Floyd and Warshall's algorithm: O(n^3) time whatever the arcs,
/// O(n^2) memory. The same costs as all_pairs_dijkstra up to rounding (sums are taken in
/// another order). `clock`, when given, is checked between pivots.
RouteTable all_pairs_floyd_warshall(const search::CsrGraph& graph,
                                    const BuildClock* clock = nullptr);

/// What a build did, for summary() and benchmarks.
struct WaypointBuildStats {
  std::size_t links = 0;        ///< links (undirected; a one-way link counts once)
  bool from_scene = false;      ///< the waypoints are the scene's
  bool links_given = false;     ///< the scene gave the links (else line of sight decided)
  bool table = false;           ///< all pairs are precomputed
  bool floyd_warshall = false;  ///< the table came from Floyd-Warshall (else Dijkstra)
  double graph_ms = 0.0;        ///< placing and linking the waypoints [Units: ms]
  double table_ms = 0.0;        ///< the all-pairs table [Units: ms]
  std::size_t graph_bytes = 0;  ///< nodes and arcs
  std::size_t table_bytes = 0;  ///< the all-pairs table
};

/// A waypoint graph over a FreeSpace.
///
/// Nodes: the scene's waypoints (Scene::waypoints, carried by FreeSpace::waypoints) in the order
/// written, or the corners of free space (FreeSpace::corners: boundary points with a free sector
/// wider than 180 degrees, the only places a shortest path bends). Arcs: the scene's links as
/// written, each both ways; where the scene gives no links and for generated corners, every two
/// nodes that see each other (FreeSpace::traversable, in each direction separately, so a link
/// up a step higher than max_climb runs one way only). A generated corner is only entered and
/// left through its wide free sector, so that every turn a route makes at a corner is free
/// (FreeSpace::turn_is_free) even where blocked parts touch at it; a shortest path never does
/// otherwise. A scene's waypoint where blocked parts touch is refused for the same reason (with
/// closed gaps: FreeSpaceOptions::open_gaps allows such turns). Every arc costs
/// FreeSpace::segment_cost (the weighted cost, not the length, where the scene has regions or a
/// clearance cost).
///
/// Queries: the start joins every node it can move to straight (FreeSpace::traversable) and the
/// goal every node that can move straight to it, with their exact costs; the answer is the
/// cheapest of c(start, a) + D(a, b) + c(b, goal) over those attachments, with the straight
/// segment when the goal is traversable from the start and no dearer. With at most
/// WaypointOptions::max_table_nodes nodes, D is a table built at construction (RouteTable, by
/// Dijkstra from every node, or Floyd-Warshall for small dense graphs, whichever is expected to
/// be faster), and the route is read from its next hops. A query to one goal takes the nodes in
/// order of the least cost any route through them can have (the cheapest cost multiplier times
/// |start n| + |n goal|) and stops where that reaches the best route found, so it tests line of
/// sight only for nodes inside the ellipse the answer bounds (at most two per node) and reads
/// the table once per pair of attachments that could still win; a goal set attaches every node.
/// Larger graphs are searched by the query driver's A* with the straight-line heuristic scaled
/// by the cheapest cost multiplier. Both give the cheapest path through the graph: the same cost
/// up to rounding.
///
/// Guarantees: every path is a chain of valid straight motions (FreeSpace::traversable) with
/// free turns at generated corners. Its cost is the least over routes through the waypoints,
/// not over all paths in free space: with generated corners on an unweighted scene that is the
/// Euclidean shortest path (the visibility graph's), with hand-placed waypoints it is what the
/// level designer allowed.
class WaypointGraph final : public Discretisation {
 public:
  /// Builds the graph and, when small enough, its route table, over space, which must outlive
  /// it. Complexity: O(n^2) line-of-sight tests for n nodes without given links (O(L) for L
  /// given links), then O(n (n + m) log n) or O(n^3) for the table of m arcs; 12 n^2 bytes for
  /// the table and O(n + m) for the arcs.
  /// @throws InputError (key "waypoints.source") for source = scene on a scene without
  ///         waypoints; at a waypoint's own location when it is not free (saying why,
  ///         FreeSpace::explain_blocked) or lies where blocked parts touch (closed gaps), at a
  ///         link's location when it is not a valid motion;
  ///         (key "waypoints.max_nodes", "waypoints.max_links") past the budgets;
  ///         (key "space.max_build_seconds") past the time budget.
  WaypointGraph(const FreeSpace& space, WaypointOptions options = {});

  std::string_view method() const override { return "waypoints"; }
  std::string_view graph_noun() const override { return "waypoint graph"; }
  std::size_t node_count() const override { return nodes_.size(); }
  Point node_position(search::NodeId n) const override { return nodes_[n]; }
  /// Every node p can move to straight (from_point) or that can move straight to p (to_point),
  /// in increasing node order, each with the exact segment cost. O(n) line-of-sight tests, fewer
  /// where p's component of free space rules nodes out.
  void attach(Point p, AttachDirection direction, std::vector<Attachment>& out) const override;
  /// The cost of the arc between p and node n that attach() would give, or nothing when it gives
  /// none; `in` are p's components (FreeSpace::components(p)). One line-of-sight test at most.
  std::optional<double> attachment(search::NodeId n, Point p, AttachDirection direction,
                                   std::span<const std::uint32_t> in) const;
  std::string unattached_reason(std::string_view which) const override;
  /// attach() tries every waypoint: an end that joins none can only go straight.
  search::SearchStatus unattached_status() const override { return search::SearchStatus::no_path; }
  /// On unweighted scenes, the straight segment when it is a valid motion: no route is shorter.
  /// Nothing on weighted scenes, where going round may be cheaper (the method's own queries
  /// weigh the straight segment against the routes).
  std::optional<double> direct_cost(Point start, Point goal) const override;
  /// The components when every arc runs both ways; null where links are one way.
  const search::ComponentLabels* components() const override {
    return directed_ ? nullptr : &components_;
  }
  /// "12 waypoints (the scene's), 20 links, all pairs precomputed: ..."
  std::string summary() const override;
  /// The links and the waypoints.
  Primitives primitives() const override;

  /// Straight-line distance times the cheapest cost multiplier: admissible and consistent.
  auto heuristic(std::span<const Attachment> /*goals*/, Point goal) const {
    return [this, goal](search::NodeId n) { return min_cost_ * distance(nodes_[n], goal); };
  }
  /// SearchGraph: the arcs of node n.
  template <class F>
  void for_each_neighbour(search::NodeId n, F&& f) const {
    graph_.for_each_neighbour(n, f);
  }
  void prefetch(search::NodeId n) const { graph_.prefetch(n); }

  const search::CsrGraph& graph() const { return graph_; }
  /// The route table; empty (nodes == 0) when queries search on-line.
  const RouteTable& table() const { return table_; }
  bool has_table() const { return stats_.table; }
  /// Whether some link runs one way only (terrain heights with a climb limit).
  bool directed() const { return directed_; }
  const WaypointOptions& options() const { return options_; }
  const WaypointBuildStats& build_stats() const { return stats_; }
  const FreeSpace& space() const { return *space_; }

 private:
  // Whether the segment between node n and `other` leaves n outside its blocked wedge (always,
  // for the scene's waypoints), so that every turn at n between such segments is free.
  bool enters_well(search::NodeId n, Point other) const;
  void link_scene(const BuildClock& clock, std::vector<search::Edge>& edges);
  void link_visible(const BuildClock& clock, std::vector<search::Edge>& edges);

  const FreeSpace* space_;
  WaypointOptions options_;
  std::vector<Point> nodes_;
  // Per generated corner, the ends of its two boundary edges (its blocked wedge runs from the
  // ray to `before` counter-clockwise to the ray to `after`); empty for the scene's waypoints.
  std::vector<Point> before_, after_;
  // Per node, its component of free space, or no_component where it touches several.
  std::vector<std::uint32_t> component_;
  search::CsrGraph graph_;
  search::ComponentLabels components_;
  bool directed_ = false;
  double min_cost_ = 1.0;
  RouteTable table_;
  WaypointBuildStats stats_;
};

/// The `waypoints` method: the graph above, queried through its route table (or by A* over it
/// beyond max_table_nodes). Goal sets take the cheapest goal through the table too; reach runs
/// the driver's Dijkstra over the graph. Search options (time and expansion limits, weight,
/// beam) apply to the on-line search; the table answers exactly, so it only honours the cost
/// limit, and a query it cannot answer with partial_fallback set is searched on-line for its
/// partial path. @throws whatever WaypointGraph's constructor throws
std::unique_ptr<Method> make_waypoint_method(const FreeSpace& space,
                                             const WaypointOptions& options);

}  // namespace polynav
