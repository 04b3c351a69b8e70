#pragma once
/// @file
/// The one geometric index: a uniform grid of cells over a box, each listing the ids of the items
/// that come near it. Every "what is around here" query goes through one of these:
/// FreeSpace's edge grid (src/space/edge_grid.hpp: the boundary edges, each listed along its
/// length; FreeSpace keeps a reference point per cell on top), the navigation mesh's point
/// location (its convex polygons, by their boxes) and the simplification of raster outlines
/// (src/scene/vectorise.cpp: edges and vertices by their boxes, and the chords it adds as it
/// goes). It lives in kernel/ because scene/, which simplifies outlines while reading maps, may
/// include only kernel/ and geometry.
///
/// Conservative by construction: an item is listed in every cell whose box, padded by a margin
/// far above floating-point rounding, meets the item's box (or, for a segment, the segment), and
/// a query visits the cells of its box or segment by the same computation, so an item that
/// touches a query is always among the ids visited (the cell of a coordinate is monotone in it,
/// so boxes that meet always share a cell). Only exact predicates (kernel/exact.hpp) decide
/// anything about the items.
///
/// Why a uniform grid (and not an R-tree): the items are spread fairly evenly, and the queries
/// that matter most walk along a segment and stop at the first edge that crosses it. A walk
/// visits cells in order from the segment's start, so a blocked line of sight costs a few cells
/// (bench/bench_line_of_sight.cpp).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "polynav/geometry.hpp"

namespace polynav {

class BoxIndex {
 public:
  /// An index with no cells: every query visits nothing.
  BoxIndex() = default;
  /// An index over `box` with about `cells` cells (at least one, at most 4096 a side), as near
  /// square as the box allows, listing nothing yet. An empty box makes an index with no cells.
  BoxIndex(const Box& box, std::size_t cells) : box_(box) {
    if (box.empty()) return;
    const double w = std::max(box.width(), 1e-300), h = std::max(box.height(), 1e-300);
    const double n = std::max(1.0, double(cells));
    // Clamped before the conversion: a box of (nearly) zero height or width makes these ratios
    // far beyond any int.
    nx_ = int(std::clamp(std::sqrt(n * w / h), 1.0, 4096.0));
    ny_ = int(std::clamp(std::sqrt(n * h / w), 1.0, 4096.0));
    origin_ = box.min;
    width_ = box.width() > 0 ? box.width() / nx_ : 1.0;
    height_ = box.height() > 0 ? box.height() / ny_ : 1.0;
    inverse_width_ = 1.0 / width_;
    inverse_height_ = 1.0 / height_;
    max_column_ = nx_ - 1;
    max_row_ = ny_ - 1;
    // Far above the rounding of a division or of a segment's y at a column border (about 1e-16
    // of the coordinates' magnitude), far below a cell.
    const double magnitude = std::max(
        {std::abs(box.min.x), std::abs(box.min.y), std::abs(box.max.x), std::abs(box.max.y)});
    margin_ = std::max(1e-9 * std::min(width_, height_), 1e-12 * magnitude);
    offsets_.assign(cell_count() + 1, 0);
  }

  // --- The cells.

