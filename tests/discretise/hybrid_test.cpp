// The hybrid method: Dubins curves against the textbook closed forms (Shkel and Lumelsky,
// "Classification of the Dubins set", Robotics and Autonomous Systems 34, 2001), each word's end
// pose confirmed by numerical integration; Reeds-Shepp words each ending at their goal, their
// shortest a metric that no random path beats; on an empty scene the planned length is the
// Dubins distance, and with reverse motion the Reeds-Shepp distance; every path found among
// obstacles is accepted by the independent exact checker, keeps curvature <= 1 / radius and
// arrives in the goal heading asked for; reverse only with reeds-shepp; bad options refused by
// name; budgets and impossible turns answered with a clear no_path.
#include "polynav/discretise/hybrid/hybrid_astar.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "discretise/random_scenes.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/plan/registry.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"
#include "scene/error_of.hpp"
#include "validity/exact_checker.hpp"

namespace polynav {
namespace {

using curves::Pose;
using test::rect;
constexpr double pi = std::numbers::pi;

// The angle in [0, 2 pi), an angle within rounding of a full turn being none (a word whose
// last arc is a rounding error short of a full circle ends where it would without it).
double mod2pi(double a) {
  a = std::fmod(a, 2 * pi);
  a = a < 0 ? a + 2 * pi : a;
  return a > 2 * pi - 1e-9 ? 0.0 : a;
}

// Integrates a word (curvatures k_i = +-1/r or 0, lengths l_i >= 0) from p with many small
// midpoint steps: an independent account of where the word ends.
Pose integrate(Pose p, const std::vector<std::pair<double, double>>& word) {
  for (const auto& [kappa, length] : word) {
    if (length == 0) continue;
    const int n = 2000;
    const double h = length / n;
    for (int i = 0; i < n; ++i) {
      const double mid = p.theta + 0.5 * h * kappa;
      p.x += h * std::cos(mid) * (kappa == 0 ? 1.0 : std::sin(0.5 * h * kappa) / (0.5 * h * kappa));
      p.y += h * std::sin(mid) * (kappa == 0 ? 1.0 : std::sin(0.5 * h * kappa) / (0.5 * h * kappa));
      p.theta += h * kappa;
    }
  }
  return p;
}

bool same_pose(Pose a, Pose b, double tol) {
  return std::abs(a.x - b.x) < tol && std::abs(a.y - b.y) < tol &&
         std::abs(curves::wrap_pi(a.theta - b.theta)) < tol;
}

// The shortest Dubins path by the normalised closed forms (d = distance / r, alpha and beta the
// headings relative to the line from a to b), each of the six words kept only when its
// integration ends at b.
double closed_form_dubins(Pose a, Pose b, double r) {
  const double dx = b.x - a.x, dy = b.y - a.y;
  const double d = std::hypot(dx, dy) / r;
  const double phi = std::atan2(dy, dx);
  const double al = mod2pi(a.theta - phi), be = mod2pi(b.theta - phi);
  const double sa = std::sin(al), sb = std::sin(be), ca = std::cos(al), cb = std::cos(be);
  const double cab = std::cos(al - be);
  const double L = 1 / r, R = -1 / r, S = 0;
  std::vector<std::vector<std::pair<double, double>>> words;
  const auto add = [&](double k1, double t, double k2, double p, double k3, double q) {
    if (std::isfinite(t) && std::isfinite(p) && std::isfinite(q) && p >= 0)
      words.push_back({{k1, t * r}, {k2, p * r}, {k3, q * r}});
  };
  {  // LSL
    const double p2 = 2 + d * d - 2 * cab + 2 * d * (sa - sb);
    if (p2 >= 0) {
      const double tmp = std::atan2(cb - ca, d + sa - sb);
      add(L, mod2pi(-al + tmp), S, std::sqrt(p2), L, mod2pi(be - tmp));
    }
  }
  {  // RSR
    const double p2 = 2 + d * d - 2 * cab + 2 * d * (sb - sa);
    if (p2 >= 0) {
      const double tmp = std::atan2(ca - cb, d - sa + sb);
      add(R, mod2pi(al - tmp), S, std::sqrt(p2), R, mod2pi(-be + tmp));
    }
  }
  {  // LSR
    const double p2 = -2 + d * d + 2 * cab + 2 * d * (sa + sb);
    if (p2 >= 0) {
      const double p = std::sqrt(p2);
      const double tmp = std::atan2(-ca - cb, d + sa + sb) - std::atan2(-2.0, p);
      add(L, mod2pi(-al + tmp), S, p, R, mod2pi(-be + tmp));
    }
  }
  {  // RSL
    const double p2 = d * d - 2 + 2 * cab - 2 * d * (sa + sb);
    if (p2 >= 0) {
      const double p = std::sqrt(p2);
      const double tmp = std::atan2(ca + cb, d - sa - sb) - std::atan2(2.0, p);
      add(R, mod2pi(al - tmp), S, p, L, mod2pi(be - tmp));
    }
  }
  {  // RLR
    const double c = (6 - d * d + 2 * cab + 2 * d * (sa - sb)) / 8;
    if (std::abs(c) <= 1) {
      const double p = mod2pi(2 * pi - std::acos(c));
      const double t = mod2pi(al - std::atan2(ca - cb, d - sa + sb) + p / 2);
      add(R, t, L, p, R, mod2pi(al - be - t + p));
    }
  }
  {  // LRL
    const double c = (6 - d * d + 2 * cab + 2 * d * (sb - sa)) / 8;
    if (std::abs(c) <= 1) {
      const double p = mod2pi(2 * pi - std::acos(c));
      const double t = mod2pi(-al - std::atan2(ca - cb, d + sa - sb) + p / 2);
      add(L, t, R, p, L, mod2pi(be - al - t + p));
    }
  }
  double best = INFINITY;
  for (const auto& w : words) {
    if (!same_pose(integrate(a, w), b, 1e-6 * std::max(1.0, r))) continue;
    best = std::min(best, w[0].second + w[1].second + w[2].second);
  }
  return best;
}

std::vector<std::pair<double, double>> word_of(const curves::Curve& c, double r) {
  std::vector<std::pair<double, double>> w;
  for (int k = 0; k < c.count; ++k) {
    const curves::Piece& p = c.pieces[std::size_t(k)];
    w.push_back({double(int(p.steer)) / r, p.length});
  }
  return w;
}

TEST(Dubins, ShortestMatchesTheClosedFormsAndEndsAtTheGoal) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> coord(-10, 10), angle(-pi, pi), radius(0.2, 4);
  int compared = 0, ccc = 0;
  for (int i = 0; i < 1500; ++i) {
    const Pose a{coord(rng), coord(rng), angle(rng)};
    Pose b{coord(rng), coord(rng), angle(rng)};
    const double r = radius(rng);
    if (i % 3 == 0) {  // near poses, where CCC words win
      b.x = a.x + 0.3 * r * coord(rng) / 10;
      b.y = a.y + 0.3 * r * coord(rng) / 10;
    }
    const std::optional<curves::Curve> c = curves::shortest_dubins(a, b, r);
    ASSERT_TRUE(c);
    const double expected = closed_form_dubins(a, b, r);
    ASSERT_TRUE(std::isfinite(expected));
    EXPECT_NEAR(c->length(), expected, 1e-7 * std::max(1.0, expected)) << i;
    for (int k = 0; k < c->count; ++k) EXPECT_GE(c->pieces[std::size_t(k)].length, 0.0);
    EXPECT_TRUE(same_pose(integrate(a, word_of(*c, r)), b, 1e-6 * std::max(1.0, r))) << i;
    EXPECT_TRUE(same_pose(curves::end_of(a, *c, r), b, 1e-9 * std::max(1.0, r))) << i;
    EXPECT_GE(c->length(), std::hypot(b.x - a.x, b.y - a.y) * (1 - 1e-12));
    ccc += c->pieces[1].steer != curves::Steer::straight;
    ++compared;
  }
  EXPECT_EQ(compared, 1500);
  EXPECT_GT(ccc, 25) << "the CCC words are exercised";
}

double reeds_shepp(Pose a, Pose b, double r) {
  const std::optional<curves::Curve> c = curves::shortest_reeds_shepp(a, b, r);
  return c ? c->length() : INFINITY;
}

// Every word of every family, solved in closed form, is a real path: integrated independently
// it ends at the goal pose. Every family and both directions of travel turn up.
TEST(ReedsShepp, EveryWordEndsAtTheGoal) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> coord(-6, 6), angle(-pi, pi), radius(0.3, 3);
  std::array<int, 6> by_count{};
  int backwards = 0, words = 0;
  for (int i = 0; i < 400; ++i) {
    const Pose a{coord(rng), coord(rng), angle(rng)};
    Pose b{coord(rng), coord(rng), angle(rng)};
    const double r = radius(rng);
    if (i % 2 == 0) {  // near poses, where the words with cusps win
      b.x = a.x + 0.4 * r * coord(rng) / 6;
      b.y = a.y + 0.4 * r * coord(rng) / 6;
    }
    const std::vector<curves::Curve> all = curves::reeds_shepp_paths(a, b, r);
    ASSERT_FALSE(all.empty());
    for (const curves::Curve& c : all) {
      ++words;
      ++by_count[std::size_t(c.count)];
      for (int k = 0; k < c.count; ++k) backwards += c.pieces[std::size_t(k)].length < 0;
      // The independent integration for one pair in eight (it takes 10^4 steps a word).
      if (i % 8 == 0) {
        ASSERT_TRUE(same_pose(integrate(a, word_of(c, r)), b, 1e-6 * std::max(1.0, r))) << i;
      }
      ASSERT_TRUE(same_pose(curves::end_of(a, c, r), b, 1e-9 * std::max(1.0, r))) << i;
    }
  }
  EXPECT_GT(by_count[3], 0) << "CSC and CCC";
  EXPECT_GT(by_count[4], 0) << "CCCC and C C S C";
  EXPECT_GT(by_count[5], 0) << "C C S C C";
  EXPECT_GT(backwards, words / 4);
}

