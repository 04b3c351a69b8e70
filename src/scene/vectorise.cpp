#include "vectorise.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "free_boundary_trace.hpp"
#include "polynav/kernel/box_index.hpp"
#include "polynav/kernel/exact.hpp"

namespace polynav::detail {
namespace {

// Longest run of vertices one chord may replace: bounds the cost of the tests, which look at every
// dropped vertex each time a chord is extended.
constexpr std::size_t max_chord_span = 256;

struct PointHash {
  std::size_t operator()(Point p) const {
    const auto x = std::bit_cast<std::uint64_t>(p.x + 0.0);  // + 0.0: -0 and 0 hash alike
    const auto y = std::bit_cast<std::uint64_t>(p.y + 0.0);
    return std::hash<std::uint64_t>()(x * 0x9E3779B97F4A7C15ULL ^ y);
  }
};

Box segment_box(Point a, Point b) {
  Box box;
  box.expand(a);
  box.expand(b);
  return box;
}

double distance_to_segment(Point p, Point a, Point b) {
  const Point d = b - a;
  const double length2 = dot(d, d);
  double t = length2 > 0.0 ? dot(p - a, d) / length2 : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  return distance(p, a + t * d);
}

class Simplifier {
 public:
  Simplifier(std::vector<Ring> rings, double tolerance)
      : rings_(std::move(rings)), tolerance_(tolerance) {}

  SimplifiedBoundary run() {
    mark_shared_vertices();
    rotate_to_anchors();
    build_indices();
    SimplifiedBoundary out;
    for (std::size_t r = 0; r < rings_.size(); ++r)
      out.rings.push_back(simplify_ring(r, out.fills));
    return out;
  }

 private:
  struct Edge {
    Point a;
    Point b;
    bool alive = true;
  };
  struct Vertex {
    Point at;
    bool alive = true;
  };

  void mark_shared_vertices() {
    std::unordered_map<Point, int, PointHash> uses;
    for (const Ring& ring : rings_)
      for (const Point& p : ring) ++uses[p];
    for (const auto& [p, n] : uses)
      if (n > 1) shared_.emplace(p, true);
  }
  bool shared(Point p) const { return shared_.count(p) != 0; }

  // Starts each ring at a shared vertex when it has one: those are kept anyway, and a ring is
  // simplified as one run from its start around to it.
  void rotate_to_anchors() {
    for (Ring& ring : rings_) {
      const auto anchor =
          std::find_if(ring.begin(), ring.end(), [&](Point p) { return shared(p); });
      if (anchor != ring.end()) std::rotate(ring.begin(), anchor, ring.end());
    }
  }

  void build_indices() {
    Box box;
    std::size_t count = 0;
    for (const Ring& ring : rings_) {
      box.expand(bounding_box(ring));
      count += ring.size();
    }
    std::vector<Box> edge_boxes, vertex_boxes;
    for (const Ring& ring : rings_) {
      edge_base_.push_back(std::uint32_t(edges_.size()));
      for (std::size_t k = 0; k < ring.size(); ++k) {
        const Point a = ring[k];
        const Point b = ring[(k + 1) % ring.size()];
        edge_boxes.push_back(segment_box(a, b));
        edges_.push_back({a, b, true});
        vertex_boxes.push_back(segment_box(a, a));
        vertices_.push_back({a, true});
      }
    }
    // The chords added later go into the edge index too (BoxIndex::insert).
    edge_index_ = BoxIndex(box, count);
    edge_index_.assign_boxes(edge_boxes);
    vertex_index_ = BoxIndex(box, count);
    vertex_index_.assign_boxes(vertex_boxes);
  }

