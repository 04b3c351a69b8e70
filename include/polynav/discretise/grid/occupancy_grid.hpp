#pragma once
/// @file
/// The occupancy grid: square cells over the free space, searched as an implicit graph.

#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "polynav/discretise/discretisation.hpp"
#include "polynav/enum_names.hpp"
#include "polynav/kernel/build_clock.hpp"
#include "polynav/search/astar.hpp"
#include "polynav/search/components.hpp"

namespace polynav {

class FreeSpace;
class OccupancyGrid;
struct CellFrame;
struct CellWindow;

/// A node id's cell (n % width, n / width) without a division, which a search would otherwise
/// pay at every node it reaches: n * (2^63 / width, rounded up) >> 63 is exact for n * width <
/// 2^63, which holds for every width below 2^31 (node ids have 32 bits); wider rows divide.
class CellSplit {
 public:
  CellSplit() = default;
  explicit CellSplit(std::uint32_t width)
      : width_(width), reciprocal_(width == 0 ? 0 : (std::uint64_t{1} << 63u) / width + 1) {}
  std::uint32_t width() const { return width_; }
  void operator()(search::NodeId n, int& x, int& y) const {
    if (width_ >= (std::uint32_t{1} << 31u)) [[unlikely]] {
      x = int(n % width_);
      y = int(n / width_);
      return;
    }
    __extension__ using Wide = unsigned __int128;
    const auto row = std::uint32_t((Wide(n) * reciprocal_) >> 63u);
    x = int(n - row * width_);
    y = int(row);
  }

