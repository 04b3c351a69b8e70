#pragma once
/// @file
/// The hexagonal grid: regular hexagons over the free space, six neighbours each, searched as an
/// implicit graph (the maps of strategy games).

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "polynav/discretise/discretisation.hpp"
#include "polynav/enum_names.hpp"
#include "polynav/kernel/build_clock.hpp"
#include "polynav/search/components.hpp"

namespace polynav {

class FreeSpace;

/// Which way the hexagons point (HexGridOptions::orientation).
enum class HexOrientation : std::uint8_t {
  pointy,  ///< a corner at the top: rows of hexagons run along x
  flat,    ///< a side at the top: columns of hexagons run along y
};
inline constexpr auto hex_orientation_names =
    enum_names(HexOrientation::pointy, "pointy", HexOrientation::flat, "flat");

struct HexGridOptions {
  /// Side of a hexagon (= the distance from its centre to a corner). 0 = auto: hexagons of the
  /// area of the square grid's default cell (FreeSpace::native_cell_size, else the longest side
  /// of the free space / 256), so both grids have about as many cells. [Limit: > 0, finite; 0 =
  /// auto] [Units: scene units]
  double size = 0.0;
  HexOrientation orientation = HexOrientation::pointy;
  /// Memory budget: a grid of more hexagons (free and blocked) is refused before anything is
  /// allocated. [Limit: > 0]
  std::size_t max_cells = std::size_t{1} << 25;
  /// Wall-clock budget of the build (BuildClock); the planner passes the free space's.
  /// [Units: s] [Limit: > 0; infinity for none]
  double max_build_seconds = default_max_build_seconds;
};

/// Regular hexagons of side R in offset rows: with pointy hexagons, row r has its centres at
/// y = oy + R + 1.5 R r and x = ox + (2 c + 1 + (r & 1)) w / 2 for w = sqrt(3) R, the distance
/// between neighbouring centres; with flat hexagons the same with x and y exchanged. (ox, oy) is
/// the lower-left corner of FreeSpace::bounds_box. Every corner and centre is a point of one
/// lattice, (ox + i w / 2, oy + j R / 2) for whole i and j, computed by one formula, so the
/// hexagons of the grid share their corners exactly and tile the plane without gaps.
///
/// A hexagon is free when its closed polygon lies in free space, decided exactly
/// (FreeSpace::classify on the convex polygon), never by sampling. Each free hexagon joins its
/// free neighbours across its six sides; the move between their centres crosses the shared side
/// at an interior point and lies in the two closed hexagons, so it is a valid motion unless a
/// wall (a boundary edge with free space on both sides) lies along that side, which an exact
/// line-of-sight test finds. All six moves have one length, w in fixed point (a whole multiple of
/// a power of two near 2^-26 w), so path costs are exact sums and the hex distance heuristic is
/// exact on an open grid. Each hexagon carries the highest cost multiplier found in the three
/// boxes that cover it (FreeSpace::cost_range), so costs never underestimate; a move costs w
/// times the mean of its two hexagons' multipliers. With terrain heights and a finite max_climb,
/// a move is offered only where the segment between the centres can be climbed
/// (FreeSpace::climbable, exact).
///
/// Node id = r * columns + c for hexagon (c, r) in the grid's rows (columns along x for pointy
/// hexagons, along y for flat ones).
class HexGrid final : public Discretisation {
 public:
  /// Classifies the hexagons. Complexity: O(hexagons x boundary edges near one).
  /// @throws InputError naming hexgrid.size when the size is not positive and finite, or when the
  ///         grid would exceed hexgrid.max_cells or the machine's memory.
  HexGrid(const FreeSpace& space, HexGridOptions options);

  std::string_view method() const override { return "hexgrid"; }
  std::string_view graph_noun() const override { return "hexagonal grid"; }
  std::size_t node_count() const override { return std::size_t(columns_) * std::size_t(rows_); }
  Point node_position(search::NodeId n) const override {
    const int c = int(n % std::uint32_t(columns_)), r = int(n / std::uint32_t(columns_));
    return lattice(centre_i(c, r), centre_j(r));
  }
  /// A point joins every free hexagon whose closed polygon holds it (the straight move stays in
  /// that convex hexagon); a point in none joins the free hexagons within two rings around it
  /// that it sees.
  void attach(Point p, AttachDirection direction, std::vector<Attachment>& out) const override;
  std::string unattached_reason(std::string_view which) const override;
  const search::ComponentLabels* components() const override {
    return components_.size() > 0 ? &components_ : nullptr;
  }
  Ring node_region(search::NodeId n) const override;
  /// The shared side of each two consecutive hexagons, oriented left to right as seen moving
  /// along the path: the funnel smoother pulls hexagon paths taut through them.
  std::optional<std::vector<Segment>> corridor(Point start, std::span<const search::NodeId> path,
                                               Point end) const override;
  bool has_corridors() const override { return true; }
  std::string summary() const override;
  /// Blocked hexagons merged into runs along the rows, and the hexagons' sides on small grids.
  Primitives primitives() const override;

