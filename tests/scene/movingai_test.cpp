// MovingAI maps and scenarios: invariants checked on every map available (the bundled copies in
// scenes/movingai and, when present, ../shared/data/movingai), hand-made maps with pinches whose
// rings are counted by hand, and a corpus of bad inputs.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "../../src/scene/readers.hpp"
#include "polynav/error.hpp"
#include "polynav/scene/scene.hpp"
#include "support/data.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

using test_support::files_in;

const fs::path bundled_dir = test_support::bundled_scenes("movingai");
const fs::path shared_dir = test_support::shared_data("movingai");
const fs::path corpus_dir = fs::path(POLYNAV_SOURCE_DIR) / "tests" / "corpus" / "bad_maps";

// Free test on cells addressed with y up: the cell whose lower-left corner is (x, y).
bool free_at(const CellMap& m, long x, long y) {
  if (x < 0 || y < 0 || x >= m.width || y >= m.height) return false;
  return !m.is_blocked(int(x), int(m.height - 1 - y));
}

long free_cell_count(const CellMap& m) {
  return long(std::count(m.blocked.begin(), m.blocked.end(), 0));
}

// Number of free cells' sides that face a blocked cell or the outside.
long boundary_side_count(const CellMap& m) {
  long n = 0;
  for (long y = 0; y < m.height; ++y) {
    for (long x = 0; x < m.width; ++x) {
      if (!free_at(m, x, y)) continue;
      n += !free_at(m, x + 1, y) + !free_at(m, x - 1, y) + !free_at(m, x, y + 1) +
           !free_at(m, x, y - 1);
    }
  }
  return n;
}

// Number of 4-connected components of free cells (an independent flood fill).
int free_component_count(const CellMap& m) {
  std::vector<char> seen(m.blocked.size(), 0);
  int components = 0;
  std::vector<std::pair<long, long>> stack;
  const auto id = [&](long x, long y) { return std::size_t(m.height - 1 - y) * m.width + x; };
  for (long y = 0; y < m.height; ++y) {
    for (long x = 0; x < m.width; ++x) {
      if (!free_at(m, x, y) || seen[id(x, y)]) continue;
      ++components;
      stack.assign(1, {x, y});
      seen[id(x, y)] = 1;
      while (!stack.empty()) {
        const auto [cx, cy] = stack.back();
        stack.pop_back();
        const long nx[4] = {cx + 1, cx - 1, cx, cx};
        const long ny[4] = {cy, cy, cy + 1, cy - 1};
        for (int k = 0; k < 4; ++k) {
          if (free_at(m, nx[k], ny[k]) && !seen[id(nx[k], ny[k])]) {
            seen[id(nx[k], ny[k])] = 1;
            stack.emplace_back(nx[k], ny[k]);
          }
        }
      }
    }
  }
  return components;
}

bool is_integer(double v) {
  return std::floor(v) == v;
}

// The cells left and right of the unit step from corner (x, y) one unit in direction (dx, dy).
void step_cells(long x, long y, long dx, long dy, long left[2], long right[2]) {
  if (dx == 1) {
    left[0] = x, left[1] = y, right[0] = x, right[1] = y - 1;
  } else if (dx == -1) {
    left[0] = x - 1, left[1] = y - 1, right[0] = x - 1, right[1] = y;
  } else if (dy == 1) {
    left[0] = x - 1, left[1] = y, right[0] = x, right[1] = y;
  } else {
    left[0] = x, left[1] = y - 1, right[0] = x - 1, right[1] = y - 1;
  }
}

