#pragma once
/// @file
/// A path validity checker for tests, independent of the library's geometry: it reads the
/// scene's own polygons (bounds, obstacles with their holes, as loaded) and the agent radius,
/// and decides everything with its own exact arithmetic (interval arithmetic where the interval
/// excludes zero, else exact rationals). It uses nothing of FreeSpace, src/space or
/// kernel/exact.hpp, so that a fault there cannot hide a fault in the paths it produced.
///
/// What "valid" means (docs/architecture.md, "Path validity, checked independently"):
///
/// - Agent of radius r > 0: every waypoint lies inside the bounds and outside every obstacle
///   (a hole of an obstacle is outside it), and every segment keeps a distance of at least r
///   from every edge of every obstacle ring and of the bounds (squared distances compared
///   exactly; a segment that meets an edge is at distance 0). That is the path's clearance in
///   the exact configuration space (the disc's Minkowski sum); the planner's free space is a
///   little smaller (a circumscribed polygon replaces the disc), so no slack is allowed. A disc
///   that touches two obstacles at once at exactly distance r is accepted: that pinch of the
///   exact configuration space is not examined.
/// - Point agent (r = 0): the blocked set is the union of the closed obstacles and of the
///   outside of the bounds. Every piece of every segment between the points where it meets
///   the boundary must keep free space on at least one side: not inside a blocked part, and not
///   along an edge with blocked parts on both sides (two obstacles sharing an edge, an
///   obstacle against the bounds). Touching the boundary and running along it is allowed. With
///   closed gaps (the default) a segment may pass a boundary point only when one side of it is
///   wholly free there, and a path may turn at a boundary point only when one of the two sectors
///   between its incoming and outgoing directions is wholly free: so it never slips between two
///   blocked parts touching at a point (nor into one). With open gaps only the pieces are
///   checked. An obstacle's rings may touch one another at a point (a valid polygon's hole
///   touching its outer ring or another hole): around that point the obstacle is blocked where it
///   is inside its outer ring and outside its holes, and the free space in the hole is one more
///   part touching at a point.
///
/// Regions (terrain costs and heights) play no part.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "polynav/geometry.hpp"
#include "polynav/scene/scene.hpp"

namespace polynav::validity {

struct CheckerOptions {
  /// Whether a point agent may pass where two blocked parts touch at a point
  /// (FreeSpaceOptions::open_gaps).
  bool open_gaps = false;
  /// Interval arithmetic first, exact rationals only where the interval does not decide the
  /// sign; false decides every sign with rationals (slow: for cross-checking the filter).
  bool filtered = true;
};

/// Why a path is invalid.
enum class Failure : std::uint8_t {
  none,
  point_blocked,   ///< a waypoint is not in free space
  enters_blocked,  ///< a piece of a segment lies inside a blocked part or between two
  gap,             ///< a segment passes a boundary point with blocked parts on both sides
  turn,            ///< a turn at a waypoint sweeps across blocked parts on both sides
  clearance,       ///< (r > 0) a segment comes closer than r to an edge
};

const char* to_string(Failure failure);

struct Verdict {
  Failure failure = Failure::none;
  std::string reason;  ///< what failed, where, against which part; empty when valid
  /// How far into the blocked side the failure reaches (from exact values, rounded once): for a
  /// disc, the radius less the clearance (the radius where the path meets an edge); for a point,
  /// the distance from the offending place (a waypoint, or the middle of the offending piece of
  /// a segment) to the boundary of the part it is inside. 0 where no distance applies (gaps,
  /// turns, pieces between two parts, points with blocked parts all round).
  double depth = 0.0;

  bool valid() const { return failure == Failure::none; }
};

/// How often the interval filter decided a sign, and how often exact rationals had to.
struct CheckerCounters {
  std::uint64_t filtered = 0;
  std::uint64_t exact = 0;
};

class ExactChecker {
 public:
  /// @pre the scene's rings are simple (as every loader validates).
  explicit ExactChecker(const Scene& scene, CheckerOptions options = {});
  ~ExactChecker();
  ExactChecker(const ExactChecker&) = delete;
  ExactChecker& operator=(const ExactChecker&) = delete;

  /// Whether the polyline is a valid motion (consecutive repeated points are one waypoint).
  Verdict check_path(std::span<const Point> path) const;
  /// Whether the agent may stand at p.
  Verdict check_point(Point p) const;

  double radius() const;
  /// Signs decided so far by the filter and by rationals (updated by every check; thread-safe).
  CheckerCounters counters() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace polynav::validity
