#pragma once
/// @file
/// Hierarchical search over the navigation mesh: `navmesh.search=hierarchical`.
///
/// The ideas of HPA* (Botea, Müller and Schaeffer, "Near Optimal Hierarchical Path-Finding",
/// Journal of Game Development 1(1), 2004; on the grid: hierarchical_grid.hpp) applied to regions
/// of the mesh's polygons, over the mesh's own search graph (NavMesh, any `navmesh.nodes`):
///
/// - regions: the mesh's bounding box is cut into squares sized so that each holds about
///   `navmesh.region` polygons (side sqrt(area * region / polygons)); the graph nodes are grouped
///   by the square their position lies in, and each group is split into its connected pieces
///   (arcs with both ends in the square), so that every region is connected;
/// - transitions (`navmesh.transitions`): with `all` (default), every node with an arc to another
///   region, and the graph's arcs between regions are the abstract graph's arcs between them;
///   with `entrances`, per pair of regions joined by arcs (an entrance), those arcs ordered along
///   the border: the ends of the middle one when the entrance spans less than half a square,
///   else of the two at its ends (the paper's rule), and the graph's arcs between any two
///   transitions of different regions. Both cover every crossing (a transition pair joins the
///   same two regions as each arc between them, and regions are connected), so a query finds a
///   path exactly when the graph search does;
/// - intra-region arcs: between the transitions of one region, the cost of the cheapest graph
///   path inside it (Dijkstra's algorithm inside the region, the graph's own arc costs, so weighted
///   terrain is respected).
///
/// A query attaches start and goals as the graph search does (NavMesh::attach; start and goal in
/// one polygon are joined straight), searches outwards inside the regions of their attachments
/// to those regions' transitions (and, start to goal, inside a region they share; a goal in
/// a neighbouring region is also searched for by A* inside the two regions, as the grid version
/// does for neighbouring clusters, so that a short query need not detour through a transition),
/// runs the one A* (search/astar.hpp) over the abstract graph with the mesh's own heuristic
/// (straight-line distance and ALT landmarks, admissible here since abstract costs are graph costs)
/// and refines each abstract arc by a local A* inside its region. The result is the node path of a
/// graph search, so the mesh's corridor (NavMesh::corridor) and the funnel apply as with
/// `navmesh.search=graph`.
///
/// With `all`, every crossing is a transition and the ends are joined to every transition of
/// their regions, so every graph path decomposes into abstract arcs: the abstract optimum is the
/// graph's optimum (up to rounding), not only near it; what is saved is the search through the
/// insides of regions, bought with the intra-region arcs (quadratic in a region's transitions).
/// With `entrances` paths are near optimal, as the paper's, never cheaper than the graph's.
///
/// Meshes whose moves are not usable both ways at the same cost (heights with a climb limit) are
/// refused (InputError naming navmesh.search), since goals are joined by searching from them.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "polynav/discretise/method.hpp"
#include "polynav/discretise/navmesh/navmesh.hpp"
#include "polynav/kernel/build_clock.hpp"

namespace polynav {

/// The navigation mesh with its regions and abstract graph (see the file comment). As a
/// discretisation it is the mesh (attach, components, corridors, pictures); summary() tells what
/// the abstraction holds and what it cost to build.
class HierarchicalNavMesh final : public Discretisation {
 public:
  /// @throws InputError naming navmesh.region when options.region < 1, naming navmesh.search
  ///         where moves are one way, naming space.max_build_seconds past the build budget, and
  ///         whatever NavMesh's constructor throws.
  HierarchicalNavMesh(const FreeSpace& space, const NavMeshOptions& options);

  const NavMesh& mesh() const { return mesh_; }
  std::string_view method() const override { return mesh_.method(); }
  std::string_view graph_noun() const override { return mesh_.graph_noun(); }
  std::size_t node_count() const override { return mesh_.node_count(); }
  Point node_position(search::NodeId n) const override { return mesh_.node_position(n); }
  void attach(Point p, AttachDirection direction, std::vector<Attachment>& out) const override {
    mesh_.attach(p, direction, out);
  }
  std::string unattached_reason(std::string_view which) const override {
    return mesh_.unattached_reason(which);
  }
  search::SearchStatus unattached_status() const override { return mesh_.unattached_status(); }
  std::optional<double> direct_cost(Point start, Point goal) const override {
    return mesh_.direct_cost(start, goal);
  }
  const search::ComponentLabels* components() const override { return mesh_.components(); }
  Ring node_region(search::NodeId n) const override { return mesh_.node_region(n); }
  void arc_points(search::NodeId from, search::NodeId to, std::vector<Point>& out) const override {
    mesh_.arc_points(from, to, out);
  }
  std::optional<std::vector<Segment>> corridor(Point start, std::span<const search::NodeId> path,
                                               Point end) const override {
    return mesh_.corridor(start, path, end);
  }
  bool has_corridors() const override { return mesh_.has_corridors(); }
  Primitives primitives() const override { return mesh_.primitives(); }
  /// Searches from start to the cheapest reachable goal through the abstraction; `reached_goal`
  /// is the index of the goal reached (goals.size() when none). Never throws for a bad query.
  RawPath find_path(Point start, std::span<const Point> goals, const QueryOptions& options,
                    QueryWorkspace& workspace, std::size_t& reached_goal) const;
  void prepare(QueryWorkspace& workspace) const;

