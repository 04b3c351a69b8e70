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

}  // namespace

bool PathSimplifier::shortcut(std::vector<Point>& path) const {
  if (path.size() < 3) return false;
  const FreeSpace& space = *space_;
  const std::vector<double> prefix = prefix_costs(space, path);
  std::vector<Point> out{path.front()};
  bool changed = false;
  for (std::size_t i = 0; i + 1 < path.size();) {
    std::size_t best = i + 1;
    for (std::size_t j = i + 2; j < path.size(); ++j) {
      if (!space.traversable(path[i], path[j])) break;
      // The new corner at path[i] must not turn through a pinch (for i = 0 there is no turn).
      if (out.size() >= 2 && !space.turn_is_free(out[out.size() - 2], path[i], path[j])) break;
      // And the path must be able to go on from path[j] as before: the turn there, from
      // path[i] to path[j + 1], must not go through a pinch either.
      if (j + 1 < path.size() && !space.turn_is_free(path[i], path[j], path[j + 1])) continue;
      const double replaced = prefix[j] - prefix[i];
      if (space.segment_cost(path[i], path[j]) <= replaced * (1.0 + 1e-12)) best = j;
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
  const std::vector<double> prefix = prefix_costs(space, path);
  // Whether the straight move from waypoint i to waypoint j may replace the path between them,
  // the path arriving at i from `before` (nullptr at the start).
  const auto may_join = [&](const Point* before, std::size_t i, std::size_t j) {
    if (j == i + 1) return before == nullptr || space.turn_is_free(*before, path[i], path[j]);
    return space.traversable(path[i], path[j]) &&
           (before == nullptr || space.turn_is_free(*before, path[i], path[j])) &&
           space.segment_cost(path[i], path[j]) <= (prefix[j] - prefix[i]) * (1.0 + 1e-12);
  };
  std::vector<Point> out{path.front()};
  std::size_t anchor = 0;
  while (anchor + 1 < path.size()) {
    const Point* before = out.size() >= 2 ? &out[out.size() - 2] : nullptr;
    std::size_t last = anchor + 1;
    while (last + 1 < path.size() && may_join(before, anchor, last + 1)) ++last;
    if (last + 1 == path.size()) {
      out.push_back(path.back());
      break;
    }
    // The sightline breaks at k = last + 1: bend where anchor -> j -> k is cheapest. Invariant:
    // from the anchor the path can go on as the input does (the turn to path[anchor + 1] is
    // free), so a bend must keep that for j, and path[anchor + 1] is always a valid bend.
    const std::size_t k = last + 1;
    std::size_t bend = anchor + 1;
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t j = anchor + 1; j <= last; ++j) {
      const double via =
          (j == anchor + 1 ? prefix[j] - prefix[anchor]
                           : space.segment_cost(path[anchor], path[j])) +
          (j + 1 == k ? prefix[k] - prefix[j] : space.segment_cost(path[j], path[k]));
      if (via >= best) continue;
      // Every j up to `last` is seen from the anchor already; j must see k, turning freely
      // there (for j = last, k is the next waypoint and only the turn is checked).
      if (!may_join(&path[anchor], j, k)) continue;
      if (!space.turn_is_free(path[anchor], path[j], path[j + 1])) continue;
      best = via;
      bend = j;
    }
    out.push_back(path[bend]);
    anchor = bend;
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
      if (i + 1 != j && step > (prefix[j] - prefix[i]) * (1.0 + 1e-12)) continue;
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
