// Inflation of raster maps on their own cells: the distance transform against a brute-force
// oracle on random rasters, and on every bundled and shared ROS map at several radii the two
// halves of the guarantee, measured: nothing within the radius of a blocked cell is free, and
// nothing farther than the radius plus one cell diagonal is blocked. Against exact inflation on
// the smaller maps, the free area each mode keeps.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "../../src/space/cell_inflation.hpp"
#include "polynav/error.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"
#include "support/data.hpp"
#include "support/raster_distance.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;
using detail::inflate_cells;
using test_support::distance_to_blocked;

// Whether cell (x, y) comes within `radius` cells of a blocked cell or of the outside of the map,
// by trying every blocked cell: the squared distance between two cells' closed squares is
// max(|dx| - 1, 0)^2 + max(|dy| - 1, 0)^2 in cell sides.
bool within_radius_brute_force(const CellMap& cells, int x, int y, double radius) {
  const auto gap = [](long d) { return std::max<long>(std::labs(d) - 1, 0); };
  const double r2 = radius * radius;
  const long edge = std::min({long(x) + 1, long(y) + 1, long(cells.width) - x,
                              long(cells.height) - y});  // to the cells just outside the map
  if (double(gap(edge) * gap(edge)) <= r2) return true;
  for (int by = 0; by < cells.height; ++by)
    for (int bx = 0; bx < cells.width; ++bx)
      if (cells.is_blocked(bx, by)) {
        const long gx = gap(bx - x), gy = gap(by - y);
        if (double(gx * gx + gy * gy) <= r2) return true;
      }
  return false;
}

TEST(CellInflation, MatchesBruteForceOnRandomRasters) {
  std::mt19937 rng(20261126);
  for (int trial = 0; trial < 60; ++trial) {
    CellMap cells;
    cells.width = std::uniform_int_distribution<int>(1, 40)(rng);
    cells.height = std::uniform_int_distribution<int>(1, 40)(rng);
    const double density = std::uniform_real_distribution<double>(0.0, 0.2)(rng);
    cells.blocked.resize(std::size_t(cells.width) * cells.height);
    for (auto& b : cells.blocked) b = std::bernoulli_distribution(density)(rng);
    // Radii on the distances that occur (square roots of integers), just beside them, and between.
    for (const double radius :
         {0.3, 1.0, std::sqrt(2.0) + 1e-9, 2.0, 2.5, std::sqrt(13.0) - 1e-9, 4.2, 9.0}) {
      const CellMap inflated = inflate_cells(cells, radius);
      ASSERT_EQ(inflated.width, cells.width);
      ASSERT_EQ(inflated.height, cells.height);
      for (int y = 0; y < cells.height; ++y)
        for (int x = 0; x < cells.width; ++x)
          ASSERT_EQ(inflated.is_blocked(x, y) != 0, within_radius_brute_force(cells, x, y, radius))
              << "trial " << trial << " radius " << radius << " cell " << x << "," << y;
    }
  }
}

TEST(CellInflation, AnEmptyRasterShrinksFromItsEdgeOnly) {
  CellMap cells;
  cells.width = 30;
  cells.height = 20;
  cells.blocked.assign(600, 0);
  const CellMap inflated = inflate_cells(cells, 2.5);
  // A cell is within 2.5 sides of the outside when it is among the three outermost rings.
  for (int y = 0; y < 20; ++y)
    for (int x = 0; x < 30; ++x) {
      const int ring = std::min({x, y, 29 - x, 19 - y});
      EXPECT_EQ(inflated.is_blocked(x, y) != 0, ring < 3) << x << "," << y;
    }
}

// The ROS maps the project bundles and, when present, the full ones of the shared data.
std::vector<fs::path> ros_maps() {
  std::vector<fs::path> maps = test_support::files_in(test_support::bundled_scenes("ros"), ".yaml");
  const fs::path shared = test_support::shared_data("ros");
  if (fs::exists(shared))
    for (const auto& entry : fs::recursive_directory_iterator(shared))
      if (entry.path().extension() == ".yaml") maps.push_back(entry.path());
  // The bundled depot turned by an origin yaw: inflated in the map's frame, then turned.
  const fs::path turned = fs::temp_directory_path() / "polynav_cell_inflation_turned.yaml";
  std::ofstream(turned) << "image: " << (test_support::bundled_scenes("ros") / "depot.pgm").string()
                        << "\nmode: trinary\nresolution: 0.2\norigin: [15.0, 0.15, 0.7]\n"
                           "negate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.25\n";
  maps.push_back(turned);
  return maps;
}