 private:
  std::uint32_t width_ = 1;
  std::uint64_t reciprocal_ = (std::uint64_t{1} << 63u) + 1;
};

enum class GridHeuristic { automatic, manhattan, octile, chebyshev, euclidean, zero, sixteen };
inline constexpr auto grid_heuristic_names =
    enum_names(GridHeuristic::automatic, "auto", GridHeuristic::manhattan, "manhattan",
               GridHeuristic::octile, "octile", GridHeuristic::chebyshev, "chebyshev",
               GridHeuristic::euclidean, "euclidean", GridHeuristic::zero, "zero",
               GridHeuristic::sixteen, "sixteen", GridHeuristic::automatic, "automatic");

/// A name of grid_heuristic_names; throws InputError (key "heuristic") on an unknown one.
inline GridHeuristic parse_grid_heuristic(const std::string& name) {
  return from_name(grid_heuristic_names, name, "heuristic", "grid heuristic");
}
inline std::string to_string(GridHeuristic h) {
  return std::string(name_of(grid_heuristic_names, h));
}

/// Where a grid's path vertices lie.
enum class GridAlign : std::uint8_t {
  centre,  ///< at cell centres: nodes are the free cells
  corner,  ///< at cell corners: nodes are the lattice points (the any-angle literature's grids)
};
inline constexpr auto grid_align_names =
    enum_names(GridAlign::centre, "centre", GridAlign::corner, "corner");

/// Which of the open nodes of least f grid A* expands first. Grid costs are fixed point, so equal
/// f values are real ties and the rule alone decides among them (not rounding).
enum class GridTies : std::uint8_t {
  /// central64 where it applies (4- and 8-connected grids without terrain, no beam search) and the
  /// raw path is smoothed, since its paths smooth shortest (measured on the MovingAI Dragon Age
  /// maps: README,
  /// "Smoothing experiments"); larger_g, the fastest, for unsmoothed paths, whose cost every rule
  /// leaves the same, and on other grids. Moves follow central64's order wherever it applies.
  automatic,
  larger_g,   ///< the deepest first (search::TieBreak::larger_g)
  smaller_g,  ///< the shallowest first (search::TieBreak::smaller_g)
  lifo,       ///< the most recently opened or improved first (search::TieBreak::lifo)
  fifo,       ///< the earliest opened or improved first (search::TieBreak::fifo)
  /// The nearest the straight line between the start and goal nodes first (search::TieBreak::
  /// rank with Estimate::tie_rank; Patel's cross-product tie-breaker, "Amit's A* pages"): raw
  /// paths that hug the line where the grid allows, which smoothing then straightens.
  line,
  /// The Central64 reference implementation's regular A* (Goldstein et al., Autodesk Research
  /// 2022): f alone in a binary heap with one entry per improvement (search::TieBreak::
  /// binary_heap), moves generated in its order (east, then clockwise as seen on a map whose
  /// rows run down: south-east, south, south-west, west, north-west, north, north-east). 4- and
  /// 8-connected grids without cost multipliers only.
  central64,
};

inline constexpr auto grid_ties_names =
    enum_names(GridTies::automatic, "auto", GridTies::larger_g, "larger-g", GridTies::smaller_g,
               "smaller-g", GridTies::lifo, "lifo", GridTies::fifo, "fifo", GridTies::line, "line",
               GridTies::central64, "central64");

struct GridOptions {
  /// Side of a cell. 0 = the scene's native cell size (FreeSpace::native_cell_size: 1 for
  /// MovingAI maps), else the longest side of the free space / 256. [Limit: >= 0, finite]
  /// [Units: scene units]
  double resolution = 0.0;
  /// 4 (orthogonal moves), 8 (plus diagonals that never cut a blocked corner) or 16 (plus the
  /// eight knight moves (+-1, +-2) and (+-2, +-1), each allowed only when every cell its segment
  /// passes through is free).
  int connectivity = 8;
  /// automatic = octile for 8-connected grids, manhattan for 4-connected ones, sixteen for
  /// 16-connected ones. Every heuristic is scaled by the cell size and the cheapest cost
  /// multiplier, so all stay admissible; octile and manhattan overestimate a knight move and are
  /// refused on 16-connected grids.
  GridHeuristic heuristic = GridHeuristic::automatic;
  /// Memory budget: a grid with more cells is refused. [Limit: > 0]
  std::size_t max_cells = std::size_t{1} << 25;
  /// Lower-left corner of cell (0, 0). Default: the lower-left corner of the scene's bounds
  /// (FreeSpace::bounds_box), so a cell map's cells are the grid's cells. On a rotated map
  /// (FreeSpace::map_frame) the grid's cells are squares of the map's frame, the default origin
  /// is the map's, and a given origin is a point of that frame (before the map's yaw).
  std::optional<Point> origin;
  /// centre: nodes are free cells, moves join cell centres. corner: nodes are the corners of the
  /// cells, a move along a cell side needs a free cell on one side of it and a diagonal move
  /// needs the cell it crosses free, so every move lies in a free cell's closed square. A corner
  /// where only two diagonally opposite cells are free is a zero-width gap, closed unless free
  /// space opens gaps (FreeSpaceOptions::open_gaps); so is a corner on a wall.
  GridAlign align = GridAlign::centre;
  /// Wall-clock budget of the build, checked between its steps (BuildClock): a longer build
  /// stops with an InputError naming space.max_build_seconds. The planner passes the free
  /// space's (FreeSpace::max_build_seconds). [Units: s] [Limit: > 0; infinity for none]
  double max_build_seconds = default_max_build_seconds;
  /// Tie rule among open nodes of equal f (GridTies).
  GridTies ties = GridTies::automatic;
  /// Build by updating the grid of the version before an edit: when that grid has the same
  /// cells (frame, alignment) and the same kinds of terrain (costs or not, heights with the same
  /// climb limit or not), only the cells within a cell of the edit's extent in the free spaces
  /// before and after it (FreeSpace::edit_extent) are classified against the free space; the
  /// others keep the grid before's freedom, cost, heights, climb limits and knight moves, which
  /// a build from scratch would give them too, since free space, costs and heights are the same
  /// there. Moves, walls and components are then derived over the whole grid, as a build does.
  /// A rotated map's grid, or one whose cells or kinds of terrain differ, is built whole.
  /// @pre update->before was built with these options over the free space of the scene before
  /// the edit. Not a text option; the built grid does not keep it.
  std::shared_ptr<const EditedFrom<OccupancyGrid>> update{};
};

/// Square cells of side `cell_size()`; cell (cx, cy) covers [ox + cx s, ox + (cx+1) s] x
/// [oy + cy s, oy + (cy+1) s] (y up). On a rotated map (FreeSpace::map_frame) those are
/// coordinates of the map's frame, and the cells are turned into the scene with the map
/// (CellFrame::corner), so the grid's cells are still the map's cells. A cell is free when its
/// closed square lies in free space, so moving in a straight line between free neighbours is always
/// a valid motion; diagonal moves also need both orthogonal neighbours free (no corner cutting). On
/// 16-connected grids a knight move needs every cell its segment passes through free: between
/// centres, (1, 2) passes through the cells (0, 1) and (1, 1) and crosses three cell sides at
/// interior points (never a cell corner); between corners, it crosses the two cells beside the side
/// whose midpoint it passes. No move crosses a wall (a boundary edge with free space on both sides)
/// lying along a cell side. Each cell carries the highest cost multiplier that applies anywhere in
/// it, so grid costs never underestimate; a move costs its length times the mean of its two cells'
/// multipliers. Move lengths are fixed point: whole multiples of a quantum, a power of two near
/// 2^-26 of a cell (so within 2^-27 of the true lengths, and exactly the cell side when that is a
/// power of two), so that on grids without multipliers every path cost is a whole number of quanta
/// held exactly in a double: sums do not depend on their order and equal f values are real ties.
/// With terrain heights, a move that climbs more than the agent's max_climb (height at the cells'
/// centres) is not offered.
///
/// The grid is an implicit graph: neighbours come from the cell index, nothing is stored per
/// edge. Node id = cy * width + cx; corner-aligned, node id = y * (width + 1) + x for the corner
/// (x, y) at origin + (x s, y s). Which cells are free and what they cost is decided by
/// FreeSpace (free_cells, cost_range), exactly.
class OccupancyGrid final : public Discretisation {
 public:
  /// Classifies the cells. Complexity: O(cells + cells the boundary edges pass through).
  /// @throws InputError when the resolution or connectivity is invalid or the grid would exceed
  ///         max_cells (the message names the option to change).
  OccupancyGrid(const FreeSpace& space, GridOptions options);

