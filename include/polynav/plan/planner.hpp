#pragma once
/// @file
/// The facade a library user calls:
/// @code
///   polynav::Scene scene = polynav::load_scene("scenes/warehouse.yaml");
///   polynav::Planner planner(scene);                 // builds free space and the grid once
///   polynav::PlanResult r = planner.plan({1, 1}, {38, 20});
///   if (r.found()) for (polynav::Point p : r.waypoints) use(p);
/// @endcode

#include <atomic>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "polynav/discretise/query.hpp"
#include "polynav/geometry.hpp"
#include "polynav/plan/options.hpp"
#include "polynav/plan/registry.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {

struct PlanOptions {
  /// The discretisation, by its registry name: "grid", "visgraph" (see method_registry()).
  std::string method = "grid";
  /// The smoother, by its registry name: "none", "shortcut" (see smoother_registry()).
  std::string smoother = "shortcut";
  /// More smoothers for Planner::plan_each(), which smooths one search's raw path with
  /// `smoother` and then with each of these (experiments compare smoothers on the same paths).
  std::vector<std::string> also_smooth;
  /// Options of the method, the smoother, the search and the free space, by name:
  /// `settings.set("grid.resolution", 0.25)`, `settings.set("search.weight", 1.5)`. Checked
  /// against their declarations when the planner is built.
  Settings settings;
  /// Move a start or goal that is not free to the nearest free point instead of answering
  /// invalid_query. [Default: false]
  bool snap_to_free = false;
  /// Keep the positions of expanded nodes in PlanResult::expanded (for pictures).
  bool record_expanded = false;
  /// State the raw path's corridor in PlanResult::corridor even when no smoother reads it
  /// (funnel does). It walks the whole path, so it is off by default. [Default: false]
  bool corridor = false;
  /// Planners for agents of other radii on the same scene (Planner::for_radius) kept at once.
  /// Above 0 the planner keeps a copy of the scene to build them from (on a 512 x 512 random
  /// MovingAI map, 8 MB beside a 50 MB planner); 0 keeps none, and then only the scene's own
  /// radius is served. [Default: 0; `polynav plan` and `scen` use 4 where a query has a radius of
  /// its own, Python's Planner 4]
  std::size_t max_radii = 0;
};

struct PlanStats {
  std::size_t nodes = 0;  ///< nodes of the discretisation
  std::uint64_t expanded = 0;
  std::uint64_t generated = 0;
  double build_ms = 0.0;  ///< free space (when the planner built it) and discretisation
  double search_ms = 0.0;
  double smooth_ms = 0.0;
};

/// The answer to one query; serialises to the JSON of docs/output.md (plan/json.hpp).
struct PlanResult {
  search::SearchStatus status = search::SearchStatus::invalid_query;
  std::string message;  ///< why not found; empty when found
  std::string method;
  std::string smoother;
  Point start;  ///< as planned (after snapping, if that was asked for)
  Point goal;
  double radius = 0.0;           ///< the agent radius planned for (Planner::radius)
  std::vector<Point> waypoints;  ///< smoothed path, start .. goal (empty unless found/partial)
  double length = 0.0;           ///< Euclidean length of waypoints
  double cost = 0.0;             ///< exact cost of waypoints (FreeSpace::path_cost)
  /// The heading (radians, counterclockwise from +x) at each waypoint where the method plans
  /// headings (hybrid) and the waypoints are its own (no smoother changed them); else empty.
  std::vector<double> headings;
  std::vector<Point> raw_waypoints;  ///< the discretisation's path before smoothing
  /// The raw path's portals, where the method has them, when a smoother reads them (funnel) or
  /// PlanOptions::corridor asks for them.
  std::vector<Segment> corridor;
  double raw_length = 0.0;
  double raw_cost = 0.0;
  /// A certified lower bound on the cost of any path from start to goal, where the method
  /// states one (RawPath::lower_bound: `weighted`); empty otherwise.
  std::optional<double> lower_bound;
  PlanStats stats;
  std::vector<Point> expanded;  ///< when PlanOptions::record_expanded

  bool found() const { return status == search::SearchStatus::found; }
};

/// Ties a free space, a method and its options, the search and a smoother. Built once; plan() and
/// reach() are const and may be called from any number of threads at once (each call borrows a
/// search workspace from the planner's pool).
class Planner {
 public:
  /// Builds the free space ("space.*" settings) and the discretisation (the expensive part).
  /// @throws InputError for an unknown method, smoother or option, or an invalid option value.
  explicit Planner(const Scene& scene, PlanOptions options = {});
  /// As above, the free space built through `reuse` (InflationCache): obstacles grown for an
  /// earlier planner of the same scene, with the same agent, are taken from it (the planner is
  /// the same as one built without it).
  Planner(const Scene& scene, PlanOptions options, std::shared_ptr<InflationCache> reuse);
  /// The planner for a scene after an edit, given `before`, the planner (with these options) of
  /// the scene before it, and the boxes the edit changed (edited_boxes): as the constructor
  /// above, with the method updated from before's away from those boxes where it can
  /// (MethodEntry::update: the grid), and before's idle search arrays taken over instead of
  /// allocated anew. Its answers are those of a planner built from scratch on `scene`.
  Planner(const Scene& scene, PlanOptions options, std::shared_ptr<InflationCache> reuse,
          const Planner& before, std::span<const Box> changed);
  /// Builds the discretisation over an existing free space, shared with other planners (an
  /// experiment builds free space once per scene). "space.*" settings are refused here: they
  /// belong to whoever built the free space.
  explicit Planner(std::shared_ptr<const FreeSpace> space, PlanOptions options = {});

