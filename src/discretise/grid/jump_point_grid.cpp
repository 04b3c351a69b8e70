#include "polynav/discretise/grid/jump_point_grid.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "polynav/discretise/query.hpp"
#include "polynav/error.hpp"
#include "polynav/kernel/bits.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

// Directions are the grid's move bits: 0 east, 1 north, 2 west, 3 south, 4 north-east,
// 5 north-west, 6 south-west, 7 south-east.
constexpr int dx_of[8] = {1, 0, -1, 0, 1, -1, -1, 1};
constexpr int dy_of[8] = {0, 1, 0, -1, 1, 1, -1, -1};
// The row of JumpPointGrid::prune_ for a start, a node reached from no direction.
constexpr int start_arrival = 8;
// The direction of (dx, dy), indexed [dy + 1][dx + 1]; -1 for (0, 0).
constexpr int direction_of[3][3] = {{6, 3, 7}, {2, -1, 0}, {5, 1, 4}};

constexpr unsigned bit(int k) {
  return 1u << unsigned(k);
}

// The direction (its move bit) towards a cell by the sides it lies on, bit 0 east, 1 west, 2
// north, 3 south; 0 for the cell itself (and for sides that cannot both hold).
constexpr auto octant_of = [] {
  std::array<unsigned, 16> table{};
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const int k = direction_of[dy + 1][dx + 1];
      const unsigned side = unsigned(dx > 0) | unsigned(dx < 0) << 1u | unsigned(dy > 0) << 2u |
                            unsigned(dy < 0) << 3u;
      table[side] = k < 0 ? 0u : bit(k);
    }
  return table;
}();

// 64 bits of a line of free-cell bits (OccupancyGrid::free_row or JumpPointGrid::columns_) from
// position p: bit i is the cell at p + i. The line's position x is its bit x + 64, so p may go
// down to -64.
std::uint64_t bits_at(const std::uint64_t* line, int p) {
  const auto q = unsigned(p + 64);
  const unsigned w = q >> 6u, s = q & 63u;
  return (line[w] >> s) | ((line[w + 1] << 1u) << (63u - s));
}

// Block-based jumping (Harabor and Grastien, ICAPS 2014) along a line `mid` of free-cell bits,
// 63 new cells per word, towards higher positions (Forward) or lower ones. A cell c is a jump
// point when on a side line (a or b, the lines beside mid) the cell level with c is free and
// the one level with the cell before c is blocked: without corner cutting, no path through the
// cell before c reaches that side cell diagonally, so one turning at c may be needed. The first
// blocked cell ends the jump.
//
// The window at position q: Forward, bit i is the cell at q + i; else bit 63 - i is the cell at
// q - i. Bit 0 (63) is q itself, already scanned.
template <bool Forward>
std::uint64_t window(const std::uint64_t* line, int q) {
  return bits_at(line, Forward ? q : q - 63);
}

// Whether the window (m on the line, u and d on the side lines) at `steps` cells from the start
// of the scan ends it; then `result` is k > 0 for a jump point k cells from the start, else
// -(the distance to the last free cell).
template <bool Forward>
bool window_ends(std::uint64_t m, std::uint64_t u, std::uint64_t d, int steps, int& result) {
  if constexpr (Forward) {
    const std::uint64_t blocked = ~m & ~std::uint64_t{1};
    const std::uint64_t forced = ((u & ~(u << 1u)) | (d & ~(d << 1u))) & ~std::uint64_t{1};
    if ((blocked | forced) == 0) return false;
    const int kb = std::countr_zero(blocked), kf = std::countr_zero(forced);
    result = kf < kb ? steps + kf : -(steps + kb - 1);
  } else {
    constexpr std::uint64_t top = std::uint64_t{1} << 63u;
    const std::uint64_t blocked = ~m & ~top;
    const std::uint64_t forced = ((u & ~(u >> 1u)) | (d & ~(d >> 1u))) & ~top;
    if ((blocked | forced) == 0) return false;
    const int jb = std::countl_zero(blocked), jf = std::countl_zero(forced);
    result = jf < jb ? steps + jf : -(steps + jb - 1);
  }
  return true;
}

