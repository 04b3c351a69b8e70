// HPA* on the grid (grid.search=hpa, Botea, Mueller and Schaeffer 2004): it finds a path exactly
// when flat grid A* does, on random maps full of corner traps and with every cluster size down to
// 2, on 4-, 8- and 16-connected, centre- and corner-aligned, weighted grids; its paths are grid
// paths move by move whose cost is their moves' cost and never below the optimum; on MovingAI
// maps every scenario query is found and passes the planner's exact check, at a length never
// below the reference; options it cannot serve are refused naming the option.
#include "polynav/discretise/grid/hierarchical_grid.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <thread>
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
using search::SearchStatus;
using test::rect;

bool same_cost(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

using test_support::map_scene;

// Clutter of every density, rooms walled off with one-cell doors, and pairs of blocked cells
// touching at a corner only (the diagonal pinches of grids without corner cutting), so that many
// pieces of clusters meet at borders and corners.
std::vector<std::string> random_map(unsigned seed) {
  std::mt19937 rng(seed);
  const auto uniform = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  const auto chance = [&](double p) { return std::bernoulli_distribution(p)(rng); };
  const int w = uniform(6, 48), h = uniform(6, 48);
  std::vector<std::string> rows(std::size_t(h), std::string(std::size_t(w), '.'));
  const auto block = [&](int x, int y) {
    if (x >= 0 && y >= 0 && x < w && y < h) rows[std::size_t(y)][std::size_t(x)] = '@';
  };
  const double p = 0.05 + 0.35 * std::uniform_real_distribution<double>()(rng);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (chance(seed % 2 == 0 ? p : 0.05)) block(x, y);
  if (seed % 2 == 1) {
    for (int k = uniform(1, 4); k > 0; --k) {
      const int x = uniform(1, w - 2);
      for (int y = 0; y < h; ++y)
        if (!chance(0.1)) block(x, y);
    }
    for (int k = uniform(1, 4); k > 0; --k) {
      const int y = uniform(1, h - 2);
      for (int x = 0; x < w; ++x)
        if (!chance(0.1)) block(x, y);
    }
  }
  for (int k = uniform(5, 30); k > 0; --k) {
    const int x = uniform(0, w - 2), y = uniform(0, h - 2);
    const bool rising = chance(0.5);
    block(x, rising ? y : y + 1);
    block(x + 1, rising ? y + 1 : y);
    rows[std::size_t(rising ? y + 1 : y)][std::size_t(x)] = '.';
    rows[std::size_t(rising ? y : y + 1)][std::size_t(x + 1)] = '.';
  }
  return rows;
}

// The cost of the grid's arc a -> b; NaN when the grid has no such arc.
double arc_cost(const OccupancyGrid& grid, NodeId a, NodeId b) {
  double cost = NAN;
  grid.for_each_neighbour(a, [&](NodeId to, double c) {
    if (to == b && !(c >= cost)) cost = c;
  });
  return cost;
}

// The path is made of the grid's own moves, joined to its ends by their attachments, and its
// graph cost is the sum of those moves' and attachments' costs.
::testing::AssertionResult valid_grid_path(const OccupancyGrid& grid, Point start, Point goal,
                                           const RawPath& r) {
  if (r.nodes.empty()) return ::testing::AssertionFailure() << "no nodes";
  std::vector<Attachment> ends;
  const auto attachment = [&](Point p, AttachDirection direction, NodeId node) {
    grid.attach(p, direction, ends);
    double cost = NAN;
    for (const Attachment& a : ends)
      if (a.node == node) cost = a.cost;
    return cost;
  };
  double total = attachment(start, AttachDirection::from_point, r.nodes.front());
  if (std::isnan(total)) return ::testing::AssertionFailure() << "the start does not attach there";
  for (std::size_t k = 1; k < r.nodes.size(); ++k) {
    const double c = arc_cost(grid, r.nodes[k - 1], r.nodes[k]);
    if (std::isnan(c))
      return ::testing::AssertionFailure() << "step " << k << " (" << r.nodes[k - 1] << " -> "
                                           << r.nodes[k] << ") is not a grid move";
    total += c;
  }
  const double last = attachment(goal, AttachDirection::to_point, r.nodes.back());
  if (std::isnan(last)) return ::testing::AssertionFailure() << "the goal does not attach there";
  total += last;
  if (!same_cost(total, r.graph_cost))
    return ::testing::AssertionFailure()
           << "moves cost " << total << ", the search reported " << r.graph_cost;
  return ::testing::AssertionSuccess();
}

// Free points: cell centres, points inside cells, and lattice points (which may join several
// cells, or several corner-aligned nodes).
std::vector<Point> query_points(const FreeSpace& space, const OccupancyGrid& grid,
                                std::mt19937& rng, int count) {
  std::vector<Point> points;
  std::uniform_int_distribution<int> cx(0, grid.width() - 1), cy(0, grid.height() - 1);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const Point o = grid.origin();
  const double s = grid.cell_size();
  for (int tries = 0; int(points.size()) < count && tries < 50 * count; ++tries) {
    const int x = cx(rng), y = cy(rng);
    Point p;
    switch (tries % 3) {
      case 0:
        if (grid.blocked(x, y)) continue;
        p = grid.cell_centre(x, y);
        break;
      case 1:
        p = {o.x + (x + unit(rng)) * s, o.y + (y + unit(rng)) * s};
        break;
      default:
        p = {o.x + x * s, o.y + y * s};
        break;
    }
    if (space.is_free(p)) points.push_back(p);
  }
  return points;
}

struct Tally {
  int found = 0;
  double worst = 1.0;
};

// Flat A* and HPA* agree on every query's status; HPA*'s paths are valid grid paths costing no
// less than A*'s. Goal sets too.
void expect_complete(const FreeSpace& space, const GridOptions& options, int cluster, unsigned seed,
                     int queries, Tally& tally) {
  const OccupancyGrid grid(space, options);
  const HierarchicalGrid hpa(space, options, cluster);
  ASSERT_EQ(hpa.node_count(), grid.node_count());
  std::mt19937 rng(seed);
  const std::vector<Point> points = query_points(space, grid, rng, 2 * queries);
  QueryWorkspace wa, wh;
  hpa.prepare(wh);
  const QueryOptions query;
  for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
    const Point s = points[i], g = points[i + 1];
    SCOPED_TRACE(::testing::Message() << "cluster " << cluster << ", (" << s.x << ", " << s.y
                                      << ") -> (" << g.x << ", " << g.y << ")");
    const RawPath a = find_path(grid, s, g, query, wa);
    std::size_t reached = 0;
    const RawPath h = hpa.find_path(s, std::span<const Point>(&g, 1), query, wh, reached);
    ASSERT_EQ(a.status, h.status) << h.message << " / A*: " << a.message;
    if (a.status != SearchStatus::found || a.nodes.empty()) continue;
    EXPECT_EQ(reached, 0u);
    EXPECT_GE(h.graph_cost, a.graph_cost * (1 - 1e-12)) << "below the grid's optimum";
    EXPECT_TRUE(valid_grid_path(grid, s, g, h));
    ASSERT_FALSE(h.points.empty());
    EXPECT_EQ(h.points.front(), s);
    EXPECT_EQ(h.points.back(), g);
    ++tally.found;
    if (a.graph_cost > 0) tally.worst = std::max(tally.worst, h.graph_cost / a.graph_cost);
  }
  for (std::size_t i = 0; i + 3 < points.size(); i += 8) {
    const Point goals[3] = {points[i + 1], points[i + 2], points[i + 3]};
    std::size_t ra = 0, rh = 0;
    const RawPath a = find_path_to_any(grid, points[i], goals, query, wa, ra);
    const RawPath h = hpa.find_path(points[i], goals, query, wh, rh);
    ASSERT_EQ(a.status, h.status) << h.message;
    if (a.status != SearchStatus::found || a.nodes.empty()) continue;
    ASSERT_LT(rh, 3u);
    EXPECT_GE(h.graph_cost, a.graph_cost * (1 - 1e-12));
    EXPECT_TRUE(valid_grid_path(grid, points[i], goals[rh], h));
  }
}

