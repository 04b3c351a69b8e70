#pragma once
/// @file
/// The maximum-clearance roadmap: the medial axis of free space (the part of the Voronoi diagram
/// of its boundary segments that lies in free space) as a graph, searched for the path that
/// keeps farthest from the obstacles and, among those, the cheapest.
///
/// Paths that maximise their least distance to the obstacles run along the generalised Voronoi
/// diagram of the obstacles: every free point retracts onto it, moving straight away from its
/// nearest boundary point, with its clearance growing, so that any path keeping a clearance c
/// retracts onto a path of the diagram keeping at least c (Ó'Dúnlaing and Yap, "A retraction
/// method for planning the motion of a disc", J. Algorithms 6, 1985; the "generalised
/// cylinders" of Brooks, "Solving the find-path problem by good representation of free space",
/// IEEE SMC 13(3), 1983, follow the same spines). The diagram of the boundary segments is
/// computed with CGAL's segment Delaunay graph (Karavelas, "A robust and efficient
/// implementation for the segment Voronoi diagram", ISVD 2004), whose predicates are exact.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "polynav/discretise/discretisation.hpp"
#include "polynav/discretise/method.hpp"
#include "polynav/geometry.hpp"
#include "polynav/kernel/build_clock.hpp"
#include "polynav/search/components.hpp"
#include "polynav/search/graph.hpp"

namespace polynav {

class FreeSpace;

struct ClearanceOptions {
  /// Largest distance between a parabolic arc of the medial axis (the bisector of a boundary
  /// vertex and a boundary edge) and the chords that replace it: the arc is sampled so that no
  /// chord strays farther from it. 0 = the longest side of free space's box / 1000.
  /// [Limit: >= 0, finite] [Units: scene units]
  double arc_tolerance = 0.0;
  /// Budget on the roadmap's nodes (Voronoi vertices in free space and arc samples): a larger
  /// roadmap is refused, from a count made once the Voronoi diagram is known, before any of its
  /// edges is sampled or checked. [Limit: >= 1]
  std::size_t max_nodes = 1'000'000;
  /// Wall-clock budget of the build, checked between its steps (BuildClock): a longer build
  /// stops with an InputError naming space.max_build_seconds. The planner passes the free
  /// space's (FreeSpace::max_build_seconds). [Units: s] [Limit: > 0; infinity for none]
  double max_build_seconds = default_max_build_seconds;
};

/// Counters of one build, for benchmarks and summaries.
struct ClearanceBuildStats {
  std::size_t boundary_edges = 0;    ///< distinct boundary segments (the diagram's segment sites)
  std::size_t voronoi_vertices = 0;  ///< nodes that are vertices of the diagram
  std::size_t arc_samples = 0;       ///< nodes sampled on parabolic arcs
  std::size_t dropped_chords = 0;    ///< chords of an edge in free space refused by line of sight
  std::size_t dropped_nodes = 0;     ///< nodes on the boundary through which some turn is blocked
  double arc_tolerance = 0.0;        ///< the tolerance used (resolved) [Units: scene units]
  double voronoi_ms = 0.0;           ///< the segment Delaunay graph [Units: ms]
  double build_ms = 0.0;             ///< the whole build [Units: ms]
};

/// Where a free point retracts onto the roadmap (ClearanceRoadmap::retraction): moving straight
/// away from its nearest boundary point, the first roadmap arc bounding that point's Voronoi
/// region.
struct Retraction {
  Point at;                            ///< the point on the arc
  search::NodeId a = search::no_node;  ///< the arc's ends
  search::NodeId b = search::no_node;
};

namespace clearance_detail {
struct Index;
}

/// The maximum-clearance roadmap of a FreeSpace.
///
/// Nodes: the vertices of the Voronoi diagram of F's boundary segments (each segment's open
/// interior and its endpoints are sites) that lie in F, and points sampled on its parabolic
/// edges. Edges of the diagram kept: those in F between two sites that are not a segment and its
/// own endpoint (those bisectors meet the boundary at that endpoint: clearance 0, no use to a
/// path keeping away from it). Straight edges (two points, two segments) are one arc; a
/// parabolic edge (a point and a segment) is sampled so that no chord is farther than
/// arc_tolerance from the arc, each chord an arc. Every arc is a straight segment in exact line
/// of sight (FreeSpace::line_of_sight; a chord refused is dropped, the rest of its edge kept),
/// with both ends free, its cost FreeSpace::segment_cost and its clearance
/// FreeSpace::clearance, computed once at build. Rays of the diagram (unbounded edges) lie
/// outside the bounds and are dropped. A node on F's boundary (a corner where a branch of the
/// medial axis ends, a pinch) is kept only when every turn between two of its arcs is free
/// (FreeSpace::turn_is_free), so that no path slips through a closed zero-width gap there; no
/// query end attaches to such a node. Nodes left without arcs are dropped. Arcs run both ways,
/// except where terrain heights with a finite climb limit make a direction unclimbable.
///
/// Inside each connected component of F the medial axis is connected (F retracts onto it), so
/// the roadmap joins every two points of one component that attach to it, up to arcs lost to
/// the tolerance (a chord refused by line of sight).
///
/// Complexity: the segment Delaunay graph of n boundary segments, O(n log n) expected; O(n)
/// edges, each checked with is_free at its ends, line_of_sight and clearance per chord; memory
/// O(nodes + arcs).
class ClearanceRoadmap final : public Discretisation {
 public:
  /// Builds the roadmap over space, which must outlive it.
  /// @throws InputError naming clearance.arc_tolerance (negative or not finite),
  ///         clearance.max_nodes (0, or a roadmap that would have more nodes),
  ///         clearance.max_build_seconds (not positive) or space.max_build_seconds (the build
  ///         ran out of time).
  explicit ClearanceRoadmap(const FreeSpace& space, ClearanceOptions options = {});
  ~ClearanceRoadmap() override;
  ClearanceRoadmap(ClearanceRoadmap&&) noexcept;
  ClearanceRoadmap& operator=(ClearanceRoadmap&&) noexcept;

