#include "polynav/discretise/hexgrid/hex_grid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "polynav/error.hpp"
#include "polynav/kernel/exact.hpp"
#include "polynav/kernel/memory.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

// Bytes per hexagon, search included: free flag and move mask (1 + 1), a cost (8, with regions)
// and the query workspace's g-cost, parent and heap slot (8 + 4 + 4), rounded up.
constexpr double bytes_per_hexagon = 32.0;

// The corners of a hexagon centred on lattice point (i, j), counter-clockwise in the grid's own
// frame (x along the rows), as lattice offsets: corner k lies at 30 + 60 k degrees for pointy
// hexagons. Move k (towards 60 k degrees) crosses the side from corner k - 1 to corner k.
constexpr int corner_di[6] = {1, 0, -1, -1, 0, 1};
constexpr int corner_dj[6] = {1, 2, 1, -1, -2, -1};

}  // namespace

HexGrid::HexGrid(const FreeSpace& space, HexGridOptions options)
    : space_(&space), options_(options) {
  const Box box = space.box();
  if (box.empty()) return;
  size_ = options_.size;
  if (size_ == 0.0) {
    // Hexagons of the square grid's default cell area: (3 sqrt(3) / 2) R^2 = s^2.
    const double cell =
        space.native_cell_size().value_or(std::max(box.width(), box.height()) / 256.0);
    size_ = cell * std::sqrt(2.0 / (3.0 * std::sqrt(3.0)));
  }
  if (!(size_ > 0.0) || !std::isfinite(size_))
    throw InputError(
        {"", 0, 0, "hexgrid.size"},
        "hexgrid.size must be a positive finite number, found " + std::to_string(options_.size));
  half_width_ = 0.5 * std::sqrt(3.0) * size_;
  quarter_ = 0.5 * size_;
  {
    // Fixed point as the square grid's moves: a whole number of quanta near 2^-26 of a move.
    const double width = 2.0 * half_width_;
    const double quantum = std::ldexp(1.0, std::ilogb(width) - 26);
    step_ = std::nearbyint(width / quantum) * quantum;
  }
  // The grid's own frame runs its rows along x: the scene's x for pointy hexagons, its y for
  // flat ones.
  const Box bounds = space.bounds_box();
  const Point corner = bounds.empty() ? box.min : bounds.min;
  origin_ = flat() ? Point{corner.y, corner.x} : corner;
  const double along = flat() ? box.max.y : box.max.x, across = flat() ? box.max.x : box.max.y;
  const double cols = std::ceil((along - origin_.x) / (2.0 * half_width_)) + 1.0;
  const double rows = std::ceil((across - origin_.y) / (3.0 * quarter_)) + 1.0;
  if (cols * rows > double(options_.max_cells)) {
    std::ostringstream message;
    message << "a hexagonal grid of side " << size_ << " would have " << cols << " x " << rows
            << " hexagons, more than the budget of " << options_.max_cells
            << " (raise hexgrid.size or hexgrid.max_cells)";
    throw InputError({"", 0, 0, "hexgrid.size"}, message.str());
  }
  if (cols > double(std::numeric_limits<int>::max() / 4) ||
      rows > double(std::numeric_limits<int>::max() / 4)) {
    std::ostringstream message;
    message << "a hexagonal grid of side " << size_ << " would be " << cols << " x " << rows
            << " hexagons, too many along a side (raise hexgrid.size)";
    throw InputError({"", 0, 0, "hexgrid.size"}, message.str());
  }
  if (const double bytes = cols * rows * bytes_per_hexagon, memory = physical_memory();
      memory > 0 && bytes > 0.75 * memory) {
    std::ostringstream message;
    message << "a hexagonal grid of side " << size_ << " would have " << cols << " x " << rows
            << " hexagons, needing about " << std::llround(bytes / double(1 << 20))
            << " MiB with its search arrays, more than three quarters of this machine's "
            << std::llround(memory / double(1 << 20)) << " MiB (raise hexgrid.size)";
    throw InputError({"", 0, 0, "hexgrid.size"}, message.str());
  }
  columns_ = int(cols);
  rows_ = int(rows);
  const BuildClock clock(options_.max_build_seconds);
  const std::size_t count = node_count();

  // 1. Which hexagons lie wholly in free space, exactly.
  free_.assign(count, 0);
  for (int r = 0; r < rows_; ++r) {
    for (int c = 0; c < columns_; ++c) {
      const std::array<Point, 6> hexagon = corners(c, r);
      if (space.classify(std::span<const Point>(hexagon)) == BoxClass::free) {
        free_[std::size_t(r) * columns_ + c] = 1;
        ++free_count_;
      }
    }
    if ((r & 63) == 63) clock.check("the hexagonal grid");
  }
  clock.check("the hexagonal grid");

  // 2. Costs: the highest multiplier in the three boxes covering each free hexagon (its middle
  // band and the boxes of its two peaks), so no cost is ever underestimated.
  heuristic_scale_ = space.min_cost();
  if (space.weighted()) {
    cost_.assign(count, 1.0);
    for (int r = 0; r < rows_; ++r)
      for (int c = 0; c < columns_; ++c) {
        if (blocked(c, r)) continue;
        const int i = centre_i(c, r), j = centre_j(r);
        const auto box_of = [&](int j0, int j1) {
          const Point a = lattice(i - 1, j0), b = lattice(i + 1, j1);
          return Box{{std::min(a.x, b.x), std::min(a.y, b.y)},
                     {std::max(a.x, b.x), std::max(a.y, b.y)}};
        };
        double highest = 0.0;
        for (const Box& part : {box_of(j - 1, j + 1), box_of(j + 1, j + 2), box_of(j - 2, j - 1)})
          highest = std::max(highest, space.cost_range(part).highest);
        cost_[std::size_t(r) * columns_ + c] = highest;
      }
  }

  // 3. Moves: into each free neighbour across a side no wall lies along, climbable where heights
  // limit the climb.
  const std::int64_t w = columns_;
  const std::int64_t even[6] = {1, w, w - 1, -1, -w - 1, -w};
  const std::int64_t odd[6] = {1, w + 1, w, -1, -w, -w + 1};
  std::copy(std::begin(even), std::end(even), offsets_[0]);
  std::copy(std::begin(odd), std::end(odd), offsets_[1]);
  const int dc[2][6] = {{1, 0, -1, -1, -1, 0}, {1, 1, 0, -1, 0, 1}};
  const int dr[6] = {0, 1, 1, 0, -1, -1};
  const bool heights = space.has_heights() && std::isfinite(space.agent().max_climb);
  moves_.assign(count, 0);
  for (int r = 0; r < rows_; ++r) {
    for (int c = 0; c < columns_; ++c) {
      if (blocked(c, r)) continue;
      const search::NodeId n = search::NodeId(std::size_t(r) * columns_ + c);
      const Point from = node_position(n);
      unsigned mask = 0;
      for (int k = 0; k < 6; ++k) {
        const int tc = c + dc[r & 1][k], tr = r + dr[k];
        if (tc < 0 || tr < 0 || tc >= columns_ || tr >= rows_ || blocked(tc, tr)) continue;
        const Point to = node_position(search::NodeId(std::size_t(tr) * columns_ + tc));
        // Both closed hexagons are free, so only a wall along their shared side can cut the
        // move: the exact line-of-sight test sees it.
        if (!space.line_of_sight(from, to)) continue;
        if (heights && !space.climbable(from, to)) continue;
        mask |= 1u << k;
      }
      moves_[n] = std::uint8_t(mask);
    }
    if ((r & 63) == 63) clock.check("the hexagonal grid");
  }
  clock.check("the hexagonal grid");
  // One-way height steps make the graph directed, where undirected components would be wrong.
  if (!heights) components_ = search::ComponentLabels(*this);
}