  std::size_t region_count() const { return region_first_.size() - 1; }
  std::size_t transition_count() const { return nodes_.size(); }
  std::size_t arc_count() const { return abstract_.arc_count(); }
  /// The graph node of transition t.
  search::NodeId transition_node(search::NodeId t) const { return nodes_[t]; }
  /// Whether an arc of the graph joins regions r and q (r != q).
  bool adjacent(std::uint32_t r, std::uint32_t q) const;
  /// The region of graph node n.
  std::uint32_t region_of(search::NodeId n) const { return region_[n]; }
  /// Wall time of the abstraction's build (not the mesh's), in milliseconds.
  double build_ms() const { return build_ms_; }
  /// Memory of the abstraction, in bytes (the mesh's own not included).
  std::size_t bytes() const;
  /// The regions, transitions and arcs, the build time and memory, then the mesh's summary.
  std::string summary() const override;

  /// The abstract graph: node t is transition t.
  const search::CsrGraph& abstract() const { return abstract_; }
  /// The mesh's graph restricted to one region, or to two (r and r2).
  struct RegionView {
    const NavMesh* mesh;
    const std::uint32_t* region;
    std::uint32_t r, r2;
    bool holds(search::NodeId n) const { return region[n] == r || region[n] == r2; }
    std::size_t node_count() const { return mesh->node_count(); }
    template <class F>
    void for_each_neighbour(search::NodeId n, F&& f) const {
      mesh->for_each_neighbour(n, [&](search::NodeId to, double cost) {
        if (holds(to)) f(to, cost);
      });
    }
  };
  RegionView region_view(std::uint32_t r) const { return {&mesh_, region_.data(), r, r}; }
  RegionView pair_view(std::uint32_t r, std::uint32_t q) const {
    return {&mesh_, region_.data(), r, q};
  }
  /// One region with an extra node, `source` (the mesh's node count), whose arcs are the
  /// attachments of one end that lie in the region: searching from it searches from all of them.
  struct SourceView {
    RegionView region;
    std::span<const Attachment> ends;
    search::NodeId source;
    std::size_t node_count() const { return std::size_t{source} + 1; }
    template <class F>
    void for_each_neighbour(search::NodeId n, F&& f) const {
      if (n != source) {
        region.for_each_neighbour(n, f);
        return;
      }
      for (const Attachment& a : ends)
        if (region.holds(a.node)) f(a.node, a.cost);
    }
  };
  SourceView source_view(const RegionView& view, std::span<const Attachment> ends) const {
    return {view, ends, search::NodeId(mesh_.node_count())};
  }

 private:
  void build();

  BuildClock clock_;
  NavMesh mesh_;
  bool every_crossing_ = true;  // navmesh.transitions=all
  double side_ = 0.0;           // of the squares
  // Per graph node: its region.
  std::vector<std::uint32_t> region_;
  // Transitions, region by region: their graph nodes, and each region's first (one past the
  // last region's at the end).
  std::vector<search::NodeId> nodes_;
  std::vector<std::uint32_t> region_first_;
  // Pairs of regions joined by an arc, (r << 32 | q) both ways, sorted.
  std::vector<std::uint64_t> adjacent_;
  search::CsrGraph abstract_;
  std::size_t inter_arcs_ = 0;
  double build_ms_ = 0.0;
};

/// The navmesh method with navmesh.search=hierarchical. As a discretisation it is the mesh.
class HierarchicalNavMeshMethod final : public Method {
 public:
  HierarchicalNavMeshMethod(const FreeSpace& space, const NavMeshOptions& options)
      : h_(space, options) {}
  const Discretisation& discretisation() const override { return h_; }
  RawPath find_path(Point start, Point goal, const QueryOptions& options,
                    QueryWorkspace& workspace) const override {
    std::size_t reached = 0;
    return h_.find_path(start, std::span<const Point>(&goal, 1), options, workspace, reached);
  }
  RawPath find_path_to_any(Point start, std::span<const Point> goals, const QueryOptions& options,
                           QueryWorkspace& workspace, std::size_t& reached_goal) const override {
    return h_.find_path(start, goals, options, workspace, reached_goal);
  }
  Reach reach(Point from, double max_cost, QueryWorkspace& workspace) const override {
    return polynav::reach(h_.mesh(), from, max_cost, workspace);
  }
  void prepare(QueryWorkspace& workspace) const override { h_.prepare(workspace); }
  const HierarchicalNavMesh& get() const { return h_; }

 private:
  HierarchicalNavMesh h_;
};

}  // namespace polynav
