#include "polynav/space/free_space.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <span>
#include <sstream>

#include "cell_inflation.hpp"
#include "configuration_space.hpp"
#include "edge_grid.hpp"
#include "free_space_impl.hpp"
#include "polynav/kernel/bits.hpp"
#include "polynav/kernel/exact.hpp"
#include "polynav/scene/scene.hpp"
#include "vertex_stars.hpp"

namespace polynav {
namespace {

// Whether `rings` are exactly the outline of the free cells of a MovingAI map (cell (cx, cy) the
// unit square [cx, cx + 1] x [h - cy - 1, h - cy]): every edge runs along cell sides, each side it
// covers lies between a free cell and a blocked one or the map's edge, no side is covered twice,
// and as many are covered as there are such sides. Then a point's side of the rings (by the
// parity of the crossings, as free space locates points) is its cell's in the map.
bool outline_of_free_cells(std::span<const BoundaryRing> rings, const CellMap& cells) {
  const std::int64_t w = cells.width, h = cells.height;
  // The cell whose lower-left corner is (x, y) in the scene.
  const auto free = [&](std::int64_t x, std::int64_t y) {
    return x >= 0 && y >= 0 && x < w && y < h && !cells.is_blocked(int(x), int(h - 1 - y));
  };
  // Within [0, hi] a double converts to an integer exactly when it is one (no libm floor).
  const auto whole = [](double v, std::int64_t hi) {
    return v >= 0.0 && v <= double(hi) && v == double(std::int64_t(v));
  };
  // The unit sides seen so far, a bit each.
  std::vector<std::uint64_t> vertical((std::size_t(w + 1) * std::size_t(h) + 63) / 64, 0);
  std::vector<std::uint64_t> horizontal((std::size_t(w) * std::size_t(h + 1) + 63) / 64, 0);
  const auto seen_before = [](std::vector<std::uint64_t>& sides, std::size_t i) {
    const std::uint64_t bit = std::uint64_t{1} << (i % 64);
    const bool seen = (sides[i / 64] & bit) != 0;
    sides[i / 64] |= bit;
    return seen;
  };
  std::size_t covered = 0;
  for (const BoundaryRing& ring : rings) {
    const std::vector<Point>& at = ring.points;
    for (std::size_t i = 0; i < at.size(); ++i) {
      const Point p = at[i], q = at[(i + 1) % at.size()];
      if (!whole(p.x, w) || !whole(p.y, h) || !whole(q.x, w) || !whole(q.y, h) || p == q ||
          (p.x != q.x && p.y != q.y))
        return false;
      const auto x0 = std::int64_t(p.x), y0 = std::int64_t(p.y);
      const auto x1 = std::int64_t(q.x), y1 = std::int64_t(q.y);
      if (x0 == x1) {  // a vertical side between the cells west and east of it
        const std::int64_t step = y1 > y0 ? 1 : -1;
        for (std::int64_t y = y0; y != y1; y += step) {
          const std::int64_t row = step > 0 ? y : y - 1;
          if (free(x0 - 1, row) == free(x0, row) ||
              seen_before(vertical, std::size_t(row * (w + 1) + x0)))
            return false;
          ++covered;
        }
      } else {  // a horizontal side between the cells south and north of it
        const std::int64_t step = x1 > x0 ? 1 : -1;
        for (std::int64_t x = x0; x != x1; x += step) {
          const std::int64_t column = step > 0 ? x : x - 1;
          if (free(column, y0 - 1) == free(column, y0) ||
              seen_before(horizontal, std::size_t(y0 * w + column)))
            return false;
          ++covered;
        }
      }
    }
  }
  // Sides between a free cell and a blocked one or the edge, each once: along each map row the
  // changes between neighbours and its two ends, across rows the changes between a row and the
  // one before it, and the free cells of the first and last rows; 64 cells a word.
  if (w == 0 || h == 0) return covered == 0;
  const std::size_t words = (std::size_t(w) + 63) / 64;
  std::vector<std::uint64_t> row(words + 1, 0), before(words + 1, 0);  // a zero word past the end
  std::size_t sides = 0;
  for (std::int64_t cy = 0; cy < h; ++cy) {
    pack_zero_bytes(cells.blocked.data() + std::size_t(cy * w), std::size_t(w), row.data());
    sides += std::size_t(row[0] & 1u);  // the row's west end
    for (std::size_t i = 0; i < words; ++i) {
      // Cell x against cell x + 1: the last cell against the clear bit past the row is its east
      // end.
      const std::uint64_t next = (row[i] >> 1u) | (row[i + 1] << 63u);
      sides += std::size_t(std::popcount(row[i] ^ next));
      sides += std::size_t(std::popcount(row[i] ^ before[i]));  // the row before, or the edge
    }
    std::swap(row, before);
  }
  for (std::size_t i = 0; i < words; ++i) sides += std::size_t(std::popcount(before[i]));
  return covered == sides;
}

// A number as messages show it (the stream's shortest default form).
std::string number_text(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

// Calls visit(row, column, y0, y1) for every cell of the frame that segment uv (in the frame's
// own coordinates) may meet, row by row, y0 and y1 the row's lower and upper side: the cells
// its x extent within each row spans, widened by a cell on each side because that extent is
// rounded. Whether the segment meets a cell is the visitor's exact decision.
template <class Visit>
void for_each_cell_near(const CellFrame& frame, std::size_t rows, std::size_t columns, Point u,
                        Point v, Visit&& visit) {
  const auto clamp_cell = [](double x, std::size_t n) {
    return std::size_t(std::clamp(x, 0.0, double(n - 1)));
  };
  const double side = frame.side;
  const double y_low = std::min(u.y, v.y), y_high = std::max(u.y, v.y);
  const std::size_t r0 = clamp_cell(std::floor((y_low - frame.origin.y) / side) - 1, rows);
  const std::size_t r1 = clamp_cell(std::floor((y_high - frame.origin.y) / side) + 1, rows);
  for (std::size_t r = r0; r <= r1; ++r) {
    const double y0 = frame.origin.y + double(r) * side, y1 = frame.origin.y + double(r + 1) * side;
    double xa = u.x, xb = v.x;
    if (u.y != v.y) {
      xa = u.x + std::clamp((y0 - u.y) / (v.y - u.y), 0.0, 1.0) * (v.x - u.x);
      xb = u.x + std::clamp((y1 - u.y) / (v.y - u.y), 0.0, 1.0) * (v.x - u.x);
    }
    const std::size_t c0 =
        clamp_cell(std::floor((std::min(xa, xb) - frame.origin.x) / side) - 1, columns);
    const std::size_t c1 =
        clamp_cell(std::floor((std::max(xa, xb) - frame.origin.x) / side) + 1, columns);
    for (std::size_t c = c0; c <= c1; ++c) visit(r, c, y0, y1);
  }
}

// The point of segment uv nearest to p (a construction: used for distances and snapping, never
// for a decision).
Point closest_on_segment(Point u, Point v, Point p) {
  const Point uv = v - u;
  const double length2 = dot(uv, uv);
  if (length2 == 0.0) return u;
  return u + std::clamp(dot(p - u, uv) / length2, 0.0, 1.0) * uv;
}

// Whether the closed boxes of segments ab and uv overlap (comparisons of the given doubles:
// exact, and far cheaper than the orientation tests it saves).
bool boxes_overlap(Point a, Point b, Point u, Point v) {
  return std::max(u.x, v.x) >= std::min(a.x, b.x) && std::min(u.x, v.x) <= std::max(a.x, b.x) &&
         std::max(u.y, v.y) >= std::min(a.y, b.y) && std::min(u.y, v.y) <= std::max(a.y, b.y);
}

}  // namespace

void FreeSpace::Impl::build_edges() {
  std::size_t count = 0;
  for (const BoundaryRing& ring : rings) count += ring.points.size();
  edges.reserve(count);
  edge_ring.reserve(count);
  ring_area.reserve(rings.size());
  for (std::uint32_t r = 0; r < rings.size(); ++r) {
    const Ring& pts = rings[r].points;
    for (std::size_t i = 0; i < pts.size(); ++i) {
      edges.push_back({pts[i], pts[(i + 1) % pts.size()]});
      edge_ring.push_back(r);
      if (!cells) box.expand(pts[i]);  // a map's box and area come from its cells, the same
    }
    const double signed_area = 0.5 * signed_area2(pts);
    ring_area.push_back(std::abs(signed_area));
    if (!cells) area += signed_area;
  }
  grid = detail::EdgeGrid(edges, box);
}

void FreeSpace::Impl::label_cells(const CellMap& map) {
  Cells& c = cells.emplace();
  const int w = map.width, h = map.height;
  // Cell row y (y up) is map row h - 1 - y.
  std::vector<std::uint64_t> row((std::size_t(w) + 63) / 64);
  c.runs = search::free_cell_runs(w, h, [&](int y) {
    pack_zero_bytes(map.blocked.data() + std::size_t(h - 1 - y) * std::size_t(w), std::size_t(w),
                    row.data());
    return row.data();
  });
  c.row_begin.assign(std::size_t(h) + 1, 0);
  c.label.resize(c.runs.size());
  std::uint32_t count = 0;
  for (std::size_t r = 0; r < c.runs.size(); ++r) {
    const search::CellRun& run = c.runs[r];
    c.label[r] = run.root == r ? count++ : c.label[run.root];
    ++c.row_begin[std::size_t(run.y) + 1];
    box.expand(Point{double(run.x0), double(run.y)});
    box.expand(Point{double(run.x1), double(run.y + 1)});
    area += double(run.x1 - run.x0);
  }
  for (std::size_t y = 0; y < std::size_t(h); ++y) c.row_begin[y + 1] += c.row_begin[y];
  components = count;
}

std::uint32_t FreeSpace::Impl::cell_component(int x, int y) const {
  const auto first = cells->runs.begin() + std::ptrdiff_t(cells->row_begin[std::size_t(y)]);
  const auto last = cells->runs.begin() + std::ptrdiff_t(cells->row_begin[std::size_t(y) + 1]);
  const auto run =
      std::partition_point(first, last, [x](const search::CellRun& r) { return r.x1 <= x; });
  return cells->label[std::size_t(run - cells->runs.begin())];
}

void FreeSpace::Impl::build_outline() {
  build_edges();
  // Each ring bounds the component of the free cell on the left of its first edge (edges run
  // along cell sides: outline_of_free_cells), as the nesting of rings would give.
  for (BoundaryRing& ring : rings) {
    ring.outer = exact::ring_orientation(ring.points) > 0;
    const Point p = ring.points[0], q = ring.points[1];
    const int x = int(p.x), y = int(p.y);
    const auto [cx, cy] = q.x > p.x   ? std::pair{x, y}
                          : q.x < p.x ? std::pair{x - 1, y - 1}
                          : q.y > p.y ? std::pair{x - 1, y}
                                      : std::pair{x, y - 1};
    ring.component = cell_component(cx, cy);
  }
  build_index();
}

bool FreeSpace::Impl::cells_show_free(Point a, Point b) const {
  bool one_cell = false;
  for_each_cell_holding(a, [&](int x, int y) {
    one_cell =
        one_cell || (cell_is_free(x, y) && b.x >= x && b.x <= x + 1 && b.y >= y && b.y <= y + 1);
  });
  if (one_cell) return true;
  const auto centre = [](double v) { return v - std::floor(v) == 0.5; };
  if (!centre(a.x) || !centre(a.y) || !centre(b.x) || !centre(b.y)) return false;
  const double dx = b.x - a.x, dy = b.y - a.y;  // exact: whole numbers
  if (dx != 0.0 && dy != 0.0 && std::abs(dx) != std::abs(dy)) return false;
  if (!(std::abs(dx) <= map_cells->width && std::abs(dy) <= map_cells->height)) return false;
  const int sx = dx > 0 ? 1 : dx < 0 ? -1 : 0, sy = dy > 0 ? 1 : dy < 0 ? -1 : 0;
  const int steps = int(std::max(std::abs(dx), std::abs(dy)));
  auto x = std::int64_t(std::floor(a.x)), y = std::int64_t(std::floor(a.y));
  if (!cell_is_free(x, y)) return false;
  for (int i = 0; i < steps; ++i) {
    // A diagonal passes the corner between this cell and the next: the two cells beside it too.
    if (sx != 0 && sy != 0 && !(cell_is_free(x + sx, y) && cell_is_free(x, y + sy))) return false;
    x += sx;
    y += sy;
    if (!cell_is_free(x, y)) return false;
  }
  return true;
}

void FreeSpace::Impl::build_index() {
  if (open_gaps) join_components_at_pinches();
  stars = detail::VertexStars(edges);
  build_references();
}

void FreeSpace::Impl::build_references() {
  if (grid.empty()) return;
  const int nx = grid.columns(), ny = grid.rows();
  reference.resize(grid.cell_count());
  reference_free.assign(grid.cell_count(), 0);
  // Reference points: the first point on no edge among the cell's centre and then pseudo-random
  // points of the cell (splitmix64, the same for every build); their status by one ray per row,
  // then along the row by the crossings between neighbouring references. The candidates must not
  // lie on one line: an edge along it would hold every one of them (an edge along a cell's
  // diagonal held all the earlier candidates, spread along that diagonal) and a reference on an
  // edge miscounts crossings. No three of the first 120 lie on one line in a unit cell (checked
  // with rationals), so an edge holds at most two, and trying twice the cell's edges and a few
  // more finds a point on none.
  std::vector<std::uint32_t> between;
  for (int y = 0; y < ny; ++y) {
    for (int x = 0; x < nx; ++x) {
      const std::size_t b = grid.index(x, y);
      const Box cell = grid.cell_box(x, y);
      const std::span<const std::uint32_t> cell_edges = grid.edges_in(b);
      const std::size_t tries = 2 * cell_edges.size() + 8;
      std::uint64_t state = 0;
      const auto next_fraction = [&state] {
        state += 0x9E3779B97F4A7C15ull;
        std::uint64_t z = state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return 0.05 + 0.9 * (double((z ^ (z >> 31)) >> 11) * 0x1p-53);
      };
      for (std::size_t k = 0; k < tries; ++k) {
        const double fx = k == 0 ? 0.5 : next_fraction();
        const double fy = k == 0 ? 0.5 : next_fraction();
        const Point c{cell.min.x + fx * cell.width(), cell.max.y - fy * cell.height()};
        reference[b] = c;
        bool on_edge = false;
        for (std::uint32_t e : cell_edges)
          if ((on_edge = exact::on_segment(edges[e].a, edges[e].b, c))) break;
        if (!on_edge) break;
      }
      if (x == 0) {
        bool on_boundary = false;
        reference_free[b] = ray_parity(reference[b], on_boundary, nullptr) ? 1 : 0;
        continue;
      }
      // The segment between the two references lies in the union of the two cells.
      const std::size_t a = b - 1;
      between.clear();
      for (std::size_t cell_id : {a, b})
        for (std::uint32_t e : grid.edges_in(cell_id)) between.push_back(e);
      std::sort(between.begin(), between.end());
      between.erase(std::unique(between.begin(), between.end()), between.end());
      bool flip = false;
      for (std::uint32_t e : between)
        if (crosses(reference[a], reference[b], e)) flip = !flip;
      reference_free[b] = reference_free[a] ^ (flip ? 1 : 0);
    }
  }
}

bool FreeSpace::Impl::ray_parity(Point p, bool& on_boundary, std::vector<std::uint32_t>* per_ring,
                                 std::uint32_t only_ring, double until_x) const {
  on_boundary = false;
  bool odd = false;
  const double end_x = std::min(box.max.x, until_x);
  if (box.empty() || p.x > end_x) return false;
  // The edges of the cells along the ray, each tested once: an edge in several cells is marked
  // with this walk's number when first met (a sort of the candidates cost more than the tests
  // when a ray crosses a whole map).
  thread_local std::vector<std::uint32_t> candidates, seen_in_walk;
  thread_local std::uint32_t walk = 0;
  if (seen_in_walk.size() < edges.size()) seen_in_walk.resize(edges.size(), walk);
  if (++walk == 0) std::fill(seen_in_walk.begin(), seen_in_walk.end(), walk++);
  candidates.clear();
  grid.walk(p, {end_x, p.y}, [&](std::size_t cell) {
    for (std::uint32_t e : grid.edges_in(cell)) {
      if (seen_in_walk[e] == walk) continue;
      seen_in_walk[e] = walk;
      candidates.push_back(e);
    }
    return false;
  });
  for (std::uint32_t e : candidates) {
    const Point u = edges[e].a, v = edges[e].b;
    if (std::max(u.x, v.x) < p.x || (only_ring != all_rings && edge_ring[e] != only_ring)) continue;
    if ((u.y > p.y) != (v.y > p.y)) {
      const int o = exact::orientation(u, v, p);
      if (o == 0) {
        on_boundary = true;
        return odd;
      }
      if ((o > 0) == (v.y > u.y)) {
        odd = !odd;
        if (per_ring) ++(*per_ring)[edge_ring[e]];
      }
    } else if (exact::on_segment(u, v, p)) {
      on_boundary = true;
      return odd;
    }
  }
  return odd;
}

void FreeSpace::Impl::join_components_at_pinches() {
  std::vector<std::uint32_t> parent(components);
  std::iota(parent.begin(), parent.end(), 0u);
  const auto find = [&](std::uint32_t c) {
    while (parent[c] != c) c = parent[c] = parent[parent[c]];
    return c;
  };
  // Rings meet only at vertices: sort the vertices with their components and join equal points.
  std::vector<std::pair<Point, std::uint32_t>> ends;
  ends.reserve(edges.size());
  for (std::size_t e = 0; e < edges.size(); ++e)
    ends.push_back({edges[e].a, rings[edge_ring[e]].component});
  std::sort(ends.begin(), ends.end(), [](const auto& l, const auto& r) {
    return l.first.x < r.first.x || (l.first.x == r.first.x && l.first.y < r.first.y);
  });
  for (std::size_t i = 1; i < ends.size(); ++i)
    if (ends[i].first == ends[i - 1].first) parent[find(ends[i].second)] = find(ends[i - 1].second);
  std::vector<std::uint32_t> label(components, std::uint32_t(-1));
  std::uint32_t next = 0;
  for (std::uint32_t c = 0; c < components; ++c)
    if (label[find(c)] == std::uint32_t(-1)) label[find(c)] = next++;
  for (BoundaryRing& ring : rings) ring.component = label[find(ring.component)];
  components = next;
}

void FreeSpace::Impl::label_components_by_nesting() {
  // Rings given directly (maps, meshes) come without component labels: an outer ring (counter-
  // clockwise) starts a component, and each hole belongs to the smallest outer ring around it.
  std::vector<std::uint32_t> outers;
  for (std::uint32_t r = 0; r < rings.size(); ++r) {
    rings[r].outer = exact::ring_orientation(rings[r].points) > 0;
    if (rings[r].outer) outers.push_back(r);
  }
  std::sort(outers.begin(), outers.end(),
            [&](std::uint32_t a, std::uint32_t b) { return ring_area[a] < ring_area[b]; });
  std::vector<Box> outer_boxes;
  for (std::uint32_t c = 0; c < outers.size(); ++c) {
    rings[outers[c]].component = c;
    outer_boxes.push_back(bounding_box(rings[outers[c]].points));
  }
  components = outers.size();
  // Whether outer ring c (of `outers`) holds the hole's first vertex not on it: the crossings of
  // a ray from that vertex, counted along the grid to the right side of the ring's box.
  const auto holds = [&](std::uint32_t c, const Ring& hole) {
    for (const Point& p : hole) {
      bool on_boundary = false;
      const bool odd = ray_parity(p, on_boundary, nullptr, outers[c], outer_boxes[c].max.x);
      if (!on_boundary) return odd;
    }
    return false;
  };
  // A hole lies inside an outer ring whose box holds its box (the rings bound free space): of
  // those, the last one left untested (the largest) holds it without a test. Most holes of a
  // map have one such ring, the map's outline.
  std::vector<std::uint32_t> around;
  for (BoundaryRing& ring : rings) {
    if (ring.outer) continue;
    ring.component = 0;
    const Box hole_box = bounding_box(ring.points);
    around.clear();
    for (std::uint32_t c = 0; c < outers.size(); ++c)
      if (outer_boxes[c].contains(hole_box)) around.push_back(c);
    for (std::size_t k = 0; k < around.size(); ++k) {
      // A hole may touch its outer ring at shared vertices; the first vertex that is not on
      // the outer ring decides. A hole with every vertex on this outer ring runs along it the
      // other way (walls closing off a room: the room inside is this ring's component, the hole
      // bounds the space around).
      if (k + 1 == around.size() || holds(around[k], ring.points)) {
        ring.component = around[k];
        break;
      }
    }
  }
}

FreeSpace::FreeSpace(const Scene& scene, FreeSpaceOptions options) : impl_(new Impl) {
  // Again here, not only at load: scenes built in code and radii given on the command line
  // reach FreeSpace without passing load_scene. The obstacles only where free space is built
  // from them (below).
  check_scale(scene, ScaleScope::without_obstacles);
  const BuildClock clock(options.max_build_seconds);
  // Checked here too: options set in code reach FreeSpace without the option tables' checks.
  const auto refuse = [&](const char* key, const std::string& what, double found) {
    throw InputError({scene.source.string(), 0, 0, key}, what + ", found " + number_text(found));
  };
  if (!(options.clearance_distance >= 0.0) || !std::isfinite(options.clearance_distance))
    refuse("space.clearance_distance", "the clearance distance must be a finite number >= 0",
           options.clearance_distance);
  if (!(options.clearance_factor >= 1.0) || !std::isfinite(options.clearance_factor))
    refuse("space.clearance_factor", "the clearance factor must be a finite number >= 1",
           options.clearance_factor);
  if (options.clearance_bands < 1 || options.clearance_bands > 16)
    refuse("space.clearance_bands", "the clearance bands must be from 1 to 16",
           options.clearance_bands);
  Impl& s = *impl_;
  s.max_build_seconds = options.max_build_seconds;
  s.agent = scene.agent;
  s.regions = scene.regions;
  s.original_bounds = scene.bounds;
  s.bounds_box = bounding_box(scene.bounds);
  s.native_cell_size = scene.native_cell_size;
  s.waypoints = scene.waypoints;
  if (scene.occupancy && scene.occupancy->yaw != 0.0) {
    const OccupancyMap& m = *scene.occupancy;
    s.map_frame = MapFrame{
        m.rotation(),
        {m.origin, {m.origin.x + m.resolution * m.width, m.origin.y + m.resolution * m.height}},
        m.resolution};
  }
  s.given_free_space = !scene.free_boundary.empty();
  s.tolerance =
      options.inflation_tolerance > 0.0 ? options.inflation_tolerance : 0.01 * scene.agent.radius;
  s.open_gaps = options.open_gaps;
  for (const Region& region : s.regions) {
    s.region_boxes.push_back(bounding_box(region.polygon));
    s.min_cost = std::min(s.min_cost, region.cost);
    s.has_heights = s.has_heights || region.height.has_value();
  }

  const std::optional<detail::SceneRaster> raster =
      scene.agent.radius > 0.0 ? detail::scene_raster(scene) : std::nullopt;
  if (options.inflation == Inflation::cells && scene.agent.radius > 0.0 && !raster)
    throw InputError({scene.source.string(), 0, 0, "space.inflation"},
                     "cells inflation needs a raster map (a ROS map or a MovingAI .map) for the "
                     "cells to grow; this scene has none: use space.inflation=exact or auto");
  if (raster && options.inflation != Inflation::exact) {
    // The map's own cells, grown on the raster: blocked cells stay blocked and nothing within
    // the radius of one is freed; what more is blocked lies within one cell diagonal.
    s.inflation = Inflation::cells;
    s.tolerance = std::sqrt(2.0) * raster->cell_size;
    for (Ring& ring : detail::inflated_raster_boundary(scene))
      s.rings.push_back({std::move(ring), 0, false});
    clock.check("free space");
    if (s.rings.empty())
      throw InputError({scene.source.string(), 0, 0, "agent.radius"},
                       "no free space is left: every cell of the map lies within the agent "
                       "radius " +
                           number_text(scene.agent.radius) +
                           " of a blocked cell or of the map's edge");
    s.build_edges();
    s.label_components_by_nesting();
    s.build_index();
  } else if (s.given_free_space && scene.agent.radius == 0.0) {
    s.mesh_faces = scene.mesh;
    for (const Ring& ring : scene.free_boundary) s.rings.push_back({ring, 0, false});
    if (scene.cell_map && !scene.occupancy && outline_of_free_cells(s.rings, *scene.cell_map)) {
      const CellMap& map = *scene.cell_map;
      MapCells& cells = s.map_cells.emplace();
      cells.width = map.width;
      cells.height = map.height;
      cells.blocked.resize((map.blocked.size() + 63) / 64);
      pack_nonzero_bytes(map.blocked.data(), map.blocked.size(), cells.blocked.data());
    }
    if (s.map_cells && !s.open_gaps) {
      s.label_cells(*scene.cell_map);  // the outline when a question needs it (outlined)
    } else {
      s.build_edges();
      s.label_components_by_nesting();
      s.build_index();
    }
  } else {
    check_scale(scene);
    if (s.given_free_space && scene.obstacles.empty())
      throw InputError({scene.source.string(), 0, 0, "agent.radius"},
                       "an agent radius > 0 is not supported yet for scenes whose free space is "
                       "given as a mesh; found radius " +
                           number_text(scene.agent.radius));
    std::size_t vertices = scene.bounds.size();
    for (const Obstacle& o : scene.obstacles) {
      vertices += o.shape.outer.size();
      for (const Ring& hole : o.shape.holes) vertices += hole.size();
    }
    if (scene.agent.radius > 0.0) {
      vertices += std::size_t(detail::circumscribed_sides(scene.agent.radius, s.tolerance)) *
                  (scene.obstacles.size() + 1);
    }
    if (vertices > options.max_vertices) {
      throw InputError({scene.source.string(), 0, 0, "space.max_vertices"},
                       "building free space would take " + std::to_string(vertices) +
                           " vertices through exact Boolean operations (" +
                           std::to_string(scene.obstacles.size()) +
                           " obstacles, each inflated by the agent's disc), more than the "
                           "budget of " +
                           std::to_string(options.max_vertices) +
                           "; their time grows faster than the vertices (about 40 s at 200,000): "
                           "raise it with --set space.max_vertices=N, or merge obstacles");
    }
    s.rings = detail::build_configuration_space(scene, s.tolerance, clock, options.reuse.get());
    clock.check("free space");
    std::uint32_t max_component = 0;
    for (const BoundaryRing& ring : s.rings)
      max_component = std::max(max_component, ring.component);
    s.components = s.rings.empty() ? 0 : max_component + 1;
    s.build_edges();
    s.build_index();
  }
  // A map's free space says itself why a point is blocked (its cell); other scenes keep their
  // obstacles to name the one a point lies in.
  if (!s.map_cells) {
    s.original_obstacles.reserve(scene.obstacles.size());
    for (const Obstacle& o : scene.obstacles)
      s.original_obstacles.push_back({o.shape, o.where.key_path});
  }
  if (options.clearance_distance > 0.0) s.build_clearance(scene, options);
}

FreeSpace::~FreeSpace() = default;
FreeSpace::FreeSpace(FreeSpace&&) noexcept = default;
FreeSpace& FreeSpace::operator=(FreeSpace&&) noexcept = default;

bool FreeSpace::is_free(Point p) const {
  const Impl& s = *impl_;
  if (s.cells) {
    bool free = false;
    s.for_each_cell_holding(p, [&](int x, int y) { free = free || s.cell_is_free(x, y); });
    return free;
  }
  // Written so that a NaN coordinate is outside too.
  if (s.edges.empty() ||
      !(p.x >= s.box.min.x && p.x <= s.box.max.x && p.y >= s.box.min.y && p.y <= s.box.max.y))
    return false;
  const std::size_t b = s.grid.cell(p);
  const Point c = s.reference[b];
  bool free = s.reference_free[b] != 0;
  for (std::uint32_t e : s.grid.edges_in(b)) {
    const Point u = s.edges[e].a, v = s.edges[e].b;
    if (!boxes_overlap(c, p, u, v)) continue;
    if (exact::on_segment(u, v, p)) return true;
    if (s.crosses(c, p, e)) free = !free;
  }
  return free;
}

bool FreeSpace::line_of_sight(Point a, Point b) const {
  const Impl& s = *impl_;
  if (a == b) return is_free(a);
  if (s.cells && s.cells_show_free(a, b)) return true;
  s.outlined();
  bool blocked = false;
  bool touched = false;  // the segment met the boundary (validly) somewhere
  // Ends of the segment strictly inside an edge, heading to its blocked side (right) or its free
  // side (left). The only other edge through such a point is the way back along a wall, which has
  // free space on the other side: an end on a wall may leave towards either.
  bool a_to_blocked = false, a_to_free = false, b_to_blocked = false, b_to_free = false;
  // Boundary vertices on the segment, judged below with every edge meeting there.
  thread_local std::vector<std::uint32_t> contacts;
  contacts.clear();

  const auto check_edge = [&](std::uint32_t e) {
    const Point u = s.edges[e].a, v = s.edges[e].b;
    if (!boxes_overlap(a, b, u, v)) return;
    const int ou = exact::orientation(a, b, u), ov = exact::orientation(a, b, v);
    if (ou * ov > 0) return;  // the edge lies strictly on one side of the segment's line
    const int oa = exact::orientation(u, v, a), ob = exact::orientation(u, v, b);
    if (ou * ov < 0 && oa * ob < 0) {  // proper crossing
      blocked = true;
      return;
    }
    // An end of the segment inside the edge (not at its vertices): the segment must leave
    // towards the free side (left) or run along the edge.
    const auto strictly_inside_edge = [&](Point p, int o) {
      return o == 0 && exact::collinear_between(u, v, p) && !(p == u) && !(p == v);
    };
    if (strictly_inside_edge(a, oa)) {
      touched = true;
      a_to_blocked = a_to_blocked || ob < 0;
      a_to_free = a_to_free || ob > 0;
    }
    if (strictly_inside_edge(b, ob)) {
      touched = true;
      b_to_blocked = b_to_blocked || oa < 0;
      b_to_free = b_to_free || oa > 0;
    }
    if (ou == 0 && exact::collinear_between(a, b, u)) contacts.push_back(s.stars.start_of(e));
    if (ov == 0 && exact::collinear_between(a, b, v)) contacts.push_back(s.stars.end_of(e));
  };
  // Cells in order from a: the first proper crossing ends the query. An edge spanning several
  // cells is tested once (a per-thread stamp per edge: measured 1.5x faster than testing it
  // again in every cell on visibility-graph builds).
  thread_local std::vector<std::uint32_t> seen;
  thread_local std::uint32_t stamp = 0;
  if (seen.size() < s.edges.size()) seen.resize(s.edges.size(), 0);
  if (++stamp == 0) {
    std::fill(seen.begin(), seen.end(), 0u);
    stamp = 1;
  }
  s.grid.walk(a, b, [&](std::size_t cell) {
    for (std::uint32_t e : s.grid.edges_in(cell)) {
      if (seen[e] == stamp) continue;
      seen[e] = stamp;
      check_edge(e);
      if (blocked) return true;
    }
    return false;
  });
  if (blocked || (a_to_blocked && !a_to_free) || (b_to_blocked && !b_to_free)) return false;

  std::sort(contacts.begin(), contacts.end());
  contacts.erase(std::unique(contacts.begin(), contacts.end()), contacts.end());
  thread_local std::vector<detail::Ray> star;
  for (std::uint32_t vertex : contacts) {
    const Point v = s.stars.position(vertex);
    const std::span<const detail::Ray> rays = s.stars.rays(vertex, star);
    if (rays.empty()) continue;
    const bool passes = v == a   ? detail::free_direction(v, b, rays)
                        : v == b ? detail::free_direction(v, a, rays)
                                 : detail::passes_through(a, b, v, rays, s.open_gaps);
    if (!passes) return false;
    touched = true;
  }
  // With no contact the segment lies inside one face of the arrangement: free iff a is.
  return touched || is_free(a);
}

bool FreeSpace::turn_is_free(Point from, Point w, Point to) const {
  const Impl& s = *impl_;
  // Inside a free cell's open square w is not on the boundary.
  if (s.cells && w.x != std::floor(w.x) && w.y != std::floor(w.y)) {
    bool inside = false;
    s.for_each_cell_holding(w, [&](int x, int y) { inside = s.cell_is_free(x, y); });
    if (inside) return true;
  }
  s.outlined();
  if (s.grid.empty()) return true;
  // Inside an edge the boundary continues both ways. Rings meet only at vertices, so the only
  // other edge through such a point is the way back along a wall.
  detail::Ray rays[4];
  std::size_t count = 0;
  thread_local std::vector<detail::Ray> star;
  for (std::uint32_t e : s.grid.edges_in(s.grid.cell(w))) {
    const Point u = s.edges[e].a, v = s.edges[e].b;
    if (u == w)
      return detail::turn_is_free(from, w, to, s.stars.rays(s.stars.start_of(e), star),
                                  s.open_gaps);
    if (v == w)
      return detail::turn_is_free(from, w, to, s.stars.rays(s.stars.end_of(e), star), s.open_gaps);
    if (count < 4 && exact::on_segment(u, v, w)) {
      rays[count++] = {v, true};
      rays[count++] = {u, false};
    }
  }
  if (count == 0) return true;  // w is not on the boundary
  return detail::turn_is_free(from, w, to, std::span<const detail::Ray>(rays, count), s.open_gaps);
}

BoxClass FreeSpace::classify(const Box& box) const {
  const Impl& s = impl_->outlined();
  if (!(box.min.x < box.max.x && box.min.y < box.max.y)) return BoxClass::mixed;
  bool mixed = false;
  s.grid.for_each_cell(box, [&](std::size_t cell) {
    if (mixed) return;
    for (std::uint32_t e : s.grid.edges_in(cell))
      if ((mixed = exact::meets_open_box(s.edges[e].a, s.edges[e].b, box))) return;
  });
  if (mixed) return BoxClass::mixed;
  // No edge meets the open box: it lies in one face of the arrangement, which its centre names.
  const Point centre{box.min.x + 0.5 * box.width(), box.min.y + 0.5 * box.height()};
  if (!(box.min.x < centre.x && centre.x < box.max.x && box.min.y < centre.y &&
        centre.y < box.max.y))
    return BoxClass::mixed;  // too small a box to name an interior point
  return is_free(centre) ? BoxClass::free : BoxClass::blocked;
}

BoxClass FreeSpace::classify(std::span<const Point> corners) const {
  const Impl& s = impl_->outlined();
  if (corners.size() < 3) return BoxClass::mixed;
  Box bound{corners[0], corners[0]};
  Point sum{0.0, 0.0};
  for (const Point& c : corners) {
    bound.min = {std::min(bound.min.x, c.x), std::min(bound.min.y, c.y)};
    bound.max = {std::max(bound.max.x, c.x), std::max(bound.max.y, c.y)};
    sum = {sum.x + c.x, sum.y + c.y};
  }
  bool mixed = false;
  s.grid.for_each_cell(bound, [&](std::size_t cell) {
    if (mixed) return;
    for (std::uint32_t e : s.grid.edges_in(cell))
      if ((mixed = exact::meets_open_convex(s.edges[e].a, s.edges[e].b, corners))) return;
  });
  if (mixed) return BoxClass::mixed;
  // No edge meets the open polygon: it lies in one face, which an interior point names. The mean
  // of the corners is one unless rounding put it on a side (a polygon too thin to matter).
  const double n = double(corners.size());
  const Point centre{sum.x / n, sum.y / n};
  if (!exact::meets_open_convex(centre, centre, corners)) return BoxClass::mixed;
  return is_free(centre) ? BoxClass::free : BoxClass::blocked;
}

std::vector<std::uint8_t> FreeSpace::free_cells(const CellFrame& frame) const {
  return free_cells(frame, CellWindow{0, 0, std::max(frame.columns, 0), std::max(frame.rows, 0)});
}

std::vector<std::uint8_t> FreeSpace::free_cells(const CellFrame& frame,
                                                const CellWindow& window) const {
  const std::size_t columns = std::size_t(std::max(window.x1 - window.x0, 0));
  const std::size_t rows = std::size_t(std::max(window.y1 - window.y0, 0));
  if (frame.rotated()) {
    const std::vector<std::uint8_t> whole = free_rotated_cells(frame);
    std::vector<std::uint8_t> free(columns * rows, 0);
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < columns; ++c)
        free[r * columns + c] = whole[(std::size_t(window.y0) + r) * std::size_t(frame.columns) +
                                      std::size_t(window.x0) + c];
    return free;
  }
  const Impl& s = *impl_;
  std::vector<std::uint8_t> free(columns * rows, 0);
  if (free.empty()) return free;
  // The map's own cells, where free space is the outline of the map's free cells: a cell lies
  // wholly in free space exactly when the map has it free (map_cells).
  if (const std::optional<MapCells>& map = s.map_cells;
      map && frame.origin == Point{0.0, 0.0} && frame.side == 1.0 && frame.columns <= map->width &&
      frame.rows <= map->height) {
    for (std::size_t r = 0; r < rows; ++r) {
      // The row's bits in order: map row height - 1 - y, from column x0.
      const int y = window.y0 + int(r);
      const std::size_t first =
          std::size_t(map->height - 1 - y) * std::size_t(map->width) + std::size_t(window.x0);
      std::uint8_t* out = free.data() + r * columns;
      // Eight cells at a time: their bits (which may straddle two words), spread to bytes.
      for (std::size_t c = 0; c < columns; c += 8) {
        const std::size_t bit = first + c, word = bit / 64, shift = bit % 64;
        std::uint64_t blocked = map->blocked[word] >> shift;
        if (shift > 56 && word + 1 < map->blocked.size())
          blocked |= map->blocked[word + 1] << (64 - shift);
        const std::uint64_t bytes = byte_per_bit(unsigned(~blocked));
        if (columns - c >= 8) {
          std::memcpy(out + c, &bytes, 8);  // one store
        } else {
          std::memcpy(out + c, &bytes, columns - c);
        }
      }
    }
    return free;
  }
  s.outlined();
  // The window as a frame of its own, whose cells are still computed from the whole frame's
  // origin (origin + (x0 + c) side, not a shifted origin + c side), so they are the very boxes
  // the whole frame has.
  const auto cell_of_window = [&](std::size_t r, std::size_t c) {
    return frame.cell(window.x0 + int(c), window.y0 + int(r));
  };
  // Only edges that come within a cell of the window can meet its cells' open squares or lie on
  // their sides (for_each_cell_near widens by a cell for rounding); the box test is exact.
  const Box near{{frame.origin.x + (window.x0 - 1) * frame.side,
                  frame.origin.y + (window.y0 - 1) * frame.side},
                 {frame.origin.x + (window.x1 + 1) * frame.side,
                  frame.origin.y + (window.y1 + 1) * frame.side}};
  const bool whole =
      window.x0 == 0 && window.y0 == 0 && window.x1 == frame.columns && window.y1 == frame.rows;
  CellFrame local = frame;
  local.origin = {frame.origin.x + window.x0 * frame.side, frame.origin.y + window.y0 * frame.side};
  // 1. Cells whose open square a boundary edge meets are mixed (decided exactly). 2. A vertical
  // edge lying on the side between two cells of a row separates them. 3. Any other two
  // neighbours in a row share one face of the arrangement, so each run of such cells takes the
  // status of its first cell's centre (a run cut by the window's side takes its first cell in
  // the window's: the same face).
  std::vector<std::uint8_t> mixed(free.size(), 0), separated(free.size(), 0);
  const double side = frame.side;
  for (const Segment& e : s.edges) {
    const Point u = e.a, v = e.b;
    if (u == v) continue;
    if (!whole && (std::max(u.x, v.x) < near.min.x || std::min(u.x, v.x) > near.max.x ||
                   std::max(u.y, v.y) < near.min.y || std::min(u.y, v.y) > near.max.y))
      continue;
    const double y_low = std::min(u.y, v.y), y_high = std::max(u.y, v.y);
    // Rows and columns near the edge are found in the window's own frame (rounded, then widened
    // by a cell); the tests use the whole frame's cells.
    for_each_cell_near(local, rows, columns, u, v,
                       [&](std::size_t r, std::size_t c, double, double) {
                         const std::size_t id = r * columns + c;
                         const Box cell = cell_of_window(r, c);
                         if (!mixed[id] && exact::meets_open_box(u, v, cell)) mixed[id] = 1;
                         // A vertical edge along this cell's left side, over part of it.
                         if (u.x == v.x && u.x == cell.min.x &&
                             std::max(y_low, cell.min.y) < std::min(y_high, cell.max.y))
                           separated[id] = 1;
                       });
  }
  for (std::size_t r = 0; r < rows; ++r) {
    bool run_free = false;
    bool in_run = false;
    for (std::size_t c = 0; c < columns; ++c) {
      const std::size_t id = r * columns + c;
      if (mixed[id]) {
        in_run = false;
        continue;
      }
      if (!in_run || separated[id]) {
        const Box cell = cell_of_window(r, c);
        const Point centre{cell.min.x + 0.5 * side, cell.min.y + 0.5 * side};
        run_free = cell.min.x < centre.x && centre.x < cell.max.x && cell.min.y < centre.y &&
                   centre.y < cell.max.y && is_free(centre);
        in_run = true;
      }
      free[id] = run_free ? 1 : 0;
    }
  }
  return free;
}

std::vector<std::uint8_t> FreeSpace::free_rotated_cells(const CellFrame& frame) const {
  // As free_cells does for upright cells, with each cell the quadrilateral of its corners in
  // the scene. Which cells an edge may meet is found in the frame's coordinates (Rotation::undo,
  // rounded, so widened by a cell on each side); whether it meets one is decided exactly on the
  // corners, which are the very points a rotated map's outline has.
  const Impl& s = impl_->outlined();
  const std::size_t columns = std::size_t(std::max(frame.columns, 0));
  const std::size_t rows = std::size_t(std::max(frame.rows, 0));
  std::vector<std::uint8_t> free(columns * rows, 0);
  if (free.empty()) return free;
  std::vector<std::uint8_t> mixed(free.size(), 0), separated(free.size(), 0);
  for (const Segment& e : s.edges) {
    if (e.a == e.b) continue;
    for_each_cell_near(frame, rows, columns, frame.rotation.undo(e.a), frame.rotation.undo(e.b),
                       [&](std::size_t r, std::size_t c, double, double) {
                         const std::size_t id = r * columns + c;
                         const std::array<Point, 4> quad = frame.quad(int(c), int(r));
                         if (!mixed[id] && exact::meets_open_convex(e.a, e.b, quad)) mixed[id] = 1;
                         // An edge along this cell's left side (quad[3] -> quad[0]), over part of
                         // it.
                         const Point low = quad[0], high = quad[3];
                         if (!separated[id] && exact::orientation(low, high, e.a) == 0 &&
                             exact::orientation(low, high, e.b) == 0) {
                           // Collinear: compare positions along the side by a coordinate that
                           // changes along it.
                           const bool by_x = low.x != high.x;
                           const auto along = [by_x](Point p) { return by_x ? p.x : p.y; };
                           const double side_lo = std::min(along(low), along(high)),
                                        side_hi = std::max(along(low), along(high));
                           const double edge_lo = std::min(along(e.a), along(e.b)),
                                        edge_hi = std::max(along(e.a), along(e.b));
                           if (std::max(side_lo, edge_lo) < std::min(side_hi, edge_hi))
                             separated[id] = 1;
                         }
                       });
  }
  for (std::size_t r = 0; r < rows; ++r) {
    bool run_free = false;
    bool in_run = false;
    for (std::size_t c = 0; c < columns; ++c) {
      const std::size_t id = r * columns + c;
      if (mixed[id]) {
        in_run = false;
        continue;
      }
      if (!in_run || separated[id]) {
        const std::array<Point, 4> quad = frame.quad(int(c), int(r));
        const Point centre = frame.centre(int(c), int(r));
        bool inside = true;
        for (std::size_t k = 0; k < 4 && inside; ++k)
          inside = exact::orientation(quad[k], quad[(k + 1) % 4], centre) > 0;
        run_free = inside && is_free(centre);
        in_run = true;
      }
      free[id] = run_free ? 1 : 0;
    }
  }
  return free;
}

std::optional<Point> FreeSpace::nearest_free(Point p) const {
  const Impl& s = impl_->outlined();
  if (is_free(p)) return p;
  if (s.edges.empty()) return std::nullopt;
  // The nearest point of F lies on its boundary: search the grid's cells in rings around p until
  // no unseen edge can be closer, and project; the projection is rounded, so nudge it towards
  // the free side until it tests free.
  double best = std::numeric_limits<double>::infinity();
  std::uint32_t best_edge = 0;
  Point best_point;
  s.grid.spiral(p, [&](std::size_t cell, int ring) {
    if (best < s.grid.ring_distance(ring)) return true;
    for (std::uint32_t e : s.grid.edges_in(cell)) {
      const Point q = closest_on_segment(s.edges[e].a, s.edges[e].b, p);
      if (distance(p, q) < best) {
        best = distance(p, q);
        best_edge = e;
        best_point = q;
      }
    }
    return false;
  });
  const Segment& e = s.edges[best_edge];
  const Point along = e.b - e.a;
  const Point left = (1.0 / norm(along)) * Point{-along.y, along.x};
  const double scale = std::max({std::abs(best_point.x), std::abs(best_point.y), 1.0});
  for (double step = 0.0; step < 1e-3 * scale; step = step == 0.0 ? 1e-14 * scale : step * 4.0) {
    const Point q = best_point + step * left;
    if (is_free(q)) return q;
  }
  if (is_free(e.a)) return e.a;
  return std::nullopt;
}

double FreeSpace::clearance(Point a, Point b) const {
  const Impl& s = impl_->outlined();
  if (s.edges.empty()) return std::numeric_limits<double>::infinity();
  // Distance between two segments that do not cross: the least of the four endpoint-to-segment
  // distances; 0 when they cross or touch.
  const auto segment_distance = [](Point p, Point q, Point u, Point v) {
    const double d1 = cross(q - p, u - p), d2 = cross(q - p, v - p);
    const double d3 = cross(v - u, p - u), d4 = cross(v - u, q - u);
    if (((d1 < 0 && d2 > 0) || (d1 > 0 && d2 < 0)) && ((d3 < 0 && d4 > 0) || (d3 > 0 && d4 < 0)))
      return 0.0;
    return std::min(
        {distance(p, closest_on_segment(u, v, p)), distance(q, closest_on_segment(u, v, q)),
         distance(u, closest_on_segment(p, q, u)), distance(v, closest_on_segment(p, q, v))});
  };
  // Every edge within distance r of ab meets ab's box grown by r, so it is listed in a cell
  // there: grow r until the best distance found is within it.
  const Box whole = s.box;
  const double extent = std::max(whole.max.x - whole.min.x, whole.max.y - whole.min.y);
  double best = std::numeric_limits<double>::infinity();
  for (double r = extent / std::max(s.grid.columns(), 1);; r *= 2.0) {
    const Box grown{{std::min(a.x, b.x) - r, std::min(a.y, b.y) - r},
                    {std::max(a.x, b.x) + r, std::max(a.y, b.y) + r}};
    s.grid.for_each_cell(grown, [&](std::size_t cell) {
      for (std::uint32_t e : s.grid.edges_in(cell))
        best = std::min(best, segment_distance(a, b, s.edges[e].a, s.edges[e].b));
    });
    const bool covers = grown.min.x <= whole.min.x && grown.min.y <= whole.min.y &&
                        grown.max.x >= whole.max.x && grown.max.y >= whole.max.y;
    if (best <= r || covers) return best;
  }
}

std::optional<std::uint32_t> FreeSpace::component(Point p) const {
  const Impl& s = *impl_;
  if (s.cells) {
    const std::vector<std::uint32_t> all = components(p);
    return all.empty() ? std::nullopt : std::optional(all.front());
  }
  thread_local std::vector<std::uint32_t> per_ring;
  per_ring.assign(s.rings.size(), 0);
  bool on_boundary = false;
  const bool odd = s.ray_parity(p, on_boundary, &per_ring);
  if (on_boundary) {
    // A boundary point belongs to the component of a ring through it.
    for (std::uint32_t e : s.grid.edges_in(s.grid.cell(p)))
      if (exact::on_segment(s.edges[e].a, s.edges[e].b, p))
        return s.rings[s.edge_ring[e]].component;
    return std::nullopt;
  }
  if (!odd) return std::nullopt;
  // The innermost ring around p (smallest area among those crossed an odd number of times) is
  // the outer ring of p's component.
  std::optional<std::uint32_t> innermost;
  for (std::uint32_t r = 0; r < s.rings.size(); ++r)
    if (per_ring[r] % 2 == 1 && (!innermost || s.ring_area[r] < s.ring_area[*innermost]))
      innermost = r;
  if (!innermost) return std::nullopt;
  return s.rings[*innermost].component;
}

std::vector<std::uint32_t> FreeSpace::components(Point p) const {
  const Impl& s = *impl_;
  std::vector<std::uint32_t> out;
  if (s.cells) {
    // The components of the free cells holding p: one, or at a point where cells of several
    // meet (a corner two blocked cells touch), each.
    s.for_each_cell_holding(p, [&](int x, int y) {
      if (s.cell_is_free(x, y)) out.push_back(s.cell_component(x, y));
    });
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }
  if (s.edges.empty() ||
      !(p.x >= s.box.min.x && p.x <= s.box.max.x && p.y >= s.box.min.y && p.y <= s.box.max.y))
    return out;
  // A boundary point: the components of every ring through it (components meet only at points
  // on their rings).
  for (std::uint32_t e : s.grid.edges_in(s.grid.cell(p)))
    if (exact::on_segment(s.edges[e].a, s.edges[e].b, p))
      out.push_back(s.rings[s.edge_ring[e]].component);
  if (out.empty()) {
    if (const std::optional<std::uint32_t> c = component(p)) out.push_back(*c);
    return out;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool FreeSpace::open_gaps() const {
  return impl_->open_gaps;
}

double FreeSpace::max_build_seconds() const {
  return impl_->max_build_seconds;
}

std::size_t FreeSpace::component_count() const {
  return impl_->components;
}

std::string FreeSpace::explain_blocked(Point p) const {
  if (is_free(p)) return {};
  const Impl& s = *impl_;
  std::ostringstream out;
  if (exact::side_of_ring(s.original_bounds, p) != exact::Side::inside &&
      exact::side_of_ring(s.original_bounds, p) != exact::Side::boundary)
    return "outside the bounds";
  if (const std::optional<MapCells>& map = s.map_cells) {
    // Free space is the map's free cells, closed: p lies in the open square of a blocked cell,
    // or on sides that only blocked cells share. Named as the map's files do: column x and row
    // y counted from the top.
    const int x = std::clamp(int(std::floor(p.x)), 0, map->width - 1);
    const int y = std::clamp(int(std::floor(p.y)), 0, map->height - 1);
    out << "in blocked map cell (" << x << ", " << map->height - 1 - y << ")";
    return out.str();
  }
  if (s.given_free_space && s.original_obstacles.empty())
    return "outside the free space the scene defines";
  double nearest = std::numeric_limits<double>::infinity();
  std::size_t nearest_index = 0;
  for (std::size_t i = 0; i < s.original_obstacles.size(); ++i) {
    const Polygon& shape = s.original_obstacles[i].shape;
    bool in_hole = false;
    for (const Ring& hole : shape.holes)
      in_hole = in_hole || exact::side_of_ring(hole, p) == exact::Side::inside;
    if (exact::side_of_ring(shape.outer, p) != exact::Side::outside && !in_hole) {
      const std::string& key = s.original_obstacles[i].key_path;
      return "inside " + (key.empty() ? "obstacle " + std::to_string(i) : key);
    }
    const auto ring_distance = [&](const Ring& ring) {
      double d = std::numeric_limits<double>::infinity();
      for (std::size_t k = 0; k < ring.size(); ++k)
        d = std::min(d, distance(p, closest_on_segment(ring[k], ring[(k + 1) % ring.size()], p)));
      return d;
    };
    double d = ring_distance(shape.outer);
    for (const Ring& hole : shape.holes) d = std::min(d, ring_distance(hole));
    if (d < nearest) {
      nearest = d;
      nearest_index = i;
    }
  }
  out << "within the agent radius " << s.agent.radius << " of ";
  if (nearest <= s.agent.radius + s.tolerance && !s.original_obstacles.empty()) {
    const std::string& key = s.original_obstacles[nearest_index].key_path;
    out << (key.empty() ? "obstacle " + std::to_string(nearest_index) : key);
  } else {
    out << "the bounds";
  }
  return out.str();
}

const std::vector<BoundaryRing>& FreeSpace::boundary() const {
  return impl_->outlined().rings;
}
void FreeSpace::prepare_outline() const {
  impl_->outlined();
}
std::size_t FreeSpace::edge_count() const {
  return impl_->outlined().edges.size();
}
Box FreeSpace::box() const {
  return impl_->box;
}
double FreeSpace::area() const {
  return impl_->area;
}
double FreeSpace::min_cost() const {
  return impl_->min_cost;
}
bool FreeSpace::has_heights() const {
  return impl_->has_heights;
}
const Agent& FreeSpace::agent() const {
  return impl_->agent;
}
const std::vector<Region>& FreeSpace::regions() const {
  return impl_->regions;
}
double FreeSpace::inflation_tolerance() const {
  return impl_->tolerance;
}
Inflation FreeSpace::inflation() const {
  return impl_->inflation;
}
double FreeSpace::agent_radius() const {
  return impl_->agent.radius;
}
std::vector<Box> FreeSpace::edit_extent(const FreeSpace& before,
                                        std::span<const Box> changed) const {
  const double reach = std::max(edit_reach(), before.edit_reach());
  std::vector<Box> extent;
  for (const Box& b : changed)
    extent.push_back({{b.min.x - reach, b.min.y - reach}, {b.max.x + reach, b.max.y + reach}});
  const std::size_t grown = extent.size();
  const auto near = [&](Point p) {
    for (std::size_t k = 0; k < grown; ++k)
      if (p.x >= extent[k].min.x && p.x <= extent[k].max.x && p.y >= extent[k].min.y &&
          p.y <= extent[k].max.y)
        return true;
    return false;
  };
  const auto add_edges = [&](const std::vector<BoundaryRing>& rings) {
    for (const BoundaryRing& ring : rings)
      for (std::size_t i = 0; i < ring.points.size(); ++i) {
        const Point u = ring.points[i], v = ring.points[(i + 1) % ring.points.size()];
        if (!near(u) && !near(v)) continue;
        const Box edge{{std::min(u.x, v.x), std::min(u.y, v.y)},
                       {std::max(u.x, v.x), std::max(u.y, v.y)}};
        // Most such edges lie within the grown boxes already.
        bool inside = false;
        for (std::size_t k = 0; k < grown && !inside; ++k) inside = extent[k].contains(edge);
        if (!inside) extent.push_back(edge);
      }
  };
  for (const FreeSpace* space : {&before, this}) {
    add_edges(space->boundary());
    for (const FreeSpace& level : space->impl_->clearance_levels) add_edges(level.boundary());
  }
  return extent;
}

double FreeSpace::edit_reach() const {
  // Each clearance band's free space grows the obstacles by a larger disc, with its own
  // tolerance; the last band's reaches farthest.
  double reach = impl_->agent.radius > 0.0 ? impl_->agent.radius + impl_->tolerance : 0.0;
  for (const FreeSpace& level : impl_->clearance_levels)
    reach = std::max(reach, level.edit_reach());
  return reach;
}
Box FreeSpace::bounds_box() const {
  return impl_->bounds_box;
}
std::optional<double> FreeSpace::native_cell_size() const {
  return impl_->native_cell_size;
}
const MapCells* FreeSpace::map_cells() const {
  return impl_->map_cells ? &*impl_->map_cells : nullptr;
}
const std::optional<MapFrame>& FreeSpace::map_frame() const {
  return impl_->map_frame;
}
const MeshFaces* FreeSpace::mesh_faces() const {
  return impl_->mesh_faces.get();
}
const std::optional<Waypoints>& FreeSpace::waypoints() const {
  return impl_->waypoints;
}
const std::vector<Corner>& FreeSpace::corners() const {
  const Impl& s = impl_->outlined();
  std::call_once(s.corners_once, [&s] {
    std::vector<std::uint32_t> edge_component(s.edges.size());
    for (std::size_t e = 0; e < s.edges.size(); ++e)
      edge_component[e] = s.rings[s.edge_ring[e]].component;
    s.corners = s.stars.corners(edge_component, s.open_gaps);
  });
  return s.corners;
}

}  // namespace polynav