// Checks free_boundary against the cells, independently of how it was traced: every edge is
// axis-aligned between integer corners with a turn at every vertex; every unit step along it has
// a free cell on its left and a blocked cell (or the outside) on its right; the steps cover every
// free/blocked side exactly once; the rings' signed area is the free cell count; counter-
// clockwise rings match the 4-connected free components; at a pinch the ring turns left.
::testing::AssertionResult boundary_matches_cells(const Scene& scene) {
  if (!scene.cell_map) return ::testing::AssertionFailure() << "no cell map";
  const CellMap& m = *scene.cell_map;
  std::set<std::tuple<long, long, int>> steps;
  double area2 = 0.0;
  int ccw_rings = 0;
  for (std::size_t r = 0; r < scene.free_boundary.size(); ++r) {
    const Ring& ring = scene.free_boundary[r];
    const std::size_t n = ring.size();
    if (n < 4) return ::testing::AssertionFailure() << "ring " << r << " has " << n << " vertices";
    const double a2 = signed_area2(ring);
    area2 += a2;
    if (a2 > 0) ++ccw_rings;
    for (std::size_t i = 0; i < n; ++i) {
      const Point a = ring[i];
      const Point b = ring[(i + 1) % n];
      const Point c = ring[(i + 2) % n];
      if (!is_integer(a.x) || !is_integer(a.y) || a.x < 0 || a.y < 0 || a.x > m.width ||
          a.y > m.height) {
        return ::testing::AssertionFailure() << "ring " << r << " vertex " << i << " (" << a.x
                                             << ", " << a.y << ") is not a corner of the map";
      }
      if ((a.x == b.x) == (a.y == b.y)) {
        return ::testing::AssertionFailure()
               << "ring " << r << " edge " << i << " is not axis-aligned or has zero length";
      }
      const long dx = b.x > a.x ? 1 : b.x < a.x ? -1 : 0;
      const long dy = b.y > a.y ? 1 : b.y < a.y ? -1 : 0;
      const long ex = c.x > b.x ? 1 : c.x < b.x ? -1 : 0;
      const long ey = c.y > b.y ? 1 : c.y < b.y ? -1 : 0;
      if (dx == ex && dy == ey) {
        return ::testing::AssertionFailure()
               << "ring " << r << " goes straight on at (" << b.x << ", " << b.y << ")";
      }
      const long bx = long(b.x);
      const long by = long(b.y);
      const bool ne = free_at(m, bx, by), nw = free_at(m, bx - 1, by);
      const bool sw = free_at(m, bx - 1, by - 1), se = free_at(m, bx, by - 1);
      const bool pinch = (ne && sw && !nw && !se) || (nw && se && !ne && !sw);
      if (pinch && dx * ey - dy * ex <= 0) {
        return ::testing::AssertionFailure()
               << "ring " << r << " does not turn left at the pinch (" << b.x << ", " << b.y << ")";
      }
      const long len = std::abs(long(b.x - a.x)) + std::abs(long(b.y - a.y));
      for (long k = 0; k < len; ++k) {
        const long x = long(a.x) + k * dx;
        const long y = long(a.y) + k * dy;
        long left[2];
        long right[2];
        step_cells(x, y, dx, dy, left, right);
        if (!free_at(m, left[0], left[1]) || free_at(m, right[0], right[1])) {
          return ::testing::AssertionFailure()
                 << "ring " << r << " step from (" << x << ", " << y << ") towards (" << dx << ", "
                 << dy << ") does not have free space on its left only";
        }
        if (!steps.emplace(x, y, int(dx * 3 + dy)).second) {
          return ::testing::AssertionFailure()
                 << "the step from (" << x << ", " << y << ") is traced twice";
        }
      }
    }
  }
  if (long(steps.size()) != boundary_side_count(m)) {
    return ::testing::AssertionFailure()
           << "rings cover " << steps.size() << " cell sides of " << boundary_side_count(m);
  }
  if (area2 != 2.0 * double(free_cell_count(m))) {
    return ::testing::AssertionFailure()
           << "rings enclose " << area2 / 2 << ", free cells " << free_cell_count(m);
  }
  if (ccw_rings != free_component_count(m)) {
    return ::testing::AssertionFailure()
           << ccw_rings << " outer rings for " << free_component_count(m) << " free components";
  }
  return ::testing::AssertionSuccess();
}

