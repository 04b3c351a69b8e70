#include "polynav/smooth/spline.hpp"

#include <algorithm>
#include <cmath>

#include "polynav/smooth/path_simplifier.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

// One span in Hermite form over u in [0, 1]: from p1 to p2 with end tangents m1, m2.
struct Hermite {
  Point p1, p2, m1, m2;

  Point at(double u) const {
    const double u2 = u * u, u3 = u2 * u;
    const double a = 2 * u3 - 3 * u2 + 1, b = u3 - 2 * u2 + u, c = -2 * u3 + 3 * u2, d = u3 - u2;
    return {a * p1.x + b * m1.x + c * p2.x + d * m2.x, a * p1.y + b * m1.y + c * p2.y + d * m2.y};
  }
  // Curvature |x'y'' - y'x''| / |v|^3 at u.
  double curvature(double u) const {
    const double u2 = u * u;
    const double a1 = 6 * u2 - 6 * u, b1 = 3 * u2 - 4 * u + 1, c1 = -a1, d1 = 3 * u2 - 2 * u;
    const double a2 = 12 * u - 6, b2 = 6 * u - 4, c2 = -a2, d2 = 6 * u - 2;
    const double vx = a1 * p1.x + b1 * m1.x + c1 * p2.x + d1 * m2.x;
    const double vy = a1 * p1.y + b1 * m1.y + c1 * p2.y + d1 * m2.y;
    const double ax = a2 * p1.x + b2 * m1.x + c2 * p2.x + d2 * m2.x;
    const double ay = a2 * p1.y + b2 * m1.y + c2 * p2.y + d2 * m2.y;
    const double speed = std::hypot(vx, vy);
    return speed > 0 ? std::abs(vx * ay - vy * ax) / (speed * speed * speed) : 0.0;
  }
};

// The span from p1 to p2 of the centripetal Catmull-Rom spline through p0, p1, p2, p3: knots
// spaced by the square root of the chord lengths, tangents at p1 and p2 of the cubic through the
// four points at those knots (Barry and Goldman's pyramid, differentiated), scaled to u in
// [0, 1] over the span.
Hermite centripetal(Point p0, Point p1, Point p2, Point p3) {
  const double t01 = std::sqrt(distance(p0, p1)), t12 = std::sqrt(distance(p1, p2));
  const double t23 = std::sqrt(distance(p2, p3));
  const Point chord = p2 - p1;
  const Point m1 = chord + t12 * ((1.0 / t01) * (p1 - p0) - (1.0 / (t01 + t12)) * (p2 - p0));
  const Point m2 = chord + t12 * ((1.0 / t23) * (p3 - p2) - (1.0 / (t12 + t23)) * (p3 - p1));
  return {p1, p2, m1, m2};
}

}  // namespace

