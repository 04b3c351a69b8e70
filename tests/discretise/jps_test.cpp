// Jump point search on the grid (grid.search=jps and jps+): the MovingAI optimal lengths, the same
// costs as A* on random MovingAI-style maps full of corner-cutting traps, jump paths made of
// straight and diagonal runs of grid moves, their corridors, and the cases where jumping does not
// apply (refused, or A* with a note).
#include "polynav/discretise/grid/jump_point_grid.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "discretise/random_scenes.hpp"
#include "polynav/discretise/query.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/space/free_space.hpp"
#include "support/data.hpp"
#include "support/map_text.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;
using search::NodeId;
using test::rect;

bool same_cost(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

using test_support::map_scene;

// MovingAI-style maps of three kinds, each with the traps of grids without corner cutting:
// scattered clutter (diagonal pinches everywhere), mazes of one-cell corridors with dead ends and
// a few loops, and rooms with walls pierced by one-cell doors and diagonal gaps.
std::vector<std::string> random_map(unsigned seed) {
  std::mt19937 rng(seed);
  const auto uniform = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  const auto chance = [&](double p) { return std::bernoulli_distribution(p)(rng); };
  const int w = uniform(8, 64), h = uniform(8, 64);
  std::vector<std::string> rows(std::size_t(h), std::string(std::size_t(w), '.'));
  const auto block = [&](int x, int y) {
    if (x >= 0 && y >= 0 && x < w && y < h) rows[std::size_t(y)][std::size_t(x)] = '@';
  };
  switch (seed % 3) {
    case 0: {  // clutter
      const double p = 0.05 + 0.35 * std::uniform_real_distribution<double>()(rng);
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
          if (chance(p)) block(x, y);
      break;
    }
    case 1: {  // a maze on the odd cells, some walls knocked out
      for (std::string& row : rows) row.assign(row.size(), '@');
      std::vector<std::pair<int, int>> stack = {{1, 1}};
      std::vector<char> seen(std::size_t(w * h), 0);
      const auto open = [&](int x, int y) { rows[std::size_t(y)][std::size_t(x)] = '.'; };
      open(1, 1);
      seen[std::size_t(w + 1)] = 1;
      while (!stack.empty()) {
        const auto [x, y] = stack.back();
        std::vector<std::pair<int, int>> next;
        for (const auto& [dx, dy] : {std::pair{2, 0}, {-2, 0}, {0, 2}, {0, -2}}) {
          const int nx = x + dx, ny = y + dy;
          if (nx > 0 && ny > 0 && nx < w - 1 && ny < h - 1 && !seen[std::size_t(ny * w + nx)])
            next.push_back({nx, ny});
        }
        if (next.empty()) {
          stack.pop_back();
          continue;
        }
        const auto [nx, ny] = next[std::size_t(uniform(0, int(next.size()) - 1))];
        seen[std::size_t(ny * w + nx)] = 1;
        open((x + nx) / 2, (y + ny) / 2);
        open(nx, ny);
        stack.push_back({nx, ny});
      }
      for (int y = 1; y < h - 1; ++y)
        for (int x = 1; x < w - 1; ++x)
          if (chance(0.06)) open(x, y);
      break;
    }
    default: {  // rooms: walls with one-cell doors, blocks, diagonal gaps
      for (int k = uniform(1, 4); k > 0; --k) {
        const int x = uniform(2, w - 3);
        for (int y = 0; y < h; ++y)
          if (!chance(0.12)) block(x, y);
      }
      for (int k = uniform(1, 4); k > 0; --k) {
        const int y = uniform(2, h - 3);
        for (int x = 0; x < w; ++x)
          if (!chance(0.12)) block(x, y);
      }
      for (int k = uniform(0, 8); k > 0; --k) {
        const int x = uniform(0, w - 1), y = uniform(0, h - 1);
        const int bw = uniform(1, 6), bh = uniform(1, 6);
        for (int j = y; j < y + bh; ++j)
          for (int i = x; i < x + bw; ++i) block(i, j);
      }
      for (int k = uniform(5, 40); k > 0; --k) {  // two cells touching at a corner only
        const int x = uniform(0, w - 2), y = uniform(0, h - 2);
        const bool rising = chance(0.5);
        block(x, rising ? y : y + 1);
        block(x + 1, rising ? y + 1 : y);
        rows[std::size_t(rising ? y + 1 : y)][std::size_t(x)] = '.';
        rows[std::size_t(rising ? y : y + 1)][std::size_t(x + 1)] = '.';
      }
      break;
    }
  }
  return rows;
}

// Every segment between consecutive nodes of a jump path is a straight or diagonal run of moves
// the grid allows.
::testing::AssertionResult runs_of_moves(const OccupancyGrid& grid, std::span<const NodeId> path) {
  const auto w = NodeId(grid.width());
  for (std::size_t i = 1; i < path.size(); ++i) {
    const int ax = int(path[i - 1] % w), ay = int(path[i - 1] / w);
    const int bx = int(path[i] % w), by = int(path[i] / w);
    const int ex = std::abs(bx - ax), ey = std::abs(by - ay);
    if (ex == 0 && ey == 0) return ::testing::AssertionFailure() << "repeated node " << path[i];
    if (ex != 0 && ey != 0 && ex != ey)
      return ::testing::AssertionFailure()
             << "segment " << i << " is neither straight nor diagonal";
    const int dx = (bx > ax) - (bx < ax), dy = (by > ay) - (by < ay);
    const int k = dy == 0   ? (dx > 0 ? 0 : 2)
                  : dx == 0 ? (dy > 0 ? 1 : 3)
                  : dx > 0  ? (dy > 0 ? 4 : 7)
                            : (dy > 0 ? 5 : 6);
    for (int s = 0; s < std::max(ex, ey); ++s) {
      const auto cell = NodeId((ay + s * dy) * int(w) + ax + s * dx);
      if ((grid.moves(cell) >> k & 1u) == 0)
        return ::testing::AssertionFailure()
               << "segment " << i << " takes a move the grid does not allow at step " << s;
    }
  }
  return ::testing::AssertionSuccess();
}

// The cells at the corners of a jump path: its nodes and the bends between them (arc_points).
std::vector<NodeId> corner_cells(const JumpPointGrid& jps, std::span<const NodeId> nodes) {
  std::vector<NodeId> cells;
  std::vector<Point> bends;
  const auto cell = [&](Point p) {
    const auto [cx, cy] = jps.grid().cell_of(p);
    return NodeId(cy * jps.grid().width() + cx);
  };
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (i > 0) {
      bends.clear();
      jps.arc_points(nodes[i - 1], nodes[i], bends);
      for (const Point p : bends) cells.push_back(cell(p));
    }
    cells.push_back(nodes[i]);
  }
  return cells;
}

