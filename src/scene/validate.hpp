#pragma once
// Limits of the native scene format and geometric validation of the rings a scene is made of. Every
// decision is exact (CGAL's filtered predicates, confined to validate.cpp so the rest of the loader
// compiles quickly).

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "polynav/error.hpp"
#include "polynav/geometry.hpp"

namespace polynav::detail {

// The largest native scene file read. yaml-cpp reads a few megabytes a second, so this keeps a
// load within seconds; larger worlds belong in mesh or map files.
inline constexpr std::size_t max_native_scene_bytes = std::size_t{16} << 20;

// A hash of a point's coordinates (0 and -0 alike), for maps keyed by exact points.
struct PointHash {
  std::size_t operator()(Point p) const {
    return std::hash<double>()(p.x + 0.0) * 31 ^ std::hash<double>()(p.y + 0.0);
  }
};

// Appends `ring` cut at every vertex it passes through more than once into loops that pass
// through each of their vertices once (the ring itself when it has no such vertex); loops of
// fewer than 3 vertices are left out.
void split_at_repeated_vertices(const Ring& ring, std::vector<Ring>& loops);

// A ring exactly as written in the input, and where it was written (messages name its points
// and edges by their position in the input: edge i joins point i to the next point, and the
// last edge closes the ring).
struct RawRing {
  std::vector<Point> points;
  InputLocation where;
};

// Thrown for rings that enclose area but do not make a valid polygon in the sense of OGC Simple
// Features: a ring crossing or touching itself or folding back, rings of one polygon crossing,
// overlapping or touching along a segment, touching so that they cut the polygon's inside apart,
// or a hole outside its outer ring or inside another hole. These are what make-valid repairs
// (LoadOptions::repair); rings with fewer than 3 points or no area throw a plain InputError.
class InvalidPolygon : public InputError {
 public:
  using InputError::InputError;
};

// The ring without repeated consecutive points (a closing point equal to the first included),
// after checking that it is a simple polygon: at least 3 distinct points, non-zero area, and no
// two edges meeting except consecutive edges at their shared point. Throws InputError at
// `ring.where` otherwise. O(n log n).
Ring checked_ring(const RawRing& ring);

// An outer ring and its holes, checked to be a valid polygon in the sense of OGC Simple Features
// (ISO 19125-1, 6.1.11.1): each ring simple as by checked_ring; every hole inside the outer ring
// and outside the other holes; two rings meeting only at single points, where they touch without
// crossing; and no closed loop of rings touching one another, which would cut the polygon's
// inside apart (a hole touching the outer ring at two points does). Throws InvalidPolygon (or
// InputError, see there) at the offending ring's location. O(n log n) in all the rings' points.
Polygon checked_polygon(const RawRing& outer, const std::vector<RawRing>& holes);

// The polygon with every vertex of one ring that lies inside an edge of another ring inserted into
// that edge as a vertex, so that its rings meet only at vertices they share: CGAL's Boolean
// operations take holes that touch the outer ring or each other only so. The point set is the
// same. @pre the polygon is valid (checked_polygon). O(n log n).
Polygon with_contacts_as_vertices(const Polygon& polygon);

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
