#include "polynav/discretise/grid/jump_point_grid.hpp"

#include <chrono>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "polynav/error.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

// Directions are the grid's move bits: 0 east, 1 north, 2 west, 3 south, 4 north-east,
// 5 north-west, 6 south-west, 7 south-east.
constexpr int dx_of[8] = {1, 0, -1, 0, 1, -1, -1, 1};
constexpr int dy_of[8] = {0, 1, 0, -1, 1, 1, -1, -1};
// The direction of (dx, dy), indexed [dy + 1][dx + 1]; -1 for (0, 0).
constexpr int direction_of[3][3] = {{6, 3, 7}, {2, -1, 0}, {5, 1, 4}};

constexpr unsigned bit(int k) {
  return 1u << unsigned(k);
}

// 64 bits of a line of free-cell bits (JumpPointGrid::rows_ or columns_) from position p: bit i
// is the cell at p + i. The line's position x is its bit x + 64, so p may go down to -64.
std::uint64_t bits_at(const std::uint64_t* line, int p) {
  const auto q = unsigned(p + 64);
  const unsigned w = q >> 6u, s = q & 63u;
  return (line[w] >> s) | ((line[w + 1] << 1u) << (63u - s));
}

// Block-based jumping (Harabor and Grastien, ICAPS 2014): from the free cell at position p of
// line `mid`, towards higher positions, 63 new cells per step. A cell c is a jump point when on
// a side line (a or b, the lines beside mid) the cell level with c is free and the one level
// with c - 1 is blocked: without corner cutting, no path through c - 1 reaches that side cell
// diagonally, so one turning at c may be needed. The first blocked cell ends the jump.
// Returns k > 0 for a jump point k cells on, else -(distance to the last free cell).
int scan_forward(const std::uint64_t* mid, const std::uint64_t* a, const std::uint64_t* b, int p) {
  for (int q = p;; q += 63) {
    const std::uint64_t m = bits_at(mid, q), u = bits_at(a, q), d = bits_at(b, q);
    const std::uint64_t blocked = ~m & ~std::uint64_t{1};
    const std::uint64_t forced = ((u & ~(u << 1u)) | (d & ~(d << 1u))) & ~std::uint64_t{1};
    if ((blocked | forced) != 0) {
      const int kb = std::countr_zero(blocked), kf = std::countr_zero(forced);
      return kf < kb ? q - p + kf : -(q - p + kb - 1);
    }
  }
}

// The same towards lower positions: the window's bit 63 is the cell at q, bit 63 - j the cell
// at q - j, and the jump point test looks at the cell level with c + 1.
int scan_backward(const std::uint64_t* mid, const std::uint64_t* a, const std::uint64_t* b, int p) {
  constexpr std::uint64_t top = std::uint64_t{1} << 63u;
  for (int q = p;; q -= 63) {
    const std::uint64_t m = bits_at(mid, q - 63), u = bits_at(a, q - 63), d = bits_at(b, q - 63);
    const std::uint64_t blocked = ~m & ~top;
    const std::uint64_t forced = ((u & ~(u >> 1u)) | (d & ~(d >> 1u))) & ~top;
    if ((blocked | forced) != 0) {
      const int jb = std::countl_zero(blocked), jf = std::countl_zero(forced);
      return jf < jb ? p - q + jf : -(p - q + jb - 1);
    }
  }
}

}  // namespace

GridSearch parse_grid_search(const std::string& name) {
  if (name == "astar") return GridSearch::astar;
  if (name == "jps") return GridSearch::jps;
  if (name == "jps+") return GridSearch::jps_plus;
  throw InputError({"", 0, 0, "grid.search"},
                   "unknown grid search '" + name + "' (expected astar, jps or jps+)");
}

std::string to_string(GridSearch search) {
  switch (search) {
    case GridSearch::astar:
      return "astar";
    case GridSearch::jps:
      return "jps";
    case GridSearch::jps_plus:
      return "jps+";
  }
  return "astar";
}

namespace {

// Jump point search is refused for the caller's own options it cannot serve.
GridOptions checked(GridOptions grid, const JumpOptions& options) {
  if (options.search == GridSearch::astar) return grid;
  const std::string name = "grid.search=" + to_string(options.search);
  if (grid.connectivity != 8)
    throw InputError({"", 0, 0, "grid.search"},
                     name + " needs an 8-connected grid, found grid.connectivity=" +
                         std::to_string(grid.connectivity) + " (use grid.search=astar)");
  if (grid.align != GridAlign::centre)
    throw InputError({"", 0, 0, "grid.search"},
                     name +
                         " needs a centre-aligned grid, found grid.align=corner (use "
                         "grid.search=astar)");
  if (!(options.jump_limit >= 1 && options.jump_limit <= 32767))
    throw InputError({"", 0, 0, "grid.search"}, "the jump limit must lie in 1 .. 32767, found " +
                                                    std::to_string(options.jump_limit));
  return grid;
}

}  // namespace

