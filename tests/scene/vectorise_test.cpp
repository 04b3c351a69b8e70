// Vectorised raster maps: the simplified outline contains every blocked cell (checked exactly
// through FreeSpace on every cell), keeps every free cell whose centre is farther than the
// tolerance from all blocked cells, and agrees with the obstacles (rectangles and fills) the
// scene carries for a disc agent and for conversion. On the bundled ROS and MovingAI maps, the
// full ROS maps when ../shared/data is present, and seeded random cell maps.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "../../src/scene/free_boundary_trace.hpp"
#include "../../src/scene/vectorise.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

// A raster scene seen as cells: which are blocked, and the closed square of each.
struct Raster {
  int width = 0;
  int height = 0;
  Point origin;
  double cell = 1.0;
  std::vector<unsigned char> blocked;  // row-major from the top row

  bool is_blocked(int cx, int cy) const {
    if (cx < 0 || cy < 0 || cx >= width || cy >= height) return true;  // outside: the wall
    return blocked[std::size_t(cy) * std::size_t(width) + std::size_t(cx)] != 0;
  }
  Box box(int cx, int cy) const {
    return {{origin.x + cell * cx, origin.y + cell * (height - 1 - cy)},
            {origin.x + cell * (cx + 1), origin.y + cell * (height - cy)}};
  }
};

Raster raster_of(const Scene& scene) {
  Raster r;
  if (scene.occupancy) {
    const OccupancyMap& m = *scene.occupancy;
    r = {m.width, m.height, m.origin, m.resolution, {}};
    for (const OccupancyMap::Cell c : m.cells) {
      r.blocked.push_back(c == OccupancyMap::Cell::occupied ||
                          (c == OccupancyMap::Cell::unknown && !m.unknown_free));
    }
  } else {
    const CellMap& m = *scene.cell_map;
    r = {m.width, m.height, {0, 0}, 1.0, m.blocked};
  }
  return r;
}

double distance_to_box(Point p, const Box& b) {
  const double dx = std::max({b.min.x - p.x, 0.0, p.x - b.max.x});
  const double dy = std::max({b.min.y - p.y, 0.0, p.y - b.max.y});
  return std::hypot(dx, dy);
}

// Distance from a point to the nearest blocked cell or to the outside of the map.
double distance_to_blocked(const Raster& r, Point p, int cx, int cy, int reach) {
  double best = INFINITY;
  for (int y = cy - reach; y <= cy + reach; ++y) {
    for (int x = cx - reach; x <= cx + reach; ++x) {
      if (r.is_blocked(x, y)) best = std::min(best, distance_to_box(p, r.box(x, y)));
    }
  }
  return best;
}

Point centre(const Box& b) {
  return {(b.min.x + b.max.x) / 2, (b.min.y + b.max.y) / 2};
}

// The guarantees of a vectorised map with tolerance `tolerance`.
void expect_conservative(const Scene& scene, double tolerance) {
  const Raster r = raster_of(scene);
  const FreeSpace space(scene);
  const int reach = int(std::ceil(tolerance / r.cell)) + 1;
  std::size_t blocked = 0, far = 0;
  for (int cy = 0; cy < r.height; ++cy) {
    for (int cx = 0; cx < r.width; ++cx) {
      const Box box = r.box(cx, cy);
      const Point c = centre(box);
      if (r.is_blocked(cx, cy)) {
        ++blocked;
        // No point of the open cell is free, its centre included; and the points a quarter of
        // the way from each corner to the centre (near the corners) are not free either.
        ASSERT_EQ(space.classify(box), BoxClass::blocked) << "blocked cell " << cx << ", " << cy;
        ASSERT_FALSE(space.is_free(c));
        for (const Point k :
             {box.min, box.max, Point{box.min.x, box.max.y}, Point{box.max.x, box.min.y}}) {
          ASSERT_FALSE(space.is_free(k + 0.25 * (c - k))) << "cell " << cx << ", " << cy;
        }
        continue;
      }
      if (tolerance == 0.0) {
        ASSERT_EQ(space.classify(box), BoxClass::free) << "free cell " << cx << ", " << cy;
        continue;
      }
      if (distance_to_blocked(r, c, cx, cy, reach) > tolerance) {
        ++far;
        ASSERT_TRUE(space.is_free(c)) << "free cell " << cx << ", " << cy << " was lost";
      }
    }
  }
  EXPECT_GT(blocked, 0u);
}