TEST(HierarchicalGrid, FindsAPathExactlyWhenAStarDoesOnRandomMaps) {
  Tally tally;
  for (unsigned seed = 1; seed <= 24; ++seed) {
    SCOPED_TRACE(seed);
    const Scene scene = map_scene(random_map(seed));
    const FreeSpace space(scene);
    for (const int cluster : {2, 3, 5, 8, 16}) expect_complete(space, {}, cluster, seed, 24, tally);
  }
  EXPECT_GT(tally.found, 500);
  std::printf("random maps, 8-connected: %d paths, worst cost / optimum %.4f\n", tally.found,
              tally.worst);
}

// The abstraction's own invariant, which makes it complete: every grid move from a node u of one
// cluster to a node v of another is matched by an inter-cluster arc a -> b with a joined to u
// inside u's cluster and b to v inside v's (connected pieces found here by a search of their
// own); and every intra-cluster arc costs what Dijkstra inside the cluster says.
TEST(HierarchicalGrid, EveryBorderMoveIsCoveredByATransitionPair) {
  for (unsigned seed = 50; seed <= 62; ++seed) {
    SCOPED_TRACE(seed);
    const Scene scene = map_scene(random_map(seed));
    const FreeSpace space(scene);
    for (const int connectivity : {4, 8, 16})
      for (const int cluster : {2, 3, 6}) {
        SCOPED_TRACE(::testing::Message() << connectivity << "-connected, cluster " << cluster);
        GridOptions options;
        options.connectivity = connectivity;
        const HierarchicalGrid hpa(space, options, cluster);
        const OccupancyGrid& grid = hpa.grid();
        const std::size_t n = grid.node_count();
        // Pieces: nodes joined inside their cluster.
        std::vector<std::uint32_t> piece(n, UINT32_MAX);
        std::uint32_t pieces = 0;
        for (NodeId s = 0; s < n; ++s) {
          if (piece[s] != UINT32_MAX) continue;
          const auto view = hpa.cluster_view(hpa.cluster_of(s));
          std::vector<NodeId> stack = {s};
          piece[s] = pieces;
          while (!stack.empty()) {
            const NodeId m = stack.back();
            stack.pop_back();
            view.for_each_neighbour(m, [&](NodeId to, double) {
              if (piece[to] == UINT32_MAX) {
                piece[to] = pieces;
                stack.push_back(to);
              }
            });
          }
          ++pieces;
        }
        std::set<std::pair<std::uint32_t, std::uint32_t>> covered;
        const auto abstract = hpa.abstract();
        for (NodeId t = 0; t < hpa.transition_count(); ++t)
          abstract.for_each_neighbour(t, [&](NodeId u, double cost) {
            const NodeId a = hpa.transition_cell(t), b = hpa.transition_cell(u);
            if (hpa.cluster_of(a) != hpa.cluster_of(b)) {
              EXPECT_TRUE(same_cost(cost, arc_cost(grid, a, b))) << "inter arc " << a << " " << b;
              covered.insert({piece[a], piece[b]});
            } else {
              EXPECT_EQ(piece[a], piece[b]) << "an intra arc between two pieces";
            }
          });
        int moves = 0;
        for (NodeId u = 0; u < n; ++u)
          grid.for_each_neighbour(u, [&](NodeId v, double) {
            if (hpa.cluster_of(u) == hpa.cluster_of(v)) return;
            ++moves;
            EXPECT_TRUE(covered.contains({piece[u], piece[v]}))
                << "the move " << u << " -> " << v << " is not covered";
          });
        EXPECT_GT(moves, 0);
      }
  }
}