// The free points of a scene to plan between: random free cell centres, random points inside
// free cells, and free lattice points (cell corners and sides, which may join several cells).
std::vector<Point> query_points(const FreeSpace& space, const OccupancyGrid& grid,
                                std::mt19937& rng, int count) {
  std::vector<Point> points;
  std::uniform_int_distribution<int> cx(0, grid.width() - 1), cy(0, grid.height() - 1);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int tries = 0; int(points.size()) < count && tries < 50 * count; ++tries) {
    const int x = cx(rng), y = cy(rng);
    Point p;
    switch (tries % 4) {
      case 0:
      case 1:
        if (grid.blocked(x, y)) continue;
        p = grid.cell_centre(x, y);
        break;
      case 2:
        if (grid.blocked(x, y)) continue;
        p = {x + unit(rng), y + unit(rng)};
        break;
      default:
        p = {double(x) + (tries % 8 == 3 ? 0.5 : 0.0), double(y)};
        break;
    }
    if (space.is_free(p)) points.push_back(p);
  }
  return points;
}

// A*, jps and jps+ on the same grid agree on every query's status and cost; jump paths are runs
// of grid moves.
void expect_same_as_astar(const Scene& scene, unsigned seed, int queries, int jump_limit = 32767) {
  const FreeSpace space(scene);
  const OccupancyGrid grid(space, GridOptions{});
  const JumpPointGrid jps(space, GridOptions{}, {GridSearch::jps});
  const JumpPointGrid plus(space, GridOptions{}, {GridSearch::jps_plus, jump_limit});
  ASSERT_TRUE(jps.jumps()) << jps.fallback();
  ASSERT_TRUE(plus.jumps()) << plus.fallback();
  std::mt19937 rng(seed);
  const std::vector<Point> points = query_points(space, grid, rng, 2 * queries);
  QueryWorkspace wa, wj, wp;
  const QueryOptions options;
  for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
    const Point s = points[i], g = points[i + 1];
    SCOPED_TRACE(::testing::Message() << "seed " << seed << ", (" << s.x << ", " << s.y << ") -> ("
                                      << g.x << ", " << g.y << ")");
    const RawPath a = find_path(grid, s, g, options, wa);
    for (const JumpPointGrid* d : {&jps, &plus}) {
      const RawPath j = find_path(*d, s, g, options, d == &jps ? wj : wp);
      ASSERT_EQ(a.status, j.status) << to_string(d->options().search) << ": " << j.message;
      if (!a.points.empty() && a.status == search::SearchStatus::found) {
        EXPECT_TRUE(same_cost(j.graph_cost, a.graph_cost))
            << to_string(d->options().search) << " " << j.graph_cost << ", A* " << a.graph_cost;
        EXPECT_TRUE(runs_of_moves(grid, corner_cells(*d, j.nodes)))
            << to_string(d->options().search);
        EXPECT_TRUE(j.message.empty()) << j.message;
      }
    }
  }
  // A goal set: the cheapest of three goals.
  for (std::size_t i = 0; i + 3 < points.size(); i += 8) {
    const Point goals[3] = {points[i + 1], points[i + 2], points[i + 3]};
    std::size_t ra = 0, rj = 0, rp = 0;
    const RawPath a = find_path_to_any(grid, points[i], goals, options, wa, ra);
    const RawPath j = find_path_to_any(jps, points[i], goals, options, wj, rj);
    const RawPath p = find_path_to_any(plus, points[i], goals, options, wp, rp);
    ASSERT_EQ(a.status, j.status);
    ASSERT_EQ(a.status, p.status);
    if (a.status == search::SearchStatus::found) {
      EXPECT_TRUE(same_cost(j.graph_cost, a.graph_cost)) << j.graph_cost << " " << a.graph_cost;
      EXPECT_TRUE(same_cost(p.graph_cost, a.graph_cost)) << p.graph_cost << " " << a.graph_cost;
    }
  }
}

