#include "polynav/plan/editable_planner.hpp"

#include <chrono>
#include <utility>

#include "polynav/discretise/grid/grid_methods.hpp"

namespace polynav {

EditablePlanner::EditablePlanner(Scene scene, PlanOptions options) : options_(std::move(options)) {
  auto first = std::make_shared<Version>();
  first->ids = SceneIds::of(scene);
  first->scene = std::make_shared<const Scene>(std::move(scene));
  first->planner = std::make_shared<const Planner>(*first->scene, options_, inflated_);
  current_ = std::move(first);
}

std::shared_ptr<const EditablePlanner::Version> EditablePlanner::current() const {
  const std::lock_guard<std::mutex> lock(current_mutex_);
  return current_;
}

EditablePlanner::Applied EditablePlanner::apply(std::span<const SceneEdit> edits) {
  const std::lock_guard<std::mutex> serial(edit_mutex_);
  const std::shared_ptr<const Version> before = current();
  auto next = std::make_shared<Version>();
  Scene scene = *before->scene;
  next->ids = before->ids;
  Applied applied;
  applied.added = apply_edits(scene, next->ids, edits);  // throws with nothing changed
  const auto t0 = std::chrono::steady_clock::now();
  const InflationCache::Counts before_build = inflated_->counts();
  next->scene = std::make_shared<const Scene>(std::move(scene));
  const std::vector<Box> changed =
      edited_boxes(*before->scene, before->ids, *next->scene, next->ids);
  next->planner =
      std::make_shared<const Planner>(*next->scene, options_, inflated_, *before->planner, changed);
  applied.build_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const InflationCache::Counts after_build = inflated_->counts();
  applied.grown = after_build.computed - before_build.computed;
  applied.reused = after_build.reused - before_build.reused;
  applied.joined_locally = after_build.joined_locally - before_build.joined_locally;
  if (const OccupancyGrid* grid = occupancy_grid_of(next->planner->discretisation())) {
    applied.grid_cells = std::size_t(grid->width()) * std::size_t(grid->height());
    applied.classified_cells = grid->classified_cells();
  }
  next->number = applied.version = before->number + 1;
  const std::lock_guard<std::mutex> lock(current_mutex_);
  current_ = std::move(next);
  return applied;
}

std::shared_ptr<const Planner> EditablePlanner::planner() const {
  return current()->planner;
}
std::shared_ptr<const Scene> EditablePlanner::scene() const {
  return current()->scene;
}
SceneIds EditablePlanner::ids() const {
  return current()->ids;
}
std::uint64_t EditablePlanner::version() const {
  return current()->number;
}
EditablePlanner::Snapshot EditablePlanner::snapshot() const {
  return *current();
}

}  // namespace polynav
