#include "polynav/discretise/grid/occupancy_grid.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <utility>

#include "polynav/error.hpp"
#include "polynav/kernel/bits.hpp"
#include "polynav/kernel/exact.hpp"
#include "polynav/kernel/memory.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {

namespace {

// Bytes a grid needs per cell, search included: the free-cell bit and the move mask (1), its
// component (4 at most), a cost (8, with regions) and the query workspace's g-cost, parent and
// heap slot (8 + 4 + 4), rounded up for the open list's share.
constexpr double bytes_per_cell = 32.0;

}  // namespace
namespace {

// Move bits of a cell (see the mask in the constructor): 0 east, 1 north, 2 west, 3 south, then
// the diagonals 4 north-east, 5 north-west, 6 south-west, 7 south-east.
enum MoveBit : unsigned {
  east,
  north,
  west,
  south,
  north_east,
  north_west,
  south_west,
  south_east
};

// Calls side(x, y, vertical) for every cell side that carries a wall: a boundary edge lying along
// the side shared by two free cells, with free space on both sides (the boundary runs along it
// and back, as along a navigation mesh's constrained edge). A vertical side lies on lattice line
// x between cells (x-1, y) and (x, y); a horizontal one on line y between (x, y-1) and (x, y).
// Any other boundary edge along a side bounds a blocked cell; an edge off the lattice lines
// meets the open square of a cell, which is then not free.
template <class IsFree, class Side>
void for_each_wall_side(const FreeSpace& space, const CellFrame& frame, IsFree&& is_free,
                        Side&& side) {
  // Walls come only from navigation meshes (constrained edges); a rotated frame is a rotated
  // map's, whose outline bounds blocked cells everywhere, so it has none (and its cell sides are
  // not lines of constant x or y, which the search below relies on).
  if (frame.rotated()) return;
  // The outline of a map's free cells bounds a blocked map cell along every edge, and a cell of
  // any frame beside that edge overlaps the blocked cell's interior: no side has a wall.
  if (space.map_cells() != nullptr) return;
  const int w = frame.columns, h = frame.rows;
  // The lattice line index whose coordinate is exactly `value` (as CellFrame computes it), or -1.
  const auto line_at = [](double value, double origin, double step, int count) {
    const double t = std::round((value - origin) / step);
    if (!(t >= 1.0 && t <= double(count - 1))) return -1;
    return origin + int(t) * step == value ? int(t) : -1;
  };
  // The cells [first, last] along an axis whose open extent may overlap [lo, hi].
  const auto span = [](double lo, double hi, double origin, double step, int count) {
    const auto index = [&](double v) {
      return int(std::clamp(std::floor((v - origin) / step), 0.0, double(count - 1)));
    };
    return std::make_pair(std::max(0, index(lo) - 1), std::min(count - 1, index(hi) + 1));
  };
  for (const BoundaryRing& ring : space.boundary()) {
    const Ring& pts = ring.points;
    for (std::size_t i = 0; i < pts.size(); ++i) {
      const Point u = pts[i], v = pts[(i + 1) % pts.size()];
      if (u.x == v.x && u.y != v.y) {
        const int x = line_at(u.x, frame.origin.x, frame.side, w);
        if (x < 0) continue;
        const double lo = std::min(u.y, v.y), hi = std::max(u.y, v.y);
        const auto [first, last] = span(lo, hi, frame.origin.y, frame.side, h);
        for (int y = first; y <= last; ++y) {
          const Box cell = frame.cell(x, y);
          if (!(std::max(lo, cell.min.y) < std::min(hi, cell.max.y))) continue;
          if (is_free(x - 1, y) && is_free(x, y)) side(x, y, true);
        }
      } else if (u.y == v.y && u.x != v.x) {
        const int y = line_at(u.y, frame.origin.y, frame.side, h);
        if (y < 0) continue;
        const double lo = std::min(u.x, v.x), hi = std::max(u.x, v.x);
        const auto [first, last] = span(lo, hi, frame.origin.x, frame.side, w);
        for (int x = first; x <= last; ++x) {
          const Box cell = frame.cell(x, y);
          if (!(std::max(lo, cell.min.x) < std::min(hi, cell.max.x))) continue;
          if (is_free(x, y - 1) && is_free(x, y)) side(x, y, false);
        }
      }
    }
  }
}

// Removes the moves between cell centres that cross a wall: none crosses the side, and no
// diagonal passes through either end of it. Returns whether any side carried a wall.
template <class IsFree>
bool remove_moves_across_walls(const FreeSpace& space, const CellFrame& frame, IsFree&& is_free,
                               std::vector<std::uint8_t>& moves) {
  const int w = frame.columns, h = frame.rows;
  const auto clear = [&](int cx, int cy, unsigned bit) {
    if (cx >= 0 && cy >= 0 && cx < w && cy < h)
      moves[std::size_t(cy) * std::size_t(w) + std::size_t(cx)] &=
          static_cast<std::uint8_t>(~(1u << bit));
  };
  // The four diagonals through the lattice point between cells (x-1, y-1) and (x, y).
  const auto clear_diagonals_through = [&](int x, int y) {
    clear(x - 1, y - 1, north_east);
    clear(x, y, south_west);
    clear(x, y - 1, north_west);
    clear(x - 1, y, south_east);
  };
  bool walls = false;
  for_each_wall_side(space, frame, is_free, [&](int x, int y, bool vertical) {
    walls = true;
    if (vertical) {
      clear(x - 1, y, east);
      clear(x, y, west);
      clear_diagonals_through(x, y);
      clear_diagonals_through(x, y + 1);
    } else {
      clear(x, y - 1, north);
      clear(x, y, south);
      clear_diagonals_through(x, y);
      clear_diagonals_through(x + 1, y);
    }
  });
  return walls;
}

// The cells marked in `mask` (width x height, row-major) as disjoint windows: each row's runs of
// marked cells, stacked while the next row has a run with the same columns.
std::vector<CellWindow> disjoint_windows(const std::vector<std::uint8_t>& mask, int width,
                                         int height) {
  std::vector<CellWindow> done, open, next, runs;
  for (int r = 0; r <= height; ++r) {
    runs.clear();
    for (int c = 0; r < height && c < width;) {
      if (!mask[std::size_t(r) * std::size_t(width) + std::size_t(c)]) {
        ++c;
        continue;
      }
      const int start = c;
      while (c < width && mask[std::size_t(r) * std::size_t(width) + std::size_t(c)]) ++c;
      runs.push_back({start, r, c, r + 1});
    }
    // Both lists ascend in x0: a merge walk pairs the runs that continue a window.
    next.clear();
    std::size_t k = 0;
    for (const CellWindow& w : open) {
      while (k < runs.size() && runs[k].x0 < w.x0) next.push_back(runs[k++]);
      if (k < runs.size() && runs[k].x0 == w.x0 && runs[k].x1 == w.x1) {
        next.push_back({w.x0, w.y0, w.x1, r + 1});
        ++k;
      } else {
        done.push_back(w);
      }
    }
    while (k < runs.size()) next.push_back(runs[k++]);
    std::sort(next.begin(), next.end(),
              [](const CellWindow& a, const CellWindow& b) { return a.x0 < b.x0; });
    open.swap(next);
  }
  return done;
}

}  // namespace