// The obstacles are rectangles of whole rows of cells, maximal, covering each blocked cell once
// and no free cell.
::testing::AssertionResult obstacles_match_cells(const Scene& scene) {
  const CellMap& m = *scene.cell_map;
  std::vector<int> cover(m.blocked.size(), 0);
  double area2 = 0.0;
  for (std::size_t i = 0; i < scene.obstacles.size(); ++i) {
    const Polygon& p = scene.obstacles[i].shape;
    const Box b = bounding_box(p.outer);
    area2 += signed_area2(p.outer);
    if (p.outer.size() != 4 || !p.holes.empty() || b.height() != 1.0 ||
        signed_area2(p.outer) != 2.0 * b.width() || !is_integer(b.min.x) || !is_integer(b.min.y)) {
      return ::testing::AssertionFailure() << "obstacle " << i << " is not a CCW row rectangle";
    }
    const long y = long(b.min.y);
    if (free_at(m, long(b.min.x) - 1, y) != (b.min.x > 0) ||
        free_at(m, long(b.max.x), y) != (b.max.x < m.width)) {
      return ::testing::AssertionFailure() << "obstacle " << i << " is not a maximal run";
    }
    for (long x = long(b.min.x); x < long(b.max.x); ++x) {
      if (free_at(m, x, y)) {
        return ::testing::AssertionFailure() << "obstacle " << i << " covers free cell " << x;
      }
      ++cover[std::size_t(m.height - 1 - y) * m.width + x];
    }
  }
  for (std::size_t k = 0; k < cover.size(); ++k) {
    if (cover[k] != (m.blocked[k] ? 1 : 0)) {
      return ::testing::AssertionFailure() << "cell " << k % m.width << ", " << k / m.width
                                           << " is covered " << cover[k] << " times";
    }
  }
  if (area2 != 2.0 * double(m.blocked.size() - std::size_t(free_cell_count(m)))) {
    return ::testing::AssertionFailure() << "obstacle area differs from the blocked cell count";
  }
  return ::testing::AssertionSuccess();
}

void expect_scene_shape(const Scene& scene, int width, int height) {
  ASSERT_TRUE(scene.cell_map.has_value());
  EXPECT_EQ(scene.cell_map->width, width);
  EXPECT_EQ(scene.cell_map->height, height);
  const double w = width;
  const double h = height;
  EXPECT_EQ(scene.bounds, (Ring{{0, 0}, {w, 0}, {w, h}, {0, h}}));
  EXPECT_EQ(scene.native_cell_size, 1.0);
  EXPECT_TRUE(boundary_matches_cells(scene));
  EXPECT_TRUE(obstacles_match_cells(scene));
}

// Every fixture file of one kind: the bundled copies, then the shared ones (or one empty path,
// which skips with a message, when the shared folder is absent).
std::vector<fs::path> fixtures(const std::string& extension) {
  auto files = files_in(bundled_dir, extension);
  const auto shared = files_in(shared_dir, extension);
  if (shared.empty()) files.emplace_back();
  files.insert(files.end(), shared.begin(), shared.end());
  return files;
}

std::string fixture_name(const ::testing::TestParamInfo<fs::path>& info) {
  if (info.param.empty()) return "shared_data_absent";
  std::string name = (info.param.parent_path() == bundled_dir ? "bundled_" : "shared_") +
                     info.param.filename().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

// ---------------------------------------------------------------------------------------------
// Every map

class MapFile : public ::testing::TestWithParam<fs::path> {};

TEST_P(MapFile, BoundaryAndObstaclesMatchCells) {
  if (GetParam().empty()) GTEST_SKIP() << "no reference maps: " << shared_dir << " is absent";
  const Scene scene = read_movingai_map(GetParam());
  EXPECT_EQ(scene.name, GetParam().stem().string());
  EXPECT_EQ(scene.source, GetParam());
  ASSERT_TRUE(scene.cell_map.has_value());
  expect_scene_shape(scene, scene.cell_map->width, scene.cell_map->height);
}

INSTANTIATE_TEST_SUITE_P(All, MapFile, ::testing::ValuesIn(fixtures(".map")), fixture_name);

// ---------------------------------------------------------------------------------------------
// Every scenario, against the map named in its second column

class ScenarioFile : public ::testing::TestWithParam<fs::path> {};

TEST_P(ScenarioFile, LoadsCellCentresOfFreeCells) {
  if (GetParam().empty()) GTEST_SKIP() << "no reference scenarios: " << shared_dir << " is absent";
  std::ifstream in(GetParam());
  std::string line;
  std::getline(in, line);
  struct Row {
    std::string map;
    int width, height, sx, sy, gx, gy;
    double length;
  };
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    Row row;
    int bucket;
    if (fields >> bucket >> row.map >> row.width >> row.height >> row.sx >> row.sy >> row.gx >>
        row.gy >> row.length) {
      rows.push_back(row);
    }
  }
  ASSERT_FALSE(rows.empty());
  const fs::path map_path = GetParam().parent_path() / fs::path(rows[0].map).filename();
  const Scene scene = read_movingai_map(map_path);
  const std::vector<Query> queries = load_scenario(GetParam(), scene);
  ASSERT_EQ(queries.size(), rows.size());
  const CellMap& m = *scene.cell_map;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    const Query& q = queries[i];
    EXPECT_EQ(q.start, (Point{row.sx + 0.5, m.height - row.sy - 0.5}));
    EXPECT_EQ(q.goal, (Point{row.gx + 0.5, m.height - row.gy - 0.5}));
    EXPECT_FALSE(m.is_blocked(row.sx, row.sy));
    EXPECT_FALSE(m.is_blocked(row.gx, row.gy));
    EXPECT_EQ(q.reference_length, row.length);
    EXPECT_EQ(q.where.file, GetParam().string());
    EXPECT_GT(q.where.line, 1);
  }
}

