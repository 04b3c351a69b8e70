#pragma once
/// @file
/// Approximately cheapest paths through weighted terrain (regions with cost multipliers), where
/// optimal paths bend at region outlines by Snell's law and no graph of corners holds them.
///
/// Free space is triangulated with every region outline as a constraint (NavPartition without
/// merging), so each triangle has one cost multiplier. Steiner points are placed on every edge
/// between two free triangles in a geometric progression away from each end, after Aleksandrov,
/// Maheshwari and Sack, "Determining approximate shortest paths on weighted polyhedral
/// surfaces", J. ACM 52(1), 2005. Every two points on the boundary of one triangle are joined by
/// the straight segment between them, which lies in the (closed, convex, free) triangle and
/// costs its multiplier times its length (along a shared edge, the multiplier FreeSpace gives
/// that edge). The one A* searches that graph; the path's bend points are then slid along their
/// edges to lower its exact cost (the refraction the graph only approximates).
///
/// Each query may also get a certified lower bound on the optimum (WeightedGraph::lower_bound):
/// the cheapest walk in a graph whose nodes are the vertices and the intervals between
/// consecutive Steiner points, with arcs costing the least multiplier of a triangle times the
/// least distance between two of its boundary pieces. Every path in free space passes through
/// such pieces in turn, each step costing at least that, so the bound holds for any path, with
/// no assumption on the placement.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "polynav/discretise/discretisation.hpp"
#include "polynav/discretise/navmesh/partition.hpp"
#include "polynav/geometry.hpp"
#include "polynav/kernel/build_clock.hpp"
#include "polynav/search/graph.hpp"

namespace polynav {

class FreeSpace;
class Method;
class QueryWorkspace;

/// The `weighted` method's options (the registry's `weighted.*`).
struct WeightedOptions {
  /// The approximation parameter: Steiner points on an edge lie at distances growing by the
  /// factor 1 + epsilon x sin(the smallest angle at the edge's ends) / 2 from each end, so the
  /// points, the graph and the search grow about as (1 / epsilon) log(1 / epsilon) per edge.
  /// [Limit: > 0, finite]
  double epsilon = 0.1;
  /// Budget on the Steiner points: a placement needing more is refused before it is stored,
  /// with the count. [Limit: >= 1]
  std::size_t max_points = 1'000'000;
  /// Slide the path's bend points along their edges to lower its exact cost (golden-section
  /// search per point, a few sweeps); the path's cost never rises and it stays valid.
  bool refine = true;
  /// Compute the certified lower bound for each query (a second search, over the intervals) in
  /// weighted scenes (FreeSpace::weighted); without regions the visibility graph is exact. Off
  /// by default: that search has no heuristic and takes most of a query's time (about 7x the
  /// path's own search on terrain.yaml at epsilon 0.1).
  bool lower_bound = false;
  /// Wall-clock budget of the build (BuildClock). The planner passes the free space's.
  /// [Units: s] [Limit: > 0; infinity for none]
  double max_build_seconds = default_max_build_seconds;
};

/// Counters of one build.
struct WeightedBuildStats {
  std::size_t triangles = 0;  ///< free triangles (each of one cost multiplier)
  std::size_t vertices = 0;   ///< triangle vertices that are nodes
  std::size_t points = 0;     ///< Steiner points on the edges between free triangles
  std::size_t arcs = 0;       ///< arcs of the graph (implicit: none is stored)
  double build_ms = 0.0;
};

/// The Steiner graph over a triangulation of free space by cost (see the file's comment).
///
/// Guarantee, stated as proved in weighted_graph.cpp: a path that crosses triangle edges at
/// points at least the vicinity radius from their ends (and whose first and last pieces cross
/// into triangles no cheaper than the start's and goal's) is matched by a graph path at most
/// (1 + epsilon) times as costly; passages nearer a vertex add at most twice the vicinity radius
/// times the dearer multiplier there, per vertex passed. Heights with a climb limit are
/// honoured (arcs that climb too high are left out) but not covered by that bound. The per-query
/// lower bound (lower_bound()) needs no assumption at all.
class WeightedGraph final : public Discretisation {
 public:
  /// Builds the triangulation and places the points over space, which must outlive it.
  /// @throws InputError (key "weighted.epsilon") for epsilon not > 0 and finite, (key
  /// "weighted.max_points") when the placement needs more points than the budget, whatever
  /// NavPartition throws, (key "space.max_build_seconds") past the time budget.
  WeightedGraph(const FreeSpace& space, WeightedOptions options = {});

  std::string_view method() const override { return "weighted"; }
  std::string_view graph_noun() const override { return "weighted Steiner graph"; }
  std::size_t node_count() const override { return nodes_.size(); }
  Point node_position(search::NodeId n) const override { return nodes_[n]; }
  /// The boundary points of the triangles containing p, with exact segment costs.
  void attach(Point p, AttachDirection direction, std::vector<Attachment>& out) const override;
  std::string unattached_reason(std::string_view which) const override;
  /// The cost of the straight segment from start to goal when they share a triangle (and it is
  /// a valid motion), else nothing. Not direct_cost(): going round through cheaper triangles may
  /// still pay, so the method weighs it against the search's path.
  std::optional<double> same_triangle_cost(Point start, Point goal) const;
  const search::ComponentLabels* components() const override { return nullptr; }
  std::string summary() const override;
  Primitives primitives() const override;

