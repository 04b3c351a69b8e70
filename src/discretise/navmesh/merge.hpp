#pragma once
/// @file
/// Internal to the navigation mesh: merges of a triangulation's free faces into convex polygons,
/// Hertel and Mehlhorn's ("Fast triangulation of simple polygons", 1983) and the greedy
/// largest-first one.

#include <cstdint>
#include <vector>

#include "triangulate.hpp"

namespace polynav::navmesh_detail {

/// A polygon while merging: its vertices counter-clockwise (ids into Triangulation::vertices)
/// and, per edge (from vertex k to k + 1), the triangle across it where a path may cross the
/// edge (else -1) and whether the edge may be dissolved.
struct MergePolygon {
  std::vector<std::uint32_t> v;
  std::vector<std::int32_t> across;
  std::vector<std::uint8_t> mergeable;
};

/// Removes every mergeable diagonal whose removal leaves both of its ends convex (decided
/// exactly; a straight angle counts as convex), visiting the triangles' edges in order.
/// polygons[f] starts as free triangle f's polygon (free[f]; ignored for the others). Returns,
/// per triangle, the triangle whose entry of polygons now holds the polygon it lies in; the
/// entries of triangles merged into another are emptied.
std::vector<std::uint32_t> merge_convex(const Triangulation& tri,
                                        const std::vector<std::uint8_t>& free,
                                        std::vector<MergePolygon>& polygons);

/// As merge_convex, but always removing next, of the mergeable diagonals whose removal leaves a
/// convex polygon, the one whose merge gives the largest polygon (area; ties by triangle and
/// vertex ids, so the result is deterministic): a priority queue of diagonals keyed by the
/// merged area, each polygon's diagonals queued again whenever it grows and stale entries
/// dropped when popped. A diagonal once refused stays refused: merging only widens the angles at
/// its ends. O(d log d) in the diagonals queued, each merge queueing the new polygon's.
std::vector<std::uint32_t> merge_largest_first(const Triangulation& tri,
                                               const std::vector<std::uint8_t>& free,
                                               std::vector<MergePolygon>& polygons);

}  // namespace polynav::navmesh_detail
