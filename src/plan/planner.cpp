#include "polynav/plan/planner.hpp"

#include <chrono>
#include <sstream>

#include "polynav/error.hpp"
#include "polynav/smooth/path_simplifier.hpp"

namespace polynav {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string point_text(Point p) {
  std::ostringstream out;
  out << "(" << p.x << ", " << p.y << ")";
  return out.str();
}

// The free space of the scene, its build time added to `build_ms`.
FreeSpace timed_free_space(const Scene& scene, const FreeSpaceOptions& options, double& build_ms) {
  const auto t0 = Clock::now();
  FreeSpace space(scene, options);
  build_ms += ms_since(t0);
  return space;
}

}  // namespace

std::vector<std::string> available_methods() {
  return {"grid", "visgraph"};
}

std::unique_ptr<Discretisation> make_discretisation(const FreeSpace& space, const Scene& scene,
                                                    const PlanOptions& options) {
  if (options.method == "grid") {
    GridOptions grid = options.grid;
    if (grid.resolution == 0.0 && scene.native_cell_size) grid.resolution = *scene.native_cell_size;
    // Cells line up with the scene's bounds, so a cell map's cells are the grid's cells.
    if (!grid.origin && !scene.bounds.empty()) grid.origin = bounding_box(scene.bounds).min;
    return std::make_unique<OccupancyGrid>(space, grid);
  }
  if (options.method == "visgraph")
    return std::make_unique<VisibilityGraph>(space, options.visgraph);
  std::string names;
  for (const std::string& name : available_methods()) names += (names.empty() ? "" : ", ") + name;
  throw InputError({"", 0, 0, "method"},
                   "unknown method '" + options.method + "' (available: " + names + ")");
}

Planner::Planner(const Scene& scene, PlanOptions options)
    : options_(std::move(options)),
      space_(timed_free_space(scene, options_.free_space, build_ms_)) {
  const auto t0 = Clock::now();
  discretisation_ = make_discretisation(space_, scene, options_);
  build_ms_ += ms_since(t0);
  // Reject an unknown smoother now rather than at the first query.
  std::vector<Point> probe;
  smooth_path(space_, options_.smoother, probe);
}

PlanResult Planner::plan(Point start, Point goal) {
  PlanResult result;
  result.method = std::string(discretisation_->method());
  result.smoother = options_.smoother;
  result.start = start;
  result.goal = goal;
  result.stats.nodes = discretisation_->node_count();
  result.stats.build_ms = build_ms_;

  for (auto [point, name] : {std::pair{&result.start, "start"}, std::pair{&result.goal, "goal"}}) {
    if (!std::isfinite(point->x) || !std::isfinite(point->y)) {
      result.message = std::string(name) + " " + point_text(*point) + " is not a finite point";
      return result;
    }
    if (space_.is_free(*point)) continue;
    if (options_.snap_to_free) {
      if (const auto snapped = space_.nearest_free(*point)) {
        *point = *snapped;
        continue;
      }
    }
    result.message = std::string(name) + " " + point_text(*point) +
                     " is not in free space: " + space_.explain_blocked(*point);
    return result;
  }
  const auto c_start = space_.component(result.start), c_goal = space_.component(result.goal);
  if (c_start && c_goal && *c_start != *c_goal) {
    result.status = search::SearchStatus::no_path;
    result.message = "start and goal lie in different connected components of free space";
    return result;
  }

  QueryOptions query;
  query.search = &options_.search;
  query.record_expanded = options_.record_expanded;
  const auto t_search = Clock::now();
  RawPath raw = discretisation_->find_path(result.start, result.goal, query);
  result.stats.search_ms = ms_since(t_search);
  result.status = raw.status;
  result.message = raw.message;
  result.stats.expanded = raw.stats.expanded;
  result.stats.generated = raw.stats.generated;
  result.expanded = std::move(raw.expanded);
  if (raw.points.empty()) return result;

  result.raw_waypoints = raw.points;
  result.raw_length = polyline_length(raw.points);
  result.raw_cost = space_.path_cost(raw.points);

  const auto t_smooth = Clock::now();
  std::vector<Point> smoothed = raw.points;
  smooth_path(space_, options_.smoother, smoothed);
  const PathSimplifier checker(space_);
  if (!checker.is_valid(smoothed)) {
    // Never hand out an invalid path: keep the raw one if it passes, else refuse.
    if (checker.is_valid(raw.points)) {
      smoothed = raw.points;
      result.message = "smoothing produced an invalid path; returning the raw path";
    } else {
      result.status = search::SearchStatus::no_path;
      result.message = "the discretisation's path failed the exact validity check";
      result.waypoints.clear();
      return result;
    }
  }
  result.stats.smooth_ms = ms_since(t_smooth);
  result.waypoints = std::move(smoothed);
  result.length = polyline_length(result.waypoints);
  result.cost = space_.path_cost(result.waypoints);
  return result;
}

}  // namespace polynav
