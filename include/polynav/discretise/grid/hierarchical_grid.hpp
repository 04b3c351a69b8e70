#pragma once
/// @file
/// Hierarchical path-finding on the occupancy grid: the grid method with `grid.search=hpa`.
///
/// HPA* (Botea, Müller and Schaeffer, "Near Optimal Hierarchical Path-Finding", Journal of Game
/// Development 1(1), 2004) cuts the grid into square clusters of `grid.cluster` nodes a side and
/// builds, once, an abstract graph over a few "transition" nodes on the cluster borders:
///
/// - entrances: along each border between two side-by-side clusters, the maximal runs of node
///   pairs joined by a straight grid move across it; a run shorter than 6 gets one transition
///   pair in its middle, a longer one two, at its ends (the paper's rule and constant);
/// - inter-cluster arcs: each transition pair, joined by its grid move both ways;
/// - intra-cluster arcs: between the transitions of one cluster, the cost of the cheapest grid
///   path that stays inside it (Dijkstra's algorithm inside the cluster, the grid's own costs).
///
/// The paper's entrances assume that the free cells of an entrance are joined along the border,
/// which walls along cell sides, diagonal moves across cluster corners and knight moves break.
/// So after the entrances, every grid move that crosses a cluster border is checked: when no
/// transition pair joins the same two connected pieces of the two clusters (connected inside the
/// cluster), the move itself becomes a transition pair. Then any grid path can be rebuilt from
/// abstract arcs piece by piece, and a query finds a path whenever flat grid A* does.
///
/// A query joins its start and goals to the transitions of their clusters (Dijkstra inside the
/// cluster; a goal in the start's cluster also gets a direct arc when a path inside the cluster
/// joins them, as in the paper, and one in a neighbouring cluster when A* inside the box of the
/// two clusters finds a path, which the paper does not do: it keeps a short query across a
/// border from detouring through a transition at the far end of a wide entrance), searches the
/// abstract graph with the one A* (search/astar.hpp) and the grid's own heuristic, and refines each
/// arc of the abstract path into grid nodes with a local A* inside its cluster (no paths are
/// cached: the abstraction is the nodes and arcs only). The result is a grid path, valid move by
/// move, whose cost is what the abstract search minimised: never below the grid's optimum, usually
/// within a few percent of it (near optimal, as the paper says; no post-smoothing here, the
/// planner's smoothers apply as to any grid path).
///
/// Grids whose moves are not all usable both ways at the same cost (terrain heights with
/// space.max_climb) are refused, since the abstraction joins a goal through paths found from the
/// goal outwards; cells of different cost are used as they are (the intra-cluster costs are the
/// grid's costs, so only optimality suffers).

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "polynav/discretise/grid/occupancy_grid.hpp"
#include "polynav/discretise/method.hpp"

namespace polynav {

/// The occupancy grid with its HPA* abstraction (see the file comment). As a discretisation it
/// is the grid itself (attach, components, corridors, pictures); summary() tells what the
/// abstraction holds and what it cost to build.
class HierarchicalGrid final : public Discretisation {
 public:
  /// The paper's threshold: an entrance this wide or wider gets two transitions.
  static constexpr int wide_entrance = 6;

  /// Builds the grid and its abstraction with clusters of `cluster` nodes a side.
  /// @throws InputError naming grid.cluster when cluster < 2, naming grid.search when some
  ///         grid move is one-way or costs differ between its two directions, naming
  ///         space.max_build_seconds when the grid and its abstraction take longer than
  ///         grid.max_build_seconds, and whatever OccupancyGrid's constructor throws.
  HierarchicalGrid(const FreeSpace& space, GridOptions grid, int cluster);

  std::string_view method() const override { return grid_.method(); }
  std::string_view graph_noun() const override { return grid_.graph_noun(); }
  std::size_t node_count() const override { return grid_.node_count(); }
  Point node_position(search::NodeId n) const override { return grid_.node_position(n); }
  void attach(Point p, AttachDirection direction, std::vector<Attachment>& out) const override {
    grid_.attach(p, direction, out);
  }
  std::string unattached_reason(std::string_view which) const override {
    return grid_.unattached_reason(which);
  }
  const search::ComponentLabels* components() const override { return grid_.components(); }
  Ring node_region(search::NodeId n) const override { return grid_.node_region(n); }
  std::optional<std::vector<Segment>> corridor(Point start, std::span<const search::NodeId> path,
                                               Point end) const override {
    return grid_.corridor(start, path, end);
  }
  bool has_corridors() const override { return grid_.has_corridors(); }
  /// The cluster size, the transitions and arcs, the build time and the memory per grid node.
  std::string summary() const override;
  Primitives primitives() const override { return grid_.primitives(); }

