#include "polynav/discretise/hybrid/curves.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <tuple>

namespace polynav::curves {
namespace {

constexpr double two_pi = 2.0 * std::numbers::pi;

Point left_centre(Pose p, double r) {
  return {p.x - r * std::sin(p.theta), p.y + r * std::cos(p.theta)};
}
Point right_centre(Pose p, double r) {
  return {p.x + r * std::sin(p.theta), p.y - r * std::cos(p.theta)};
}

// The angle an arc steering s turns through from heading h0 to heading h1, in [0, 2 pi); an
// angle within rounding of a full turn is none.
double turn(Steer s, double h0, double h1) {
  const double a = s == Steer::left ? wrap_two_pi(h1 - h0) : wrap_two_pi(h0 - h1);
  return a > two_pi - 1e-9 ? 0.0 : a;
}

Curve word(Steer s1, double a1, Steer s2, double l2, Steer s3, double a3, double r) {
  Curve c;
  c.pieces = {Piece{s1, r * a1}, Piece{s2, l2}, Piece{s3, r * a3}};
  c.count = 3;
  return c;
}

}  // namespace

double Curve::length() const {
  double sum = 0.0;
  for (int k = 0; k < count; ++k) sum += std::abs(pieces[std::size_t(k)].length);
  return sum;
}

double wrap_two_pi(double a) {
  a = std::fmod(a, two_pi);
  if (a < 0) a += two_pi;
  return a >= two_pi ? 0.0 : a;
}

double wrap_pi(double a) {
  a = wrap_two_pi(a);
  return a > std::numbers::pi ? a - two_pi : a;
}

Pose advance(Pose p, Steer s, double length, double r) {
  switch (s) {
    case Steer::straight:
      return {p.x + length * std::cos(p.theta), p.y + length * std::sin(p.theta), p.theta};
    case Steer::left: {
      const double t = p.theta + length / r;
      return {p.x + r * (std::sin(t) - std::sin(p.theta)),
              p.y + r * (std::cos(p.theta) - std::cos(t)), t};
    }
    case Steer::right: {
      const double t = p.theta - length / r;
      return {p.x + r * (std::sin(p.theta) - std::sin(t)),
              p.y + r * (std::cos(t) - std::cos(p.theta)), t};
    }
  }
  return p;
}

Pose end_of(Pose p, const Curve& c, double r) {
  for (int k = 0; k < c.count; ++k)
    p = advance(p, c.pieces[std::size_t(k)].steer, c.pieces[std::size_t(k)].length, r);
  return p;
}

std::optional<Curve> shortest_dubins(Pose a, Pose b, double r) {
  if (!(r > 0) || !std::isfinite(r) || !std::isfinite(a.x + a.y + a.theta + b.x + b.y + b.theta))
    return std::nullopt;
  std::optional<Curve> best;
  const auto consider = [&](const Curve& c) {
    if (!best || c.length() < best->length()) best = c;
  };
  constexpr Steer L = Steer::left, R = Steer::right, S = Steer::straight;
  const Point la = left_centre(a, r), ra = right_centre(a, r);
  const Point lb = left_centre(b, r), rb = right_centre(b, r);
  // CSC on the same side: the outer common tangent, parallel to the line of centres.
  for (const auto& [s, c1, c2] : {std::tuple{L, la, lb}, std::tuple{R, ra, rb}}) {
    const Point v = c2 - c1;
    const double d = norm(v);
    const double h = d > 0 ? std::atan2(v.y, v.x) : a.theta;
    consider(word(s, turn(s, a.theta, h), S, d, s, turn(s, h, b.theta), r));
  }
  // CSC on opposite sides: an inner common tangent, when the circles are apart. Its heading h
  // satisfies c2 - c1 = l (cos h, sin h) + 2r (sin h, -cos h) for LSR (the sign of the second
  // term flips for RSL).
  for (const auto& [s1, c1, s2, c2] : {std::tuple{L, la, R, rb}, std::tuple{R, ra, L, lb}}) {
    const Point v = c2 - c1;
    const double d2 = dot(v, v) - 4 * r * r;
    if (d2 < 0) continue;
    const double l = std::sqrt(d2);
    const double phi = std::atan2(v.y, v.x);
    const double h = s1 == L ? phi + std::atan2(2 * r, l) : phi - std::atan2(2 * r, l);
    consider(word(s1, turn(s1, a.theta, h), S, l, s2, turn(s2, h, b.theta), r));
  }
  // CCC: a middle circle of the other side touching both end circles, its centre 2r from each.
  for (const auto& [s, c1, c3] : {std::tuple{L, la, lb}, std::tuple{R, ra, rb}}) {
    const Point v = c3 - c1;
    const double d = norm(v);
    if (d > 4 * r || d == 0) continue;
    const double phi = std::atan2(v.y, v.x);
    const double spread = std::acos(std::min(1.0, d / (4 * r)));
    const Steer m = s == L ? R : L;
    // On a left circle the heading is the direction from the centre plus a quarter turn; on a
    // right circle minus one.
    const double quarter = s == L ? std::numbers::pi / 2 : -std::numbers::pi / 2;
    for (const double psi : {phi + spread, phi - spread}) {
      const Point c2 = c1 + 2 * r * Point{std::cos(psi), std::sin(psi)};
      const double h1 = psi + quarter;
      const Point back = c2 - c3;
      const double h2 = std::atan2(back.y, back.x) + quarter;
      const double middle = turn(m, h1, h2);
      Curve c = word(s, turn(s, a.theta, h1), m, r * middle, s, turn(s, h2, b.theta), r);
      consider(c);
    }
  }
  return best;
}

Curve reversed(const Curve& c) {
  Curve out;
  out.count = c.count;
  for (int k = 0; k < c.count; ++k) {
    const Piece& p = c.pieces[std::size_t(c.count - 1 - k)];
    out.pieces[std::size_t(k)] = {p.steer, -p.length};
  }
  return out;
}

std::optional<Curve> shortest_forward_or_backward(Pose a, Pose b, double r, double reverse_factor) {
  const std::optional<Curve> forward = shortest_dubins(a, b, r);
  const std::optional<Curve> backward = shortest_dubins(b, a, r);
  if (!forward || !backward) return std::nullopt;
  if (reverse_factor * backward->length() < forward->length()) return reversed(*backward);
  return forward;
}

std::vector<Curve> arc_then_line(Pose a, Point g, double r, bool backwards) {
  std::vector<Curve> out;
  // Backwards with steering s traces what forwards with the other steering traces from the
  // heading turned round.
  const Pose from = backwards ? Pose{a.x, a.y, a.theta + std::numbers::pi} : a;
  for (const Steer s : {Steer::left, Steer::right}) {
    const Point c = s == Steer::left ? left_centre(from, r) : right_centre(from, r);
    const Point v = g - c;
    const double l2 = dot(v, v) - r * r;
    if (!(l2 >= 0)) continue;
    const double l = std::sqrt(l2);
    // g - c = l (cos h, sin h) + r (sin h, -cos h) on a left circle (the second term's sign
    // flips on a right one), h the straight piece's heading.
    const double phi = std::atan2(v.y, v.x);
    const double h = s == Steer::left ? phi + std::atan2(r, l) : phi - std::atan2(r, l);
    Curve curve;
    curve.count = 2;
    curve.pieces[0] = {s, r * turn(s, from.theta, h)};
    curve.pieces[1] = {Steer::straight, l};
    if (backwards) {
      curve.pieces[0] = {s == Steer::left ? Steer::right : Steer::left, -curve.pieces[0].length};
      curve.pieces[1].length = -l;
    }
    out.push_back(curve);
  }
  return out;
}

double max_curvature(std::span<const Point> path) {
  double most = 0.0;
  // Consecutive distinct points only: points a few units in the last place apart (two roundings
  // of one pose) are one, since a circle through a chord of 1e-15 says nothing of the curve.
  double scale = 0.0;
  for (const Point& p : path) scale = std::max({scale, std::abs(p.x), std::abs(p.y)});
  const double same = scale * 0x1p-36;
  Point p0{}, p1{};
  int have = 0;
  for (const Point& p : path) {
    if (have > 0 && distance(p, have == 1 ? p0 : p1) <= same) continue;
    if (have < 2) {
      (have == 0 ? p0 : p1) = p;
      ++have;
      continue;
    }
    const Point u = p1 - p0, v = p - p1;
    if (dot(u, v) >= 0) {
      const double a = norm(u), b = norm(v), c = norm(p - p0);
      const double k = 2 * std::abs(cross(u, v)) / (a * b * c);
      if (std::isfinite(k)) most = std::max(most, k);
    }
    p0 = p1;
    p1 = p;
  }
  return most;
}

}  // namespace polynav::curves