search::TieBreak OccupancyGrid::tie_break(const search::SearchOptions& search,
                                          bool smoothed) const {
  switch (options_.ties) {
    case GridTies::automatic:
      return central64_moves_ && smoothed && !search.beam_search() ? search::TieBreak::binary_heap
                                                                   : search::TieBreak::larger_g;
    case GridTies::smaller_g:
      return search::TieBreak::smaller_g;
    case GridTies::lifo:
      return search::TieBreak::lifo;
    case GridTies::fifo:
      return search::TieBreak::fifo;
    case GridTies::line:
      return search::TieBreak::rank;
    case GridTies::central64:
      return search::TieBreak::binary_heap;
    case GridTies::larger_g:
      break;
  }
  return search::TieBreak::larger_g;
}

OccupancyGrid::OccupancyGrid(const FreeSpace& space, GridOptions options)
    : space_(&space), options_(std::move(options)) {
  // The grid before an edit is read while building, not kept.
  const std::shared_ptr<const EditedFrom<OccupancyGrid>> update =
      std::exchange(options_.update, nullptr);
  if (options_.connectivity != 4 && options_.connectivity != 8 && options_.connectivity != 16)
    throw InputError({"", 0, 0, "connectivity"}, "grid connectivity must be 4, 8 or 16, found " +
                                                     std::to_string(options_.connectivity));
  if (options_.ties == GridTies::central64 && options_.connectivity == 16)
    throw InputError({"", 0, 0, "grid.ties"},
                     "grid.ties=central64 reproduces 4- and 8-connected searches; with "
                     "connectivity 16 use auto or another rule");
  if (options_.heuristic == GridHeuristic::automatic)
    options_.heuristic = options_.connectivity == 16  ? GridHeuristic::sixteen
                         : options_.connectivity == 8 ? GridHeuristic::octile
                                                      : GridHeuristic::manhattan;
  if (options_.connectivity == 16 && (options_.heuristic == GridHeuristic::octile ||
                                      options_.heuristic == GridHeuristic::manhattan))
    throw InputError(
        {"", 0, 0, "grid.heuristic"},
        "grid.heuristic=" + std::string(name_of(grid_heuristic_names, options_.heuristic)) +
            " overestimates on a 16-connected grid (a knight move of length sqrt(5) "
            "covers an octile distance of 1 + sqrt(2)); use auto, sixteen, euclidean, "
            "chebyshev or zero");
  if (options_.heuristic == GridHeuristic::octile && options_.connectivity == 4)
    options_.heuristic =
        GridHeuristic::manhattan;  // octile would still be admissible; manhattan is tighter
  const Box box = space.box();
  if (box.empty()) {
    width_ = height_ = 0;
    row_words_ = 3;  // a blocked row below and above nothing
    free_rows_.assign(2 * row_words_, 0);
    return;
  }
  cell_ = options_.resolution;
  if (cell_ == 0.0)
    cell_ = space.native_cell_size().value_or(std::max(box.width(), box.height()) / 256.0);
  if (!(cell_ > 0.0) || !std::isfinite(cell_))
    throw InputError({"", 0, 0, "grid.resolution"},
                     "grid resolution must be a positive finite number, found " +
                         std::to_string(options_.resolution));
  {
    // Fixed point (see the class): cell_ / quantum lies in [2^26, 2^27), so a path's cost is
    // exact up to 2^53 quanta, over 6 * 10^7 cells of moves.
    const double quantum = std::ldexp(1.0, std::ilogb(cell_) - 26);
    const auto fixed = [quantum](double length) {
      return std::nearbyint(length / quantum) * quantum;
    };
    straight_ = fixed(cell_);
    diagonal_ = fixed(cell_ * std::sqrt(2.0));
    knight_ = fixed(cell_ * std::sqrt(5.0));
  }
  const Box bounds = space.bounds_box();
  double cols = 0.0, rows = 0.0;
  if (const std::optional<MapFrame>& map = space.map_frame()) {
    // A rotated map: the cells are squares of the map's frame, over the map's image.
    rotation_ = map->rotation;
    origin_ = options_.origin.value_or(map->extent.min);
    cols = std::ceil((map->extent.max.x - origin_.x) / cell_);
    rows = std::ceil((map->extent.max.y - origin_.y) / cell_);
    native_cells_ = !options_.origin && cell_ == map->cell_size;
  } else {
    origin_ = options_.origin.value_or(bounds.empty() ? box.min : bounds.min);
    cols = std::ceil((box.max.x - origin_.x) / cell_);
    rows = std::ceil((box.max.y - origin_.y) / cell_);
    native_cells_ = !options_.origin && !bounds.empty() && cell_ == space.native_cell_size();
  }
  if (cols * rows > double(options_.max_cells)) {
    std::ostringstream message;
    message << "a grid of resolution " << cell_ << " would have " << cols << " x " << rows
            << " cells, more than the budget of " << options_.max_cells;
    // On a raster map at its own resolution a coarser grid is no longer the map's cells (each
    // coarse cell a wall passes through is blocked), so the budget is the thing to raise.
    message << (native_cells_ ? " (the grid's cells are the map's own: raise grid.max_cells, or "
                                "set a coarser grid.resolution, which blocks every coarse cell "
                                "a wall touches)"
                              : " (raise grid.resolution or grid.max_cells)");
    throw InputError({"", 0, 0, "grid.resolution"}, message.str());
  }
  // With the budget lifted (grid.max_cells=0), sides still index cells with int, and the
  // machine still has only so much memory: both are checked before anything is allocated.
  if (cols > double(std::numeric_limits<int>::max() / 2) ||
      rows > double(std::numeric_limits<int>::max() / 2)) {
    std::ostringstream message;
    message << "a grid of resolution " << cell_ << " would be " << cols << " x " << rows
            << " cells, more than " << std::numeric_limits<int>::max() / 2
            << " along a side (raise grid.resolution)";
    throw InputError({"", 0, 0, "grid.resolution"}, message.str());
  }
  if (const double bytes = cols * rows * bytes_per_cell, memory = physical_memory();
      memory > 0 && bytes > 0.75 * memory) {
    std::ostringstream message;
    message << "a grid of resolution " << cell_ << " would have " << cols << " x " << rows
            << " cells, needing about " << std::llround(bytes / double(1 << 20))
            << " MiB with its search arrays, more than three quarters of this machine's "
            << std::llround(memory / double(1 << 20)) << " MiB (raise grid.resolution)";
    throw InputError({"", 0, 0, "grid.resolution"}, message.str());
  }
  width_ = std::max(1, int(cols));
  height_ = std::max(1, int(rows));
  across_ = width_ + (corners() ? 1 : 0);
  down_ = height_ + (corners() ? 1 : 0);
  if (corners() && space.has_heights() && std::isfinite(space.agent().max_climb))
    throw InputError({"", 0, 0, "align"},
                     "corner-aligned grids do not support terrain heights with a max_climb yet "
                     "(use align=centre)");
  const BuildClock clock(options_.max_build_seconds);
  max_climb_ = space.agent().max_climb;
  const CellFrame frame = this->frame();
  // The cells to classify against the free space: all of them, or, updating the grid before an
  // edit, those near what the edit changed (the rest are copied from it).
  const OccupancyGrid* before = updatable(space, update.get());
  std::vector<CellWindow> windows{{0, 0, width_, height_}};
  if (before) {
    windows.clear();
    // Outside the edit's extent in the free spaces before and after it nothing changed; a cell
    // more covers the rounding of the boxes to cells.
    for (const Box& edited : space.edit_extent(*before->space_, update->changed)) {
      const auto column = [&](double x) { return std::floor((x - origin_.x) / cell_); };
      const auto row = [&](double y) { return std::floor((y - origin_.y) / cell_); };
      const double x0 = column(edited.min.x) - 1, x1 = column(edited.max.x) + 2;
      const double y0 = row(edited.min.y) - 1, y1 = row(edited.max.y) + 2;
      const CellWindow w{
          int(std::clamp(x0, 0.0, double(width_))), int(std::clamp(y0, 0.0, double(height_))),
          int(std::clamp(x1, 0.0, double(width_))), int(std::clamp(y1, 0.0, double(height_)))};
      if (!w.empty()) windows.push_back(w);
    }
  }
  // Updating, per cell 1 when it is classified (windows may overlap); built whole, every cell is
  // and this stays empty.
  const std::size_t cells = std::size_t(width_) * std::size_t(height_);
  std::vector<std::uint8_t> fresh;
  classified_cells_ = cells;
  if (before) {
    fresh.assign(cells, 0);
    for (const CellWindow& w : windows)
      for (int r = w.y0; r < w.y1; ++r)
        std::fill_n(fresh.begin() + std::ptrdiff_t(std::size_t(r) * std::size_t(width_) + w.x0),
                    w.x1 - w.x0, std::uint8_t{1});
    classified_cells_ = std::size_t(std::count(fresh.begin(), fresh.end(), std::uint8_t{1}));
    windows = disjoint_windows(fresh, width_, height_);
  }
  const auto for_each_fresh_cell = [&](auto&& f) {
    for (int r = 0; r < height_; ++r)
      for (int c = 0; c < width_; ++c)
        if (fresh.empty() || fresh[std::size_t(r) * std::size_t(width_) + std::size_t(c)]) f(c, r);
  };

  if (before) {
    row_words_ = before->row_words_;
    free_rows_ = before->free_rows_;
  } else {
    row_words_ = (std::size_t(width_) + 127) / 64 + 2;
    free_rows_.assign((std::size_t(height_) + 2) * row_words_, 0);
  }
  std::vector<std::uint64_t> packed;
  for (const CellWindow& w : windows) {
    const std::vector<std::uint8_t> free = space.free_cells(frame, w);
    const std::size_t across = std::size_t(w.x1 - w.x0);
    packed.resize((across + 63) / 64);
    for (int r = w.y0; r < w.y1; ++r) {
      pack_nonzero_bytes(free.data() + std::size_t(r - w.y0) * across, across, packed.data());
      copy_bits(packed.data(), across, free_rows_.data() + (std::size_t(r) + 1) * row_words_,
                std::size_t(w.x0) + 64);
    }
  }
  clock.check("the grid");

  heuristic_scale_ = space.min_cost();
  central64_moves_ =
      (options_.ties == GridTies::central64 || options_.ties == GridTies::automatic) &&
      options_.connectivity != 16 && !space.weighted();
  if (options_.ties == GridTies::central64 && space.weighted())
    throw InputError(
        {"", 0, 0, "grid.ties"},
        "grid.ties=central64 reproduces a search over grids without terrain: this "
        "scene has " +
            (space.regions().empty()
                 ? std::string("a clearance cost (space.clearance_distance)")
                 : std::to_string(space.regions().size()) + " weighted or height region(s)") +
            "; use auto or another rule");
  if (space.weighted()) {
    // Per cell, the highest multiplier present anywhere in it, so grid costs never
    // underestimate; reported costs are recomputed exactly by FreeSpace.
    if (before) {
      cost_ = before->cost_;
    } else {
      cost_.assign(std::size_t(width_) * height_, 1.0);
    }
    for_each_fresh_cell([&](int c, int r) {
      cost_[std::size_t(r) * width_ + c] =
          blocked(c, r) ? 1.0 : space.cost_range(frame.scene_box(c, r)).highest;
    });
  }
  clock.check("the grid");
  if (corners()) {
    build_corner_moves(space, frame, before,
                       before ? near_windows(windows, 2) : std::vector<std::uint8_t>{});
    components_ = search::ComponentLabels(*this);
    return;
  }

  build_centre_moves();
  wall_sides_ = remove_moves_across_walls(
      space, frame, [&](int c, int r) { return !blocked(c, r); }, moves_);

  if (space.has_heights() && std::isfinite(max_climb_)) {
    // A move may be climbed when every step up along the segment between the centres is within
    // max_climb. Between two cells of one height each, those are the steps between the cells'
    // heights; a cell of several heights (a region's edge through it) may hide a step between
    // the centres (a sliver of low ground between a ramp and a plateau), so there the segment
    // is followed exactly (FreeSpace::climbable).
    if (before) {
      height_of_ = before->height_of_;
      uniform_height_ = before->uniform_height_;
      climbable_ = before->climbable_;
    } else {
      height_of_.resize(cells);
      uniform_height_.assign(cells, 0);
      climbable_.assign(cells, 0);
    }
    for_each_fresh_cell([&](int c, int r) {
      const std::size_t n = std::size_t(r) * width_ + c;
      height_of_[n] = space.height_at(cell_centre(c, r));
      uniform_height_[n] = 0;
      if (blocked(c, r)) return;
      const FieldRange range = space.height_range(frame.scene_box(c, r));
      uniform_height_[n] = range.lowest == range.highest ? 1 : 0;
    });
    // A move depends on its two cells and the two its diagonal passes between: the moves of
    // the cells next to a classified one are decided again.
    const std::vector<std::uint8_t> moved =
        before ? near_windows(windows, 1) : std::vector<std::uint8_t>(cells, 1);
    for (int r = 0; r < height_; ++r)
      for (int c = 0; c < width_; ++c) {
        const std::size_t n = std::size_t(r) * width_ + c;
        if (!moved[n]) continue;
        climbable_[n] = 0;
        for (unsigned mask = moves_[n]; mask != 0; mask &= mask - 1) {
          const int k = std::countr_zero(mask);
          const auto to = std::size_t(std::int64_t(n) + move_offset_[k]);
          const bool ok =
              uniform_height_[n] != 0 && uniform_height_[to] != 0
                  ? height_of_[to] - height_of_[n] <= max_climb_
                  : space.climbable(cell_centre(c, r), cell_centre(int(to % std::size_t(width_)),
                                                                   int(to / std::size_t(width_))));
          if (ok) climbable_[n] = std::uint8_t(climbable_[n] | (1u << k));
        }
      }
  }
  clock.check("the grid");
  if (options_.connectivity == 16)
    build_knight_moves(space, frame, {}, before,
                       before ? near_windows(windows, 2) : std::vector<std::uint8_t>{});
  if (height_of_.empty()) {
    // Connected components answer "unreachable" without a search; one-way height steps make
    // the graph directed, where undirected components would be wrong. Without them every move
    // has its reverse (the corner rule and walls are symmetric), so each cell names only its
    // moves to lower ids, from the masks.
    if (!wall_sides_ && knights_.empty()) {
      // Every move between free cells sharing a side is allowed, and a diagonal's cells are also
      // joined through a cell it passes between: the components are the free cells joined
      // through sides, labelled by runs of a row.
      components_ = search::ComponentLabels::of_cells_joined_through_sides(
          width_, height_, [&](int r) { return free_row(r) + 1; });
      return;
    }
    unsigned earlier_moves = 0, earlier_knights = 0;
    for (int k = 0; k < 8; ++k) {
      earlier_moves |= move_offset_[k] < 0 ? 1u << unsigned(k) : 0u;
      earlier_knights |= knight_offset_[k] < 0 ? 1u << unsigned(k) : 0u;
    }
    // Moves k: 0 east, 1 north, 2 west, 3 south, 4 north-east, 5 north-west, 6 south-west,
    // 7 south-east. A diagonal whose cells are also joined through one of the two cells it passes
    // between, by straight moves, joins nothing new: without walls along cell sides (which can
    // take a straight move away and leave the diagonal) that is every diagonal, half the unions.
    const auto has = [&](std::int64_t cell, int k) { return (moves_[cell] >> k) & 1u; };
    const auto south_west_joined = [&](std::int64_t u) {
      return (has(u, 2) && has(u - 1, 3)) || (has(u, 3) && has(u - width_, 2));
    };
    const auto south_east_joined = [&](std::int64_t u) {
      return (has(u, 3) && has(u - width_, 0)) || (has(u, 0) && has(u + 1, 3));
    };
    components_ = search::ComponentLabels(node_count(), [&](search::NodeId u, auto&& join) {
      unsigned moves = moves_[u] & earlier_moves;
      if ((moves >> 6) & 1u && south_west_joined(u)) moves &= ~(1u << 6);
      if ((moves >> 7) & 1u && south_east_joined(u)) moves &= ~(1u << 7);
      for (; moves != 0; moves &= moves - 1)
        join(search::NodeId(std::int64_t(u) + move_offset_[std::countr_zero(moves)]));
      if (knights_.empty()) return;
      for (unsigned left = knights_[u] & earlier_knights; left != 0; left &= left - 1)
        join(search::NodeId(std::int64_t(u) + knight_offset_[std::countr_zero(left)]));
    });
  }
}