TEST(JumpPointSearch, SameCostsAsAStarOnRandomMapsWithCornerCuttingTraps) {
  for (unsigned seed = 1; seed <= 36; ++seed) {
    SCOPED_TRACE(seed);
    expect_same_as_astar(map_scene(random_map(seed)), seed, 40);
  }
}

// JPS+ entries longer than the limit stop at cells of the same line: more nodes, same paths.
TEST(JumpPointSearch, JumpLimitOnlyAddsIntermediateStops) {
  for (unsigned seed = 100; seed <= 108; ++seed) {
    SCOPED_TRACE(seed);
    expect_same_as_astar(map_scene(random_map(seed)), seed, 30, 1 + int(seed % 3));
  }
}

// Open maps, one of them empty (no jump point anywhere: only the goal stops a jump): long jumps,
// goals on the lines and diagonals from the start and off them.
TEST(JumpPointSearch, OpenMapsLongJumpsAndGoalsOnAndOffTheLines) {
  for (const bool pillar : {false, true}) {
    std::vector<std::string> rows(70, std::string(150, '.'));
    if (pillar) rows[35][75] = '@';
    const Scene scene = map_scene(rows);
    const FreeSpace space(scene);
    const OccupancyGrid grid(space, GridOptions{});
    QueryWorkspace wa, wj, wp;
    const JumpPointGrid jps(space, GridOptions{}, {GridSearch::jps});
    const JumpPointGrid plus(space, GridOptions{}, {GridSearch::jps_plus});
    const Point starts[] = {{0.5, 0.5}, {75.5, 20.5}, {149.5, 69.5}, {10.5, 60.5}};
    const Point goals[] = {{149.5, 0.5},  {0.5, 69.5},  {69.5, 69.5}, {75.5, 60.5},
                           {140.5, 20.5}, {120.5, 3.5}, {3.5, 40.5},  {76.5, 33.5}};
    for (const Point s : starts)
      for (const Point g : goals) {
        const RawPath a = find_path(grid, s, g, {}, wa);
        const RawPath j = find_path(jps, s, g, {}, wj);
        const RawPath p = find_path(plus, s, g, {}, wp);
        ASSERT_TRUE(a.status == search::SearchStatus::found);
        ASSERT_TRUE(j.status == search::SearchStatus::found) << j.message;
        ASSERT_TRUE(p.status == search::SearchStatus::found) << p.message;
        EXPECT_TRUE(same_cost(j.graph_cost, a.graph_cost)) << j.graph_cost << " " << a.graph_cost;
        EXPECT_TRUE(same_cost(p.graph_cost, a.graph_cost)) << p.graph_cost << " " << a.graph_cost;
        EXPECT_LT(j.stats.expanded, a.stats.expanded);
      }
  }
}

