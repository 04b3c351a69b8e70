// Polyanya (navmesh.search=optimal): its lengths are the exact Euclidean optimum, checked against
// independent oracles: the visibility graph searched without smoothing, the Euclidean lengths of
// arena-euclidean.scen, and answers worked out by hand on Polyanya's degenerate test meshes. Every
// path passes the exact check (each segment in line of sight, each turn free).
#include "polynav/discretise/navmesh/polyanya.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <numbers>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "discretise/random_scenes.hpp"
#include "polynav/discretise/navmesh/navmesh.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/plan/registry.hpp"
#include "polynav/smooth/funnel.hpp"
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

// The corridor a search returns, checked against the mesh's own polygons: each portal is an edge
// of the polygon it enters (counter-clockwise a -> b, so a is on the left) and, the other way
// round, of the polygon it leaves, which is the one the portal before entered (the start's for
// the first); or a point, a vertex where the path crosses, in the polygon entered before (or
// sharing one with the point before); the goal lies in the last polygon entered (or shares one
// with the last point). The funnel through it (no validity fallback) is a valid path of
// Polyanya's length. Returns how many paths were checked.
int expect_corridors_funnel_back(const FreeSpace& space, const NavMesh& mesh,
                                 const std::vector<std::pair<Point, Point>>& pairs) {
  std::map<std::pair<Point, Point>, std::uint32_t,
           bool (*)(const std::pair<Point, Point>&, const std::pair<Point, Point>&)>
      edge_of([](const std::pair<Point, Point>& x, const std::pair<Point, Point>& y) {
        return std::tie(x.first.x, x.first.y, x.second.x, x.second.y) <
               std::tie(y.first.x, y.first.y, y.second.x, y.second.y);
      });
  for (std::size_t i = 0; i < mesh.polygon_count(); ++i) {
    const std::span<const Point> ring = mesh.polygon(i);
    for (std::size_t k = 0; k < ring.size(); ++k)
      edge_of[{ring[k], ring[(k + 1) % ring.size()]}] = std::uint32_t(i);
  }
  const auto polygons_of = [&](Point p) {
    std::vector<std::uint32_t> in;
    mesh.locate(p, in);
    return in;
  };
  const auto holds = [&](Point p, std::uint32_t polygon) {
    const std::vector<std::uint32_t> in = polygons_of(p);
    return std::find(in.begin(), in.end(), polygon) != in.end();
  };
  const auto share = [&](Point p, Point q) {
    const std::vector<std::uint32_t> in = polygons_of(q);
    return std::any_of(in.begin(), in.end(), [&](std::uint32_t x) { return holds(p, x); });
  };
  const Polyanya polyanya(mesh.partition());
  PolyanyaWorkspace ws;
  PolyanyaResult r;
  const PathSimplifier checker(space);
  int checked = 0;
  for (const auto& [a, b] : pairs) {
    SCOPED_TRACE(text(a) + " to " + text(b));
    const Point goal[1] = {b};
    polyanya.search(a, goal, {}, false, ws, r);
    if (r.status != search::SearchStatus::found) continue;
    ++checked;
    // Where the corridor has got to: the polygon the last edge entered, else the last point it
    // is pinned to (the start, or a vertex crossed).
    std::int64_t entered = -1;
    Point at = a;
    const auto reaches = [&](Point p) {
      return entered >= 0 ? holds(p, std::uint32_t(entered)) : share(at, p);
    };
    for (std::size_t k = 0; k < r.corridor.size(); ++k) {
      const Segment& p = r.corridor[k];
      if (p.a == p.b) {
        EXPECT_TRUE(reaches(p.a)) << "portal " << k << " is a point away from the corridor";
        entered = -1;
        at = p.a;
        continue;
      }
      const auto into = edge_of.find({p.a, p.b}), from = edge_of.find({p.b, p.a});
      if (into == edge_of.end() || from == edge_of.end()) {
        ADD_FAILURE() << "portal " << k << " is no edge between two polygons";
        break;
      }
      EXPECT_TRUE(entered >= 0 ? from->second == entered : holds(at, from->second))
          << "portal " << k << " leaves a polygon the corridor is not in";
      entered = into->second;
    }
    EXPECT_TRUE(reaches(b)) << "the corridor does not end where the goal is";
    const std::vector<Point> pulled = funnel(a, b, r.corridor);
    EXPECT_NEAR(polyline_length(pulled), r.length, 1e-9 * std::max(1.0, r.length));
    EXPECT_TRUE(checker.is_valid(pulled));
  }
  return checked;
}