  std::string_view method() const override { return "grid"; }
  std::string_view graph_noun() const override { return "grid"; }
  std::size_t node_count() const override { return std::size_t(across_) * down_; }
  Point node_position(search::NodeId n) const override {
    const int x = int(n % std::uint32_t(across_)), y = int(n / std::uint32_t(across_));
    return corners() ? rotation_.apply({origin_.x + x * cell_, origin_.y + y * cell_})
                     : cell_centre(x, y);
  }
  /// A point joins its own cell when that cell is free (the straight move stays in the cell's
  /// square), else the free cells within two cells of it that it sees.
  void attach(Point p, AttachDirection direction, std::vector<Attachment>& out) const override;
  std::string unattached_reason(std::string_view which) const override;
  const search::ComponentLabels* components() const override {
    return components_.size() > 0 ? &components_ : nullptr;
  }
  Ring node_region(search::NodeId n) const override;
  std::optional<std::vector<Segment>> corridor(Point start, std::span<const search::NodeId> path,
                                               Point end) const override;
  bool has_corridors() const override { return !corners(); }
  /// Blocked cells merged into horizontal runs, and the cell lattice when the grid is small.
  Primitives primitives() const override;
  /// The cells this grid classified against the free space: all of them when built whole, those
  /// near an edit when updated from the grid before it (GridOptions::update).
  std::size_t classified_cells() const { return classified_cells_; }