INSTANTIATE_TEST_SUITE_P(All, ScenarioFile, ::testing::ValuesIn(fixtures(".scen")), fixture_name);

// ---------------------------------------------------------------------------------------------
// Hand-made maps

Scene map_from_rows(const std::vector<std::string>& rows, const std::string& ending = "\n") {
  std::string text = "type octile" + ending + "height " + std::to_string(rows.size()) + ending +
                     "width " + std::to_string(rows.empty() ? 0 : rows[0].size()) + ending + "map" +
                     ending;
  for (const auto& row : rows) text += row + ending;
  return parse_movingai_map(text, "hand/made.map");
}

std::size_t count_vertex(const Ring& ring, Point p) {
  return std::size_t(std::count(ring.begin(), ring.end(), p));
}

TEST(MovingAiMap, CheckerboardTwoByTwoGivesTwoSeparateRings) {
  const Scene scene = map_from_rows({".@", "@."});
  expect_scene_shape(scene, 2, 2);
  EXPECT_EQ(scene.name, "made");
  ASSERT_EQ(scene.free_boundary.size(), 2u);
  for (const Ring& ring : scene.free_boundary) {
    EXPECT_EQ(ring.size(), 4u);
    EXPECT_EQ(signed_area2(ring), 2.0);
    EXPECT_EQ(count_vertex(ring, {1, 1}), 1u) << "the pinch stays a vertex of both rings";
  }
  EXPECT_EQ(scene.obstacles.size(), 2u);
}

TEST(MovingAiMap, OtherDiagonalPinch) {
  const Scene scene = map_from_rows({"@.", ".@"});
  expect_scene_shape(scene, 2, 2);
  ASSERT_EQ(scene.free_boundary.size(), 2u);
  for (const Ring& ring : scene.free_boundary) EXPECT_EQ(count_vertex(ring, {1, 1}), 1u);
}

TEST(MovingAiMap, CheckerboardThreeByThreeIsolatesEveryFreeCell) {
  const Scene scene = map_from_rows({".@.", "@.@", ".@."});
  expect_scene_shape(scene, 3, 3);
  EXPECT_EQ(scene.free_boundary.size(), 5u);
  for (const Ring& ring : scene.free_boundary) EXPECT_EQ(signed_area2(ring), 2.0);
}

TEST(MovingAiMap, DiagonalBlockedPairIsOneHoleVisitingThePinchTwice) {
  const Scene scene = map_from_rows({"....", ".@..", "..@.", "...."});
  expect_scene_shape(scene, 4, 4);
  ASSERT_EQ(scene.free_boundary.size(), 2u);
  const auto hole = std::find_if(scene.free_boundary.begin(), scene.free_boundary.end(),
                                 [](const Ring& r) { return signed_area2(r) < 0; });
  ASSERT_NE(hole, scene.free_boundary.end());
  EXPECT_EQ(signed_area2(*hole), -4.0);
  EXPECT_EQ(hole->size(), 8u);
  EXPECT_EQ(count_vertex(*hole, {2, 2}), 2u);
}

TEST(MovingAiMap, FreeRegionsJoinedOnlyAtACornerStaySeparate) {
  // Two 2x2 rooms that touch at one corner: two rings, not one figure-eight.
  const Scene scene = map_from_rows({"..@@", "..@@", "@@..", "@@.."});
  expect_scene_shape(scene, 4, 4);
  ASSERT_EQ(scene.free_boundary.size(), 2u);
  for (const Ring& ring : scene.free_boundary) {
    EXPECT_EQ(ring.size(), 4u);
    EXPECT_EQ(signed_area2(ring), 8.0);
    EXPECT_EQ(count_vertex(ring, {2, 2}), 1u);
  }
}