JumpPointGrid::JumpPointGrid(const FreeSpace& space, GridOptions grid, JumpOptions options)
    : grid_(space, checked(grid, options)), options_(options) {
  if (options_.search == GridSearch::astar) {
    fallback_ = "grid.search=astar";
    return;
  }
  const int w = grid_.width(), h = grid_.height();
  const auto node = [w](int x, int y) { return search::NodeId(std::size_t(y) * w + x); };

  // Where jumping does not apply: one cost multiplier everywhere, every allowed move taken
  // (no height step cuts one), and the move masks exactly those of the free cells (no wall
  // along a cell side removed a move).
  bool first = true, uniform = true, climbs = true, walls = false;
  const bool heights = space.has_heights() && std::isfinite(space.agent().max_climb);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (grid_.blocked(x, y)) continue;
      const double m = grid_.cell_cost(x, y);
      if (first) multiplier_ = m;
      first = false;
      uniform = uniform && m == multiplier_;
      unsigned expected = 0;
      for (int k = 0; k < 8; ++k) {
        const bool open = !grid_.blocked(x + dx_of[k], y + dy_of[k]);
        const bool sides =
            k < 4 || (!grid_.blocked(x + dx_of[k], y) && !grid_.blocked(x, y + dy_of[k]));
        if (open && sides) expected |= bit(k);
      }
      const unsigned moves = grid_.moves(node(x, y));
      walls = walls || moves != expected;
      if (heights && climbs) {
        int taken = 0;
        grid_.for_each_neighbour(node(x, y), [&](search::NodeId, double) { ++taken; });
        climbs = taken == std::popcount(moves);
      }
    }
  }
  std::string reason;
  if (!uniform)
    reason = "cells of different cost";
  else if (!climbs)
    reason = "height steps the agent cannot climb";
  else if (walls)
    reason = "walls along cell sides";
  if (!reason.empty()) {
    fallback_ = std::move(reason);
    note_ = "grid.search=" + to_string(options_.search) + " does not apply to this grid (" +
            fallback_ + "); searched with A* over every cell";
    return;
  }

  const auto t0 = std::chrono::steady_clock::now();
  if (options_.search == GridSearch::jps) {
    build_bits();
  } else {
    build_table();
  }
  preprocessing_ms_ =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void JumpPointGrid::build_bits() {
  const int w = grid_.width(), h = grid_.height();
  // Positions -64 .. length + 63 are readable: one padding word before, two after.
  row_words_ = std::size_t(w + 127) / 64 + 2;
  column_words_ = std::size_t(h + 127) / 64 + 2;
  rows_.assign(std::size_t(h + 2) * row_words_, 0);
  columns_.assign(std::size_t(w + 2) * column_words_, 0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      if (grid_.blocked(x, y)) continue;
      const auto px = unsigned(x + 64), py = unsigned(y + 64);
      rows_[std::size_t(y + 1) * row_words_ + px / 64] |= std::uint64_t{1} << (px % 64);
      columns_[std::size_t(x + 1) * column_words_ + py / 64] |= std::uint64_t{1} << (py % 64);
    }
}