// The shortest word is a distance: symmetric, no shorter than the straight line, never longer
// than a Dubins path driven forwards from a or backwards from b, and obeying the triangle
// inequality; straight ahead or behind it is the plain distance.
TEST(ReedsShepp, ShortestIsAMetricNeverLongerThanDubins) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> coord(-5, 5), angle(-pi, pi);
  const double r = 1.5;
  for (int i = 0; i < 2000; ++i) {
    const Pose a{coord(rng), coord(rng), angle(rng)}, b{coord(rng), coord(rng), angle(rng)},
        c{coord(rng), coord(rng), angle(rng)};
    const double ab = reeds_shepp(a, b, r), ba = reeds_shepp(b, a, r);
    ASSERT_TRUE(std::isfinite(ab) && std::isfinite(ba));
    EXPECT_NEAR(ab, ba, 1e-9 * std::max(1.0, ab)) << i;
    EXPECT_GE(ab, std::hypot(b.x - a.x, b.y - a.y) * (1 - 1e-12));
    EXPECT_LE(ab, curves::shortest_dubins(a, b, r)->length() + 1e-9);
    EXPECT_LE(ab, curves::shortest_dubins(b, a, r)->length() + 1e-9);
    EXPECT_LE(reeds_shepp(a, c, r), ab + reeds_shepp(b, c, r) + 1e-9) << i;
  }
  for (const double x : {-3.0, -0.25, 0.0, 0.7, 40.0}) {
    const Pose a{1, 2, 0.3};
    const Pose b{1 + x * std::cos(0.3), 2 + x * std::sin(0.3), 0.3};
    EXPECT_NEAR(reeds_shepp(a, b, r), std::abs(x), 1e-9) << x;
  }
}