  /// Plans with a method built elsewhere over `space`: a discretisation of the user's own (any
  /// SearchableDiscretisation D, wrapped as std::make_unique<MethodOf<D>>(...)), searched by the
  /// same driver and checked by the same final validity check. options.method is not used.
  Planner(std::shared_ptr<const FreeSpace> space, std::unique_ptr<Method> method,
          PlanOptions options = {});

  /// Plans from start to goal. Never throws for a bad query: a start or goal outside free space
  /// is an invalid_query with the reason (unless snap_to_free); an unreachable goal is no_path.
  /// The final path is always re-checked exactly (every segment and every turn); a path that
  /// fails is an internal_error with the reason, never handed out.
  PlanResult plan(Point start, Point goal) const;

  /// Plans from start to the cheapest reachable goal of a set (the search's goal sets: one
  /// search, not one per goal); PlanResult::goal is the goal reached.
  PlanResult plan(Point start, std::span<const Point> goals) const;

  /// A search the caller runs in place of the method's: given the start and goal as planned
  /// (checked free, snapped where asked) and this planner's query options, it returns the raw
  /// path on this planner's discretisation.
  using Search = std::function<RawPath(Point start, Point goal, const QueryOptions& options)>;
  /// Plans as plan(start, goal) does, the raw path found by `find`: the same checks of the ends
  /// and components before it, the same smoothing and exact validation after. A search that
  /// keeps its state between queries (Replanner's D* Lite) answers through it.
  PlanResult plan_with(Point start, Point goal, const Search& find) const;
  /// The method's own search, as plan() runs it (a workspace borrowed from the pool), for a
  /// Search that answers some queries itself and hands the others back to the method.
  RawPath search_method(Point start, Point goal, const QueryOptions& options) const;

  /// Plans from start to goal once and smooths the raw path with PlanOptions::smoother and then
  /// with each of PlanOptions::also_smooth: one result per smoother, in that order, each checked
  /// as plan() checks its path. They share the search (and its search_ms).
  std::vector<PlanResult> plan_each(Point start, Point goal) const;

  /// Plans as plan(start, goal) does, smoothing with `smoother`, PlanOptions::smoother or one of
  /// also_smooth: the same result as a planner built with that smoother alone (the search runs
  /// as it would for it), so that one build serves every smoother it names.
  /// @throws InputError (key "smoother") for a smoother the planner was not built with
  PlanResult plan(Point start, Point goal, std::string_view smoother) const;

  /// Plans from start to the cheapest free point at least `distance` in a straight line from
  /// every threat: running away. Ends considered: the discretisation's nodes that far (on a
  /// grid, its cells) where the query driver's A* searches the method (Method::find_path_away;
  /// methods with their own search use the circle points only), and flee_places_per_threat
  /// points on each threat's circle of that radius
  /// that are free and that far from the others, where the optimum lies on a continuous scene
  /// (so its cost is within a chord of 2·pi/flee_places_per_threat of the circle's of it).
  /// PlanResult::goal is the end reached; a start already that far is its own answer. No such
  /// point reachable is no_path; no threat, a threat or distance that is not a finite number
  /// (distance >= 0) is an invalid_query with the reason. Smoothed and checked as plan().
  PlanResult flee(Point start, std::span<const Point> threats, double distance) const;
  static constexpr std::size_t flee_places_per_threat = 64;

  /// Every node reachable from `from` at a cost of at most max_cost.
  Reach reach(Point from, double max_cost) const;

  /// The planner of the same scene, method, smoother and options for an agent of `radius`:
  /// agents of every size on one scene. This one for its own radius; for another, a planner
  /// built on first use (only the first caller builds it) and shared by every later call, from
  /// any thread. At most PlanOptions::max_radii are kept: the one least recently asked for is
  /// let go (callers still holding it keep it alive) and built again when asked for again.
  /// @throws InputError (key "radius") for a radius that is not a finite number >= 0, or when
  /// this planner has no scene to build from (given its free space, or max_radii = 0); and the
  /// build's own errors (a radius the scene's scale or the build budget refuses)
  std::shared_ptr<const Planner> for_radius(double radius) const;
  /// The agent radius this planner plans for (its free space's).
  double radius() const { return space_->agent_radius(); }