  /// The heuristic towards a goal (see GridOptions::heuristic) and its rank of ties.
  class Estimate {
   public:
    /// The cell distance to each goal attachment's node times the cheapest multiplier, plus that
    /// attachment's cost, the least over the attachments.
    double operator()(search::NodeId n) const {
      int nx = 0, ny = 0;
      split_(n, nx, ny);
      if (octile_) {
        // The usual case, inline: heuristic_cells's octile case for the one target.
        return octile_length(std::abs(nx - targets_[0].x), std::abs(ny - targets_[0].y), straight_,
                             diagonal_) *
               scale_;
      }
      return towards(nx, ny);
    }
    /// search::TieBreak::rank (grid.ties=line): twice the area of the triangle of n with the
    /// start and goal nodes, in cells squared, an exact integer: how far n lies from the straight
    /// line between them, times their distance. 0 without one start and one goal node.
    std::uint64_t tie_rank(search::NodeId n) const {
      if (!line_) return 0;
      int x = 0, y = 0;
      split_(n, x, y);
      const std::int64_t nx = x, ny = y;
      const std::int64_t cross = (nx - sx_) * (gy_ - sy_) - (ny - sy_) * (gx_ - sx_);
      return std::uint64_t(cross < 0 ? -cross : cross);
    }

   private:
    friend class OccupancyGrid;
    struct Target {
      int x, y;
      double cost;
    };
    // Any heuristic, any number of targets.
    [[gnu::noinline]] double towards(int nx, int ny) const {
      if (targets_.size() == 1)
        return grid_->heuristic_cells(std::abs(nx - targets_[0].x), std::abs(ny - targets_[0].y)) *
               scale_;
      double best = INFINITY;
      for (const Target& t : targets_)
        best = std::min(
            best, grid_->heuristic_cells(std::abs(nx - t.x), std::abs(ny - t.y)) * scale_ + t.cost);
      return best;
    }
    const OccupancyGrid* grid_ = nullptr;
    double scale_ = 1.0;
    // The octile heuristic towards one target: its move lengths, read without the grid.
    bool octile_ = false;
    double straight_ = 0.0, diagonal_ = 0.0;
    CellSplit split_;
    // One inline target, a query's usual goal: making the estimate allocates nothing.
    boost::container::small_vector<Target, 1> targets_;
    bool line_ = false;
    std::int64_t sx_ = 0, sy_ = 0, gx_ = 0, gy_ = 0;
  };

  /// The heuristic towards a goal joined by `goals`; with one start attachment among `starts`
  /// and one goal attachment, it ranks ties by the line between their nodes (Estimate).
  Estimate heuristic(std::span<const Attachment> starts, std::span<const Attachment> goals,
                     Point goal) const {
    Estimate e = heuristic(goals, goal);
    if (starts.size() == 1 && goals.size() == 1) {
      e.line_ = true;
      int sx = 0, sy = 0, gx = 0, gy = 0;
      e.split_(starts[0].node, sx, sy);
      e.split_(goals[0].node, gx, gy);
      e.sx_ = sx;
      e.sy_ = sy;
      e.gx_ = gx;
      e.gy_ = gy;
    }
    return e;
  }
  Estimate heuristic(std::span<const Attachment> goals, Point /*goal*/) const {
    Estimate e;
    e.grid_ = this;
    e.scale_ = heuristic_scale_;
    e.split_ = CellSplit(std::uint32_t(across_));
    for (const Attachment& a : goals) {
      int x = 0, y = 0;
      e.split_(a.node, x, y);
      e.targets_.push_back({x, y, a.cost});
    }
    e.octile_ = options_.heuristic == GridHeuristic::octile && e.targets_.size() == 1;
    e.straight_ = straight_;
    e.diagonal_ = diagonal_;
    return e;
  }