// Bellman's principle as an independent check that no optimal word is missing. Every word is a
// real path, so the shortest is never below the true distance d; were it above d somewhere, it
// would be so on a region of poses, and along a true shortest path into that region it would
// grow faster than the path's own length. So along random paths driven from a, in small steps
// h, the computed distance from a must never grow by more than h, and never exceed the length
// driven so far.
TEST(ReedsShepp, NeverGrowsFasterThanTheLengthDriven) {
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<double> coord(-3, 3), angle(-pi, pi), piece(0.0, 2.5);
  std::uniform_int_distribution<int> steer(-1, 1), gear(0, 1);
  const double r = 1.0, h = 0.01;
  int steps = 0;
  for (int walk = 0; walk < 60; ++walk) {
    const Pose a{coord(rng), coord(rng), angle(rng)};
    Pose q = a;
    double driven = 0.0, d = 0.0;
    for (int p = 0; p < 5; ++p) {
      const curves::Steer s = curves::Steer(steer(rng));
      const double sign = gear(rng) ? 1.0 : -1.0;
      const int n = int(piece(rng) / h);
      for (int k = 0; k < n; ++k, ++steps) {
        q = curves::advance(q, s, sign * h, r);
        driven += h;
        const double next = reeds_shepp(a, q, r);
        ASSERT_LE(next, d + h * (1 + 1e-9) + 1e-9) << "walk " << walk << " piece " << p;
        ASSERT_LE(next, driven + 1e-9) << "walk " << walk << " piece " << p;
        d = next;
      }
    }
  }
  EXPECT_GT(steps, 10000);
}