void JumpPointGrid::build_table() {
  // JPS+ (Harabor and Grastien, ICAPS 2014; Rabin, Game AI Pro 2, 2015): per cell and
  // direction, the jump the online search would make, by one sweep per direction that visits
  // the next cell along it first.
  const int w = grid_.width(), h = grid_.height();
  const int limit = options_.jump_limit;
  table_.assign(8 * std::size_t(w) * std::size_t(h), 0);
  const auto entry = [&](int x, int y, int k) -> std::int16_t& {
    return table_[8 * (std::size_t(y) * w + x) + std::size_t(k)];
  };
  // One step further than a neighbour's entry v; an entry beyond the limit becomes a stop at the
  // limit, a cell of the same free line (expanded like a jump point: more nodes, same paths).
  const auto extend = [limit](int v) {
    if (v > 0) return std::min(v + 1, limit);
    return v - 1 < -limit ? limit : v - 1;
  };
  // Whether the free cell (x, y), entered by the straight move k, is a jump point: on a side,
  // its neighbour is free and the previous cell's is blocked.
  const auto forced = [&](int x, int y, int k) {
    const int dx = dx_of[k], dy = dy_of[k];
    for (int s = -1; s <= 1; s += 2) {
      const int sx = -dy * s, sy = dx * s;
      if (grid_.blocked(x - dx + sx, y - dy + sy) && !grid_.blocked(x + sx, y + sy)) return true;
    }
    return false;
  };
  // Straight directions (0-3) before diagonal ones: the diagonal sweeps read them.
  for (int k = 0; k < 8; ++k) {
    const int dx = dx_of[k], dy = dy_of[k];
    const int h_k = dx > 0 ? 0 : 2, v_k = dy > 0 ? 1 : 3;
    for (int i = 0; i < h; ++i) {
      const int y = dy > 0 ? h - 1 - i : i;
      for (int j = 0; j < w; ++j) {
        const int x = dx > 0 ? w - 1 - j : j;
        if (grid_.blocked(x, y)) continue;
        if ((grid_.moves(search::NodeId(std::size_t(y) * w + x)) & bit(k)) == 0) continue;
        const int nx = x + dx, ny = y + dy;
        int v;
        if (k < 4) {
          v = forced(nx, ny, k) ? 1 : extend(entry(nx, ny, k));
        } else {
          v = entry(nx, ny, h_k) > 0 || entry(nx, ny, v_k) > 0 ? 1 : extend(entry(nx, ny, k));
        }
        entry(x, y, k) = static_cast<std::int16_t>(v);
      }
    }
  }
}

std::optional<std::vector<Segment>> JumpPointGrid::corridor(Point start,
                                                            std::span<const search::NodeId> path,
                                                            Point end) const {
  const auto w = std::uint32_t(grid_.width());
  std::vector<search::NodeId> cells;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (i == 0) {
      cells.push_back(path[0]);
      continue;
    }
    const int ax = int(path[i - 1] % w), ay = int(path[i - 1] / w);
    const int bx = int(path[i] % w), by = int(path[i] / w);
    const int ex = std::abs(bx - ax), ey = std::abs(by - ay);
    if (ex != 0 && ey != 0 && ex != ey)
      throw std::logic_error(
          "jump point path with a segment that is not a straight or diagonal "
          "run of cells");
    const int dx = (bx > ax) - (bx < ax), dy = (by > ay) - (by < ay);
    for (int s = 1; s <= std::max(ex, ey); ++s)
      cells.push_back(search::NodeId((ay + s * dy) * int(w) + ax + s * dx));
  }
  return grid_.corridor(start, cells, end);
}

std::string JumpPointGrid::summary() const {
  std::ostringstream out;
  if (!jumps()) {
    if (options_.search != GridSearch::astar)
      out << "grid.search=" << to_string(options_.search) << " does not apply (" << fallback_
          << "): A* over every cell";
    return out.str();
  }
  out.precision(3);
  if (options_.search == GridSearch::jps) {
    out << "jump point search (block-based): free cells as bits by rows and by columns, ";
  } else {
    out << "JPS+: 8 jump distances per cell, ";
  }
  out << double(preprocessing_bytes()) / 1024.0 << " KiB, built in " << preprocessing_ms_ << " ms";
  return out.str();
}

JumpPointGrid::Graph::Graph(const JumpPointGrid& grid, const search::AStar& astar,
                            std::span<const search::NodeId> goals)
    : grid_(&grid),
      astar_(&astar),
      w_(std::uint32_t(grid.grid_.width())),
      cells_(grid.node_count()),
      plus_(grid.options_.search == GridSearch::jps_plus) {
  goals_.reserve(goals.size());
  for (const search::NodeId g : goals)
    if (g < cells_) goals_.push_back({int(g % w_), int(g / w_)});
  const double cell = grid.grid_.cell_size() * grid.multiplier_;
  const double diagonal = grid.grid_.cell_size() * std::sqrt(2.0) * grid.multiplier_;
  for (int k = 0; k < 8; ++k) {
    offset_[k] = std::int64_t(dy_of[k]) * std::int64_t(w_) + dx_of[k];
    step_cost_[k] = k < 4 ? cell : diagonal;
  }
}