// The jump from the free cell at position p, `steps` cells from where the scan started: > 0 a
// jump point that far from the start, else -(the distance to the last free cell).
template <bool Forward>
[[gnu::always_inline]] inline int scan_line(const std::uint64_t* mid, const std::uint64_t* a,
                                            const std::uint64_t* b, int p, int steps = 0) {
  for (int q = p;; q += Forward ? 63 : -63, steps += 63) {
    int result = 0;
    if (window_ends<Forward>(window<Forward>(mid, q), window<Forward>(a, q), window<Forward>(b, q),
                             steps, result))
      return result;
  }
}

}  // namespace

namespace {

// Jump point search is refused for the caller's own options it cannot serve.
GridOptions checked(GridOptions grid, const JumpOptions& options) {
  if (options.search == GridSearch::astar) return grid;
  const std::string name = std::string(name_of(grid_search_names, options.search));
  if (options.search == GridSearch::theta)
    throw InputError({"", 0, 0, "grid.search"},
                     "theta is not a jump point search (the grid method builds it on its own)");
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
  // Read here only: options() keeps no pointer to the version before.
  const JumpPointGrid* before = std::exchange(options_.before, nullptr);
  if (options_.search == GridSearch::astar) {
    fallback_ = "grid.search=astar";
    return;
  }
  const int w = grid_.width(), h = grid_.height();
  const auto node = [w](int x, int y) { return search::NodeId(std::size_t(y) * w + x); };

  // Where jumping does not apply: one cost multiplier everywhere, every allowed move taken
  // (no height step cuts one), and the move masks exactly those of the free cells (no wall
  // along a cell side removed a move). Cells are read only for costs and heights.
  bool first = true, uniform = true, climbs = true;
  const bool walls = grid_.has_wall_sides();
  const bool heights = space.has_heights() && std::isfinite(space.agent().max_climb);
  if (space.weighted() || heights) {
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        if (grid_.blocked(x, y)) continue;
        const double m = grid_.cell_cost(x, y);
        if (first) multiplier_ = m;
        first = false;
        uniform = uniform && m == multiplier_;
        if (heights && climbs) {
          int taken = 0;
          grid_.for_each_neighbour(node(x, y), [&](search::NodeId, double) { ++taken; });
          climbs = taken == std::popcount(grid_.moves(node(x, y)));
        }
      }
    }
  }
  std::string reason;
  if (w >= (1 << 30))  // far wider than any map: the jumps' cell arithmetic is in int
    reason = "a grid 2^30 cells wide or wider";
  else if (!uniform)
    reason = "cells of different cost";
  else if (!climbs)
    reason = "height steps the agent cannot climb";
  else if (walls)
    reason = "walls along cell sides";
  if (!reason.empty()) {
    fallback_ = std::move(reason);
    note_ = "grid.search=" + std::string(name_of(grid_search_names, options_.search)) +
            " does not apply to this grid (" + fallback_ + "); searched with A* over every cell";
    return;
  }

  const auto t0 = std::chrono::steady_clock::now();
  build_bits(options_.search == GridSearch::jps);
  build_prune_table();
  if (options_.search == GridSearch::jps_plus && (before == nullptr || !update_table(*before)))
    build_table();
  preprocessing_ms_ =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void JumpPointGrid::build_bits(bool columns) {
  if (!columns) return;
  const int w = grid_.width(), h = grid_.height();
  // Positions -64 .. length + 63 are readable: one padding word before, two after.
  column_words_ = std::size_t(h + 127) / 64 + 2;
  columns_.assign(std::size_t(w + 2) * column_words_, 0);
  // The rows' bits, 64 x 64 at a time, transposed into the columns'.
  std::uint64_t block[64];
  for (int y0 = 0; y0 < h; y0 += 64)
    for (int x0 = 0; x0 < w; x0 += 64) {
      for (int k = 0; k < 64; ++k) block[k] = y0 + k < h ? row(y0 + k)[1 + x0 / 64] : 0;
      transpose_bits(block);
      for (int t = 0; t < 64 && x0 + t < w; ++t)
        columns_[std::size_t(x0 + t + 1) * column_words_ + 1 + std::size_t(y0 / 64)] = block[t];
    }
}