TEST(MovingAiMap, HoleInsideAnIsland) {
  const Scene scene = map_from_rows({".....", ".@@@.", ".@.@.", ".@@@.", "....."});
  expect_scene_shape(scene, 5, 5);
  // The outer room (CCW), its hole (CW), and the single cell inside the hole (CCW).
  ASSERT_EQ(scene.free_boundary.size(), 3u);
  std::multiset<double> areas;
  for (const Ring& ring : scene.free_boundary) areas.insert(signed_area2(ring) / 2);
  EXPECT_EQ(areas, (std::multiset<double>{-9, 1, 25}));
}

TEST(MovingAiMap, AllFreeAndAllBlocked) {
  const Scene open = map_from_rows({"...", "GSG"});
  expect_scene_shape(open, 3, 2);
  ASSERT_EQ(open.free_boundary.size(), 1u);
  EXPECT_EQ(open.free_boundary[0], (Ring{{3, 0}, {3, 2}, {0, 2}, {0, 0}}));
  EXPECT_TRUE(open.obstacles.empty());

  const Scene closed = map_from_rows({"@OT", "WW@"});
  expect_scene_shape(closed, 3, 2);
  EXPECT_TRUE(closed.free_boundary.empty());
  ASSERT_EQ(closed.obstacles.size(), 2u);
  EXPECT_EQ(closed.obstacles[0].shape.outer, (Ring{{0, 1}, {3, 1}, {3, 2}, {0, 2}}));
  EXPECT_EQ(closed.obstacles[0].where.line, 5);
  EXPECT_EQ(closed.obstacles[1].where.line, 6);
}

TEST(MovingAiMap, CellsAreFlippedSoRowZeroIsTheTop) {
  const Scene scene = map_from_rows({"@..", "..."});
  ASSERT_EQ(scene.obstacles.size(), 1u);
  EXPECT_EQ(scene.obstacles[0].shape.outer, (Ring{{0, 1}, {1, 1}, {1, 2}, {0, 2}}));
  EXPECT_TRUE(scene.cell_map->is_blocked(0, 0));
  EXPECT_EQ(scene.cell_map->cell_centre(0, 0), (Point{0.5, 1.5}));
}

// Rows are read eight characters a word with the rest a character at a time: every byte value,
// at every place of a word and of the tail, among neighbours of every kind, is classified as
// the format says (https://movingai.com/benchmarks/formats.html) or refused at its column.
TEST(MovingAiMap, EveryCharacterAtEveryPlaceOfARowIsClassifiedByTheFormat) {
  const std::string free_chars = ".GS", blocked_chars = "@OTW";
  const int width = 19;  // two words and a tail of three
  for (int c = 0; c < 256; ++c) {
    if (c == '\n' || c == '\r' || c == ' ' || c == '\t') continue;  // line ends and padding
    const char ch = char(c);
    const bool is_free = free_chars.find(ch) != std::string::npos;
    const bool is_blocked = blocked_chars.find(ch) != std::string::npos;
    for (int at = 0; at < width; ++at) {
      std::string row;
      for (int x = 0; x < width; ++x) row += ".G@OTSW."[std::size_t(x + c) % 8];
      const std::string uniform_free(std::size_t(width), '.');
      const std::string uniform_blocked(std::size_t(width), '@');
      for (std::string base : {row, uniform_free, uniform_blocked}) {
        base[std::size_t(at)] = ch;
        const std::string text =
            "type octile\nheight 1\nwidth " + std::to_string(width) + "\nmap\n" + base + "\n";
        if (!is_free && !is_blocked) {
          try {
            (void)parse_movingai_map(text, "x.map");
            ADD_FAILURE() << "byte " << c << " at " << at << " was accepted";
          } catch (const InputError& e) {
            EXPECT_EQ(e.where().column, at + 1) << "byte " << c;
          }
          continue;
        }
        const Scene scene = parse_movingai_map(text, "x.map");
        for (int x = 0; x < width; ++x) {
          const bool want = blocked_chars.find(base[std::size_t(x)]) != std::string::npos;
          ASSERT_EQ(scene.cell_map->is_blocked(x, 0), want) << "byte " << c << " at " << at;
        }
        // The runs and the outline, made from the bits read beside the bytes, agree with them.
        ASSERT_TRUE(obstacles_match_cells(scene)) << "byte " << c << " at " << at;
        ASSERT_TRUE(boundary_matches_cells(scene)) << "byte " << c << " at " << at;
      }
    }
  }
}

