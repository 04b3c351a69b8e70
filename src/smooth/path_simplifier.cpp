#include "polynav/smooth/path_simplifier.hpp"

#include "polynav/kernel/exact.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {

bool PathSimplifier::shortcut(std::vector<Point>& path) const {
  if (path.size() < 3) return false;
  const FreeSpace& space = *space_;
  // prefix[k]: exact cost of the path up to waypoint k, to compare a shortcut with the part of
  // the path it replaces (in weighted scenes a straight line can cost more).
  std::vector<double> prefix(path.size(), 0.0);
  for (std::size_t k = 1; k < path.size(); ++k)
    prefix[k] = prefix[k - 1] + space.segment_cost(path[k - 1], path[k]);
  std::vector<Point> out{path.front()};
  bool changed = false;
  for (std::size_t i = 0; i + 1 < path.size();) {
    std::size_t best = i + 1;
    for (std::size_t j = i + 2; j < path.size(); ++j) {
      if (!space.traversable(path[i], path[j])) break;
      // The new corner at path[i] must not turn through a pinch (for i = 0 there is no turn).
      if (out.size() >= 2 && !space.turn_is_free(out[out.size() - 2], path[i], path[j])) break;
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