unsigned JumpPointGrid::neighbourhood(int x, int y) const {
  return unsigned(bits_at(row(y - 1), x - 1) & 7u) | unsigned(bits_at(row(y), x - 1) & 7u) << 3u |
         unsigned(bits_at(row(y + 1), x - 1) & 7u) << 6u;
}

void JumpPointGrid::build_prune_table() {
  // Per 3 x 3 neighbourhood: the grid's moves (no corner cutting), then the pruning of Harabor
  // and Grastien (2011) without corner cutting, per direction of arrival. After a diagonal move:
  // the diagonal and its two components. After a straight move: straight on, plus the turn to a
  // side and the diagonal towards it where the cell beside the previous one is blocked.
  for (unsigned mask = 0; mask < 512; ++mask) {
    const auto free = [mask](int i, int j) {
      return ((mask >> unsigned(3 * (j + 1) + i + 1)) & 1u) != 0;
    };
    unsigned moves = 0;
    for (int k = 0; k < 8; ++k) {
      const bool sides = k < 4 || (free(dx_of[k], 0) && free(0, dy_of[k]));
      if (free(dx_of[k], dy_of[k]) && sides) moves |= bit(k);
    }
    prune_[start_arrival][mask] = static_cast<std::uint8_t>(moves);
    for (int k = 0; k < 8; ++k) {
      const int dx = dx_of[k], dy = dy_of[k];
      unsigned want = bit(k);
      if (k >= 4) {
        want |= bit(direction_of[1][dx + 1]) | bit(direction_of[dy + 1][1]);
      } else {
        for (int s = -1; s <= 1; s += 2) {
          const int sx = -dy * s, sy = dx * s;
          if (!free(-dx + sx, -dy + sy))
            want |= bit(direction_of[sy + 1][sx + 1]) | bit(direction_of[dy + sy + 1][dx + sx + 1]);
        }
      }
      prune_[k][mask] = static_cast<std::uint8_t>(moves & want);
    }
  }
}

namespace {

// f(x, y) for every cell of a w x h grid in the order of a sweep along direction k: each cell
// after the next cell along k, whose table entry it reads.
template <class F>
void in_sweep_order(int w, int h, int k, F&& f) {
  for (int i = 0; i < h; ++i) {
    const int y = dy_of[k] > 0 ? h - 1 - i : i;
    for (int j = 0; j < w; ++j) f(dx_of[k] > 0 ? w - 1 - j : j, y);
  }
}

}  // namespace

// `inline`: the library is position-independent code, where the compiler keeps an out-of-line
// member function as a call, once per entry of the table here.
template <int k>
inline int JumpPointGrid::table_value(int x, int y) const {
  // JPS+ (Harabor and Grastien, ICAPS 2014; Rabin, Game AI Pro 2, 2015): the jump the online
  // search would make, from the entries of the next cell along k. The tables are built only
  // where a cell's moves are exactly its free neighbours under the corner rule (no walls, no
  // height cuts), so the moves say all that is read of the cells: a blocked cell has none.
  constexpr int dx = dx_of[k], dy = dy_of[k];
  const std::int64_t w = grid_.width();
  const auto n = search::NodeId(std::int64_t(y) * w + x);
  const unsigned here = grid_.moves(n);
  if ((here & bit(k)) == 0) return 0;
  const auto next = search::NodeId(std::int64_t(n) + dy * w + dx);
  const std::int16_t* entries = table_.data() + 8 * std::size_t(next);
  // One step further than a neighbour's entry v; an entry beyond the limit becomes a stop at the
  // limit, a cell of the same free line (expanded like a jump point: more nodes, same paths).
  const int limit = options_.jump_limit;
  const auto extend = [limit](int v) {
    if (v > 0) return std::min(v + 1, limit);
    return v - 1 < -limit ? limit : v - 1;
  };
  if constexpr (k >= 4) {
    constexpr int h_k = dx > 0 ? 0 : 2, v_k = dy > 0 ? 1 : 3;
    return entries[h_k] > 0 || entries[v_k] > 0 ? 1 : extend(entries[k]);
  } else {
    // Whether the next cell, entered by the straight move k, is a jump point: on a side (the
    // straight directions k + 1 and k + 3), its neighbour is free (a move of the next cell) and
    // the previous cell's is blocked (no move of this cell).
    constexpr unsigned sides = bit((k + 1) % 4) | bit((k + 3) % 4);
    if ((~here & grid_.moves(next) & sides) != 0) return 1;
    return extend(entries[k]);
  }
}