std::array<Point, 6> HexGrid::corners(int c, int r) const {
  const int i = centre_i(c, r), j = centre_j(r);
  std::array<Point, 6> out;
  for (int k = 0; k < 6; ++k) out[std::size_t(k)] = lattice(i + corner_di[k], j + corner_dj[k]);
  // Exchanging x and y (flat hexagons) mirrors the plane: reverse to stay counter-clockwise.
  if (flat()) std::reverse(out.begin(), out.end());
  return out;
}

template <class F>
void HexGrid::for_each_hex_near(Point p, int rings, F&& f) const {
  // The row and column of p in the grid's frame, rounded: the hexagon holding p is this one or a
  // neighbour, and `rings` more rings around it are visited.
  const Point q = flat() ? Point{p.y, p.x} : p;
  const int r0 = int(std::floor((q.y - origin_.y - 2.0 * quarter_) / (3.0 * quarter_) + 0.5));
  const int c0 =
      int(std::floor((q.x - origin_.x) / (2.0 * half_width_) - ((r0 & 1) != 0 ? 1.0 : 0.5) + 0.5));
  const int reach = rings + 1;
  for (int r = r0 - reach; r <= r0 + reach; ++r)
    for (int c = c0 - reach; c <= c0 + reach; ++c)
      if (r >= 0 && c >= 0 && r < rows_ && c < columns_) f(c, r);
}

void HexGrid::attach(Point p, AttachDirection direction, std::vector<Attachment>& out) const {
  out.clear();
  if (columns_ == 0) return;
  const FreeSpace& space = *space_;
  const bool outgoing = direction == AttachDirection::from_point;
  const bool heights = space.has_heights() && std::isfinite(space.agent().max_climb);
  const auto join = [&](int c, int r) {
    const auto n = search::NodeId(std::size_t(r) * columns_ + c);
    const Point centre = node_position(n);
    if (heights && !(outgoing ? space.climbable(p, centre) : space.climbable(centre, p))) return;
    out.push_back({n, outgoing ? space.segment_cost(p, centre) : space.segment_cost(centre, p)});
  };
  for_each_hex_near(p, 0, [&](int c, int r) {
    if (blocked(c, r)) return;
    const std::array<Point, 6> hexagon = corners(c, r);
    if (exact::in_closed_convex(p, hexagon)) join(c, r);
  });
  if (!out.empty()) return;
  for (int rings = 1; rings <= 2 && out.empty(); ++rings)
    for_each_hex_near(p, rings, [&](int c, int r) {
      if (blocked(c, r)) return;
      for (const Attachment& a : out)
        if (a.node == search::NodeId(std::size_t(r) * columns_ + c)) return;
      if (space.line_of_sight(p, node_position(search::NodeId(std::size_t(r) * columns_ + c))))
        join(c, r);
    });
}