SplineResult spline_smooth(const FreeSpace& space, const std::vector<Point>& waypoints,
                           const SplineOptions& options) {
  SplineResult out;
  const std::size_t n = waypoints.size();
  out.spans = n > 0 ? n - 1 : 0;
  if (n < 3) {
    // Through two points the spline is their segment.
    out.path = waypoints;
    out.curved = out.spans;
    return out;
  }
  const std::size_t samples = std::max<std::size_t>(options.samples, 1);
  const int straight = std::max(options.refinements, 0) + 1;  // the level of a straight span
  // The ends continue their first and last segments (reflected phantom points), so the curve
  // leaves the start and reaches the goal along the input's own directions.
  const auto point = [&](std::ptrdiff_t i) {
    if (i < 0) return 2.0 * waypoints[0] - waypoints[1];
    if (i >= std::ptrdiff_t(n)) return 2.0 * waypoints[n - 1] - waypoints[n - 2];
    return waypoints[std::size_t(i)];
  };
  std::vector<Hermite> spans(n - 1);
  for (std::size_t i = 0; i + 1 < n; ++i)
    spans[i] = centripetal(point(std::ptrdiff_t(i) - 1), point(std::ptrdiff_t(i)),
                           point(std::ptrdiff_t(i) + 1), point(std::ptrdiff_t(i) + 2));
  // Per span: its level (0 the full curve, k its tangents halved k times, `straight` the input's
  // segment) and its points after the first (the last is the next waypoint, exactly).
  std::vector<int> level(n - 1, 0);
  std::vector<std::vector<Point>> points(n - 1);
  const auto sample = [&](std::size_t i, int l, std::vector<Point>& out_points) {
    out_points.clear();
    if (l < straight) {
      Hermite h = spans[i];
      const double scale = std::ldexp(1.0, -l);
      h.m1 = scale * h.m1;
      h.m2 = scale * h.m2;
      for (std::size_t k = 1; k < samples; ++k) {
        const Point p = h.at(double(k) / double(samples));
        if (!(p == (out_points.empty() ? h.p1 : out_points.back()))) out_points.push_back(p);
      }
    }
    out_points.push_back(waypoints[i + 1]);
  };
  // Whether span i, sampled into `span_points`, is valid and joins the path before it: every
  // piece traversable, every turn at a sample free, and the turn at its first waypoint too.
  const auto valid = [&](std::size_t i, const std::vector<Point>& span_points) {
    Point before = waypoints[i];
    const Point* previous = nullptr;  // the point before waypoint i on the path
    if (i > 0) {
      const std::vector<Point>& last = points[i - 1];
      previous = last.size() >= 2 ? &last[last.size() - 2] : &waypoints[i - 1];
    }
    for (std::size_t k = 0; k < span_points.size(); ++k) {
      const Point p = span_points[k];
      if (!space.traversable(before, p)) return false;
      const Point* from = k == 0 ? previous : (k == 1 ? &waypoints[i] : &span_points[k - 2]);
      if (from != nullptr && !(*from == before) && !(p == before) &&
          !space.turn_is_free(*from, before, p))
        return false;
      before = p;
    }
    return true;
  };
  std::vector<Point> candidate;
  for (std::size_t i = 0; i + 1 < n;) {
    bool placed = false;
    for (int l = level[i]; l <= straight && !placed; ++l) {
      sample(i, l, candidate);
      if (valid(i, candidate)) {
        level[i] = l;
        points[i] = candidate;
        placed = true;
      }
    }
    if (placed) {
      ++i;
      continue;
    }
    // Even the straight segment cannot leave waypoint i the way the curve before it arrives (a
    // turn through a pinch): straighten the span before, whose straight end makes the turn at
    // waypoint i the input's own, and place it again. Each such step raises an earlier span's
    // level, so the levels read from the first span grow and this ends. Where the span before
    // is straight already (or there is none), the input's own segments fail these checks: the
    // input is the answer, every span straight.
    if (i == 0 || level[i - 1] == straight) {
      for (std::size_t j = 0; j + 1 < n; ++j) {
        level[j] = straight;
        points[j] = {waypoints[j + 1]};
      }
      break;
    }
    level[i - 1] = straight;
    level[i] = 0;
    --i;
  }

  out.path.push_back(waypoints[0]);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    out.path.insert(out.path.end(), points[i].begin(), points[i].end());
    if (level[i] == straight) {
      ++out.straight;
      continue;
    }
    ++out.curved;
    out.flattened += level[i] > 0 ? 1 : 0;
    Hermite h = spans[i];
    const double scale = std::ldexp(1.0, -level[i]);
    h.m1 = scale * h.m1;
    h.m2 = scale * h.m2;
    const std::size_t steps = 4 * samples;
    for (std::size_t k = 0; k <= steps; ++k)
      out.max_curvature = std::max(out.max_curvature, h.curvature(double(k) / double(steps)));
  }
  for (std::size_t i = 1; i + 1 < n; ++i)
    out.corners += level[i - 1] == straight || level[i] == straight ? 1 : 0;
  // The pieces were checked one by one; the whole path is checked once more, and the input
  // (valid) is the answer if the curve is not.
  if (!PathSimplifier(space).is_valid(out.path)) {
    out.path = waypoints;
    out.curved = out.flattened = 0;
    out.straight = out.spans;
    out.corners = n - 2;
    out.max_curvature = 0.0;
    out.fell_back = true;
  }
  return out;
}

}  // namespace polynav
