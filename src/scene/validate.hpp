#pragma once
// Limits of the native scene format and geometric validation of the rings a scene is made of. Every
// decision is exact (CGAL's filtered predicates, confined to validate.cpp so the rest of the loader
// compiles quickly).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "polynav/error.hpp"
#include "polynav/geometry.hpp"

namespace polynav::detail {

// The largest native scene file read. yaml-cpp reads a few megabytes a second, so this keeps a
// load within seconds; larger worlds belong in mesh or map files.
inline constexpr std::size_t max_native_scene_bytes = std::size_t{16} << 20;

// A ring exactly as written in the input, and where it was written (messages name its points
// and edges by their position in the input: edge i joins point i to the next point, and the
// last edge closes the ring).
struct RawRing {
  std::vector<Point> points;
  InputLocation where;
};

// The ring without repeated consecutive points (a closing point equal to the first included),
// after checking that it is a simple polygon: at least 3 distinct points, non-zero area, and no
// two edges meeting except consecutive edges at their shared point. Throws InputError at
// `ring.where` otherwise. O(n log n).
Ring checked_ring(const RawRing& ring);

// An outer ring and its holes, each checked as by checked_ring, every hole strictly inside the
// outer ring (not touching it) and the holes pairwise disjoint (not touching either). Throws
// InputError at the offending ring's location.
Polygon checked_polygon(const RawRing& outer, const std::vector<RawRing>& holes);

// A directed edge of the boundary of a region, the region on its left.
struct DirectedSegment {
  Point from;
  Point to;
};

// Where directed boundary segments fail to bound a region covered exactly once.
struct CoverDefect {
  std::size_t segment = 0;           // the segment where it shows (the later one of a pair)
  std::optional<std::size_t> other;  // the segment it meets away from their shared ends, if any
  std::string how;                   // how the two meet: "cross near (x, y)", "overlap from ..."
  int times = 0;                     // else: how often the region beside `segment` is covered
};

// Checks that `segments` bound a region that covers each point of the plane once or not at all:
// no two segments meet except at an end of both (segments along the same two points are summed,
// so a pair running both ways, a wall, cancels), and the winding number of the segments, the
// region being on their left, is 0 or 1 everywhere. Faces tiling a region meet that, their
// shared edges cancelled; overlapping faces do not, whether their edges cross or one lies inside
// another (Shamos and Hoey's sweep, carrying the winding number below each segment). O(n log n).
std::optional<CoverDefect> find_cover_defect(const std::vector<DirectedSegment>& segments);

}  // namespace polynav::detail