void OccupancyGrid::build_centre_moves() {
  const std::int64_t w = width_;
  const std::int64_t offsets[8] = {1, w, -1, -w, w + 1, w - 1, -w - 1, -w + 1};
  std::copy(std::begin(offsets), std::end(offsets), move_offset_);
  moves_.assign(std::size_t(width_) * std::size_t(height_), 0);
  const bool diagonals = options_.connectivity >= 8;
  const std::size_t words = (std::size_t(width_) + 63) / 64;
  std::vector<unsigned char> masks(words * 64);  // a row's moves, a byte per cell
  for (int r = 0; r < height_; ++r) {
    const std::uint64_t *below = free_row(r - 1), *at = free_row(r), *above = free_row(r + 1);
    for (std::size_t i = 1; i <= words; ++i) {
      // Bit c of each: the cell c of this word, and the neighbour a move k reaches from it.
      const auto east_of = [i](const std::uint64_t* row) {
        return row[i] >> 1u | row[i + 1] << 63u;
      };
      const auto west_of = [i](const std::uint64_t* row) {
        return row[i] << 1u | row[i - 1] >> 63u;
      };
      const std::uint64_t self = at[i];
      std::uint64_t move[8] = {self & east_of(at), self & above[i], self & west_of(at),
                               self & below[i]};
      if (diagonals) {
        // Move 4 + k between straight moves k and k + 1: both open and the cell between free.
        move[4] = move[0] & move[1] & east_of(above);
        move[5] = move[1] & move[2] & west_of(above);
        move[6] = move[2] & move[3] & west_of(below);
        move[7] = move[3] & move[0] & east_of(below);
      }
      for (unsigned b = 0; b < 64; b += 8) {
        std::uint64_t bytes = 0;  // eight cells' move masks
        for (unsigned k = 0; k < 8; ++k) bytes |= byte_per_bit(unsigned(move[k] >> b)) << k;
        std::memcpy(masks.data() + (i - 1) * 64 + b, &bytes, 8);
      }
    }
    std::memcpy(moves_.data() + std::size_t(r) * std::size_t(width_), masks.data(),
                std::size_t(width_));
  }
}