  /// Straight-line distance times the cheapest multiplier: admissible and consistent.
  auto heuristic(std::span<const Attachment> /*goals*/, Point goal) const {
    return [this, goal](search::NodeId n) { return min_cost_ * distance(nodes_[n], goal); };
  }
  /// SearchGraph: every other boundary point of every triangle node n lies on, computed on the
  /// fly (the arcs are never stored).
  template <class F>
  void for_each_neighbour(search::NodeId n, F&& f) const {
    for (std::uint32_t k = node_face_first_[n]; k < node_face_first_[n + 1]; ++k) {
      const FaceSlot slot = node_faces_[k];
      const std::uint32_t first = face_first_[slot.face], last = face_first_[slot.face + 1];
      const std::uint8_t mine = face_sides_[first + slot.index];
      const Point p = nodes_[n];
      for (std::uint32_t j = first; j < last; ++j) {
        const search::NodeId m = face_nodes_[j];
        if (m == n) continue;
        const std::uint8_t common = std::uint8_t(mine & face_sides_[j]);
        const double c =
            common == 0 ? face_cost_[slot.face] : side_cost_[3 * slot.face + side_of(common)];
        if (!face_flat_[slot.face] && !climbable(p, nodes_[m])) continue;
        f(m, c * distance(p, nodes_[m]));
      }
    }
  }

  /// The certified lower bound on the cost of every path in free space from start to goal (see
  /// the file's comment), or nothing when an end lies in no triangle. Dijkstra's algorithm over
  /// the intervals, its state kept in the workspace.
  std::optional<double> lower_bound(Point start, Point goal, QueryWorkspace& workspace) const;
  /// The path start, the positions of `nodes`, end, with each Steiner point slid along its edge
  /// to lower the exact cost (golden-section search per point, sweeps until no gain): the
  /// refraction the graph only approximates. The result is never costlier than the unrefined
  /// path and every segment is a valid motion; where a refined path would not be, the unrefined
  /// one is returned.
  std::vector<Point> refine(Point start, std::span<const search::NodeId> nodes, Point end) const;

  const WeightedOptions& options() const { return options_; }
  const WeightedBuildStats& build_stats() const { return stats_; }
  const FreeSpace& space() const { return *space_; }
  /// The triangles (for tests and pictures).
  const NavPartition& partition() const { return partition_; }
  /// The cheapest cost multiplier of any triangle.
  double min_cost() const { return min_cost_; }

 private:
  struct FaceSlot {
    std::uint32_t face;
    std::uint32_t index;  // the node's position in the face's list
  };
  static int side_of(std::uint8_t mask) { return (mask & 1) ? 0 : (mask & 2) ? 1 : 2; }
  bool climbable(Point a, Point b) const;
  // The triangles containing p.
  void locate(Point p, std::vector<std::uint32_t>& out) const { partition_.locate(p, out); }

  const FreeSpace* space_;
  WeightedOptions options_;
  NavPartition partition_;
  WeightedBuildStats stats_;
  double min_cost_ = 1.0;
  bool has_heights_ = false;
  std::vector<Point> nodes_;  // partition vertices first, then the Steiner points by edge
  std::size_t vertex_nodes_ = 0;
  // Per face (triangle): its boundary nodes, face_nodes_[face_first_[f] .. face_first_[f + 1]),
  // each with the sides it lies on (bit k: the side from vertex k to vertex k + 1).
  std::vector<std::uint32_t> face_first_;
  std::vector<search::NodeId> face_nodes_;
  std::vector<std::uint8_t> face_sides_;
  std::vector<double> face_cost_;
  std::vector<double> side_cost_;  // 3 per face: the multiplier along each side
  // Per face, whether no arc in it can climb: every triangle touching it has its height (or no
  // climb limit applies), so FreeSpace::climbable need not be asked.
  std::vector<std::uint8_t> face_flat_;
  // Per node, the faces it lies on.
  std::vector<std::uint32_t> node_face_first_;
  std::vector<FaceSlot> node_faces_;
  // Per Steiner point (node - vertex_nodes_), the portal it lies on.
  std::vector<std::uint32_t> point_portal_;
  // Per portal, its first Steiner point's node and its point count; points run from
  // portal(k).a to portal(k).b.
  std::vector<std::uint32_t> portal_first_point_;
  std::vector<std::uint32_t> portal_points_;
  // The lower bound's pieces per face: vertices (a == b) and intervals, as element ids
  // (vertices: their lower-bound vertex id; interval j of portal k: interval_first_[k] + j
  // after the vertices) with their segments, and the least multiplier of each face.
  std::vector<std::uint32_t> lb_face_first_;
  std::vector<std::uint32_t> lb_face_elements_;
  std::vector<std::uint8_t> lb_face_sides_;        // the sides each lies on, as face_sides_
  std::vector<Segment> lb_segments_;               // per element
  std::vector<std::uint32_t> lb_interval_portal_;  // per interval (element - vertex_nodes_)
  std::vector<std::uint32_t> lb_element_face_first_;
  std::vector<FaceSlot> lb_element_faces_;
  std::vector<double> lb_face_cost_;
};

/// The `weighted` method: the graph above searched by the query driver's A*, each path refined
/// and given its lower bound (RawPath::lower_bound). @throws whatever WeightedGraph throws
std::unique_ptr<Method> make_weighted_method(const FreeSpace& space,
                                             const WeightedOptions& options);

}  // namespace polynav