TEST_P(PolyanyaOnScene, TheCorridorFunnelsBackToThePath) {
  const Case& c = GetParam();
  const Scene scene = load_scene(c.scene);
  const FreeSpace space(scene);
  std::vector<std::pair<Point, Point>> pairs = free_pairs(space, 150, 23);
  const std::vector<Query> queries =
      c.scenario.empty() ? scene.queries : load_scenario(c.scenario, scene);
  for (std::size_t i = 0; i < queries.size(); i += std::max<std::size_t>(1, queries.size() / 100))
    if (space.is_free(queries[i].start) && space.is_free(queries[i].goal))
      pairs.emplace_back(queries[i].start, queries[i].goal);
  NavMeshOptions options;
  options.search = NavMeshSearch::optimal;
  try {
    const NavMesh mesh(space, options);
    EXPECT_GT(expect_corridors_funnel_back(space, mesh, pairs), 10);
  } catch (const InputError& e) {
    EXPECT_TRUE(space.has_heights() && std::isfinite(space.agent().max_climb)) << e.what();
  }
}

TEST(Polyanya, RandomScenesCorridorsFunnelBackToThePath) {
  int checked = 0;
  for (unsigned seed = 1; seed <= 12; ++seed) {
    for (const double radius : {0.0, 0.3}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + ", radius " + std::to_string(radius));
      const FreeSpace space(test::random_scene(seed, radius));
      NavMeshOptions options;
      options.search = NavMeshSearch::optimal;
      checked +=
          expect_corridors_funnel_back(space, NavMesh(space, options), free_pairs(space, 60, seed));
    }
  }
  EXPECT_GT(checked, 1000);
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
// A fan of 20,000 thin triangles round one point makes a convex half-disc: the shortest path
// between two of its points is the straight segment, however many triangles it crosses. (Point
// location over such faces coarsens its grid instead of listing each in thousands of cells.)
TEST(Polyanya, AFanOfThinFacesIsCrossedStraight) {
  constexpr int n = 20000;
  constexpr double radius = 1000.0;
  const fs::path path = fs::temp_directory_path() / "polynav-fan.mesh";
  {
    std::ofstream out(path);
    out.precision(17);
    out << "mesh\n2\n" << n + 2 << ' ' << n << "\n0 0 0\n";
    for (int k = 0; k <= n; ++k) {
      const double a = std::numbers::pi * k / n;
      out << radius * std::cos(a) << ' ' << radius * std::sin(a) << " 0\n";
    }
    for (int k = 1; k <= n; ++k) out << "3 0 " << k << ' ' << k + 1 << " -1 -1 -1\n";
  }
  const Scene scene = load_scene(path);
  fs::remove(path);
  const Planner optimal(scene, optimal_options("mesh"));
  std::mt19937 random(11);
  std::uniform_real_distribution<double> along(1.0, 0.9 * radius), turn(0.01, 3.13);
  for (int q = 0; q < 6; ++q) {
    const auto at = [&] {
      const double r = along(random), a = turn(random);
      return Point{r * std::cos(a), r * std::sin(a)};
    };
    const Point a = at(), b = at();
    const PlanResult p = optimal.plan(a, b);
    ASSERT_EQ(p.status, search::SearchStatus::found) << text(a) << " to " << text(b);
    EXPECT_NEAR(p.length, distance(a, b), 1e-9 * distance(a, b)) << text(a) << " to " << text(b);
  }
}

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