TEST(MovingAiMap, ToleratesCrlfMissingFinalNewlineAndTrailingBlankLines) {
  const Scene lf = map_from_rows({".@.", "..."});
  const Scene crlf = map_from_rows({".@.", "..."}, "\r\n");
  EXPECT_EQ(crlf.free_boundary, lf.free_boundary);
  const Scene no_final = parse_movingai_map("type octile\nheight 1\nwidth 2\nmap\n.@", "x.map");
  EXPECT_EQ(no_final.cell_map->blocked, (std::vector<unsigned char>{0, 1}));
  const Scene trailing =
      parse_movingai_map("type octile\nwidth 2\nheight 1\nmap\n.@\n\n  \n", "x.map");
  EXPECT_EQ(trailing.cell_map->blocked, (std::vector<unsigned char>{0, 1}));
  const Scene padded = parse_movingai_map("type octile\nheight 1\nwidth 2\nmap\n.@  \t\n", "x.map");
  EXPECT_EQ(padded.cell_map->blocked, (std::vector<unsigned char>{0, 1}));
  try {
    parse_movingai_map(" \r\n\n", "empty.map");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "empty.map: the file is empty; a MovingAI map starts with 'type octile'");
  }
}

TEST(MovingAiMap, RefusesAbsurdSizesBeforeAllocating) {
  try {
    parse_movingai_map("type octile\nheight 100000\nwidth 100000\nmap\n", "huge.map");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("huge.map:4"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("10000000000 cells"), std::string::npos) << e.what();
  }
}

// ---------------------------------------------------------------------------------------------
// Scenarios on hand-made scenes

TEST(Scenario, CellsOnCellMapsPointsElsewhere) {
  const Scene grid = map_from_rows({"...", ".@."});
  const std::string text = "version 1.0\r\n\r\n0\tm.map\t3\t2\t0\t0\t2 1\t2.5\r\n";
  const auto queries = parse_scenario(text, "s.scen", grid);
  ASSERT_EQ(queries.size(), 1u);
  EXPECT_EQ(queries[0].start, (Point{0.5, 1.5}));
  EXPECT_EQ(queries[0].goal, (Point{2.5, 0.5}));
  EXPECT_EQ(queries[0].reference_length, 2.5);
  EXPECT_EQ(queries[0].name, "3");
  EXPECT_EQ(queries[0].where.line, 3);

  Scene plain;
  const auto points = parse_scenario("version 1\n0 m 9 9 0.25 7.5 3 -1 -1\n", "p.scen", plain);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].start, (Point{0.25, 7.5}));
  EXPECT_EQ(points[0].goal, (Point{3, -1}));
  EXPECT_FALSE(points[0].reference_length.has_value()) << "a negative length means unknown";
}

// Files round lengths to a number of decimals (2 in older "version 1.0" files) or of significant
// digits: each row keeps the rounding of the digits it wrote, so comparisons can follow it.
TEST(Scenario, ReferenceRoundingFollowsTheDigitsWritten) {
  const Scene grid = map_from_rows({"....", "...."});
  const auto queries = parse_scenario(
      "version 1.0\n0 m 4 2 0 0 3 1 3.41\n0 m 4 2 0 0 3 0 3.00\n0 m 4 2 0 0 3 1 3.41421\n"
      "0 m 4 2 0 0 3 0 3\n0 m 4 2 0 0 3 0 3e0\n",
      "r.scen", grid);
  ASSERT_EQ(queries.size(), 5u);
  EXPECT_DOUBLE_EQ(queries[0].reference_rounding, 0.005);
  EXPECT_DOUBLE_EQ(queries[1].reference_rounding, 0.005);
  EXPECT_DOUBLE_EQ(queries[2].reference_rounding, 0.000005);
  EXPECT_EQ(queries[3].reference_rounding, 0.0)
      << "a whole number says nothing of the file's digits";
  EXPECT_EQ(queries[4].reference_rounding, 0.0);
}

