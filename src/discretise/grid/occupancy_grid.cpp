#include "polynav/discretise/grid/occupancy_grid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "polynav/kernel/exact.hpp"
#include "polynav/error.hpp"
#include "polynav/io/svg.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

// Whether segment ab meets the open box (x0, x1) x (y0, y1) (Liang-Barsky clipping with strict
// slabs). `slack` widens the box; a positive slack only ever blocks more cells.
bool meets_open_box(Point a, Point b, double x0, double y0, double x1, double y1, double slack) {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  const auto slab = [&](double p, double d, double min, double max) {
    min -= slack;
    max += slack;
    if (d == 0.0) return min < p && p < max;
    double t0 = (min - p) / d, t1 = (max - p) / d;
    if (t0 > t1) std::swap(t0, t1);
    lo = std::max(lo, t0);
    hi = std::min(hi, t1);
    return true;
  };
  if (!slab(a.x, b.x - a.x, x0, x1) || !slab(a.y, b.y - a.y, y0, y1)) return false;
  return lo < hi && lo < 1.0 && hi > 0.0;
}

}  // namespace

GridHeuristic parse_grid_heuristic(const std::string& name) {
  if (name == "auto" || name == "automatic") return GridHeuristic::automatic;
  if (name == "manhattan") return GridHeuristic::manhattan;
  if (name == "octile") return GridHeuristic::octile;
  if (name == "chebyshev") return GridHeuristic::chebyshev;
  if (name == "euclidean") return GridHeuristic::euclidean;
  if (name == "zero") return GridHeuristic::zero;
  throw InputError({"", 0, 0, "heuristic"},
                   "unknown grid heuristic '" + name +
                       "' (expected auto, manhattan, octile, chebyshev, euclidean or zero)");
}

std::string to_string(GridHeuristic heuristic) {
  switch (heuristic) {
    case GridHeuristic::automatic:
      return "auto";
    case GridHeuristic::manhattan:
      return "manhattan";
    case GridHeuristic::octile:
      return "octile";
    case GridHeuristic::chebyshev:
      return "chebyshev";
    case GridHeuristic::euclidean:
      return "euclidean";
    case GridHeuristic::zero:
      return "zero";
  }
  return "auto";
}

