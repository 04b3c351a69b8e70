#pragma once
/// @file
/// The option tables behind the registry (plan/registry.hpp): each group's options declared
/// once against the struct they set (OptionTable). The registry's rows, `polynav methods`, the
/// JSON and the builds read them; tests check that every declared default reads back as the
/// struct's.

#include <cstddef>
#include <string>
#include <vector>

#include "polynav/discretise/clearance/clearance_roadmap.hpp"
#include "polynav/discretise/grid/grid_methods.hpp"
#include "polynav/discretise/hexgrid/hex_grid.hpp"
#include "polynav/discretise/hybrid/hybrid_astar.hpp"
#include "polynav/discretise/navmesh/navmesh.hpp"
#include "polynav/discretise/potential/potential_field.hpp"
#include "polynav/discretise/quadtree/quadtree.hpp"
#include "polynav/discretise/visibility_graph/visibility_graph.hpp"
#include "polynav/discretise/waypoints/waypoint_graph.hpp"
#include "polynav/discretise/weighted/weighted_graph.hpp"
#include "polynav/plan/options.hpp"
#include "polynav/search/astar.hpp"
#include "polynav/smooth/spline.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {

/// The `shortcut-optimal` smoother's options.
struct ShortcutOptimalOptions {
  /// Predecessors tried per waypoint (PathSimplifier::shortcut_optimal). [Limit: >= 1]
  std::size_t window = 256;
};

/// The `spline` smoother's options: the curve's, and whether the shortcut pass runs first.
struct SplineSmoothing : SplineOptions {
  bool shortcut = true;
};

const OptionTable<GridMethodOptions>& grid_option_table();
const OptionTable<HexGridOptions>& hexgrid_option_table();
const OptionTable<QuadtreeOptions>& quadtree_option_table();
const OptionTable<ClearanceOptions>& clearance_option_table();
const OptionTable<WaypointOptions>& waypoints_option_table();
/// Its headings are custom options: degrees, or auto (NaN: any heading).
const OptionTable<HybridOptions>& hybrid_option_table();
const OptionTable<VisibilityGraphOptions>& visgraph_option_table();
/// Its defaults are NavMeshOptions' but for `search`: the planner's navigation mesh picks its
/// search (automatic), where a NavMesh built directly searches its graph.
const OptionTable<NavMeshOptions>& navmesh_option_table();
/// `fallback` is a choice among potential_fallback_names().
const OptionTable<PotentialOptions>& potential_option_table();
/// The methods potential.fallback may name: every other registry method, and "none".
const std::vector<std::string>& potential_fallback_names();
const OptionTable<WeightedOptions>& weighted_option_table();
const OptionTable<ShortcutOptimalOptions>& shortcut_optimal_option_table();
const OptionTable<SplineSmoothing>& spline_option_table();
/// `search.time_limit_ms` is SearchOptions::max_time in milliseconds.
const OptionTable<search::SearchOptions>& search_option_table();
const OptionTable<FreeSpaceOptions>& space_option_table();

}  // namespace polynav
