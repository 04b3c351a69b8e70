#pragma once
/// @file
/// The visibility graph (Lozano-Pérez & Wesley 1979): the reflex corners of free space joined by
/// straight segments in line of sight. Every Euclidean shortest path among polygonal obstacles
/// is a polyline that bends only at such corners, so A* over this graph finds the exact shortest
/// path, not an approximation.

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
#include "polynav/kernel/exact.hpp"
#include "polynav/search/astar.hpp"
#include "polynav/search/components.hpp"
#include "polynav/search/graph.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {

class QueryWorkspace;

/// How a query's start and goal find the corners they attach to (VisibilityGraph::attach).
enum class VisibilityAttach : std::uint8_t {
  /// Every corner is tested for tangency and the tangent ones for line of sight: O(corners) per
  /// point. The reference the expansion is tested against.
  scan,
  /// A visibility search through a triangulation of free space from the point's own polygons
  /// (triangular expansion): only the corners the point sees are reached.
  expand,
};
inline constexpr auto visibility_attach_names =
    enum_names(VisibilityAttach::expand, "expand", VisibilityAttach::scan, "scan");

/// A name of visibility_attach_names; throws InputError (key "attach") on anything else.
inline VisibilityAttach parse_visibility_attach(const std::string& name) {
  return from_name(visibility_attach_names, name, "attach", "attachment");
}
inline std::string_view visibility_attach_name(VisibilityAttach attach) {
  return name_of(visibility_attach_names, attach);
}

struct VisibilityGraphOptions {
  /// Keep only bitangent edges: segments whose supporting line leaves both incident boundary
  /// edges of each end corner on one side. A shortest path only ever bends around a corner
  /// along such a line, so this loses no optimality and usually drops most edges.
  /// [Default: true]
  bool bitangent_only = true;
  /// Budget on the number of corners (the pair loop's build is quadratic in it): a free space
  /// with more is refused. [Limit: > 0]
  std::size_t max_nodes = 40000;
  /// Wall-clock budget of the build, checked between its steps (BuildClock): a longer build
  /// stops with an InputError naming space.max_build_seconds. The planner passes the free
  /// space's (FreeSpace::max_build_seconds). [Units: s] [Limit: > 0; infinity for none]
  double max_build_seconds = default_max_build_seconds;
  /// How start and goal attach, and how the edges are built: expand builds them by the same
  /// visibility search from every corner (when bitangent_only), scan by the pair loop.
  /// [Default: expand; the same attachments and edges as scan, exactly]
  VisibilityAttach attach = VisibilityAttach::expand;
  /// Searches only taut successors: from a corner v reached from u, only the corners w where
  /// the path u -> v -> w wraps round the obstacle at v (a bend of at least 180 degrees on the
  /// free side). A bend of less can be cut short near v, so no shortest path has one (the
  /// taut-path pruning of Oh and Leong, "Edge N-Level Sparse Visibility Graphs", SoCS 2017);
  /// each corner's arcs are sorted by angle, so the taut ones are found by binary search. Not
  /// applied where the graph is directed (a climb limit can make the shorter cut unclimbable).
  /// [Default: true; the same lengths as without]
  bool taut = true;
};

/// Counters of one build, for benchmarks and for judging the pruning.
struct VisibilityGraphBuildStats {
  std::uint64_t pairs = 0;          ///< pairs of corners in the same component (pair loop only)
  std::uint64_t tangent_pairs = 0;  ///< pairs passing the tangency test at both ends (pair loop)
  std::uint64_t edges = 0;          ///< pairs in line of sight (edges of the graph)
  double build_ms = 0.0;            ///< wall-clock time of the construction [Units: ms]
  double index_ms = 0.0;            ///< of it, the triangulation behind attach = expand [Units: ms]
};

namespace visibility_detail {
struct Index;
}

