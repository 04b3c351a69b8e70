#pragma once
/// @file
/// The visibility graph (Lozano-Pérez & Wesley 1979): the reflex corners of free space joined by
/// straight segments in line of sight. Every Euclidean shortest path among polygonal obstacles
/// is a polyline that bends only at such corners, so A* over this graph finds the exact shortest
/// path, not an approximation.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "polynav/discretise/discretisation.hpp"
#include "polynav/geometry.hpp"
#include "polynav/search/astar.hpp"
#include "polynav/search/components.hpp"
#include "polynav/search/graph.hpp"

namespace polynav {

class FreeSpace;

struct VisibilityGraphOptions {
  /// Keep only bitangent edges: segments whose supporting line leaves both incident boundary
  /// edges of each end corner on one side. A shortest path only ever bends around a corner
  /// along such a line, so this loses no optimality and usually drops most edges.
  /// [Default: true]
  bool bitangent_only = true;
  /// Budget on the number of corners (the build is quadratic in it): a free space with more is
  /// refused. [Limit: > 0]
  std::size_t max_nodes = 40000;
};

/// Counters of one build, for benchmarks and for judging the pruning.
struct VisibilityGraphBuildStats {
  std::uint64_t pairs = 0;           ///< pairs of corners in the same component of free space
  std::uint64_t tangent_pairs = 0;   ///< pairs passing the O(1) tangency test at both ends
  std::uint64_t filtered_pairs = 0;  ///< of those, not rejected by the crossing prefilter
  std::uint64_t edges = 0;           ///< pairs in line of sight (edges of the graph)
  double build_ms = 0.0;             ///< wall-clock time of the construction [Units: ms]
};

/// The visibility graph of a FreeSpace.
///
/// Nodes are the corners of FreeSpace::boundary() whose free sector exceeds 180 degrees (the
/// convex corners of obstacles, the reflex corners of free space), decided with the exact
/// orientation predicate. Where several boundary edges meet at one point (blocked parts touching
/// at a pinch, a hole touching the outer ring; the rings may pass through such a point twice and
/// pair its edges either way), the free sectors at the point are rebuilt from all its edges in
/// angular order and judged one by one: only a sector wider than 180 degrees makes a node, so a
/// pinch whose free sectors are all narrower is no node and no path bends through it. A spike
/// (an edge folding back on itself) counts as a node: its free sector is 360 degrees when the
/// spike is blocked.
///
/// Edges join corners in exact line of sight (FreeSpace::line_of_sight), with Euclidean length
/// as cost, stored as a search::CsrGraph (undirected; directed when the scene has terrain heights
/// and a finite max_climb, then an arc is kept only in the directions that are climbable).
///
/// A query attaches its start and goal to the corners they see (through a search::AugmentedGraph,
/// without copying the graph) and runs A* with the Euclidean distance to the goal, which is
/// admissible and consistent. A start in line of sight of the goal gets the straight segment at
/// once, without a search.
///
/// Optimality: the path found is the Euclidean shortest path in free space. In scenes with
/// weighted regions the search still minimises LENGTH (arc cost = Euclidean length, and
/// RawPath::graph_cost is that length); the planner reports the path's exact weighted cost, but
/// the path is then NOT the cheapest one, only the shortest. With a height limit, the path is
/// valid but not necessarily shortest (a climb limit can force bends away from corners).
///
/// Construction: for each pair of corners in the same component of free space, the O(1) exact
/// tangency test at both ends (when bitangent_only), then a prefilter that walks a uniform grid
/// of boundary edges along the segment and rejects it at the first proper crossing (decided
/// exactly; a segment it cannot reject is not thereby accepted), and only then
/// FreeSpace::line_of_sight, which alone accepts an edge. That is O(n^2) constant-time tests
/// plus, for the pairs that survive the tangency test, a walk of the cells up to the first
/// blocking edge, instead of the O(n^3) scan of all pairs against all edges or the O(n^2 k) of
/// all pairs through the R-tree behind line_of_sight. The per-vertex rotational sweep of
/// Lee (1978), O(n^2 log n), was not used: it sorts all n corners around each vertex, n log n
/// exact comparisons per vertex, whereas the tangency test discards most pairs after two
/// orientation tests; see bench/bench_visibility_graph.cpp for measured build times.
class VisibilityGraph final : public Discretisation {
 public:
  /// Builds the graph over space, which must outlive it.
  /// @pre space is a valid FreeSpace (its rings have free space on their left).
  /// @throws InputError (key "max_nodes") when the free space has more corners than
  ///         options.max_nodes.
  /// Complexity: O(n^2) exact tangency tests for n corners, a grid walk per surviving pair and
  /// FreeSpace::line_of_sight per pair the walk cannot reject; O(n + E) memory for E edges.
  explicit VisibilityGraph(const FreeSpace& space, VisibilityGraphOptions options = {});
  ~VisibilityGraph() override;
  VisibilityGraph(const VisibilityGraph&) = delete;
  VisibilityGraph& operator=(const VisibilityGraph&) = delete;