TEST(HierarchicalGrid, EveryConnectivityAndAlignment) {
  for (unsigned seed = 30; seed <= 37; ++seed) {
    SCOPED_TRACE(seed);
    const Scene scene = map_scene(random_map(seed));
    const FreeSpace space(scene);
    for (const int connectivity : {4, 8, 16})
      for (const GridAlign align : {GridAlign::centre, GridAlign::corner}) {
        SCOPED_TRACE(::testing::Message() << connectivity << "-connected, "
                                          << (align == GridAlign::corner ? "corner" : "centre"));
        GridOptions options;
        options.connectivity = connectivity;
        options.align = align;
        Tally tally;
        for (const int cluster : {2, 4, 7})
          expect_complete(space, options, cluster, seed, 16, tally);
      }
  }
}

// Polygon scenes, where walls run along cell sides and cells cost 1, 3 or 0.25 times their
// length: the intra-cluster costs are the grid's.
TEST(HierarchicalGrid, PolygonScenesWithWeightedTerrain) {
  Tally tally;
  for (unsigned seed = 1; seed <= 8; ++seed) {
    SCOPED_TRACE(seed);
    Scene scene = test::random_scene(seed, seed % 2 == 0 ? 0.0 : 0.3);
    if (seed % 4 < 2) {
      scene.regions.push_back({"mud", 3.0, std::nullopt, rect(2, 2, 11, 9), {}});
      scene.regions.push_back({"road", 0.25, std::nullopt, rect(0, 12, 20, 14), {}});
    }
    const FreeSpace space(scene);
    GridOptions options;
    options.resolution = 0.4;
    for (const int cluster : {3, 10}) expect_complete(space, options, cluster, seed, 30, tally);
  }
  EXPECT_GT(tally.found, 200);
  std::printf("polygon scenes: %d paths, worst cost / optimum %.4f\n", tally.found, tally.worst);
}

