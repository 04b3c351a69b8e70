#pragma once
// Raster maps as polygons: the blocked cells' outline traced along cell sides
// (free_boundary_trace.hpp), simplified conservatively, and the blocked cells as rectangles for
// the places that need obstacles (a disc agent, conversion to a native scene).
//
// Simplification replaces a run of boundary vertices by one chord when the chord lies in free
// space and every dropped vertex is within the tolerance of it: the free side only ever loses
// area, so the simplified obstacles contain every blocked cell and no passage the map closes is
// opened. What a chord cuts off free space (between the dropped vertices and the chord) is kept
// as "fill" polygons, so that obstacles = rectangles + fills describe the same blocked set as the
// simplified boundary does. It is the chord test of Douglas and Peucker's line simplification
// (Canadian Cartographer 10(2), 1973) made one-sided and greedy along each ring, with the
// topology checks of a simplification that must keep rings from crossing (de Berg, van Kreveld
// and Schirra, "Topologically correct subdivision simplification using the bandwidth criterion",
// 1998): a chord is refused when it would cross or touch another edge or enclose another vertex.

#include <cstddef>
#include <string>
#include <vector>

#include "polynav/geometry.hpp"
#include "polynav/scene/scene.hpp"

namespace polynav::detail {

struct SimplifiedBoundary {
  /// The rings, free space on their left as given; vertices are a subset of the given ones.
  std::vector<Ring> rings;
  /// Simple counter-clockwise polygons covering exactly what the rings lost: the free space
  /// between each chord and the vertices it replaced, split where those touch the chord. Their
  /// interiors are disjoint from each other and from the given blocked side.
  std::vector<Ring> fills;
};

/// Simplifies rings that bound free space (free on their left; rings meet only at shared
/// vertices, which are kept, as in trace_free_boundary's output). Each chord joins two kept
/// vertices of one ring, keeps every vertex it drops on its right or on it (between its ends)
/// within `tolerance` of it, and neither crosses nor touches another edge nor encloses another
/// vertex; every ring keeps at least 3 vertices. `tolerance` 0 returns the rings unchanged.
/// O(V * s) for V vertices and chords of at most s vertices (s is capped), with a bucket grid for
/// the crossing tests.
SimplifiedBoundary simplify_free_boundary(std::vector<Ring> rings, double tolerance);

/// A rectangle of blocked cells: columns [first, last) of the `rows` rows from `row` downwards
/// (row 0 = the top row).
struct CellRectangle {
  int row = 0;
  int first = 0;
  int last = 0;
  int rows = 1;
};

/// The blocked cells as rectangles: the maximal runs of each row, a run merged with the one
/// directly below it when both cover exactly the same columns. O(cells).
std::vector<CellRectangle> blocked_rectangles(const CellMap& cells);

/// The counter-clockwise ring of a rectangle, in the coordinates of trace_free_boundary().
Ring rectangle_ring(const CellMap& cells, const CellRectangle& r, Point origin, double cell_size);

/// The rings of `rectangles` turned by `rotation` (as trace_free_boundary turns the outline).
/// Turned and rounded, lattice points along a side are no longer exactly on it, so each ring
/// keeps, besides its corners, every lattice point of its sides where another piece has a
/// vertex: next to a free cell (the outline passes there, through every lattice point), on the
/// map's border, or at another rectangle's corner. The rectangles then meet each other, the
/// outline and the fills at shared vertices and cover exactly the blocked cells.
std::vector<Ring> turned_rectangle_rings(const CellMap& cells,
                                         const std::vector<CellRectangle>& rectangles, Point origin,
                                         double cell_size, const Rotation& rotation);

/// Everything a raster reader needs: the free-space boundary of `cells` (traced, turned by
/// `rotation`, then simplified with `tolerance` where it lies in the scene, so that every test
/// of the simplification is exact on the vertices the scene keeps), the fills, and the report
/// (counts and times).
struct VectorisedCells {
  std::vector<Ring> free_boundary;
  std::vector<Ring> fills;
  VectorisationReport report;
};
VectorisedCells vectorise_cells(const CellMap& cells, Point origin, double cell_size,
                                double tolerance, const Rotation& rotation = {});

/// Simplifies the free boundary of a scene read from a raster map in place with `tolerance`
/// (nothing when 0), adds the fills to its obstacles (named "simplification fill i" in `file`)
/// and records the result in scene.vectorisation.
void simplify_scene_boundary(Scene& scene, double tolerance, const std::string& file);

}  // namespace polynav::detail