// A node from which a jump reaches the one goal has the goal as its only successor: a start that
// sees the goal along a shortest grid route (diagonally, then straight) expands once and queues
// the goal alone, though its other directions find jump points round a pillar; the cost is A*'s.
// With a goal set every direction is still followed.
TEST(JumpPointSearch, AJumpThatReachesTheGoalIsTheNodesOnlySuccessor) {
  std::vector<std::string> rows(70, std::string(150, '.'));
  rows[35][75] = '@';
  const Scene scene = map_scene(rows);
  const FreeSpace space(scene);
  const OccupancyGrid grid(space, GridOptions{});
  QueryWorkspace wa, wj;
  const Point start{70.5, 20.5};
  const Point goals[] = {{60.5, 10.5}, {70.5, 2.5}, {40.5, 20.5}, {64.5, 6.5}, {90.5, 28.5}};
  for (const GridSearch search : {GridSearch::jps, GridSearch::jps_plus}) {
    const JumpPointGrid jumping(space, GridOptions{}, {search});
    // The start's own jumps meet the pillar's jump points: with two goals they are queued.
    const Point two[] = {goals[0], {149.5, 69.5}};
    std::size_t reached = 0;
    const RawPath set = find_path_to_any(jumping, start, two, {}, wj, reached);
    ASSERT_EQ(set.status, search::SearchStatus::found) << set.message;
    EXPECT_GT(set.stats.generated, 2u) << to_string(search);
    for (const Point g : goals) {
      SCOPED_TRACE(::testing::Message()
                   << to_string(search) << " to (" << g.x << ", " << g.y << ")");
      const RawPath a = find_path(grid, start, g, {}, wa);
      const RawPath j = find_path(jumping, start, g, {}, wj);
      ASSERT_EQ(j.status, search::SearchStatus::found) << j.message;
      EXPECT_TRUE(same_cost(j.graph_cost, a.graph_cost)) << j.graph_cost << " " << a.graph_cost;
      EXPECT_EQ(j.stats.expanded, 1u);
      EXPECT_EQ(j.stats.generated, 1u);
    }
  }
}