std::string refusal(const Scene& scene, const std::vector<std::pair<std::string, std::string>>& s) {
  PlanOptions options;
  for (const auto& [key, value] : s) options.settings.set(key, value);
  try {
    const Planner planner(scene, options);
    return "accepted";
  } catch (const InputError& e) {
    return e.what();
  }
}

TEST(HierarchicalGrid, RefusesBadClusterSizesAndOneWayMoves) {
  const Scene maze = load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "maze.yaml");
  for (const char* bad : {"1", "0", "-4", "two"}) {
    const std::string m = refusal(maze, {{"grid.search", "hpa"}, {"grid.cluster", bad}});
    EXPECT_NE(m.find("grid.cluster"), std::string::npos) << bad << ": " << m;
  }
  const FreeSpace space(maze);
  try {
    const HierarchicalGrid h(space, {}, 1);
    ADD_FAILURE() << "cluster 1 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("grid.cluster"), std::string::npos) << e.what();
  }
  EXPECT_EQ(refusal(maze, {{"grid.search", "hpa"}, {"grid.cluster", "2"}}), "accepted");
  // The grid and its abstraction are one build, within the build budget.
  GridOptions hurried;
  hurried.max_build_seconds = 1e-12;
  try {
    const HierarchicalGrid h(space, hurried, 16);
    ADD_FAILURE() << "built despite an exhausted budget";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().key_path, "space.max_build_seconds") << e.what();
  }
  // Central paths choose among optimal paths, which HPA* does not search for.
  const std::string central = refusal(maze, {{"grid.search", "hpa"}, {"grid.paths", "central"}});
  EXPECT_NE(central.find("grid.paths"), std::string::npos) << central;
  // Heights with a climb limit make moves one way: refused, naming grid.search.
  const Scene terrain = load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "terrain.yaml");
  const std::string m = refusal(terrain, {{"grid.search", "hpa"}});
  EXPECT_NE(m.find("grid.search"), std::string::npos) << m;
  EXPECT_NE(m.find("one way"), std::string::npos) << m;
  // Heights every move can climb both ways are accepted.
  Scene climbable = terrain;
  climbable.agent.max_climb = 100.0;
  EXPECT_EQ(refusal(climbable, {{"grid.search", "hpa"}}), "accepted");
}

