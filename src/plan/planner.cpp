#include "polynav/plan/planner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <sstream>

#include "polynav/error.hpp"
#include "polynav/number.hpp"
#include "polynav/plan/option_tables.hpp"
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

}  // namespace

FreeSpaceOptions free_space_options(const Settings& settings) {
  return space_option_table().read(OptionValues("space", space_option_specs(), settings));
}

Planner::Planner(const Scene& scene, PlanOptions options)
    : Planner(scene, std::move(options), nullptr) {}

Planner::Planner(const Scene& scene, PlanOptions options, std::shared_ptr<InflationCache> reuse)
    : Planner(scene, std::move(options), std::move(reuse), nullptr, {}) {}

Planner::Planner(const Scene& scene, PlanOptions options, std::shared_ptr<InflationCache> reuse,
                 const Planner& before, std::span<const Box> changed)
    : Planner(scene, std::move(options), std::move(reuse), &before, changed) {}

Planner::Planner(const Scene& scene, PlanOptions options, std::shared_ptr<InflationCache> reuse,
                 const Planner* before, std::span<const Box> changed)
    : options_(std::move(options)) {
  check_settings(options_.settings, options_.method, options_.smoother);
  if (options_.max_radii > 0) scene_ = std::make_shared<const Scene>(scene);
  const auto t0 = Clock::now();
  FreeSpaceOptions space_options = free_space_options(options_.settings);
  space_options.reuse = std::move(reuse);
  space_ = std::make_shared<const FreeSpace>(scene, std::move(space_options));
  build_ms_ += ms_since(t0);
  build_method(before, changed);
}

Planner::Planner(std::shared_ptr<const FreeSpace> space, PlanOptions options)
    : options_(std::move(options)), space_(std::move(space)) {
  check_settings(options_.settings, options_.method, options_.smoother);
  for (const auto& [key, value] : options_.settings.values())
    if (key.starts_with("space."))
      throw InputError({"", 0, 0, key},
                       "free-space options apply where the free space is built, not to a planner "
                       "given one");
  build_method();
}

Planner::Planner(std::shared_ptr<const FreeSpace> space, std::unique_ptr<Method> method,
                 PlanOptions options)
    : options_(std::move(options)), space_(std::move(space)) {
  find_smoother(options_.smoother);
  for (const std::string& name : options_.also_smooth) find_smoother(name);
  OptionValues("search", search_option_specs(), options_.settings);
  prepare(std::move(method));
}

void Planner::build_method(const Planner* before, std::span<const Box> changed) {
  const MethodEntry& method = find_method(options_.method);
  const auto t0 = Clock::now();
  const OptionValues values(method.name, method.options, options_.settings);
  std::unique_ptr<Method> built = before && method.update
                                      ? method.update(*space_, values, *before->method_, changed)
                                      : method.build(*space_, values);
  build_ms_ += ms_since(t0);
  prepare(std::move(built), before);  // adds its own time
}