TEST(Scenario, LoadSceneDispatchesMapFiles) {
  const fs::path map = bundled_dir / "arena.map";
  const Scene scene = load_scene(map);
  ASSERT_TRUE(scene.cell_map.has_value());
  EXPECT_EQ(scene.name, "arena");
  EXPECT_FALSE(scene.free_boundary.empty());
  EXPECT_EQ(load_scenario(bundled_dir / "arena.map.scen", scene).size(), 160u);
}

// ---------------------------------------------------------------------------------------------
// Bad inputs: each names the file, the line and the offending value.

struct BadInput {
  std::string file;
  std::string map;  // for scenarios: the map they are read against
  int line;
  std::string value;
};

std::ostream& operator<<(std::ostream& os, const BadInput& b) {
  return os << b.file;
}

class BadMapInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadMapInput, ThrowsInputErrorNamingFileLineAndValue) {
  const BadInput& bad = GetParam();
  const fs::path path = corpus_dir / bad.file;
  ASSERT_TRUE(fs::exists(path)) << path;
  try {
    if (bad.map.empty()) {
      read_movingai_map(path);
    } else {
      load_scenario(path, read_movingai_map(corpus_dir / bad.map));
    }
    FAIL() << "expected InputError for " << path;
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.where().file, path.string());
    EXPECT_EQ(e.where().line, bad.line) << what;
    EXPECT_EQ(what.rfind(path.string() + ":" + std::to_string(bad.line), 0), 0u) << what;
    EXPECT_NE(what.find(bad.value), std::string::npos) << what << "\nlacks: " << bad.value;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, BadMapInput,
    ::testing::Values(
        BadInput{"too_few_rows.map", "", 8, "ends after 3 rows but the header says height 4"},
        BadInput{"too_few_rows_no_final_newline.map", "", 6,
                 "ends after 2 rows but the header says height 4"},
        BadInput{"too_many_rows.map", "", 7, "more rows than the header's height 2: found '@@@@'"},
        BadInput{"short_row.map", "", 6, "row 2 of 3 (y = 1) has 3 characters"},
        BadInput{"long_row.map", "", 7, "row 3 of 3 (y = 2) has 5 characters"},
        BadInput{"unknown_char.map", "", 6, "unknown map character 'x' at cell (2, 1)"},
        BadInput{"tab_in_row.map", "", 5, "unknown map character '\\t' at cell (1, 0)"},
        BadInput{"bad_height.map", "", 2, "found 'abc'"},
        BadInput{"utf8_height.map", "", 2, "found 'caf\xC3\xA9'"},  // UTF-8 shown as it is
        BadInput{"negative_width.map", "", 3, "found '-4'"},
        BadInput{"bad_type.map", "", 1, "'type hexagonal'"},
        BadInput{"no_header.map", "", 1, "not a MovingAI map header line: '....'"},
        BadInput{"missing_width.map", "", 3, "missing the header line 'width W'"},
        BadInput{"missing_map_line.map", "", 3, "missing the 'map' line"},
        BadInput{"huge.map", "", 4, "= 4000000000 cells"},
        BadInput{"wrong_columns.scen", "small.map", 3, "found 8 in"},
        BadInput{"out_of_range.scen", "small.map", 2, "start_x is outside the map"},
        BadInput{"out_of_range_y.scen", "small.map", 2, "goal_y is outside the map"},
        BadInput{"blocked_start.scen", "small.map", 2, "start cell (1, 1) is blocked"},
        BadInput{"non_numeric.scen", "small.map", 4, "goal_y must be a number, found 'abc'"},
        BadInput{"fractional_cell.scen", "small.map", 2, "whole cell coordinate, found '1.5'"},
        BadInput{"nan_length.scen", "small.map", 2, "finite number, found 'nan'"},
        BadInput{"wrong_map_size.scen", "small.map", 2, "is for a 4 x 5 map"},
        BadInput{"bad_version.scen", "small.map", 1, "found 'version: 1'"}),
    [](const ::testing::TestParamInfo<BadInput>& param) {
      std::string name = param.param.file;
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

}  // namespace
}  // namespace polynav
