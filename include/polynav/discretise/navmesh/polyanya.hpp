#pragma once
/// @file
/// Polyanya: the Euclidean shortest path through the convex polygons of a navigation mesh's
/// partition (partition.hpp), without a graph and without preprocessing beyond the partition. After
/// M. Cui, D. Harabor and A. Grastien, "Compromise-free Pathfinding on a Navigation Mesh", IJCAI
/// 2017.
///
/// A search node is a root (the start, or a vertex where the path turns) and an interval: a
/// piece of a polygon edge every point of which the root sees in a straight line through the
/// polygons crossed so far, with the polygon beyond it still to enter. Expanding a node projects
/// the interval from its root through that polygon: the pieces of the polygon's other edges inside
/// the projection are observable successors (same root, same g); where an end of the interval is
/// a vertex at which a shortest path may turn (a reflex corner of free space), the pieces in the
/// shadow beyond it are non-observable successors rooted at that vertex. A* orders the nodes by
/// g + h, where h is the length of the shortest path from the root through the interval to the
/// goal (mirrored across the interval's line when the goal lies on the root's side), a lower
/// bound. A node with a single successor is expanded at once without going through the open list
/// (the paper's intermediate pruning), and a node whose root was reached before by a cheaper path
/// is dropped (root-level pruning: the shortest path's nodes have the least g at their roots).
/// A node entering a pocket without a goal is never made (dead-end pruning, generalised from
/// the paper's dead-end polygons to trees of them): a pocket is a set of polygons joined in a
/// tree and to the rest of the mesh by one edge only, and a path leaving it by the edge it
/// entered by is longer than the straight piece of that edge.
///
/// Exactness: intervals are closed, and each end of an interval is the crossing of an edge with
/// a ray from the root through a point given exactly (a mesh vertex, the start, or the previous
/// root behind a turn). Which side of a ray a vertex lies on, where a projection leaves a
/// polygon, whether an end is a vertex, and collinearity are all decided with
/// exact::orientation on those given points; only the ends' coordinates (used for h and
/// nowhere else) are rounded. Roots, and so the waypoints and g, are given points.
///
/// Turning points are the vertices of the partition (one per point and free sector,
/// NavPartition::corner_vertex) whose free sector is a chain of polygons ending at walls on both
/// sides and wider than 180 degrees; a path never turns inside free space or round a convex corner
/// of it. Polygons meeting only at a vertex are not adjacent, so zero-width gaps stay closed.
///
/// Costs of weighted regions are not seen: the path is the shortest, not the cheapest.
///
/// The Polyanya object is const after construction; the search state lives in a
/// PolyanyaWorkspace, one per thread.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "polynav/discretise/navmesh/partition.hpp"
#include "polynav/geometry.hpp"
#include "polynav/kernel/block_vector.hpp"
#include "polynav/search/astar.hpp"
#include "polynav/search/search_result.hpp"

namespace polynav {

/// The answer of one Polyanya search.
struct PolyanyaResult {
  search::SearchStatus status = search::SearchStatus::invalid_query;
  /// The limit that stopped the search (limit_reached); else none.
  search::SearchLimit limit = search::SearchLimit::none;
  double limit_value = 0.0;   ///< the value of that limit (search::SearchBudget::value_of)
  std::vector<Point> points;  ///< start, the vertices it turns at, the goal (when found)
  /// The path's corridor (when found): the polygon edges its search nodes entered polygons by,
  /// from the start's polygon to the goal's, each as crossed (Segment::a on the left), or the
  /// point where the path crosses one at a vertex it passes; less the leading and trailing ones
  /// the start or goal lies on (NavPartition::trim_ends). The funnel through it is the path again:
  /// the shortest path through those polygons is no longer, and none is shorter than this one.
  std::vector<Segment> corridor;
  double length = 0.0;          ///< Euclidean length of points
  std::size_t goal = 0;         ///< which goal was reached (found)
  search::SearchStats stats;    ///< expanded: nodes expanded, also those expanded at once
  std::vector<Point> expanded;  ///< the middle of each expanded node's interval, when asked
};

/// One search node: a root and an interval on the edge by which a polygon is entered. Its
/// priority (f = g + weight * h) is kept where nodes wait for their turn (the open list, a
/// successor list), not here: the pool keeps every node of a query, up to tens of thousands
/// (88 bytes each, against 104 with f and a goal of their own).
struct PolyanyaNode {
  Point left, right;  ///< the interval's ends as the root sees them (rounded where constructed)
  Point root;
  double g = 0.0;             ///< length of the path from the start to the root
  std::uint32_t root_id = 0;  ///< the root: a corner index, or the start
  /// Corner index d: the interval lies on edge d -> next(d). A final node, which lies on no
  /// edge, holds the goal it reaches here instead (goal()).
  std::uint32_t edge = 0;
  std::uint32_t parent = 0;  ///< the node it was generated from (index in the node pool)
  /// Each end lies on the ray from point la (ra) through point lb (rb): corner indices or the
  /// start; decisions about the projection are orientation tests against these given points.
  std::uint32_t la = 0, lb = 0, ra = 0, rb = 0;
  std::uint8_t flags = 0;