  /// The hex distance (moves on an open grid) to the nearest goal attachment's hexagon, times
  /// the move length and the cheapest multiplier, plus that attachment's cost: admissible and
  /// consistent.
  class Estimate {
   public:
    double operator()(search::NodeId n) const {
      const int c = int(n % columns_), r = int(n / columns_);
      const int i = 2 * c + 1 + (r & 1);
      double best = INFINITY;
      for (const Target& t : targets_)
        best = std::min(best, hex_distance(i, r, t.i, t.r) * step_ + t.cost);
      return best;
    }

   private:
    friend class HexGrid;
    struct Target {
      int i, r;
      double cost;
    };
    std::uint32_t columns_ = 1;
    double step_ = 1.0;
    std::vector<Target> targets_;
  };
  Estimate heuristic(std::span<const Attachment> goals, Point /*goal*/) const;

  /// SearchGraph: the arcs from hexagon n to its free neighbours.
  template <class F>
  void for_each_neighbour(search::NodeId n, F&& f) const {
    const std::int64_t* offset = offsets_[(n / std::uint32_t(columns_)) & 1u];
    for (unsigned left = moves_[n]; left != 0; left &= left - 1) {
      const int k = std::countr_zero(left);
      const auto to = search::NodeId(std::int64_t(n) + offset[k]);
      f(to, cost_.empty() ? step_ : step_ * 0.5 * (cost_[n] + cost_[to]));
    }
  }

  /// The number of moves between two hexagons on an open grid, from their doubled columns
  /// (i = 2 c + 1 + (r & 1), so that neighbours differ by 2 along a row or by 1 across rows) and
  /// their rows.
  static double hex_distance(int i0, int r0, int i1, int r1) {
    const int dr = std::abs(r1 - r0), di = std::abs(i1 - i0);
    return double(dr + std::max(0, (di - dr) / 2));
  }

  int columns() const { return columns_; }
  int rows() const { return rows_; }
  double size() const { return size_; }
  /// The length of every move (fixed point, see the class).
  double step() const { return step_; }
  const HexGridOptions& options() const { return options_; }
  bool blocked(int c, int r) const { return free_[std::size_t(r) * columns_ + c] == 0; }
  /// The cost multiplier of hexagon (c, r) (1 in scenes without terrain costs).
  double cell_cost(int c, int r) const {
    return cost_.empty() ? 1.0 : cost_[std::size_t(r) * columns_ + c];
  }
  /// The six corners of hexagon (c, r), counter-clockwise.
  std::array<Point, 6> corners(int c, int r) const;
  /// The moves out of node n the grid allows, one bit each, counter-clockwise from the first
  /// neighbour along the rows (pointy: 0 east, 1 north-east, ..., 5 south-east).
  unsigned moves(search::NodeId n) const { return moves_[n]; }

 private:
  // The lattice point (see the class) of hexagon (c, r)'s centre: i in half moves along the
  // rows, j in half sides across them.
  static int centre_i(int c, int r) { return 2 * c + 1 + (r & 1); }
  static int centre_j(int r) { return 2 + 3 * r; }
  // The lattice point (i, j) in the scene.
  Point lattice(int i, int j) const {
    const double along = origin_.x + i * half_width_, across = origin_.y + j * quarter_;
    return flat() ? Point{across, along} : Point{along, across};
  }
  bool flat() const { return options_.orientation == HexOrientation::flat; }
  // Hexagons (c, r) whose closed polygon may hold p: the nearest centre's and its neighbours.
  template <class F>
  void for_each_hex_near(Point p, int rings, F&& f) const;

  const FreeSpace* space_;
  HexGridOptions options_;
  int columns_ = 0;
  int rows_ = 0;
  double size_ = 1.0;                // R
  double half_width_ = 0.5;          // w / 2
  double quarter_ = 0.5;             // R / 2
  double step_ = 1.0;                // w in fixed point
  Point origin_;                     // in the grid's own frame (x along the rows)
  std::vector<std::uint8_t> free_;   // per hexagon
  std::vector<std::uint8_t> moves_;  // per hexagon, bit k: move k allowed
  std::int64_t offsets_[2][6] = {};  // per row parity, the id offset of each move
  std::vector<double> cost_;         // per hexagon; empty when every multiplier is 1
  double heuristic_scale_ = 1.0;     // cheapest multiplier
  std::size_t free_count_ = 0;
  search::ComponentLabels components_;
};

}  // namespace polynav