  std::string_view method() const override { return "clearance"; }
  std::string_view graph_noun() const override { return "clearance roadmap"; }
  std::size_t node_count() const override { return position_.size(); }
  Point node_position(search::NodeId n) const override { return position_[n]; }
  /// The nearest nodes p sees: nodes in order of distance from p, each kept when the straight
  /// motion between it and p is valid (FreeSpace::traversable, in the given direction), until
  /// attach_count are kept, or at least one is and 4 x attach_count were tried, or every node
  /// was. Nodes on the boundary are never attached. Each arc's cost is FreeSpace::segment_cost.
  /// The nodes come nearest first from rings of cells of a BoxIndex over them (measured: 3 to
  /// 8 us per point from warehouse.yaml to a 512 x 512 MovingAI map of 129,000 nodes, where a
  /// sorted scan of every node took 0.05 to 1.4 ms).
  void attach(Point p, AttachDirection direction, std::vector<Attachment>& out) const override;
  std::string unattached_reason(std::string_view which) const override;
  const search::ComponentLabels* components() const override { return &components_; }
  /// The arcs, and the nodes that are vertices of the diagram (not the arc samples).
  Primitives primitives() const override;
  /// "812 nodes on the medial axis of 214 boundary edges (...)".
  std::string summary() const override;

  /// How many nodes attach() looks for.
  static constexpr std::size_t attach_count = 8;

  /// Euclidean distance to the goal times the cheapest cost multiplier: admissible.
  auto heuristic(std::span<const Attachment> /*goals*/, Point goal) const {
    return [this, goal](search::NodeId n) { return min_cost_ * distance(position_[n], goal); };
  }
  /// SearchGraph: every arc from n, as (to, cost).
  template <class F>
  void for_each_neighbour(search::NodeId n, F&& f) const {
    for (std::uint32_t k = first_[n]; k < first_[n + 1]; ++k) f(arcs_[k].to, arcs_[k].cost);
  }
  /// Every arc from n, as f(to, cost, clearance).
  template <class F>
  void for_each_arc(search::NodeId n, F&& f) const {
    for (std::uint32_t k = first_[n]; k < first_[n + 1]; ++k)
      f(arcs_[k].to, arcs_[k].cost, arcs_[k].clearance);
  }
  /// The clearance of node n's position (FreeSpace::clearance of the point).
  double node_clearance(search::NodeId n) const { return node_clearance_[n]; }
  /// Whether query ends attach to n (it lies off the boundary).
  bool attachable(search::NodeId n) const { return node_clearance_[n] > boundary_margin_; }
  /// Undirected edges (each arc pair once; where moves are one way, the pairs with either arc).
  std::size_t edge_count() const { return edges_.size(); }
  std::size_t arc_count() const { return arcs_.size(); }
  const ClearanceBuildStats& build_stats() const { return stats_; }
  const ClearanceOptions& options() const { return options_; }
  const FreeSpace& space() const { return *space_; }