  int width() const { return width_; }
  int height() const { return height_; }
  double cell_size() const { return cell_; }
  /// The fixed-point lengths of a straight, a diagonal and a knight move (see the class).
  double straight_length() const { return straight_; }
  double diagonal_length() const { return diagonal_; }
  double knight_length() const { return knight_; }
  /// The search's tie rule for this grid's options (GridOptions::ties), for a search with these
  /// options whose raw path will be `smoothed` or not (automatic: central64 needs no beam search).
  search::TieBreak tie_break(const search::SearchOptions& search, bool smoothed) const;
  /// The lower-left corner of cell (0, 0), in the grid's frame (the map's, on a rotated map).
  Point origin() const { return origin_; }
  /// How the grid's frame lies in the scene: the identity, or a rotated map's turn.
  const Rotation& rotation() const { return rotation_; }
  const GridOptions& options() const { return options_; }
  bool corners() const { return options_.align == GridAlign::corner; }
  /// Whether cell (cx, cy) is blocked; for -64 <= cx < width() + 64 and -1 <= cy <= height(),
  /// the cells around the grid blocked.
  bool blocked(int cx, int cy) const {
    const auto p = unsigned(cx + 64);
    return ((free_row(cy)[p / 64] >> (p % 64)) & 1u) == 0;
  }
  /// The free cells as bits, a row for each y from -1 to height() (those outside the grid
  /// clear): bit 64 + x of the row's words is cell (x, y), with a clear word before the cells
  /// and two after, so that 64 bits from any position -64 .. width() + 63 lie in the row.
  /// Moves, components and jump point search read the cells from these, 64 at a time.
  const std::uint64_t* free_row(int cy) const {
    return free_rows_.data() + std::size_t(cy + 1) * row_words_;
  }
  /// Words per row of free_row.
  std::size_t row_words() const { return row_words_; }
  double cell_cost(int cx, int cy) const {
    return cost_.empty() ? 1.0 : cost_[std::size_t(cy) * width_ + cx];
  }
  /// The centre of cell (cx, cy) in the scene.
  Point cell_centre(int cx, int cy) const {
    return rotation_.apply({origin_.x + (cx + 0.5) * cell_, origin_.y + (cy + 0.5) * cell_});
  }
  /// The closed square of cell (cx, cy) in the grid's frame (the scene's unless rotated()).
  Box cell_box(int cx, int cy) const {
    return {{origin_.x + cx * cell_, origin_.y + cy * cell_},
            {origin_.x + (cx + 1) * cell_, origin_.y + (cy + 1) * cell_}};
  }
  /// The cell containing p (may be outside the grid). On a rotated grid p is turned into the
  /// grid's frame with rounding, so a point within rounding of a side may get the cell beside.
  std::pair<int, int> cell_of(Point p) const {
    const Point q = rotation_.undo(p);
    return {int(std::floor((q.x - origin_.x) / cell_)), int(std::floor((q.y - origin_.y) / cell_))};
  }
  /// Whether the grid's cells are turned in the scene (a rotated map's cells).
  bool rotated() const { return !rotation_.identity(); }
  /// The frame of the cells (origin, side, size and rotation).
  CellFrame frame() const;
  bool inside(int cx, int cy) const { return cx >= 0 && cy >= 0 && cx < width_ && cy < height_; }
  /// The moves out of node n the grid allows, one bit each: 0 east, 1 north, 2 west, 3 south,
  /// 4 north-east, 5 north-west, 6 south-west, 7 south-east (corner rule and walls included;
  /// height limits are checked by for_each_neighbour). @pre n < node_count()
  unsigned moves(search::NodeId n) const { return moves_[n]; }
  /// Whether a wall along a cell side (a navigation mesh's constrained edge) removed moves, so
  /// that moves() differs from the corner rule over the blocked cells.
  bool has_wall_sides() const { return wall_sides_; }

  /// 16-connected grids: the knight moves out of node n the grid allows, one bit each, in the
  /// order of knight_offset() (height limits included); 0 on other grids.
  unsigned knight_moves(search::NodeId n) const { return knights_.empty() ? 0u : knights_[n]; }
  /// The cell offset (dx, dy) of knight move k (0 .. 7): counter-clockwise from (2, 1).
  static std::pair<int, int> knight_offset(int k) {
    constexpr int dx[8] = {2, 1, -1, -2, -2, -1, 1, 2}, dy[8] = {1, 2, 2, 1, -1, -2, -2, -1};
    return {dx[k], dy[k]};
  }