int JumpPointGrid::table_value(int x, int y, int k) const {
  // The constant direction equal to k.
  return [&]<int... d>(std::integer_sequence<int, d...>) {
    int value = 0;
    (void)((d == k && (value = table_value<d>(x, y), true)) || ...);
    return value;
  }
  (std::make_integer_sequence<int, 8>{});
}

void JumpPointGrid::build_table() {
  // One sweep per direction that visits the next cell along it first; straight directions
  // (0-3) before diagonal ones, which read them.
  const int w = grid_.width(), h = grid_.height();
  table_.assign(8 * std::size_t(w) * std::size_t(h), 0);
  [&]<int... k>(std::integer_sequence<int, k...>) {
    (in_sweep_order(w, h, k,
                    [&](int x, int y) {
                      table_[8 * (std::size_t(y) * w + x) + std::size_t(k)] =
                          static_cast<std::int16_t>(table_value<k>(x, y));
                    }),
     ...);
  }
  (std::make_integer_sequence<int, 8>{});
  table_entries_computed_ = table_.size();
}

bool JumpPointGrid::update_table(const JumpPointGrid& before) {
  const int w = grid_.width(), h = grid_.height();
  const OccupancyGrid& old = before.grid_;
  if (!before.jumps() || before.options_.search != GridSearch::jps_plus ||
      before.options_.jump_limit != options_.jump_limit || old.width() != w || old.height() != h ||
      before.table_.size() != 8 * std::size_t(w) * std::size_t(h))
    return false;
  table_ = before.table_;
  // The rows and columns beside a cell whose freedom or moves differ. A straight entry depends
  // on its line and the lines beside it (the jump point tests): those lines are swept again
  // whole. A diagonal entry depends on its cell's moves and the next cell's entries along the
  // diagonal and its two components: it is computed again where that next cell lies in a swept
  // line (which takes in every changed cell: its next cell along a diagonal is in the rows
  // beside it, or outside the grid, where no move leads), and then along its diagonal,
  // backwards, for as long as the entries come out different.
  std::vector<std::uint8_t> row_dirty(std::size_t(h), 0), column_dirty(std::size_t(w), 0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const auto n = search::NodeId(std::size_t(y) * w + x);
      if (grid_.blocked(x, y) == old.blocked(x, y) && grid_.moves(n) == old.moves(n)) continue;
      for (int d = -1; d <= 1; ++d) {
        if (y + d >= 0 && y + d < h) row_dirty[std::size_t(y + d)] = 1;
        if (x + d >= 0 && x + d < w) column_dirty[std::size_t(x + d)] = 1;
      }
    }
  table_entries_computed_ = 0;
  const auto set = [&](int x, int y, int k) {
    const auto v = static_cast<std::int16_t>(table_value(x, y, k));
    std::int16_t& e = table_[8 * (std::size_t(y) * w + x) + std::size_t(k)];
    ++table_entries_computed_;
    const bool differs = e != v;
    e = v;
    return differs;
  };
  // Straight entries: each swept line alone, the next cell along it first.
  for (int k = 0; k < 4; ++k) {
    const int dx = dx_of[k], dy = dy_of[k];
    if (dy == 0) {
      for (int y = 0; y < h; ++y) {
        if (!row_dirty[std::size_t(y)]) continue;
        for (int j = 0; j < w; ++j) set(dx > 0 ? w - 1 - j : j, y, k);
      }
    } else {
      for (int x = 0; x < w; ++x) {
        if (!column_dirty[std::size_t(x)]) continue;
        for (int i = 0; i < h; ++i) set(x, dy > 0 ? h - 1 - i : i, k);
      }
    }
  }
  // Diagonals: the cells whose next cell lies in a swept line are marked, then the sweep's order
  // computes the marked ones; an entry that comes out different marks the cell behind it, which
  // the sweep reaches later.
  std::vector<std::uint8_t> marked(std::size_t(w) * h);
  for (int k = 4; k < 8; ++k) {
    const int dx = dx_of[k], dy = dy_of[k];
    std::fill(marked.begin(), marked.end(), 0);
    const auto mark = [&](int x, int y) {
      if (x >= 0 && y >= 0 && x < w && y < h) marked[std::size_t(y) * w + x] = 1;
    };
    for (int ny = 0; ny < h; ++ny)
      if (row_dirty[std::size_t(ny)])
        for (int nx = 0; nx < w; ++nx) mark(nx - dx, ny - dy);
    for (int nx = 0; nx < w; ++nx)
      if (column_dirty[std::size_t(nx)])
        for (int ny = 0; ny < h; ++ny) mark(nx - dx, ny - dy);
    in_sweep_order(w, h, k, [&](int x, int y) {
      if (marked[std::size_t(y) * w + x] && set(x, y, k)) mark(x - dx, y - dy);
    });
  }
  return true;
}

