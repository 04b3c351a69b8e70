#pragma once
// Geometry of a cell map: the boundary of its free cells as rings, and its blocked cells as
// row runs. Shared by the readers of raster formats.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "polynav/geometry.hpp"
#include "polynav/scene/scene.hpp"

namespace polynav {

// A cell map's blocked cells a bit each, every row starting a word: cell (cx, cy) (cy = 0 the
// top row) is bit cx % 64 of bits[cy * words + cx / 64]; the bits past a row's end are clear.
// The form the tracing and the runs read; a reader may make it as it reads the cells.
struct BlockedBits {
  int width = 0;
  int height = 0;
  std::size_t words = 0;  // per row: (width + 63) / 64
  std::vector<std::uint64_t> bits;

  BlockedBits(int w, int h)
      : width(w), height(h), words((std::size_t(w) + 63) / 64), bits(std::size_t(h) * words, 0) {}
  const std::uint64_t* row(int cy) const { return bits.data() + std::size_t(cy) * words; }
  std::uint64_t* row(int cy) { return bits.data() + std::size_t(cy) * words; }
};

// The bits of `cells`.
BlockedBits blocked_bits(const CellMap& cells);

// Traces the boundary of the union of the free cells of `cells` (outside the map counts as
// blocked). Cell (cx, cy) is the square with lower-left corner origin + cell_size * (cx, H-cy-1).
// Rings run along cell sides with free space on their left: outer boundaries counter-clockwise,
// holes clockwise; consecutive collinear sides are merged, so every vertex is a turn.
//
// Where two free cells touch only at a corner (the other two cells there blocked), the trace turns
// left and stays with the free cell on its left, so free regions connect only through shared
// sides: a zero-width gap is a wall (ARCHITECTURE.md §4, MovingAI's "no corner cutting"). Such a
// corner is a vertex of both rings through it, and one ring may visit it twice.
//
// With a `rotation` other than the identity (a ROS map whose origin has a yaw), every corner is
// turned by it (Rotation::apply of origin + cell_size * (x, y)), and every lattice point the
// boundary passes is kept as a vertex, turns or not: turned and rounded, the points of a straight
// run of cell sides are no longer exactly collinear, and only with all of them does the boundary
// pass exactly through the corners of the cells along it (so a cell of the map's frame lies in
// free space exactly when the map's cell is free, and the blocked cells' rectangles share the
// boundary's vertices).
//
// Complexity: O(width * height) time, the cells read 64 to a word, and two bits per cell of
// scratch memory.
std::vector<Ring> trace_free_boundary(const BlockedBits& cells, Point origin = {0.0, 0.0},
                                      double cell_size = 1.0, const Rotation& rotation = {});
std::vector<Ring> trace_free_boundary(const CellMap& cells, Point origin = {0.0, 0.0},
                                      double cell_size = 1.0, const Rotation& rotation = {});

// A maximal run of blocked cells in one row: cells [first, last) of row `row` (0 = top).
struct BlockedRun {
  int row = 0;
  int first = 0;
  int last = 0;
};

// The maximal horizontal runs of blocked cells, row by row from the top, left to right.
std::vector<BlockedRun> blocked_runs(const BlockedBits& cells);

// The counter-clockwise rectangle covered by a run, in the coordinates of trace_free_boundary().
Ring run_rectangle(const CellMap& cells, const BlockedRun& run, Point origin = {0.0, 0.0},
                   double cell_size = 1.0);

}  // namespace polynav