  // Whether the chord v[i] -> v[j] of ring r (j may equal n: back to v[0]) may replace the
  // vertices between them.
  bool chord_allowed(std::size_t r, std::size_t i, std::size_t j) {
    const Ring& v = rings_[r];
    const std::size_t n = v.size();
    const Point a = v[i];
    const Point b = v[j % n];
    // Every dropped vertex right of the chord or on it between its ends, and within tolerance.
    for (std::size_t k = i + 1; k < j; ++k) {
      const Point p = v[k];
      const int side = exact::orientation(a, b, p);
      if (side > 0) return false;
      if (side == 0 && (p == a || p == b || !exact::collinear_between(a, b, p))) return false;
      if (distance_to_segment(p, a, b) > tolerance_) return false;
    }
    // No other edge crosses or touches the chord; the two edges that share its ends may not run
    // along it.
    const std::uint32_t first_dropped = edge_base_[r] + std::uint32_t(i);
    const std::uint32_t last_dropped = edge_base_[r] + std::uint32_t(j - 1);
    bool ok = true;
    ++stamp_;
    edge_index_.visit(segment_box(a, b), edge_stamps_, stamp_, [&](std::uint32_t id) {
      if (!ok || (id >= first_dropped && id <= last_dropped) || !edges_[id].alive) return;
      const Edge& e = edges_[id];
      const bool at_a = e.a == a || e.b == a;
      const bool at_b = e.a == b || e.b == b;
      if (at_a || at_b) {
        if (at_a && at_b) {
          ok = false;  // the chord would double back along the ring's last other edge
          return;
        }
        const Point end = at_a ? a : b;
        const Point other = e.a == end ? e.b : e.a;
        const Point chord_other = at_a ? b : a;
        if (exact::orientation(a, b, other) == 0 &&
            (exact::collinear_between(a, b, other) ||
             exact::collinear_between(e.a, e.b, chord_other)))
          ok = false;
        // A shared end cannot be a pinch here (chord ends are never shared vertices), so the
        // edge leaves the chord there.
        return;
      }
      if (exact::segments_intersect(a, b, e.a, e.b)) ok = false;
    });
    if (!ok) return false;
    // No vertex inside the region the chord cuts off (a whole ring there would touch nothing).
    Ring region(v.begin() + std::ptrdiff_t(i), v.begin() + std::ptrdiff_t(j));
    region.push_back(b);
    const Box region_box = bounding_box(region);
    ++stamp_;
    vertex_index_.visit(region_box, vertex_stamps_, stamp_, [&](std::uint32_t id) {
      if (!ok || !vertices_[id].alive) return;
      const Point p = vertices_[id].at;
      if (!region_box.contains(p)) return;
      if (exact::side_of_ring(region, p) == exact::Side::inside) ok = false;
    });
    return ok;
  }

  // The free space between the chord a -> b and the vertices it replaces, as simple polygons
  // (split where a replaced vertex lies on the chord), counter-clockwise.
  static void add_fills(const Ring& v, std::size_t i, std::size_t j, std::vector<Ring>& fills) {
    const std::size_t n = v.size();
    const Point a = v[i];
    const Point b = v[j % n];
    std::size_t from = i;
    for (std::size_t k = i + 1; k <= j; ++k) {
      const Point p = v[k % n];
      if (k < j && exact::orientation(a, b, p) != 0) continue;
      if (k - from >= 2) {
        Ring piece;
        for (std::size_t m = from; m <= k; ++m) piece.push_back(v[m % n]);
        // Traversed along the replaced vertices, which lie right of the chord, and back along the
        // chord: counter-clockwise.
        fills.push_back(std::move(piece));
      }
      from = k;
    }
  }