// navmesh.search=auto, the default: Polyanya exactly where its shortest path is what the graph
// minimises (every place of cost 1, no one-way move, pinches closed, vertex nodes) and free space
// has at most auto_optimal_max_corners corners; the graph everywhere else.
TEST(Polyanya, AutoChoosesOptimalOnlyWhereItIsExact) {
  const auto resolve = [](const FreeSpace& space, NavMeshNodes nodes = NavMeshNodes::vertices) {
    NavMeshOptions o;
    o.search = NavMeshSearch::automatic;
    o.nodes = nodes;
    return resolve_navmesh_search(space, o);
  };
  const FreeSpace island(load_scene(bundled / "island.yaml"));
  ASSERT_LE(island.corners().size(), auto_optimal_max_corners);
  EXPECT_EQ(resolve(island), NavMeshSearch::optimal);
  EXPECT_EQ(resolve(island, NavMeshNodes::portals), NavMeshSearch::graph);
  for (const NavMeshSearch chosen : {NavMeshSearch::graph, NavMeshSearch::optimal}) {
    NavMeshOptions o;
    o.search = chosen;
    EXPECT_EQ(resolve_navmesh_search(island, o), chosen);
  }
  const FreeSpace maze(load_scene(bundled / "maze.yaml"));
  ASSERT_GT(maze.corners().size(), auto_optimal_max_corners);
  EXPECT_EQ(resolve(maze), NavMeshSearch::graph);
  // A region across the middle: height alone within the climb limit keeps Polyanya; a cost
  // other than 1 or a step beyond the climb limit needs the graph.
  Scene scene;
  scene.bounds = test::rect(0, 0, 20, 10);
  scene.obstacles.push_back({{test::rect(9, 0, 11, 4), {}}, {}});
  scene.agent.max_climb = 0.5;
  Region region;
  region.polygon = test::rect(5, 4, 15, 6);
  region.height = 0.3;
  scene.regions.push_back(region);
  EXPECT_EQ(resolve(FreeSpace(scene)), NavMeshSearch::optimal);
  scene.regions[0].height = 2;
  EXPECT_EQ(resolve(FreeSpace(scene)), NavMeshSearch::graph);
  scene.agent.max_climb = INFINITY;
  EXPECT_EQ(resolve(FreeSpace(scene)), NavMeshSearch::optimal);
  scene.regions[0].cost = 1.25;
  EXPECT_EQ(resolve(FreeSpace(scene)), NavMeshSearch::graph);
  scene.regions.clear();
  FreeSpaceOptions open;
  open.open_gaps = true;
  EXPECT_EQ(resolve(FreeSpace(scene)), NavMeshSearch::optimal);
  EXPECT_EQ(resolve(FreeSpace(scene, open)), NavMeshSearch::graph);
  // The registry's default is auto, and the summary says what it chose.
  for (const OptionSpec& spec : find_method("navmesh").options)
    if (spec.name == "search") {
      EXPECT_EQ(spec.default_value, "auto");
    }
  PlanOptions defaults;
  defaults.method = "navmesh";
  EXPECT_NE(Planner(load_scene(bundled / "island.yaml"), defaults)
                .discretisation()
                .summary()
                .find("searched by Polyanya (navmesh.search=auto)"),
            std::string::npos);
  EXPECT_NE(Planner(load_scene(bundled / "maze.yaml"), defaults)
                .discretisation()
                .summary()
                .find("(navmesh.search=auto: the graph)"),
            std::string::npos);
}

// The default navmesh with funnel: the exact Euclidean optimum (the visibility graph's length)
// wherever auto chooses Polyanya, on the bundled scenes and random ones; the graph's own answers
// wherever it does not.
TEST(Polyanya, TheDefaultIsTheOptimumWhereAutoChoosesPolyanya) {
  PlanOptions defaults;
  defaults.method = "navmesh";
  defaults.smoother = "funnel";
  PlanOptions graph = defaults;
  graph.settings.set("navmesh.search", std::string("graph"));
  std::vector<std::shared_ptr<const FreeSpace>> spaces;
  for (const Case& c : bundled_cases())
    spaces.push_back(std::make_shared<const FreeSpace>(load_scene(c.scene)));
  for (unsigned seed = 1; seed <= 8; ++seed)
    spaces.push_back(std::make_shared<const FreeSpace>(test::random_scene(seed, 0.2 * (seed % 3))));
  int exact = 0, by_graph = 0;
  for (const auto& space : spaces) {
    NavMeshOptions o;
    o.search = NavMeshSearch::automatic;
    const bool optimal = resolve_navmesh_search(*space, o) == NavMeshSearch::optimal;
    const auto pairs = free_pairs(*space, 40, 29);
    if (optimal) {
      exact += expect_optimal(Planner(space, defaults), Planner(space, visgraph_options()), pairs);
      continue;
    }
    std::optional<Planner> mesh, reference;
    try {
      mesh.emplace(space, defaults);
      reference.emplace(space, graph);
    } catch (const InputError& e) {
      ADD_FAILURE() << e.what();  // the graph is refused nowhere
      continue;
    }
    for (const auto& [a, b] : pairs) {
      const PlanResult m = mesh->plan(a, b), g = reference->plan(a, b);
      EXPECT_EQ(m.status, g.status);
      EXPECT_EQ(m.waypoints, g.waypoints);
      by_graph += m.found();
    }
  }
  EXPECT_GT(exact, 500);
  EXPECT_GT(by_graph, 100);
}