  std::uint32_t goal() const { return edge; }  ///< a final node's goal
};

/// The search state of one query at a time; keep one per thread (Polyanya::prepare sizes it).
struct PolyanyaWorkspace {
  BlockVector<PolyanyaNode> nodes;  // every node kept this query, by index; they never move
  struct Entry {
    double f, g;
    std::uint32_t node;
  };
  std::vector<Entry> open;  // binary heap on (f, then larger g)
  struct Successor {
    PolyanyaNode node;
    double f;  // g + weight * h
  };
  std::vector<Successor> successors;        // of the node being expanded
  std::vector<double> best_g;               // per turning point (vertex node)
  std::vector<std::uint32_t> best_stamp;    // best_g[v] is current when equal to stamp
  std::vector<std::uint32_t> goal_stamp;    // per polygon: holds a goal when equal to stamp
  std::vector<std::uint32_t> pocket_stamp;  // per polygon: its pocket holds a goal (= stamp)
  std::vector<std::pair<std::uint32_t, std::uint32_t>> goal_polygons;  // (polygon, goal)
  std::vector<std::uint32_t> located;
  std::uint32_t stamp = 0;
};

class Polyanya {
 public:
  /// Indexes the partition's polygons for the search (corner adjacency and turning points),
  /// O(corners). The partition must outlive this object.
  explicit Polyanya(const NavPartition& partition);

  /// Sizes ws for this partition, so that a query allocates nothing but the nodes it generates.
  void prepare(PolyanyaWorkspace& ws) const;

  /// The shortest path from start to the nearest of goals. @pre every point is free
  /// Honours weight (g + w·h: at most w times the shortest), max_cost, max_expansions and
  /// max_time; partial_fallback, beam_width and reopen_closed do not apply.
  void search(Point start, std::span<const Point> goals, const search::SearchOptions& options,
              bool record_expanded, PolyanyaWorkspace& ws, PolyanyaResult& out) const;

  const NavPartition& partition() const { return *partition_; }
  /// Vertices at which a path may turn.
  std::size_t turning_points() const;

 private:
  Point point(std::uint32_t id, Point start) const;
  // Successors of n into the polygon it enters, appended to ws.successors; finals for goals in
  // that polygon too.
  void expand(const PolyanyaNode& n, std::uint32_t index, Point start, std::span<const Point> goals,
              double weight, PolyanyaWorkspace& ws) const;
  // The successor turning at the nearer end of edge a -> b (a corner index; the edge has a
  // polygon beyond), which lies on a line through the root without holding it.
  void edge_on(std::uint32_t a, std::uint32_t b, Point root, double g, std::uint32_t parent,
               std::span<const Point> goals, double weight, PolyanyaWorkspace& ws) const;
  // The index of a pool node rooted at `corner` (with cost g) whose parent is node `index`
  // (`from`), made once per expansion and turn (via).
  std::uint32_t root_node(std::uint32_t& via, std::uint32_t corner, double g,
                          const PolyanyaNode& from, std::uint32_t index,
                          PolyanyaWorkspace& ws) const;
  double heuristic(const PolyanyaNode& n, std::span<const Point> goals) const;
  // Root-level pruning: whether a node rooted at corner c with cost g may be kept (and if so,
  // records g as the best).
  bool keep_root(std::uint32_t corner, double g, PolyanyaWorkspace& ws) const;
  // Dead-end pruning: whether entering polygon `to` from its neighbour `from` leads only into a
  // pocket without a goal.
  bool dead_end(std::uint32_t from, std::uint32_t to, const PolyanyaWorkspace& ws) const;

  const NavPartition* partition_;
  // The partition's own arrays, not copies. Per corner (polygon by polygon, counter-clockwise):
  // its point, its polygon and its vertex (NavPartition::corner_vertex); per polygon, its first
  // corner: polygon i's corners are first_[i] .. first_[i + 1].
  const Point* at_ = nullptr;
  const std::uint32_t* polygon_ = nullptr;
  const std::uint32_t* vertex_ = nullptr;
  const std::uint32_t* first_ = nullptr;
  std::vector<std::uint32_t> next_;  // the next corner of the same polygon
  // The corner of the polygon across edge c -> next(c) at which the same edge starts (so at
  // point next(c)); -1 for a wall.
  std::vector<std::int32_t> opposite_;
  std::vector<std::uint8_t> turn_;  // per vertex: a path may turn there
  // Per polygon of a pocket (a tree of polygons hanging off the rest of the mesh by one edge):
  // its neighbour on the way out of the pocket; -1 (as unsigned) elsewhere.
  std::vector<std::uint32_t> pocket_exit_;
};

}  // namespace polynav
