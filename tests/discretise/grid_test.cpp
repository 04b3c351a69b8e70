// Occupancy grid: rasterisation against FreeSpace, corner cutting, heuristics, heights, limits,
// and the MovingAI benchmark's optimal lengths.
#include "polynav/discretise/grid/occupancy_grid.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <filesystem>
#include <fstream>
#include <random>

#include "discretise/random_scenes.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/search/astar.hpp"
#include "polynav/smooth/path_simplifier.hpp"
#include "polynav/space/free_space.hpp"
#include "support/data.hpp"
#include "support/scale.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

using test::random_scene;
using test::rect;

// A cell is free exactly when its closed square lies in free space: its sides are in line of
// sight, its centre is free and no boundary vertex lies strictly inside it.
TEST(OccupancyGrid, FreeCellsAreExactlyTheSquaresInsideFreeSpace) {
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const FreeSpace space(random_scene(seed, seed % 2 ? 0.0 : 0.3));
    GridOptions options;
    options.resolution = 0.7;
    const OccupancyGrid grid(space, options);
    int free_cells = 0;
    for (int cy = 0; cy < grid.height(); ++cy) {
      for (int cx = 0; cx < grid.width(); ++cx) {
        const Point o = grid.origin();
        const double s = grid.cell_size();
        const Point a{o.x + cx * s, o.y + cy * s}, b{a.x + s, a.y}, c{a.x + s, a.y + s},
            d{a.x, a.y + s};
        bool vertex_inside = false;
        for (const BoundaryRing& ring : space.boundary())
          for (const Point& p : ring.points)
            vertex_inside = vertex_inside || (p.x > a.x && p.x < c.x && p.y > a.y && p.y < c.y);
        const bool expected = space.line_of_sight(a, b) && space.line_of_sight(b, c) &&
                              space.line_of_sight(c, d) && space.line_of_sight(d, a) &&
                              space.is_free(grid.cell_centre(cx, cy)) && !vertex_inside;
        if (!expected) {
          EXPECT_TRUE(grid.blocked(cx, cy)) << "seed " << seed << " cell " << cx << "," << cy;
        } else {
          EXPECT_FALSE(grid.blocked(cx, cy))
              << "seed " << seed << " cell " << cx << "," << cy << " blocked needlessly";
        }
        free_cells += grid.blocked(cx, cy) ? 0 : 1;
      }
    }
    EXPECT_GT(free_cells, 100);
  }
}

TEST(OccupancyGrid, PathsNeverCutCornersOrLeaveFreeSpace) {
  for (unsigned seed = 1; seed <= 6; ++seed) {
    Scene scene = random_scene(seed, 0.0);
    PlanOptions options;
    options.settings.set("grid.resolution", 0.5);
    options.smoother = "none";
    Planner planner(scene, options);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> coord(0.0, 20.0);
    int found = 0;
    for (int q = 0; q < 40; ++q) {
      const Point s{coord(rng), coord(rng)}, g{coord(rng), coord(rng)};
      const PlanResult r = planner.plan(s, g);
      if (!r.found()) continue;
      ++found;
      ASSERT_EQ(r.raw_waypoints.front(), s);
      ASSERT_EQ(r.raw_waypoints.back(), g);
      for (std::size_t k = 1; k < r.raw_waypoints.size(); ++k)
        ASSERT_TRUE(planner.free_space().line_of_sight(r.raw_waypoints[k - 1], r.raw_waypoints[k]));
    }
    EXPECT_GT(found, 10);
  }
}

TEST(OccupancyGrid, DiagonalMovesNeedBothOrthogonalNeighboursFree) {
  // Two blocks touching at (2, 2): the diagonal between the free cells (1,2) and (2,1) around
  // that corner must not be offered.
  Scene scene;
  scene.bounds = rect(0, 0, 4, 4);
  scene.obstacles.push_back({{rect(1, 1, 2, 2), {}}, {}});
  scene.obstacles.push_back({{rect(2, 2, 3, 3), {}}, {}});
  const FreeSpace space(scene);
  GridOptions options;
  options.resolution = 1.0;
  const OccupancyGrid grid(space, options);
  ASSERT_TRUE(grid.blocked(1, 1));
  ASSERT_TRUE(grid.blocked(2, 2));
  ASSERT_FALSE(grid.blocked(1, 2));
  ASSERT_FALSE(grid.blocked(2, 1));
  const search::NodeId from = 2 * 4 + 1, to = 1 * 4 + 2;
  bool offered = false;
  grid.for_each_neighbour(from, [&](search::NodeId n, double) { offered = offered || n == to; });
  EXPECT_FALSE(offered);
}