void OccupancyGrid::build_corner_moves(const FreeSpace& space, const CellFrame& frame,
                                       const OccupancyGrid* before,
                                       const std::vector<std::uint8_t>& fresh) {
  // Node (x, y) is the corner at origin + (x s, y s); around it lie the cells (x-1, y-1) south-
  // west, (x, y-1) south-east, (x-1, y) north-west and (x, y) north-east. A move along a side
  // needs a free cell beside it and a diagonal the cell it crosses, so every move lies in the
  // closed square of a free cell and is a valid motion.
  const std::int64_t a = across_;
  const std::int64_t offsets[8] = {1, a, -1, -a, a + 1, a - 1, -a - 1, -a + 1};
  std::copy(std::begin(offsets), std::end(offsets), move_offset_);
  const auto free_cell = [&](int cx, int cy) { return !blocked(cx, cy); };
  // Corners no path may pass through: where only two diagonally opposite cells are free (two
  // blocked parts touch there: a zero-width gap, unless free space opens those) and on walls.
  std::vector<std::uint8_t> closed(node_count(), 0);
  const std::size_t row = std::size_t(across_);
  const auto node = [&](int x, int y) { return std::size_t(y) * row + std::size_t(x); };
  if (!space.open_gaps()) {
    for (int y = 0; y < down_; ++y)
      for (int x = 0; x < across_; ++x) {
        const bool sw = free_cell(x - 1, y - 1), se = free_cell(x, y - 1);
        const bool nw = free_cell(x - 1, y), ne = free_cell(x, y);
        if ((sw && ne && !se && !nw) || (se && nw && !sw && !ne)) closed[node(x, y)] = 1;
      }
  }
  for_each_wall_side(space, frame, free_cell, [&](int x, int y, bool vertical) {
    closed[node(x, y)] = 1;
    closed[vertical ? node(x, y + 1) : node(x + 1, y)] = 1;
  });

  moves_.assign(node_count(), 0);
  const bool costs = !cost_.empty();
  if (costs) move_cost_.assign(8 * node_count(), 1.0);
  const auto cell_cost = [&](int cx, int cy) { return cost_[std::size_t(cy) * width_ + cx]; };
  for (int y = 0; y < down_; ++y) {
    for (int x = 0; x < across_; ++x) {
      if (closed[node(x, y)]) continue;
      // Per move: the cells that allow it (a side's two, or a diagonal's one twice).
      const int cells[8][4] = {{x, y - 1, x, y},
                               {x - 1, y, x, y},
                               {x - 1, y - 1, x - 1, y},
                               {x - 1, y - 1, x, y - 1},
                               {x, y, x, y},
                               {x - 1, y, x - 1, y},
                               {x - 1, y - 1, x - 1, y - 1},
                               {x, y - 1, x, y - 1}};
      const int dx[8] = {1, 0, -1, 0, 1, -1, -1, 1}, dy[8] = {0, 1, 0, -1, 1, 1, -1, -1};
      unsigned mask = 0;
      for (int k = 0; k < std::min(options_.connectivity, 8); ++k) {
        const int tx = x + dx[k], ty = y + dy[k];
        if (tx < 0 || ty < 0 || tx >= across_ || ty >= down_ || closed[node(tx, ty)]) continue;
        const bool first = free_cell(cells[k][0], cells[k][1]);
        const bool second = free_cell(cells[k][2], cells[k][3]);
        if (!first && !second) continue;
        mask |= 1u << k;
        if (costs) {
          // The dearer free cell beside a side (costs never underestimate).
          double m = 0.0;
          if (first) m = std::max(m, cell_cost(cells[k][0], cells[k][1]));
          if (second) m = std::max(m, cell_cost(cells[k][2], cells[k][3]));
          move_cost_[8 * node(x, y) + std::size_t(k)] = m;
        }
      }
      moves_[node(x, y)] = static_cast<std::uint8_t>(mask);
    }
  }
  if (options_.connectivity == 16) build_knight_moves(space, frame, closed, before, fresh);
}

