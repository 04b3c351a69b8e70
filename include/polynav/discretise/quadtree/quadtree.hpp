#pragma once
/// @file
/// The adaptive quadtree: square leaves that are large where free space is open and small near
/// its boundary, searched as a graph over the free leaves.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "polynav/discretise/discretisation.hpp"
#include "polynav/enum_names.hpp"
#include "polynav/kernel/build_clock.hpp"
#include "polynav/search/components.hpp"
#include "polynav/search/graph.hpp"

namespace polynav {

class FreeSpace;
class Quadtree;
class QuadtreeWalls;

/// Where the graph's nodes lie (QuadtreeOptions::nodes).
enum class QuadtreeNodes {
  centres,  ///< one node per free leaf, at its centre
  portals,  ///< one node per shared side, at its midpoint (and per free corner contact)
};

inline constexpr auto quadtree_nodes_names =
    enum_names(QuadtreeNodes::portals, "portals", QuadtreeNodes::centres, "centres");

/// A name of quadtree_nodes_names; throws InputError (key "quadtree.nodes") on anything else.
inline QuadtreeNodes parse_quadtree_nodes(std::string_view text) {
  return from_name(quadtree_nodes_names, text, "quadtree.nodes", "quadtree node placement");
}

struct QuadtreeOptions {
  /// Side of the smallest leaf. 0 = the grid's default cell (FreeSpace::native_cell_size: 1 for
  /// MovingAI maps, else the longest side of the free space / 256), so that the bottom cells are
  /// the cells of the grid method's default grid. [Limit: >= 0, finite] [Units: scene units]
  double min_cell = 0.0;
  /// Most levels below the root; when min_cell would need more, the bottom cells are larger.
  /// [Limit: 1 .. 30]
  int max_depth = 24;
  /// Also join leaves that touch only at a corner (when the corner is free and the turn through
  /// it is a valid motion).
  bool corners = false;
  /// Split leaves until every two leaves sharing a side differ by at most one level (2:1).
  bool balance = false;
  /// Node placement. `portals`: a node at the midpoint of every piece of side two free leaves
  /// share, arcs between every two nodes on the boundary of one free leaf (straight segments in
  /// a convex free leaf, with their exact cost), so the search's cost is the length of a path
  /// through the corridor it picks. `centres`: a node per free leaf, arcs centre to centre.
  QuadtreeNodes nodes = QuadtreeNodes::portals;
  /// Memory budget: a tree that would have more leaves (free and blocked) is refused, from an
  /// estimate made before anything is allocated and again while building. [Limit: > 0]
  std::size_t max_leaves = std::size_t{1} << 23;
  /// Wall-clock budget of the build, checked between its steps (BuildClock): a longer build
  /// stops with an InputError naming space.max_build_seconds. The planner passes the free
  /// space's (FreeSpace::max_build_seconds). [Units: s] [Limit: > 0; infinity for none]
  double max_build_seconds = default_max_build_seconds;
  /// Build by updating the tree of the version before an edit: when that tree has the same root
  /// and bottom cells (and neither is balanced), every tree node farther than a bottom cell from
  /// the edit's extent in the free spaces before and after it (FreeSpace::edit_extent) takes
  /// its leaves from the tree before instead of being classified again, and a leaf taken whole
  /// keeps the costs of its arcs between nodes at the same places (`portals` nodes). A build
  /// from scratch would give both the same: free space, costs and heights are the same there.
  /// Otherwise the tree is built whole. @pre update->before was built with these options over
  /// the free space of the scene before the edit. Not a text option; the built tree does not
  /// keep it.
  std::shared_ptr<const EditedFrom<Quadtree>> update{};
};

/// One leaf of the tree in units of the bottom cells: it covers cells [x, x + size) x
/// [y, y + size) with size = 2^(depth - level).
struct QuadtreeLeaf {
  std::uint32_t x = 0;
  std::uint32_t y = 0;
  std::uint8_t level = 0;
  bool free = false;
};

/// A region quadtree over a square root box whose bottom cells (side `cell_size()`) line up with
/// the grid method's cells: the root's lower-left corner is the grid's origin (the lower-left
/// corner of FreeSpace::bounds_box). A box is a free leaf when FreeSpace::classify calls it free
/// and its cost multiplier and height are uniform (cost_range, height_range); blocked when
/// classify calls it blocked; otherwise it is split, down to the bottom level, where a box that is
/// not wholly free is a blocked leaf. So every free leaf lies entirely in free space, decided
/// exactly, never by sampling.
///
/// With `centres` nodes, the nodes are the free leaves (node ids in Morton order); arcs join free
/// leaves sharing a piece of boundary of positive length, and with `corners` also leaves
/// touching only at a free corner. An arc's motion runs from centre to centre, straight when that
/// segment crosses the shared side, else bent at the point of the shared side nearest to it
/// (arc_points); its cost is the exact cost of that polyline (FreeSpace::segment_cost).
///
/// With `portals` nodes (the default), each piece of side two free leaves share (a portal) has a
/// node at its midpoint, which lies inside free space (both open leaves are free and no wall lies
/// there: a midpoint on a wall is no node), so every turn there is free. Arcs join every two
/// nodes on the boundary of one free leaf: the straight segment lies in the closed convex leaf,
/// its cost is exact. With `corners`, a corner where two free leaves touch only at a point is a
/// node when the turns between the two leaves through it are free (checked at the two widest
/// turns, along the leaves' sides, which bound every other). A free leaf without such nodes has a
/// node at its centre. Where moves are one way (heights with a finite max_climb), every portal
/// has two nodes at its midpoint, one per leaf, joined by arcs of length 0 in the directions the
/// step across it can be climbed.
///
/// Storage is a linear quadtree (Gargantini, "An effective way to represent quadtrees", CACM
/// 25(12), 1982): every leaf, free or blocked, is kept sorted by the Morton code of its
/// lower-left bottom cell, so the leaf containing a bottom cell is found by binary search, and
/// the neighbours across a side by walking along it.
class Quadtree final : public Discretisation {
 public:
  /// Builds the tree and its graph. Complexity: O(leaves log leaves) plus a classify per tree
  /// node. @throws InputError when the tree would exceed max_leaves (the message names
  ///         quadtree.max_leaves and quadtree.min_cell) or min_cell is not positive.
  Quadtree(const FreeSpace& space, QuadtreeOptions options);