/// The visibility graph of a FreeSpace.
///
/// Nodes are FreeSpace::corners(): the boundary points with a free sector wider than 180 degrees
/// (judged by FreeSpace with every edge meeting at the point, so a pinch whose free sectors are
/// all narrower is no node and no path bends through it).
///
/// Edges join corners in exact line of sight (FreeSpace::line_of_sight), with Euclidean length
/// as cost, stored as a search::CsrGraph (undirected; directed when the scene has terrain heights
/// and a finite max_climb, then an arc is kept only in the directions that are climbable).
///
/// A query attaches its start and goal to the corners they see, and the driver runs A* with the
/// Euclidean distance to the goal, which is admissible and consistent. A start in line of sight
/// of the goal gets the straight segment at once, without a search.
///
/// Optimality: the path found is the Euclidean shortest path in free space. In scenes with
/// weighted regions the search still minimises LENGTH (arc cost = Euclidean length, and
/// RawPath::graph_cost is that length); the planner reports the path's exact weighted cost, but
/// the path is then NOT the cheapest one, only the shortest. With a height limit, the path is
/// valid but not necessarily shortest (a climb limit can force bends away from corners).
///
/// Construction (attach = expand, bitangent_only): a triangulation of free space (a NavPartition
/// without region outlines), then from every corner the visibility search of attach (see attach()):
/// the corners it sees that are tangent at their end, kept where the pair is tangent at this end
/// too. Its cost grows with what each corner sees, not with the square of the corners; the edges
/// are those of the pair loop, in the same order. Otherwise (attach = scan, or all visible pairs
/// wanted, or no usable triangulation) the pair loop: for each pair of corners in the same
/// component of free space, the O(1) exact tangency test at both ends (when bitangent_only),
/// then FreeSpace::line_of_sight, which walks the edge grid from one end and stops at the first
/// proper crossing. That is O(n^2) constant-time tests plus, for the pairs that survive the
/// tangency test, a walk up to the first blocking edge, instead of the O(n^3) scan of all pairs
/// against all edges. The per-vertex rotational sweep of Lee (1978), O(n^2 log n), was not used:
/// it sorts all n corners around each vertex, n log n exact comparisons per vertex, whereas the
/// tangency test discards most pairs after two orientation tests; see
/// bench/bench_visibility_graph.cpp for measured build times.
class VisibilityGraph final : public Discretisation {
 public:
  /// Builds the graph over space, which must outlive it.
  /// @throws InputError (key "max_nodes") when the free space has more corners than
  ///         options.max_nodes.
  /// Complexity: one visibility search per corner (attach = expand), else O(n^2) exact tangency
  /// tests for n corners and a line-of-sight walk per pair that survives them; O(n + E) memory
  /// for E edges, plus the triangulation.
  explicit VisibilityGraph(const FreeSpace& space, VisibilityGraphOptions options = {});
  ~VisibilityGraph() override;
  VisibilityGraph(VisibilityGraph&&) noexcept;
  VisibilityGraph& operator=(VisibilityGraph&&) noexcept;

  std::string_view method() const override { return "visgraph"; }
  std::string_view graph_noun() const override { return "visibility graph"; }
  std::size_t node_count() const override { return corners_.size(); }
  Point node_position(search::NodeId n) const override { return corners_[n].at; }
  /// The corners p sees that a shortest path from or to p could use first: in line of sight and
  /// tangent to the line through p (p is not tested for tangency, as a path does not bend at its
  /// end), in increasing node order. With attach = expand (and an index, see expands()), found by
  /// a visibility search from p through the polygons of a triangulation of free space (Bungiu,
  /// Hemmer, Hershberger, Huang and Kröller, "Efficient computation of visibility polygons",
  /// EuroCG 2014): its cost grows with the polygons p sees, not with the corners of the scene.
  /// Otherwise attach_by_scan.
  void attach(Point p, AttachDirection direction, std::vector<Attachment>& out) const override;
  /// The same attachments found by testing every corner: O(n) tangency tests plus the
  /// line-of-sight checks of the survivors. The reference attach is tested against.
  void attach_by_scan(Point p, AttachDirection direction, std::vector<Attachment>& out) const;
  /// Whether attach runs the visibility search: attach = expand, and the triangulation could be
  /// built with every vertex a given point and every corner one of its vertices (else it scans).
  bool expands() const { return index_ != nullptr; }
  std::string unattached_reason(std::string_view which) const override;
  /// Every path from an end that sees no corner (and not the other end) would have to bend at a
  /// corner first: an empty attachment proves there is no path.
  search::SearchStatus unattached_status() const override { return search::SearchStatus::no_path; }
  /// The goal in line of sight (and climbable) is the shortest path.
  std::optional<double> direct_cost(Point start, Point goal) const override;
  const search::ComponentLabels* components() const override { return &components_; }
  /// The edges thin and light, the corners as small dots.
  Primitives primitives() const override;