// Chosen by auto, Polyanya leaves to the graph what only the graph does: reach, partial paths.
TEST(Polyanya, AutoKeepsReachAndPartialPathsOfTheGraph) {
  const auto space = std::make_shared<const FreeSpace>(load_scene(bundled / "island.yaml"));
  PlanOptions automatic;
  automatic.method = "navmesh";
  automatic.smoother = "none";
  PlanOptions graph = automatic;
  graph.settings.set("navmesh.search", std::string("graph"));
  const Planner a(space, automatic), g(space, graph);
  ASSERT_NE(a.discretisation().summary().find("Polyanya"), std::string::npos);
  const Reach ra = a.reach({5, 5}, 20), rg = g.reach({5, 5}, 20);
  ASSERT_EQ(ra.status, rg.status) << ra.message;
  ASSERT_EQ(ra.places.size(), rg.places.size());
  EXPECT_GT(ra.places.size(), 5u);
  for (std::size_t i = 0; i < ra.places.size(); ++i) {
    EXPECT_EQ(ra.places[i].at, rg.places[i].at);
    EXPECT_EQ(ra.places[i].cost, rg.places[i].cost);
  }
  // Stopped after two expansions, with search.partial: the graph's partial path.
  for (PlanOptions* o : {&automatic, &graph}) {
    o->settings.set("search.partial", std::string("true"));
    o->settings.set("search.max_expanded", std::string("2"));
  }
  const PlanResult pa = Planner(space, automatic).plan({5, 5}, {35, 35});
  const PlanResult pg = Planner(space, graph).plan({5, 5}, {35, 35});
  EXPECT_EQ(pa.status, search::SearchStatus::partial) << pa.message;
  EXPECT_EQ(pa.status, pg.status);
  EXPECT_EQ(pa.waypoints, pg.waypoints);
}

// The graph behind auto's reach is built once, by whichever thread asks first; every thread
// gets the same answer.
TEST(Polyanya, AutoBuildsItsGraphOnceForConcurrentReach) {
  const auto space = std::make_shared<const FreeSpace>(load_scene(bundled / "island.yaml"));
  PlanOptions automatic;
  automatic.method = "navmesh";
  const Planner planner(space, automatic);
  std::vector<Reach> reached(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < reached.size(); ++t)
    threads.emplace_back([&, t] { reached[t] = planner.reach({5, 5}, 15); });
  for (std::thread& t : threads) t.join();
  for (const Reach& r : reached) {
    ASSERT_EQ(r.status, reached[0].status) << r.message;
    ASSERT_EQ(r.places.size(), reached[0].places.size());
    for (std::size_t i = 0; i < r.places.size(); ++i)
      EXPECT_EQ(r.places[i].cost, reached[0].places[i].cost);
  }
  EXPECT_GT(reached[0].places.size(), 5u);
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
  // A corridor: funnel applies and gives the path back; no graph: reach says so; the option's
  // values are checked.
  PlanOptions funnel = optimal_options();
  funnel.smoother = "funnel";
  const PlanResult f = Planner(space, funnel).plan(q.start, q.goal);
  ASSERT_TRUE(f.found());
  EXPECT_EQ(f.message.find("funnel does not apply"), std::string::npos) << f.message;
  EXPECT_FALSE(f.corridor.empty());
  EXPECT_NEAR(f.length, f.raw_length, 1e-9 * f.raw_length);
  const Reach reach = Planner(space, optimal_options()).reach(q.start, 10);
  EXPECT_EQ(reach.status, search::SearchStatus::invalid_query);
  EXPECT_NE(reach.message.find("navmesh.search=graph"), std::string::npos) << reach.message;
  PlanOptions bad = optimal_options();
  bad.settings.set("navmesh.search", std::string("polyanya"));
  EXPECT_THROW(Planner(space, bad), InputError);
  EXPECT_THROW(parse_navmesh_search("astar"), InputError);
  for (const NavMeshSearch s :
       {NavMeshSearch::graph, NavMeshSearch::optimal, NavMeshSearch::automatic})
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
  EXPECT_TRUE(mesh.has_corridors());
  const Polyanya polyanya(mesh.partition());
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
    ASSERT_EQ(a.corridor.size(), b.corridor.size());
    for (std::size_t k = 0; k < a.corridor.size(); ++k) {
      EXPECT_EQ(a.corridor[k].a, b.corridor[k].a);
      EXPECT_EQ(a.corridor[k].b, b.corridor[k].b);
    }
    EXPECT_EQ(a.stats.expanded, b.stats.expanded);
  }
}

// The reference data's large MovingAI maps, a sample of each scenario; their corridors too.
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
    NavMeshOptions options;
    options.search = NavMeshSearch::optimal;
    EXPECT_GT(expect_corridors_funnel_back(*space, NavMesh(*space, options), pairs), 30);
  }
}

}  // namespace
}  // namespace polynav