  std::string_view method() const override { return "quadtree"; }
  std::string_view graph_noun() const override { return "quadtree"; }
  std::size_t node_count() const override { return centres_.size(); }
  Point node_position(search::NodeId n) const override { return centres_[n]; }
  /// A point joins the nodes of the free leaf containing it (straight segments inside the convex
  /// leaf); a point in no free leaf joins the nodes of the free leaves within two bottom cells
  /// that it sees.
  void attach(Point p, AttachDirection direction, std::vector<Attachment>& out) const override;
  std::string unattached_reason(std::string_view which) const override;
  /// Start and goal in one free leaf: the straight segment (inside the convex leaf; checked
  /// exactly where walls or climb limits exist).
  std::optional<double> direct_cost(Point start, Point goal) const override;
  const search::ComponentLabels* components() const override {
    return components_.size() > 0 ? &components_ : nullptr;
  }
  Ring node_region(search::NodeId n) const override;
  void arc_points(search::NodeId from, search::NodeId to, std::vector<Point>& out) const override;
  /// The shared side (or corner) of each two consecutive leaves the path passes through, oriented
  /// left to right as seen moving along the path: the funnel smoother pulls quadtree paths taut
  /// through them.
  std::optional<std::vector<Segment>> corridor(Point start, std::span<const search::NodeId> path,
                                               Point end) const override;
  bool has_corridors() const override { return true; }
  /// Free leaves as regions, blocked leaves shaded.
  Primitives primitives() const override;

  /// Euclidean distance to the goal times the cheapest cost multiplier: admissible.
  auto heuristic(std::span<const Attachment> /*goals*/, Point goal) const {
    return [this, goal](search::NodeId n) { return min_cost_ * distance(centres_[n], goal); };
  }
  /// SearchGraph: the arcs from leaf n.
  template <class F>
  void for_each_neighbour(search::NodeId n, F&& f) const {
    graph_.for_each_neighbour(n, f);
  }

