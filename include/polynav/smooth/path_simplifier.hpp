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

  /// Greedy line of sight: from each waypoint, jumps to the farthest later waypoint it can reach
  /// in a straight traversable line (FreeSpace::traversable) whose exact cost is not higher than
  /// the part of the path it replaces. Generalises "drop waypoint i+1 when i sees i+2". Every
  /// waypoint is a candidate, those inside straight runs too, so the sightline may end in the
  /// middle of a run (the greedy smoothing of the Central64 technical report, Autodesk Research
  /// 2023); the scan from each waypoint stops at the first waypoint out of sight, and needs no
  /// sightline test while the waypoints since the anchor stay on one straight run.
  /// Complexity: O(n k) line-of-sight checks, k the length of the visible runs.
  bool shortcut(std::vector<Point>& path) const;

  /// Greedy line of sight with backtracking (the "tentpole" smoothing of the Central64 technical
  /// report, Autodesk Research 2023, section 3.2): from an anchor, the sightline runs along the
  /// path while it stays clear; where it breaks, at waypoint k, the waypoints back from k that
  /// see k (up to the first that does not) are the candidate bends, and the next anchor is the
  /// one making anchor -> j -> k cheapest (ties: the nearer k), rather than simply the last one
  /// seen. The sightline from the new anchor resumes at k. Never raises the exact cost.
  /// Complexity: O(n k) line-of-sight checks, k the length of the visible runs.
  bool tentpole(std::vector<Point>& path) const;

  /// The cheapest path through the waypoints' mutual visibility: dynamic programming over the
  /// waypoints, each reached from the predecessor giving the least exact cost among those that
  /// see it (candidates tried cheapest first, so most are settled by one line-of-sight check).
  /// Exact within the waypoints when the path has at most `window` + 1 of them; on longer paths a
  /// waypoint's predecessors are limited to the `window` before it. The result is never costlier
  /// than shortcut()'s or tentpole()'s (it takes theirs where a turn through a pinch, which the
  /// dynamic programme checks against its chosen predecessor only, made it miss them).
  /// Complexity: O(n window log window) and at most n window line-of-sight checks.
  bool shortcut_optimal(std::vector<Point>& path, std::size_t window) const;

  /// Removes waypoints that lie exactly on the straight segment between their neighbours
  /// (exact orientation test), and repeated waypoints.
  bool remove_collinear(std::vector<Point>& path) const;

  /// Whether every segment of the path is traversable.
  bool is_valid(const std::vector<Point>& path) const;

 private:
  const FreeSpace* space_;
};

}  // namespace polynav