// The obstacles (rectangles of blocked cells plus fills) describe the same blocked set as the
// free boundary: a scene of them alone, whose free space CGAL computes, agrees on every cell
// centre, corner and side midpoint, and on every vertex and edge midpoint of the boundary.
void expect_obstacles_agree(const Scene& scene) {
  Scene obstacles_only = scene;
  obstacles_only.free_boundary.clear();
  obstacles_only.cell_map.reset();
  const FreeSpace given(scene);
  const FreeSpace computed(obstacles_only);
  EXPECT_NEAR(given.area(), computed.area(), 1e-9 * std::max(1.0, given.area()));
  const Raster r = raster_of(scene);
  for (int cy = 0; cy < r.height; ++cy) {
    for (int cx = 0; cx < r.width; ++cx) {
      const Box b = r.box(cx, cy);
      for (const Point p : {centre(b), b.min, Point{b.min.x, (b.min.y + b.max.y) / 2}}) {
        ASSERT_EQ(given.is_free(p), computed.is_free(p)) << p.x << ", " << p.y;
      }
    }
  }
  for (const Ring& ring : scene.free_boundary) {
    for (std::size_t i = 0; i < ring.size(); ++i) {
      // The midpoint as rounded may lie a hair off the edge, on either side: both must agree.
      const Point mid = 0.5 * (ring[i] + ring[(i + 1) % ring.size()]);
      ASSERT_TRUE(computed.is_free(ring[i]));
      ASSERT_EQ(given.is_free(mid), computed.is_free(mid)) << mid.x << ", " << mid.y;
    }
  }
}

std::size_t vertex_count(const std::vector<Ring>& rings) {
  std::size_t n = 0;
  for (const Ring& r : rings) n += r.size();
  return n;
}

std::vector<fs::path> raster_maps(bool include_shared) {
  std::vector<fs::path> maps;
  for (const char* sub : {"ros", "movingai"}) {
    for (const auto& e : fs::directory_iterator(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / sub)) {
      const std::string ext = e.path().extension().string();
      if (ext == ".yaml" || ext == ".map") maps.push_back(e.path());
    }
  }
  const fs::path shared = fs::path(POLYNAV_SHARED_DATA) / "ros";
  if (include_shared && fs::exists(shared)) {
    for (const auto& e : fs::recursive_directory_iterator(shared)) {
      if (e.path().extension() == ".yaml") maps.push_back(e.path());
    }
  }
  std::sort(maps.begin(), maps.end());
  return maps;
}

TEST(Vectorise, BundledMapsStayConservativeAtEveryTolerance) {
  for (const fs::path& path : raster_maps(false)) {
    const double cell = load_scene(path).native_cell_size.value();
    for (const double factor : {0.0, 0.5, 1.0, 1.5, 3.0}) {
      SCOPED_TRACE(path.filename().string() + " tolerance " + std::to_string(factor) + " cells");
      const Scene scene = load_scene(path, {.simplify = factor * cell});
      ASSERT_TRUE(scene.vectorisation.has_value());
      EXPECT_EQ(scene.vectorisation->vertices, vertex_count(scene.free_boundary));
      EXPECT_LE(scene.vectorisation->vertices, scene.vectorisation->traced_vertices);
      if (factor == 0.0) {
        EXPECT_EQ(scene.vectorisation->vertices, scene.vectorisation->traced_vertices);
      }
      expect_conservative(scene, factor * cell);
      if (!HasFatalFailure()) expect_obstacles_agree(scene);
    }
  }
}

TEST(Vectorise, SimplificationDropsVerticesOnRealMaps) {
  for (const fs::path& path : raster_maps(true)) {
    if (path.extension() != ".yaml") continue;
    SCOPED_TRACE(path.string());
    const double cell = load_scene(path).native_cell_size.value();
    const Scene scene = load_scene(path, {.simplify = 1.5 * cell});
    EXPECT_LT(scene.vectorisation->vertices, scene.vectorisation->traced_vertices);
    EXPECT_GT(scene.vectorisation->fills, 0u);
  }
}

TEST(Vectorise, FullRosMapsStayConservative) {
  const fs::path shared = fs::path(POLYNAV_SHARED_DATA) / "ros";
  if (!fs::exists(shared)) GTEST_SKIP() << "no full ROS maps: " << shared << " is absent";
  for (const fs::path& path : raster_maps(true)) {
    if (path.string().rfind(shared.string(), 0) != 0) continue;
    const double cell = load_scene(path).native_cell_size.value();
    for (const double factor : {0.0, 1.0, 2.0}) {
      SCOPED_TRACE(path.string() + " tolerance " + std::to_string(factor) + " cells");
      expect_conservative(load_scene(path, {.simplify = factor * cell}), factor * cell);
    }
  }
}

