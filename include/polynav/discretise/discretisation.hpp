#pragma once
/// @file
/// What every discretisation (grid, quadtree, visibility graph, navigation mesh) offers the
/// planner. Each one is a search graph over which the one A* runs with the discretisation's own
/// concrete types; virtual dispatch happens once per query (choosing a method by name), never
/// per expansion.

#include <cstddef>
#include <string_view>
#include <vector>

#include "polynav/geometry.hpp"
#include "polynav/search/search_result.hpp"

namespace polynav {

class SvgCanvas;

namespace search {
struct SearchOptions;
}

/// Per-query options of a discretisation's search.
struct QueryOptions {
  const search::SearchOptions* search = nullptr;  ///< null: plain A*
  bool record_expanded = false;                   ///< fill RawPath::expanded (for pictures)
};

/// A path through a discretisation, before smoothing.
struct RawPath {
  search::SearchStatus status = search::SearchStatus::invalid_query;
  std::string message;        ///< one line on what happened (why not found, which limit)
  std::vector<Point> points;  ///< start .. goal (found) or start .. closest node (partial)
  double graph_cost = 0.0;    ///< the cost the search minimised (the graph's own arc costs)
  search::SearchStats stats;
  std::vector<Point> expanded;  ///< positions of the expanded nodes, when requested
};

class Discretisation {
 public:
  virtual ~Discretisation() = default;
  /// The method's name as the command line spells it ("grid", "visgraph", ...).
  virtual std::string_view method() const = 0;
  /// Nodes of the search graph (without a query's start and goal).
  virtual std::size_t node_count() const = 0;
  /// Searches from start to goal. @pre both are free points of the FreeSpace it was built on.
  virtual RawPath find_path(Point start, Point goal, const QueryOptions& options) = 0;
  /// Draws the discretisation (cells, graph edges) into the canvas's current group.
  virtual void draw(SvgCanvas& canvas) const = 0;
};

}  // namespace polynav