void Planner::prepare(std::unique_ptr<Method> method, const Planner* before) {
  const auto t0 = Clock::now();
  method_ = std::move(method);
  smoothers_.clear();
  for (const std::string* name = &options_.smoother;;) {
    const SmootherEntry& entry = find_smoother(*name);
    smoothers_.push_back({&entry, OptionValues(entry.name, entry.options, options_.settings)});
    if (smoothers_.size() > options_.also_smooth.size()) break;
    name = &options_.also_smooth[smoothers_.size() - 1];
  }
  query_options_.search =
      search_options(OptionValues("search", search_option_specs(), options_.settings));
  query_options_.search.measure_time = false;  // the planner times each search itself
  query_options_.record_expanded = options_.record_expanded;
  query_options_.smoothed = false;
  query_options_.corridor = options_.corridor;
  for (const Smoother& s : smoothers_) {
    query_options_.smoothed |= s.entry->name != "none";
    query_options_.corridor |= s.entry->uses_corridor;
  }
  // Smoothed paths take shortcuts that only the boundary's edges decide: built now, not in the
  // first query.
  if (query_options_.smoothed) space_->prepare_outline();
  // The first query's search arrays are allocated now, not in that query's time. The version
  // before an edit lends its idle ones: allocating and first touching arrays for every node
  // costs as much as updating a grid. Only the driver's A* arrays are taken: a method's own
  // search state (QueryWorkspace::state) may hold pointers into the method it was made for.
  std::vector<std::unique_ptr<QueryWorkspace>> lent;
  if (before) {
    const std::lock_guard lock(before->pool_mutex_);
    lent.swap(before->pool_);
    if (std::unique_ptr<QueryWorkspace> spare = before->spare_.take())
      lent.push_back(std::move(spare));
  }
  for (std::unique_ptr<QueryWorkspace>& old : lent) {
    auto workspace = std::make_unique<QueryWorkspace>();
    workspace->astar = std::move(old->astar);
    pool_.push_back(std::move(workspace));
  }
  if (pool_.empty()) pool_.push_back(std::make_unique<QueryWorkspace>());
  for (const std::unique_ptr<QueryWorkspace>& workspace : pool_) method_->prepare(*workspace);
  warm_up();
  build_ms_ += ms_since(t0);
}

void Planner::warm_up() {
  // A fresh process's first query otherwise pays for its first touch of the query code and of
  // the memory it allocates: ten to thirty times a warm query. A query runs between two free
  // node positions from a sample of nodes spread over the whole graph (on a map whose first
  // rows are walls too), the second the nearest to the first, its search held to a few hundred
  // expansions, so that its cost stays small on any map; the free space and the method are left
  // as they were.
  const Discretisation& d = method_->discretisation();
  const std::size_t nodes = d.node_count(), samples = 4096;
  const std::size_t stride = std::max<std::size_t>(1, nodes / samples);
  std::optional<Point> from, to;
  double nearest = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < nodes; i += stride) {
    const Point p = d.node_position(search::NodeId(i));
    if (!space_->is_free(p)) continue;
    if (!from) {
      from = p;
    } else if (const double away = distance(*from, p); away > 0.0 && away < nearest) {
      to = p;
      nearest = away;
    }
  }
  if (!to) return;
  const search::SearchOptions search = query_options_.search;
  query_options_.search.max_expansions = std::min<std::uint64_t>(search.max_expansions, 256);
  (void)plan(*from, *to);
  // Two nearby nodes often make a query that its start decides, answered without the search
  // (decide_at_start in discretise/query.hpp); a time limit makes the driver search it, so that
  // the search is warmed too.
  query_options_.search.max_time =
      std::min<std::chrono::nanoseconds>(search.max_time, std::chrono::hours(1));
  (void)plan(*from, *to);
  query_options_.search = search;
}

Planner::WorkspaceLease::WorkspaceLease(const Planner& planner)
    : planner_(&planner), workspace_(planner.spare_.take()) {
  if (workspace_) return;
  {
    const std::lock_guard lock(planner.pool_mutex_);
    if (!planner.pool_.empty()) {
      workspace_ = std::move(planner.pool_.back());
      planner.pool_.pop_back();
      return;
    }
  }
  workspace_ = std::make_unique<QueryWorkspace>();
  planner.method_->prepare(*workspace_);
}

Planner::WorkspaceLease::~WorkspaceLease() {
  std::unique_ptr<QueryWorkspace> rest = planner_->spare_.give(std::move(workspace_));
  if (!rest) return;
  const std::lock_guard lock(planner_->pool_mutex_);
  planner_->pool_.push_back(std::move(rest));
}

std::string Planner::check_point(Point& p, const char* name) const {
  if (!std::isfinite(p.x) || !std::isfinite(p.y))
    return std::string(name) + " " + point_text(p) + " is not a finite point";
  if (space_->is_free(p)) return {};
  if (options_.snap_to_free) {
    if (const auto snapped = space_->nearest_free(p)) {
      p = *snapped;
      return {};
    }
  }
  return std::string(name) + " " + point_text(p) +
         " is not in free space: " + space_->explain_blocked(p);
}

