// 16-connected grids: knight moves only where every cell their segment passes through is free,
// each a valid motion through FreeSpace; shortest lengths equal an independent Boost.Graph
// Dijkstra over a 16-connected graph built from a MovingAI map's cells (centre- and
// corner-aligned); never longer than 8-connected paths; refused combinations name the option.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <cmath>
#include <filesystem>
#include <random>

#include "discretise/random_scenes.hpp"
#include "polynav/discretise/grid/occupancy_grid.hpp"
#include "polynav/discretise/query.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/smooth/path_simplifier.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;
using test::random_scene;
using test::rect;

const fs::path scenes_dir = fs::path(POLYNAV_SOURCE_DIR) / "scenes";

bool is_knight(int dx, int dy) {
  return (std::abs(dx) == 1 && std::abs(dy) == 2) || (std::abs(dx) == 2 && std::abs(dy) == 1);
}

// Every knight move a grid offers, as (from, to) node pairs.
std::vector<std::pair<search::NodeId, search::NodeId>> knight_arcs(const OccupancyGrid& grid) {
  std::vector<std::pair<search::NodeId, search::NodeId>> arcs;
  const auto across = search::NodeId(grid.corners() ? grid.width() + 1 : grid.width());
  for (search::NodeId n = 0; n < grid.node_count(); ++n)
    grid.for_each_neighbour(n, [&](search::NodeId to, double) {
      const int dx = int(to % across) - int(n % across), dy = int(to / across) - int(n / across);
      if (is_knight(dx, dy)) arcs.push_back({n, to});
    });
  return arcs;
}

TEST(SixteenConnected, KnightMovesAreValidMotionsOfExactlyTheRightCells) {
  for (unsigned seed = 1; seed <= 6; ++seed) {
    for (const GridAlign align : {GridAlign::centre, GridAlign::corner}) {
      const FreeSpace space(random_scene(seed, seed % 2 ? 0.0 : 0.3));
      GridOptions options;
      options.resolution = 0.7;
      options.connectivity = 16;
      options.align = align;
      const OccupancyGrid grid(space, options);
      const auto arcs = knight_arcs(grid);
      const auto across = search::NodeId(grid.corners() ? grid.width() + 1 : grid.width());
      const auto free_cell = [&](int cx, int cy) {
        return grid.inside(cx, cy) && !grid.blocked(cx, cy);
      };
      std::size_t expected = 0;
      // The rule restated from the cells: centre to centre, the four cells of the move's
      // bounding box that its segment enters; corner to corner, the two cells beside the side
      // whose midpoint it passes. (Random triangles: no walls along cell sides; corners
      // where only two diagonally opposite cells are free carry no moves at all.)
      for (search::NodeId n = 0; n < grid.node_count(); ++n) {
        const int x = int(n % across), y = int(n / across);
        for (int k = 0; k < 8; ++k) {
          const auto [dx, dy] = OccupancyGrid::knight_offset(k);
          const int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
          const bool tall = std::abs(dy) == 2;
          bool allowed;
          if (align == GridAlign::centre) {
            allowed = free_cell(x, y) && free_cell(x + dx, y + dy) && free_cell(x + sx, y + sy) &&
                      (tall ? free_cell(x, y + sy) : free_cell(x + sx, y));
          } else {
            const int tx = x + dx, ty = y + dy;
            if (tx < 0 || ty < 0 || tx > grid.width() || ty > grid.height()) continue;
            const int cx = std::min(x, tx), cy = std::min(y, ty);
            allowed = tall ? free_cell(cx, cy) && free_cell(cx, cy + 1)
                           : free_cell(cx, cy) && free_cell(cx + 1, cy);
            allowed = allowed && grid.moves(n) != 0 &&
                      grid.moves(search::NodeId(ty) * across + search::NodeId(tx)) != 0;
          }
          expected += allowed ? 1 : 0;
        }
      }
      EXPECT_EQ(arcs.size(), expected) << "seed " << seed;
      EXPECT_GT(arcs.size(), 500u) << "seed " << seed;
      for (const auto& [from, to] : arcs)
        ASSERT_TRUE(space.line_of_sight(grid.node_position(from), grid.node_position(to)))
            << "seed " << seed << (align == GridAlign::corner ? " corner" : " centre");
    }
  }
}