  /// Every leaf, free and blocked, in Morton order; together they tile the root box.
  const std::vector<QuadtreeLeaf>& leaves() const { return leaves_; }
  /// The closed box of a leaf.
  Box leaf_box(const QuadtreeLeaf& leaf) const;
  /// The leaf of node n; for a portal node, the first of the two leaves it lies between.
  const QuadtreeLeaf& node_leaf(search::NodeId n) const { return leaves_[node_leaves_[n][0]]; }
  /// Indices into leaves() of the leaves node n belongs to: its leaf twice for a centre node (and
  /// for a portal node of one leaf, where moves are one way), else the two leaves whose shared
  /// side or corner it lies on.
  std::array<std::uint32_t, 2> node_leaves(search::NodeId n) const { return node_leaves_[n]; }
  /// The portal of node n: the shared side (or corner point) it lies on; for a centre node, the
  /// node's own position.
  Segment node_portal(search::NodeId n) const {
    return portal_.empty() ? Segment{centres_[n], centres_[n]} : portal_[n];
  }
  /// Number of free leaves (with centres nodes, node_count()).
  std::size_t free_leaf_count() const { return free_leaves_; }
  /// The node of the leaf containing bottom cell (cx, cy), or search::no_node when that leaf is
  /// blocked or the cell is outside the root.
  search::NodeId node_at_cell(std::int64_t cx, std::int64_t cy) const;
  /// The boxes (leaves, and the tree nodes split into them) this tree classified against the
  /// free space: every one when built whole, those near an edit when updated from the tree
  /// before it (QuadtreeOptions::update).
  std::size_t classified_boxes() const { return classified_boxes_; }
  /// Side of a bottom cell, levels below the root, the root box.
  double cell_size() const { return cell_; }
  int depth() const { return depth_; }
  Box root_box() const;
  const search::CsrGraph& graph() const { return graph_; }
  const QuadtreeOptions& options() const { return options_; }

 private:
  std::uint32_t side_cells(const QuadtreeLeaf& leaf) const {
    return std::uint32_t{1} << (depth_ - leaf.level);
  }
  double coord_x(std::int64_t cx) const { return origin_.x + double(cx) * cell_; }
  double coord_y(std::int64_t cy) const { return origin_.y + double(cy) * cell_; }
  /// Index into leaves_ of the leaf containing bottom cell (cx, cy). @pre inside the root
  std::size_t leaf_index(std::uint32_t cx, std::uint32_t cy) const;
  /// Calls f(leaf index, lo, hi) for each leaf across side `side` (0 east, 1 north, 2 west,
  /// 3 south) of leaf i, with [lo, hi) the shared interval in bottom cells along that side.
  template <class F>
  void for_each_side_neighbour(std::size_t i, int side, F&& f) const;
  /// The shared boundary of two touching leaves (a point when they touch at a corner).
  Segment shared_boundary(const QuadtreeLeaf& a, const QuadtreeLeaf& b) const;
  /// The bend of the motion between the centres of nodes a and b, if any.
  std::optional<Point> bend(search::NodeId a, search::NodeId b) const;
  /// The free leaf (index into leaves_) whose closed box contains p, if any.
  std::optional<std::size_t> free_leaf_at(Point p) const;
  /// Calls f(node) for each node of free leaf i (portals nodes).
  template <class F>
  void for_each_leaf_node(std::size_t i, F&& f) const {
    for (std::uint32_t k = leaf_node_start_[i]; k < leaf_node_start_[i + 1]; ++k) f(leaf_nodes_[k]);
  }
  // Splits the root down to the leaves; with `update`, the tree nodes farther than `reach` from
  // its changed boxes take their leaves from the tree before, and `kept` gets, per leaf, the
  // index of the same leaf in the tree before, or no_leaf.
  void build_tree(const FreeSpace& space, const QuadtreeWalls& walls, const BuildClock& clock,
                  const EditedFrom<Quadtree>* update, double reach,
                  std::vector<std::uint32_t>& kept);
  void balance_tree();
  void build_graph(const FreeSpace& space, const QuadtreeWalls& walls);
  // With `before`, the arcs inside a leaf kept whole from it (`kept`, from build_tree) take its
  // costs.
  void build_portal_graph(const FreeSpace& space, const QuadtreeWalls& walls,
                          const Quadtree* before, const std::vector<std::uint32_t>& kept);

  const FreeSpace* space_;
  QuadtreeOptions options_;
  Point origin_;
  double cell_ = 1.0;
  int depth_ = 0;
  std::vector<QuadtreeLeaf> leaves_;          // Morton order
  std::vector<std::uint64_t> codes_;          // Morton code of each leaf's lower-left cell
  std::vector<search::NodeId> node_of_leaf_;  // centres nodes: no_node for blocked leaves
  std::vector<std::array<std::uint32_t, 2>> node_leaves_;
  std::vector<Point> centres_;   // per node: its position
  std::vector<Segment> portal_;  // portals nodes: per node, the side or corner it lies on
  std::vector<std::uint32_t> leaf_node_start_;  // portals nodes: per leaf, into leaf_nodes_
  std::vector<search::NodeId> leaf_nodes_;
  std::size_t free_leaves_ = 0;
  std::size_t classified_boxes_ = 0;
  static constexpr std::uint32_t no_leaf = UINT32_MAX;  // build_tree's `kept`: not kept whole
  bool exact_checks_ = false;  // walls or climb limits: segments in a leaf are checked
  search::CsrGraph graph_;
  double min_cost_ = 1.0;
  search::ComponentLabels components_;
};

}  // namespace polynav