// A query whose start's jump reaches the goal is answered without the search
// (JumpPointGrid::Graph::start_reaches_goal): with the same nodes, points, cost and counts as the
// search, which a time limit forces (a search reads the clock before its first expansion). A
// query whose start's jump stops short is searched from the successors that jump found: the same
// answers again. The limits still hold: a cost limit below the path's cost or no expansion at
// all leave it unfound.
TEST(JumpPointSearch, AStartThatReachesTheGoalIsAnsweredWithoutTheSearch) {
  QueryOptions searched;
  searched.search.max_time = std::chrono::hours(1);
  std::size_t direct = 0, queries = 0;
  for (unsigned seed = 200; seed <= 223; ++seed) {
    const Scene scene = map_scene(random_map(seed));
    const FreeSpace space(scene);
    const OccupancyGrid grid(space, GridOptions{});
    std::mt19937 rng(seed);
    const std::vector<Point> points = query_points(space, grid, rng, 60);
    for (const GridSearch search : {GridSearch::jps, GridSearch::jps_plus}) {
      const JumpPointGrid jumping(space, GridOptions{}, {search});
      ASSERT_TRUE(jumping.jumps()) << jumping.fallback();
      QueryWorkspace fast, slow;
      for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
        const Point s = points[i], g = points[i + 1];
        SCOPED_TRACE(::testing::Message()
                     << "seed " << seed << ", " << to_string(search) << ", (" << s.x << ", " << s.y
                     << ") -> (" << g.x << ", " << g.y << ")");
        const RawPath a = find_path(jumping, s, g, {}, fast);
        const RawPath b = find_path(jumping, s, g, searched, slow);
        ++queries;
        ASSERT_EQ(a.status, b.status) << a.message << " / " << b.message;
        EXPECT_EQ(a.nodes, b.nodes);
        EXPECT_EQ(a.points, b.points);
        EXPECT_EQ(a.graph_cost, b.graph_cost);
        EXPECT_EQ(a.stats.expanded, b.stats.expanded);
        EXPECT_EQ(a.stats.generated, b.stats.generated);
        if (a.status != search::SearchStatus::found || a.stats.heap_pushes != 0) continue;
        // Answered without the search, which always queues its start; timed all the same (the
        // default options measure the time).
        ++direct;
        EXPECT_GT(b.stats.heap_pushes, 0u);
        EXPECT_GT(a.stats.elapsed.count(), 0);
        EXPECT_EQ(a.nodes.size(), 2u);
        // The cost limit applies to the cost between the two nodes, the octile distance.
        const Point p0 = jumping.node_position(a.nodes[0]), p1 = jumping.node_position(a.nodes[1]);
        const double ex = std::abs(p1.x - p0.x), ey = std::abs(p1.y - p0.y);
        const double octile = std::min(ex, ey) * std::sqrt(2.0) + std::abs(ex - ey);
        QueryOptions limited;
        limited.search.max_cost = 2.0 * octile;
        const RawPath within = find_path(jumping, s, g, limited, fast);
        EXPECT_EQ(within.status, search::SearchStatus::found);
        EXPECT_EQ(within.stats.heap_pushes, 0u);
        limited.search.max_cost = 0.5 * octile;
        EXPECT_NE(find_path(jumping, s, g, limited, fast).status, search::SearchStatus::found);
        QueryOptions none;
        none.search.max_expansions = 0;
        EXPECT_NE(find_path(jumping, s, g, none, fast).status, search::SearchStatus::found);
      }
    }
  }
  // The shortcut was taken, and not always.
  EXPECT_GT(direct, queries / 20) << direct << " of " << queries;
  EXPECT_LT(direct, queries) << direct << " of " << queries;
}

// The MovingAI optimal lengths (printed to 6 significant digits), with every path checked by the
// Planner's exact validity check.
int scenario_mismatches(const fs::path& map, const fs::path& scen, const std::string& search,
                        std::size_t every, std::uint64_t* expanded = nullptr) {
  const Scene scene = load_scene(map);
  const std::vector<Query> queries = load_scenario(scen, scene);
  PlanOptions options;
  options.smoother = "none";
  options.settings.set("grid.search", search);
  const Planner planner(scene, options);
  const auto* jumping = dynamic_cast<const JumpPointGrid*>(&planner.discretisation());
  EXPECT_TRUE(search == "astar" || (jumping != nullptr && jumping->jumps())) << search;
  int mismatches = 0;
  for (std::size_t i = 0; i < queries.size(); i += every) {
    const Query& q = queries[i];
    const PlanResult r = planner.plan(q.start, q.goal);
    if (!r.found()) {
      ADD_FAILURE() << search << " " << q.where.to_string() << ": " << r.message;
      ++mismatches;
      continue;
    }
    if (expanded != nullptr) *expanded += r.stats.expanded;
    const double tolerance = std::max(1e-6, 5e-6 * *q.reference_length);
    if (std::abs(r.raw_length - *q.reference_length) > tolerance && ++mismatches <= 5)
      ADD_FAILURE() << search << " " << q.where.to_string() << ": length " << r.raw_length
                    << ", reference " << *q.reference_length;
    if (jumping != nullptr) {
      // The raw path's points are the jump points (scenario points are cell centres).
      std::vector<NodeId> cells;
      for (const Point p : r.raw_waypoints) {
        const auto [cx, cy] = jumping->grid().cell_of(p);
        cells.push_back(NodeId(cy * jumping->grid().width() + cx));
      }
      EXPECT_TRUE(runs_of_moves(jumping->grid(), cells)) << q.where.to_string();
    }
  }
  return mismatches;
}

TEST(JumpPointSearch, BundledMapsReproduceOptimalLengths) {
  const fs::path dir = fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "movingai";
  int maps = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".map") continue;
    fs::path scen = entry.path();
    scen += ".scen";
    if (!fs::exists(scen)) continue;
    SCOPED_TRACE(entry.path().string());
    for (const char* search : {"jps", "jps+"})
      EXPECT_EQ(scenario_mismatches(entry.path(), scen, search, 1), 0) << search;
    ++maps;
  }
  EXPECT_GT(maps, 0);
}