TEST(Dubins, ArcThenLineEndsAtThePointWithItsStraightPiece) {
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> coord(-5, 5), angle(-pi, pi);
  int curves_seen = 0;
  for (int i = 0; i < 500; ++i) {
    const Pose a{coord(rng), coord(rng), angle(rng)};
    const Point g{coord(rng), coord(rng)};
    for (const bool backwards : {false, true}) {
      for (const curves::Curve& c : curves::arc_then_line(a, g, 1.0, backwards)) {
        ++curves_seen;
        ASSERT_EQ(c.count, 2);
        EXPECT_EQ(c.pieces[1].steer, curves::Steer::straight);
        for (int k = 0; k < 2; ++k)
          EXPECT_EQ(c.pieces[std::size_t(k)].length < 0,
                    backwards && c.pieces[std::size_t(k)].length != 0);
        const Pose end = curves::end_of(a, c, 1.0);
        EXPECT_NEAR(end.x, g.x, 1e-9);
        EXPECT_NEAR(end.y, g.y, 1e-9);
        // Forwards it is never shorter than the straight line; and no Dubins curve to the
        // heading it arrives in is shorter.
        EXPECT_GE(c.length(), distance(a.at(), g) * (1 - 1e-12));
        if (!backwards) {
          const Pose goal{g.x, g.y, end.theta};
          EXPECT_GE(c.length(), closed_form_dubins(a, goal, 1.0) - 1e-7);
        }
      }
    }
  }
  EXPECT_GT(curves_seen, 1000);
}

TEST(Curvature, CircumcirclesOfADensifiedArc) {
  std::vector<Point> arc;
  const double r = 2.5;
  for (int k = 0; k <= 40; ++k)
    arc.push_back({3 + r * std::cos(0.05 * k), -1 + r * std::sin(0.05 * k)});
  EXPECT_NEAR(curves::max_curvature(arc), 1 / r, 1e-9);
  EXPECT_EQ(curves::max_curvature(std::vector<Point>{{0, 0}, {1, 0}, {2, 0}}), 0.0);
  // A cusp (reversing) is skipped; a sharp forward corner is not.
  EXPECT_EQ(curves::max_curvature(std::vector<Point>{{0, 0}, {1, 0}, {0.5, 0.01}}), 0.0);
  EXPECT_GT(curves::max_curvature(std::vector<Point>{{0, 0}, {1, 0}, {1, 1}}), 1.0);
}

