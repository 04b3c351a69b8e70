// Central grid paths (grid.paths=central): on tiny maps every count and every step of the
// central path agrees with a brute-force enumeration of all shortest grid paths; on bundled and
// random scenes central paths are valid and exactly as long as A*'s; after greedy smoothing they
// are shorter on average; weighted grids keep the searched path and say so.
#include "polynav/discretise/grid/central_paths.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <random>

#include "discretise/random_scenes.hpp"
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

TEST(PathCount, AddsAndMultipliesBeyondADoublesRange) {
  PathCount a = PathCount::one();
  for (int k = 0; k < 5; ++k) a += PathCount::one();
  EXPECT_EQ(a.value(), 6.0);
  EXPECT_EQ((a * a).value(), 36.0);
  PathCount big = PathCount::one();
  for (int k = 0; k < 3000; ++k) big += big;  // 2^3000
  EXPECT_EQ(big.exponent, 3000);
  EXPECT_EQ(big.mantissa, 1.0);
  EXPECT_TRUE(a < big);
  EXPECT_FALSE(big < a);
  EXPECT_EQ((big * big).exponent, 6000);
  PathCount sum = big;
  sum += a;  // far below big's precision
  EXPECT_EQ(sum, big);
  EXPECT_TRUE(PathCount{} < PathCount::one());
}

// Every shortest grid path from source to target, by depth-first enumeration over the grid's
// arcs with their lengths in cells, pruned by the straight-line distance to the target.
struct Enumeration {
  double best = INFINITY;
  std::vector<std::vector<search::NodeId>> paths;
};

void enumerate(const OccupancyGrid& grid, search::NodeId target, double optimum,
               std::vector<search::NodeId>& path, double length, Enumeration& out) {
  const search::NodeId n = path.back();
  if (n == target) {
    if (std::abs(length - optimum) < 1e-9) out.paths.push_back(path);
    return;
  }
  grid.for_each_neighbour(n, [&](search::NodeId to, double cost) {
    const double next = length + cost / grid.cell_size();
    if (next + distance(grid.node_position(to), grid.node_position(target)) / grid.cell_size() >
        optimum + 1e-9)
      return;
    if (std::find(path.begin(), path.end(), to) != path.end()) return;
    path.push_back(to);
    enumerate(grid, target, optimum, path, next, out);
    path.pop_back();
  });
}