  /// Searches from start to the cheapest reachable goal through the abstraction; `reached_goal`
  /// is the index of the goal reached (goals.size() when none). Never throws for a bad query.
  RawPath find_path(Point start, std::span<const Point> goals, const QueryOptions& options,
                    QueryWorkspace& workspace, std::size_t& reached_goal) const;
  /// Readies a workspace: the local searches' arrays over the grid, the abstract search's.
  void prepare(QueryWorkspace& workspace) const;

  const OccupancyGrid& grid() const { return grid_; }
  int cluster_size() const { return cluster_; }
  std::size_t cluster_count() const { return cluster_first_.size() - 1; }
  /// Abstract nodes (transitions) and arcs (inter- and intra-cluster, each direction counted).
  std::size_t transition_count() const { return cells_.size(); }
  std::size_t arc_count() const { return abstract_.arc_count(); }
  /// The grid node of transition t.
  search::NodeId transition_cell(search::NodeId t) const { return cells_[t]; }
  /// The cluster holding grid node n.
  std::uint32_t cluster_of(search::NodeId n) const {
    const auto x = std::uint32_t(n % across_), y = std::uint32_t(n / across_);
    return (y / std::uint32_t(cluster_)) * clusters_across_ + x / std::uint32_t(cluster_);
  }
  /// Wall time of the abstraction's build (not the grid's), in milliseconds.
  double build_ms() const { return build_ms_; }
  /// Memory of the abstraction, in bytes (the grid's own not included).
  std::size_t bytes() const;

  /// The abstract graph: node t is transition t.
  const search::CsrGraph& abstract() const { return abstract_; }

  /// The grid restricted to one cluster: the arcs of the grid between nodes of that cluster.
  struct ClusterView {
    const OccupancyGrid* grid;
    std::uint32_t across;
    std::uint32_t x0, y0, x1, y1;  // the cluster's nodes: x0 <= x < x1, y0 <= y < y1
    std::size_t node_count() const { return grid->node_count(); }
    template <class F>
    void for_each_neighbour(search::NodeId n, F&& f) const {
      // A node two or more steps inside the cluster has every neighbour in it (a knight move
      // goes two steps): no test per neighbour.
      const std::uint32_t nx = n % across, ny = n / across;
      if (nx >= x0 + 2 && nx + 2 < x1 && ny >= y0 + 2 && ny + 2 < y1) {
        grid->for_each_neighbour(n, f);
        return;
      }
      grid->for_each_neighbour(n, [&](search::NodeId to, double cost) {
        const std::uint32_t x = to % across, y = to / across;
        if (x >= x0 && x < x1 && y >= y0 && y < y1) f(to, cost);
      });
    }
  };
  ClusterView cluster_view(std::uint32_t c) const;
  /// The grid restricted to the box of two neighbouring clusters (side by side or diagonal: the
  /// box then holds the two others at their corner too).
  ClusterView pair_view(std::uint32_t c, std::uint32_t d) const;
  /// Whether clusters c and d differ and touch (at a side or a corner).
  bool neighbours(std::uint32_t c, std::uint32_t d) const;

 private:
  void build();

  // The build's budget (GridOptions::max_build_seconds), started before the grid: the grid and
  // its abstraction are one build.
  BuildClock clock_;
  OccupancyGrid grid_;
  int cluster_;
  std::uint32_t across_ = 0, down_ = 0;  // grid nodes per row, rows of nodes
  std::uint32_t clusters_across_ = 0, clusters_down_ = 0;
  // Transitions, numbered cluster by cluster: their grid nodes, and the first transition of each
  // cluster (one past the last cluster's at the end).
  std::vector<search::NodeId> cells_;
  std::vector<std::uint32_t> cluster_first_;
  search::CsrGraph abstract_;
  std::size_t inter_arcs_ = 0;
  double build_ms_ = 0.0;
};

/// The grid method with grid.search=hpa: a HierarchicalGrid, queried through its abstraction.
class HierarchicalGridMethod final : public Method {
 public:
  HierarchicalGridMethod(const FreeSpace& space, GridOptions grid, int cluster)
      : d_(space, grid, cluster) {}
  const Discretisation& discretisation() const override { return d_; }
  RawPath find_path(Point start, Point goal, const QueryOptions& options,
                    QueryWorkspace& workspace) const override {
    std::size_t reached = 0;
    return d_.find_path(start, std::span<const Point>(&goal, 1), options, workspace, reached);
  }
  RawPath find_path_to_any(Point start, std::span<const Point> goals, const QueryOptions& options,
                           QueryWorkspace& workspace, std::size_t& reached_goal) const override {
    return d_.find_path(start, goals, options, workspace, reached_goal);
  }
  Reach reach(Point from, double max_cost, QueryWorkspace& workspace) const override {
    return polynav::reach(d_.grid(), from, max_cost, workspace);
  }
  void prepare(QueryWorkspace& workspace) const override { d_.prepare(workspace); }
  const HierarchicalGrid& get() const { return d_; }

 private:
  HierarchicalGrid d_;
};

}  // namespace polynav