// The exact arc check is sound: an arc it accepts has every chord of a fine sampling in exact
// line of sight, and the independent checker accepts that polyline; and it is not much more
// conservative than the chords.
TEST(Hybrid, AcceptedArcsLieInFreeSpace) {
  int accepted = 0, chords_only = 0;
  for (unsigned seed = 0; seed < 6; ++seed) {
    const Scene scene = test::random_scene(seed, seed % 2 == 0 ? 0.0 : 0.2);
    const FreeSpace space(scene);
    const validity::ExactChecker checker(scene);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> coord(0, 20), angle(-pi, pi), length(-1.5, 1.5);
    for (int i = 0; i < 1500; ++i) {
      const Pose p{coord(rng), coord(rng), angle(rng)};
      if (!space.is_free(p.at())) continue;
      const curves::Steer s = i % 2 == 0 ? curves::Steer::left : curves::Steer::right;
      const double l = length(rng), r = 0.4;
      std::vector<Point> fine{p.at()};
      for (int k = 1; k <= 64; ++k) fine.push_back(curves::advance(p, s, l * k / 64, r).at());
      bool chords = true;
      for (std::size_t k = 1; k < fine.size(); ++k)
        chords = chords && space.line_of_sight(fine[k - 1], fine[k]);
      std::vector<Point> samples{p.at()};
      if (hybrid_arc_is_free(space, p, s, l, r, 0.05, &samples)) {
        ++accepted;
        EXPECT_TRUE(chords) << i;
        EXPECT_TRUE(checker.check_path(fine).valid()) << i;
        EXPECT_TRUE(checker.check_path(samples).valid()) << i;
        EXPECT_TRUE(same_pose({samples.back().x, samples.back().y, 0},
                              {fine.back().x, fine.back().y, 0}, 1e-12));
      } else {
        chords_only += chords;
      }
    }
  }
  EXPECT_GT(accepted, 2000);
  EXPECT_LT(chords_only, accepted / 50) << "the triangles reject few arcs whose chords are free";
}

Scene empty_scene(double side) {
  Scene s;
  s.bounds = rect(0, 0, side, side);
  return s;
}

RawPath plan_pose(const FreeSpace& space, HybridOptions o, Point start, Point goal,
                  QueryOptions q = {}) {
  const std::unique_ptr<Method> m = make_hybrid_method(space, o);
  QueryWorkspace ws;
  m->prepare(ws);
  return m->find_path(start, goal, q, ws);
}

double degrees(double radians) {
  return radians * 180 / pi;
}

// Whether some chord runs against the heading at its start (driven backwards).
bool drives_backwards(const RawPath& r) {
  for (std::size_t k = 0; k + 1 < r.points.size(); ++k) {
    const Point d = r.points[k + 1] - r.points[k];
    if (dot(d, {std::cos(r.headings[k]), std::sin(r.headings[k])}) < -1e-9 * norm(d)) return true;
  }
  return false;
}

TEST(Hybrid, EmptySceneLengthIsTheDubinsDistance) {
  const Scene scene = empty_scene(100);
  const FreeSpace space(scene);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> coord(35, 65), angle(-180, 180);
  for (int i = 0; i < 200; ++i) {
    HybridOptions o;
    o.turning_radius = 2.0;
    o.spacing = 0.02;
    o.start_heading = angle(rng);
    o.goal_heading = angle(rng);
    const Point a{coord(rng), coord(rng)}, b{coord(rng), coord(rng)};
    const RawPath r = plan_pose(space, o, a, b);
    ASSERT_EQ(r.status, search::SearchStatus::found) << r.message;
    const double expected = closed_form_dubins({a.x, a.y, o.start_heading * pi / 180},
                                               {b.x, b.y, o.goal_heading * pi / 180}, 2.0);
    EXPECT_NEAR(r.graph_cost, expected, 1e-7 * expected) << i;
    // The polyline's chords are a little shorter than the arcs they stand for.
    const double length = polyline_length(r.points);
    EXPECT_LE(length, expected * (1 + 1e-9));
    EXPECT_GE(length, expected * (1 - 1e-4));
    EXPECT_EQ(r.points.front(), a);
    EXPECT_EQ(r.points.back(), b);
    ASSERT_EQ(r.headings.size(), r.points.size());
    EXPECT_NEAR(curves::wrap_pi(r.headings.front() - o.start_heading * pi / 180), 0, 1e-9);
    EXPECT_NEAR(curves::wrap_pi(r.headings.back() - o.goal_heading * pi / 180), 0, 1e-9);
    EXPECT_LE(curves::max_curvature(r.points), 0.5 * (1 + 1e-6));
    EXPECT_FALSE(drives_backwards(r));
  }
}

