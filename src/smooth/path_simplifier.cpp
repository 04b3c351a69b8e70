#include "polynav/smooth/path_simplifier.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "polynav/kernel/exact.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {

namespace {

// prefix[k]: exact cost of the path up to waypoint k, to compare a shortcut with the part of the
// path it replaces (in weighted scenes a straight line can cost more).
std::vector<double> prefix_costs(const FreeSpace& space, const std::vector<Point>& path) {
  std::vector<double> prefix(path.size(), 0.0);
  for (std::size_t k = 1; k < path.size(); ++k)
    prefix[k] = prefix[k - 1] + space.segment_cost(path[k - 1], path[k]);
  return prefix;
}

// Whether a straight move costing `move` may replace a stretch of path costing `replaced`: not
// dearer, up to the rounding of the two sums (in weighted scenes a straight line can cost more).
bool no_dearer(double move, double replaced) {
  return move <= replaced * (1.0 + 1e-12);
}

// Whether c continues the straight run from a through b: it lies on the ray from a through b,
// beyond b. While every waypoint since an anchor does, the segment from the anchor to the latest
// is the path itself, so it needs no sightline test and costs the same (the skip of the Central64
// technical report's smoothers, exact for any waypoints).
bool continues_run(Point a, Point b, Point c) {
  return !(b == a) && !(c == b) && exact::orientation(a, b, c) == 0 &&
         exact::collinear_between(a, c, b);
}

}  // namespace

bool PathSimplifier::shortcut(std::vector<Point>& path) const {
  if (path.size() < 3) return false;
  const FreeSpace& space = *space_;
  const std::vector<double> prefix = prefix_costs(space, path);
  std::vector<Point> out{path.front()};
  bool changed = false;
  for (std::size_t i = 0; i + 1 < path.size();) {
    std::size_t best = i + 1;
    bool straight = true;  // path[i .. j] is one straight run
    for (std::size_t j = i + 2; j < path.size(); ++j) {
      straight = straight && continues_run(path[i], path[j - 1], path[j]);
      // Along a straight run every turn below is one the input already makes (free, as the
      // input path is valid and path[i] was chosen so that its onward turn is): only off the
      // run are they tested.
      if (!straight) {
        if (!space.traversable(path[i], path[j])) break;
        // The new corner at path[i] must not turn through a pinch (for i = 0 there is none).
        if (out.size() >= 2 && !space.turn_is_free(out[out.size() - 2], path[i], path[j])) break;
        // And the path must be able to go on from path[j] as before: the turn there, from
        // path[i] to path[j + 1], must not go through a pinch either.
        if (j + 1 < path.size() && !space.turn_is_free(path[i], path[j], path[j + 1])) continue;
      }
      if (straight || no_dearer(space.segment_cost(path[i], path[j]), prefix[j] - prefix[i]))
        best = j;
    }
    changed = changed || best != i + 1;
    out.push_back(path[best]);
    i = best;
  }
  path = std::move(out);
  return changed;
}

bool PathSimplifier::tentpole(std::vector<Point>& path) const {
  if (path.size() < 3) return false;
  const FreeSpace& space = *space_;
  const std::size_t n = path.size();
  const std::vector<double> prefix = prefix_costs(space, path);
  // Whether the straight move from waypoint i to waypoint j (i < j) is traversable and costs
  // no more than the path it replaces; `straight`: path[i .. j] is known to be one straight run,
  // so the move is the path itself.
  const auto joins = [&](std::size_t i, std::size_t j, bool straight) {
    if (j == i + 1 || straight) return true;
    return space.traversable(path[i], path[j]) &&
           no_dearer(space.segment_cost(path[i], path[j]), prefix[j] - prefix[i]);
  };
  const auto move_cost = [&](std::size_t i, std::size_t j) {
    return j == i + 1 ? prefix[j] - prefix[i] : space.segment_cost(path[i], path[j]);
  };
  std::vector<Point> out{path.front()};
  std::vector<std::pair<double, std::size_t>> bends;
  std::size_t anchor = 0;
  // The farthest waypoint known to be joinable from the anchor. It carries over to the next
  // anchor, which is chosen to see it, so the waypoints in between are not scanned again.
  std::size_t seen = 1;
  while (anchor + 1 < n) {
    const Point* before = out.size() >= 2 ? &out[out.size() - 2] : nullptr;
    const auto turn_free = [&](std::size_t j) {
      return before == nullptr || space.turn_is_free(*before, path[anchor], path[j]);
    };
    const std::size_t carried = seen;  // path[anchor + 2 .. carried] not checked from here
    bool straight = true;              // path[anchor .. seen] is one straight run
    for (std::size_t j = anchor + 2; j <= seen && straight; ++j)
      straight = continues_run(path[anchor], path[j - 1], path[j]);
    while (seen + 1 < n) {
      straight = straight && continues_run(path[anchor], path[seen], path[seen + 1]);
      // Along a straight run the turn at the anchor is the one towards path[anchor + 1], free.
      if (!joins(anchor, seen + 1, straight) || (!straight && !turn_free(seen + 1))) break;
      ++seen;
    }
    if (seen + 1 == n) {
      out.push_back(path.back());
      break;
    }
    // The sightline breaks at k = seen + 1. Back from k, the waypoints that see k are the
    // candidate bends (the backward scan stops at the first that does not); the next anchor is
    // the one that makes anchor -> j -> k cheapest, ties going to the one nearer k, as in the
    // tentpole smoothing of the Central64 technical report (Autodesk Research 2023, section
    // 3.2). Candidates are tried cheapest first, and the scan's sightlines are tested only as
    // far back as the candidate tried needs: the same choice with fewer tests.
    const std::size_t k = seen + 1;
    bends.clear();
    for (std::size_t j = anchor + 1; j < k; ++j)
      bends.push_back({move_cost(anchor, j) + move_cost(j, k), j});
    std::sort(bends.begin(), bends.end(), [](const auto& a, const auto& b) {
      return a.first < b.first || (a.first == b.first && a.second > b.second);
    });
    std::size_t scanned = k - 1;     // path[scanned .. k - 1] all see k
    std::size_t floor = anchor + 1;  // below it the backward scan has stopped
    bool run_to_k = true;            // path[scanned .. k] is one straight run
    const auto scan_sees_k = [&](std::size_t j) {
      while (scanned > j && scanned - 1 >= floor) {
        const std::size_t i = scanned - 1;
        run_to_k = run_to_k && continues_run(path[k], path[i + 1], path[i]);
        if (!run_to_k && !space.traversable(path[i], path[k])) {
          floor = scanned;
          break;
        }
        scanned = i;
      }
      return j >= scanned;
    };
    // The cheapest candidate within the scan that is also joinable from the anchor (the
    // waypoints before a carried-over `seen` were not checked from this anchor), costs no more
    // than the path to k, and turns freely at j, both towards k and towards j + 1: the invariant
    // that the path can always go on as the input does makes path[anchor + 1] a valid bend when
    // none is.
    std::size_t bend = anchor + 1;
    bool bend_sees_k = false;
    for (const auto& [via, j] : bends) {
      if (j < floor || !scan_sees_k(j)) continue;
      if (!turn_free(j) || (j > anchor + 1 && j <= carried && !joins(anchor, j, false))) continue;
      if (j + 1 < k && !no_dearer(space.segment_cost(path[j], path[k]), prefix[k] - prefix[j]))
        continue;
      if (!space.turn_is_free(path[anchor], path[j], path[k])) continue;
      if (!space.turn_is_free(path[anchor], path[j], path[j + 1])) continue;
      bend = j;
      bend_sees_k = true;
      break;
    }
    out.push_back(path[bend]);
    anchor = bend;
    seen = bend_sees_k ? k : bend + 1;
  }
  const bool changed = out.size() != path.size();
  path = std::move(out);
  return changed;
}

