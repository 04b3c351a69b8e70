#pragma once
/// @file
/// Curves of bounded curvature in the plane, for the hybrid method (hybrid_astar.hpp): poses,
/// the three motions of a car (straight, and arcs of the minimum turning radius to the left and
/// to the right, driven forwards or backwards), the shortest forward-only path between two poses
/// (Dubins, "On curves of minimal length with a constraint on average curvature, and with
/// prescribed initial and terminal positions and tangents", Amer. J. Math. 79(3), 1957: one of
/// the six words LSL, RSR, LSR, RSL, RLR, LRL), the shortest path driven forwards and backwards
/// (Reeds and Shepp, "Optimal paths for a car that goes both forwards and backwards", Pacific J.
/// Math. 145(2), 1990: one of 48 words of at most five pieces) and the largest curvature of a
/// densified path.

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

/// A curve of up to five pieces from a pose.
struct Curve {
  std::array<Piece, 5> pieces{};
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

/// Every path from a to b of the Reeds-Shepp families (curvature at most 1 / r, driven forwards
/// and backwards, any number of gear changes), in no particular order: the words CSC, CCC,
/// CC_u C_u C (two middle arcs of one length, opposite directions of travel), C C_u C_u C (the
/// same, one direction), C C_{pi/2} S C, C S C_{pi/2} C and C C_{pi/2} S C_{pi/2} C, in both
/// steerings and every direction of travel of each inner piece, each solved in closed form from
/// the turning circles' centres; the first and last arcs are driven the shorter way round (the
/// longer way is the same word with a longer arc). Reeds and Shepp prove a shortest path is among
/// these words, so the shortest of them is the Reeds-Shepp distance. Each ends at b up to rounding.
/// Empty for r <= 0 or non-finite input.
std::vector<Curve> reeds_shepp_paths(Pose a, Pose b, double r);

/// The shortest of reeds_shepp_paths(a, b, r): the exact Reeds-Shepp path, symmetric in a and b
/// and never longer than Dubins'. `reverse_factor` (>= 1) weighs backward length when comparing
/// them: the cheapest of those words then, which for a factor above 1 need not be the cheapest
/// of all paths. Nothing only for r <= 0 or non-finite input.
std::optional<Curve> shortest_reeds_shepp(Pose a, Pose b, double r, double reverse_factor = 1.0);

/// Sum of the pieces' lengths, backward ones times `reverse_factor`.
double weighted_length(const Curve& c, double reverse_factor);

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