unsigned JumpPointGrid::Graph::directions(search::NodeId n, int x, int y) const {
  // Pruning (Harabor and Grastien 2011, without corner cutting): after a diagonal move, the
  // diagonal and its two components; after a straight move, straight on, plus the turn to a
  // side (and the diagonal towards it) where the cell beside the previous one is blocked.
  const OccupancyGrid& g = grid_->grid_;
  const unsigned moves = g.moves(n);
  const search::NodeId p = astar_->parent_of(n);
  if (p >= cells_) return moves;  // a start: every direction
  const int px = int(p % w_), py = int(p / w_);
  const int dx = (x > px) - (x < px), dy = (y > py) - (y < py);
  const int k = direction_of[dy + 1][dx + 1];
  if (dx != 0 && dy != 0)
    return moves & (bit(k) | bit(direction_of[1][dx + 1]) | bit(direction_of[dy + 1][1]));
  unsigned want = bit(k);
  for (int s = -1; s <= 1; s += 2) {
    const int sx = -dy * s, sy = dx * s;
    if (g.blocked(x - dx + sx, y - dy + sy))
      want |= bit(direction_of[sy + 1][sx + 1]) | bit(direction_of[dy + sy + 1][dx + sx + 1]);
  }
  return moves & want;
}

int JumpPointGrid::Graph::goal_along(int x, int y, int k, int range) const {
  int best = 0;
  for (const Cell& g : goals_) {
    int d = 0;
    switch (k) {
      case 0:
        d = g.y == y ? g.x - x : 0;
        break;
      case 1:
        d = g.x == x ? g.y - y : 0;
        break;
      case 2:
        d = g.y == y ? x - g.x : 0;
        break;
      default:
        d = g.x == x ? y - g.y : 0;
        break;
    }
    if (d > 0 && d <= range && (best == 0 || d < best)) best = d;
  }
  return best;
}

int JumpPointGrid::Graph::scan(int x, int y, int k) const {
  const JumpPointGrid& g = *grid_;
  switch (k) {
    case 0:
      return scan_forward(g.row(y), g.row(y + 1), g.row(y - 1), x);
    case 1:
      return scan_forward(g.column(x), g.column(x - 1), g.column(x + 1), y);
    case 2:
      return scan_backward(g.row(y), g.row(y + 1), g.row(y - 1), x);
    default:
      return scan_backward(g.column(x), g.column(x - 1), g.column(x + 1), y);
  }
}

int JumpPointGrid::Graph::jump(search::NodeId n, int x, int y, int k) const {
  if (k < 4) {
    const int r = scan(x, y, k);
    if (const int goal = goal_along(x, y, k, std::abs(r))) return goal;
    return std::max(r, 0);
  }
  // A diagonal jump stops at the first cell from which a straight jump along either component
  // finds a jump point or a goal, or at a goal (Harabor and Grastien 2011).
  const OccupancyGrid& g = grid_->grid_;
  const int dx = dx_of[k], dy = dy_of[k];
  const int along_x = dx > 0 ? 0 : 2, along_y = dy > 0 ? 1 : 3;
  std::int64_t c = n;
  for (int steps = 1;; ++steps) {
    if ((g.moves(search::NodeId(c)) & bit(k)) == 0) return 0;
    c += offset_[k];
    x += dx;
    y += dy;
    for (const Cell& goal : goals_)
      if (goal.x == x && goal.y == y) return steps;
    const int rx = scan(x, y, along_x);
    if (rx > 0 || goal_along(x, y, along_x, -rx) != 0) return steps;
    const int ry = scan(x, y, along_y);
    if (ry > 0 || goal_along(x, y, along_y, -ry) != 0) return steps;
  }
}

int JumpPointGrid::Graph::jump_plus(search::NodeId n, int x, int y, int k) const {
  const int j = grid_->jump_distance(n, k);
  const int range = std::abs(j);
  if (k < 4) {
    if (const int goal = goal_along(x, y, k, range)) return goal;
    return std::max(j, 0);
  }
  // A goal in this diagonal's quadrant whose row or column the diagonal reaches first: stop
  // there, so that a straight jump can reach the goal (Rabin's "target jump point").
  const int dx = dx_of[k], dy = dy_of[k];
  int best = 0;
  for (const Cell& goal : goals_) {
    const int ax = (goal.x - x) * dx, ay = (goal.y - y) * dy;
    if (ax <= 0 || ay <= 0) continue;
    const int t = std::min(ax, ay);
    if (t <= range && (best == 0 || t < best)) best = t;
  }
  if (best != 0) return best;
  return std::max(j, 0);
}

}  // namespace polynav