TEST(Hybrid, EmptySceneLengthIsTheReedsSheppDistanceAndReverses) {
  const Scene scene = empty_scene(100);
  const FreeSpace space(scene);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> coord(40, 60), angle(-180, 180);
  int reversed = 0;
  for (int i = 0; i < 100; ++i) {
    HybridOptions o;
    o.turning_radius = 2.0;
    o.motion = HybridMotion::reeds_shepp;
    o.reverse_penalty = 1.0;
    o.spacing = 0.02;
    const double ha = angle(rng), hb = angle(rng);
    const Point a{coord(rng), coord(rng)}, b{coord(rng), coord(rng)};
    o.start_heading = ha;
    o.goal_heading = hb;
    const RawPath ab = plan_pose(space, o, a, b);
    o.start_heading = hb;
    o.goal_heading = ha;
    const RawPath ba = plan_pose(space, o, b, a);
    ASSERT_EQ(ab.status, search::SearchStatus::found) << ab.message;
    ASSERT_EQ(ba.status, search::SearchStatus::found) << ba.message;
    const Pose pa{a.x, a.y, ha * pi / 180}, pb{b.x, b.y, hb * pi / 180};
    const double dubins = closed_form_dubins(pa, pb, 2.0);
    EXPECT_LE(ab.graph_cost, dubins * (1 + 1e-9));
    // On an empty scene the analytic curve from the start is free: the Reeds-Shepp distance.
    EXPECT_NEAR(ab.graph_cost, reeds_shepp(pa, pb, 2.0), 1e-9 * ab.graph_cost) << i;
    const double length = polyline_length(ab.points);
    EXPECT_LE(length, ab.graph_cost * (1 + 1e-9));
    EXPECT_GE(length, ab.graph_cost * (1 - 1e-4));
    EXPECT_EQ(ab.points.back(), b);
    EXPECT_NEAR(curves::wrap_pi(ab.headings.back() - pb.theta), 0, 1e-9);
    EXPECT_NEAR(ab.graph_cost, ba.graph_cost, 1e-7 * ab.graph_cost);
    EXPECT_LE(curves::max_curvature(ab.points), 0.5 * (1 + 1e-6));
    reversed += drives_backwards(ab);
  }
  EXPECT_GT(reversed, 10) << "reverse motion is used where it is shorter";
  // Parking one metre straight back: reverse with reeds-shepp, a loop with dubins.
  HybridOptions o;
  o.turning_radius = 2.0;
  o.start_heading = 0;
  o.goal_heading = 0;
  const RawPath loop = plan_pose(space, o, {50, 50}, {49, 50});
  ASSERT_EQ(loop.status, search::SearchStatus::found);
  EXPECT_GT(loop.graph_cost, 2 * pi * 2.0 * 0.9);
  EXPECT_FALSE(drives_backwards(loop));
  o.motion = HybridMotion::reeds_shepp;
  const RawPath back = plan_pose(space, o, {50, 50}, {49, 50});
  ASSERT_EQ(back.status, search::SearchStatus::found);
  EXPECT_NEAR(back.graph_cost, 1.0 * o.reverse_penalty, 1e-9);
  EXPECT_TRUE(drives_backwards(back));
}

