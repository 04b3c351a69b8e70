// ROS map_server maps: the pixel semantics of each mode, the image formats (the same pixels as
// PGM P5 and P2, PNG and BMP read to the same cells), the scene a map becomes, every method
// planning on the bundled maps (and on the full maps of ../shared/data/ros when present), and
// every way a map file can be wrong, each with its located one-line message.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "../../src/scene/image.hpp"
#include "../../src/scene/ros_map.hpp"
#include "polynav/discretise/grid/occupancy_grid.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/plan/registry.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/smooth/path_simplifier.hpp"
#include "polynav/space/free_space.hpp"
#include "scene/error_of.hpp"
#include "scene/image_writers.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;
using Cell = OccupancyMap::Cell;
using detail::classify_ros_pixel;
using detail::Image;
using detail::RosMapMode;
using detail::RosMapParameters;
using test::error_of;
using test::TestImage;

const fs::path bundled_dir = fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "ros";
const fs::path shared_dir = fs::path(POLYNAV_SHARED_DATA) / "ros";

// A directory of its own for each test, removed afterwards.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = "polynav_ros_" + std::string(info->test_suite_name()) + "_" + info->name();
    std::replace(name.begin(), name.end(), '/', '_');
    path_ = fs::temp_directory_path() / name;
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  fs::path write(const std::string& name, const std::string& content) const {
    std::ofstream(path_ / name, std::ios::binary) << content;
    return path_ / name;
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

Image one_pixel(std::vector<std::uint16_t> channels, int max_value = 255) {
  Image im;
  im.width = im.height = 1;
  im.channels = int(channels.size());
  im.max_value = max_value;
  im.samples = std::move(channels);
  return im;
}

Cell classify(const Image& im, RosMapParameters p) {
  return classify_ros_pixel(im, 0, p);
}

TEST(RosPixel, TrinaryThresholdsAreStrictAsInMapServer) {
  RosMapParameters p;
  p.occupied_thresh = 0.65;
  p.free_thresh = 0.25;
  // With maxval 100, the pixel 35 has occupancy (100 - 35) / 100, the very double 0.65 is.
  EXPECT_EQ(classify(one_pixel({35}, 100), p), Cell::unknown);
  EXPECT_EQ(classify(one_pixel({34}, 100), p), Cell::occupied);
  EXPECT_EQ(classify(one_pixel({75}, 100), p), Cell::unknown);  // exactly free_thresh
  EXPECT_EQ(classify(one_pixel({76}, 100), p), Cell::free);
  EXPECT_EQ(classify(one_pixel({0}), p), Cell::occupied);
  EXPECT_EQ(classify(one_pixel({254}), p), Cell::free);
  EXPECT_EQ(classify(one_pixel({205}), p), Cell::free);  // 0.196 < 0.25 (the depot's setting)
  p.free_thresh = 0.196;
  EXPECT_EQ(classify(one_pixel({205}), p), Cell::unknown);  // 0.19608 > 0.196 (turtlebot3)
}

TEST(RosPixel, NegateReadsDarkAsFree) {
  RosMapParameters p;
  p.negate = true;
  EXPECT_EQ(classify(one_pixel({0}), p), Cell::free);
  EXPECT_EQ(classify(one_pixel({255}), p), Cell::occupied);
  EXPECT_EQ(classify(one_pixel({128}), p), Cell::unknown);
}

TEST(RosPixel, ColourIsTheMeanOfTheChannels) {
  RosMapParameters p;
  p.occupied_thresh = 0.65;
  p.free_thresh = 0.25;
  // Mean 85: occupancy 2/3, occupied; a grey of 85 is the same.
  EXPECT_EQ(classify(one_pixel({255, 0, 0}), p), Cell::occupied);
  EXPECT_EQ(classify(one_pixel({85}), p), Cell::occupied);
  // Mean 170: occupancy 1/3, unknown.
  EXPECT_EQ(classify(one_pixel({255, 255, 0}), p), Cell::unknown);
}

TEST(RosPixel, TrinaryAveragesAlphaInScaleMakesTransparentUnknown) {
  RosMapParameters p;
  p.occupied_thresh = 0.65;
  p.free_thresh = 0.196;
  // A white pixel, fully transparent: trinary averages the alpha in (mean 191.25, occupancy
  // 0.25: unknown); scale calls any pixel that is not opaque unknown.
  const Image clear_white = one_pixel({255, 255, 255, 0});
  EXPECT_EQ(classify(clear_white, p), Cell::unknown);
  p.mode = RosMapMode::scale;
  EXPECT_EQ(classify(clear_white, p), Cell::unknown);
  EXPECT_EQ(classify(one_pixel({255, 255, 255, 254}), p), Cell::unknown);
  EXPECT_EQ(classify(one_pixel({255, 255, 255, 255}), p), Cell::free);
  // Grey and alpha count the grey three times, as red, green and blue.
  p.mode = RosMapMode::trinary;
  EXPECT_EQ(classify(one_pixel({255, 0}), p), Cell::unknown);   // mean 191.25
  EXPECT_EQ(classify(one_pixel({255, 255}), p), Cell::free);    // opaque white
  EXPECT_EQ(classify(one_pixel({0, 255}), p), Cell::occupied);  // mean 63.75
}

TEST(RosPixel, ScaleGradesBetweenTheThresholdsAsFree) {
  RosMapParameters p;
  p.mode = RosMapMode::scale;
  p.occupied_thresh = 0.65;
  p.free_thresh = 0.25;
  EXPECT_EQ(classify(one_pixel({128}), p), Cell::free);  // graded 1..99: free for a planner
  EXPECT_EQ(classify(one_pixel({50}), p), Cell::occupied);
}

TEST(RosPixel, RawTakesTheValueItselfAndIgnoresNegate) {
  RosMapParameters p;
  p.mode = RosMapMode::raw;
  EXPECT_EQ(classify(one_pixel({100}), p), Cell::occupied);
  EXPECT_EQ(classify(one_pixel({0}), p), Cell::free);
  EXPECT_EQ(classify(one_pixel({99}), p), Cell::free);
  EXPECT_EQ(classify(one_pixel({101}), p), Cell::unknown);
  EXPECT_EQ(classify(one_pixel({255}), p), Cell::unknown);
  p.negate = true;
  EXPECT_EQ(classify(one_pixel({100}), p), Cell::occupied);
  EXPECT_EQ(classify(one_pixel({0}), p), Cell::free);
}

// A 7 x 5 test pattern with occupied, unknown and free pixels.
TestImage pattern() {
  TestImage im{7, 5, 1, {}};
  const char* rows[] = {"#######", "#..?..#", "#.#?#.#", "#.....#", "###.###"};
  for (const char* r : rows) {
    for (int x = 0; x < 7; ++x) im.pixels.push_back(r[x] == '#' ? 0 : r[x] == '?' ? 205 : 254);
  }
  return im;
}

std::string map_file(const std::string& image, const std::string& extra = "") {
  return "image: " + image +
         "\nresolution: 0.25\norigin: [-1.5, 2.0, 0.0]\nnegate: 0\noccupied_thresh: 0.65\n"
         "free_thresh: 0.196\n" +
         extra;
}

TEST(RosMap, EveryImageFormatGivesTheSameCells) {
  const TempDir dir;
  const TestImage im = pattern();
  TestImage rgba{im.width, im.height, 4, {}};
  for (const std::uint8_t v : im.pixels) rgba.pixels.insert(rgba.pixels.end(), {v, v, v, 255});
  const std::vector<std::pair<std::string, std::string>> files = {
      {"p5.pgm", test::pgm_p5(im)},        {"p2.pgm", test::pgm_p2(im)},
      {"p2-17.pgm", test::pgm_p2(im, 17)}, {"grey.png", test::png(im)},
      {"rgba.png", test::png(rgba)},       {"grey.bmp", test::bmp(im)},
      {"rgba.bmp", test::bmp(rgba)}};
  std::vector<Cell> expected;
  std::vector<Cell> expected_with_alpha;
  for (const std::uint8_t v : im.pixels) {
    expected.push_back(v == 0 ? Cell::occupied : v == 205 ? Cell::unknown : Cell::free);
    // As map_server does in trinary mode, an alpha channel is averaged in: the opaque grey 205
    // becomes (3 * 205 + 255) / 4 = 217.5, occupancy 0.147 < free_thresh: free.
    expected_with_alpha.push_back(v == 0 ? Cell::occupied : Cell::free);
  }
  for (const auto& [name, bytes] : files) {
    SCOPED_TRACE(name);
    const bool alpha = name.starts_with("rgba");
    dir.write(name, bytes);
    const fs::path yaml = dir.write(name + ".yaml", map_file(name));
    const Scene scene = load_scene(yaml);
    ASSERT_TRUE(scene.occupancy.has_value());
    EXPECT_EQ(scene.occupancy->width, 7);
    EXPECT_EQ(scene.occupancy->height, 5);
    EXPECT_EQ(scene.occupancy->cells, alpha ? expected_with_alpha : expected);
  }
}

TEST(RosMap, SceneFollowsOriginResolutionAndImageRows) {
  const TempDir dir;
  dir.write("m.pgm", test::pgm_p5(pattern()));
  const Scene scene = load_scene(dir.write("m.yaml", map_file("m.pgm")));
  EXPECT_EQ(scene.name, "m");
  ASSERT_TRUE(scene.native_cell_size.has_value());
  EXPECT_EQ(*scene.native_cell_size, 0.25);
  const Box b = bounding_box(scene.bounds);
  EXPECT_EQ(b.min.x, -1.5);
  EXPECT_EQ(b.min.y, 2.0);
  EXPECT_EQ(b.max.x, -1.5 + 0.25 * 7);
  EXPECT_EQ(b.max.y, 2.0 + 0.25 * 5);
  // Image row 0 is the top: the gap in the bottom wall (row 4, column 3) is at the lowest y, and
  // free space reaches the bottom edge of the bounds only there.
  const FreeSpace space(scene);
  EXPECT_TRUE(space.is_free({-1.5 + 0.25 * 3.5, 2.0 + 0.125}));
  EXPECT_FALSE(space.is_free({-1.5 + 0.25 * 1.5, 2.0 + 0.125}));
  // The top row is wall, the second row free at column 1.
  EXPECT_FALSE(space.is_free({-1.5 + 0.25 * 1.5, 2.0 + 0.25 * 4.5}));
  EXPECT_TRUE(space.is_free({-1.5 + 0.25 * 1.5, 2.0 + 0.25 * 3.5}));
  // Unknown cells are blocked by default and free on request.
  const Point unknown_cell{-1.5 + 0.25 * 3.5, 2.0 + 0.25 * 3.5};
  EXPECT_FALSE(space.is_free(unknown_cell));
  const Scene open = load_scene(dir.path() / "m.yaml", {.unknown = UnknownCells::free});
  EXPECT_TRUE(open.occupancy->unknown_free);
  EXPECT_TRUE(FreeSpace(open).is_free(unknown_cell));
  EXPECT_GT(FreeSpace(open).area(), space.area());
}

TEST(RosMap, ModeKeyChangesTheReading) {
  const TempDir dir;
  TestImage im{3, 1, 1, {100, 0, 180}};
  dir.write("raw.pgm", test::pgm_p5(im));
  const Scene raw = load_scene(dir.write("raw.yaml", map_file("raw.pgm", "mode: raw\n")));
  EXPECT_EQ(raw.occupancy->cells, (std::vector<Cell>{Cell::occupied, Cell::free, Cell::unknown}));
  const Scene trinary = load_scene(dir.write("tri.yaml", map_file("raw.pgm", "mode: trinary\n")));
  // Trinary: 100 has occupancy 155/255 = 0.61 and 180 has 0.29, both between the thresholds.
  EXPECT_EQ(trinary.occupancy->cells,
            (std::vector<Cell>{Cell::unknown, Cell::occupied, Cell::unknown}));
}

// The bundled maps, and the full maps they were cut from when ../shared/data/ros is present.
std::vector<fs::path> bundled_maps() {
  std::vector<fs::path> maps;
  for (const auto& e : fs::directory_iterator(bundled_dir)) {
    if (e.path().extension() == ".yaml") maps.push_back(e.path());
  }
  std::sort(maps.begin(), maps.end());
  return maps;
}

std::vector<fs::path> shared_maps() {
  std::vector<fs::path> maps;
  if (!fs::exists(shared_dir)) return maps;
  for (const auto& e : fs::recursive_directory_iterator(shared_dir)) {
    if (e.path().extension() == ".yaml") maps.push_back(e.path());
  }
  std::sort(maps.begin(), maps.end());
  return maps;
}

TEST(RosMap, BundledMapsAreTheFourCopies) {
  std::vector<std::string> names;
  for (const fs::path& p : bundled_maps()) names.push_back(p.stem().string());
  EXPECT_EQ(names,
            (std::vector<std::string>{"depot", "tb3_sandbox", "turtlebot3_world", "warehouse"}));
}

// Fixed queries in each map's own world coordinates, chosen in the free space of the bundled
// copies; the full maps share the coordinates.
std::vector<std::pair<Point, Point>> queries_for(const std::string& stem) {
  std::vector<Point> p;
  if (stem == "depot") {
    p = {{16, 1}, {29, 14}, {22, 12}, {25, 3}};
  } else if (stem == "warehouse") {
    p = {{-12, -8}, {-7.5, -10}, {-0.8, -12}, {-4, -23.5}};
  } else {  // turtlebot3_world, tb3_sandbox (and the full map.yaml)
    p = {{-2, 0.5}, {2, -0.5}, {0, 1.7}, {0.55, 0.55}};
  }
  return {{p[0], p[1]}, {p[0], p[2]}, {p[1], p[3]}, {p[2], p[3]}};
}

std::string query_stem(const fs::path& map) {
  const std::string stem = map.stem().string();
  return stem == "map" ? "turtlebot3_world" : stem;
}

// Every method plans every fixed query: found, from start to goal, and every segment in exact
// line of sight (the planner checks this too; a failure there is internal_error).
void plan_everything(const fs::path& path) {
  const Scene scene = load_scene(path);
  const auto space = std::make_shared<const FreeSpace>(scene);
  for (const std::string& method : method_names()) {
    SCOPED_TRACE(path.filename().string() + " " + method);
    PlanOptions options;
    options.method = method;
    options.smoother = method == "visgraph" ? "none" : "funnel";
    const Planner planner(space, options);
    for (const auto& [start, goal] : queries_for(query_stem(path))) {
      const PlanResult r = planner.plan(start, goal);
      ASSERT_EQ(r.status, search::SearchStatus::found)
          << start.x << "," << start.y << " -> " << goal.x << "," << goal.y << ": " << r.message;
      ASSERT_GE(r.waypoints.size(), 2u);
      EXPECT_EQ(r.waypoints.front(), start);
      EXPECT_EQ(r.waypoints.back(), goal);
      for (std::size_t i = 1; i < r.waypoints.size(); ++i) {
        EXPECT_TRUE(space->line_of_sight(r.waypoints[i - 1], r.waypoints[i]));
      }
      EXPECT_GE(r.length, distance(start, goal) * (1 - 1e-12));
    }
  }
}

TEST(RosMap, EveryMethodPlansOnTheBundledMaps) {
  for (const fs::path& map : bundled_maps()) plan_everything(map);
}

TEST(RosMap, EveryMethodPlansOnTheFullMaps) {
  const std::vector<fs::path> maps = shared_maps();
  if (maps.empty()) GTEST_SKIP() << "no full ROS maps: " << shared_dir << " is absent";
  EXPECT_EQ(maps.size(), 4u);
  for (const fs::path& map : maps) plan_everything(map);
}

TEST(RosMap, GridUsesTheMapsOwnCells) {
  for (const fs::path& path : bundled_maps()) {
    SCOPED_TRACE(path.filename().string());
    const Scene scene = load_scene(path);
    const FreeSpace space(scene);
    const OccupancyGrid grid(space, GridOptions{});
    const OccupancyMap& m = *scene.occupancy;
    EXPECT_EQ(grid.cell_size(), m.resolution);
    EXPECT_EQ(grid.origin(), m.origin);
    // The grid covers the map from its origin to the far side of its free space (a cell more
    // where that side rounds up); beyond that every map cell is blocked.
    EXPECT_LE(grid.width(), m.width + 1);
    EXPECT_LE(grid.height(), m.height + 1);
    int compared = 0;
    for (int cy = 0; cy < m.height; ++cy) {
      for (int cx = 0; cx < m.width; ++cx) {
        const int row = m.height - 1 - cy;  // grid rows count up from the bottom
        const bool blocked = m.at(cx, cy) != Cell::free;
        if (grid.inside(cx, row)) {
          ASSERT_EQ(grid.blocked(cx, row), blocked) << "cell " << cx << ", " << cy;
          ++compared;
        } else {
          ASSERT_TRUE(blocked) << "cell " << cx << ", " << cy << " is free but outside the grid";
        }
      }
    }
    EXPECT_GE(compared, m.width * m.height / 2);
  }
}

// Keys map_server does not read (Nav2's own maps carry some) are ignored as map_server ignores
// them, each reported in Scene::unused with where it is; one that looks like a misspelt key says
// which.
TEST(RosMap, KeysMapServerIgnoresAreNotedNotRefused) {
  const TempDir dir;
  dir.write("m.pgm", test::pgm_p5(pattern()));
  const fs::path plain = dir.write("plain.yaml", map_file("m.pgm"));
  const fs::path extra = dir.write(
      "extra.yaml", map_file("m.pgm", "map_type: occupancy\nmdoe: raw\nsaved_by: \"map_saver\"\n"));
  const Scene a = load_scene(plain);
  const Scene b = load_scene(extra);
  EXPECT_TRUE(a.unused.empty());
  ASSERT_EQ(b.unused.size(), 3u);
  const std::string file = extra.string();
  EXPECT_EQ(b.unused[0], file + ":7:1: map_type: not used by map_server, ignored");
  EXPECT_EQ(b.unused[1],
            file + ":8:1: mdoe: not used by map_server, ignored (did you mean \"mode\"?)");
  EXPECT_EQ(b.unused[2], file + ":9:1: saved_by: not used by map_server, ignored");
  // The misspelt mode is not read (map_server would not read it either): trinary, as without it.
  EXPECT_EQ(b.occupancy->cells, a.occupancy->cells);
  EXPECT_EQ(b.free_boundary, a.free_boundary);
  // The keys in another order, mode given, an ignored key with a comment after it.
  const fs::path nav2 = dir.write(
      "nav2.yaml",
      "image: m.pgm\nmode: trinary\nresolution: 0.25\norigin: [-1.5, 2.0, 0]\nnegate: 0\n"
      "occupied_thresh: 0.65\nfree_thresh: 0.196\nmap_type: occupancy  # read by nobody\n");
  const Scene c = load_scene(nav2);
  ASSERT_EQ(c.unused.size(), 1u);
  EXPECT_EQ(c.unused[0], nav2.string() + ":8:1: map_type: not used by map_server, ignored");
  EXPECT_EQ(c.free_boundary, a.free_boundary);
}

// On a raster map the grid's cells are the map's own: when none around a free point is wholly
// free, a finer resolution is not the advice; the message says what leaves them partly free and
// names the methods that follow free space exactly. The budget message says the same of a
// coarser grid.
TEST(RosMap, GridAdviceFitsTheMapsOwnCells) {
  const TempDir dir;
  TestImage corridor{9, 3, 1, {}};
  for (const char* r : {"#########", "#.......#", "#########"}) {
    for (int x = 0; x < 9; ++x) corridor.pixels.push_back(r[x] == '#' ? 0 : 254);
  }
  dir.write("corridor.pgm", test::pgm_p5(corridor));
  Scene scene = load_scene(dir.write("corridor.yaml", map_file("corridor.pgm")));
  scene.agent.radius = 0.075;  // the corridor, one cell of 0.25 wide, stays 0.1 wide
  const Point start{-1.5 + 0.25 * 2.5, 2.0 + 0.25 * 1.5}, goal{-1.5 + 0.25 * 6.5, 2.0 + 0.375};
  PlanOptions options;
  options.method = "grid";
  // Exact inflation leaves the corridor's cells partly free (inflating by whole cells would
  // block them all, and the start with them).
  options.settings.set("space.inflation", "exact");
  const PlanResult r = Planner(scene, options).plan(start, goal);
  EXPECT_EQ(r.status, search::SearchStatus::invalid_query);
  EXPECT_NE(r.message.find("start is free, but the grid's cells are the map's own cells (0.25 "
                           "across) and no wholly free map cell around it is in line of sight"),
            std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("the agent radius 0.075 leaves the cells around it only partly free"),
            std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("--method navmesh or visgraph"), std::string::npos) << r.message;
  EXPECT_EQ(r.message.find("finer"), std::string::npos) << r.message;
  // The methods it names do plan the query.
  for (const std::string method : {"navmesh", "visgraph"}) {
    options.method = method;
    EXPECT_TRUE(Planner(scene, options).plan(start, goal).found()) << method;
  }
  // A grid finer than the map's cells is not the map's: there the old advice stands.
  options.method = "grid";
  options.settings.set("grid.resolution", 0.2);
  const PlanResult finer = Planner(scene, options).plan(start, goal);
  EXPECT_EQ(finer.status, search::SearchStatus::invalid_query);
  EXPECT_NE(finer.message.find("try a finer --resolution"), std::string::npos) << finer.message;

  // The budget: raising it keeps the map's cells; a coarser grid would not be them.
  const Scene plain = load_scene(dir.path() / "corridor.yaml");
  options.settings = {};
  options.settings.set("grid.max_cells", 10);
  const std::string budget = test::error_of([&] { Planner(plain, options); });
  EXPECT_NE(budget.find("more than the budget of 10 (the grid's cells are the map's own: raise "
                        "grid.max_cells"),
            std::string::npos)
      << budget;
}

// --- rotated maps: the origin's yaw turns the map's cells about the origin ---------------------

// A 12 x 9 map with rooms, a doorway, a pillar, an unknown patch and a diagonal pinch.
TestImage rooms() {
  TestImage im{12, 9, 1, {}};
  const char* rows[] = {"############", "#....#.....#", "#.##.#..?..#",
                        "#.##....??.#", "#....#.....#", "###.##.##..#",
                        "#.....#....#", "#..#....#..#", "############"};
  for (const char* r : rows) {
    for (int x = 0; x < 12; ++x) im.pixels.push_back(r[x] == '#' ? 0 : r[x] == '?' ? 205 : 254);
  }
  return im;
}

std::string rooms_file(double yaw) {
  std::ostringstream s;
  s.precision(17);
  s << "image: rooms.pgm\nresolution: 0.25\norigin: [-1.5, 2.0, " << yaw
    << "]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\n";
  return s.str();
}

// A point of cell (cx, cy) (image row cy from the top), at fractions (fx, fy) of the cell, in the
// map's own frame.
Point in_cell(int cx, int cy, double fx, double fy) {
  return {-1.5 + 0.25 * (cx + fx), 2.0 + 0.25 * (9 - 1 - cy + fy)};
}

TEST(RosRotatedMap, CellsTurnAboutTheOrigin) {
  const TempDir dir;
  dir.write("rooms.pgm", test::pgm_p5(rooms()));
  const Scene upright = load_scene(dir.write("upright.yaml", rooms_file(0.0)));
  const Scene turned = load_scene(dir.write("turned.yaml", rooms_file(0.7)));
  ASSERT_TRUE(turned.occupancy.has_value());
  const OccupancyMap& m = *turned.occupancy;
  EXPECT_EQ(m.yaw, 0.7);
  EXPECT_EQ(upright.occupancy->yaw, 0.0);
  EXPECT_EQ(m.cells, upright.occupancy->cells);
  EXPECT_EQ(*turned.native_cell_size, 0.25);
  // The origin stays; the map's x axis points at yaw 0.7 (Nav2: the cell grid turned about the
  // origin, counter-clockwise).
  EXPECT_EQ(m.to_scene(m.origin), m.origin);
  const Point east = m.to_scene({m.origin.x + 1.0, m.origin.y});
  EXPECT_NEAR(east.x, -1.5 + std::cos(0.7), 1e-15);
  EXPECT_NEAR(east.y, 2.0 + std::sin(0.7), 1e-15);
  // With yaw 0 to_scene gives the point itself, bit for bit.
  const Point odd{0.1 + 0.2, -1.0 / 3.0};
  EXPECT_EQ(upright.occupancy->to_scene(odd), odd);
  // The bounds: the image's rectangle turned, four vertices.
  ASSERT_EQ(turned.bounds.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_EQ(turned.bounds[i], m.to_scene(upright.bounds[i])) << i;
  // Every vertex of the outline and of the rectangles is a turned lattice point; the outline
  // keeps every lattice point along it, so it has at least the upright outline's vertices.
  const auto turned_lattice_point = [&](Point p) {
    const Point q = m.rotation().undo(p);
    const double x = std::round((q.x - m.origin.x) / 0.25),
                 y = std::round((q.y - m.origin.y) / 0.25);
    return m.to_scene({m.origin.x + 0.25 * x, m.origin.y + 0.25 * y}) == p;
  };
  std::size_t upright_vertices = 0, turned_vertices = 0;
  for (const Ring& ring : upright.free_boundary) upright_vertices += ring.size();
  for (const Ring& ring : turned.free_boundary) {
    turned_vertices += ring.size();
    for (const Point& p : ring) EXPECT_TRUE(turned_lattice_point(p));
  }
  EXPECT_GT(turned_vertices, upright_vertices);
  ASSERT_EQ(turned.obstacles.size(), upright.obstacles.size());
  for (const Obstacle& o : turned.obstacles)
    for (const Point& p : o.shape.outer) EXPECT_TRUE(turned_lattice_point(p));
  // The same free space, turned: the same area and components.
  const FreeSpace a(upright), b(turned);
  EXPECT_NEAR(b.area(), a.area(), 1e-12 * a.area());
  EXPECT_EQ(b.component_count(), a.component_count());
  EXPECT_EQ(turned.vectorisation->rings, upright.vectorisation->rings);
}

TEST(RosRotatedMap, GridUsesTheTurnedMapsOwnCells) {
  const TempDir dir;
  dir.write("rooms.pgm", test::pgm_p5(rooms()));
  const Scene turned = load_scene(dir.write("turned.yaml", rooms_file(0.7)));
  const OccupancyMap& m = *turned.occupancy;
  const FreeSpace space(turned);
  ASSERT_TRUE(space.map_frame().has_value());
  const OccupancyGrid grid(space, GridOptions{});
  EXPECT_TRUE(grid.rotated());
  EXPECT_EQ(grid.cell_size(), 0.25);
  EXPECT_EQ(grid.origin(), m.origin);
  ASSERT_EQ(grid.width(), m.width);
  ASSERT_EQ(grid.height(), m.height);
  for (int cy = 0; cy < m.height; ++cy) {
    for (int cx = 0; cx < m.width; ++cx) {
      const int row = m.height - 1 - cy;
      EXPECT_EQ(grid.blocked(cx, row), m.at(cx, cy) != Cell::free) << cx << ", " << cy;
      // The grid's cell centres are the map's, turned.
      const Box box = m.cell_box(cx, cy);
      EXPECT_EQ(grid.cell_centre(cx, row), m.to_scene({box.min.x + 0.125, box.min.y + 0.125}));
    }
  }
  // The corner-aligned grid's nodes are the outline's corners.
  GridOptions corners;
  corners.align = GridAlign::corner;
  const OccupancyGrid lattice(space, corners);
  EXPECT_EQ(lattice.node_position(0), m.origin);
  EXPECT_EQ(lattice.node_position(search::NodeId(3 * (m.width + 1) + 5)),
            m.to_scene({m.origin.x + 0.25 * 5, m.origin.y + 0.25 * 3}));
}

// The same queries, turned with the map, plan paths of the same lengths with every method, each
// path valid by the planner's exact check. The greedy shortcut smoother is the exception: a
// sightline that grazes a cell's corner exactly on the upright map may miss it by a rounding on
// the turned one (or the other way), and the greedy pass then takes another sightline; its raw
// path is still the same, and its path valid.
TEST(RosRotatedMap, TurnedMapPlansCongruentPaths) {
  const TempDir dir;
  dir.write("rooms.pgm", test::pgm_p5(rooms()));
  const Scene upright = load_scene(dir.write("upright.yaml", rooms_file(0.0)));
  const Scene turned = load_scene(dir.write("turned.yaml", rooms_file(0.7)));
  const OccupancyMap& m = *turned.occupancy;
  const std::vector<Point> points = {in_cell(1, 1, 0.3, 0.6),   in_cell(10, 1, 0.7, 0.2),
                                     in_cell(1, 7, 0.45, 0.35), in_cell(10, 7, 0.5, 0.5),
                                     in_cell(4, 3, 0.2, 0.8),   in_cell(7, 6, 0.6, 0.4)};
  const auto a = std::make_shared<const FreeSpace>(upright);
  const auto b = std::make_shared<const FreeSpace>(turned);
  struct Variant {
    std::string method, smoother;
    bool congruent = true;
    std::vector<std::pair<std::string, std::string>> settings;
  };
  const std::vector<Variant> variants = {{"grid", "none", true, {}},
                                         {"grid", "funnel", true, {}},
                                         {"grid", "shortcut", false, {}},
                                         {"grid", "none", true, {{"grid.align", "corner"}}},
                                         {"grid", "none", true, {{"grid.connectivity", "16"}}},
                                         {"grid", "none", true, {{"grid.search", "jps"}}},
                                         {"visgraph", "none", true, {}},
                                         {"navmesh", "none", true, {}},
                                         {"navmesh", "funnel", true, {}}};
  int planned = 0;
  for (const Variant& v : variants) {
    PlanOptions options;
    options.method = v.method;
    options.smoother = v.smoother;
    std::string name = v.method + "/" + v.smoother;
    for (const auto& [key, value] : v.settings) {
      options.settings.set(key, value);
      name += " " + key + "=" + value;
    }
    const Planner pa(a, options), pb(b, options);
    const PathSimplifier check(*b);
    for (std::size_t i = 0; i < points.size(); ++i) {
      for (std::size_t j = i + 1; j < points.size(); ++j) {
        SCOPED_TRACE(name + " " + std::to_string(i) + " -> " + std::to_string(j));
        const PlanResult ra = pa.plan(points[i], points[j]);
        const PlanResult rb = pb.plan(m.to_scene(points[i]), m.to_scene(points[j]));
        ASSERT_EQ(ra.status, rb.status) << ra.message << " | " << rb.message;
        if (!ra.found()) continue;
        ++planned;
        if (v.congruent) {
          EXPECT_NEAR(rb.length, ra.length, 1e-9 * ra.length);
        }
        EXPECT_NEAR(rb.raw_length, ra.raw_length, 1e-9 * ra.raw_length);
        EXPECT_TRUE(check.is_valid(rb.waypoints));
        EXPECT_EQ(rb.waypoints.front(), m.to_scene(points[i]));
        EXPECT_EQ(rb.waypoints.back(), m.to_scene(points[j]));
      }
    }
  }
  EXPECT_GE(planned, 120);
}

// A query in an occupied (or unknown) cell is refused on the turned map as on the upright one,
// naming the same cells; a free point at a cell's corner of the turned map is free.
TEST(RosRotatedMap, QueriesInBlockedCellsAreRefused) {
  const TempDir dir;
  dir.write("rooms.pgm", test::pgm_p5(rooms()));
  const Scene upright = load_scene(dir.write("upright.yaml", rooms_file(0.0)));
  const Scene turned = load_scene(dir.write("turned.yaml", rooms_file(0.7)));
  const OccupancyMap& m = *turned.occupancy;
  for (const std::string method : {"grid", "visgraph", "navmesh"}) {
    PlanOptions options;
    options.method = method;
    const Planner pa(upright, options), pb(turned, options);
    const Point free_point = in_cell(1, 1, 0.5, 0.5);
    for (const Point blocked :
         {in_cell(2, 2, 0.5, 0.5), in_cell(8, 2, 0.25, 0.75), in_cell(0, 4, 0.1, 0.9)}) {
      SCOPED_TRACE(method + " " + std::to_string(blocked.x) + "," + std::to_string(blocked.y));
      const PlanResult ra = pa.plan(free_point, blocked);
      const PlanResult rb = pb.plan(m.to_scene(free_point), m.to_scene(blocked));
      EXPECT_EQ(ra.status, search::SearchStatus::invalid_query);
      EXPECT_EQ(rb.status, search::SearchStatus::invalid_query);
      const auto reason = [](const std::string& message) {
        return message.substr(message.find("is not in free space"));
      };
      EXPECT_EQ(reason(rb.message), reason(ra.message));
      EXPECT_NE(rb.message.find("inside map cells"), std::string::npos) << rb.message;
    }
  }
}

// --- bad map files: each a located one-line message -------------------------------------------

struct BadCase {
  const char* name;
  std::string yaml;
  std::string expected;  // the message after "file:"
};

TEST(RosMap, BadMapFilesAreLocated) {
  const TempDir dir;
  dir.write("ok.pgm", test::pgm_p5(pattern()));
  dir.write("text.pgm", "this is not an image\n");
  dir.write("photo.jpg", std::string("\xff\xd8\xff\xe0 JFIF", 10));
  dir.write("short.pgm", "P5\n7 5\n255\n" + std::string(20, '\xfe'));
  dir.write("empty.pgm", "P5\n0 5\n255\n");
  dir.write("big.pgm", "P5\n100000 100000\n255\n");
  fs::create_directories(dir.path() / "folder.pgm");
  const std::string base =
      "resolution: 0.05\norigin: [0, 0, 0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.2\n";
  const std::vector<BadCase> cases = {
      {"missing_image", "image: nothere.pgm\n" + base,
       "1:8: image: cannot read the image 'nothere.pgm' (" + (dir.path() / "nothere.pgm").string() +
           "): no such file"},
      {"directory_image", "image: folder.pgm\n" + base,
       "1:8: image: cannot read the image 'folder.pgm' (" + (dir.path() / "folder.pgm").string() +
           "): it is a directory, not a file"},
      {"text_image", "image: text.pgm\n" + base,
       "1:8: image: cannot read the image 'text.pgm' (" + (dir.path() / "text.pgm").string() +
           "): not an image polynav knows: it starts with 'this is '; ROS map images must be PGM "
           "(P5 or P2), PNG or BMP"},
      {"jpeg_image", "image: photo.jpg\n" + base,
       "1:8: image: cannot read the image 'photo.jpg' (" + (dir.path() / "photo.jpg").string() +
           "): a JPEG image; ROS map images must be PGM (P5 or P2), PNG or BMP"},
      {"truncated_image", "image: short.pgm\n" + base,
       "1:8: image: cannot read the image 'short.pgm' (" + (dir.path() / "short.pgm").string() +
           "): the image data ends after 20 pixels of the 7 x 5 = 35 the PGM header declares"},
      {"empty_image", "image: empty.pgm\n" + base,
       "1:8: image: cannot read the image 'empty.pgm' (" + (dir.path() / "empty.pgm").string() +
           "): the PGM (P5) image has no pixels (width 0, height 5)"},
      {"huge_image", "image: big.pgm\n" + base,
       "1:8: image: cannot read the image 'big.pgm' (" + (dir.path() / "big.pgm").string() +
           "): the PGM (P5) image is too large: 100000 x 100000 pixels, more than the limit of "
           "67108864"},
      {"missing_resolution",
       "image: ok.pgm\norigin: [0, 0, 0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.2\n",
       "1:1: resolution: missing required key \"resolution\" (metres per pixel, > 0)"},
      {"missing_origin",
       "image: ok.pgm\nresolution: 0.05\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.2\n",
       "1:1: origin: missing required key \"origin\" ([x, y, yaw] of the lower-left pixel)"},
      {"missing_image_key", base,
       "1:1: image: missing required key \"image\" (the image file, relative to the map file)"},
      {"missing_free_thresh",
       "image: ok.pgm\nresolution: 0.05\norigin: [0, 0, 0]\nnegate: 0\noccupied_thresh: 0.65\n",
       "1:1: free_thresh: missing required key \"free_thresh\" (a probability from 0 to 1)"},
      {"negative_resolution",
       "image: ok.pgm\nresolution: -0.05\norigin: [0, 0, 0]\nnegate: 0\noccupied_thresh: 0.65\n"
       "free_thresh: 0.2\n",
       "2:13: resolution: resolution must be > 0 (metres per pixel), found -0.05"},
      {"occupied_above_one",
       "image: ok.pgm\nresolution: 0.05\norigin: [0, 0, 0]\nnegate: 0\noccupied_thresh: 1.5\n"
       "free_thresh: 0.2\n",
       "5:18: occupied_thresh: occupied_thresh must be from 0 to 1, found 1.5"},
      {"free_below_zero",
       "image: ok.pgm\nresolution: 0.05\norigin: [0, 0, 0]\nnegate: 0\noccupied_thresh: 0.65\n"
       "free_thresh: -0.1\n",
       "6:14: free_thresh: free_thresh must be from 0 to 1, found -0.1"},
      {"free_above_occupied",
       "image: ok.pgm\nresolution: 0.05\norigin: [0, 0, 0]\nnegate: 0\noccupied_thresh: 0.5\n"
       "free_thresh: 0.6\n",
       "6:14: free_thresh: free_thresh must not be above occupied_thresh 0.5 (given at 5:18), "
       "found 0.6"},
      {"unknown_mode", "image: ok.pgm\nmode: trinry\n" + base,
       "2:7: mode: unknown mode trinry (did you mean \"trinary\"?); the modes are trinary (the "
       "default), scale and raw"},
      {"nan_origin",
       "image: ok.pgm\nresolution: 0.05\norigin: [.nan, 0, 0]\nnegate: 0\noccupied_thresh: 0.65\n"
       "free_thresh: 0.2\n",
       "3:10: origin[0]: expected the origin's x (a number), got .nan (not a number)"},
      {"origin_two_numbers",
       "image: ok.pgm\nresolution: 0.05\norigin: [0, 0]\nnegate: 0\noccupied_thresh: 0.65\n"
       "free_thresh: 0.2\n",
       "3:9: origin: origin must be a list of three numbers [x, y, yaw], got a list [0, 0]"},
      {"negate_two",
       "image: ok.pgm\nresolution: 0.05\norigin: [0, 0, 0]\nnegate: 2\noccupied_thresh: 0.65\n"
       "free_thresh: 0.2\n",
       "4:9: negate: negate must be 0 or 1 (or false or true), found 2"},
      {"misspelt_required_key",
       "image: ok.pgm\nresolutoin: 0.05\norigin: [0, 0, 0]\nnegate: 0\noccupied_thresh: 0.65\n"
       "free_thresh: 0.2\n",
       "1:1: resolution: missing required key \"resolution\" (metres per pixel, > 0); did you "
       "mean \"resolution\" where \"resolutoin\" is written (2:1)?"},
      {"misspelt_key_before_missing_one",
       "image: ok.pgm\nresolution: 0.05\norigin: [0, 0, 0]\nnegate: 0\noccupied: 0.65\n"
       "free_thresh: 0.2\n",
       "1:1: occupied_thresh: missing required key \"occupied_thresh\" (a probability from 0 to "
       "1); did you mean \"occupied_thresh\" where \"occupied\" is written (5:1)?"},
      {"infinite_yaw",
       "image: ok.pgm\nresolution: 0.05\norigin: [0, 0, .inf]\nnegate: 0\noccupied_thresh: 0.65\n"
       "free_thresh: 0.2\n",
       "3:16: origin[2]: expected the origin's yaw to be a finite number, got .inf"},
      {"nan_yaw",
       "image: ok.pgm\nresolution: 0.05\norigin: [0, 0, .NaN]\nnegate: 0\noccupied_thresh: 0.65\n"
       "free_thresh: 0.2\n",
       "3:16: origin[2]: expected the origin's yaw (a number), got .NaN (not a number)"},
  };
  for (const BadCase& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path yaml = dir.write(std::string(c.name) + ".yaml", c.yaml);
    EXPECT_EQ(error_of([&] { load_scene(yaml); }), yaml.string() + ":" + c.expected);
  }
}

// A value holding a line break (a double-quoted escape, or a block scalar) is quoted into the
// message escaped, and the path it resolves to as well: what() is one line.
TEST(RosMap, ImageNameWithALineBreakGivesAOneLineMessage) {
  const TempDir dir;
  const std::string base =
      "resolution: 0.05\norigin: [0, 0, 0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.2\n";
  for (const char* image : {"image: \"a\\nb.pgm\"\n", "image: |-\n  a\n  b.pgm\n"}) {
    SCOPED_TRACE(image);
    const fs::path yaml = dir.write("line_break.yaml", std::string(image) + base);
    try {
      load_scene(yaml);
      ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      EXPECT_EQ(e.message().find('\n'), std::string::npos) << e.message();
      EXPECT_EQ(what, yaml.string() + ":1:8: image: cannot read the image 'a\\nb.pgm' (" +
                          dir.path().string() + "/a\\nb.pgm): no such file");
    }
  }
}

TEST(RosMap, ImageFormatsRefuseBrokenData) {
  const auto message = [](const std::string& bytes) {
    try {
      detail::decode_image(bytes, 1 << 20);
    } catch (const detail::ImageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(message("P5\n2 2\n9\n\x01\x02\x0a\x03"),
            "pixel (0, 1) has the value 10, above the PGM maxval 9");
  EXPECT_EQ(message("P2\n2 1\n255\n1 x\n"),
            "pixel (1, 0) of the plain PGM is not a decimal number: found 'x'");
  EXPECT_EQ(message("P2\n2 2\n255\n1 2 3\n"),
            "the image data ends after 3 pixels of the 2 x 2 = 4 the PGM header declares");
  EXPECT_EQ(message("P5\n2 2\n70000\n"), "the PGM maxval must be from 1 to 65535, found 70000");
  EXPECT_EQ(message("P6\n1 1\n255\n\x01\x02\x03"),
            "a PPM (P6) image; ROS map images must be PGM (P5 or P2), PNG or BMP");
  EXPECT_EQ(message(""), "the image file is empty");
  EXPECT_TRUE(message("\x89PNG\r\n\x1a\nbroken").starts_with("cannot decode the PNG image: "));
  // A BMP cut short: stb_image would read zeros for the missing rows. The last row's padding
  // may be missing (3 grey pixels a row, padded to 4 bytes; rows from byte 14 + 40 + 1024).
  const std::string grey_bmp = test::bmp({3, 2, 1, {0, 50, 100, 150, 200, 250}});
  ASSERT_EQ(grey_bmp.size(), 1086u);
  EXPECT_EQ(message(grey_bmp), "");
  EXPECT_EQ(message(grey_bmp.substr(0, 1085)), "");
  EXPECT_EQ(message(grey_bmp.substr(0, 1084)),
            "the BMP file ends after 1084 bytes, but its header declares 3 x 2 pixels of 8 bits "
            "from byte 1078, 1085 bytes in all (the file is truncated)");
  const std::string rgba_bmp = test::bmp({2, 1, 4, {1, 2, 3, 4, 5, 6, 7, 8}});
  EXPECT_EQ(message(rgba_bmp.substr(0, rgba_bmp.size() - 1)),
            "the BMP file ends after 129 bytes, but its header declares 2 x 1 pixels of 32 bits "
            "from byte 122, 130 bytes in all (the file is truncated)");
  // Sixteen-bit PGM samples, most significant byte first, and comments in the header.
  static constexpr char wide_pgm[] = "P5 # comment\n2 # more\n1\n1000\n\x03\xe8\x00\x01";
  const Image wide = detail::decode_image(std::string(wide_pgm, sizeof wide_pgm - 1), 100);
  EXPECT_EQ(wide.max_value, 1000);
  EXPECT_EQ(wide.samples, (std::vector<std::uint16_t>{1000, 1}));
}

}  // namespace
}  // namespace polynav