// A wall (a boundary edge traced both ways, free on both sides, as a navigation mesh's
// constrained edge becomes) lies along cell sides from (2, 0) to (2, 3): the cells beside it are
// free, but no move may cross it, nor pass diagonally through a point of it.
TEST(OccupancyGrid, NoMoveCrossesAWallAlongCellSides) {
  Scene scene;
  scene.bounds = rect(0, 0, 4, 4);
  scene.free_boundary = {{{0, 0}, {2, 0}, {2, 3}, {2, 0}, {4, 0}, {4, 4}, {0, 4}}};
  const FreeSpace space(scene);
  for (int connectivity : {4, 8}) {
    GridOptions options;
    options.resolution = 1.0;
    options.connectivity = connectivity;
    const OccupancyGrid grid(space, options);
    ASSERT_EQ(grid.width(), 4);
    ASSERT_EQ(grid.height(), 4);
    int moves = 0;
    for (int cy = 0; cy < 4; ++cy) {
      for (int cx = 0; cx < 4; ++cx) {
        ASSERT_FALSE(grid.blocked(cx, cy)) << cx << "," << cy;
        const Point from = grid.cell_centre(cx, cy);
        grid.for_each_neighbour(search::NodeId(cy * 4 + cx), [&](search::NodeId n, double) {
          const Point to = grid.node_position(n);
          EXPECT_TRUE(space.line_of_sight(from, to))
              << connectivity << "-connected move from " << from.x << "," << from.y << " to "
              << to.x << "," << to.y << " crosses the wall";
          ++moves;
        });
      }
    }
    // Only the three moves across the wall (and, 8-connected, the diagonals through its
    // points) are gone.
    EXPECT_EQ(moves, connectivity == 4 ? 48 - 6 : 48 + 36 - 6 - 3 * 4) << connectivity;
  }
  PlanOptions options;
  options.settings.set("grid.resolution", 1.0);
  const Planner planner(scene, options);
  const PlanResult r = planner.plan({1.5, 0.5}, {2.5, 0.5});
  ASSERT_TRUE(r.found()) << r.message;
  EXPECT_GT(r.cost, 5.0);  // around the top of the wall at (2, 3)
}

