#pragma once
/// @file
/// Smoothing passes over a path of waypoints, each exact through FreeSpace. Like OMPL's
/// PathSimplifier: small named passes, each returning whether it changed the path. They shorten
/// paths; they do not make them curvature-continuous.

#include <vector>

#include "polynav/geometry.hpp"

namespace polynav {

class FreeSpace;

class PathSimplifier {
 public:
  /// @param space must outlive the simplifier.
  explicit PathSimplifier(const FreeSpace& space) : space_(&space) {}

  /// From each waypoint, jumps to the farthest later waypoint it can reach in a straight
  /// traversable line (FreeSpace::traversable) whose exact cost is not higher than the part of
  /// the path it replaces. Generalises "drop waypoint i+1 when i sees i+2". The scan from each
  /// waypoint stops at the first waypoint out of sight (the farthest of that visible run is
  /// taken), which keeps the pass near-linear on long grid paths.
  /// Complexity: O(n k) line-of-sight checks, k the length of the visible runs.
  bool shortcut(std::vector<Point>& path) const;

  /// Removes waypoints that lie exactly on the straight segment between their neighbours
  /// (exact orientation test), and repeated waypoints.
  bool remove_collinear(std::vector<Point>& path) const;

  /// Whether every segment of the path is traversable.
  bool is_valid(const std::vector<Point>& path) const;

 private:
  const FreeSpace* space_;
};

}  // namespace polynav