  /// Where p retracts onto the roadmap: from p's nearest boundary point q straight away from q
  /// until the first arc that lies on the boundary of the Voronoi region of q's site (the segment
  /// q lies on, or the vertex q is); the motion from p to there keeps p's own clearance, growing.
  /// Nothing when p lies on the boundary, F has no boundary, or no arc of that region is met
  /// (one of its arcs was dropped). Not checked for line of sight: the caller checks the motion.
  std::optional<Retraction> retraction(Point p) const;

 private:
  struct Arc {
    search::NodeId to;
    double cost;
    double clearance;
  };
  struct Edge {
    search::NodeId a, b;
    std::uint32_t site_a, site_b;  // the two sites of the diagram's edge it lies on
  };

  const FreeSpace* space_;
  ClearanceOptions options_;
  std::vector<Point> position_;
  std::vector<double> node_clearance_;
  std::vector<std::uint8_t> vertex_;  // per node: a vertex of the diagram (else a sample)
  std::vector<std::uint32_t> first_;  // CSR: node n's arcs are arcs_[first_[n] .. first_[n+1])
  std::vector<Arc> arcs_;
  std::vector<Edge> edges_;
  std::vector<std::uint32_t> site_first_;  // CSR: the edges along each site's region
  std::vector<std::uint32_t> site_edges_;
  search::ComponentLabels components_;
  double min_cost_ = 1.0;
  double boundary_margin_ = 0.0;  // nodes at most this far from the boundary lie on it
  bool directed_ = false;
  ClearanceBuildStats stats_;
  std::unique_ptr<const clearance_detail::Index> index_;
};

/// The maximum-clearance method: the roadmap above, searched its own way.
///
/// What a query optimises, exactly: over the paths from start to goal made of (a) connectors
/// from the start to roadmap nodes, (b) roadmap arcs, (c) connectors from roadmap nodes to the
/// goal, and (d) the straight segment from start to goal when it is a valid motion, first the
/// bottleneck B, the path's least arc clearance (FreeSpace::clearance of each segment),
/// maximised; then the cost (sum of FreeSpace::segment_cost) among the paths whose every arc has
/// clearance at least B (1 - 1e-9), minimised. The connectors of an end are the arcs of attach()
/// (its nearest visible nodes) and its retraction (ClearanceRoadmap::retraction): the segment to
/// the point where it meets the roadmap, then along that arc's chord to either of its ends,
/// each piece checked with FreeSpace::traversable. With the retraction, a path keeping
/// clearance c between two points of one component of F has a roadmap counterpart keeping at
/// least c, up to about arc_tolerance (the bisectors between a segment and its own
/// endpoints are the only edges of the diagram left out, and no retraction crosses them).
///
/// The bottleneck comes from a widest-path search (Dijkstra's algorithm maximising the least
/// clearance, popping the widest open node first), the cost from the library's A*
/// (search::AStar) over the arcs of clearance >= B (1 - 1e-9) with the query's search options
/// (weight, limits, partial fallback, beam width), the heuristic Euclidean distance times the
/// cheapest cost multiplier. The expansion limit applies to each of the two searches, the time
/// and cost limits to the query (the cost limit to the second search only); RawPath::stats are
/// the two searches' together. When the widest search reaches no goal (a limit, or none is
/// reachable), a partial fallback runs A* over every arc. The RawPath's message states the
/// bottleneck of the returned path: "least clearance 0.83 (the largest any roadmap path
/// keeps)", the number as shortest_text writes it.
///
/// Complexity per query: the widest search settles every node reachable more widely than the
/// bottleneck (at worst O((V + E) log V) for V nodes and E arcs), then A* over the arcs as
/// wide; on a 512 x 512 MovingAI map (129,000 nodes) a query takes about 25 ms.
///
/// find_path_to_any: the widest path to any goal of the set gives B; A* then searches towards
/// every goal over the arcs of clearance >= B (1 - 1e-9) and returns the cheapest goal reached
/// so. reach: the driver's reach over every arc (cost-limited Dijkstra), attaching with attach().
/// No corridors: smoothers that need one leave the path alone, and every other smoother trades
/// clearance for length (use smoother none to keep the path as optimised).
///
/// @throws whatever ClearanceRoadmap's constructor throws
std::unique_ptr<Method> make_clearance_method(const FreeSpace& space,
                                              const ClearanceOptions& options);

}  // namespace polynav
