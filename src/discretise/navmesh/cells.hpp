#pragma once
/// @file
/// Internal to the navigation mesh: the vertical extensions of the trapezoidal cell decomposition
/// (navmesh.decomposition=c-cells; Latombe, "Robot Motion Planning", 1991, ch. 5, the exact cell
/// decomposition; Chazelle's trapezoidation of a polygon). The extensions become constraints of
/// the triangulation, which then has no edge crossing a cell's side, and the merge joins each
/// cell's triangles again.

#include <cstddef>
#include <map>
#include <tuple>
#include <vector>

#include "polynav/geometry.hpp"
#include "polynav/kernel/build_clock.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav::navmesh_detail {

/// The cuts of the vertical cell decomposition of the free space bounded by some rings.
struct VerticalCuts {
  /// One per boundary vertex and direction (up, down) pointing into free space: from the vertex
  /// (a) to the first boundary point its vertical ray meets (b, with a's x exactly), once each
  /// (an extension from one vertex to another is found from both ends). Vertices whose two edges
  /// are collinear and make a straight angle are left out: they do not change a cell's shape.
  std::vector<Segment> extensions;
  /// Ends of extensions inside boundary edges that are not exactly on their edge (rounded
  /// crossings: see vertical_cuts).
  std::vector<Point> rounded;
  /// Ends of extensions inside boundary edges, per edge (its ends in lexicographic order), by x.
  std::map<std::tuple<double, double, double, double>, std::map<double, Point>> splits;
};

/// The vertical extensions of free space's boundary rings (free space on each ring's left).
/// Each ray is shot by walking a uniform grid of the boundary edges (kernel/box_index.hpp) over
/// doubling lengths; which edge it meets first is decided exactly (orientation tests; edges of
/// the rings cross nowhere). An extension that meets an edge inside ends at the crossing with its
/// y rounded to the nearest double on the edge or short of it (on the ray's side), and that edge
/// is split there by split_at_cuts: the cells lie in free space, every corner free, and leave out
/// only the sliver, at most an ulp thin, between the split edge and the true one (a wall with
/// free space on both sides, met from both, shares one end per x, short of the wall for one
/// side and beyond it by that ulp for the other). clock is checked as the rays are shot.
VerticalCuts vertical_cuts(const std::vector<BoundaryRing>& boundary, const BuildClock& clock);

/// The ring with every edge that an extension ends inside split at those ends, in order along it
/// (for boundary rings and for region outlines that run along boundary edges).
Ring split_at_cuts(const Ring& ring, const VerticalCuts& cuts);

}  // namespace polynav::navmesh_detail
