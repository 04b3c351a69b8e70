#pragma once
/// @file
/// The grid method's searches that are not plain A* over the grid's arcs, as Methods of their
/// own: Theta* (`grid.search=theta`), whose parents may be any node in line of sight, and central
/// grid paths (`grid.paths=central`), A* or jump point search followed by path counting. The
/// registry's grid row builds them from the same GridOptions as the plain grid, so attach,
/// components, corridors and pictures stay the grid's; their engines live in the query's
/// workspace (QueryWorkspace::state).

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "polynav/discretise/grid/central_paths.hpp"
#include "polynav/discretise/grid/jump_point_grid.hpp"
#include "polynav/discretise/grid/occupancy_grid.hpp"
#include "polynav/discretise/method.hpp"

namespace polynav {

/// Which of the shortest grid paths a grid query returns.
enum class GridPaths : std::uint8_t {
  any,      ///< the one the search meets first
  central,  ///< the central one (CentralGrid)
};
inline constexpr auto grid_paths_names =
    enum_names(GridPaths::any, "any", GridPaths::central, "central");

/// The grid method's options: the grid's own, how it is searched and which shortest path is
/// returned (the registry's `grid.*` options).
struct GridMethodOptions : GridOptions {
  GridSearch search = GridSearch::astar;
  GridPaths paths = GridPaths::any;
  /// grid.search=hpa: the side of a cluster, in grid nodes (HierarchicalGrid). [Limit: >= 2]
  int cluster = 16;
  /// With GridOptions::update, the version before's jump point grid where it has one: its JPS+
  /// table is updated rather than built whole (JumpOptions::before).
  const JumpPointGrid* jumps_before = nullptr;
};

/// The grid method for these options: the grid searched by the driver's A*, by jump point
/// search, by Theta* (ThetaStarGrid), by HPA* (HierarchicalGridMethod), or with central paths
/// (CentralGrid). @throws InputError
/// naming grid.ties or grid.paths for a combination that does not apply (a tie rule with
/// another search than A*; central paths with Theta*), and whatever the grid's constructor
/// throws.
std::unique_ptr<Method> make_grid_method(const FreeSpace& space, const GridMethodOptions& options);

/// The occupancy grid a discretisation of the grid method is or searches (the grid itself, jump
/// point search's or HPA*'s grid); null for any other discretisation.
const OccupancyGrid* occupancy_grid_of(const Discretisation& d);

/// The occupancy grid searched by Theta* (Daniel, Nash, Koenig and Felner, "Theta*: Any-Angle
/// Path Planning on Grids", JAIR 2010; search/theta_star.hpp): nodes and neighbours are the
/// grid's (centre- or corner-aligned, 4-, 8- or 16-connected), the start and goal are extra nodes
/// at their own points, and a node's parent may be any node whose straight segment to it is
/// traversable through FreeSpace (exact line of sight and climb), each segment costed by
/// FreeSpace::segment_cost. Paths bend only at grid nodes, are never costlier than the grid's
/// own A* path on unweighted scenes (and never above its graph cost on weighted ones), and have
/// no corridor. reach() is the grid's.
class ThetaStarGrid final : public Method {
 public:
  /// @throws whatever OccupancyGrid's constructor throws
  ThetaStarGrid(const FreeSpace& space, GridOptions options);

  const Discretisation& discretisation() const override { return grid_; }
  RawPath find_path(Point start, Point goal, const QueryOptions& options,
                    QueryWorkspace& workspace) const override;
  RawPath find_path_to_any(Point start, std::span<const Point> goals, const QueryOptions& options,
                           QueryWorkspace& workspace, std::size_t& reached_goal) const override;
  Reach reach(Point from, double max_cost, QueryWorkspace& workspace) const override {
    return polynav::reach(grid_, from, max_cost, workspace);
  }
  const OccupancyGrid& grid() const { return grid_; }

 private:
  RawPath search(Point start, std::span<const Point> goals, const QueryOptions& options,
                 QueryWorkspace& workspace, std::size_t& reached_goal) const;

  const FreeSpace* space_;
  OccupancyGrid grid_;
};

/// Replaces the nodes of a found grid path by the central shortest grid path between the same
/// ends (discretise/grid/central_paths.hpp), and its points, corridor and graph cost with them.
/// An end whose point is itself a grid node starts the central path there (the search may have
/// joined the point to a neighbour at the same cost). `note` non-empty: central paths do not
/// apply to the grid; the path is left alone and the note added to its message.
void centralise_grid_path(const OccupancyGrid& grid, std::string_view note, Point start, Point goal,
                          const QueryOptions& options, QueryWorkspace& workspace, RawPath& raw);

/// The grid searched by A* (D = OccupancyGrid) or jump point search (D = JumpPointGrid), each
/// path then replaced by the central shortest grid path between its ends (Goldstein et al.,
/// "Path Counting for Grid-Based Navigation", JAIR 2022): the same cost, through the nodes most
/// shortest paths pass through. On grids with cells of different cost or one-way moves the
/// searched path is returned and the message says why.
template <class D>
class CentralGrid final : public Method {
 public:
  template <class... Args>
  explicit CentralGrid(Args&&... args) : d_(std::forward<Args>(args)...) {
    if (const std::string why = CentralGridPaths::applies(grid()); !why.empty())
      note_ = "grid.paths=central does not apply to this grid (" + why +
              "); the search's own shortest path is returned";
  }

  const Discretisation& discretisation() const override { return d_; }
  RawPath find_path(Point start, Point goal, const QueryOptions& options,
                    QueryWorkspace& workspace) const override {
    RawPath raw = polynav::find_path(d_, start, goal, options, workspace);
    centralise_grid_path(grid(), note_, start, goal, options, workspace, raw);
    return raw;
  }
  RawPath find_path_to_any(Point start, std::span<const Point> goals, const QueryOptions& options,
                           QueryWorkspace& workspace, std::size_t& reached_goal) const override {
    RawPath raw = polynav::find_path_to_any(d_, start, goals, options, workspace, reached_goal);
    if (reached_goal < goals.size())
      centralise_grid_path(grid(), note_, start, goals[reached_goal], options, workspace, raw);
    return raw;
  }
  Reach reach(Point from, double max_cost, QueryWorkspace& workspace) const override {
    return polynav::reach(d_, from, max_cost, workspace);
  }
  const OccupancyGrid& grid() const {
    if constexpr (std::is_same_v<D, OccupancyGrid>) {
      return d_;
    } else {
      return d_.grid();
    }
  }
  /// Why central paths do not apply to this grid, as every result's message says; empty when
  /// they do.
  const std::string& note() const { return note_; }

 private:
  D d_;
  std::string note_;
};

}  // namespace polynav
