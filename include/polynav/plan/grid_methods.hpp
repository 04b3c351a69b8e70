#pragma once
/// @file
/// The grid method's searches that are not A* over the grid's arcs, as Methods of their own:
/// Theta* (`grid.search=theta`), whose parents may be any node in line of sight. The registry's
/// grid row builds them from the same GridOptions as the plain grid, so attach, components,
/// corridors and pictures stay the grid's.

#include <span>

#include "polynav/discretise/grid/occupancy_grid.hpp"
#include "polynav/plan/registry.hpp"

namespace polynav {

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

}  // namespace polynav