  /// SearchGraph: the arcs from cell n to its free neighbours.
  template <class F>
  void for_each_neighbour(search::NodeId n, F&& f) const {
    // One byte per cell says which of the 8 moves are allowed (computed once, corner rule
    // included), so an expansion reads no neighbour's blocked flag.
    const unsigned mask = moves_[n];
    const auto move = [&](int k) {
      const auto to = search::NodeId(std::int64_t(n) + move_offset_[k]);
      if (!climbable_.empty() && ((climbable_[n] >> k) & 1u) == 0) return;
      const double length = k < 4 ? straight_ : diagonal_;
      if (!move_cost_.empty())
        f(to, length * move_cost_[8 * std::size_t(n) + std::size_t(k)]);
      else
        f(to, cost_.empty() ? length : length * 0.5 * (cost_[n] + cost_[to]));
    };
    if (central64_moves_) [[unlikely]] {
      // East, then clockwise on a map whose rows run down (the y axis here points up).
      constexpr int clockwise[8] = {0, 7, 3, 6, 2, 5, 1, 4};
      for (const int k : clockwise)
        if ((mask >> k) & 1u) move(k);
      return;
    }
    for (unsigned left = mask; left != 0; left &= left - 1) move(std::countr_zero(left));
    // Knight moves exist only on 16-connected grids; elsewhere this is one predictable branch.
    if (!knights_.empty()) [[unlikely]] {
      unsigned knights = knights_[n];
      while (knights != 0) {
        const int k = std::countr_zero(knights);
        knights &= knights - 1;
        const auto to = search::NodeId(std::int64_t(n) + knight_offset_[k]);
        f(to, knight_cost_.empty() ? knight_ : knight_ * knight_cost_[8 * std::size_t(n) + k]);
      }
    }
  }

 private:
  // The length of an open-grid octile path over dx, dy cells with these move lengths.
  static double octile_length(int dx, int dy, double straight, double diagonal) {
    const int hi = std::max(dx, dy), lo = std::min(dx, dy);
    return double(hi - lo) * straight + double(lo) * diagonal;
  }
  // The heuristic's lower bound of the cost of dx, dy cells, before the cheapest multiplier.
  // Inline: every node a search reaches evaluates it once.
  double heuristic_cells(int dx, int dy) const;
  // Whether p lies in the closed square of cell (cx, cy) (exactly, on a rotated grid too).
  bool in_closed_cell(Point p, int cx, int cy) const;
  // The grid to update (GridOptions::update), when it has this grid's cells and kinds of
  // terrain; null when this grid is built whole.
  const OccupancyGrid* updatable(const FreeSpace& space,
                                 const EditedFrom<OccupancyGrid>* update) const;
  // Per node (a cell, or a corner on corner-aligned grids): 1 within `grow` nodes of a cell of
  // the windows, else 0.
  std::vector<std::uint8_t> near_windows(std::span<const CellWindow> windows, int grow) const;
  // Moves of a centre-aligned grid from free_rows_, 64 cells a word: straight into a free cell,
  // diagonal when both cells it passes between are free too.
  void build_centre_moves();
  // The moves between corners; knight moves as build_knight_moves.
  void build_corner_moves(const FreeSpace& space, const CellFrame& frame,
                          const OccupancyGrid* before, const std::vector<std::uint8_t>& fresh);
  // Knight moves of a 16-connected grid; `closed` marks the corners no path passes through
  // (corner-aligned grids; empty for centre-aligned ones). Nodes outside `fresh` (when given)
  // keep `before`'s knight moves.
  void build_knight_moves(const FreeSpace& space, const CellFrame& frame,
                          const std::vector<std::uint8_t>& closed, const OccupancyGrid* before,
                          const std::vector<std::uint8_t>& fresh);