  Ring simplify_ring(std::size_t r, std::vector<Ring>& fills) {
    const Ring& v = rings_[r];
    const std::size_t n = v.size();
    if (tolerance_ <= 0.0 || n < 4) return v;
    Ring out;
    std::size_t remaining = n;
    std::size_t i = 0;
    while (i < n) {
      out.push_back(v[i]);
      std::size_t best = i + 1;
      if (!shared(v[i])) {
        for (std::size_t j = i + 2; j <= n && j - i <= max_chord_span; ++j) {
          if (shared(v[j - 1])) break;  // a shared vertex is kept
          if (shared(v[j % n])) continue;
          if (remaining - (j - i - 1) < 3) break;
          if (!chord_allowed(r, i, j)) break;
          best = j;
        }
      }
      if (best >= i + 2) {
        const std::uint32_t base = edge_base_[r];
        for (std::size_t k = i; k < best; ++k) edges_[base + k].alive = false;
        for (std::size_t k = i + 1; k < best; ++k) vertices_[base + k].alive = false;
        const Point a = v[i];
        const Point b = v[best % n];
        edge_index_.insert(std::uint32_t(edges_.size()), segment_box(a, b));
        edges_.push_back({a, b, true});
        add_fills(v, i, best, fills);
        remaining -= best - i - 1;
      }
      i = best;
    }
    return out;
  }