TEST(CellInflation, KeepsTheRadiusAndLosesAtMostACellDiagonalOnEveryRosMap) {
  const std::vector<fs::path> maps = ros_maps();
  ASSERT_FALSE(maps.empty());
  for (const fs::path& path : maps) {
    const Scene base = load_scene(path);
    const double cell = base.native_cell_size.value();
    for (const double radius : {cell, 0.22, 0.3}) {
      Scene scene = base;
      scene.agent.radius = radius;
      const detail::SceneRaster raster = detail::scene_raster(scene).value();
      const CellMap inflated = inflate_cells(raster.cells, radius / cell);
      if (std::all_of(inflated.blocked.begin(), inflated.blocked.end(), [](auto b) { return b; })) {
        // A small map whose free room is narrower than the agent: refused, not planned in.
        EXPECT_THROW(FreeSpace{scene}, InputError) << path << " radius " << radius;
        continue;
      }
      const FreeSpace space(scene);
      ASSERT_EQ(space.inflation(), Inflation::cells) << path;
      const double diagonal = std::sqrt(2.0) * cell;
      EXPECT_DOUBLE_EQ(space.inflation_tolerance(), diagonal);
      const Box box = space.bounds_box();
      std::mt19937 rng(7);
      std::uniform_real_distribution<double> ux(box.min.x, box.max.x), uy(box.min.y, box.max.y);
      int blocked_near = 0, free_far = 0;
      double worst_excess = 0.0;
      for (int i = 0; i < 40000; ++i) {
        const Point p{ux(rng), uy(rng)};
        const double d = distance_to_blocked(raster, p, scene.agent.radius + 2.0 * diagonal);
        const bool is_free = space.is_free(p);
        // Never freed: every point nearer than the radius to a blocked cell.
        if (d < scene.agent.radius) {
          ++blocked_near;
          ASSERT_FALSE(is_free) << path << " radius " << scene.agent.radius << " at " << p.x << ","
                                << p.y << ": " << d << " from a blocked cell";
        }
        // Lost at most: a blocked point lies within the radius plus a cell diagonal.
        if (!is_free) worst_excess = std::max(worst_excess, d - scene.agent.radius);
        if (d > scene.agent.radius + diagonal) {
          ++free_far;
          ASSERT_TRUE(is_free) << path << " at " << p.x << "," << p.y;
        }
      }
      EXPECT_GT(blocked_near, 0) << path;
      EXPECT_GT(free_far, 0) << path;
      EXPECT_LE(worst_excess, diagonal) << path;
      RecordProperty(path.stem().string() + "_r" + std::to_string(radius) + "_excess",
                     std::to_string(worst_excess / cell) + " cells");
    }
  }
}

TEST(CellInflation, KeepsLessFreeAreaThanExactInflationButWithinItsBound) {
  // The smaller maps, where exact inflation is quick: the cells mode's free space lies inside the
  // exact mode's, and what it loses is a band at most a cell diagonal wide along the boundary.
  for (const fs::path& path :
       test_support::files_in(test_support::bundled_scenes("ros"), ".yaml")) {
    Scene scene = load_scene(path);
    const double cell = scene.native_cell_size.value();
    if (scene.occupancy->width * scene.occupancy->height > 200'000) continue;
    scene.agent.radius = 0.22;
    const FreeSpace cells(scene, {.inflation = Inflation::cells});
    const FreeSpace exact(scene, {.inflation = Inflation::exact});
    EXPECT_EQ(exact.inflation(), Inflation::exact);
    EXPECT_LE(cells.area(), exact.area()) << path;
    double perimeter = 0.0;
    for (const BoundaryRing& ring : exact.boundary())
      for (std::size_t i = 0; i < ring.points.size(); ++i)
        perimeter += distance(ring.points[i], ring.points[(i + 1) % ring.points.size()]);
    EXPECT_LE(exact.area() - cells.area(), perimeter * std::sqrt(2.0) * cell) << path;
    // Every point cells mode calls free, exact mode calls free too (sampled).
    const Box box = cells.bounds_box();
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> ux(box.min.x, box.max.x), uy(box.min.y, box.max.y);
    for (int i = 0; i < 20000; ++i) {
      const Point p{ux(rng), uy(rng)};
      if (cells.is_free(p)) {
        ASSERT_TRUE(exact.is_free(p)) << path << " " << p.x << "," << p.y;
      }
    }
    RecordProperty(path.stem().string() + "_free_area_cells_over_exact",
                   std::to_string(cells.area() / exact.area()));
  }
}

TEST(CellInflation, IsRefusedWithoutARasterAndWhenNothingIsLeft) {
  Scene scene;
  scene.name = "square";
  scene.bounds = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  scene.agent.radius = 0.5;
  try {
    const FreeSpace space(scene, {.inflation = Inflation::cells});
    FAIL() << "cells inflation of a polygon scene";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("space.inflation"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("raster map"), std::string::npos) << e.what();
  }
  // auto on a polygon scene is exact inflation.
  EXPECT_EQ(FreeSpace(scene).inflation(), Inflation::exact);

  Scene map = load_scene(test_support::bundled_scenes("ros") / "turtlebot3_world.yaml");
  map.agent.radius = 5.0;  // wider than the map's free room
  try {
    const FreeSpace space(map);
    FAIL() << "a radius that leaves nothing free";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no free space is left"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("agent.radius"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace polynav