  /// Straight-line distance to the goal: admissible and consistent for Euclidean arc lengths.
  auto heuristic(std::span<const Attachment> /*goals*/, Point goal) const {
    return [this, goal](search::NodeId n) { return quick_distance(corners_[n].at, goal); };
  }

  /// The graph over the corners (node ids 0 .. node_count() - 1).
  const search::CsrGraph& graph() const { return graph_; }
  /// Number of undirected edges (arcs, when the graph is directed).
  std::size_t edge_count() const { return edge_count_; }
  /// Whether the graph is directed (heights with a climb limit).
  bool directed() const { return directed_; }
  const VisibilityGraphOptions& options() const { return options_; }
  const VisibilityGraphBuildStats& build_stats() const { return stats_; }

  /// The nodes p attaches to (attach() from p, as node ids). @pre p is a free point.
  std::vector<search::NodeId> visible_nodes(Point p) const;

  /// SearchGraph: the arcs of node n.
  template <class F>
  void for_each_neighbour(search::NodeId n, F&& f) const {
    graph_.for_each_neighbour(n, f);
  }

  /// The graph A* searches for one query when options().taut: the arcs of a corner that keep
  /// the path from its parent in `astar` taut (every arc where the parent is no corner, the
  /// start).
  class TautGraph {
   public:
    TautGraph(const VisibilityGraph& graph, const search::AStar& astar)
        : graph_(&graph), astar_(&astar) {}
    /// The taut arcs depend on the node's parent (search::ParentReadingGraph).
    static constexpr bool reads_parent = true;
    std::size_t node_count() const { return graph_->node_count(); }
    template <class F>
    void for_each_neighbour(search::NodeId n, F&& f) const {
      for (const search::Arc& a : graph_->taut_arcs(n, astar_->parent_of_expanded(n)))
        f(a.to, a.cost);
    }
    void prefetch(search::NodeId n) const { graph_->graph_.prefetch(n); }

   private:
    const VisibilityGraph* graph_;
    const search::AStar* astar_;
  };
  /// The query's graph (discretise/query.hpp), or nothing to search all arcs.
  std::optional<TautGraph> query_graph(QueryWorkspace& workspace,
                                       std::span<const search::NodeId> goals) const;
  /// The arcs of corner v that keep a path arriving from `parent` taut at v: all of them when
  /// parent is no corner. @pre the arcs are sorted by angle (taut search on)
  std::span<const search::Arc> taut_arcs(search::NodeId v, search::NodeId parent) const;

 private:
  // Whether the line through the corner and q leaves both incident edges on one side: the line
  // separates them exactly when it enters the blocked wedge (narrower than 180 degrees) on one
  // side of the corner, where either the segment runs into the obstacle or a path through the
  // corner could be shortened by cutting it. Collinear with an edge counts as tangent (the path
  // runs along it). Inline: the build calls it for every pair of corners.
  static bool tangent(const Corner& c, Point q) {
    return exact::orientation(c.at, q, c.before) * exact::orientation(c.at, q, c.after) >= 0;
  }
  // Whether segment ab is a valid straight motion in the direction a -> b.
  bool visible(Point a, Point b) const;
  // The triangulation and tables of attach = expand; empty where it does not apply.
  void build_index();
  void attach_by_expansion(Point p, AttachDirection direction, std::vector<Attachment>& out) const;
  // The nodes p sees (line of sight in the given direction) that are tangent at their end, in
  // increasing order; climbing is not checked.
  void seen_by_expansion(Point p, AttachDirection direction, std::vector<std::uint32_t>& out) const;

  const FreeSpace* space_;
  VisibilityGraphOptions options_;
  std::vector<Corner> corners_;
  search::CsrGraph graph_;
  search::ComponentLabels components_;
  std::size_t edge_count_ = 0;
  bool directed_ = false;
  // Taut search: each corner's arcs sorted counter-clockwise from the ray to its `after`
  // neighbour (the free sector's start), the first half_[v] of them less than 180 degrees round.
  bool taut_ = false;
  std::vector<std::uint32_t> half_;
  VisibilityGraphBuildStats stats_;
  std::unique_ptr<const visibility_detail::Index> index_;
};

}  // namespace polynav