TEST(SixteenConnected, NoKnightMoveCrossesAWallAlongCellSides) {
  // A wall from (2, 0) up to (2, 3) along cell sides, free space on both sides of it.
  Scene scene;
  scene.bounds = rect(0, 0, 4, 4);
  scene.free_boundary = {{{0, 0}, {2, 0}, {2, 3}, {2, 0}, {4, 0}, {4, 4}, {0, 4}}};
  const FreeSpace space(scene);
  for (const GridAlign align : {GridAlign::centre, GridAlign::corner}) {
    GridOptions options;
    options.resolution = 1.0;
    options.connectivity = 16;
    options.align = align;
    const OccupancyGrid grid(space, options);
    std::size_t knights = 0;
    for (const auto& [from, to] : knight_arcs(grid)) {
      ++knights;
      EXPECT_TRUE(space.line_of_sight(grid.node_position(from), grid.node_position(to)))
          << grid.node_position(from).x << "," << grid.node_position(from).y << " -> "
          << grid.node_position(to).x << "," << grid.node_position(to).y;
    }
    EXPECT_GT(knights, 10u);
  }
}

// The 16-connected graph of a MovingAI map built here from its cells alone (map coordinates, y
// down). Centre-aligned: nodes are free cells; a diagonal needs both orthogonal cells free, a
// knight move the two cells its segment enters on the way and its target. Corner-aligned: nodes
// are corners; a side move needs a free cell beside it, a diagonal its cell, a knight move the
// two cells beside the side it crosses; no move touches a corner where only two diagonally
// opposite cells are free (closed gaps).
struct MapGraph {
  using Graph =
      boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                            boost::property<boost::edge_weight_t, double>>;
  const CellMap& cells;
  bool corners;
  int w, h;
  Graph g;

  MapGraph(const CellMap& map, bool corner_aligned, int connectivity)
      : cells(map),
        corners(corner_aligned),
        w(map.width + (corner_aligned ? 1 : 0)),
        h(map.height + (corner_aligned ? 1 : 0)),
        g(std::size_t(w) * std::size_t(h)) {
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        for (int dy = -2; dy <= 2; ++dy)
          for (int dx = -2; dx <= 2; ++dx) {
            const int steps = std::abs(dx) + std::abs(dy);
            const bool diagonal = std::abs(dx) == 1 && std::abs(dy) == 1;
            const bool knight = is_knight(dx, dy);
            if (steps == 0 || (steps > 1 && !diagonal && !knight)) continue;
            if (diagonal && connectivity < 8) continue;
            if (knight && connectivity < 16) continue;
            if (allowed(x, y, dx, dy))
              boost::add_edge(id(x, y), id(x + dx, y + dy), std::hypot(dx, dy), g);
          }
  }
  std::size_t id(int x, int y) const { return std::size_t(y) * std::size_t(w) + std::size_t(x); }
  bool free_cell(int x, int y) const {
    return x >= 0 && y >= 0 && x < cells.width && y < cells.height && !cells.is_blocked(x, y);
  }
  bool closed(int x, int y) const {
    const bool tl = free_cell(x - 1, y - 1), tr = free_cell(x, y - 1);
    const bool bl = free_cell(x - 1, y), br = free_cell(x, y);
    return (tl && br && !tr && !bl) || (tr && bl && !tl && !br) || !(tl || tr || bl || br);
  }
  bool allowed(int x, int y, int dx, int dy) const {
    const int tx = x + dx, ty = y + dy;
    if (tx < 0 || ty < 0 || tx >= w || ty >= h) return false;
    const int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
    if (!corners) {
      if (!free_cell(x, y) || !free_cell(tx, ty)) return false;
      if (dx == 0 || dy == 0) return true;
      if (std::abs(dx) == 1 && std::abs(dy) == 1) return free_cell(tx, y) && free_cell(x, ty);
      return free_cell(x + sx, y + sy) &&
             (std::abs(dy) == 2 ? free_cell(x, y + sy) : free_cell(x + sx, y));
    }
    if (closed(x, y) || closed(tx, ty)) return false;
    const int cx = std::min(x, tx), cy = std::min(y, ty);
    if (dy == 0) return free_cell(cx, y - 1) || free_cell(cx, y);
    if (dx == 0) return free_cell(x - 1, cy) || free_cell(x, cy);
    if (std::abs(dx) == 1 && std::abs(dy) == 1) return free_cell(cx, cy);
    return std::abs(dy) == 2 ? free_cell(cx, cy) && free_cell(cx, cy + 1)
                             : free_cell(cx, cy) && free_cell(cx + 1, cy);
  }
  double distance(int sx, int sy, int gx, int gy) const {
    std::vector<double> d(boost::num_vertices(g));
    boost::dijkstra_shortest_paths(g, id(sx, sy), boost::distance_map(d.data()));
    return d[id(gx, gy)];
  }
};