  std::string_view method() const override { return "visgraph"; }
  std::size_t node_count() const override { return corners_.size(); }
  /// The shortest path from start to goal (see the class comment for weighted scenes).
  /// @pre start and goal are free points of the FreeSpace the graph was built on.
  /// Complexity: O(n) tangency tests and up to O(n) line-of-sight checks to attach each end,
  /// then A* over the graph, O((E + n) log n).
  RawPath find_path(Point start, Point goal, const QueryOptions& options) override;
  /// Draws the edges thin and light and the corners as small dots.
  void draw(SvgCanvas& canvas) const override;

  /// The graph over the corners (node ids 0 .. node_count() - 1).
  const search::CsrGraph& graph() const { return graph_; }
  /// Connected components of graph().
  const search::ComponentLabels& components() const { return components_; }
  /// Where node n lies. @pre n < node_count()
  Point node_position(search::NodeId n) const { return corners_[n].at; }
  /// Number of undirected edges (arcs, when the graph is directed).
  std::size_t edge_count() const { return edge_count_; }
  /// Whether the graph is directed (heights with a climb limit).
  bool directed() const { return directed_; }
  const VisibilityGraphOptions& options() const { return options_; }
  const VisibilityGraphBuildStats& build_stats() const { return stats_; }

  /// The nodes a shortest path from or to p could use first: those in line of sight of p and
  /// tangent to the line through p (p is not tested for tangency, as a path does not bend at
  /// its end). @pre p is a free point. Complexity: O(n) tangency tests plus the line-of-sight
  /// checks of the survivors.
  std::vector<search::NodeId> visible_nodes(Point p);

  /// SearchGraph: the arcs of node n.
  template <class F>
  void for_each_neighbour(search::NodeId n, F&& f) const {
    graph_.for_each_neighbour(n, f);
  }

 private:
  // A node: the corner at `at` between the boundary edges from `before` and to `after`.
  struct Corner {
    Point at;
    Point before;
    Point after;
    std::uint32_t component = 0;
  };
  class SegmentFilter;

  // Whether the line through the corner and q leaves both incident edges on one side.
  static bool tangent(const Corner& c, Point q);
  // Whether segment ab is a valid straight motion in the direction a -> b.
  bool visible(Point a, Point b);
  // The arcs between p and the nodes a shortest path from p (outgoing) or to p could use.
  void attach(Point p, bool outgoing, std::vector<search::Arc>& out);

  const FreeSpace* space_;
  VisibilityGraphOptions options_;
  std::vector<Corner> corners_;
  search::CsrGraph graph_;
  search::ComponentLabels components_;
  std::size_t edge_count_ = 0;
  bool directed_ = false;
  std::unique_ptr<SegmentFilter> filter_;
  VisibilityGraphBuildStats stats_;
  search::AStar astar_;
  search::SearchResult result_;
  std::vector<search::Arc> from_start_;
  std::vector<search::Arc> to_goal_;
};

}  // namespace polynav
