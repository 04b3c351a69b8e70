#pragma once
/// @file
/// Curves of bounded curvature in the plane, for the hybrid method (hybrid_astar.hpp): poses,
/// the three motions of a car (straight, and arcs of the minimum turning radius to the left and
/// to the right, driven forwards or backwards), the shortest forward-only path between two poses
/// (Dubins, "On curves of minimal length with a constraint on average curvature, and with
/// prescribed initial and terminal positions and tangents", Amer. J. Math. 79(3), 1957: one of
/// the six words LSL, RSR, LSR, RSL, RLR, LRL) and the largest curvature of a densified path.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "polynav/geometry.hpp"

namespace polynav::curves {

/// A position and a heading (radians, counter-clockwise from +x).
struct Pose {
  double x = 0.0;
  double y = 0.0;
  double theta = 0.0;
  Point at() const { return {x, y}; }
};

/// How a piece steers: a left arc (counter-clockwise), straight, a right arc (clockwise).
enum class Steer : std::int8_t { right = -1, straight = 0, left = 1 };

/// One piece of a curve: its steering and its signed length (negative: driven backwards, the
/// heading kept and the position moving against it).
struct Piece {
  Steer steer = Steer::straight;
  double length = 0.0;
};

/// A curve of up to three pieces from a pose.
struct Curve {
  std::array<Piece, 3> pieces{};
  int count = 0;
  /// Sum of the pieces' absolute lengths.
  double length() const;
};

/// The angle in [0, 2 pi).
double wrap_two_pi(double a);
/// The angle in (-pi, pi].
double wrap_pi(double a);

/// The pose reached from p by driving `length` (negative: backwards) with steering s on arcs of
/// radius r.
Pose advance(Pose p, Steer s, double length, double r);
/// The pose reached by driving every piece of c from p.
Pose end_of(Pose p, const Curve& c, double r);

/// The shortest forward path of curvature at most 1 / r from a to b, among the six Dubins words
/// (each built geometrically from the turning circles at a and b and their common tangents);
/// nothing only for r <= 0 or non-finite input.
std::optional<Curve> shortest_dubins(Pose a, Pose b, double r);

/// The curve driven backwards: from the end pose of c (driven from some pose p) back to p, the
/// pieces in reverse order, each with its length negated.
Curve reversed(const Curve& c);

/// The shortest of two families of paths from a to b that may be driven forwards or backwards:
/// a Dubins path driven forwards, and a Dubins path from b to a driven backwards from a. A
/// subset of Reeds and Shepp's 48 words ("Optimal paths for a car that goes both forwards and
/// backwards", Pacific J. Math. 145(2), 1990): no gear change inside the curve, so never
/// shorter than the true Reeds-Shepp distance, never longer than Dubins', and symmetric in a
/// and b. `reverse_factor` weighs backward length when comparing the two.
std::optional<Curve> shortest_forward_or_backward(Pose a, Pose b, double r,
                                                  double reverse_factor = 1.0);

/// The forward paths from a to the point g in any heading made of an arc of radius r (left, then
/// right) followed by a straight piece ending at g: the shortest paths to a point when the
/// arriving heading is free, where g lies outside the turning circle (else that side gives
/// none). Each curve ends with its straight piece, so it may end on an obstacle's boundary.
/// `backwards`: the same driven backwards (an arc and a straight piece behind the agent).
std::vector<Curve> arc_then_line(Pose a, Point g, double r, bool backwards = false);

/// The largest curvature of a polyline, from the circumcircle of each three consecutive
/// distinct points (points within 2^-36 of the largest coordinate count as one; 0 when they are
/// collinear); a densified arc of radius r gives 1 / r up to
/// rounding. A cusp (the direction of travel reversing: consecutive chords at more than 90
/// degrees) is a gear change, not a turn: triples across it are skipped. 0 for fewer than three
/// points.
double max_curvature(std::span<const Point> path);

}  // namespace polynav::curves