namespace {

// The bend of a jump from (ax, ay) to (bx, by): the diagonal run first, then the straight one.
// Returns false for a straight or purely diagonal jump.
bool bend_of(int ax, int ay, int bx, int by, int& cx, int& cy) {
  const int ex = std::abs(bx - ax), ey = std::abs(by - ay);
  if (ex == 0 || ey == 0 || ex == ey) return false;
  const int k = std::min(ex, ey);
  cx = ax + k * ((bx > ax) - (bx < ax));
  cy = ay + k * ((by > ay) - (by < ay));
  return true;
}

}  // namespace

void JumpPointGrid::arc_points(search::NodeId from, search::NodeId to,
                               std::vector<Point>& out) const {
  const auto w = std::uint32_t(grid_.width());
  int cx = 0, cy = 0;
  if (bend_of(int(from % w), int(from / w), int(to % w), int(to / w), cx, cy))
    out.push_back(grid_.cell_centre(cx, cy));
}

std::optional<std::vector<Segment>> JumpPointGrid::corridor(Point start,
                                                            std::span<const search::NodeId> path,
                                                            Point end) const {
  const auto w = std::uint32_t(grid_.width());
  std::vector<search::NodeId> cells;
  const auto run = [&](int ax, int ay, int bx, int by) {
    const int dx = (bx > ax) - (bx < ax), dy = (by > ay) - (by < ay);
    for (int s = 1; s <= std::max(std::abs(bx - ax), std::abs(by - ay)); ++s)
      cells.push_back(search::NodeId((ay + s * dy) * int(w) + ax + s * dx));
  };
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (i == 0) {
      cells.push_back(path[0]);
      continue;
    }
    const int ax = int(path[i - 1] % w), ay = int(path[i - 1] / w);
    const int bx = int(path[i] % w), by = int(path[i] / w);
    int cx = 0, cy = 0;
    if (bend_of(ax, ay, bx, by, cx, cy)) {
      run(ax, ay, cx, cy);
      run(cx, cy, bx, by);
    } else {
      run(ax, ay, bx, by);
    }
  }
  return grid_.corridor(start, cells, end);
}