// Every fourth query of each reference map, to keep the suite quick.
TEST(JumpPointSearch, ReferenceMapsReproduceOptimalLengths) {
  const fs::path dir = test_support::shared_data("movingai");
  if (!fs::exists(dir)) GTEST_SKIP() << "reference data not found at " << dir;
  int maps = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".scen") continue;
    // Scenario files are named after their map: NAME.map.scen or NAME-*.scen.
    const fs::path map = test_support::find_map(entry.path());
    if (map.empty()) continue;
    SCOPED_TRACE(map.string());
    for (const char* search : {"jps", "jps+"})
      EXPECT_EQ(scenario_mismatches(map, entry.path(), search, 4), 0) << search;
    ++maps;
  }
  EXPECT_GE(maps, 10);
}

// Jumping is really happening: over a map's scenario it expands fewer nodes than A*.
TEST(JumpPointSearch, ExpandsFewerNodesThanAStar) {
  const fs::path map = fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "movingai" / "den312d.map";
  fs::path scen = map;
  scen += ".scen";
  std::uint64_t astar = 0, jps = 0, plus = 0;
  EXPECT_EQ(scenario_mismatches(map, scen, "astar", 1, &astar), 0);
  EXPECT_EQ(scenario_mismatches(map, scen, "jps", 1, &jps), 0);
  EXPECT_EQ(scenario_mismatches(map, scen, "jps+", 1, &plus), 0);
  EXPECT_LT(jps, astar);
  EXPECT_LT(plus, astar);
}

// The corridor of a jump path is the grid's corridor of the cells it runs through: one portal
// per grid move, the side two cells share (left end first as seen travelling) or the corner a
// diagonal move passes.
TEST(JumpPointSearch, CorridorHasOnePortalPerGridMove) {
  for (unsigned seed = 200; seed <= 205; ++seed) {
    const Scene scene = map_scene(random_map(seed));
    const FreeSpace space(scene);
    for (const GridSearch search : {GridSearch::jps, GridSearch::jps_plus}) {
      const JumpPointGrid jps(space, GridOptions{}, {search});
      ASSERT_TRUE(jps.has_corridors());
      std::mt19937 rng(seed);
      const std::vector<Point> points = query_points(space, jps.grid(), rng, 40);
      QueryWorkspace ws;
      for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
        const RawPath r = find_path(jps, points[i], points[i + 1], {}, ws);
        if (r.status != search::SearchStatus::found) continue;
        ASSERT_TRUE(r.has_corridor);
        std::vector<Point> mids, directions;
        const std::vector<NodeId> corners = corner_cells(jps, r.nodes);
        for (std::size_t k = 1; k < corners.size(); ++k) {
          const Point a = jps.node_position(corners[k - 1]), b = jps.node_position(corners[k]);
          const int steps = int(std::lround(std::max(std::abs(b.x - a.x), std::abs(b.y - a.y))));
          const Point step{(b.x - a.x) / steps, (b.y - a.y) / steps};
          for (int s = 0; s < steps; ++s) {
            mids.push_back({a.x + (s + 0.5) * step.x, a.y + (s + 0.5) * step.y});
            directions.push_back(step);
          }
        }
        ASSERT_EQ(r.corridor.size(), mids.size());
        for (std::size_t k = 0; k < mids.size(); ++k) {
          const Segment& portal = r.corridor[k];
          EXPECT_NEAR(0.5 * (portal.a.x + portal.b.x), mids[k].x, 1e-9);
          EXPECT_NEAR(0.5 * (portal.a.y + portal.b.y), mids[k].y, 1e-9);
          const bool diagonal = directions[k].x != 0.0 && directions[k].y != 0.0;
          if (diagonal) {
            EXPECT_TRUE(portal.a == portal.b);
          } else {
            const double left = directions[k].x * (portal.a.y - mids[k].y) -
                                directions[k].y * (portal.a.x - mids[k].x);
            EXPECT_GT(left, 0.0);
          }
        }
      }
    }
  }
}

