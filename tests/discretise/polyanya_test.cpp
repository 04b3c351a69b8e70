// Polyanya (navmesh.search=optimal): its lengths are the exact Euclidean optimum, checked against
// independent oracles: the visibility graph searched without smoothing, the Euclidean lengths of
// arena-euclidean.scen, and answers worked out by hand on Polyanya's degenerate test meshes. Every
// path passes the exact check (each segment in line of sight, each turn free).
#include "polynav/discretise/navmesh/polyanya.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "discretise/random_scenes.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/smooth/path_simplifier.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

const fs::path bundled = fs::path(POLYNAV_SOURCE_DIR) / "scenes";
const fs::path shared = fs::path(POLYNAV_SHARED_DATA);

PlanOptions optimal_options(const std::string& source = "auto") {
  PlanOptions o;
  o.method = "navmesh";
  o.smoother = "none";
  o.settings.set("navmesh.search", std::string("optimal"));
  o.settings.set("navmesh.source", source);
  return o;
}

PlanOptions visgraph_options() {
  PlanOptions o;
  o.method = "visgraph";
  o.smoother = "none";
  o.settings.set("visgraph.max_nodes", std::string("200000"));
  return o;
}

std::string text(Point p) {
  return "(" + std::to_string(p.x) + ", " + std::to_string(p.y) + ")";
}

// Pairs of free points: uniform ones and ones on the lattice of half units (on grid-like scenes
// these land on mesh vertices and edges, and their segments run through vertices).
std::vector<std::pair<Point, Point>> free_pairs(const FreeSpace& space, int count, unsigned seed) {
  std::mt19937 rng(seed);
  const Box box = space.box();
  std::uniform_real_distribution<double> ux(box.min.x, box.max.x), uy(box.min.y, box.max.y);
  std::vector<std::pair<Point, Point>> out;
  for (int i = 0; i < 50 * count && int(out.size()) < count; ++i) {
    Point a{ux(rng), uy(rng)}, b{ux(rng), uy(rng)};
    if (i % 2) {
      a = {std::round(2 * a.x) / 2, std::round(2 * a.y) / 2};
      b = {std::round(2 * b.x) / 2, std::round(2 * b.y) / 2};
    }
    if (space.is_free(a) && space.is_free(b)) out.emplace_back(a, b);
  }
  return out;
}

// Plans every pair with Polyanya and the visibility graph: the same status, lengths equal to
// 1e-9 relative, every Polyanya path valid. Returns how many were compared.
int expect_optimal(const Planner& optimal, const Planner& graph,
                   const std::vector<std::pair<Point, Point>>& pairs) {
  const FreeSpace& space = optimal.free_space();
  const PathSimplifier checker(space);
  int compared = 0;
  for (const auto& [a, b] : pairs) {
    SCOPED_TRACE(text(a) + " to " + text(b));
    const PlanResult p = optimal.plan(a, b);
    const PlanResult v = graph.plan(a, b);
    EXPECT_EQ(p.status, v.status) << p.message << " / " << v.message;
    if (!p.found() || !v.found()) continue;
    ++compared;
    EXPECT_NEAR(p.length, v.length, 1e-9 * std::max(1.0, v.length));
    if (p.waypoints.size() < 2) {
      ADD_FAILURE() << "a path of " << p.waypoints.size() << " points";
      continue;
    }
    EXPECT_EQ(p.waypoints.front(), a);
    EXPECT_EQ(p.waypoints.back(), b);
    EXPECT_TRUE(checker.is_valid(p.waypoints));
    for (std::size_t k = 1; k < p.waypoints.size(); ++k)
      EXPECT_TRUE(space.line_of_sight(p.waypoints[k - 1], p.waypoints[k]));
  }
  return compared;
}

struct Case {
  fs::path scene;
  fs::path scenario;  // empty: the scene's own queries
};

std::vector<Case> bundled_cases() {
  std::vector<Case> cases;
  for (const auto& e : fs::directory_iterator(bundled))
    if (e.path().extension() == ".yaml" || e.path().extension() == ".json")
      cases.push_back({e.path(), {}});
  for (const auto& e : fs::directory_iterator(bundled / "movingai"))
    if (e.path().extension() == ".map") cases.push_back({e.path(), fs::path(e.path()) += ".scen"});
  for (const auto& e : fs::directory_iterator(bundled / "mesh"))
    if (e.path().extension() == ".mesh") cases.push_back({e.path(), {}});
  for (const auto& e : fs::directory_iterator(bundled / "mesh" / "degenerate")) {
    if (e.path().extension() != ".mesh") continue;
    fs::path scen = e.path();
    scen.replace_extension(".scen");
    cases.push_back({e.path(), fs::exists(scen) ? scen : fs::path()});
  }
  std::sort(cases.begin(), cases.end(),
            [](const Case& a, const Case& b) { return a.scene < b.scene; });
  return cases;
}