// The grid labels its components from each cell's moves to lower ids alone; the labels must be
// those of union-find over every arc with its cost (the generic labelling), and every arc must
// have its reverse, which that shortcut relies on. Random scenes (points and discs), a wall along
// cell sides, and a MovingAI map, at 4, 8 and 16 neighbours.
// On a map's own cells, with a point agent, free space reads the map (FreeSpace::map_cells) for
// the grid's cells, which are then what classifying them against the same outline without the
// map gives; a map whose outline was changed after it was traced is classified instead.
TEST(OccupancyGrid, OnAMapsOwnCellsTheGridIsTheMapItsOutlineBounds) {
  // Whether the grid over `space` (built from `scene`) has the cells classified against the
  // scene's outline alone, its map dropped.
  const auto as_classified = [](const Scene& scene, const FreeSpace& space) {
    Scene outline = scene;
    outline.cell_map.reset();
    const FreeSpace classifying(outline);
    const OccupancyGrid grid(space, GridOptions{});
    const std::vector<std::uint8_t> free = classifying.free_cells(grid.frame());
    for (int r = 0; r < grid.height(); ++r)
      for (int c = 0; c < grid.width(); ++c)
        if ((free[std::size_t(r) * std::size_t(grid.width()) + std::size_t(c)] != 0) ==
            grid.blocked(c, r))
          return false;
    return classifying.map_cells() == nullptr;
  };
  std::vector<fs::path> maps =
      test_support::files_in(test_support::bundled_scenes("movingai"), ".map");
  for (const fs::path& map : test_support::files_in(test_support::shared_data("movingai"), ".map"))
    if (fs::file_size(map) < 100'000) maps.push_back(map);
  ASSERT_GE(maps.size(), 3u);
  for (const fs::path& path : maps) {
    const Scene scene = load_scene(path);
    const FreeSpace space(scene);
    ASSERT_NE(space.map_cells(), nullptr) << path;
    const OccupancyGrid grid(space, GridOptions{});
    // The grid spans free space's box from the map's corner: the map's cells, or fewer where
    // its last rows or columns are all blocked.
    ASSERT_LE(grid.width(), scene.cell_map->width) << path;
    ASSERT_LE(grid.height(), scene.cell_map->height) << path;
    EXPECT_TRUE(as_classified(scene, space)) << path;
    for (int r = 0; r < grid.height(); ++r)
      for (int c = 0; c < grid.width(); ++c)
        ASSERT_EQ(grid.blocked(c, r), scene.cell_map->is_blocked(c, scene.cell_map->height - 1 - r))
            << path << " cell " << c << "," << r;

    // A free cell blocked in the map after tracing, and a ring dropped: neither is the outline
    // of the map's free cells any more.
    Scene changed = scene;
    for (unsigned char& cell : changed.cell_map->blocked)
      if (cell == 0) {
        cell = 1;
        break;
      }
    Scene dropped = scene;
    dropped.free_boundary.pop_back();
    for (const Scene* other : {&changed, &dropped}) {
      const FreeSpace other_space(*other);
      EXPECT_EQ(other_space.map_cells(), nullptr) << path;
      EXPECT_TRUE(as_classified(*other, other_space)) << path;
    }
  }
}

TEST(OccupancyGrid, ComponentsFromTheMovesAreThoseThroughEveryArc) {
  std::vector<std::pair<std::string, Scene>> scenes;
  for (unsigned seed = 1; seed <= 4; ++seed)
    scenes.emplace_back("seed " + std::to_string(seed), random_scene(seed, seed % 2 ? 0.0 : 0.3));
  Scene wall;
  wall.bounds = rect(0, 0, 4, 4);
  wall.free_boundary = {{{0, 0}, {2, 0}, {2, 3}, {2, 0}, {4, 0}, {4, 4}, {0, 4}}};
  scenes.emplace_back("wall", wall);
  scenes.emplace_back("maze",
                      load_scene(test_support::bundled_scenes("movingai") / "maze-100-1.map"));
  // A map a third blocked at random: many small components, cells touching only at corners,
  // and runs of every length, some reaching past the ends of several runs of the next row.
  {
    std::mt19937 rng(5);
    std::bernoulli_distribution blocked_cell(0.35);
    std::string text = "type octile\nheight 61\nwidth 83\nmap\n";
    for (int y = 0; y < 61; ++y) {
      for (int x = 0; x < 83; ++x) text += blocked_cell(rng) ? '@' : '.';
      text += '\n';
    }
    const auto path = std::filesystem::temp_directory_path() / "polynav-grid-components.map";
    { std::ofstream(path) << text; }
    scenes.emplace_back("random map", load_scene(path));
    std::filesystem::remove(path);
  }
  for (const auto& [name, scene] : scenes) {
    const FreeSpace space(scene);
    for (int connectivity : {4, 8, 16}) {
      GridOptions options;
      options.resolution = name == "maze" || name == "random map" ? 1.0 : 0.35;
      options.connectivity = connectivity;
      const OccupancyGrid grid(space, options);
      ASSERT_NE(grid.components(), nullptr) << name;
      const search::ComponentLabels through_every_arc(grid);
      EXPECT_EQ(grid.components()->labels(), through_every_arc.labels())
          << name << ", " << connectivity << " neighbours";
      EXPECT_GT(through_every_arc.component_count(), 1u) << name;
      std::size_t one_way = 0;
      for (search::NodeId u = 0; u < grid.node_count(); ++u)
        grid.for_each_neighbour(u, [&](search::NodeId v, double) {
          bool back = false;
          grid.for_each_neighbour(v, [&](search::NodeId w, double) { back = back || w == u; });
          one_way += back ? 0 : 1;
        });
      EXPECT_EQ(one_way, 0u) << name << ", " << connectivity << " neighbours";
    }
  }
}

TEST(OccupancyGrid, EveryAdmissibleHeuristicFindsTheSameOptimalCost) {
  Scene scene = random_scene(3, 0.0);
  scene.regions.push_back({"mud", 2.5, std::nullopt, rect(5, 5, 12, 9), {}});
  scene.regions.push_back({"road", 0.5, std::nullopt, rect(0, 14, 20, 15.5), {}});
  std::vector<double> reference;
  for (const char* name : {"zero", "octile", "euclidean", "chebyshev"}) {
    PlanOptions options;
    options.settings.set("grid.resolution", 0.5);
    options.settings.set("grid.heuristic", name);
    options.smoother = "none";
    Planner planner(scene, options);
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> coord(0.0, 20.0);
    std::vector<double> costs;
    for (int q = 0; q < 30; ++q) {
      const PlanResult r = planner.plan({coord(rng), coord(rng)}, {coord(rng), coord(rng)});
      costs.push_back(r.found() ? r.raw_cost : -1.0);
    }
    if (reference.empty()) {
      reference = costs;
    } else {
      for (std::size_t k = 0; k < costs.size(); ++k)
        EXPECT_NEAR(costs[k], reference[k], 1e-9) << name;
    }
  }
}

// Move lengths are fixed point: on an open grid every cost the search finds is the octile (or
// Manhattan) length computed as a product, to the last bit, whatever the order of the moves
// summed, also for a cell side that is not a power of two.
// The searches' cell of a node id by a multiplication is the division's, for every width a
// node id allows: ids near 2^32 on the widest rows the multiplication serves, and rows wider
// (2^32 - 2 is a width whose last cell the multiplication alone would put a row too far).
TEST(CellSplit, EqualsTheDivisionForEveryWidthAndId) {
  std::mt19937_64 rng(7);
  const std::uint32_t top = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> widths = {
      1,       2,  3, 7, 48, 1000, 1024, 65535, 65536, (1u << 31) - 1, 1u << 31, (1u << 31) + 1,
      top - 1, top};
  for (int i = 0; i < 200; ++i) widths.push_back(std::uint32_t(rng() % top) + 1);
  for (const std::uint32_t width : widths) {
    const CellSplit split(width);
    std::vector<std::uint32_t> ids = {0, width - 1, top, top - 1, top - width + 1};
    if (width < top) ids.push_back(width);
    for (int i = 0; i < 200; ++i) ids.push_back(std::uint32_t(rng()));
    for (const std::uint32_t n : ids) {
      int x = -1, y = -1;
      split(n, x, y);
      ASSERT_EQ(std::uint32_t(x), n % width) << "id " << n << ", width " << width;
      ASSERT_EQ(std::uint32_t(y), n / width) << "id " << n << ", width " << width;
    }
  }
}

TEST(OccupancyGrid, FixedPointCostsAreExactWhateverTheOrderOfTheMoves) {
  Scene scene;
  scene.bounds = rect(0, 0, 3, 2);
  const FreeSpace space(scene);
  for (const int connectivity : {4, 8}) {
    GridOptions options;
    options.resolution = 0.05;
    options.connectivity = connectivity;
    const OccupancyGrid grid(space, options);
    EXPECT_NEAR(grid.straight_length(), 0.05, 1e-9);
    EXPECT_NEAR(grid.diagonal_length(), 0.05 * std::sqrt(2.0), 1e-9);
    search::AStar astar;
    search::ReachableSet reached;
    const auto source = search::NodeId(7 * grid.width() + 11);
    astar.reachable(grid, source, INFINITY, reached);
    ASSERT_EQ(reached.nodes.size(), grid.node_count());
    for (const search::ReachedNode& r : reached.nodes) {
      const int dx = std::abs(int(r.node % grid.width()) - 11);
      const int dy = std::abs(int(r.node / grid.width()) - 7);
      const int hi = std::max(dx, dy), lo = std::min(dx, dy);
      const double expected = connectivity == 4 ? double(dx + dy) * grid.straight_length()
                                                : double(hi - lo) * grid.straight_length() +
                                                      double(lo) * grid.diagonal_length();
      ASSERT_EQ(r.cost, expected) << "cell offset " << dx << ", " << dy;
    }
  }
}

TEST(OccupancyGrid, TieRulesThatDoNotApplyAreRefusedNamingTheOption) {
  const fs::path scenes = fs::path(POLYNAV_SOURCE_DIR) / "scenes";
  const auto refusal = [](const Scene& scene,
                          std::vector<std::pair<std::string, std::string>> set) {
    PlanOptions options;
    for (const auto& [key, value] : set) options.settings.set(key, value);
    try {
      Planner planner(scene, options);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const Scene maze = load_scene(scenes / "maze.yaml");
  std::string m = refusal(maze, {{"grid.ties", "central-64"}});
  EXPECT_NE(m.find("grid.ties"), std::string::npos) << m;
  EXPECT_NE(m.find("central64"), std::string::npos) << m;  // the choices, or the nearest one
  m = refusal(maze, {{"grid.ties", "central64"}, {"grid.connectivity", "16"}});
  EXPECT_NE(m.find("grid.ties"), std::string::npos) << m;
  EXPECT_NE(m.find("16"), std::string::npos) << m;
  m = refusal(maze, {{"grid.ties", "lifo"}, {"grid.search", "jps"}});
  EXPECT_NE(m.find("grid.ties"), std::string::npos) << m;
  EXPECT_NE(m.find("jps"), std::string::npos) << m;
  m = refusal(load_scene(scenes / "terrain.yaml"), {{"grid.ties", "central64"}});
  EXPECT_NE(m.find("grid.ties"), std::string::npos) << m;
  EXPECT_NE(m.find("region"), std::string::npos) << m;
  // The binary heap has no beam search: the automatic rule then takes larger-g, an explicit
  // central64 says why each query cannot be searched.
  for (const char* ties : {"auto", "central64"}) {
    PlanOptions options;
    options.settings.set("grid.ties", ties);
    options.settings.set("search.beam_width", 5000);
    const Planner planner(maze, options);
    const PlanResult r = planner.plan(maze.queries.front().start, maze.queries.front().goal);
    if (std::string(ties) == "auto") {
      EXPECT_TRUE(r.found()) << r.message;
    } else {
      EXPECT_EQ(r.status, search::SearchStatus::invalid_query);
      EXPECT_NE(r.message.find("grid.ties=central64"), std::string::npos) << r.message;
    }
  }
  // What applies is accepted: the automatic rule everywhere, the others with A*.
  EXPECT_EQ(refusal(load_scene(scenes / "terrain.yaml"), {{"grid.ties", "auto"}}), "accepted");
  EXPECT_EQ(refusal(maze, {{"grid.ties", "auto"}, {"grid.search", "jps"}}), "accepted");
  EXPECT_EQ(refusal(maze, {{"grid.ties", "line"}, {"grid.connectivity", "16"}}), "accepted");
}

TEST(OccupancyGrid, OneWayHeightSteps) {
  // A plateau of height 2 in the middle of a corridor; the agent climbs at most 1: it may come
  // down from the plateau but not go up onto it.
  Scene scene;
  scene.bounds = rect(0, 0, 12, 3);
  scene.agent.max_climb = 1.0;
  scene.regions.push_back({"plateau", 1.0, 2.0, rect(4, 0, 8, 3), {}});
  PlanOptions options;
  options.settings.set("grid.resolution", 0.5);
  Planner planner(scene, options);
  EXPECT_EQ(planner.plan({1, 1.5}, {11, 1.5}).status, search::SearchStatus::no_path);
  const PlanResult down = planner.plan({6, 1.5}, {11, 1.5});
  ASSERT_TRUE(down.found()) << down.message;
  EXPECT_TRUE(planner.free_space().climbable({6, 1.5}, {11, 1.5}));
  EXPECT_FALSE(planner.free_space().climbable({1, 1.5}, {6, 1.5}));
}

TEST(OccupancyGrid, AStepHiddenBetweenCellCentresIsNotClimbed) {
  // A ramp at height 1 and a plateau at height 2 with a strip of ground (height 0) 0.1 wide
  // between them: the cell centres either side of the strip differ by 1, but going up onto the
  // plateau means climbing 2 from the strip. Down from the plateau is allowed.
  Scene scene;
  scene.bounds = rect(0, 0, 12, 3);
  scene.agent.max_climb = 1.0;
  scene.regions.push_back({"ramp", 1.0, 1.0, rect(0, 0, 5.9, 3), {}});
  scene.regions.push_back({"plateau", 1.0, 2.0, rect(6, 0, 12, 3), {}});
  for (const char* variant : {"8", "16", "jps"}) {
    SCOPED_TRACE(variant);
    PlanOptions options;
    options.settings.set("grid.resolution", 0.5);
    if (std::string(variant) == "16") options.settings.set("grid.connectivity", 16);
    if (std::string(variant) == "jps") options.settings.set("grid.search", "jps");
    Planner planner(scene, options);
    const PlanResult up = planner.plan({1, 1.5}, {11, 1.5});
    EXPECT_EQ(up.status, search::SearchStatus::no_path) << up.message;
    const PlanResult down = planner.plan({11, 1.5}, {1, 1.5});
    ASSERT_TRUE(down.found()) << down.message;
  }
}

TEST(OccupancyGrid, RefusesBadOptionsWithMessagesNamingTheOption) {
  Scene scene;
  scene.bounds = rect(0, 0, 10, 10);
  const FreeSpace space(scene);
  GridOptions options;
  options.resolution = -1.0;
  try {
    OccupancyGrid grid(space, options);
    ADD_FAILURE() << "negative resolution accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("resolution"), std::string::npos) << e.what();
  }
  options.resolution = 1e-4;
  options.max_cells = 1000000;
  try {
    OccupancyGrid grid(space, options);
    ADD_FAILURE() << "grid beyond the budget accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("grid.max_cells"), std::string::npos) << e.what();
  }
  // With the budget lifted, sides beyond int and grids beyond the machine's memory are refused
  // before anything is allocated.
  options.max_cells = std::numeric_limits<std::size_t>::max();
  options.resolution = 1e-3;  // 1e10 x 1 cells
  Scene strip;
  strip.bounds = rect(0, 0, 1e7, 1e-3);
  const FreeSpace strip_space(strip);
  try {
    OccupancyGrid grid(strip_space, options);
    ADD_FAILURE() << "a side of 1e10 cells accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("along a side"), std::string::npos) << e.what();
  }
  options.resolution = 1e-5;  // 1e6 x 1e6 cells: 32 TB
  try {
    OccupancyGrid grid(space, options);
    ADD_FAILURE() << "a grid beyond the machine's memory accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("this machine"), std::string::npos) << e.what();
  }
  options = {};
  options.connectivity = 6;
  EXPECT_THROW(OccupancyGrid(space, options), InputError);
  EXPECT_THROW(parse_grid_heuristic("manhatan"), InputError);
}

// MovingAI's optimal lengths are for 8-connected moves without corner cutting: the grid method
// on the map's own cells must reproduce every one of them.
void expect_scenario_lengths(const fs::path& map, const fs::path& scen,
                             const std::string& ties = "auto") {
  const Scene scene = load_scene(map);
  // Scenario files list their queries by length bucket: an even sample keeps every bucket.
  const std::vector<Query> all = load_scenario(scen, scene);
  const std::vector<Query> queries = test::evenly(all, test::scaled(all.size()));
  PlanOptions options;
  options.smoother = "none";
  options.settings.set("grid.ties", ties);
  Planner planner(scene, options);
  int mismatches = 0;
  for (const Query& q : queries) {
    ASSERT_TRUE(q.reference_length);
    const PlanResult r = planner.plan(q.start, q.goal);
    ASSERT_TRUE(r.found()) << scen << " " << q.where.to_string() << ": " << r.message;
    // The files print 6 significant digits (e.g. 103.284): half a unit in the last of them.
    const double tolerance = std::max(1e-6, 5e-6 * *q.reference_length);
    if (std::abs(r.raw_length - *q.reference_length) > tolerance && ++mismatches <= 5)
      ADD_FAILURE() << scen << " " << q.where.to_string() << ": length " << r.raw_length
                    << ", reference " << *q.reference_length;
  }
  EXPECT_EQ(mismatches, 0) << scen;
  EXPECT_GT(queries.size(), 0u);
}

TEST(MovingAi, BundledMapsReproduceOptimalLengths) {
  const fs::path dir = fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "movingai";
  int maps = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".map") continue;
    fs::path scen = entry.path();
    scen += ".scen";
    if (!fs::exists(scen)) continue;
    // Every tie rule returns one of the shortest grid paths.
    for (const char* ties : {"auto", "larger-g", "smaller-g", "lifo", "fifo", "line", "central64"})
      expect_scenario_lengths(entry.path(), scen, ties);
    ++maps;
  }
  EXPECT_GT(maps, 0);
}

TEST(MovingAi, ReferenceMapsReproduceOptimalLengths) {
  const fs::path dir = test_support::shared_data("movingai");
  if (!fs::exists(dir)) GTEST_SKIP() << "reference data not found at " << dir;
  int maps = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".scen") continue;
    // Scenario files are named after their map: NAME.map.scen or NAME-*.scen.
    const fs::path map = test_support::find_map(entry.path());
    if (map.empty()) continue;
    SCOPED_TRACE(map.string());
    expect_scenario_lengths(map, entry.path());
    ++maps;
  }
  EXPECT_GE(maps, 10);
}

}  // namespace
}  // namespace polynav