TEST(SixteenConnected, EqualsBoostDijkstraOnTheMapsOwnCellsAndBeatsEightConnected) {
  for (const char* name : {"arena.map", "den312d.map", "maze-100-1.map"}) {
    const Scene scene = load_scene(scenes_dir / "movingai" / name);
    ASSERT_TRUE(scene.cell_map);
    const CellMap& cells = *scene.cell_map;
    for (const bool corner : {false, true}) {
      SCOPED_TRACE(std::string(name) + (corner ? " corner-aligned" : " centre-aligned"));
      const std::vector<Query> queries =
          load_scenario(scenes_dir / "movingai" / (std::string(name) + ".scen"), scene,
                        corner ? ScenarioPoints::corners : ScenarioPoints::centres);
      const MapGraph oracle(cells, corner, 16);
      std::vector<std::unique_ptr<Planner>> planners;
      for (const char* connectivity : {"16", "8"}) {
        PlanOptions options;
        options.smoother = "none";
        options.settings.set("grid.connectivity", connectivity);
        options.settings.set("grid.align", corner ? "corner" : "centre");
        planners.push_back(std::make_unique<Planner>(scene, options));
      }
      int compared = 0, shorter = 0;
      const std::size_t step = std::max<std::size_t>(1, queries.size() / 60);
      for (std::size_t i = 0; i < queries.size(); i += step) {
        const Query& q = queries[i];
        const int sx = int(q.start.x), gx = int(q.goal.x);
        const int sy = corner ? cells.height - int(q.start.y) : cells.height - 1 - int(q.start.y);
        const int gy = corner ? cells.height - int(q.goal.y) : cells.height - 1 - int(q.goal.y);
        if (corner && (oracle.closed(sx, sy) || oracle.closed(gx, gy))) continue;
        const double expected = oracle.distance(sx, sy, gx, gy);
        const PlanResult r16 = planners[0]->plan(q.start, q.goal);
        const PlanResult r8 = planners[1]->plan(q.start, q.goal);
        if (!(expected < 1e300)) {
          EXPECT_FALSE(r16.found()) << "query " << i;
          continue;
        }
        ASSERT_TRUE(r16.found()) << "query " << i << ": " << r16.message;
        ASSERT_TRUE(r8.found()) << "query " << i << ": " << r8.message;
        EXPECT_NEAR(r16.raw_length, expected, 1e-9 * std::max(1.0, expected)) << "query " << i;
        EXPECT_LE(r16.raw_length, r8.raw_length * (1 + 1e-12)) << "query " << i;
        shorter += r16.raw_length < r8.raw_length * (1 - 1e-9) ? 1 : 0;
        ++compared;
      }
      EXPECT_GT(compared, 20);
      if (std::string(name) != "maze-100-1.map") {
        EXPECT_GT(shorter, compared / 4);
      }
    }
  }
}

TEST(SixteenConnected, EveryAdmissibleHeuristicFindsTheSameOptimalCost) {
  Scene scene = random_scene(5, 0.0);
  scene.regions.push_back({"mud", 2.5, std::nullopt, rect(5, 5, 12, 9), {}});
  const FreeSpace space(scene);
  const PathSimplifier checker(space);
  std::vector<double> reference;
  for (const GridHeuristic heuristic : {GridHeuristic::zero, GridHeuristic::sixteen,
                                        GridHeuristic::euclidean, GridHeuristic::chebyshev}) {
    GridOptions options;
    options.resolution = 0.5;
    options.connectivity = 16;
    options.heuristic = heuristic;
    const OccupancyGrid grid(space, options);
    std::mt19937 rng(17);
    std::uniform_real_distribution<double> coord(0.0, 20.0);
    std::vector<double> costs;
    for (int q = 0; q < 30; ++q) {
      const Point s{coord(rng), coord(rng)}, g{coord(rng), coord(rng)};
      if (!space.is_free(s) || !space.is_free(g)) continue;
      const RawPath r = find_path(grid, s, g);
      costs.push_back(r.status == search::SearchStatus::found ? r.graph_cost : -1.0);
      if (r.status == search::SearchStatus::found) {
        EXPECT_TRUE(checker.is_valid(r.points));
      }
    }
    if (reference.empty()) {
      reference = costs;
      EXPECT_GT(std::count_if(costs.begin(), costs.end(), [](double c) { return c > 0; }), 10);
    } else {
      ASSERT_EQ(costs.size(), reference.size());
      for (std::size_t k = 0; k < costs.size(); ++k)
        EXPECT_NEAR(costs[k], reference[k], 1e-9 * std::max(1.0, reference[k]))
            << to_string(heuristic);
    }
  }
}

