#include "edge_grid.hpp"

namespace polynav::detail {

EdgeGrid::EdgeGrid(std::span<const Segment> edges, const Box& box) {
  if (edges.empty() || box.empty()) return;
  // About one edge per cell, at most 4096 cells a side: fewer cells make walks shorter, more
  // make each cell cheaper to scan (measured with bench_line_of_sight and
  // bench_visibility_graph).
  const double w = std::max(box.width(), 1e-300), h = std::max(box.height(), 1e-300);
  const double cells = std::max(1.0, double(edges.size()));
  nx_ = std::clamp(int(std::sqrt(cells * w / h)), 1, 4096);
  ny_ = std::clamp(int(std::sqrt(cells * h / w)), 1, 4096);
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
  for (const Segment& e : edges)
    walk(e.a, e.b, [&](std::size_t cell) {
      ++offsets_[cell + 1];
      return false;
    });
  for (std::size_t k = 1; k < offsets_.size(); ++k) offsets_[k] += offsets_[k - 1];
  items_.resize(offsets_.back());
  std::vector<std::uint32_t> next(offsets_.begin(), offsets_.end() - 1);
  for (std::uint32_t id = 0; id < edges.size(); ++id)
    walk(edges[id].a, edges[id].b, [&](std::size_t cell) {
      items_[next[cell]++] = id;
      return false;
    });
}

}  // namespace polynav::detail