// Funnel smoothing works on jump paths as on any grid path: valid, never longer.
TEST(JumpPointSearch, FunnelSmoothsJumpPaths) {
  const fs::path map = fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "movingai" / "den312d.map";
  fs::path scen = map;
  scen += ".scen";
  const Scene scene = load_scene(map);
  const std::vector<Query> queries = load_scenario(scen, scene);
  for (const char* search : {"jps", "jps+"}) {
    PlanOptions options;
    options.smoother = "funnel";
    options.settings.set("grid.search", search);
    const Planner planner(scene, options);
    for (std::size_t i = 0; i < queries.size(); i += 3) {
      const PlanResult r = planner.plan(queries[i].start, queries[i].goal);
      ASSERT_TRUE(r.found()) << r.message;
      EXPECT_TRUE(r.message.empty()) << r.message;
      EXPECT_LE(r.length, r.raw_length + 1e-9);
    }
  }
}

// One planner, four threads: the answers of one thread (each query's jump graph is its own; the
// grid's bits and table are shared and read only). The tsan preset runs this ("Thread").
TEST(JumpPointSearch, FourThreadsAnswerExactlyAsOne) {
  const Scene scene =
      load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "movingai" / "den312d.map");
  for (const char* search : {"jps", "jps+"}) {
    PlanOptions options;
    options.settings.set("grid.search", search);
    const Planner planner(scene, options);
    const auto& grid = dynamic_cast<const JumpPointGrid&>(planner.discretisation()).grid();
    std::mt19937 rng(5);
    const std::vector<Point> points = query_points(planner.free_space(), grid, rng, 400);
    const auto plan = [&](std::size_t i) {
      const PlanResult r = planner.plan(points[i], points[i + 1]);
      return std::make_pair(r.raw_waypoints, r.waypoints);
    };
    std::vector<std::pair<std::vector<Point>, std::vector<Point>>> one, four(points.size());
    for (std::size_t i = 0; i + 1 < points.size(); i += 2) one.push_back(plan(i));
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < 4; ++t)
      threads.emplace_back([&, t] {
        for (std::size_t i = 2 * t; i + 1 < points.size(); i += 8) four[i / 2] = plan(i);
      });
    for (std::thread& thread : threads) thread.join();
    for (std::size_t k = 0; k < one.size(); ++k) EXPECT_TRUE(one[k] == four[k]) << search << k;
  }
}

// reach() is not a search to a goal: it runs over the grid's own arcs, whatever grid.search says.
TEST(JumpPointSearch, ReachRunsOverTheGridsOwnArcs) {
  const Scene scene = map_scene(random_map(11));
  PlanOptions options;
  const Planner astar(scene, options);
  options.settings.set("grid.search", "jps");
  const Planner jps(scene, options);
  const auto& grid = dynamic_cast<const JumpPointGrid&>(jps.discretisation()).grid();
  for (int y = 0; y < grid.height(); y += 5)
    for (int x = 0; x < grid.width(); x += 7) {
      if (grid.blocked(x, y)) continue;
      const Reach a = astar.reach(grid.cell_centre(x, y), 12.0);
      const Reach j = jps.reach(grid.cell_centre(x, y), 12.0);
      ASSERT_EQ(a.places.size(), j.places.size());
      for (std::size_t i = 0; i < a.places.size(); ++i)
        EXPECT_TRUE(same_cost(a.places[i].cost, j.places[i].cost));
    }
}

// --- where jumping does not apply ---------------------------------------------------------

std::string error_of(const Scene& scene, const std::string& key, const std::string& value,
                     const std::string& search) {
  PlanOptions options;
  options.settings.set(key, value);
  options.settings.set("grid.search", search);
  try {
    const Planner planner(scene, options);
  } catch (const InputError& e) {
    return e.what();
  }
  return {};
}

TEST(JumpPointSearch, RefusesFourConnectedAndCornerAlignedGrids) {
  const Scene scene = map_scene(random_map(7));
  for (const char* search : {"jps", "jps+"}) {
    const std::string four = error_of(scene, "grid.connectivity", "4", search);
    EXPECT_NE(four.find("grid.search"), std::string::npos) << four;
    EXPECT_NE(four.find("8-connected"), std::string::npos) << four;
    const std::string corner = error_of(scene, "grid.align", "corner", search);
    EXPECT_NE(corner.find("grid.search"), std::string::npos) << corner;
    EXPECT_NE(corner.find("grid.align=corner"), std::string::npos) << corner;
  }
  EXPECT_EQ(error_of(scene, "grid.connectivity", "4", "astar"), "");
  PlanOptions options;
  options.settings.set("grid.search", "jsp");
  EXPECT_THROW(Planner(scene, options), InputError);
}