  const FreeSpace& free_space() const { return *space_; }
  std::shared_ptr<const FreeSpace> shared_free_space() const { return space_; }
  const Discretisation& discretisation() const { return method_->discretisation(); }
  const PlanOptions& options() const { return options_; }
  /// Free space (when built here) plus discretisation build time, with the readying of the
  /// first query's workspace and the warm-up query (warm_up()).
  double build_ms() const { return build_ms_; }

 private:
  // The two constructors from a scene: `before` null, or the version before an edit.
  Planner(const Scene& scene, PlanOptions options, std::shared_ptr<InflationCache> reuse,
          const Planner* before, std::span<const Box> changed);
  // Builds the method over space_, updated from `before`'s around `changed` when given and the
  // method can (MethodEntry::update).
  void build_method(const Planner* before = nullptr, std::span<const Box> changed = {});
  // Readies the method's first query: a workspace (before's idle ones, their search arrays
  // kept, when given) and a warm-up query.
  void prepare(std::unique_ptr<Method> method, const Planner* before = nullptr);
  // Plans one short query, its result dropped, so that the first real query finds the code,
  // the workspace's memory and the caches warm.
  void warm_up();
  // The start or goal as planned (snapped when asked), or the reason it cannot be.
  std::string check_point(Point& p, const char* name) const;
  // Searches (goals checked and non-empty); `result` gets status, stats and the raw path.
  // `find`, when given, searches in place of the method (one goal).
  RawPath search(PlanResult& result, std::span<const Point> goals, const QueryOptions& options,
                 const Search* find = nullptr) const;
  // A result of this planner for a query from start, before its search.
  PlanResult blank_result(Point start) const;
  // Takes the search's status, message, statistics and raw path into result.
  void take_search(PlanResult& result, RawPath& raw, double search_ms) const;
  // Smooths raw into result.waypoints with smoother `k` (0 = PlanOptions::smoother) and checks.
  void finish(PlanResult& result, const RawPath& raw, std::size_t k) const;
  // A workspace lent from the pool for one query, given back when the lease ends (also when
  // the query throws).
  class WorkspaceLease {
   public:
    explicit WorkspaceLease(const Planner& planner);
    ~WorkspaceLease();
    WorkspaceLease(const WorkspaceLease&) = delete;
    WorkspaceLease& operator=(const WorkspaceLease&) = delete;
    QueryWorkspace& operator*() const { return *workspace_; }

   private:
    const Planner* planner_;
    std::unique_ptr<QueryWorkspace> workspace_;
  };

  PlanOptions options_;
  // The scene it was built from, when PlanOptions::max_radii > 0: for_radius() builds from it.
  std::shared_ptr<const Scene> scene_;
  struct Sized {
    double radius;
    std::shared_future<std::shared_ptr<const Planner>> planner;
    std::uint64_t asked;  // when it was last asked for, on sized_clock_
  };
  mutable std::mutex sized_mutex_;
  mutable std::vector<Sized> sized_;
  mutable std::uint64_t sized_clock_ = 0;
  std::shared_ptr<const FreeSpace> space_;
  std::unique_ptr<Method> method_;
  struct Smoother {
    const SmootherEntry* entry;
    OptionValues options;
  };
  std::vector<Smoother> smoothers_;  // PlanOptions::smoother, then also_smooth
  QueryOptions query_options_;
  double build_ms_ = 0.0;
  // One idle workspace, taken and given back without the pool's lock: a program that plans on
  // one thread at a time never takes it (an uncontended lock and unlock, twice a query, were a
  // tenth of a short grid query).
  class SpareWorkspace {
   public:
    SpareWorkspace() = default;
    SpareWorkspace(const SpareWorkspace&) = delete;
    SpareWorkspace& operator=(const SpareWorkspace&) = delete;
    ~SpareWorkspace() { delete slot_.load(std::memory_order_acquire); }
    // The spare workspace, or null when another query holds it (or none was given back yet).
    std::unique_ptr<QueryWorkspace> take() {
      return std::unique_ptr<QueryWorkspace>(slot_.exchange(nullptr, std::memory_order_acquire));
    }
    // Keeps w as the spare when there is none, else hands it back.
    std::unique_ptr<QueryWorkspace> give(std::unique_ptr<QueryWorkspace> w) {
      QueryWorkspace* empty = nullptr;
      if (slot_.compare_exchange_strong(empty, w.get(), std::memory_order_release,
                                        std::memory_order_relaxed))
        (void)w.release();
      return w;
    }

   private:
    std::atomic<QueryWorkspace*> slot_{nullptr};
  };
  mutable SpareWorkspace spare_;
  // The other idle workspaces.
  mutable std::mutex pool_mutex_;
  mutable std::vector<std::unique_ptr<QueryWorkspace>> pool_;
};

/// FreeSpaceOptions from the "space.*" settings. @throws InputError for a bad value
FreeSpaceOptions free_space_options(const Settings& settings);

}  // namespace polynav