void OccupancyGrid::build_knight_moves(const FreeSpace& space, const CellFrame& frame,
                                       const std::vector<std::uint8_t>& closed,
                                       const OccupancyGrid* before,
                                       const std::vector<std::uint8_t>& fresh) {
  const std::vector<std::uint8_t>& uniform_height = uniform_height_;
  // Cell sides carrying a wall (for_each_wall_side): a knight move crossing one is not offered.
  // vertical[y (width + 1) + x]: the side on lattice line x beside cell row y; horizontal[y width
  // + x]: the side on lattice line y beside cell column x.
  const auto free_cell = [&](int cx, int cy) { return !blocked(cx, cy); };
  std::vector<std::uint8_t> vertical, horizontal;
  for_each_wall_side(space, frame, free_cell, [&](int x, int y, bool is_vertical) {
    if (vertical.empty()) {
      vertical.assign(std::size_t(width_ + 1) * std::size_t(height_), 0);
      horizontal.assign(std::size_t(width_) * std::size_t(height_ + 1), 0);
    }
    if (is_vertical)
      vertical[std::size_t(y) * std::size_t(width_ + 1) + std::size_t(x)] = 1;
    else
      horizontal[std::size_t(y) * std::size_t(width_) + std::size_t(x)] = 1;
  });
  // Whether a wall lies on the side between the orthogonally adjacent cells a and b.
  const auto wall_between = [&](int ax, int ay, int bx, int by) {
    if (vertical.empty()) return false;
    if (ax != bx)
      return vertical[std::size_t(ay) * std::size_t(width_ + 1) + std::size_t(std::max(ax, bx))] !=
             0;
    return horizontal[std::size_t(std::max(ay, by)) * std::size_t(width_) + std::size_t(ax)] != 0;
  };
  for (int k = 0; k < 8; ++k) {
    const auto [dx, dy] = knight_offset(k);
    knight_offset_[k] = std::int64_t(dy) * across_ + dx;
  }
  const bool costs = !cost_.empty();
  if (before) {
    // A knight move depends only on the cells within two of its node.
    knights_ = before->knights_;
    knight_cost_ = before->knight_cost_;
  } else {
    knights_.assign(node_count(), 0);
    if (costs) knight_cost_.assign(8 * node_count(), 1.0);
  }
  const auto cost_of = [&](int cx, int cy) { return cost_[std::size_t(cy) * width_ + cx]; };
  for (int y = 0; y < down_; ++y) {
    for (int x = 0; x < across_; ++x) {
      const std::size_t n = std::size_t(y) * std::size_t(across_) + std::size_t(x);
      if (before) {
        if (!fresh[n]) continue;
        knights_[n] = 0;
        if (costs) std::fill_n(knight_cost_.begin() + std::ptrdiff_t(8 * n), 8, 1.0);
      }
      if (corners() ? closed[n] != 0 : blocked(x, y)) continue;
      unsigned mask = 0;
      for (int k = 0; k < 8; ++k) {
        const auto [dx, dy] = knight_offset(k);
        const int tx = x + dx, ty = y + dy;
        if (tx < 0 || ty < 0 || tx >= across_ || ty >= down_) continue;
        const int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
        const bool tall = dy == 2 || dy == -2;
        double multiplier = 1.0;
        if (!corners()) {
          // Centre to centre, (1, 2) runs through (0, 0), (0, 1), (1, 1), (1, 2), a quarter of
          // its length in each, crossing the three sides between them at 1/4, 1/2 and 3/4 of
          // their length: never through a cell corner, so no other cell is touched.
          const int cells[4][2] = {
              {x, y}, {tall ? x : x + sx, tall ? y + sy : y}, {x + sx, y + sy}, {tx, ty}};
          bool ok = true;
          for (int i = 0; i < 4 && ok; ++i) ok = free_cell(cells[i][0], cells[i][1]);
          for (int i = 0; i + 1 < 4 && ok; ++i)
            ok = !wall_between(cells[i][0], cells[i][1], cells[i + 1][0], cells[i + 1][1]);
          // Heights: the steps between the four cells' heights when each has one height, else
          // the segment followed exactly (as for the other moves).
          bool uniform = true;
          for (int i = 0; i < 4 && ok && !height_of_.empty(); ++i)
            uniform =
                uniform && uniform_height[std::size_t(cells[i][1]) * width_ + cells[i][0]] != 0;
          for (int i = 0; i + 1 < 4 && ok && uniform && !height_of_.empty(); ++i)
            ok = height_of_[std::size_t(cells[i + 1][1]) * width_ + cells[i + 1][0]] -
                     height_of_[std::size_t(cells[i][1]) * width_ + cells[i][0]] <=
                 max_climb_;
          if (ok && !uniform && !height_of_.empty())
            ok = space.climbable(cell_centre(x, y), cell_centre(tx, ty));
          if (!ok) continue;
          if (costs) {
            multiplier = 0.0;
            for (const auto& c : cells) multiplier += 0.25 * cost_of(c[0], c[1]);
          }
        } else {
          // Corner to corner, (1, 2) runs through the cells (0, 0) and (0, 1), half its length
          // in each, crossing the side between them at its midpoint; it meets the lattice only
          // at its two ends.
          if (closed[std::size_t(ty) * std::size_t(across_) + std::size_t(tx)] != 0) continue;
          const int cx = tall ? (dx > 0 ? x : x - 1) : (dx > 0 ? x : x - 2);
          const int cy = tall ? (dy > 0 ? y : y - 2) : (dy > 0 ? y : y - 1);
          const int ex = tall ? cx : cx + 1, ey = tall ? cy + 1 : cy;
          if (!free_cell(cx, cy) || !free_cell(ex, ey) || wall_between(cx, cy, ex, ey)) continue;
          if (costs) multiplier = 0.5 * (cost_of(cx, cy) + cost_of(ex, ey));
        }
        mask |= 1u << unsigned(k);
        if (costs) knight_cost_[8 * n + std::size_t(k)] = multiplier;
      }
      knights_[n] = static_cast<std::uint8_t>(mask);
    }
  }
}

