#pragma once
/// @file
/// The occupancy grid: square cells over the free space, searched as an implicit graph.

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "polynav/discretise/discretisation.hpp"
#include "polynav/search/astar.hpp"

namespace polynav {

class FreeSpace;

enum class GridHeuristic { automatic, manhattan, octile, chebyshev, euclidean, zero };

/// "manhattan", "octile", ... ; throws InputError (key "heuristic") on an unknown name.
GridHeuristic parse_grid_heuristic(const std::string& name);
std::string to_string(GridHeuristic heuristic);

struct GridOptions {
  /// Side of a cell. 0 = the scene's native cell size (1 for MovingAI maps), else the longest
  /// side of the free space / 256. [Limit: > 0, finite] [Units: scene units]
  double resolution = 0.0;
  /// 4 (orthogonal moves) or 8 (plus diagonals that never cut a blocked corner).
  int connectivity = 8;
  /// automatic = octile for 8-connected grids, manhattan for 4-connected ones. Every heuristic is
  /// scaled by the cell size and the cheapest cost multiplier, so all stay admissible.
  GridHeuristic heuristic = GridHeuristic::automatic;
  /// Memory budget: a grid with more cells is refused. [Limit: > 0]
  std::size_t max_cells = std::size_t{1} << 25;
  /// Lower-left corner of cell (0, 0). Default: the lower-left corner of the free space's box.
  std::optional<Point> origin;
};

/// Square cells of side `cell_size()`; cell (cx, cy) covers [ox + cx s, ox + (cx+1) s] x
/// [oy + cy s, oy + (cy+1) s] (y up). A cell is free when its closed square lies in free space,
/// so moving in a straight line between free neighbours is always a valid motion; diagonal moves
/// also need both orthogonal neighbours free (no corner cutting). Each cell carries the highest
/// cost multiplier that applies anywhere in it, so grid costs never underestimate; a move costs
/// its length times the mean of its two cells' multipliers. With terrain heights, a move that
/// climbs more than the agent's max_climb (height at the cells' centres) is not offered.
///
/// The grid is an implicit graph: neighbours come from the cell index, nothing is stored per
/// edge. Node id = cy * width + cx.
class OccupancyGrid final : public Discretisation {
 public:
  /// Rasterises free space. Complexity: O(cells + boundary edges x rows they span).
  /// @throws InputError when the resolution or connectivity is invalid or the grid would exceed
  ///         max_cells (the message names the option to change).
  OccupancyGrid(const FreeSpace& space, GridOptions options);

  std::string_view method() const override { return "grid"; }
  std::size_t node_count() const override { return std::size_t(width_) * height_; }
  RawPath find_path(Point start, Point goal, const QueryOptions& options) override;
  void draw(SvgCanvas& canvas) const override;

  int width() const { return width_; }
  int height() const { return height_; }
  double cell_size() const { return cell_; }
  Point origin() const { return origin_; }
  const GridOptions& options() const { return options_; }
  bool blocked(int cx, int cy) const { return blocked_[padded(cx, cy)] != 0; }
  double cell_cost(int cx, int cy) const {
    return cost_.empty() ? 1.0 : cost_[std::size_t(cy) * width_ + cx];
  }
  Point cell_centre(int cx, int cy) const {
    return {origin_.x + (cx + 0.5) * cell_, origin_.y + (cy + 0.5) * cell_};
  }
  Point node_position(search::NodeId n) const {
    return cell_centre(int(n % std::uint32_t(width_)), int(n / std::uint32_t(width_)));
  }
  /// The cell containing p (may be outside the grid).
  std::pair<int, int> cell_of(Point p) const {
    return {int(std::floor((p.x - origin_.x) / cell_)), int(std::floor((p.y - origin_.y) / cell_))};
  }
  bool inside(int cx, int cy) const { return cx >= 0 && cy >= 0 && cx < width_ && cy < height_; }

  /// SearchGraph: the arcs from cell n to its free neighbours.
  template <class F>
  void for_each_neighbour(search::NodeId n, F&& f) const {
    const int cx = int(n % std::uint32_t(width_)), cy = int(n / std::uint32_t(width_));
    const std::size_t p = padded(cx, cy);
    const std::size_t row = std::size_t(width_) + 2;
    // Orthogonal neighbours: east, north, west, south; the padding border is blocked, so no
    // bounds checks are needed.
    const std::size_t ortho[4] = {p + 1, p + row, p - 1, p - row};
    const int dx[4] = {1, 0, -1, 0}, dy[4] = {0, 1, 0, -1};
    bool open[4];
    for (int k = 0; k < 4; ++k) {
      open[k] = blocked_[ortho[k]] == 0;
      if (open[k]) emit(n, cx, cy, cx + dx[k], cy + dy[k], cell_, f);
    }
    if (options_.connectivity != 8) return;
    for (int k = 0; k < 4; ++k) {
      const int k2 = (k + 1) % 4;  // the diagonal between orthogonal directions k and k2
      if (!open[k] || !open[k2]) continue;
      const int nx = cx + dx[k] + dx[k2], ny = cy + dy[k] + dy[k2];
      if (blocked_[padded(nx, ny)] == 0) emit(n, cx, cy, nx, ny, diagonal_, f);
    }
  }

 private:
  std::size_t padded(int cx, int cy) const {
    return (std::size_t(cy) + 1) * (std::size_t(width_) + 2) + std::size_t(cx) + 1;
  }
  template <class F>
  void emit(search::NodeId from, int cx, int cy, int nx, int ny, double length, F& f) const {
    const auto to = search::NodeId(std::uint32_t(ny) * std::uint32_t(width_) + std::uint32_t(nx));
    if (!height_of_.empty() && height_of_[to] - height_of_[from] > max_climb_) return;
    if (cost_.empty()) {
      f(to, length);
    } else {
      f(to, length * 0.5 * (cell_cost(cx, cy) + cell_cost(nx, ny)));
    }
  }
  double heuristic_cells(int dx, int dy) const;

  const FreeSpace* space_;
  GridOptions options_;
  int width_ = 0;
  int height_ = 0;
  double cell_ = 1.0;
  double diagonal_ = std::sqrt(2.0);
  Point origin_;
  std::vector<std::uint8_t> blocked_;  // (width+2) x (height+2), border blocked
  std::vector<double> cost_;           // per cell; empty when every multiplier is 1
  std::vector<double> height_of_;      // per cell; empty without heights
  double max_climb_ = INFINITY;
  double heuristic_scale_ = 1.0;  // cheapest multiplier
  search::ComponentLabels components_;
  search::AStar astar_;
  search::SearchResult result_;
};

}  // namespace polynav
