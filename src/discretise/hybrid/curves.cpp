#include "polynav/discretise/hybrid/curves.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <initializer_list>
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

namespace {

// The Reeds-Shepp words in the frame of the start pose scaled to a unit turning radius: the
// start at 0 heading along +x, the end at (x, y) heading phi. Points are complex numbers; the
// left turning circle of a pose at p heading h has its centre at p + i e^{ih}, the right one at
// p - i e^{ih}. Driving a left arc of signed length t turns the heading by +t, a right arc by
// -t, either way round, backwards for t < 0; so a word's pieces have signed lengths and every
// direction of travel is one solution of the same equations.
using Complex = std::complex<double>;

struct Frame {
  double x = 0.0;
  double y = 0.0;
  double phi = 0.0;
};

// The arc turning through t modulo a full turn that costs least: t mod 2 pi in [0, 2 pi) driven
// one way, or that less a full turn driven the other way, its length times `reverse_factor` when
// that is backwards. The rest of a word being the same either way, the other one never gives a
// cheaper word.
double cheaper_way(double t, double reverse_factor) {
  const double w = wrap_two_pi(t);
  const double other = w - two_pi;
  const auto cost = [&](double l) { return l < 0 ? -l * reverse_factor : l; };
  return w == 0.0 || cost(w) <= cost(other) ? w : other;
}

// The unit-radius steerings' heading change over a signed length.
double turning(Steer s, double length) {
  return double(int(s)) * length;
}

// Hands every word found to `out`, in the frame it was solved in.
class ReedsSheppSolver {
 public:
  ReedsSheppSolver(Frame f, double reverse_factor, const std::function<void(Curve&)>& out)
      : f_(f), reverse_factor_(reverse_factor), out_(out) {
    const Complex end{f.x, f.y}, ahead = std::polar(1.0, f.phi);
    left_end_ = end + Complex{0, 1} * ahead;
    right_end_ = end - Complex{0, 1} * ahead;
  }

  void solve() {
    constexpr Steer L = Steer::left, R = Steer::right, S = Steer::straight;
    const Complex i{0, 1};
    // The start's left circle is centred at i; each word is the vector D from it to the centre
    // of the end's circle its last arc drives on, as e^{it} times a function of the inner
    // lengths, t the first arc.
    // CSC: L t S u L v and L t S u R v. D = e^{it} (P + u Q) with the straight piece's length u.
    straight_word({L, S, L}, left_end_ - i, 0.0, 1.0, 0.0);
    straight_word({L, S, R}, right_end_ - i, -2.0 * i, 1.0, 0.0);
    // CCC: L t R a L v. The middle circle touches both: D = -2i e^{it} (1 - e^{-ia}).
    arc_word(
        {L, R, L}, left_end_ - i, [&](double a) { return -2.0 * i * (1.0 - cis(-a)); },
        1.0 - std::norm(left_end_ - i) / 8.0, [](double a) { return a; });
    // CC_a C_a C with opposite directions of travel in the middle: L t R a L -a R v.
    // D = -2i e^{it} (1 - e^{-ia} + e^{-2ia}) = -2i e^{i(t-a)} (2 cos a - 1).
    for (const double sign : {1.0, -1.0}) {
      arc_word(
          {L, R, L, R}, right_end_ - i,
          [&](double a) { return -2.0 * i * (1.0 - cis(-a) + cis(-2 * a)); },
          (1.0 + sign * std::abs(right_end_ - i) / 2.0) / 2.0, [](double a) { return -a; });
    }
    // C C_a C_a C, one direction in the middle: L t R a L a R v. D = -2i e^{it} (2 - e^{-ia}).
    arc_word(
        {L, R, L, R}, right_end_ - i, [&](double a) { return -2.0 * i * (2.0 - cis(-a)); },
        (5.0 - std::norm(right_end_ - i) / 4.0) / 4.0, [](double a) { return a; });
    // C C_{pi/2} S C: L t R a S u L v and L t R a S u R v, a = +-pi/2. The right circle's centre
    // after the first arc is i - 2i e^{it}; its pose after turning a is that centre + i e^{i(t-a)}.
    for (const double a : {pi / 2, -pi / 2}) {
      const Complex turn = cis(-a);
      straight_word({L, R, S, L}, left_end_ - i, -2.0 * i + 2.0 * i * turn, turn, a);
      straight_word({L, R, S, R}, right_end_ - i, -2.0 * i, turn, a);
      // C C_{pi/2} S C_{pi/2} C: L t R a S u L b R v, b = +-pi/2.
      for (const double b : {pi / 2, -pi / 2})
        straight_word({L, R, S, L, R}, right_end_ - i,
                      -2.0 * i + 2.0 * i * turn - 2.0 * i * cis(b - a), turn, a, b);
    }
  }

 private:
  static constexpr double pi = std::numbers::pi;
  static Complex cis(double a) { return std::polar(1.0, a); }

  // Records the word with the first arc t and the given inner lengths; its last arc turns to phi.
  void emit(std::initializer_list<Steer> steers, double t, std::initializer_list<double> inner) {
    Curve w;
    w.count = int(steers.size());
    auto s = steers.begin();
    w.pieces[0] = {*s, t};
    double heading = turning(*s, t);
    int k = 1;
    for (const double l : inner) {
      ++s;
      w.pieces[std::size_t(k++)] = {*s, l};
      heading += turning(*s, l);
    }
    ++s;
    // The last arc: left turns by +v, right by -v.
    const double needed = f_.phi - heading;
    w.pieces[std::size_t(k)] = {*s,
                                cheaper_way(*s == Steer::left ? needed : -needed, reverse_factor_)};
    out_(w);
  }