  std::vector<Ring> rings_;
  double tolerance_;
  std::unordered_map<Point, bool, PointHash> shared_;
  std::vector<Edge> edges_;
  std::vector<Vertex> vertices_;
  std::vector<std::uint32_t> edge_base_;  // edge and vertex k of ring r: edge_base_[r] + k
  BoxIndex edge_index_;                   // edges by their boxes, chords included
  BoxIndex vertex_index_;                 // the rings' vertices
  std::vector<std::uint32_t> edge_stamps_;
  std::vector<std::uint32_t> vertex_stamps_;
  std::uint32_t stamp_ = 0;
};

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace

SimplifiedBoundary simplify_free_boundary(std::vector<Ring> rings, double tolerance) {
  if (!(tolerance > 0.0)) return {std::move(rings), {}};
  return Simplifier(std::move(rings), tolerance).run();
}

std::vector<CellRectangle> blocked_rectangles(const CellMap& cells) {
  std::vector<CellRectangle> out;
  // Rectangles still open below the previous row, by the index of their run in that row.
  std::vector<std::size_t> open;
  std::vector<BlockedRun> previous;
  std::vector<BlockedRun> runs;
  std::vector<std::size_t> next_open;
  for (int cy = 0; cy < cells.height; ++cy) {
    runs.clear();
    for (int cx = 0; cx < cells.width;) {
      if (!cells.is_blocked(cx, cy)) {
        ++cx;
        continue;
      }
      const int first = cx;
      while (cx < cells.width && cells.is_blocked(cx, cy)) ++cx;
      runs.push_back({cy, first, cx});
    }
    next_open.clear();
    std::size_t p = 0;
    for (const BlockedRun& run : runs) {
      while (p < previous.size() && previous[p].first < run.first) ++p;
      if (p < previous.size() && previous[p].first == run.first && previous[p].last == run.last) {
        ++out[open[p]].rows;
        next_open.push_back(open[p]);
      } else {
        next_open.push_back(out.size());
        out.push_back({cy, run.first, run.last, 1});
      }
    }
    std::swap(previous, runs);
    std::swap(open, next_open);
  }
  return out;
}

Ring rectangle_ring(const CellMap& cells, const CellRectangle& r, Point origin, double cell_size) {
  const double x0 = origin.x + cell_size * r.first;
  const double x1 = origin.x + cell_size * r.last;
  const double y0 = origin.y + cell_size * (cells.height - r.row - r.rows);
  const double y1 = origin.y + cell_size * (cells.height - r.row);
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

std::vector<Ring> turned_rectangle_rings(const CellMap& cells,
                                         const std::vector<CellRectangle>& rectangles, Point origin,
                                         double cell_size, const Rotation& rotation) {
  // Lattice points (x, y), y up, as trace_free_boundary computes them.
  const auto key = [](int x, int y) {
    return (std::uint64_t(std::uint32_t(x)) << 32) | std::uint32_t(y);
  };
  std::unordered_set<std::uint64_t> corners;
  for (const CellRectangle& r : rectangles) {
    const int x0 = r.first, x1 = r.last;
    const int y0 = cells.height - r.row - r.rows, y1 = cells.height - r.row;
    for (const auto& [x, y] : {std::pair{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}})
      corners.insert(key(x, y));
  }
  // The lattice point (x, y) lies between the cells with lower-left corners (x-1 or x, y-1 or y).
  const auto free_cell = [&](int x, int y) {
    return x >= 0 && y >= 0 && x < cells.width && y < cells.height &&
           !cells.is_blocked(x, cells.height - 1 - y);
  };
  const auto kept = [&](int x, int y) {
    return x == 0 || y == 0 || x == cells.width || y == cells.height || free_cell(x - 1, y - 1) ||
           free_cell(x, y - 1) || free_cell(x - 1, y) || free_cell(x, y) ||
           corners.count(key(x, y)) != 0;
  };
  std::vector<Ring> rings;
  rings.reserve(rectangles.size());
  for (const CellRectangle& r : rectangles) {
    const int x0 = r.first, x1 = r.last;
    const int y0 = cells.height - r.row - r.rows, y1 = cells.height - r.row;
    Ring ring;
    const auto add = [&](int x, int y, bool corner) {
      if (corner || kept(x, y))
        ring.push_back(rotation.apply({origin.x + cell_size * x, origin.y + cell_size * y}));
    };
    // Counter-clockwise from the lower-left corner.
    for (int x = x0; x < x1; ++x) add(x, y0, x == x0);
    for (int y = y0; y < y1; ++y) add(x1, y, y == y0);
    for (int x = x1; x > x0; --x) add(x, y1, x == x1);
    for (int y = y1; y > y0; --y) add(x0, y, y == y1);
    rings.push_back(std::move(ring));
  }
  return rings;
}

void simplify_scene_boundary(Scene& scene, double tolerance, const std::string& file) {
  VectorisationReport report = scene.vectorisation.value_or(VectorisationReport{});
  report.tolerance = tolerance;
  if (tolerance > 0.0) {
    const auto start = std::chrono::steady_clock::now();
    SimplifiedBoundary s = simplify_free_boundary(std::move(scene.free_boundary), tolerance);
    report.simplify_ms = milliseconds_since(start);
    scene.free_boundary = std::move(s.rings);
    for (std::size_t i = 0; i < s.fills.size(); ++i) {
      Obstacle obstacle;
      obstacle.shape.outer = std::move(s.fills[i]);
      obstacle.where = {file, 0, 0, "simplification fill " + std::to_string(i)};
      scene.obstacles.push_back(std::move(obstacle));
    }
    report.fills = s.fills.size();
  }
  report.vertices = 0;
  for (const Ring& ring : scene.free_boundary) report.vertices += ring.size();
  scene.vectorisation = report;
}

VectorisedCells vectorise_cells(const CellMap& cells, Point origin, double cell_size,
                                double tolerance, const Rotation& rotation) {
  VectorisedCells out;
  const auto traced = std::chrono::steady_clock::now();
  std::vector<Ring> rings = trace_free_boundary(cells, origin, cell_size, rotation);
  out.report.trace_ms = milliseconds_since(traced);
  out.report.rings = rings.size();
  for (const Ring& ring : rings) out.report.traced_vertices += ring.size();
  out.report.tolerance = tolerance;

  const auto simplified = std::chrono::steady_clock::now();
  SimplifiedBoundary s = simplify_free_boundary(std::move(rings), tolerance);
  out.report.simplify_ms = tolerance > 0.0 ? milliseconds_since(simplified) : 0.0;
  out.free_boundary = std::move(s.rings);
  out.fills = std::move(s.fills);
  for (const Ring& ring : out.free_boundary) out.report.vertices += ring.size();
  out.report.fills = out.fills.size();
  return out;
}

}  // namespace polynav::detail
