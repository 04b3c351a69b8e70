#pragma once
/// @file
/// What every discretisation (grid, quadtree, visibility graph, navigation mesh) offers the query
/// driver (discretise/query.hpp). A discretisation is immutable once built: const data that any
/// number of threads may query at once, each with its own search state. It is a search graph (the
/// SearchGraph concept: node_count() and a templated for_each_neighbour), over which the one A*
/// runs with the discretisation's own concrete type; virtual dispatch happens once per query
/// (attaching the start and goal, naming the method), never per expansion.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "polynav/discretise/primitives.hpp"
#include "polynav/geometry.hpp"
#include "polynav/search/components.hpp"
#include "polynav/search/graph.hpp"
#include "polynav/search/search_result.hpp"

namespace polynav {

/// An arc between a query's free point and a node of the discretisation, with its exact cost.
struct Attachment {
  search::NodeId node = search::no_node;
  double cost = 0.0;
};

/// Which way an attachment runs: from the point to nodes (a start) or from nodes to the point (a
/// goal). The two differ where moves are one way (terrain heights with a climb limit).
enum class AttachDirection : std::uint8_t { from_point, to_point };

/// What a discretisation built for the version of a scene after an edit may take from the one
/// built, with the same options, for the version before it (EditablePlanner): that
/// discretisation, and the boxes of the scene the edit changed (edited_boxes). Outside the
/// edit's extent in the free spaces before and after it (FreeSpace::edit_extent), free space,
/// its costs and heights are what they were, bit for bit.
template <class D>
struct EditedFrom {
  const D* before = nullptr;
  std::vector<Box> changed;

  /// Whether the closed box `b` comes within `reach` of a changed box.
  bool near(const Box& b, double reach) const {
    for (const Box& c : changed)
      if (b.min.x <= c.max.x + reach && c.min.x - reach <= b.max.x && b.min.y <= c.max.y + reach &&
          c.min.y - reach <= b.max.y)
        return true;
    return false;
  }
};

class Discretisation {
 public:
  virtual ~Discretisation() = default;
  /// The method's name as the command line spells it ("grid", "visgraph", ...).
  virtual std::string_view method() const = 0;
  /// Nodes of the search graph (without a query's start and goal).
  virtual std::size_t node_count() const = 0;
  /// Where node n lies: the point a raw path passes through at n. @pre n < node_count()
  virtual Point node_position(search::NodeId n) const = 0;
  /// The arcs joining the free point p to the graph, into out (cleared first); empty when p joins
  /// no node. Each arc is a valid straight motion with its exact cost. @pre p is free
  virtual void attach(Point p, AttachDirection direction, std::vector<Attachment>& out) const = 0;
  /// The message for an end that attach() joined to nothing; `which` is "start" or "goal".
  virtual std::string unattached_reason(std::string_view which) const = 0;
  /// What an end joined to nothing means: no_path where attach() sees everything a path could
  /// use (the visibility graph), invalid_query where the discretisation is too coarse there.
  virtual search::SearchStatus unattached_status() const {
    return search::SearchStatus::invalid_query;
  }
  /// The graph named in messages: "grid", "visibility graph", ...
  virtual std::string_view graph_noun() const = 0;
  /// When the straight segment from start to goal is itself this method's answer (the
  /// visibility graph: the goal in sight), its cost; otherwise nothing. @pre both are free
  virtual std::optional<double> direct_cost(Point start, Point goal) const {
    (void)start;
    (void)goal;
    return std::nullopt;
  }
  /// Connected components of the graph, when its arcs run both ways (so that different labels
  /// prove that no path exists); null otherwise.
  virtual const search::ComponentLabels* components() const = 0;
  /// The region node n stands for (its cell, polygon or leaf), empty when a node is a point;
  /// pictures shade it.
  virtual Ring node_region(search::NodeId n) const {
    (void)n;
    return {};
  }
  /// The points, strictly between the positions of two nodes joined by an arc, that the motion
  /// along that arc passes through, appended to out; none when the motion is the straight
  /// segment between them (the default). A method whose arcs bend (centre to centre of two
  /// regions through their shared side) lists the bends here, and its arc cost is the exact cost
  /// of that polyline.
  virtual void arc_points(search::NodeId from, search::NodeId to, std::vector<Point>& out) const {
    (void)from;
    (void)to;
    (void)out;
  }
  /// The portals crossed by the raw path from start through the nodes of path to end (the goal,
  /// or the last node's position when the path stops short of it), in order: the shared sides of
  /// consecutive cells or polygons. Each is oriented as seen in the direction of travel:
  /// Segment::a on the left, Segment::b on the right (a point for a diagonal step through a
  /// corner). A funnel pass pulls a path taut through them. Nothing when the method has no
  /// regions, or cannot state this path's corridor exactly (never a wrong one).
  virtual std::optional<std::vector<Segment>> corridor(Point start,
                                                       std::span<const search::NodeId> path,
                                                       Point end) const {
    (void)start;
    (void)path;
    (void)end;
    return std::nullopt;
  }
  /// Whether corridor() describes this method's paths: its nodes stand for regions (cells,
  /// polygons) or lie on their boundaries, and a path's corridor, with the start's and goal's own
  /// regions, contains it. An empty corridor then means start and goal share a region.
  virtual bool has_corridors() const { return false; }
  /// Whether queries search a graph that reaches few of the nodes (search::SparseSearchGraph:
  /// jump point search), so that a workspace is prepared with a slot per node instead of a
  /// record per node (Method::prepare).
  virtual bool sparse_search() const { return false; }
  /// One line on the built structure for people ("1641 convex polygons from 8042 triangles"),
  /// or empty when node_count() says it all.
  virtual std::string summary() const { return {}; }
  /// What to draw: cells, polygons, graph edges, nodes (io/plan_picture.hpp draws them).
  virtual Primitives primitives() const = 0;
};

}  // namespace polynav