  double first_arc(double angle) const { return cheaper_way(angle, reverse_factor_); }

  // Words whose centre vector is D = e^{it} (P + u Q), |Q| = 1, u the straight piece's length:
  // |P + u Q| = |D| is a quadratic in u, and then t = arg D - arg(P + u Q). The arcs before and
  // after the straight piece (at most one each, fixed) are `a` and `b` (0: none).
  void straight_word(std::initializer_list<Steer> steers, Complex d, Complex p, Complex q, double a,
                     double b = 0.0) {
    const double half = std::real(p * std::conj(q));
    const double disc = half * half - std::norm(p) + std::norm(d);
    if (disc < 0) return;
    const double root = std::sqrt(disc);
    for (const double u : {-half + root, -half - root}) {
      const Complex m = p + u * q;
      const double t = first_arc(std::arg(d) - std::arg(m));
      const std::size_t n = steers.size();
      if (n == 3)
        emit(steers, t, {u});
      else if (n == 4)
        emit(steers, t, {a, u});
      else
        emit(steers, t, {a, u, b});
      if (root == 0.0) break;
    }
  }

  // Words whose centre vector is D = e^{it} F(a), the inner arcs a and second(a), given cos a:
  // a = +- acos, and t = arg D - arg F(a).
  template <typename F, typename Second>
  void arc_word(std::initializer_list<Steer> steers, Complex d, F&& f, double cos_a,
                Second&& second) {
    // Within rounding of +-1 the circles touch; beyond it they miss.
    if (std::abs(cos_a) > 1.0 + 1e-12) return;
    const double base = std::acos(std::clamp(cos_a, -1.0, 1.0));
    for (const double a : {base, -base}) {
      const double t = first_arc(std::arg(d) - std::arg(f(a)));
      if (steers.size() == 3)
        emit(steers, t, {a});
      else
        emit(steers, t, {a, second(a)});
      if (base == 0.0) break;
    }
  }

  Frame f_;
  double reverse_factor_;
  const std::function<void(Curve&)>& out_;
  Complex left_end_, right_end_;
};

Steer mirrored(Steer s) {
  return Steer(-int(s));
}

// Every Reeds-Shepp word from a to b (radius r, first and last arcs the cheaper way round) to
// `out`, in the world's frame and lengths.
void solve_reeds_shepp(Pose a, Pose b, double r, double reverse_factor,
                       const std::function<void(const Curve&)>& out) {
  if (!(r > 0) || !std::isfinite(r) || !std::isfinite(a.x + a.y + a.theta + b.x + b.y + b.theta))
    return;
  const double dx = (b.x - a.x) / r, dy = (b.y - a.y) / r;
  const double c = std::cos(a.theta), s = std::sin(a.theta);
  const Frame end{c * dx + s * dy, -s * dx + c * dy, wrap_pi(b.theta - a.theta)};
  // The words solved are those starting with a left arc and, for the asymmetric C C S C, with
  // the quarter arc second; the rest by symmetry (Reeds and Shepp's "reflect" and "backwards"):
  // a word reaching (x, y, phi) reaches (x, -y, -phi) with left and right exchanged, and its
  // pieces in reverse order reach (x cos phi + y sin phi, x sin phi - y cos phi, phi).
  for (const bool reflect : {false, true}) {
    for (const bool backwards : {false, true}) {
      Frame f = end;
      if (reflect) f = {f.x, -f.y, -f.phi};
      if (backwards)
        f = {f.x * std::cos(f.phi) + f.y * std::sin(f.phi),
             f.x * std::sin(f.phi) - f.y * std::cos(f.phi), f.phi};
      const std::function<void(Curve&)> back_to_world = [&](Curve& w) {
        if (backwards) std::reverse(w.pieces.begin(), w.pieces.begin() + w.count);
        for (int j = 0; j < w.count; ++j) {
          Piece& piece = w.pieces[std::size_t(j)];
          if (reflect) piece.steer = mirrored(piece.steer);
          piece.length *= r;
        }
        out(w);
      };
      ReedsSheppSolver(f, reverse_factor, back_to_world).solve();
    }
  }
}

}  // namespace

std::vector<Curve> reeds_shepp_paths(Pose a, Pose b, double r) {
  std::vector<Curve> out;
  solve_reeds_shepp(a, b, r, 1.0, [&](const Curve& c) { out.push_back(c); });
  return out;
}

double weighted_length(const Curve& c, double reverse_factor) {
  double sum = 0.0;
  for (int k = 0; k < c.count; ++k) {
    const double l = c.pieces[std::size_t(k)].length;
    sum += l < 0 ? -l * reverse_factor : l;
  }
  return sum;
}

std::optional<Curve> shortest_reeds_shepp(Pose a, Pose b, double r, double reverse_factor) {
  std::optional<Curve> best;
  double best_cost = 0.0;
  solve_reeds_shepp(a, b, r, reverse_factor, [&](const Curve& c) {
    const double cost = weighted_length(c, reverse_factor);
    if (!best || cost < best_cost) {
      best = c;
      best_cost = cost;
    }
  });
  return best;
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
