#pragma once
// Limits of the native scene format and geometric validation of the rings a scene is made of. Every
// decision is exact (CGAL's filtered predicates, confined to validate.cpp so the rest of the loader
// compiles quickly).

#include <cstddef>
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

}  // namespace polynav::detail