const OccupancyGrid* OccupancyGrid::updatable(const FreeSpace& space,
                                              const EditedFrom<OccupancyGrid>* update) const {
  if (!update || !update->before) return nullptr;
  const OccupancyGrid& b = *update->before;
  const bool heights = space.has_heights() && std::isfinite(max_climb_);
  if (b.width_ != width_ || b.height_ != height_ || b.cell_ != cell_ || !(b.origin_ == origin_) ||
      b.rotated() || rotated() || b.corners() != corners() ||
      b.options_.connectivity != options_.connectivity || b.cost_.empty() == space.weighted() ||
      b.height_of_.empty() == heights || (heights && b.max_climb_ != max_climb_))
    return nullptr;
  return &b;
}

std::vector<std::uint8_t> OccupancyGrid::near_windows(std::span<const CellWindow> windows,
                                                      int grow) const {
  // A corner-aligned grid's nodes are the corners of the cells: cell (x, y) has the nodes x .. x
  // + 1 and y .. y + 1.
  const int extra = corners() ? 1 : 0;
  std::vector<std::uint8_t> mask(node_count(), 0);
  for (const CellWindow& w : windows) {
    const int x0 = std::max(0, w.x0 - grow), x1 = std::min(across_, w.x1 + extra + grow);
    const int y0 = std::max(0, w.y0 - grow), y1 = std::min(down_, w.y1 + extra + grow);
    for (int y = y0; y < y1; ++y)
      std::fill_n(mask.begin() + std::ptrdiff_t(std::size_t(y) * std::size_t(across_) + x0),
                  std::max(0, x1 - x0), std::uint8_t{1});
  }
  return mask;
}