// Seeded random maps: scattered cells, diagonal walls (which pinch free space at cell corners)
// and rooms, so that rings touch each other and themselves.
CellMap random_map(std::uint32_t seed, int width, int height) {
  std::mt19937 rng(seed);
  CellMap m;
  m.width = width;
  m.height = height;
  m.blocked.assign(std::size_t(width) * std::size_t(height), 0);
  const auto set = [&](int x, int y) {
    if (x >= 0 && y >= 0 && x < width && y < height) m.blocked[std::size_t(y) * width + x] = 1;
  };
  std::uniform_int_distribution<int> xs(0, width - 1), ys(0, height - 1), len(3, 12), dir(0, 3);
  for (int i = 0; i < width * height / 12; ++i) set(xs(rng), ys(rng));
  for (int w = 0; w < 6; ++w) {
    int x = xs(rng), y = ys(rng);
    const int dx = dir(rng) % 2 ? 1 : -1, dy = dir(rng) % 2 ? 1 : -1;
    for (int k = len(rng); k > 0; --k, x += dx, y += dy) set(x, y);
  }
  for (int room = 0; room < 2; ++room) {
    const int x0 = xs(rng), y0 = ys(rng), w = len(rng) / 2 + 2, h = len(rng) / 2 + 2;
    for (int x = x0; x <= x0 + w; ++x) {
      set(x, y0);
      set(x, y0 + h);
    }
    for (int y = y0; y <= y0 + h; ++y) {
      set(x0, y);
      if (y != y0 + h / 2) set(x0 + w, y);  // a door
    }
  }
  return m;
}

Scene scene_of(const CellMap& cells, double tolerance) {
  const Point origin{-3.25, 7.5};
  const double cell = 0.5;
  const detail::VectorisedCells v = detail::vectorise_cells(cells, origin, cell, tolerance);
  Scene scene;
  const double x1 = origin.x + cell * cells.width, y1 = origin.y + cell * cells.height;
  scene.bounds = {origin, {x1, origin.y}, {x1, y1}, {origin.x, y1}};
  scene.native_cell_size = cell;
  scene.free_boundary = v.free_boundary;
  for (const detail::CellRectangle& r : detail::blocked_rectangles(cells)) {
    scene.obstacles.push_back({{detail::rectangle_ring(cells, r, origin, cell), {}}, {}});
  }
  for (const Ring& fill : v.fills) scene.obstacles.push_back({{fill, {}}, {}});
  OccupancyMap m;
  m.width = cells.width;
  m.height = cells.height;
  m.resolution = cell;
  m.origin = origin;
  for (const unsigned char b : cells.blocked) {
    m.cells.push_back(b ? OccupancyMap::Cell::occupied : OccupancyMap::Cell::free);
  }
  scene.occupancy = m;
  return scene;
}