OccupancyGrid::OccupancyGrid(const FreeSpace& space, GridOptions options)
    : space_(&space), options_(options) {
  if (options_.connectivity != 4 && options_.connectivity != 8)
    throw InputError({"", 0, 0, "connectivity"}, "grid connectivity must be 4 or 8, found " +
                                                     std::to_string(options_.connectivity));
  if (options_.heuristic == GridHeuristic::automatic)
    options_.heuristic =
        options_.connectivity == 8 ? GridHeuristic::octile : GridHeuristic::manhattan;
  if (options_.heuristic == GridHeuristic::octile && options_.connectivity == 4)
    options_.heuristic =
        GridHeuristic::manhattan;  // octile would still be admissible; manhattan is tighter
  const Box box = space.box();
  if (box.empty()) {
    width_ = height_ = 0;
    blocked_.assign(4, 1);
    return;
  }
  cell_ = options_.resolution;
  if (cell_ == 0.0) cell_ = std::max(box.width(), box.height()) / 256.0;
  if (!(cell_ > 0.0) || !std::isfinite(cell_))
    throw InputError({"", 0, 0, "resolution"},
                     "grid resolution must be a positive finite number, found " +
                         std::to_string(options_.resolution));
  diagonal_ = cell_ * std::sqrt(2.0);
  origin_ = options_.origin.value_or(box.min);
  const double cols = std::ceil((box.max.x - origin_.x) / cell_);
  const double rows = std::ceil((box.max.y - origin_.y) / cell_);
  if (cols * rows > double(options_.max_cells)) {
    std::ostringstream message;
    message << "a grid of resolution " << cell_ << " would have " << cols << " x " << rows
            << " cells, more than the budget of " << options_.max_cells
            << " (raise --resolution or --max-cells)";
    throw InputError({"", 0, 0, "resolution"}, message.str());
  }
  width_ = std::max(1, int(cols));
  height_ = std::max(1, int(rows));
  const std::size_t row = std::size_t(width_) + 2;
  blocked_.assign(row * (std::size_t(height_) + 2), 1);

  // 1. Cells whose open square a boundary edge passes through are blocked; 2. the others lie
  // wholly inside or outside free space: parity of crossings along the row through their
  // centres decides (Haines 1994).
  std::vector<std::uint8_t> crossed(std::size_t(width_) * height_, 0);
  std::vector<std::vector<double>> crossings(static_cast<std::size_t>(height_));
  const double slack = 1e-9 * cell_;
  for (const BoundaryRing& ring : space.boundary()) {
    const Ring& pts = ring.points;
    for (std::size_t i = 0; i < pts.size(); ++i) {
      const Point a = pts[i], b = pts[(i + 1) % pts.size()];
      const bool axis_aligned = a.x == b.x || a.y == b.y;
      const int r0 =
          std::clamp(int(std::floor((std::min(a.y, b.y) - origin_.y) / cell_)) - 1, 0, height_ - 1);
      const int r1 =
          std::clamp(int(std::floor((std::max(a.y, b.y) - origin_.y) / cell_)) + 1, 0, height_ - 1);
      for (int r = r0; r <= r1; ++r) {
        const double y0 = origin_.y + r * cell_, y1 = y0 + cell_, yc = y0 + 0.5 * cell_;
        if ((a.y > yc) != (b.y > yc))
          crossings[std::size_t(r)].push_back(a.x + (yc - a.y) * (b.x - a.x) / (b.y - a.y));
        // The edge's x-extent within this row band, then the exact-enough box test per cell.
        double xa = a.x, xb = b.x;
        if (a.y != b.y) {
          const double ta = std::clamp((y0 - a.y) / (b.y - a.y), 0.0, 1.0);
          const double tb = std::clamp((y1 - a.y) / (b.y - a.y), 0.0, 1.0);
          xa = a.x + ta * (b.x - a.x);
          xb = a.x + tb * (b.x - a.x);
        }
        const int c0 =
            std::clamp(int(std::floor((std::min(xa, xb) - origin_.x) / cell_)) - 1, 0, width_ - 1);
        const int c1 =
            std::clamp(int(std::floor((std::max(xa, xb) - origin_.x) / cell_)) + 1, 0, width_ - 1);
        for (int c = c0; c <= c1; ++c) {
          const double x0 = origin_.x + c * cell_;
          if (meets_open_box(a, b, x0, y0, x0 + cell_, y1, axis_aligned ? 0.0 : slack))
            crossed[std::size_t(r) * width_ + c] = 1;
        }
      }
    }
  }
  for (int r = 0; r < height_; ++r) {
    std::vector<double>& xs = crossings[std::size_t(r)];
    std::sort(xs.begin(), xs.end());
    std::size_t k = 0;
    for (int c = 0; c < width_; ++c) {
      const double xc = origin_.x + (c + 0.5) * cell_;
      while (k < xs.size() && xs[k] < xc) ++k;
      const bool inside = k % 2 == 1;
      if (inside && !crossed[std::size_t(r) * width_ + c]) blocked_[padded(c, r)] = 0;
    }
  }

  // Allowed moves per cell: orthogonal into a free cell; diagonal into a free cell when both
  // orthogonal cells it passes between are free (no corner cutting).
  const std::int64_t w = width_;
  const std::int64_t offsets[8] = {1, w, -1, -w, w + 1, w - 1, -w - 1, -w + 1};
  std::copy(std::begin(offsets), std::end(offsets), move_offset_);
  const int dx[4] = {1, 0, -1, 0}, dy[4] = {0, 1, 0, -1};
  moves_.assign(std::size_t(width_) * height_, 0);
  for (int r = 0; r < height_; ++r) {
    for (int c = 0; c < width_; ++c) {
      if (blocked(c, r)) continue;
      unsigned mask = 0;
      bool open[4];
      for (int k = 0; k < 4; ++k) {
        open[k] = blocked_[padded(c + dx[k], r + dy[k])] == 0;
        if (open[k]) mask |= 1u << k;
      }
      for (int k = 0; k < 4 && options_.connectivity == 8; ++k) {
        const int k2 = (k + 1) % 4;
        if (open[k] && open[k2] && blocked_[padded(c + dx[k] + dx[k2], r + dy[k] + dy[k2])] == 0)
          mask |= 1u << (4 + k);
      }
      moves_[std::size_t(r) * width_ + c] = static_cast<std::uint8_t>(mask);
    }
  }

  heuristic_scale_ = space.min_cost();
  max_climb_ = space.agent().max_climb;
  const std::vector<Region>& regions = space.regions();
  if (!regions.empty()) {
    // Per cell, the highest multiplier that applies anywhere in it: the costs of the regions
    // meeting the cell, except those hidden under a later region covering the whole cell, and
    // plain ground (1) unless some region covers the whole cell.
    std::vector<int> top_cover(std::size_t(width_) * height_, -1);
    std::vector<std::vector<int>> meeting(std::size_t(width_) * height_);
    for (int i = 0; i < int(regions.size()); ++i) {
      const Ring& poly = regions[std::size_t(i)].polygon;
      const Box rb = bounding_box(poly);
      const int c0 = std::clamp(int(std::floor((rb.min.x - origin_.x) / cell_)), 0, width_ - 1);
      const int c1 = std::clamp(int(std::floor((rb.max.x - origin_.x) / cell_)), 0, width_ - 1);
      const int r0 = std::clamp(int(std::floor((rb.min.y - origin_.y) / cell_)), 0, height_ - 1);
      const int r1 = std::clamp(int(std::floor((rb.max.y - origin_.y) / cell_)), 0, height_ - 1);
      for (int r = r0; r <= r1; ++r) {
        for (int c = c0; c <= c1; ++c) {
          const double x0 = origin_.x + c * cell_, y0 = origin_.y + r * cell_;
          const Ring square = {
              {x0, y0}, {x0 + cell_, y0}, {x0 + cell_, y0 + cell_}, {x0, y0 + cell_}};
          bool edge_inside = false, meets = false;
          for (std::size_t k = 0; k < poly.size() && !edge_inside; ++k)
            edge_inside = meets_open_box(poly[k], poly[(k + 1) % poly.size()], x0, y0, x0 + cell_,
                                         y0 + cell_, slack);
          int corners_in = 0;
          for (const Point& q : square)
            corners_in += exact::side_of_ring(poly, q) != exact::Side::outside ? 1 : 0;
          meets = edge_inside || corners_in > 0;
          if (!meets) continue;
          const std::size_t id = std::size_t(r) * width_ + c;
          meeting[id].push_back(i);
          if (!edge_inside && corners_in == 4) top_cover[id] = i;
        }
      }
    }
    cost_.assign(std::size_t(width_) * height_, 1.0);
    for (std::size_t id = 0; id < cost_.size(); ++id) {
      double worst = top_cover[id] < 0 ? 1.0 : 0.0;
      for (int i : meeting[id])
        if (i >= top_cover[id]) worst = std::max(worst, regions[std::size_t(i)].cost);
      cost_[id] = worst;
    }
  }
  if (space.has_heights() && std::isfinite(max_climb_)) {
    height_of_.resize(std::size_t(width_) * height_);
    for (int r = 0; r < height_; ++r)
      for (int c = 0; c < width_; ++c)
        height_of_[std::size_t(r) * width_ + c] = space.height_at(cell_centre(c, r));
  } else {
    // Connected components answer "unreachable" without a search; one-way height steps make
    // the graph directed, where undirected components would be wrong.
    components_ = search::ComponentLabels(*this);
  }
}

