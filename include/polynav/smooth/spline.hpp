#pragma once
/// @file
/// A curved path through the waypoints: a centripetal Catmull-Rom spline (Catmull and Rom 1974;
/// the centripetal parametrisation of Yuksel, Schaefer and Keyser, "Parameterization and
/// applications of Catmull-Rom curves", Computer-Aided Design 43, 2011, which never forms cusps
/// or self-intersections within a span), sampled into waypoints. Every sampled piece is checked
/// through FreeSpace (traversable between consecutive samples, turn_is_free at each sample), and
/// a span that fails is refined by halving its tangents (a flatter curve closer to its chord),
/// down to the straight segment of the input, which was valid. The output is therefore always a
/// valid path; curves are not shortest, so it may be longer and costlier than its input.

#include <cstddef>
#include <vector>

#include "polynav/geometry.hpp"

namespace polynav {

class FreeSpace;

struct SplineOptions {
  /// Sampled points per span between two waypoints (the last is the waypoint). [Limit: >= 1]
  std::size_t samples = 8;
  /// Halvings of a colliding span's tangents tried before it is left straight. [Limit: >= 0]
  int refinements = 3;
};

struct SplineResult {
  std::vector<Point> path;    ///< the sampled curve: the first and last waypoints kept exactly
  std::size_t spans = 0;      ///< spans between the input's waypoints
  std::size_t curved = 0;     ///< spans sampled from a curve (full or flattened)
  std::size_t flattened = 0;  ///< curved spans whose tangents were halved to stay free
  std::size_t straight = 0;   ///< spans left as the input's straight segment
  std::size_t corners = 0;  ///< waypoints where the direction still jumps (next to a straight span)
  /// The assembled curve failed the final exact check and the input was returned instead (each
  /// piece is checked as it is placed, so this is not expected to happen).
  bool fell_back = false;
  double max_curvature = 0.0;  ///< the largest curvature of the curved spans, 1 / scene units
};

/// The spline through `waypoints` (collinear and repeated points should be dropped first).
/// @pre the waypoints form a valid path in space
SplineResult spline_smooth(const FreeSpace& space, const std::vector<Point>& waypoints,
                           const SplineOptions& options = {});

}  // namespace polynav