void OccupancyGrid::attach(Point p, AttachDirection direction, std::vector<Attachment>& out) const {
  out.clear();
  const FreeSpace& space = *space_;
  const bool outgoing = direction == AttachDirection::from_point;
  const auto [px, py] = cell_of(p);
  const auto join_node = [&](search::NodeId n) {
    for (const Attachment& a : out)
      if (a.node == n) return;
    const Point c = node_position(n);
    out.push_back({n, outgoing ? space.segment_cost(p, c) : space.segment_cost(c, p)});
  };
  if (corners()) {
    // The corners of every free cell whose closed square holds p (one to four cells when p
    // lies on sides or a corner): the straight move stays in that square.
    const auto usable = [&](int x, int y) {
      return x >= 0 && y >= 0 && x < across_ && y < down_ &&
             moves_[std::size_t(y) * across_ + x] != 0;
    };
    // A point on a usable corner is that node: its moves are the straight moves of the free
    // squares around it, so joining their other corners too would only add parallel arcs (and,
    // on 4-connected grids, diagonal ones the grid does not have).
    if (usable(px, py) && node_position(search::NodeId(py * across_ + px)) == p) {
      join_node(search::NodeId(py * across_ + px));
      return;
    }
    for (int cy = py - 1; cy <= py; ++cy)
      for (int cx = px - 1; cx <= px; ++cx) {
        if (!inside(cx, cy) || blocked(cx, cy)) continue;
        if (!in_closed_cell(p, cx, cy)) continue;
        for (int y = cy; y <= cy + 1; ++y)
          for (int x = cx; x <= cx + 1; ++x)
            if (usable(x, y)) join_node(search::NodeId(y * across_ + x));
      }
    for (int reach = 1; reach <= 2 && out.empty(); ++reach)
      for (int y = py - reach; y <= py + 1 + reach; ++y)
        for (int x = px - reach; x <= px + 1 + reach; ++x)
          if (usable(x, y) &&
              space.line_of_sight(p, node_position(search::NodeId(y * across_ + x))))
            join_node(search::NodeId(y * across_ + x));
    return;
  }
  if (inside(px, py) && !blocked(px, py) && (!rotated() || in_closed_cell(p, px, py))) {
    join_node(search::NodeId(py * width_ + px));
    return;
  }
  for (int reach = 1; reach <= 2 && out.empty(); ++reach)
    for (int y = py - reach; y <= py + reach; ++y)
      for (int x = px - reach; x <= px + reach; ++x)
        if (inside(x, y) && !blocked(x, y) && space.line_of_sight(p, cell_centre(x, y)))
          join_node(search::NodeId(y * width_ + x));
}