PlanResult Planner::plan(Point start, Point goal) const {
  return plan(start, std::span<const Point>(&goal, 1));
}

PlanResult Planner::plan(Point start, std::span<const Point> goals) const {
  PlanResult result = blank_result(start);
  const RawPath raw = search(result, goals, query_options_);
  if (!raw.points.empty()) finish(result, raw, 0);
  return result;
}

PlanResult Planner::plan_with(Point start, Point goal, const Search& find) const {
  PlanResult result = blank_result(start);
  const RawPath raw = search(result, std::span<const Point>(&goal, 1), query_options_, &find);
  if (!raw.points.empty()) finish(result, raw, 0);
  return result;
}

RawPath Planner::search_method(Point start, Point goal, const QueryOptions& options) const {
  const WorkspaceLease workspace(*this);
  return method_->find_path(start, goal, options, *workspace);
}

PlanResult Planner::plan(Point start, Point goal, std::string_view smoother) const {
  const auto k = std::find_if(smoothers_.begin(), smoothers_.end(),
                              [&](const Smoother& s) { return s.entry->name == smoother; });
  if (k == smoothers_.end()) {
    std::string built;
    for (const Smoother& s : smoothers_) built += (built.empty() ? "" : ", ") + s.entry->name;
    throw InputError({"", 0, 0, "smoother"}, "this planner was not built with smoother '" +
                                                 std::string(smoother) + "' (it has: " + built +
                                                 ")");
  }
  // What the search would do for this smoother alone: a grid's ties and the corridor depend on
  // whether and how the path is smoothed.
  QueryOptions options = query_options_;
  options.smoothed = k->entry->name != "none";
  options.corridor = options_.corridor || k->entry->uses_corridor;
  PlanResult result = blank_result(start);
  const RawPath raw = search(result, std::span<const Point>(&goal, 1), options);
  result.smoother = k->entry->name;
  if (!raw.points.empty()) finish(result, raw, std::size_t(k - smoothers_.begin()));
  return result;
}

std::vector<PlanResult> Planner::plan_each(Point start, Point goal) const {
  PlanResult searched = blank_result(start);
  const RawPath raw = search(searched, std::span<const Point>(&goal, 1), query_options_);
  std::vector<PlanResult> results(smoothers_.size(), searched);
  for (std::size_t k = 0; k < results.size(); ++k) {
    results[k].smoother = smoothers_[k].entry->name;
    if (!raw.points.empty()) finish(results[k], raw, k);
  }
  return results;
}

PlanResult Planner::blank_result(Point start) const {
  const Discretisation& d = method_->discretisation();
  PlanResult result;
  result.start = start;
  result.radius = radius();
  result.method = std::string(d.method());
  result.smoother = options_.smoother;
  result.stats.nodes = d.node_count();
  result.stats.build_ms = build_ms_;
  return result;
}

void Planner::take_search(PlanResult& result, RawPath& raw, double search_ms) const {
  result.stats.search_ms = search_ms;
  result.status = raw.status;
  result.message = raw.message;
  result.stats.expanded = raw.stats.expanded;
  result.stats.generated = raw.stats.generated;
  result.expanded = std::move(raw.expanded);
  result.lower_bound = raw.lower_bound;
  if (raw.points.empty()) return;
  result.raw_waypoints = raw.points;
  result.corridor = raw.corridor;
  result.raw_length = polyline_length(raw.points);
  result.raw_cost = space_->path_cost(raw.points);
}