  bool empty() const { return nx_ == 0; }
  int columns() const { return nx_; }
  int rows() const { return ny_; }
  std::size_t cell_count() const { return std::size_t(nx_) * std::size_t(ny_); }
  std::size_t index(int cx, int cy) const { return std::size_t(cy) * std::size_t(nx_) + cx; }
  /// The cell containing p (clamped to the grid). @pre !empty()
  std::size_t cell(Point p) const { return index(column(p.x), row(p.y)); }
  /// The closed box of cell (cx, cy).
  Box cell_box(int cx, int cy) const {
    return {{origin_.x + cx * width_, origin_.y + cy * height_},
            {origin_.x + (cx + 1) * width_, origin_.y + (cy + 1) * height_}};
  }
  Box cell_box(std::size_t cell) const {
    return cell_box(int(cell % std::size_t(nx_)), int(cell / std::size_t(nx_)));
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
  void for_each_cell(const Box& b, Visit&& visit) const {
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

  // --- The items.

  /// Lists items 0 .. count - 1, replacing what was listed: cells_of(id, add) calls add(cell)
  /// for every cell that item id belongs in (twice each: once to count, once to fill).
  template <class CellsOf>
  void assign(std::size_t count, CellsOf&& cells_of) {
    added_.clear();
    items_.clear();
    if (nx_ == 0) return;
    std::fill(offsets_.begin(), offsets_.end(), 0u);
    for (std::uint32_t id = 0; id < count; ++id)
      cells_of(id, [&](std::size_t cell) { ++offsets_[cell + 1]; });
    for (std::size_t k = 1; k < offsets_.size(); ++k) offsets_[k] += offsets_[k - 1];
    items_.resize(offsets_.back());
    std::vector<std::uint32_t> next(offsets_.begin(), offsets_.end() - 1);
    for (std::uint32_t id = 0; id < count; ++id)
      cells_of(id, [&](std::size_t cell) { items_[next[cell]++] = id; });
  }
  /// Lists item i in every cell whose padded box meets boxes[i]. Where the boxes are large against
  /// the cells (long thin items: a fan of 200,000 triangles round one point listed each in tens
  /// of thousands of cells), the grid is made four times coarser until the lists hold at most 64
  /// entries an item on top of the cells, so that the index stays linear in the items.
  void assign_boxes(std::span<const Box> boxes) {
    const auto fits = [&] {
      const std::size_t most = 64 * boxes.size() + cell_count();
      std::size_t listed = 0;
      for (const Box& b : boxes) {
        if (nx_ == 0) break;
        listed += std::size_t(column_high(b.max.x) - column_low(b.min.x) + 1) *
                  std::size_t(row_high(b.max.y) - row_low(b.min.y) + 1);
        if (listed > most) return false;
      }
      return true;
    };
    while (cell_count() > 1 && !fits()) *this = BoxIndex(box_, cell_count() / 4);
    assign(boxes.size(), [&](std::uint32_t id, auto&& add) { for_each_cell(boxes[id], add); });
  }
  /// Lists segment i in every cell the walk along it visits, so that a walk along any segment
  /// that touches it visits a cell listing it.
  void assign_segments(std::span<const Segment> segments) {
    assign(segments.size(), [&](std::uint32_t id, auto&& add) {
      walk(segments[id].a, segments[id].b, [&](std::size_t cell) {
        add(cell);
        return false;
      });
    });
  }
  /// Lists one more item, after assign, in every cell whose padded box meets b (kept apart from
  /// the assigned items: ids_in does not see it, for_each_id and visit do).
  void insert(std::uint32_t id, const Box& b) {
    if (nx_ == 0) return;
    if (added_.empty()) added_.resize(cell_count());
    for_each_cell(b, [&](std::size_t cell) { added_[cell].push_back(id); });
  }

  /// How many entries assign listed, over all cells.
  std::size_t listed() const { return items_.size(); }
  /// The items assign listed in a cell, in increasing id order.
  std::span<const std::uint32_t> ids_in(std::size_t cell) const {
    return {items_.data() + offsets_[cell], items_.data() + offsets_[cell + 1]};
  }
  /// Calls f(id) for every item listed in a cell, those inserted after assign too.
  template <class F>
  void for_each_id(std::size_t cell, F&& f) const {
    for (const std::uint32_t id : ids_in(cell)) f(id);
    if (!added_.empty())
      for (const std::uint32_t id : added_[cell]) f(id);
  }
  /// Calls f(id) once for every item listed in a cell that box b meets: an id is skipped when
  /// stamps[id] == stamp already (stamps grows as needed; give a new stamp per query).
  template <class F>
  void visit(const Box& b, std::vector<std::uint32_t>& stamps, std::uint32_t stamp, F&& f) const {
    for_each_cell(b, [&](std::size_t cell) {
      for_each_id(cell, [&](std::uint32_t id) {
        if (id >= stamps.size()) stamps.resize(std::size_t(id) + 1, 0);
        if (stamps[id] == stamp) return;
        stamps[id] = stamp;
        f(id);
      });
    });
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

  Box box_;  // the box the cells cover
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
  std::vector<std::uint32_t> offsets_;  // CSR: items of cell k are items_[offsets_[k] ..]
  std::vector<std::uint32_t> items_;
  std::vector<std::vector<std::uint32_t>> added_;  // per cell, items inserted after assign
};

}  // namespace polynav