// Plans every pair of `points` with A* and with jps/jps+; the jump searches must fall back (or
// not) as told, say so in every result, and cost what A* costs.
void expect_fallback(const Scene& scene, const std::vector<Point>& points, bool falls_back,
                     const std::string& reason) {
  PlanOptions astar_options;
  astar_options.smoother = "none";
  astar_options.settings.set("grid.resolution", 0.5);
  const Planner astar(scene, astar_options);
  for (const char* search : {"jps", "jps+"}) {
    PlanOptions options = astar_options;
    options.settings.set("grid.search", search);
    const Planner planner(scene, options);
    const auto& d = dynamic_cast<const JumpPointGrid&>(planner.discretisation());
    EXPECT_EQ(d.jumps(), !falls_back) << search;
    if (falls_back) {
      EXPECT_NE(d.fallback().find(reason), std::string::npos) << d.fallback();
      EXPECT_NE(d.summary().find("does not apply"), std::string::npos) << d.summary();
    }
    for (const Point s : points)
      for (const Point g : points) {
        if (s == g) continue;
        const PlanResult a = astar.plan(s, g), j = planner.plan(s, g);
        ASSERT_EQ(a.status, j.status) << search << ": " << j.message;
        if (!a.found()) continue;
        EXPECT_TRUE(same_cost(j.raw_cost, a.raw_cost))
            << search << ": " << j.raw_cost << " " << a.raw_cost;
        if (falls_back) {
          EXPECT_NE(j.message.find(std::string("grid.search=") + search + " does not apply"),
                    std::string::npos)
              << j.message;
          EXPECT_NE(j.message.find("searched with A*"), std::string::npos) << j.message;
        } else {
          EXPECT_TRUE(j.message.empty()) << j.message;
        }
      }
  }
}

TEST(JumpPointSearch, WeightedCellsFallBackToAStar) {
  Scene scene;
  scene.bounds = rect(0, 0, 20, 12);
  scene.obstacles.push_back({{rect(6, 2, 8, 10), {}}, {}});
  scene.regions.push_back({"mud", 3.0, std::nullopt, rect(10, 0, 14, 8), {}});
  expect_fallback(scene, {{0.5, 0.5}, {19.5, 11.5}, {19.5, 0.5}, {12.5, 3.5}, {3.5, 11.5}}, true,
                  "cells of different cost");
}

// One multiplier everywhere is no obstacle to jumping: costs scale.
TEST(JumpPointSearch, OneCostEverywhereStillJumps) {
  Scene scene;
  scene.bounds = rect(0, 0, 20, 12);
  scene.obstacles.push_back({{rect(6, 2, 8, 10), {}}, {}});
  scene.regions.push_back({"sand", 2.5, std::nullopt, rect(-1, -1, 21, 13), {}});
  expect_fallback(scene, {{0.5, 0.5}, {19.5, 11.5}, {19.5, 0.5}, {12.5, 3.5}, {3.5, 11.5}}, false,
                  "");
}

TEST(JumpPointSearch, UnclimbableHeightStepsFallBackToAStar) {
  Scene scene;
  scene.bounds = rect(0, 0, 12, 3);
  scene.agent.max_climb = 1.0;
  scene.regions.push_back({"plateau", 1.0, 2.0, rect(4, 0, 8, 3), {}});
  expect_fallback(scene, {{0.5, 1.5}, {11.5, 1.5}, {5.5, 0.5}, {10.5, 2.5}}, true, "height steps");
  // Steps the agent can climb cut no move: jumping applies.
  scene.regions[0].height = 0.5;
  expect_fallback(scene, {{0.5, 1.5}, {11.5, 1.5}, {5.5, 0.5}, {10.5, 2.5}}, false, "");
}

TEST(JumpPointSearch, WallsAlongCellSidesFallBackToAStar) {
  // A wall from (2, 0) up to (2, 3) with free space on both sides (traced along and back).
  Scene scene;
  scene.bounds = rect(0, 0, 4, 4);
  scene.free_boundary = {{{0, 0}, {2, 0}, {2, 3}, {2, 0}, {4, 0}, {4, 4}, {0, 4}}};
  expect_fallback(scene, {{0.5, 0.5}, {3.5, 0.5}, {1.5, 2.5}, {3.5, 3.5}}, true, "walls");
}

}  // namespace
}  // namespace polynav