RawPath Planner::search(PlanResult& result, std::span<const Point> goals_in,
                        const QueryOptions& options, const Search* find) const {
  result.goal = goals_in.empty() ? Point{} : goals_in.front();
  if (goals_in.empty()) {
    result.message = "the goal set is empty";
    return {};
  }
  if (std::string why = check_point(result.start, "start"); !why.empty()) {
    result.message = std::move(why);
    return {};
  }
  std::vector<Point> goals(goals_in.begin(), goals_in.end());
  for (std::size_t i = 0; i < goals.size(); ++i) {
    const std::string name = goals.size() == 1 ? "goal" : "goal " + std::to_string(i + 1);
    if (std::string why = check_point(goals[i], name.c_str()); !why.empty()) {
      result.goal = goals[i];
      result.message = std::move(why);
      return {};
    }
  }
  result.goal = goals.front();
  // A point where components touch (a closed zero-width gap) lies in each of them. With one
  // component every free point reaches every other, and locating the points is not needed.
  if (space_->component_count() > 1) {
    const std::vector<std::uint32_t> c_start = space_->components(result.start);
    const bool reachable = std::any_of(goals.begin(), goals.end(), [&](Point g) {
      const std::vector<std::uint32_t> c_goal = space_->components(g);
      return c_start.empty() || c_goal.empty() ||
             std::find_first_of(c_start.begin(), c_start.end(), c_goal.begin(), c_goal.end()) !=
                 c_start.end();
    });
    if (!reachable) {
      result.status = search::SearchStatus::no_path;
      result.message = goals.size() == 1
                           ? "start and goal lie in different connected components of free space"
                           : "no goal lies in the start's connected component of free space";
      return {};
    }
  }

  const auto t_search = Clock::now();
  RawPath raw;
  if (find != nullptr) {
    raw = (*find)(result.start, result.goal, options);
  } else {
    const WorkspaceLease workspace(*this);
    if (goals.size() == 1) {
      raw = method_->find_path(result.start, result.goal, options, *workspace);
    } else {
      std::size_t reached = goals.size();
      raw = method_->find_path_to_any(result.start, goals, options, *workspace, reached);
      if (reached < goals.size()) result.goal = goals[reached];
    }
  }
  take_search(result, raw, ms_since(t_search));
  return raw;
}

PlanResult Planner::flee(Point start, std::span<const Point> threats, double distance) const {
  PlanResult result = blank_result(start);
  result.goal = start;
  if (threats.empty()) {
    result.message = "a flee query needs at least one threat";
    return result;
  }
  for (std::size_t i = 0; i < threats.size(); ++i) {
    if (!std::isfinite(threats[i].x) || !std::isfinite(threats[i].y)) {
      result.message = "threat " + std::to_string(i + 1) + " " + point_text(threats[i]) +
                       " is not a finite point";
      return result;
    }
  }
  if (!std::isfinite(distance) || distance < 0.0) {
    std::ostringstream text;
    text << "the flee distance must be a finite number >= 0, got " << distance;
    result.message = text.str();
    return result;
  }
  if (std::string why = check_point(result.start, "start"); !why.empty()) {
    result.message = std::move(why);
    return result;
  }
  const FleeGoal flee{threats, distance, space_->min_cost()};
  const auto t_search = Clock::now();
  RawPath raw;
  raw.method = method_->discretisation().method();
  if (flee.admits(result.start)) {
    raw.status = search::SearchStatus::found;
    raw.points = {result.start};
  } else {
    // The threats' circles, sampled: a continuous scene's cheapest end lies on them (a path
    // leaves the circles there first). Slightly outside, so that rounding keeps them far enough.
    std::vector<Point> places;
    const double radius = distance * (1.0 + 0x1p-40);
    for (const Point& t : threats) {
      for (std::size_t k = 0; k < flee_places_per_threat; ++k) {
        const double angle = 2.0 * M_PI * double(k) / double(flee_places_per_threat);
        const Point p{t.x + radius * std::cos(angle), t.y + radius * std::sin(angle)};
        if (flee.admits(p) && space_->is_free(p)) places.push_back(p);
      }
    }
    const WorkspaceLease workspace(*this);
    std::size_t reached = places.size();
    raw = method_->find_path_away(result.start, flee, places, query_options_, *workspace, reached);
    if (raw.status == search::SearchStatus::no_path) {
      std::ostringstream text;
      text << "no_path: no free point at least " << distance
           << " (straight-line distance) from every threat is reachable from the start";
      raw.message = text.str();
    }
  }
  take_search(result, raw, ms_since(t_search));
  if (raw.points.empty()) return result;
  if (result.found()) result.goal = raw.points.back();
  finish(result, raw, 0);
  return result;
}

