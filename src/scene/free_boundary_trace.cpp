#include "free_boundary_trace.hpp"

#include <cassert>
#include <cstddef>
#include <utility>
#include <vector>

namespace polynav {
namespace {

// Corners of the cell map are the lattice points (x, y) with 0 <= x <= W and 0 <= y <= H, y up;
// the cell with lower-left corner (x, y) is map cell (x, H-1-y). Boundary sides are directed
// with the free cell on their left, so a corner has an outgoing side in direction d exactly when
// the cell ahead-left of d is free and the cell ahead-right is not.
enum Direction : int { east = 0, north = 1, west = 2, south = 3 };
constexpr int step_x[4] = {1, 0, -1, 0};
constexpr int step_y[4] = {0, 1, 0, -1};

class Tracer {
 public:
  // every_point: record every lattice point the trace passes, not only its turns.
  Tracer(const CellMap& cells, bool every_point)
      : cells_(cells),
        every_point_(every_point),
        w_(cells.width),
        h_(cells.height),
        horizontal_done_(std::size_t(w_) * std::size_t(h_ + 1), 0),
        vertical_done_(std::size_t(w_ + 1) * std::size_t(h_), 0) {}

  // Every ring, each started from the first untraced horizontal side in row-major order (every
  // ring has a horizontal side, so none is missed).
  template <class Emit>
  void trace_all(Emit&& emit) {
    std::vector<std::pair<int, int>> corners;
    for (int y = 0; y <= h_; ++y) {
      for (int x = 0; x < w_; ++x) {
        if (horizontal_done_[std::size_t(y) * w_ + x]) continue;
        if (has_side(x, y, east)) {
          trace(x, y, east, corners);
        } else if (has_side(x + 1, y, west)) {
          trace(x + 1, y, west, corners);
        } else {
          continue;
        }
        emit(corners);
      }
    }
  }

 private:
  bool free_cell(int x, int y) const {
    return x >= 0 && y >= 0 && x < w_ && y < h_ && !cells_.is_blocked(x, h_ - 1 - y);
  }

  bool has_side(int x, int y, int d) const {
    switch (d) {
      case east:
        return free_cell(x, y) && !free_cell(x, y - 1);
      case north:
        return free_cell(x - 1, y) && !free_cell(x, y);
      case west:
        return free_cell(x - 1, y - 1) && !free_cell(x - 1, y);
      default:
        return free_cell(x, y - 1) && !free_cell(x - 1, y - 1);
    }
  }

  void mark_side(int x, int y, int d) {
    switch (d) {
      case east:
        horizontal_done_[std::size_t(y) * w_ + x] = 1;
        break;
      case west:
        horizontal_done_[std::size_t(y) * w_ + (x - 1)] = 1;
        break;
      case north:
        vertical_done_[std::size_t(y) * (w_ + 1) + x] = 1;
        break;
      default:
        vertical_done_[std::size_t(y - 1) * (w_ + 1) + x] = 1;
        break;
    }
  }

  // Follows sides from (x0, y0) in direction d0 until it is back on that side, recording the
  // corners where the direction changes. Preferring left, then straight, then right is the rule
  // that keeps the free cell on the left at a pinch (two free cells meeting at a corner): there
  // two sides leave the corner, and the left one is the one bounding the cell we came along.
  // Elsewhere exactly one side leaves each corner the trace reaches.
  void trace(int x0, int y0, int d0, std::vector<std::pair<int, int>>& corners) {
    corners.clear();
    int x = x0;
    int y = y0;
    int d = d0;
    do {
      mark_side(x, y, d);
      x += step_x[d];
      y += step_y[d];
      int next = (d + 1) & 3;
      if (!has_side(x, y, next)) {
        next = has_side(x, y, d) ? d : (d + 3) & 3;
      }
      assert(has_side(x, y, next));
      if (next != d || every_point_) corners.emplace_back(x, y);
      d = next;
    } while (x != x0 || y != y0 || d != d0);
  }

  const CellMap& cells_;
  bool every_point_;
  int w_;
  int h_;
  std::vector<unsigned char> horizontal_done_;  // side (x, y)-(x+1, y) at [y * W + x]
  std::vector<unsigned char> vertical_done_;    // side (x, y)-(x, y+1) at [y * (W+1) + x]
};

}  // namespace

std::vector<Ring> trace_free_boundary(const CellMap& cells, Point origin, double cell_size,
                                      const Rotation& rotation) {
  std::vector<Ring> rings;
  Tracer tracer(cells, !rotation.identity());
  tracer.trace_all([&](const std::vector<std::pair<int, int>>& corners) {
    Ring ring;
    ring.reserve(corners.size());
    for (const auto& [x, y] : corners) {
      ring.push_back(rotation.apply({origin.x + cell_size * x, origin.y + cell_size * y}));
    }
    rings.push_back(std::move(ring));
  });
  return rings;
}

std::vector<BlockedRun> blocked_runs(const CellMap& cells) {
  std::vector<BlockedRun> runs;
  for (int cy = 0; cy < cells.height; ++cy) {
    int cx = 0;
    while (cx < cells.width) {
      if (!cells.is_blocked(cx, cy)) {
        ++cx;
        continue;
      }
      const int first = cx;
      while (cx < cells.width && cells.is_blocked(cx, cy)) ++cx;
      runs.push_back({cy, first, cx});
    }
  }
  return runs;
}

Ring run_rectangle(const CellMap& cells, const BlockedRun& run, Point origin, double cell_size) {
  const double x0 = origin.x + cell_size * run.first;
  const double x1 = origin.x + cell_size * run.last;
  const double y0 = origin.y + cell_size * (cells.height - run.row - 1);
  const double y1 = origin.y + cell_size * (cells.height - run.row);
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

}  // namespace polynav