TEST(SixteenConnected, KnightCostsNeverUnderestimateTheExactCost) {
  Scene scene = random_scene(2, 0.0);
  scene.regions.push_back({"mud", 3.0, std::nullopt, rect(4, 3, 13, 11), {}});
  scene.regions.push_back({"road", 0.5, std::nullopt, rect(0, 14, 20, 15.3), {}});
  const FreeSpace space(scene);
  for (const GridAlign align : {GridAlign::centre, GridAlign::corner}) {
    GridOptions options;
    options.resolution = 0.5;
    options.connectivity = 16;
    options.align = align;
    const OccupancyGrid grid(space, options);
    const auto across = search::NodeId(grid.corners() ? grid.width() + 1 : grid.width());
    std::size_t checked = 0;
    for (search::NodeId n = 0; n < grid.node_count(); ++n)
      grid.for_each_neighbour(n, [&](search::NodeId to, double cost) {
        const int dx = int(to % across) - int(n % across), dy = int(to / across) - int(n / across);
        if (!is_knight(dx, dy)) return;
        ++checked;
        EXPECT_GE(cost,
                  space.segment_cost(grid.node_position(n), grid.node_position(to)) * (1 - 1e-12));
      });
    EXPECT_GT(checked, 1000u);
  }
}

TEST(SixteenConnected, RefusedCombinationsNameTheOption) {
  const Scene scene = load_scene(scenes_dir / "maze.yaml");
  const auto error_of = [&](std::initializer_list<std::pair<const char*, const char*>> set) {
    PlanOptions options;
    options.settings.set("grid.connectivity", 16);
    for (const auto& [key, value] : set) options.settings.set(key, value);
    try {
      const Planner planner(scene, options);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of({{"grid.heuristic", "octile"}}).find("grid.heuristic"), std::string::npos);
  EXPECT_NE(error_of({{"grid.heuristic", "manhattan"}}).find("grid.heuristic"), std::string::npos);
  EXPECT_NE(error_of({{"grid.search", "jps"}}).find("grid.search"), std::string::npos);
  EXPECT_NE(error_of({{"grid.search", "jps+"}}).find("grid.search"), std::string::npos);
  EXPECT_EQ(error_of({{"grid.heuristic", "euclidean"}}), "");
  EXPECT_EQ(error_of({}), "");
}

TEST(SixteenConnected, FunnelPullsKnightPathsThroughTheirCorridor) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const Scene scene = random_scene(seed, 0.0);
    PlanOptions options;
    options.settings.set("grid.resolution", 0.5);
    options.settings.set("grid.connectivity", 16);
    options.smoother = "funnel";
    const Planner planner(scene, options);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> coord(0.0, 20.0);
    int funnelled = 0;
    for (int q = 0; q < 30; ++q) {
      const PlanResult r = planner.plan({coord(rng), coord(rng)}, {coord(rng), coord(rng)});
      if (!r.found()) continue;
      EXPECT_EQ(r.message.find("invalid"), std::string::npos) << r.message;
      EXPECT_TRUE(PathSimplifier(planner.free_space()).is_valid(r.waypoints));
      EXPECT_LE(r.length, r.raw_length * (1 + 1e-12));
      funnelled += r.length < r.raw_length * (1 - 1e-9) ? 1 : 0;
    }
    EXPECT_GT(funnelled, 5) << "seed " << seed;
  }
}

}  // namespace
}  // namespace polynav
