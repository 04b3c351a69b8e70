#pragma once
/// @file
/// String pulling through a corridor of portals: the shortest path from a start to a goal that
/// crosses the portals in order (Lee and Preparata, "Euclidean shortest paths in the presence of
/// rectilinear barriers", 1984, and Chazelle's funnel for shortest paths in a triangulated simple
/// polygon, 1982). This is the "simple stupid funnel" form: one pass over the portals keeping the
/// apex and the left and right boundary of the funnel, restarting from the apex when a side
/// crosses over the other; every decision is an exact orientation test (kernel/exact.hpp), and
/// the waypoints it returns are the start, portal ends and the goal, never constructed points.

#include <span>
#include <vector>

#include "polynav/geometry.hpp"

namespace polynav {

class FreeSpace;

/// The taut path from start to goal through the portals, in order. Each portal is a segment
/// oriented as seen in the direction of travel (Segment::a on the left, Segment::b on the right);
/// a portal whose orientation contradicts the place the path comes from (the previous portal or
/// the start) is turned round. A portal may be a point. When start, goal and the portals bound a
/// chain of convex regions (a navigation mesh's polygons, a grid's cells), the result is the
/// shortest path within their union. Complexity: O(n) amortised, n the number of portals
/// (restarts revisit portals; worst case O(n^2) on adversarial corridors).
std::vector<Point> funnel(Point start, Point goal, std::span<const Segment> portals);

/// The same, appending to out (cleared first) and using scratch for the oriented portals, so
/// that repeated calls allocate nothing once the buffers have grown.
void funnel(Point start, Point goal, std::span<const Segment> portals, std::vector<Point>& out,
            std::vector<Segment>& scratch);

/// The funnel as a smoother of a raw path through its corridor: the cheapest, by exact cost
/// (FreeSpace::path_cost), of the raw path, the funnel through the whole corridor and, in scenes
/// with weighted regions, the funnel applied to each run of equal cost separately (joined at the
/// midpoints of the portals where the cost changes). Candidates that are not valid motions
/// (FreeSpace::traversable, FreeSpace::turn_is_free) are not taken. @pre raw.size() >= 2
std::vector<Point> funnel_smooth(const FreeSpace& space, std::span<const Segment> corridor,
                                 const std::vector<Point>& raw);

}  // namespace polynav