bool PathSimplifier::shortcut_optimal(std::vector<Point>& path, std::size_t window) const {
  if (path.size() < 3) return false;
  const FreeSpace& space = *space_;
  const std::size_t n = path.size();
  window = std::max<std::size_t>(window, 1);
  const std::vector<double> prefix = prefix_costs(space, path);
  constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  std::vector<double> cost(n, std::numeric_limits<double>::infinity());
  std::vector<std::size_t> parent(n, none);
  cost[0] = 0.0;
  std::vector<std::pair<double, std::size_t>> candidates;
  for (std::size_t j = 1; j < n; ++j) {
    candidates.clear();
    for (std::size_t i = j > window ? j - window : 0; i < j; ++i) {
      if (!std::isfinite(cost[i])) continue;
      const double step = i + 1 == j ? prefix[j] - prefix[i] : space.segment_cost(path[i], path[j]);
      // A straight move may not cost more than the path it replaces.
      if (i + 1 != j && !no_dearer(step, prefix[j] - prefix[i])) continue;
      candidates.push_back({cost[i] + step, i});
    }
    std::sort(candidates.begin(), candidates.end());
    for (const auto& [total, i] : candidates) {
      if (i + 1 != j && !space.traversable(path[i], path[j])) continue;
      if (parent[i] != none && !space.turn_is_free(path[parent[i]], path[i], path[j])) continue;
      cost[j] = total;
      parent[j] = i;
      break;
    }
  }
  std::vector<Point> best;
  if (std::isfinite(cost[n - 1])) {
    for (std::size_t k = n - 1; k != none; k = parent[k]) best.push_back(path[k]);
    std::reverse(best.begin(), best.end());
  } else {
    best = path;
  }
  // Never worse than the greedy passes (see the declaration).
  for (const bool use_tentpole : {false, true}) {
    std::vector<Point> other = path;
    if (use_tentpole) {
      tentpole(other);
    } else {
      shortcut(other);
    }
    if (space.path_cost(other) < space.path_cost(best)) best = std::move(other);
  }
  const bool changed = best.size() != path.size();
  path = std::move(best);
  return changed;
}

bool PathSimplifier::remove_collinear(std::vector<Point>& path) const {
  if (path.size() < 2) return false;
  std::vector<Point> out{path.front()};
  for (std::size_t k = 1; k < path.size(); ++k) {
    if (path[k] == out.back()) continue;
    // Drop out.back() when it lies on the segment from the waypoint before it to path[k]:
    // exactly collinear and between them, so the path and its cost stay the same.
    if (out.size() >= 2 && exact::orientation(out[out.size() - 2], out.back(), path[k]) == 0 &&
        exact::collinear_between(out[out.size() - 2], path[k], out.back()))
      out.pop_back();
    out.push_back(path[k]);
  }
  const bool changed = out.size() != path.size();
  path = std::move(out);
  return changed;
}

bool PathSimplifier::is_valid(const std::vector<Point>& path) const {
  if (path.size() == 1) return space_->is_free(path.front());
  for (std::size_t k = 1; k < path.size(); ++k)
    if (!space_->traversable(path[k - 1], path[k])) return false;
  // Each segment alone may be fine while the path turns through a point where two blocked parts
  // touch: check every turn too.
  for (std::size_t k = 1; k + 1 < path.size(); ++k) {
    if (path[k] == path[k - 1] || path[k] == path[k + 1]) continue;
    if (!space_->turn_is_free(path[k - 1], path[k], path[k + 1])) return false;
  }
  return true;
}

}  // namespace polynav