  const FreeSpace* space_;
  GridOptions options_;
  int width_ = 0;
  int height_ = 0;
  int across_ = 0;  // nodes per row: width_, or width_ + 1 corner-aligned
  int down_ = 0;    // rows of nodes
  double cell_ = 1.0;
  Rotation rotation_;  // the map's turn on a rotated map, else the identity
  // The cells are the scene's own (a raster map's, at its resolution and origin).
  bool native_cells_ = false;
  double straight_ = 1.0;  // fixed-point move lengths (see the class)
  double diagonal_ = std::sqrt(2.0);
  double knight_ = std::sqrt(5.0);
  Point origin_;
  std::vector<std::uint64_t> free_rows_;  // the cells: free_row()
  std::size_t row_words_ = 0;
  // Per cell, bit k: move k allowed (0-3 east, north, west, south; 4-7 the diagonals between
  // k-4 and k-3), and the id offset of each move.
  std::vector<std::uint8_t> moves_;
  std::int64_t move_offset_[8] = {};
  std::vector<double> cost_;       // per cell; empty when every multiplier is 1
  std::vector<double> move_cost_;  // corner-aligned with costs: per node and move, multiplier
  std::vector<double> height_of_;  // per cell, at its centre; empty without heights
  // With heights and a max_climb: per cell, 1 when it has one height throughout; else empty.
  std::vector<std::uint8_t> uniform_height_;
  // With heights and a max_climb: per cell, which of its moves (bits as in moves_) can be
  // climbed; empty otherwise.
  std::vector<std::uint8_t> climbable_;
  double max_climb_ = INFINITY;
  // 16-connected grids: per node, bit k: knight move k allowed (knight_offset), the id offset of
  // each, and with costs the multiplier of each (mean over the cells it crosses, per length).
  std::vector<std::uint8_t> knights_;
  std::int64_t knight_offset_[8] = {};
  std::vector<double> knight_cost_;
  double heuristic_scale_ = 1.0;  // cheapest multiplier
  bool central64_moves_ = false;  // moves in central64's order (GridTies)
  bool wall_sides_ = false;       // has_wall_sides()
  std::size_t classified_cells_ = 0;
  search::ComponentLabels components_;
};

inline double OccupancyGrid::heuristic_cells(int dx, int dy) const {
  // Lengths of dx, dy cells in the grid's fixed-point move lengths; every one is a lower bound
  // of the grid's own path length (and chebyshev and euclidean also of octile and manhattan
  // paths). Manhattan, octile and sixteen are the lengths of actual open-grid paths, sums of
  // whole quanta, so f = g + h stays exact.
  const int hi = std::max(dx, dy), lo = std::min(dx, dy);
  switch (options_.heuristic) {
    case GridHeuristic::manhattan:
      return double(dx + dy) * straight_;
    case GridHeuristic::octile:
      return octile_length(dx, dy, straight_, diagonal_);
    case GridHeuristic::chebyshev:
      return double(hi) * straight_;
    case GridHeuristic::euclidean:
      // Scaled down by far more than the fixed point's rounding of a diagonal, to stay admissible.
      return std::hypot(double(dx), double(dy)) * cell_ * (1.0 - 1e-6);
    case GridHeuristic::sixteen: {
      // The shortest 16-connected path on an open grid: knight moves plus straight ones below
      // the knight's slope, knight moves plus diagonals above it (the two moves whose directions
      // bracket the target's; Rivera et al., "The 2^k Neighborhoods for Grid Path Planning", JAIR
      // 2020).
      if (2 * lo <= hi) return double(lo) * knight_ + double(hi - 2 * lo) * straight_;
      return double(hi - lo) * knight_ + double(2 * lo - hi) * diagonal_;
    }
    case GridHeuristic::zero:
    case GridHeuristic::automatic:
      return 0.0;
  }
  return 0.0;
}

}  // namespace polynav