// Every (every-th) scenario query of a MovingAI map through the Planner: found, passing its exact
// check, never shorter than the optimum; the mean excess stays small (near optimal).
void expect_movingai(const fs::path& map, const fs::path& scen, std::size_t every,
                     const char* cluster) {
  const Scene scene = load_scene(map);
  const std::vector<Query> queries = load_scenario(scen, scene);
  PlanOptions options;
  options.smoother = "none";
  options.settings.set("grid.search", "hpa");
  options.settings.set("grid.cluster", cluster);
  const Planner planner(scene, options);
  EXPECT_NE(planner.discretisation().summary().find("transitions"), std::string::npos);
  double worst = 1.0, sum = 0.0;
  int n = 0;
  for (std::size_t i = 0; i < queries.size(); i += every) {
    const Query& q = queries[i];
    const PlanResult r = planner.plan(q.start, q.goal);
    ASSERT_TRUE(r.found()) << q.where.to_string() << ": " << r.message;
    const double reference = *q.reference_length;
    EXPECT_GE(r.raw_length, reference - std::max(1e-6, 5e-6 * reference)) << q.where.to_string();
    if (reference > 0) {
      worst = std::max(worst, r.raw_length / reference);
      sum += r.raw_length / reference;
      ++n;
    }
  }
  ASSERT_GT(n, 0);
  // HPA* reports about 1% on such maps; 10% on average means the abstraction is broken.
  EXPECT_LT(sum / n, 1.10);
  std::printf("%s, cluster %s: %d queries, mean %.4f, max %.4f x optimal\n",
              map.filename().string().c_str(), cluster, n, sum / n, worst);
}

TEST(HierarchicalGrid, BundledMovingAIMaps) {
  const fs::path dir = fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "movingai";
  for (const char* name : {"arena.map", "den312d.map", "maze-100-1.map"}) {
    fs::path scen = dir / name;
    scen += ".scen";
    SCOPED_TRACE(name);
    expect_movingai(dir / name, scen, 4, "16");
  }
  expect_movingai(dir / "arena.map", dir / "arena.map.scen", 8, "5");
}

TEST(HierarchicalGrid, ReferenceMovingAIMaps) {
  const fs::path dir = test_support::shared_data("movingai");
  if (!fs::exists(dir)) GTEST_SKIP() << "reference data not found at " << dir;
  const struct {
    const char* map;
    const char* scen;
    std::size_t every;
  } maps[] = {{"random-32-32-10.map", "random-32-32-10-random-1.scen", 1},
              {"32room_000.map", "32room_000.map.scen", 20},
              {"random-100-33.map", "random-100-33.map.scen", 10}};
  for (const auto& m : maps) {
    if (!fs::exists(dir / m.map) || !fs::exists(dir / m.scen)) continue;
    SCOPED_TRACE(m.map);
    expect_movingai(dir / m.map, dir / m.scen, m.every, "16");
  }
}

// The abstraction is const and every query's state is in its workspace: four threads planning
// the same queries through one Planner answer exactly as one thread does.
TEST(HierarchicalGrid, ThreadsShareTheAbstraction) {
  const fs::path dir = fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "movingai";
  const Scene scene = load_scene(dir / "den312d.map");
  const std::vector<Query> queries = load_scenario(dir / "den312d.map.scen", scene);
  PlanOptions options;
  options.settings.set("grid.search", "hpa");
  options.settings.set("grid.cluster", 8);
  const Planner planner(scene, options);
  std::vector<PlanResult> one;
  for (const Query& q : queries) one.push_back(planner.plan(q.start, q.goal));
  std::vector<std::vector<PlanResult>> many(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < many.size(); ++t)
    threads.emplace_back([&, t] {
      for (std::size_t k = 0; k < queries.size(); ++k) {
        const Query& q = queries[(k + 37 * t) % queries.size()];
        many[t].push_back(planner.plan(q.start, q.goal));
      }
    });
  for (std::thread& th : threads) th.join();
  for (std::size_t t = 0; t < many.size(); ++t)
    for (std::size_t k = 0; k < queries.size(); ++k) {
      const PlanResult& a = one[(k + 37 * t) % queries.size()];
      const PlanResult& b = many[t][k];
      ASSERT_TRUE(b.found()) << b.message;
      EXPECT_EQ(a.raw_waypoints, b.raw_waypoints);
      EXPECT_EQ(a.waypoints, b.waypoints);
    }
}

}  // namespace
}  // namespace polynav