double OccupancyGrid::heuristic_cells(int dx, int dy) const {
  // Distances in cells between cell centres; every one is a lower bound of the grid's own
  // path length (and chebyshev and euclidean also of octile and manhattan paths).
  switch (options_.heuristic) {
    case GridHeuristic::manhattan:
      return double(dx + dy);
    case GridHeuristic::octile:
      return double(std::max(dx, dy)) + (std::sqrt(2.0) - 1.0) * double(std::min(dx, dy));
    case GridHeuristic::chebyshev:
      return double(std::max(dx, dy));
    case GridHeuristic::euclidean:
      return std::hypot(double(dx), double(dy));
    case GridHeuristic::zero:
    case GridHeuristic::automatic:
      return 0.0;
  }
  return 0.0;
}

RawPath OccupancyGrid::find_path(Point start, Point goal, const QueryOptions& options) {
  RawPath out;
  const FreeSpace& space = *space_;
  // The cells a free point connects to: its own cell when free (the straight move stays in
  // the cell's square), else the free cells nearby that it sees.
  struct Attachment {
    search::NodeId cell;
    double cost;
  };
  const auto attach = [&](Point p, bool outgoing) {
    std::vector<Attachment> cells;
    const auto [px, py] = cell_of(p);
    if (inside(px, py) && !blocked(px, py)) {
      const Point c = cell_centre(px, py);
      cells.push_back({search::NodeId(py * width_ + px),
                       outgoing ? space.segment_cost(p, c) : space.segment_cost(c, p)});
      return cells;
    }
    for (int reach = 1; reach <= 2 && cells.empty(); ++reach) {
      for (int y = py - reach; y <= py + reach; ++y) {
        for (int x = px - reach; x <= px + reach; ++x) {
          if (!inside(x, y) || blocked(x, y)) continue;
          const Point c = cell_centre(x, y);
          if (!space.line_of_sight(p, c)) continue;
          cells.push_back({search::NodeId(y * width_ + x),
                           outgoing ? space.segment_cost(p, c) : space.segment_cost(c, p)});
        }
      }
    }
    return cells;
  };
  const std::vector<Attachment> from = attach(start, true), to = attach(goal, false);
  if (from.empty() || to.empty()) {
    out.status = search::SearchStatus::invalid_query;
    out.message = std::string(from.empty() ? "start" : "goal") +
                  " is free but no free grid cell around it is in line of sight (try a finer "
                  "--resolution)";
    return out;
  }
  if (components_.size() > 0) {
    bool shared = false;
    for (const Attachment& a : from)
      for (const Attachment& b : to) shared = shared || components_.same_component(a.cell, b.cell);
    if (!shared) {
      out.status = search::SearchStatus::no_path;
      out.message = "no_path: start and goal lie in different connected components of the grid";
      return out;
    }
  }

  const search::SearchOptions defaults;
  const search::SearchOptions& search_options = options.search ? *options.search : defaults;
  struct Recorder {
    const OccupancyGrid* grid;
    std::vector<Point>* out;
    void examine(search::NodeId n) {
      if (n < grid->node_count()) out->push_back(grid->node_position(n));
    }
    void relax(search::NodeId, search::NodeId, double) {}
    void finish(search::NodeId) {}
  };
  const auto run = [&](const auto& graph, search::NodeId s, search::NodeId g, const auto& h) {
    const search::NodeId goals[1] = {g};
    if (options.record_expanded) {
      astar_.search(graph, s, goals, h, search_options, result_, Recorder{this, &out.expanded});
    } else {
      astar_.search(graph, s, goals, h, search_options, result_);
    }
  };
  const auto finish = [&](double attach_cost) {
    out.status = result_.status;
    out.stats = result_.stats;
    out.graph_cost = result_.cost + attach_cost;
    if (out.status != search::SearchStatus::found) out.message = result_.explanation();
  };
  const double scale = heuristic_scale_ * cell_;
  const auto cell_heuristic = [this, scale](search::NodeId target) {
    const int tx = int(target % std::uint32_t(width_)), ty = int(target / std::uint32_t(width_));
    return [this, scale, tx, ty](search::NodeId n) {
      const int nx = int(n % std::uint32_t(width_)), ny = int(n / std::uint32_t(width_));
      return heuristic_cells(std::abs(nx - tx), std::abs(ny - ty)) * scale;
    };
  };

  if (from.size() == 1 && to.size() == 1) {
    // The usual case: each point sits in its own free cell. Search the grid itself, cell to
    // cell: no extra nodes, so nothing but the implicit graph is touched per expansion.
    run(*this, from[0].cell, to[0].cell, cell_heuristic(to[0].cell));
    finish(from[0].cost + to[0].cost);
    if (result_.path.empty()) return out;
    // start, the cell centres (a point at its cell's centre is not repeated), then the goal.
    out.points.push_back(start);
    for (search::NodeId n : result_.path)
      if (const Point p = node_position(n); !(p == out.points.back())) out.points.push_back(p);
    if (out.status == search::SearchStatus::found && !(goal == out.points.back()))
      out.points.push_back(goal);
    return out;
  }

  // A point in a blocked cell (free, but near an obstacle) joins several cells: extra start and
  // goal nodes carry those arcs.
  search::AugmentedGraph<OccupancyGrid> graph(*this);
  const search::NodeId s = graph.add_node(), g = graph.add_node();
  for (const Attachment& a : from) graph.add_arc(s, a.cell, a.cost);
  for (const Attachment& b : to) graph.add_arc(b.cell, g, b.cost);
  std::vector<std::pair<decltype(cell_heuristic(0)), double>> per_goal;
  for (const Attachment& b : to) per_goal.emplace_back(cell_heuristic(b.cell), b.cost);
  const auto h = [&](search::NodeId n) {
    if (n >= s) return 0.0;
    double best = std::numeric_limits<double>::infinity();
    for (const auto& [to_cell, cost] : per_goal) best = std::min(best, to_cell(n) + cost);
    return best;
  };
  run(graph, s, g, h);
  finish(0.0);
  for (search::NodeId n : result_.path)
    out.points.push_back(n == s ? start : n == g ? goal : node_position(n));
  return out;
}

void OccupancyGrid::draw(SvgCanvas& canvas) const {
  // Blocked cells inside the free-space box, merged into horizontal runs to keep files small.
  std::vector<Ring> runs;
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
      runs.push_back({{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}});
      c = e;
    }
  }
  SvgStyle blocked_style;
  blocked_style.fill = "#5b6270";
  blocked_style.fill_opacity = 0.28;
  canvas.rings(runs, blocked_style);
  if (width_ <= 160 && height_ <= 160) {
    SvgStyle line_style;
    line_style.stroke = "#8a93a3";
    line_style.stroke_width = 0.3;
    line_style.stroke_opacity = 0.5;
    for (int c = 0; c <= width_; ++c) {
      const double x = origin_.x + c * cell_;
      canvas.line({x, origin_.y}, {x, origin_.y + height_ * cell_}, line_style);
    }
    for (int r = 0; r <= height_; ++r) {
      const double y = origin_.y + r * cell_;
      canvas.line({origin_.x, y}, {origin_.x + width_ * cell_, y}, line_style);
    }
  }
}

}  // namespace polynav