std::string HexGrid::unattached_reason(std::string_view which) const {
  return std::string(which) +
         " is free but no free hexagon around it is in line of sight (try a smaller "
         "hexgrid.size)";
}

Ring HexGrid::node_region(search::NodeId n) const {
  const int c = int(n % std::uint32_t(columns_)), r = int(n / std::uint32_t(columns_));
  const std::array<Point, 6> hexagon = corners(c, r);
  return Ring(hexagon.begin(), hexagon.end());
}

std::optional<std::vector<Segment>> HexGrid::corridor(Point /*start*/,
                                                      std::span<const search::NodeId> path,
                                                      Point /*end*/) const {
  std::vector<Segment> portals;
  portals.reserve(path.size());
  for (std::size_t k = 1; k < path.size(); ++k) {
    const search::NodeId a = path[k - 1], b = path[k];
    const int c = int(a % std::uint32_t(columns_)), r = int(a / std::uint32_t(columns_));
    const std::int64_t* offset = offsets_[r & 1];
    int move = -1;
    for (int m = 0; m < 6; ++m)
      if (std::int64_t(a) + offset[m] == std::int64_t(b)) move = m;
    if (move < 0) return std::nullopt;  // not neighbours: no side to state
    const int i = centre_i(c, r), j = centre_j(r);
    const int before = (move + 5) % 6;
    const Point u = lattice(i + corner_di[before], j + corner_dj[before]),
                v = lattice(i + corner_di[move], j + corner_dj[move]);
    // Oriented as seen moving from a's centre to b's: the left end first.
    const bool u_left = exact::orientation(node_position(a), node_position(b), u) > 0;
    portals.push_back(u_left ? Segment{u, v} : Segment{v, u});
  }
  return portals;
}

HexGrid::Estimate HexGrid::heuristic(std::span<const Attachment> goals, Point /*goal*/) const {
  Estimate e;
  e.columns_ = std::uint32_t(std::max(columns_, 1));
  e.step_ = step_ * heuristic_scale_;
  for (const Attachment& a : goals) {
    const int c = int(a.node % e.columns_), r = int(a.node / e.columns_);
    e.targets_.push_back({centre_i(c, r), r, a.cost});
  }
  return e;
}

std::string HexGrid::summary() const {
  std::ostringstream out;
  out << columns_ << " x " << rows_ << " " << (flat() ? "flat" : "pointy")
      << "-topped hexagons of side " << size_ << ", " << free_count_ << " free";
  return out.str();
}

Primitives HexGrid::primitives() const {
  Primitives out;
  // Runs of blocked hexagons along a row, each one ring: the zigzag below, the zigzag above.
  for (int r = 0; r < rows_; ++r) {
    for (int c = 0; c < columns_;) {
      if (!blocked(c, r)) {
        ++c;
        continue;
      }
      int e = c;
      while (e < columns_ && blocked(e, r)) ++e;
      const int j = centre_j(r), first = centre_i(c, r), last = centre_i(e - 1, r);
      Ring ring{lattice(first - 1, j + 1), lattice(first - 1, j - 1)};
      for (int i = first; i <= last; i += 2) {
        ring.push_back(lattice(i, j - 2));
        ring.push_back(lattice(i + 1, j - 1));
      }
      for (int i = last; i >= first; i -= 2) {
        ring.push_back(lattice(i + 1, j + 1));
        ring.push_back(lattice(i, j + 2));
      }
      out.blocked.push_back(std::move(ring));
      c = e;
    }
  }
  if (node_count() <= 6400) {
    // Every side once: the sides of moves 3, 4, 5 (west, south-west, south-east) of each
    // hexagon, and the sides of moves 0, 1, 2 that face out of the grid; an inner side of move
    // 0, 1 or 2 is its neighbour's side of move 3, 4 or 5.
    for (int r = 0; r < rows_; ++r)
      for (int c = 0; c < columns_; ++c) {
        const int i = centre_i(c, r), j = centre_j(r);
        for (int k = 0; k < 6; ++k) {
          const bool outer = (k == 0 && c == columns_ - 1) ||
                             (k == 1 && (r == rows_ - 1 || (c == columns_ - 1 && (r & 1)))) ||
                             (k == 2 && (r == rows_ - 1 || (c == 0 && !(r & 1))));
          if (k < 3 && !outer) continue;
          const int before = (k + 5) % 6;
          out.lattice.push_back({lattice(i + corner_di[before], j + corner_dj[before]),
                                 lattice(i + corner_di[k], j + corner_dj[k])});
        }
      }
  }
  return out;
}

}  // namespace polynav