Scene tiny_map(unsigned seed, int w, int h, double density) {
  std::mt19937 rng(seed);
  std::bernoulli_distribution blocked(density);
  Scene scene;
  scene.bounds = rect(0, 0, w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (blocked(rng)) scene.obstacles.push_back({{rect(x, y, x + 1, y + 1), {}}, {}});
  return scene;
}

TEST(CentralPaths, CountsAndChoicesMatchABruteForceEnumeration) {
  int checked = 0, with_choices = 0;
  for (unsigned seed = 1; seed <= 8; ++seed) {
    const Scene scene = tiny_map(seed, 7, 6, 0.18);
    FreeSpaceOptions open;
    open.open_gaps = seed % 2 == 0;
    const FreeSpace space(scene, open);
    for (const int connectivity : {4, 8, 16}) {
      for (const GridAlign align : {GridAlign::centre, GridAlign::corner}) {
        GridOptions options;
        options.resolution = 1.0;
        options.connectivity = connectivity;
        options.align = align;
        const OccupancyGrid grid(space, options);
        ASSERT_TRUE(CentralGridPaths::applies(grid).empty());
        CentralGridPaths central;
        std::mt19937 rng(seed + 100u * unsigned(connectivity));
        std::uniform_int_distribution<search::NodeId> pick(0,
                                                           search::NodeId(grid.node_count() - 1));
        for (int q = 0; q < 6; ++q) {
          const search::NodeId s = pick(rng), t = pick(rng);
          SCOPED_TRACE("seed " + std::to_string(seed) + " " + std::to_string(connectivity) +
                       "-connected " + (align == GridAlign::corner ? "corner" : "centre") +
                       " from " + std::to_string(s) + " to " + std::to_string(t));
          const search::SearchResult d = search::dijkstra(grid, s, t);
          std::vector<search::NodeId> path;
          const bool found = central.find(grid, s, t, path);
          ASSERT_EQ(found, d.status == search::SearchStatus::found);
          if (!found) continue;
          const double optimum = d.cost / grid.cell_size();
          Enumeration all;
          std::vector<search::NodeId> prefix{s};
          enumerate(grid, t, optimum, prefix, 0.0, all);
          ASSERT_FALSE(all.paths.empty());
          // The central path is one of the shortest paths.
          EXPECT_NE(std::find(all.paths.begin(), all.paths.end(), path), all.paths.end());
          // Counts: the shortest paths through each node, and its predecessors on them.
          std::map<search::NodeId, double> through;
          std::map<search::NodeId, std::vector<search::NodeId>> before;
          for (const auto& p : all.paths)
            for (std::size_t k = 0; k < p.size(); ++k) {
              through[p[k]] += 1.0;
              if (k > 0) before[p[k]].push_back(p[k - 1]);
            }
          for (search::NodeId n = 0; n < grid.node_count(); ++n) {
            const double expected = through.count(n) ? through[n] : 0.0;
            EXPECT_EQ((central.from_source(n) * central.to_target(n)).value(), expected)
                << "node " << n;
          }
          EXPECT_EQ(central.from_source(t).value(), double(all.paths.size()));
          EXPECT_EQ(central.to_target(s).value(), double(all.paths.size()));
          // Traced from the target, every step goes to a predecessor with the most paths.
          for (std::size_t k = path.size() - 1; k > 0; --k) {
            double most = 0.0;
            for (const search::NodeId p : before[path[k]]) most = std::max(most, through[p]);
            EXPECT_EQ(through[path[k - 1]], most) << "step " << k;
            std::sort(before[path[k]].begin(), before[path[k]].end());
            before[path[k]].erase(std::unique(before[path[k]].begin(), before[path[k]].end()),
                                  before[path[k]].end());
            with_choices += before[path[k]].size() > 1 ? 1 : 0;
          }
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 150) << with_choices;
  // The rule was put to the test, not only along one-way corridors.
  EXPECT_GT(with_choices, checked);
}

PlanOptions grid_options(const char* paths, int connectivity, const char* align,
                         const char* smoother = "none") {
  PlanOptions options;
  options.smoother = smoother;
  options.settings.set("grid.paths", paths);
  options.settings.set("grid.connectivity", connectivity);
  options.settings.set("grid.align", align);
  return options;
}

TEST(CentralPaths, ValidAndExactlyAsLongAsAStarOnMapsAndRandomScenes) {
  int compared = 0, different = 0;
  const auto compare = [&](const std::shared_ptr<const FreeSpace>& space, const Planner& plain,
                           const Planner& central, Point s, Point g, const std::string& where) {
    const PlanResult a = plain.plan(s, g), c = central.plan(s, g);
    ASSERT_EQ(c.found(), a.found()) << where << ": " << c.message;
    if (!c.found()) return;
    ++compared;
    EXPECT_TRUE(PathSimplifier(*space).is_valid(c.raw_waypoints)) << where;
    EXPECT_EQ(c.raw_waypoints.front(), s);
    EXPECT_EQ(c.raw_waypoints.back(), g);
    EXPECT_NEAR(c.raw_length, a.raw_length, 1e-9 * std::max(1.0, a.raw_length)) << where;
    different += c.raw_waypoints != a.raw_waypoints ? 1 : 0;
  };
  for (const char* name : {"arena.map", "den312d.map", "maze-100-1.map"}) {
    const Scene scene = load_scene(scenes_dir / "movingai" / name);
    for (const char* align : {"centre", "corner"}) {
      const std::vector<Query> queries = load_scenario(
          scenes_dir / "movingai" / (std::string(name) + ".scen"), scene,
          std::string(align) == "corner" ? ScenarioPoints::corners : ScenarioPoints::centres);
      const auto space = std::make_shared<const FreeSpace>(scene);
      for (const int connectivity : {4, 8, 16}) {
        const Planner plain(space, grid_options("any", connectivity, align));
        const Planner central(space, grid_options("central", connectivity, align));
        const std::size_t step = std::max<std::size_t>(1, queries.size() / 25);
        for (std::size_t i = 0; i < queries.size(); i += step)
          compare(space, plain, central, queries[i].start, queries[i].goal,
                  std::string(name) + " " + align + " " + std::to_string(connectivity) +
                      "-connected query " + std::to_string(i));
      }
    }
  }
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const auto space = std::make_shared<const FreeSpace>(random_scene(seed, 0.2));
    for (const char* align : {"centre", "corner"}) {
      PlanOptions plain_options = grid_options("any", 8, align);
      PlanOptions central_options = grid_options("central", 8, align);
      plain_options.settings.set("grid.resolution", 0.5);
      central_options.settings.set("grid.resolution", 0.5);
      const Planner plain(space, plain_options), central(space, central_options);
      std::mt19937 rng(seed);
      std::uniform_real_distribution<double> coord(0.0, 20.0);
      for (int q = 0; q < 15; ++q)
        compare(space, plain, central, {coord(rng), coord(rng)}, {coord(rng), coord(rng)},
                "random scene " + std::to_string(seed) + " " + align);
    }
  }
  EXPECT_GT(compared, 400);
  EXPECT_GT(different, compared / 3);  // central paths are other paths, not A*'s own
}

TEST(CentralPaths, JumpPointSearchAndWeightedSearchGiveTheSameCentralPaths) {
  const Scene scene = load_scene(scenes_dir / "movingai" / "den312d.map");
  const std::vector<Query> queries =
      load_scenario(scenes_dir / "movingai" / "den312d.map.scen", scene);
  const auto space = std::make_shared<const FreeSpace>(scene);
  const Planner astar(space, grid_options("central", 8, "centre"));
  PlanOptions jps_options = grid_options("central", 8, "centre");
  jps_options.settings.set("grid.search", "jps");
  const Planner jps(space, jps_options);
  for (std::size_t i = 0; i < queries.size(); i += 11) {
    const PlanResult a = astar.plan(queries[i].start, queries[i].goal);
    const PlanResult j = jps.plan(queries[i].start, queries[i].goal);
    ASSERT_TRUE(a.found() && j.found());
    // The central path depends only on its ends, not on how the first path was found.
    EXPECT_EQ(a.raw_waypoints, j.raw_waypoints) << "query " << i;
  }
}

TEST(CentralPaths, SmoothedCentralPathsAreShorterOnAverage) {
  for (const char* name : {"arena.map", "den312d.map"}) {
    const Scene scene = load_scene(scenes_dir / "movingai" / name);
    const std::vector<Query> queries = load_scenario(
        scenes_dir / "movingai" / (std::string(name) + ".scen"), scene, ScenarioPoints::corners);
    Settings open;
    open.set("space.gaps", "open");
    const auto space = std::make_shared<const FreeSpace>(scene, free_space_options(open));
    const Planner plain(space, grid_options("any", 8, "corner", "shortcut"));
    const Planner central(space, grid_options("central", 8, "corner", "shortcut"));
    double plain_sum = 0.0, central_sum = 0.0;
    for (const Query& q : queries) {
      const PlanResult a = plain.plan(q.start, q.goal), c = central.plan(q.start, q.goal);
      ASSERT_TRUE(a.found() && c.found());
      plain_sum += a.length;
      central_sum += c.length;
    }
    EXPECT_LT(central_sum, plain_sum) << name;
  }
}

TEST(CentralPaths, WeightedGridsKeepTheSearchedPathAndSaySo) {
  Scene scene = random_scene(3, 0.0);
  scene.regions.push_back({"mud", 2.5, std::nullopt, rect(5, 5, 12, 9), {}});
  PlanOptions options = grid_options("central", 8, "centre");
  options.settings.set("grid.resolution", 0.5);
  const Planner central(scene, options);
  PlanOptions plain_options = grid_options("any", 8, "centre");
  plain_options.settings.set("grid.resolution", 0.5);
  const Planner plain(scene, plain_options);
  const PlanResult c = central.plan({1, 1}, {19, 19}), a = plain.plan({1, 1}, {19, 19});
  ASSERT_TRUE(c.found()) << c.message;
  EXPECT_NE(c.message.find("grid.paths=central does not apply"), std::string::npos) << c.message;
  EXPECT_NE(c.message.find("cells of different cost"), std::string::npos) << c.message;
  EXPECT_EQ(c.raw_waypoints, a.raw_waypoints);
}

TEST(CentralPaths, RefusedWithThetaNamingTheOption) {
  const Scene scene = load_scene(scenes_dir / "maze.yaml");
  PlanOptions options;
  options.settings.set("grid.paths", "central");
  options.settings.set("grid.search", "theta");
  try {
    const Planner planner(scene, options);
    ADD_FAILURE() << "grid.paths=central with grid.search=theta accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("grid.paths"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace polynav
