#include "free_boundary_trace.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "polynav/kernel/bits.hpp"

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
  Tracer(const BlockedBits& cells, bool every_point)
      : every_point_(every_point),
        w_(cells.width),
        h_(cells.height),
        words_(cells.words),
        free_(std::size_t(h_ + 2) * words_, 0),
        horizontal_done_(std::size_t(h_ + 1) * words_, 0) {
    // Lattice row y holds the cells with lower-left corners at height y: map row H-1-y. The
    // rows below 0 and at H (outside the map) stay blocked, as do the bits past a row's end.
    for (int y = 0; y < h_; ++y)
      complement_bits(cells.row(h_ - 1 - y), std::size_t(w_),
                      free_.data() + std::size_t(y + 1) * words_);
  }

  // Every ring, each started from the first untraced horizontal side in row-major order (every
  // ring has a horizontal side, so none is missed). A horizontal side is on the boundary when
  // exactly one of the cells above and below it is free: 64 sides a word.
  template <class Emit>
  void trace_all(Emit&& emit) {
    std::vector<std::pair<int, int>> corners;
    for (int y = 0; y <= h_; ++y) {
      const std::uint64_t* above = row(y);
      const std::uint64_t* below = row(y - 1);
      const std::uint64_t* done = horizontal_done_.data() + std::size_t(y) * words_;
      for (std::size_t i = 0; i < words_; ++i) {
        // A trace marks its first side done, so each round finds a new one.
        while (const std::uint64_t open = (above[i] ^ below[i]) & ~done[i]) {
          const int bit = std::countr_zero(open);
          const int x = int(i * 64) + bit;
          if ((above[i] >> unsigned(bit)) & 1u) {
            trace(x, y, east, corners);
          } else {
            trace(x + 1, y, west, corners);
          }
          emit(corners);
        }
      }
    }
  }

 private:
  const std::uint64_t* row(int y) const { return free_.data() + std::size_t(y + 1) * words_; }

  // Cell (x, y) for -1 <= y <= H.
  bool free_cell(int x, int y) const {
    return x >= 0 && x < w_ && ((row(y)[unsigned(x) / 64] >> (unsigned(x) % 64)) & 1u) != 0;
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

  // Only horizontal sides are ever asked whether they are traced (trace_all starts there).
  void mark_side(int x, int y, int d) {
    if (d != east && d != west) return;
    const auto at = unsigned(d == east ? x : x - 1);
    horizontal_done_[std::size_t(y) * words_ + at / 64] |= std::uint64_t{1} << (at % 64);
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

  bool every_point_;
  int w_;
  int h_;
  std::size_t words_;                           // words per row of cells
  std::vector<std::uint64_t> free_;             // lattice row y at [(y + 1) * words_], bit x
  std::vector<std::uint64_t> horizontal_done_;  // side (x, y)-(x+1, y) at [y * words_], bit x
};

}  // namespace

BlockedBits blocked_bits(const CellMap& cells) {
  BlockedBits bits(cells.width, cells.height);
  for (int cy = 0; cy < cells.height; ++cy)
    pack_nonzero_bytes(cells.blocked.data() + std::size_t(cy) * std::size_t(cells.width),
                       std::size_t(cells.width), bits.row(cy));
  return bits;
}

std::vector<Ring> trace_free_boundary(const CellMap& cells, Point origin, double cell_size,
                                      const Rotation& rotation) {
  return trace_free_boundary(blocked_bits(cells), origin, cell_size, rotation);
}

std::vector<Ring> trace_free_boundary(const BlockedBits& cells, Point origin, double cell_size,
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

std::vector<BlockedRun> blocked_runs(const BlockedBits& cells) {
  std::vector<BlockedRun> runs;
  for (int cy = 0; cy < cells.height; ++cy) {
    for_each_run_of_set_bits(cells.row(cy), std::size_t(cells.width),
                             [&](std::size_t first, std::size_t last) {
                               runs.push_back({cy, int(first), int(last)});
                             });
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