// Among obstacles, through the Planner: every found path valid by the independent checker, its
// curvature bounded, arriving in the heading asked for.
TEST(Hybrid, PathsAmongObstaclesAreValidCurvatureBoundedAndArriveAsAsked) {
  int found = 0, queries = 0;
  for (unsigned seed = 0; seed < 12; ++seed) {
    const double agent = seed % 3 == 0 ? 0.0 : 0.1;
    const Scene scene = test::random_scene(seed, agent);
    const validity::ExactChecker checker(scene);
    for (const char* motion : {"dubins", "reeds-shepp"}) {
      PlanOptions options;
      options.method = "hybrid";
      options.smoother = "none";
      options.settings.set("hybrid.motion", std::string(motion));
      options.settings.set("hybrid.turning_radius", 0.5);
      if (seed % 2 == 0) options.settings.set("hybrid.goal_heading", 90.0);
      const Planner planner(scene, options);
      std::mt19937_64 rng(seed);
      std::uniform_real_distribution<double> coord(0.5, 19.5);
      for (int i = 0; i < 15; ++i) {
        const Point a{coord(rng), coord(rng)}, b{coord(rng), coord(rng)};
        if (!planner.free_space().is_free(a) || !planner.free_space().is_free(b)) continue;
        ++queries;
        const PlanResult r = planner.plan(a, b);
        if (!r.found()) {
          EXPECT_TRUE(r.status == search::SearchStatus::no_path) << r.message;
          EXPECT_FALSE(r.message.empty());
          continue;
        }
        ++found;
        const validity::Verdict v = checker.check_path(r.raw_waypoints);
        EXPECT_TRUE(v.valid()) << v.reason;
        EXPECT_EQ(r.raw_waypoints.front(), a);
        EXPECT_EQ(r.raw_waypoints.back(), b);
        EXPECT_LE(curves::max_curvature(r.raw_waypoints), 2.0 * (1 + 1e-6));
        if (seed % 2 == 0 && r.raw_waypoints.size() >= 2) {
          // The last chord points (within the chord's half angle) along +y, or against it when
          // arriving backwards.
          const Point d = r.raw_waypoints.back() - r.raw_waypoints[r.raw_waypoints.size() - 2];
          EXPECT_GT(std::abs(d.y) / norm(d), std::cos(0.2)) << degrees(std::atan2(d.y, d.x));
        }
      }
    }
  }
  EXPECT_GT(found, queries / 2);
}

TEST(Hybrid, HeadingsAreGivenAtEveryRawWaypoint) {
  const Scene scene = test::random_scene(1, 0.0);
  const FreeSpace space(scene);
  HybridOptions o;
  o.turning_radius = 0.5;
  o.goal_heading = -45;
  const RawPath r = plan_pose(space, o, {1, 1}, {19, 19});
  if (r.status != search::SearchStatus::found) GTEST_SKIP() << r.message;
  ASSERT_EQ(r.headings.size(), r.points.size());
  EXPECT_NEAR(r.headings.back(), -pi / 4, 1e-9);
  // Consecutive headings differ by no more than a chord's arc: spacing / radius.
  for (std::size_t k = 0; k + 1 < r.headings.size(); ++k) {
    const double turn = std::abs(curves::wrap_pi(r.headings[k + 1] - r.headings[k]));
    EXPECT_LE(turn, distance(r.points[k], r.points[k + 1]) / 0.5 * 1.01 + 1e-9);
  }
}