std::string OccupancyGrid::unattached_reason(std::string_view which) const {
  const std::string what(which);
  if (!native_cells_) {
    return what +
           " is free but no free grid cell around it is in line of sight (try a finer "
           "--resolution)";
  }
  // The grid's cells are the raster map's own. With a point agent and the exact outline every
  // free point lies in a free map cell's square and joins it, so what blocks the cells around
  // it is what made them only partly free: the agent's radius or the simplified outline.
  std::ostringstream why;
  why << what << " is free, but the grid's cells are the map's own cells (" << cell_
      << " across) and no wholly free map cell around it is in line of sight: ";
  if (space_->agent().radius > 0.0) {
    why << "the agent radius " << space_->agent().radius
        << " leaves the cells around it only partly free";
  } else {
    why << "the cells around it are only partly free (a simplified outline, --map-simplify, "
           "cuts into them)";
  }
  why << "; plan with a method that follows free space exactly (--method navmesh or visgraph)";
  return why.str();
}

bool OccupancyGrid::in_closed_cell(Point p, int cx, int cy) const {
  if (!rotated()) {
    const Box square = cell_box(cx, cy);
    return p.x >= square.min.x && p.x <= square.max.x && p.y >= square.min.y && p.y <= square.max.y;
  }
  return exact::in_closed_convex(p, frame().quad(cx, cy));
}

CellFrame OccupancyGrid::frame() const {
  return CellFrame{origin_, cell_, width_, height_, rotation_};
}

Ring OccupancyGrid::node_region(search::NodeId n) const {
  // A cell, or the cell-sized square centred on a corner.
  const int x = int(n % std::uint32_t(across_)), y = int(n / std::uint32_t(across_));
  if (rotated()) {
    // The square in the grid's frame, turned as the grid's nodes are.
    const double cx = corners() ? origin_.x + x * cell_ : origin_.x + (x + 0.5) * cell_;
    const double cy = corners() ? origin_.y + y * cell_ : origin_.y + (y + 0.5) * cell_;
    const double h = 0.5 * cell_;
    return {rotation_.apply({cx - h, cy - h}), rotation_.apply({cx + h, cy - h}),
            rotation_.apply({cx + h, cy + h}), rotation_.apply({cx - h, cy + h})};
  }
  const Point at = node_position(n);
  const double h = 0.5 * cell_;
  return {{at.x - h, at.y - h}, {at.x + h, at.y - h}, {at.x + h, at.y + h}, {at.x - h, at.y + h}};
}

std::optional<std::vector<Segment>> OccupancyGrid::corridor(Point /*start*/,
                                                            std::span<const search::NodeId> path,
                                                            Point /*end*/) const {
  // Corner-aligned moves run along cell sides: no portals to pull a string through.
  if (corners()) return std::nullopt;
  // The side two cells share, or the corner a diagonal move passes through; a side is oriented
  // as seen in the direction of travel (a on the left, b on the right).
  std::vector<Segment> portals;
  const auto w = std::uint32_t(width_);
  // The portal between neighbouring cells a and b.
  // Corners in the scene, turned as the cells are on a rotated map (the same points as the
  // outline's corners there).
  const auto at = [&](Point p) { return rotation_.apply(p); };
  const auto portal = [&](int ax, int ay, int bx, int by) {
    const double x = origin_.x + std::max(ax, bx) * cell_, y = origin_.y + std::max(ay, by) * cell_;
    if (ax != bx && ay != by) {
      portals.push_back({at({x, y}), at({x, y})});
    } else if (ax != bx) {
      const Point low = at({x, origin_.y + ay * cell_}),
                  high = at({x, origin_.y + (ay + 1) * cell_});
      portals.push_back(bx > ax ? Segment{high, low} : Segment{low, high});
    } else {
      const Point west = at({origin_.x + ax * cell_, y}),
                  east = at({origin_.x + (ax + 1) * cell_, y});
      portals.push_back(by > ay ? Segment{west, east} : Segment{east, west});
    }
  };
  for (std::size_t k = 1; k < path.size(); ++k) {
    const int ax = int(path[k - 1] % w), ay = int(path[k - 1] / w);
    const int bx = int(path[k] % w), by = int(path[k] / w);
    const int dx = bx - ax, dy = by - ay;
    if (std::abs(dx) + std::abs(dy) == 3) {
      // A knight move crosses the three sides between the four cells it runs through.
      const int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
      const bool tall = std::abs(dy) == 2;
      const int mx = tall ? ax : ax + sx, my = tall ? ay + sy : ay;
      portal(ax, ay, mx, my);
      portal(mx, my, ax + sx, ay + sy);
      portal(ax + sx, ay + sy, bx, by);
    } else {
      portal(ax, ay, bx, by);
    }
  }
  return portals;
}

Primitives OccupancyGrid::primitives() const {
  Primitives out;
  // Blocked cells merged into horizontal runs to keep pictures small.
  for (int r = 0; r < height_; ++r) {
    for (int c = 0; c < width_;) {
      if (!blocked(c, r)) {
        ++c;
        continue;
      }
      int e = c;
      while (e < width_ && blocked(e, r)) ++e;
      const double x0 = origin_.x + c * cell_, x1 = origin_.x + e * cell_;
      const double y0 = origin_.y + r * cell_, y1 = y0 + cell_;
      out.blocked.push_back({rotation_.apply({x0, y0}), rotation_.apply({x1, y0}),
                             rotation_.apply({x1, y1}), rotation_.apply({x0, y1})});
      c = e;
    }
  }
  if (width_ <= 160 && height_ <= 160) {
    for (int c = 0; c <= width_; ++c) {
      const double x = origin_.x + c * cell_;
      out.lattice.push_back(
          {rotation_.apply({x, origin_.y}), rotation_.apply({x, origin_.y + height_ * cell_})});
    }
    for (int r = 0; r <= height_; ++r) {
      const double y = origin_.y + r * cell_;
      out.lattice.push_back(
          {rotation_.apply({origin_.x, y}), rotation_.apply({origin_.x + width_ * cell_, y})});
    }
  }
  return out;
}

}  // namespace polynav