class PolyanyaOnScene : public testing::TestWithParam<Case> {};

TEST_P(PolyanyaOnScene, LengthsAreTheVisibilityGraphOptimum) {
  const Case& c = GetParam();
  const Scene scene = load_scene(c.scene);
  const auto space = std::make_shared<const FreeSpace>(scene);
  std::vector<std::pair<Point, Point>> pairs;
  std::vector<Query> queries =
      c.scenario.empty() ? scene.queries : load_scenario(c.scenario, scene);
  if (queries.size() > 300) {
    std::vector<Query> sample;
    for (std::size_t i = 0; i < queries.size(); i += queries.size() / 300)
      sample.push_back(queries[i]);
    queries = sample;
  }
  for (const Query& q : queries)
    if (space->is_free(q.start) && space->is_free(q.goal)) pairs.emplace_back(q.start, q.goal);
  const std::vector<std::pair<Point, Point>> random = free_pairs(*space, 150, 17);
  pairs.insert(pairs.end(), random.begin(), random.end());
  const Planner graph(space, visgraph_options());
  // A mesh scene's own faces and the rebuilt triangulation of the same free space.
  for (const char* source : {"auto", "rebuild"}) {
    if (!scene.mesh && std::string(source) == "rebuild") continue;
    SCOPED_TRACE(std::string("navmesh.source=") + source);
    try {
      const Planner optimal(space, optimal_options(source));
      EXPECT_GT(expect_optimal(optimal, graph, pairs), 10);
    } catch (const InputError& e) {
      // Only heights that differ by more than the climb limit are refused.
      EXPECT_TRUE(space->has_heights() && std::isfinite(space->agent().max_climb)) << e.what();
      EXPECT_NE(std::string(e.what()).find("navmesh.search"), std::string::npos) << e.what();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Bundled, PolyanyaOnScene, testing::ValuesIn(bundled_cases()),
                         [](const testing::TestParamInfo<Case>& param) {
                           std::string name = param.param.scene.filename().string();
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

TEST(Polyanya, RandomScenesMatchTheVisibilityGraph) {
  int compared = 0;
  for (unsigned seed = 1; seed <= 16; ++seed) {
    for (const double radius : {0.0, 0.3}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + ", radius " + std::to_string(radius));
      const auto space = std::make_shared<const FreeSpace>(test::random_scene(seed, radius));
      const Planner optimal(space, optimal_options());
      const Planner graph(space, visgraph_options());
      compared += expect_optimal(optimal, graph, free_pairs(*space, 60, seed));
    }
  }
  EXPECT_GT(compared, 1000);
}

// Segments through a pinch point or across a wall are never taken, and a pinch point is reached
// from either side.
TEST(Polyanya, ZeroWidthGapsAndWallsStayClosed) {
  Scene scene;
  scene.bounds = test::rect(0, 0, 10, 10);
  for (const Ring& r : {test::rect(0, 0, 5, 5), test::rect(5, 5, 10, 10), test::rect(7, 2, 8, 3),
                        test::rect(2, 7, 3, 8)})
    scene.obstacles.push_back({{r, {}}, {}});
  const auto space = std::make_shared<const FreeSpace>(scene);
  const Planner optimal(space, optimal_options());
  const Planner graph(space, visgraph_options());
  EXPECT_NE(optimal.plan({9, 1}, {1, 9}).status, search::SearchStatus::found);
  for (const Point from : {Point{9.5, 0.5}, Point{0.5, 9.5}}) {
    const PlanResult r = optimal.plan(from, {5, 5});
    ASSERT_TRUE(r.found()) << r.message;
    EXPECT_NEAR(r.length, graph.plan(from, {5, 5}).length, 1e-9 * r.length);
  }
  const Scene walls = load_scene(bundled / "mesh" / "walls-v3.mesh");
  const auto walled = std::make_shared<const FreeSpace>(walls);
  EXPECT_GT(expect_optimal(Planner(walled, optimal_options("mesh")),
                           Planner(walled, visgraph_options()), free_pairs(*walled, 300, 5)),
            100);
}

// arena.mesh with the Euclidean lengths Polyanya's authors' implementation reports (column 9).
TEST(Polyanya, ArenaLengthsAreTheScenarioOptimum) {
  for (const fs::path& dir : {bundled / "mesh", shared / "mesh"}) {
    if (!fs::exists(dir / "arena-euclidean.scen")) {
      std::printf("skipped %s: not present\n", dir.c_str());
      continue;
    }
    const Scene scene = load_scene(dir / "arena.mesh");
    const std::vector<Query> queries = load_scenario(dir / "arena-euclidean.scen", scene);
    ASSERT_EQ(queries.size(), 160u);
    const auto space = std::make_shared<const FreeSpace>(scene);
    for (const char* source : {"mesh", "rebuild"}) {
      const Planner optimal(space, optimal_options(source));
      const PathSimplifier checker(*space);
      for (const Query& q : queries) {
        SCOPED_TRACE(std::string(source) + " " + q.name);
        const PlanResult r = optimal.plan(q.start, q.goal);
        ASSERT_TRUE(r.found()) << r.message;
        ASSERT_TRUE(q.reference_length);
        EXPECT_NEAR(r.length, *q.reference_length, 1e-9 * std::max(1.0, *q.reference_length));
        EXPECT_TRUE(checker.is_valid(r.waypoints));
      }
    }
  }
}

// Polyanya's degenerate meshes: a vertex inside free space with four triangles round it (square),
// collinear vertices, faces meeting at a point. Worked out by hand: the diamond |x| + |y| <= 1 is
// convex, so every answer on it is the straight segment, also through the centre vertex and
// between its corners.
TEST(Polyanya, SquareMeshAnswersByHand) {
  const fs::path file = bundled / "mesh" / "degenerate" / "square.mesh";
  const Scene scene = load_scene(file);
  const auto space = std::make_shared<const FreeSpace>(scene);
  const Planner optimal(space, optimal_options("mesh"));
  const std::vector<Query> queries =
      load_scenario(bundled / "mesh" / "degenerate" / "square.scen", scene);
  ASSERT_EQ(queries.size(), 1u);
  // (0, 0) is the centre vertex, (0.5, 0.5) the middle of the edge from (1, 0) to (0, 1).
  const PlanResult r = optimal.plan(queries[0].start, queries[0].goal);
  ASSERT_TRUE(r.found()) << r.message;
  EXPECT_NEAR(r.length, std::sqrt(0.5), 1e-12);
  EXPECT_EQ(r.waypoints, (std::vector<Point>{{0, 0}, {0.5, 0.5}}));
  for (const auto& [a, b] : std::vector<std::pair<Point, Point>>{
           {{-0.5, 0.5}, {0.5, -0.5}},  // edge midpoints, straight through the centre vertex
           {{0, 1}, {0, -1}},           // corner to corner, along two shared edges
           {{-1, 0}, {1, 0}},
           {{-0.25, -0.5}, {0.25, 0.5}},  // two triangles that share only the centre
           {{0.1, 0.2}, {-0.7, -0.2}}}) {
    SCOPED_TRACE(text(a) + " to " + text(b));
    const PlanResult p = optimal.plan(a, b);
    ASSERT_TRUE(p.found()) << p.message;
    EXPECT_NEAR(p.length, distance(a, b), 1e-12);
    EXPECT_EQ(p.waypoints, (std::vector<Point>{a, b}));
  }
}

// bad-collinear: a top band y in [2, 3] whose lower side has collinear vertices at (4, 2) and
// (6, 2), a left column x in [0, 1] and a bottom part under y = 1 reached from the band only
// between x = 4 and x = 6 (down to (3, 1)). The query runs from just above the corner (1, 1) of the
// left column to just below it, in the bottom part: the two faces touch only at (1, 1), a
// zero-width gap. By hand the shortest path climbs to (1, 2), runs along the band's lower side to
// (4, 2) (through no vertex in between) and comes down round (3, 1).
TEST(Polyanya, CollinearMeshAnswerByHand) {
  const fs::path dir = bundled / "mesh" / "degenerate";
  const Scene scene = load_scene(dir / "bad-collinear.mesh");
  const auto space = std::make_shared<const FreeSpace>(scene);
  const std::vector<Query> queries = load_scenario(dir / "bad-collinear.scen", scene);
  ASSERT_EQ(queries.size(), 1u);
  const Point s = queries[0].start, g = queries[0].goal;
  ASSERT_EQ(s, (Point{0.999, 1.001}));
  ASSERT_EQ(g, (Point{1.001, 0.999}));
  const std::vector<Point> expected = {s, {1, 2}, {4, 2}, {3, 1}, g};
  for (const char* source : {"mesh", "rebuild"}) {
    SCOPED_TRACE(source);
    const PlanResult p = Planner(space, optimal_options(source)).plan(s, g);
    ASSERT_TRUE(p.found()) << p.message;
    EXPECT_NEAR(p.length, polyline_length(expected), 1e-12);
    EXPECT_EQ(p.waypoints, expected);
  }
}

TEST(Polyanya, GoalSetsReachTheNearestGoal) {
  const Scene scene = load_scene(bundled / "maze.yaml");
  const auto space = std::make_shared<const FreeSpace>(scene);
  const Planner optimal(space, optimal_options());
  const Planner graph(space, visgraph_options());
  const auto pairs = free_pairs(*space, 60, 3);
  for (std::size_t i = 0; i + 3 < pairs.size(); i += 4) {
    const Point start = pairs[i].first;
    const std::vector<Point> goals = {pairs[i].second, pairs[i + 1].second, pairs[i + 2].first};
    double best = INFINITY;
    for (const Point g : goals)
      if (const PlanResult v = graph.plan(start, g); v.found()) best = std::min(best, v.length);
    const PlanResult r = optimal.plan(start, goals);
    ASSERT_EQ(r.found(), std::isfinite(best)) << r.message;
    if (!r.found()) continue;
    EXPECT_NEAR(r.length, best, 1e-9 * best);
    EXPECT_NE(std::find(goals.begin(), goals.end(), r.goal), goals.end());
    EXPECT_EQ(r.waypoints.back(), r.goal);
  }
}

TEST(Polyanya, WeightedScenesGetTheShortestPathAndSaySo) {
  // A region of cost 5 across the middle: the shortest path crosses it, the cheapest does not.
  Scene scene;
  scene.bounds = test::rect(0, 0, 20, 10);
  scene.obstacles.push_back({{test::rect(9, 0, 11, 4), {}}, {}});
  Region mud;
  mud.cost = 5;
  mud.polygon = test::rect(5, 4, 15, 6);
  scene.regions.push_back(mud);
  const auto space = std::make_shared<const FreeSpace>(scene);
  const Planner optimal(space, optimal_options());
  const Planner graph(space, visgraph_options());
  const PlanResult r = optimal.plan({1, 1}, {19, 1});
  ASSERT_TRUE(r.found()) << r.message;
  EXPECT_NEAR(r.length, graph.plan({1, 1}, {19, 1}).length, 1e-9 * r.length);
  EXPECT_NE(r.message.find("shortest, not the cheapest"), std::string::npos) << r.message;
  EXPECT_NE(optimal.discretisation().summary().find("Polyanya"), std::string::npos);
  EXPECT_GT(r.cost, r.length);
}

TEST(Polyanya, HeightsBeyondTheClimbLimitAreRefused) {
  const Scene terrain = load_scene(bundled / "terrain.yaml");  // heights up to 2, climb 1
  try {
    const Planner refused(terrain, optimal_options());
    ADD_FAILURE() << "navmesh.search=optimal was accepted with one-way moves";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("navmesh.search"), std::string::npos) << e.what();
  }
  // The warehouse's one height step (0.3) is within its climb limit (0.5): accepted.
  const Scene warehouse = load_scene(bundled / "warehouse.yaml");
  EXPECT_NO_THROW(Planner(warehouse, optimal_options()));
}

TEST(Polyanya, OptionsLimitsAndWhatDoesNotApply) {
  const Scene scene = load_scene(bundled / "maze.yaml");
  const auto space = std::make_shared<const FreeSpace>(scene);
  const Query& q = scene.queries.front();
  // The expansion limit stops the search; the weight keeps paths within its factor.
  PlanOptions limited = optimal_options();
  limited.settings.set("search.max_expanded", std::string("1"));
  const PlanResult stopped = Planner(space, limited).plan(q.start, q.goal);
  EXPECT_EQ(stopped.status, search::SearchStatus::limit_reached) << stopped.message;
  EXPECT_NE(stopped.message.find("expansion limit"), std::string::npos) << stopped.message;
  PlanOptions weighted = optimal_options();
  weighted.settings.set("search.weight", 2.0);
  const PlanResult fast = Planner(space, weighted).plan(q.start, q.goal);
  const PlanResult exact = Planner(space, optimal_options()).plan(q.start, q.goal);
  ASSERT_TRUE(fast.found());
  ASSERT_TRUE(exact.found());
  EXPECT_LE(fast.length, 2 * exact.length * (1 + 1e-12));
  EXPECT_LE(fast.stats.expanded, exact.stats.expanded);
  // No corridor: funnel says so; no graph: reach says so; the option's values are checked.
  PlanOptions funnel = optimal_options();
  funnel.smoother = "funnel";
  const PlanResult f = Planner(space, funnel).plan(q.start, q.goal);
  ASSERT_TRUE(f.found());
  EXPECT_NE(f.message.find("funnel does not apply"), std::string::npos) << f.message;
  EXPECT_EQ(f.waypoints, f.raw_waypoints);
  const Reach reach = Planner(space, optimal_options()).reach(q.start, 10);
  EXPECT_EQ(reach.status, search::SearchStatus::invalid_query);
  EXPECT_NE(reach.message.find("navmesh.search=graph"), std::string::npos) << reach.message;
  PlanOptions bad = optimal_options();
  bad.settings.set("navmesh.search", std::string("polyanya"));
  EXPECT_THROW(Planner(space, bad), InputError);
  EXPECT_THROW(parse_navmesh_search("astar"), InputError);
  for (const NavMeshSearch s : {NavMeshSearch::graph, NavMeshSearch::optimal})
    EXPECT_EQ(parse_navmesh_search(std::string(navmesh_search_name(s))), s);
}

// The library without the planner: one workspace reused query after query gives the answers of
// fresh ones, and the turning points are the reflex corners of free space.
TEST(Polyanya, AWorkspaceIsReusedAcrossQueries) {
  const Scene scene = load_scene(bundled / "movingai" / "den312d.map");
  const FreeSpace space(scene);
  NavMeshOptions options;
  options.search = NavMeshSearch::optimal;
  const NavMesh mesh(space, options);
  EXPECT_EQ(mesh.landmark_count(), 0u);
  EXPECT_EQ(mesh.components(), nullptr);
  EXPECT_FALSE(mesh.has_corridors());
  const Polyanya polyanya(mesh);
  EXPECT_GT(polyanya.turning_points(), 0u);
  // The turning points are the corners of free space: its free sectors wider than 180 degrees,
  // as FreeSpace finds them from the boundary alone.
  EXPECT_EQ(polyanya.turning_points(), space.corners().size());
  PolyanyaWorkspace reused;
  polyanya.prepare(reused);
  PolyanyaResult a, b;
  for (const auto& [s, g] : free_pairs(space, 100, 8)) {
    const Point goal[1] = {g};
    polyanya.search(s, goal, {}, false, reused, a);
    PolyanyaWorkspace fresh;
    polyanya.search(s, goal, {}, false, fresh, b);
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.points, b.points);
    EXPECT_EQ(a.stats.expanded, b.stats.expanded);
  }
}

// The reference data's large MovingAI maps, a sample of each scenario.
TEST(Polyanya, SharedMovingAiMapsMatchTheVisibilityGraph) {
  const fs::path dir = shared / "movingai";
  if (!fs::is_directory(dir)) GTEST_SKIP() << dir << " is not present";
  for (const char* name : {"den520d.map", "brc202d.map", "lak303d.map", "Brushfire.map"}) {
    if (!fs::exists(dir / name)) continue;
    SCOPED_TRACE(name);
    const Scene scene = load_scene(dir / name);
    const auto space = std::make_shared<const FreeSpace>(scene);
    const std::vector<Query> all = load_scenario(dir / (std::string(name) + ".scen"), scene);
    std::vector<std::pair<Point, Point>> pairs;
    for (std::size_t i = 0; i < all.size(); i += std::max<std::size_t>(1, all.size() / 60))
      pairs.emplace_back(all[i].start, all[i].goal);
    const Planner optimal(space, optimal_options());
    const Planner graph(space, visgraph_options());
    EXPECT_GT(expect_optimal(optimal, graph, pairs), 30);
  }
}

}  // namespace
}  // namespace polynav