TEST(Hybrid, BadOptionsAreRefusedByName) {
  const Scene scene = empty_scene(20);
  const auto refusal = [&](const char* key, const char* value) {
    PlanOptions options;
    options.method = "hybrid";
    options.settings.set(key, std::string(value));
    return test::error_of([&] { Planner planner(scene, options); });
  };
  EXPECT_NE(refusal("hybrid.turning_radius", "0").find("hybrid.turning_radius"), std::string::npos);
  EXPECT_NE(refusal("hybrid.turning_radius", "-1").find("hybrid.turning_radius"),
            std::string::npos);
  EXPECT_NE(refusal("hybrid.headings", "3").find("hybrid.headings"), std::string::npos);
  EXPECT_NE(refusal("hybrid.motion", "tank").find("hybrid.motion"), std::string::npos);
  EXPECT_NE(refusal("hybrid.start_heading", "north").find("hybrid.start_heading"),
            std::string::npos);
  EXPECT_NE(refusal("hybrid.max_expansions", "0").find("hybrid.max_expansions"), std::string::npos);
  EXPECT_EQ(refusal("hybrid.goal_heading", "auto"), "");
  EXPECT_EQ(refusal("hybrid.goal_heading", "-90"), "");
  // Built directly, the same checks.
  const FreeSpace space(scene);
  HybridOptions o;
  o.turning_radius = -2;
  EXPECT_NE(test::error_of([&] { resolve_hybrid(space, o); }).find("hybrid.turning_radius"),
            std::string::npos);
  o = {};
  o.headings = 2;
  EXPECT_NE(test::error_of([&] { resolve_hybrid(space, o); }).find("hybrid.headings"),
            std::string::npos);
}

TEST(Hybrid, ImpossibleTurnsAndBudgetsEndInAClearNoPath) {
  // A dead-end corridor 1 wide: the goal at its end faces out, so a forward-only agent with a
  // turning radius of 3 has to enter backwards, which it cannot.
  Scene scene = empty_scene(20);
  scene.obstacles.push_back({{rect(5, 0, 20, 9.5), {}}, {}});
  scene.obstacles.push_back({{rect(5, 10.5, 20, 20), {}}, {}});
  const FreeSpace space(scene);
  HybridOptions o;
  o.turning_radius = 3;
  o.start_heading = 0;
  o.goal_heading = 180;
  o.max_expansions = 2000;
  const RawPath r = plan_pose(space, o, {2.5, 10}, {15, 10});
  EXPECT_EQ(r.status, search::SearchStatus::no_path);
  EXPECT_NE(r.message.find("turning radius 3"), std::string::npos) << r.message;
  // With reeds-shepp it backs in.
  o.motion = HybridMotion::reeds_shepp;
  const RawPath backwards = plan_pose(space, o, {2.5, 10}, {15, 10});
  EXPECT_EQ(backwards.status, search::SearchStatus::found) << backwards.message;
  if (backwards.status == search::SearchStatus::found) {
    EXPECT_TRUE(drives_backwards(backwards));
    EXPECT_TRUE(validity::ExactChecker(scene).check_path(backwards.points).valid());
  }
  // A budget of one expansion behind a wall: no_path naming the budget.
  Scene wall = empty_scene(20);
  wall.obstacles.push_back({{rect(9, 2, 11, 18), {}}, {}});
  const FreeSpace walled(wall);
  HybridOptions tight;
  tight.turning_radius = 1;
  tight.max_expansions = 1;
  const RawPath stopped = plan_pose(walled, tight, {5, 10}, {15, 10});
  EXPECT_EQ(stopped.status, search::SearchStatus::no_path);
  EXPECT_NE(stopped.message.find("hybrid.max_expansions"), std::string::npos) << stopped.message;
  // The search's own expansion limit is a limit.
  QueryOptions limited;
  limited.search.max_expansions = 1;
  tight.max_expansions = 1000;
  EXPECT_EQ(plan_pose(walled, tight, {5, 10}, {15, 10}, limited).status,
            search::SearchStatus::limit_reached);
  // And with the default budget it goes round.
  tight.max_expansions = HybridOptions{}.max_expansions;
  const RawPath round = plan_pose(walled, tight, {5, 10}, {15, 10});
  EXPECT_EQ(round.status, search::SearchStatus::found) << round.message;
}

// Methods are appended to the registry, so that existing outputs keep their order.
TEST(Hybrid, IsRegisteredAfterTheMethodsBeforeIt) {
  const std::vector<std::string> expected = {"grid",      "quadtree",  "visgraph",
                                             "navmesh",   "hexgrid",   "clearance",
                                             "waypoints", "potential", "hybrid"};
  const std::vector<std::string> names = method_names();
  ASSERT_GE(names.size(), expected.size());
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 9), expected);
}

}  // namespace
}  // namespace polynav
