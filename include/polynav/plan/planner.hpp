#pragma once
/// @file
/// The facade a library user calls:
/// @code
///   polynav::Scene scene = polynav::load_scene("scenes/warehouse.yaml");
///   polynav::Planner planner(scene);                 // builds free space and the grid once
///   polynav::PlanResult r = planner.plan({1, 1}, {38, 20});
///   if (r.found()) for (polynav::Point p : r.waypoints) use(p);
/// @endcode

#include <memory>
#include <string>
#include <vector>

#include "polynav/discretise/discretisation.hpp"
#include "polynav/discretise/grid/occupancy_grid.hpp"
#include "polynav/discretise/visibility_graph/visibility_graph.hpp"
#include "polynav/geometry.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/search/astar.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {

struct PlanOptions {
  /// The discretisation: "grid" or "visgraph" (see available_methods()).
  std::string method = "grid";
  GridOptions grid;
  VisibilityGraphOptions visgraph;
  /// "none" or "shortcut" (see smoother_names()).
  std::string smoother = "shortcut";
  /// Move a start or goal that is not free to the nearest free point instead of answering
  /// invalid_query. [Default: false]
  bool snap_to_free = false;
  FreeSpaceOptions free_space;
  search::SearchOptions search;
  /// Keep the positions of expanded nodes in PlanResult::expanded (for pictures).
  bool record_expanded = false;
};

struct PlanStats {
  std::size_t nodes = 0;  ///< nodes of the discretisation
  std::uint64_t expanded = 0;
  std::uint64_t generated = 0;
  double build_ms = 0.0;  ///< free space and discretisation, once per planner
  double search_ms = 0.0;
  double smooth_ms = 0.0;
};

/// The answer to one query; serialises to the JSON of docs/output.md.
struct PlanResult {
  search::SearchStatus status = search::SearchStatus::invalid_query;
  std::string message;  ///< why not found; empty when found
  std::string method;
  std::string smoother;
  Point start;  ///< as planned (after snapping, if that was asked for)
  Point goal;
  std::vector<Point> waypoints;      ///< smoothed path, start .. goal (empty unless found/partial)
  double length = 0.0;               ///< Euclidean length of waypoints
  double cost = 0.0;                 ///< exact cost of waypoints (FreeSpace::path_cost)
  std::vector<Point> raw_waypoints;  ///< the discretisation's path before smoothing
  double raw_length = 0.0;
  double raw_cost = 0.0;
  PlanStats stats;
  std::vector<Point> expanded;  ///< when PlanOptions::record_expanded

  bool found() const { return status == search::SearchStatus::found; }
};

/// Names accepted by PlanOptions::method.
std::vector<std::string> available_methods();

/// Builds the discretisation named by options.method over space.
/// @throws InputError (key "method") for an unknown method, or from the discretisation's options.
std::unique_ptr<Discretisation> make_discretisation(const FreeSpace& space, const Scene& scene,
                                                    const PlanOptions& options);

/// Ties a scene, a method and its options, the search and the smoothers.
class Planner {
 public:
  /// Builds the free space and the discretisation (the expensive part, done once).
  /// @throws InputError for invalid options.
  explicit Planner(const Scene& scene, PlanOptions options = {});

  /// Plans from start to goal. Never throws for a bad query: a start or goal outside free space
  /// is an invalid_query with the reason (unless snap_to_free); an unreachable goal is no_path.
  /// The final path is always re-checked segment by segment against the free space.
  PlanResult plan(Point start, Point goal);

  const FreeSpace& free_space() const { return space_; }
  const Discretisation& discretisation() const { return *discretisation_; }
  const PlanOptions& options() const { return options_; }
  double build_ms() const { return build_ms_; }

 private:
  PlanOptions options_;
  FreeSpace space_;
  std::unique_ptr<Discretisation> discretisation_;
  double build_ms_ = 0.0;
};

}  // namespace polynav
