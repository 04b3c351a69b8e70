#pragma once
// Internal to space/: the one index over the boundary edges of a FreeSpace. A uniform grid of
// cells, each listing every edge that comes near it; every query that needs "the edges around
// here" (point location, line of sight, turns, nearest point, box classification) goes through it.
//
// Why a uniform grid and not the R-tree it replaced: boundaries are spread fairly evenly, and
// the queries that matter most walk along a segment and can stop at the first edge that crosses
// it. A walk visits cells in order from the segment's start, so a blocked line of sight costs a
// few cells, where an R-tree query for the segment's box collects every edge in a long diagonal's
// box before the first one is tested (bench/bench_line_of_sight.cpp measures both shapes).
//
// Conservative by construction: an edge is listed in every cell whose box, padded by a margin
// far above floating-point rounding, it meets, and a walk visits every cell whose padded box the
// segment meets, by the same computation. So an edge that touches a segment anywhere is always
// seen, and only exact predicates (kernel/exact.hpp) decide anything about it.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "polynav/geometry.hpp"

namespace polynav::detail {

class EdgeGrid {
 public:
  EdgeGrid() = default;
  /// Lists the segments (by index) in the cells of a grid over `box`, about one segment per
  /// cell. Complexity: O(E + cells the edges span).
  EdgeGrid(std::span<const Segment> edges, const Box& box);

  bool empty() const { return nx_ == 0; }
  int columns() const { return nx_; }
  int rows() const { return ny_; }
  std::size_t cell_count() const { return std::size_t(nx_) * std::size_t(ny_); }
  /// The cell containing p (clamped to the grid).
  std::size_t bucket(Point p) const { return index(column(p.x), row(p.y)); }
  std::size_t index(int cx, int cy) const { return std::size_t(cy) * std::size_t(nx_) + cx; }
  /// The closed box of cell (cx, cy).
  Box cell_box(int cx, int cy) const {
    return {{origin_.x + cx * width_, origin_.y + cy * height_},
            {origin_.x + (cx + 1) * width_, origin_.y + (cy + 1) * height_}};
  }
  Box cell_box(std::size_t cell) const {
    return cell_box(int(cell % std::size_t(nx_)), int(cell / std::size_t(nx_)));
  }
  /// The edges listed in a cell.
  std::span<const std::uint32_t> edges_in(std::size_t cell) const {
    return {items_.data() + offsets_[cell], items_.data() + offsets_[cell + 1]};
  }
  // Multiplying by the inverse and truncating a clamped non-negative value is floor() here, and
  // far cheaper; a walk computes several per column.
  int column(double x) const { return cell_of((x - origin_.x) * inverse_width_, max_column_); }
  int row(double y) const { return cell_of((y - origin_.y) * inverse_height_, max_row_); }

  /// Visits the cells along segment ab in order from a, column by column and within a column row
  /// by row, every cell whose padded box the segment meets (a superset of the cells it crosses),
  /// until visit(cell) returns true; returns whether it did.
  template <class Visit>
  bool walk(Point a, Point b, Visit&& visit) const {
    if (nx_ == 0) return false;
    const double x_min = std::min(a.x, b.x), x_max = std::max(a.x, b.x);
    const double y_min = std::min(a.y, b.y), y_max = std::max(a.y, b.y);
    const int c0 = column_low(x_min), c1 = column_high(x_max);
    const int step = b.x >= a.x ? 1 : -1;
    const int first = step > 0 ? c0 : c1, last = step > 0 ? c1 : c0;
    const double slope = a.x == b.x ? 0.0 : (b.y - a.y) / (b.x - a.x);
    for (int c = first;; c += step) {
      // The segment's y extent within the (padded) x range of column c.
      double y_low = y_min, y_high = y_max;
      if (c0 != c1 && a.x != b.x) {
        const double x0 = std::max(origin_.x + c * width_ - margin_, x_min);
        const double x1 = std::min(origin_.x + (c + 1) * width_ + margin_, x_max);
        const double ya = a.y + (x0 - a.x) * slope, yb = a.y + (x1 - a.x) * slope;
        y_low = std::max(y_min, std::min(ya, yb));
        y_high = std::min(y_max, std::max(ya, yb));
      }
      const int r0 = row_low(y_low), r1 = row_high(y_high);
      if (b.y >= a.y) {
        for (int r = r0; r <= r1; ++r)
          if (visit(index(c, r))) return true;
      } else {
        for (int r = r1; r >= r0; --r)
          if (visit(index(c, r))) return true;
      }
      if (c == last) break;
    }
    return false;
  }

  /// Visits every cell whose padded box meets the closed box b.
  template <class Visit>
  void for_each_cell_in(const Box& b, Visit&& visit) const {
    if (nx_ == 0) return;
    const int c0 = column_low(b.min.x), c1 = column_high(b.max.x);
    const int r0 = row_low(b.min.y), r1 = row_high(b.max.y);
    for (int r = r0; r <= r1; ++r)
      for (int c = c0; c <= c1; ++c) visit(index(c, r));
  }

  /// Visits the cells in rings of growing Chebyshev distance around p's cell: visit(cell, ring)
  /// returns true to stop. Rings stop when the whole grid is covered.
  template <class Visit>
  void spiral(Point p, Visit&& visit) const {
    if (nx_ == 0) return;
    const int cx = column(p.x), cy = row(p.y);
    const int most = std::max({cx, nx_ - 1 - cx, cy, ny_ - 1 - cy});
    for (int ring = 0; ring <= most; ++ring) {
      bool stop = false;
      for (int y = cy - ring; y <= cy + ring && !stop; ++y) {
        if (y < 0 || y >= ny_) continue;
        const bool edge_row = y == cy - ring || y == cy + ring;
        for (int x = cx - ring; x <= cx + ring && !stop; x += edge_row ? 1 : 2 * ring) {
          if (x >= 0 && x < nx_) stop = visit(index(x, y), ring);
          if (ring == 0) break;
        }
      }
      if (stop) return;
    }
  }
  /// Distance from p to the nearest cell of the given ring around p's cell (a lower bound on the
  /// distance to anything listed only in that ring or beyond).
  double ring_distance(int ring) const {
    return ring <= 1 ? 0.0 : (ring - 1) * std::min(width_, height_);
  }

 private:
  // v clamped to [0, most] (NaN to 0) and truncated.
  static int cell_of(double v, double most) { return v > 0.0 ? int(v < most ? v : most) : 0; }
  // Cell ranges padded by margin_, so that rounding in the divisions and in the segment's
  // y at a column border can never leave out a cell the geometry touches.
  int column_low(double x) const { return column(x - margin_); }
  int column_high(double x) const { return column(x + margin_); }
  int row_low(double y) const { return row(y - margin_); }
  int row_high(double y) const { return row(y + margin_); }
  Point origin_;
  double width_ = 1.0;
  double height_ = 1.0;
  double margin_ = 0.0;
  double inverse_width_ = 1.0;
  double inverse_height_ = 1.0;
  double max_column_ = 0.0;
  double max_row_ = 0.0;
  int nx_ = 0;
  int ny_ = 0;
  std::vector<std::uint32_t> offsets_;  // CSR: edges of cell k are items_[offsets_[k] ..]
  std::vector<std::uint32_t> items_;
};

}  // namespace polynav::detail
