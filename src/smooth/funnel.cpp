#include "polynav/smooth/funnel.hpp"

#include "polynav/kernel/exact.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {

void funnel(Point start, Point goal, std::span<const Segment> portals, std::vector<Point>& out,
            std::vector<Segment>& p) {
  out.clear();
  // The portals with the start and the goal as degenerate first and last ones, each oriented
  // against an exact point it is entered from (a portal end is never constructed): that point
  // must lie on the right of a -> b (facing the travel direction, the left end a is then on
  // the left).
  p.clear();
  p.push_back({start, start});
  for (const Segment& s : portals) {
    const Segment& before = p.back();
    int side = exact::orientation(s.a, s.b, before.a);
    if (side == 0) side = exact::orientation(s.a, s.b, before.b);
    p.push_back(side > 0 ? Segment{s.b, s.a} : s);
  }
  p.push_back({goal, goal});

  out.push_back(start);
  Point apex = start, left = start, right = start;
  std::size_t left_index = 0, right_index = 0;
  for (std::size_t i = 1; i < p.size(); ++i) {
    const Point l = p[i].a, r = p[i].b;
    // The right side: r does not widen the funnel (it is on or left of the apex -> right ray).
    if (exact::orientation(apex, right, r) >= 0) {
      if (apex == right || exact::orientation(apex, left, r) < 0) {
        right = r;
        right_index = i;
      } else {
        // r crosses over the left side: the left point is a corner of the path.
        apex = left;
        if (!(out.back() == apex)) out.push_back(apex);
        right = left = apex;
        right_index = left_index;
        i = left_index;
        continue;
      }
    }
    // The left side, mirrored.
    if (exact::orientation(apex, left, l) <= 0) {
      if (apex == left || exact::orientation(apex, right, l) > 0) {
        left = l;
        left_index = i;
      } else {
        apex = right;
        if (!(out.back() == apex)) out.push_back(apex);
        left = right = apex;
        left_index = right_index;
        i = right_index;
        continue;
      }
    }
  }
  if (!(out.back() == goal)) out.push_back(goal);
}

std::vector<Point> funnel(Point start, Point goal, std::span<const Segment> portals) {
  std::vector<Point> out;
  std::vector<Segment> scratch;
  funnel(start, goal, portals, out, scratch);
  return out;
}

namespace {

bool valid(const FreeSpace& space, const std::vector<Point>& path) {
  for (std::size_t i = 1; i < path.size(); ++i) {
    if (!space.traversable(path[i - 1], path[i])) return false;
    if (i + 1 < path.size() && !space.turn_is_free(path[i - 1], path[i], path[i + 1])) return false;
  }
  return true;
}

Point midpoint(const Segment& s) {
  return 0.5 * (s.a + s.b);
}

}  // namespace

std::vector<Point> funnel_smooth(const FreeSpace& space, std::span<const Segment> corridor,
                                 const std::vector<Point>& raw) {
  const Point start = raw.front(), goal = raw.back();
  std::vector<Point> best = raw;
  double best_cost = space.path_cost(raw);
  const auto consider = [&](std::vector<Point>&& path) {
    if (!valid(space, path)) return;
    const double cost = space.path_cost(path);
    if (cost <= best_cost) {
      best_cost = cost;
      best = std::move(path);
    }
  };
  if (space.weighted()) {
    // The cost of the stretch before portal j (between the previous portal or the start and it),
    // taken midway between their midpoints, which lies inside the region between them.
    const std::size_t n = corridor.size();
    const auto at = [&](std::size_t j) {
      return j == 0 ? start : j > n ? goal : midpoint(corridor[j - 1]);
    };
    std::vector<Point> joined{start}, piece;
    std::vector<Segment> scratch;
    std::size_t first = 0;
    Point from = start;
    double run_cost = space.cost_at(0.5 * (at(0) + at(1)));
    for (std::size_t j = 0; j <= n; ++j) {
      const double next_cost = j < n ? space.cost_at(0.5 * (at(j + 1) + at(j + 2))) : run_cost;
      if (j < n && next_cost == run_cost) continue;
      const Point to = j < n ? midpoint(corridor[j]) : goal;
      funnel(from, to, corridor.subspan(first, j - first), piece, scratch);
      joined.insert(joined.end(), piece.begin() + 1, piece.end());
      from = to;
      first = j + 1;
      run_cost = next_cost;
    }
    consider(std::move(joined));
  }
  consider(funnel(start, goal, corridor));
  return best;
}

}  // namespace polynav