void Planner::finish(PlanResult& result, const RawPath& raw, std::size_t k) const {
  const auto t_smooth = Clock::now();
  std::vector<Point> smoothed = raw.points;
  const Smoother& smoother = smoothers_[k];
  if (std::string note = smoother.entry->run(*space_, raw, smoother.options, smoothed);
      !note.empty())
    result.message = result.message.empty() ? std::move(note) : result.message + "; " + note;
  const PathSimplifier checker(*space_);
  if (!checker.is_valid(smoothed)) {
    // Never hand out an invalid path: keep the raw one if it passes, else report the defect.
    if (checker.is_valid(raw.points)) {
      smoothed = raw.points;
      result.message = "smoothing produced an invalid path; returning the raw path";
    } else {
      result.status = search::SearchStatus::internal_error;
      result.message = "the " + result.method +
                       " path failed the exact validity check (a defect: please report the scene "
                       "and query)";
      result.waypoints.clear();
      return;
    }
  }
  result.stats.smooth_ms = ms_since(t_smooth);
  if (raw.headings.size() == raw.points.size() && smoothed == raw.points)
    result.headings = raw.headings;
  result.waypoints = std::move(smoothed);
  result.length = polyline_length(result.waypoints);
  result.cost = space_->path_cost(result.waypoints);
}

std::shared_ptr<const Planner> Planner::for_radius(double radius) const {
  if (!std::isfinite(radius) || radius < 0.0) {
    std::ostringstream text;
    text << "an agent radius must be a finite number >= 0, found " << radius;
    throw InputError({"", 0, 0, "radius"}, text.str());
  }
  // This planner itself, not owned by the pointer (the caller holds it already).
  if (radius == this->radius())
    return std::shared_ptr<const Planner>(std::shared_ptr<void>(), this);
  if (!scene_)
    throw InputError(
        {"", 0, 0, "radius"},
        "this planner plans for radius " + shortest_text(this->radius()) + " only: it was " +
            (options_.max_radii == 0 ? "built with max_radii 0"
                                     : "given its free space, not a scene") +
            ", so it has no scene to build one for radius " + shortest_text(radius) + " from");
  std::promise<std::shared_ptr<const Planner>> promise;
  std::shared_future<std::shared_ptr<const Planner>> planner;
  bool build = false;
  {
    const std::lock_guard lock(sized_mutex_);
    const auto found = std::find_if(sized_.begin(), sized_.end(),
                                    [&](const Sized& s) { return s.radius == radius; });
    if (found != sized_.end()) {
      found->asked = ++sized_clock_;
      planner = found->planner;
    } else {
      if (sized_.size() >= options_.max_radii)
        sized_.erase(
            std::min_element(sized_.begin(), sized_.end(),
                             [](const Sized& a, const Sized& b) { return a.asked < b.asked; }));
      planner = promise.get_future().share();
      sized_.push_back({radius, planner, ++sized_clock_});
      build = true;
    }
  }
  // Built outside the lock, so that planners for other radii are asked for (and built) at the
  // same time; whoever asks for this radius meanwhile waits on the future.
  if (build) {
    try {
      Scene scene = *scene_;
      scene.agent.radius = radius;
      PlanOptions options = options_;
      options.max_radii = 0;  // its own scene copy is not needed: radii are served from here
      promise.set_value(std::make_shared<const Planner>(scene, std::move(options)));
    } catch (...) {
      promise.set_exception(std::current_exception());
      // Not kept: a build that failed (a time budget) may be tried again.
      const std::lock_guard lock(sized_mutex_);
      std::erase_if(sized_, [&](const Sized& s) { return s.radius == radius; });
    }
  }
  return planner.get();
}

Reach Planner::reach(Point from, double max_cost) const {
  Reach out;
  if (std::string why = check_point(from, "start"); !why.empty()) {
    out.message = std::move(why);
    return out;
  }
  const WorkspaceLease workspace(*this);
  out = method_->reach(from, max_cost, *workspace);
  return out;
}

}  // namespace polynav
