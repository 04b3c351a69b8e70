#pragma once
// Internal to space/: the index over the boundary edges of a FreeSpace, the shared uniform grid
// (kernel/box_index.hpp) with about one edge per cell, each edge listed in the cells a walk along
// it visits. Every query that needs "the edges around here" (point location, line of sight,
// turns, nearest point, box classification) goes through it; FreeSpace keeps a reference point
// of known status per cell on top of it, for point location.
//
// About one edge per cell, at most 4096 cells a side: fewer cells make walks shorter, more make
// each cell cheaper to scan (measured with bench_line_of_sight and bench_visibility_graph). It
// replaced an R-tree: a walk visits cells in order from the segment's start and can stop at the
// first edge that crosses it, where an R-tree query for the segment's box collects every edge in
// a long diagonal's box before the first one is tested (bench/bench_line_of_sight.cpp measures
// both shapes).

#include <cstdint>
#include <span>

#include "polynav/geometry.hpp"
#include "polynav/kernel/box_index.hpp"

namespace polynav::detail {

class EdgeGrid : public BoxIndex {
 public:
  EdgeGrid() = default;
  /// Lists the segments (by index) in the cells of a grid over `box`. Complexity: O(E + cells
  /// the edges span).
  EdgeGrid(std::span<const Segment> edges, const Box& box)
      : BoxIndex(edges.empty() ? Box{} : box, edges.size()) {
    assign_segments(edges);
  }

  /// The edges listed in a cell.
  std::span<const std::uint32_t> edges_in(std::size_t cell) const { return ids_in(cell); }
};

}  // namespace polynav::detail