std::string JumpPointGrid::summary() const {
  std::ostringstream out;
  if (!jumps()) {
    if (options_.search != GridSearch::astar)
      out << "grid.search=" << std::string(name_of(grid_search_names, options_.search))
          << " does not apply (" << fallback_ << "): A* over every cell";
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

std::optional<JumpPointGrid::Graph> JumpPointGrid::query_graph(
    QueryWorkspace& workspace, std::span<const search::NodeId> goals) const {
  if (!jumps()) return std::nullopt;
  return Graph(*this, workspace.astar, goals, workspace.state<Graph::Buffers>());
}

JumpPointGrid::Graph::Graph(const JumpPointGrid& grid, const search::AStar& astar,
                            std::span<const search::NodeId> goals, Buffers& buffers)
    : grid_(&grid),
      astar_(&astar),
      found_(buffers.found),
      split_(std::uint32_t(grid.grid_.width())),
      cells_(grid.node_count()),
      plus_(grid.options_.search == GridSearch::jps_plus),
      straight_cost_(grid.grid_.straight_length() * grid.multiplier_),
      diagonal_cost_(grid.grid_.diagonal_length() * grid.multiplier_) {
  std::vector<Cell>& cells = buffers.goals;
  cells.clear();
  for (const search::NodeId g : goals)
    if (g < cells_) {
      int x = 0, y = 0;
      split_(g, x, y);
      cells.push_back({x, y});
    }
  goals_ = cells;
  const auto w = std::int64_t(split_.width());
  for (int k = 0; k < 8; ++k) offset_[k] = std::int64_t(dy_of[k]) * w + dx_of[k];
}

[[gnu::always_inline]] inline bool JumpPointGrid::Graph::jump_to_goal(search::NodeId n, int x,
                                                                      int y, unsigned& dirs) const {
  // A jump reaches the goal only along a shortest grid route from n (diagonally, then straight:
  // the octile distance, a lower bound of every grid path), so no other successor of n leads to
  // the goal more cheaply than that jump: the goal is then n's one successor. Only the direction
  // of the goal's octant can reach it, and it goes first: a query whose goal its start sees this
  // way expands nothing else and queues nothing else.
  const Cell goal = goals_[0];
  const unsigned side = unsigned(goal.x > x) | unsigned(goal.x < x) << 1u |
                        unsigned(goal.y > y) << 2u | unsigned(goal.y < y) << 3u;
  const unsigned octant = octant_of[side] & dirs;
  if (octant == 0) return false;
  dirs &= ~octant;
  reached_goal_ = false;
  jump(n, x, y, std::countr_zero(octant));  // stops where it reaches the goal (reach_goal)
  if (!reached_goal_) return false;
  const Successor only = found_.back();  // the goal, added last
  found_.clear();
  found_.push_back(only);
  return true;
}

void JumpPointGrid::Graph::successors(search::NodeId n) const {
  int x = 0, y = 0;
  split_(n, x, y);
  unsigned dirs = 0;
  if (n == primed_) {
    // start_reaches_goal made this expansion's jump towards the goal: its successors are in
    // found_ already, and the other directions are left.
    primed_ = search::no_node;
    dirs = primed_dirs_;
  } else {
    found_.clear();
    dirs = directions(n, x, y);
    if (goals_.size() == 1 && jump_to_goal(n, x, y, dirs)) return;
  }
  while (dirs != 0) {
    const int k = std::countr_zero(dirs);
    dirs &= dirs - 1;
    jump(n, x, y, k);
  }
}

std::optional<double> JumpPointGrid::Graph::start_reaches_goal(search::NodeId start) const {
  if (goals_.size() != 1) return std::nullopt;
  found_.clear();
  int x = 0, y = 0;
  split_(start, x, y);
  unsigned dirs = grid_->prune_[start_arrival][grid_->neighbourhood(x, y)];
  if (jump_to_goal(start, x, y, dirs)) return found_.back().cost;
  // The search that follows expands the start first: it takes over these successors.
  primed_ = start;
  primed_dirs_ = dirs;
  return std::nullopt;
}

[[gnu::always_inline]] inline void JumpPointGrid::Graph::jump(search::NodeId n, int x, int y,
                                                              int k) const {
  if (k < 4) {
    if (const int steps = straight(n, x, y, k); steps > 0)
      add_run(std::int64_t(n) + steps * offset_[k], 0, steps);
  } else if (plus_) {
    diagonal_plus(n, x, y, k);
  } else {
    switch (k) {
      case 4:
        diagonal<4>(n, x, y);
        break;
      case 5:
        diagonal<5>(n, x, y);
        break;
      case 6:
        diagonal<6>(n, x, y);
        break;
      default:
        diagonal<7>(n, x, y);
        break;
    }
  }
}

unsigned JumpPointGrid::Graph::directions(search::NodeId n, int x, int y) const {
  // The pruned directions by the direction of arrival (build_prune_table). A jump that bends
  // arrives along its straight run, the longer side of its box.
  const search::NodeId p = astar_->parent_of_expanded(n);
  int arrival = start_arrival;
  if (p < cells_) {
    int px = 0, py = 0;
    split_(p, px, py);
    int dx = (x > px) - (x < px), dy = (y > py) - (y < py);
    const int ex = std::abs(x - px), ey = std::abs(y - py);
    if (ex > ey && ey > 0) dy = 0;
    if (ey > ex && ex > 0) dx = 0;
    arrival = direction_of[dy + 1][dx + 1];
  }
  return grid_->prune_[arrival][grid_->neighbourhood(x, y)];
}

[[gnu::always_inline]] inline int JumpPointGrid::Graph::goal_along(int x, int y, int k,
                                                                   int range) const {
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
      return scan_line<true>(g.row(y), g.row(y + 1), g.row(y - 1), x);
    case 1:
      return scan_line<true>(g.column(x), g.column(x - 1), g.column(x + 1), y);
    case 2:
      return scan_line<false>(g.row(y), g.row(y + 1), g.row(y - 1), x);
    default:
      return scan_line<false>(g.column(x), g.column(x - 1), g.column(x + 1), y);
  }
}

int JumpPointGrid::Graph::straight(search::NodeId n, int x, int y, int k) const {
  // The jump point, or the nearest goal before it (or before the wall).
  const int r = plus_ ? grid_->jump_distance(n, k) : scan(x, y, k);
  if (const int goal = goal_along(x, y, k, std::abs(r))) {
    reach_goal();
    return goal;
  }
  return std::max(r, 0);
}

template <int K>
void JumpPointGrid::Graph::diagonal(search::NodeId n, int x, int y) const {
  // Step along the diagonal; from each cell, a straight jump along each component that finds a
  // jump point or a goal gives a successor (Harabor and Grastien 2011, with the intermediate
  // diagonal cell pruned). A goal on the diagonal ends it: the goal is expanded like any node.
  // The first window of the row scan at a cell also says whether the next diagonal move is
  // allowed (the cell ahead in the row, the one ahead in the column and the diagonal one free).
  const JumpPointGrid& g = *grid_;
  constexpr int dx = dx_of[K], dy = dy_of[K];
  constexpr bool east = dx > 0, north = dy > 0;
  constexpr int along_x = east ? 0 : 2, along_y = north ? 1 : 3;
  constexpr std::uint64_t self = east ? 1u : std::uint64_t{1} << 63u;
  constexpr std::uint64_t ahead = east ? 2u : std::uint64_t{1} << 62u;
  const auto rw = std::ptrdiff_t(g.grid_.row_words()), cw = std::ptrdiff_t(g.column_words_);
  const std::uint64_t* row = g.row(y);
  const std::uint64_t* column = g.column(x);
  int cx = x, cy = y;
  std::int64_t cell = n;  // (cx, cy)
  // Only goals in this diagonal's quadrant can stop it or its straight jumps.
  bool goals_ahead = false;
  for (const Cell& goal : goals_)
    goals_ahead = goals_ahead || ((goal.x - x) * dx >= 0 && (goal.y - y) * dy >= 0);
  std::uint64_t here = window<east>(row, cx), next = window<east>(row + dy * rw, cx);
  while ((here & ahead) != 0 && (next & self) != 0 && (next & ahead) != 0) {
    cx += dx;
    cy += dy;
    cell += offset_[K];
    row += dy * rw;
    column += dx * cw;
    if (goals_ahead)
      for (const Cell& goal : goals_)
        if (goal.x == cx && goal.y == cy) {
          add(x, y, cx, cy);
          reach_goal();
          return;
        }
    const std::uint64_t m = window<east>(row, cx), up = window<east>(row + rw, cx),
                        down = window<east>(row - rw, cx);
    int rx = 0;
    if (!window_ends<east>(m, up, down, 0, rx))
      rx = scan_line<east>(row, row + rw, row - rw, cx + (east ? 63 : -63), 63);
    const int gx = goals_ahead ? goal_along(cx, cy, along_x, std::abs(rx)) : 0;
    if (const int steps = gx != 0 ? gx : rx; steps > 0)
      add_run(cell + steps * offset_[along_x], (cx - x) * dx, steps);
    if (gx != 0 && reach_goal()) return;
    const int ry = scan_line<north>(column, column - cw, column + cw, cy);
    const int gy = goals_ahead ? goal_along(cx, cy, along_y, std::abs(ry)) : 0;
    if (const int steps = gy != 0 ? gy : ry; steps > 0)
      add_run(cell + steps * offset_[along_y], (cx - x) * dx, steps);
    if (gy != 0 && reach_goal()) return;
    here = m;
    next = north ? up : down;
  }
}

void JumpPointGrid::Graph::diagonal_plus(search::NodeId n, int x, int y, int k) const {
  // The same over the table: from stop to stop along the diagonal (cells whose straight
  // entries along a component are jump points); a goal in this diagonal's quadrant is reached
  // from the diagonal cell level with its row or column, when the straight line from there to
  // it is free (Rabin's "target jump point", here pruned like the other intermediate cells).
  const JumpPointGrid& g = *grid_;
  const int dx = dx_of[k], dy = dy_of[k];
  const int components[2] = {dx > 0 ? 0 : 2, dy > 0 ? 1 : 3};
  std::int64_t c = n;
  int step = 0;
  // Only goals strictly inside this diagonal's quadrant can be reached from it.
  bool goals_ahead = false;
  for (const Cell& goal : goals_)
    goals_ahead = goals_ahead || ((goal.x - x) * dx > 0 && (goal.y - y) * dy > 0);
  for (;;) {
    const int j = g.jump_distance(search::NodeId(c), k);
    const int reach = std::abs(j);
    for (const Cell& goal : goals_ahead ? goals_ : std::span<const Cell>{}) {
      const int ax = (goal.x - x) * dx, ay = (goal.y - y) * dy;
      if (ax <= 0 || ay <= 0) continue;
      const int t = std::min(ax, ay);
      if (t <= step || t > step + reach) continue;
      if (ax == ay) {
        add(x, y, goal.x, goal.y);
        if (reach_goal()) return;
        continue;
      }
      const int s = components[ax > ay ? 0 : 1];
      const auto at = search::NodeId(std::int64_t(n) + std::int64_t(t) * offset_[k]);
      if (std::max(ax, ay) - t <= std::abs(g.jump_distance(at, s))) {
        add(x, y, goal.x, goal.y);
        if (reach_goal()) return;
      }
    }
    if (j <= 0) return;
    c += std::int64_t(j) * offset_[k];
    step += j;
    for (const int s : components) {
      const int r = g.jump_distance(search::NodeId(c), s);
      if (r > 0) add_run(c + r * offset_[s], step, r);
    }
  }
}

}  // namespace polynav