TEST(Vectorise, RandomMapsStayConservative) {
  for (std::uint32_t seed = 1; seed <= 24; ++seed) {
    const CellMap cells = random_map(seed, 30 + int(seed % 7), 22 + int(seed % 5));
    for (const double tolerance : {0.0, 0.3, 0.5, 0.8, 1.6}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " tolerance " + std::to_string(tolerance));
      const Scene scene = scene_of(cells, tolerance);
      expect_conservative(scene, tolerance);
      if (!HasFatalFailure()) expect_obstacles_agree(scene);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(Vectorise, PinchesAreKeptAndFreeRegionsStaySeparate) {
  // Two free rooms meeting only at the corner of two blocked cells (a zero-width gap), inside a
  // blocked frame; the staircase walls around them invite long chords through the pinch.
  CellMap m;
  const char* rows[] = {"##########", "#....#####", "#.....####", "#......###", "#......###",
                        "#######..#", "#######..#", "#######..#", "##########"};
  m.width = 10;
  m.height = 9;
  for (const char* row : rows)
    for (int x = 0; x < 10; ++x) m.blocked.push_back(row[x] == '#');
  const std::vector<Ring> traced = trace_free_boundary(m);
  for (const double tolerance : {0.5, 1.0, 2.0, 5.0}) {
    SCOPED_TRACE(tolerance);
    const detail::SimplifiedBoundary s = detail::simplify_free_boundary(traced, tolerance);
    ASSERT_EQ(s.rings.size(), traced.size());
    // The pinch vertex (7, 4) (cells counted from the bottom-left) is on both rings still.
    for (const Ring& ring : s.rings) {
      EXPECT_NE(std::find(ring.begin(), ring.end(), Point{7, 4}), ring.end());
    }
    Scene scene;
    scene.bounds = {{0, 0}, {10, 0}, {10, 9}, {0, 9}};
    scene.free_boundary = s.rings;
    const FreeSpace space(scene);
    EXPECT_EQ(space.component_count(), 2u);
    EXPECT_FALSE(space.line_of_sight({6.5, 4.5}, {7.5, 3.5}));
  }
}

// The traced rings against the definition of the boundary: every side between a free cell and a
// blocked one (or the map's edge) lies on exactly one ring, directed with the free cell on its
// left; no ring has a side anywhere else; every vertex is a turn. Widths around the 64-cell
// words the trace reads, and maps that are all free or all blocked.
TEST(Vectorise, TraceFollowsEveryBoundarySideOnce) {
  std::vector<CellMap> maps;
  for (const int width : {1, 2, 63, 64, 65, 127, 130})
    for (std::uint32_t seed = 1; seed <= 3; ++seed) maps.push_back(random_map(seed, width, 9));
  for (const int fill : {0, 1}) {
    CellMap m;
    m.width = 70;
    m.height = 3;
    m.blocked.assign(210, static_cast<unsigned char>(fill));
    maps.push_back(m);
  }
  for (const CellMap& m : maps) {
    SCOPED_TRACE(std::to_string(m.width) + " x " + std::to_string(m.height));
    const auto free_cell = [&](int x, int y) {  // y up, from the bottom row
      return x >= 0 && y >= 0 && x < m.width && y < m.height && !m.is_blocked(x, m.height - 1 - y);
    };
    // Unit sides as (x, y, direction) from their start corner, direction 0 east .. 3 south.
    std::map<std::tuple<int, int, int>, int> expected, traced;
    for (int y = 0; y <= m.height; ++y)
      for (int x = 0; x <= m.width; ++x) {
        if (free_cell(x, y) && !free_cell(x, y - 1)) ++expected[{x, y, 0}];
        if (free_cell(x - 1, y - 1) && !free_cell(x - 1, y)) ++expected[{x, y, 2}];
        if (free_cell(x - 1, y) && !free_cell(x, y)) ++expected[{x, y, 1}];
        if (free_cell(x, y - 1) && !free_cell(x - 1, y - 1)) ++expected[{x, y, 3}];
      }
    for (const Ring& ring : trace_free_boundary(m)) {
      ASSERT_GE(ring.size(), 4u);
      for (std::size_t i = 0; i < ring.size(); ++i) {
        const Point a = ring[i], b = ring[(i + 1) % ring.size()];
        const Point c = ring[(i + 2) % ring.size()];
        EXPECT_NE((b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x), 0.0) << "not a turn";
        ASSERT_TRUE(a.x == b.x || a.y == b.y);
        const int dx = (b.x > a.x) - (b.x < a.x), dy = (b.y > a.y) - (b.y < a.y);
        const int direction = dx > 0 ? 0 : dy > 0 ? 1 : dx < 0 ? 2 : 3;
        for (Point p = a; !(p == b); p = {p.x + dx, p.y + dy})
          ++traced[{int(p.x), int(p.y), direction}];
      }
    }
    EXPECT_EQ(traced, expected);
  }
}

// Blocked runs against a cell-by-cell walk of each row: maximal, in order, nothing else.
TEST(Vectorise, BlockedRunsAreEachRowsMaximalRuns) {
  for (const int width : {1, 5, 63, 64, 65, 128, 131})
    for (std::uint32_t seed = 1; seed <= 4; ++seed) {
      CellMap m = random_map(seed, width, 7);
      if (seed == 4) std::fill(m.blocked.begin(), m.blocked.begin() + width, 1);  // a full row
      std::vector<std::tuple<int, int, int>> expected, found;
      for (int y = 0; y < m.height; ++y)
        for (int x = 0; x < width; ++x) {
          if (!m.is_blocked(x, y)) continue;
          if (x > 0 && m.is_blocked(x - 1, y)) {
            std::get<2>(expected.back()) = x + 1;
          } else {
            expected.emplace_back(y, x, x + 1);
          }
        }
      for (const BlockedRun& r : blocked_runs(blocked_bits(m)))
        found.emplace_back(r.row, r.first, r.last);
      EXPECT_EQ(found, expected) << "width " << width << " seed " << seed;
    }
}

TEST(Vectorise, RectanglesCoverExactlyTheBlockedCells) {
  for (std::uint32_t seed = 1; seed <= 10; ++seed) {
    const CellMap cells = random_map(seed, 25, 19);
    std::vector<int> cover(cells.blocked.size(), 0);
    for (const detail::CellRectangle& r : detail::blocked_rectangles(cells)) {
      for (int y = r.row; y < r.row + r.rows; ++y)
        for (int x = r.first; x < r.last; ++x) ++cover[std::size_t(y) * 25 + x];
    }
    for (std::size_t i = 0; i < cover.size(); ++i) {
      ASSERT_EQ(cover[i], cells.blocked[i] ? 1 : 0) << "seed " << seed << " cell " << i;
    }
  }
}

}  // namespace
}  // namespace polynav
