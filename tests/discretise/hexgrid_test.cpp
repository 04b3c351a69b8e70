// Hexagonal grid: the hexagons tile the plane and share their corners exactly, free hexagons lie
// in free space (against an independent test of their sides and of the boundary's vertices),
// searches are optimal on the grid's own graph (Boost.Graph Dijkstra), paths pass only free
// neighbours and are valid by the exact checker, flat hexagons are pointy ones mirrored, costs
// never underestimate, and bad options are refused naming the option.
#include "polynav/discretise/hexgrid/hex_grid.hpp"

#include <gtest/gtest.h>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <cmath>
#include <filesystem>
#include <random>

#include "discretise/random_scenes.hpp"
#include "polynav/discretise/method.hpp"
#include "polynav/discretise/query.hpp"
#include "polynav/error.hpp"
#include "polynav/kernel/exact.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/space/free_space.hpp"
#include "validity/exact_checker.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;
using test::random_scene;
using test::rect;

const fs::path scenes_dir = fs::path(POLYNAV_SOURCE_DIR) / "scenes";

HexGridOptions sized(double size, HexOrientation orientation = HexOrientation::pointy) {
  HexGridOptions options;
  options.size = size;
  options.orientation = orientation;
  return options;
}

// The scene with x and y exchanged everywhere (a mirror image).
Scene mirrored(Scene scene) {
  const auto flip = [](Ring& ring) {
    for (Point& p : ring) p = {p.y, p.x};
  };
  flip(scene.bounds);
  for (Obstacle& o : scene.obstacles) {
    flip(o.shape.outer);
    for (Ring& hole : o.shape.holes) flip(hole);
  }
  for (Region& r : scene.regions) flip(r.polygon);
  return scene;
}

TEST(HexGrid, HexagonsTileThePlaneAndShareTheirCornersExactly) {
  for (const HexOrientation orientation : {HexOrientation::pointy, HexOrientation::flat}) {
    const FreeSpace space(random_scene(3, 0.0));
    const HexGrid grid(space, sized(0.7, orientation));
    // Neighbours across each move share the two corners of that side, as the very same doubles.
    for (int r = 0; r < grid.rows(); ++r)
      for (int c = 0; c < grid.columns(); ++c) {
        const std::array<Point, 6> mine = grid.corners(c, r);
        for (std::size_t k = 0; k < 6; ++k)
          EXPECT_GT(exact::orientation(mine[k], mine[(k + 1) % 6], mine[(k + 2) % 6]), 0);
        for (const auto& [dc, dr] : {std::pair{1, 0}, std::pair{0, 1}, std::pair{-1, 1}}) {
          const int tc = c + dc + (dr != 0 && (r & 1) ? 1 : 0), tr = r + dr;
          if (tc < 0 || tr >= grid.rows() || tc >= grid.columns()) continue;
          const std::array<Point, 6> theirs = grid.corners(tc, tr);
          int shared = 0;
          for (const Point& p : mine)
            for (const Point& q : theirs) shared += p == q ? 1 : 0;
          EXPECT_EQ(shared, 2) << c << "," << r << " and " << tc << "," << tr;
        }
      }
    // Random points of the covered area lie in the interior of exactly one hexagon, or on the
    // boundary of two or three.
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> coord(2.0, 18.0);
    for (int k = 0; k < 400; ++k) {
      const Point p{coord(rng), coord(rng)};
      int interior = 0, closed = 0;
      for (int r = 0; r < grid.rows(); ++r)
        for (int c = 0; c < grid.columns(); ++c) {
          const std::array<Point, 6> hexagon = grid.corners(c, r);
          interior += exact::meets_open_convex(p, p, hexagon) ? 1 : 0;
          closed += exact::in_closed_convex(p, hexagon) ? 1 : 0;
        }
      EXPECT_TRUE((interior == 1 && closed == 1) || (interior == 0 && closed >= 2))
          << p.x << "," << p.y << ": " << interior << " " << closed;
    }
  }
}

TEST(HexGrid, FreeHexagonsAreExactlyThoseWhollyInFreeSpace) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const Scene scene = random_scene(seed, seed % 2 ? 0.0 : 0.3);
    const FreeSpace space(scene);
    const HexGrid grid(space,
                       sized(0.45, seed % 2 ? HexOrientation::pointy : HexOrientation::flat));
    int free = 0;
    for (int r = 0; r < grid.rows(); ++r)
      for (int c = 0; c < grid.columns(); ++c) {
        const std::array<Point, 6> hexagon = grid.corners(c, r);
        // Independently: a hexagon lies in free space when its six sides are in line of sight
        // and no corner of the free space's boundary lies strictly inside it (random triangles
        // never lay an edge exactly across a hexagon from side to side).
        bool sides = true;
        for (std::size_t k = 0; k < 6; ++k)
          sides = sides && space.line_of_sight(hexagon[k], hexagon[(k + 1) % 6]);
        bool vertex_inside = false;
        for (const BoundaryRing& ring : space.boundary())
          for (const Point& v : ring.points)
            vertex_inside = vertex_inside || exact::meets_open_convex(v, v, hexagon);
        const bool expected = sides && !vertex_inside;
        EXPECT_EQ(!grid.blocked(c, r), expected) << "seed " << seed << " hexagon " << c << "," << r;
        free += grid.blocked(c, r) ? 0 : 1;
      }
    EXPECT_GT(free, grid.columns() * grid.rows() / 3);
  }
}

// The grid's own graph in Boost.Graph, read through the public moves and offsets.
struct HexOracle {
  using Graph =
      boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                            boost::property<boost::edge_weight_t, double>>;
  Graph g;
  explicit HexOracle(const HexGrid& grid) : g(grid.node_count()) {
    for (search::NodeId n = 0; n < grid.node_count(); ++n)
      grid.for_each_neighbour(
          n, [&](search::NodeId to, double cost) { boost::add_edge(n, to, cost, g); });
  }
  std::vector<double> from(search::NodeId n) const {
    std::vector<double> d(boost::num_vertices(g));
    boost::dijkstra_shortest_paths(g, n, boost::distance_map(d.data()));
    return d;
  }
};

TEST(HexGrid, SearchIsOptimalOnItsOwnGraphAndPassesOnlyFreeNeighbours) {
  for (unsigned seed = 1; seed <= 3; ++seed) {
    Scene scene = random_scene(seed, 0.2);
    if (seed == 3) scene.regions.push_back({"mud", 3.0, std::nullopt, rect(4, 4, 12, 12), {}});
    const FreeSpace space(scene);
    const MethodOf<HexGrid> method(
        space, sized(0.5, seed == 2 ? HexOrientation::flat : HexOrientation::pointy));
    const HexGrid& grid = method.get();
    const HexOracle oracle(grid);
    const validity::ExactChecker checker(scene);
    QueryWorkspace workspace;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> coord(0.5, 19.5);
    int found = 0;
    for (int q = 0; q < 40; ++q) {
      const Point start{coord(rng), coord(rng)}, goal{coord(rng), coord(rng)};
      if (!space.is_free(start) || !space.is_free(goal)) continue;
      QueryOptions options;
      const RawPath path = method.find_path(start, goal, options, workspace);
      std::vector<Attachment> from, to;
      grid.attach(start, AttachDirection::from_point, from);
      grid.attach(goal, AttachDirection::to_point, to);
      double best = INFINITY;
      for (const Attachment& a : from) {
        const std::vector<double> d = oracle.from(a.node);
        for (const Attachment& b : to)
          if (d[b.node] < 1e300) best = std::min(best, a.cost + d[b.node] + b.cost);
      }
      if (path.status != search::SearchStatus::found) {
        EXPECT_FALSE(std::isfinite(best)) << "the oracle finds a path the search missed";
        continue;
      }
      ++found;
      EXPECT_NEAR(path.graph_cost, best, 1e-9 * best);
      for (std::size_t k = 0; k < path.nodes.size(); ++k) {
        const search::NodeId n = path.nodes[k];
        EXPECT_FALSE(grid.blocked(int(n % grid.columns()), int(n / grid.columns())));
        if (k == 0) continue;
        bool neighbour = false;
        grid.for_each_neighbour(path.nodes[k - 1],
                                [&](search::NodeId m, double) { neighbour |= m == n; });
        EXPECT_TRUE(neighbour);
      }
      const validity::Verdict verdict = checker.check_path(path.points);
      EXPECT_TRUE(verdict.valid()) << verdict.reason;
      ASSERT_TRUE(path.has_corridor || !options.corridor);
      EXPECT_EQ(path.corridor.size(), path.nodes.empty() ? 0 : path.nodes.size() - 1);
    }
    EXPECT_GT(found, 10);
  }
}

TEST(HexGrid, FlatHexagonsAreThePointyOnesOfTheMirroredScene) {
  // A point agent: inflating by a radius approximates discs, not symmetrically under a mirror.
  const Scene scene = random_scene(5, 0.0);
  const Scene mirror = mirrored(scene);
  const FreeSpace space(scene), mirror_space(mirror);
  const MethodOf<HexGrid> flat(space, sized(0.4, HexOrientation::flat));
  const MethodOf<HexGrid> pointy(mirror_space, sized(0.4, HexOrientation::pointy));
  ASSERT_EQ(flat.get().node_count(), pointy.get().node_count());
  for (search::NodeId n = 0; n < flat.get().node_count(); ++n) {
    const Point a = flat.get().node_position(n), b = pointy.get().node_position(n);
    ASSERT_EQ(a.x, b.y);
    ASSERT_EQ(a.y, b.x);
    ASSERT_EQ(flat.get().moves(n), pointy.get().moves(n));
  }
  QueryWorkspace workspace;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> coord(0.5, 19.5);
  for (int q = 0; q < 20; ++q) {
    const Point s{coord(rng), coord(rng)}, g{coord(rng), coord(rng)};
    if (!space.is_free(s) || !space.is_free(g)) continue;
    const RawPath a = flat.find_path(s, g, {}, workspace);
    const RawPath b = pointy.find_path({s.y, s.x}, {g.y, g.x}, {}, workspace);
    ASSERT_EQ(a.status, b.status);
    EXPECT_EQ(a.graph_cost, b.graph_cost);
  }
}

TEST(HexGrid, CostsNeverUnderestimateTheTerrain) {
  Scene scene;
  scene.bounds = rect(0, 0, 20, 20);
  scene.regions.push_back({"mud", 4.0, std::nullopt, {{3, 3}, {11, 4}, {9, 12}}, {}});
  scene.regions.push_back({"road", 0.5, std::nullopt, rect(12, 0, 14, 20), {}});
  const FreeSpace space(scene);
  const HexGrid grid(space, sized(0.6));
  std::mt19937 rng(1);
  for (int r = 0; r < grid.rows(); ++r)
    for (int c = 0; c < grid.columns(); ++c) {
      if (grid.blocked(c, r)) continue;
      const std::array<Point, 6> hexagon = grid.corners(c, r);
      // Points inside the hexagon: blends of its centre and corners.
      const Point centre = grid.node_position(search::NodeId(r * grid.columns() + c));
      std::uniform_real_distribution<double> t(0.0, 0.999);
      for (int k = 0; k < 12; ++k) {
        const Point corner = hexagon[std::size_t(k % 6)];
        const double s = t(rng);
        const Point p{centre.x + s * (corner.x - centre.x), centre.y + s * (corner.y - centre.y)};
        EXPECT_GE(grid.cell_cost(c, r), space.cost_at(p));
      }
    }
}

TEST(HexGrid, PlansEveryBundledSceneValidlyWithEverySmoother) {
  for (const char* name : {"warehouse.yaml", "maze.yaml", "terrain.yaml", "office.yaml"}) {
    const Scene scene = load_scene(scenes_dir / name);
    const validity::ExactChecker checker(scene);
    for (const std::string& smoother : smoother_names()) {
      PlanOptions options;
      options.method = "hexgrid";
      options.smoother = smoother;
      const Planner planner(scene, options);
      for (const Query& q : scene.queries) {
        const PlanResult result = planner.plan(q.start, q.goal);
        if (!result.found()) continue;
        const validity::Verdict verdict = checker.check_path(result.waypoints);
        EXPECT_TRUE(verdict.valid())
            << name << " " << smoother << " " << q.name << ": " << verdict.reason;
        EXPECT_LE(result.cost, result.raw_cost * (1 + 1e-9) + 1e-9)
            << name << " " << smoother << " " << q.name;
      }
    }
  }
}

TEST(HexGrid, BadOptionsAreRefusedNamingTheOption) {
  const Scene scene = random_scene(1, 0.0);
  const auto refusal = [&](const std::string& key, const std::string& value) {
    PlanOptions options;
    options.method = "hexgrid";
    options.settings.set(key, value);
    try {
      const Planner planner(scene, options);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  for (const char* bad : {"0", "-1", "nan", "inf", "x"})
    EXPECT_NE(refusal("hexgrid.size", bad).find("hexgrid.size"), std::string::npos) << bad;
  const std::string fine = refusal("hexgrid.size", "0.0001");
  EXPECT_NE(fine.find("hexgrid.size"), std::string::npos);
  EXPECT_NE(fine.find("hexgrid.max_cells"), std::string::npos);
  EXPECT_NE(refusal("hexgrid.orientation", "pointed").find("pointy"), std::string::npos);
  EXPECT_NE(refusal("hexgrid.max_cells", "0").find("hexgrid.max_cells"), std::string::npos);
}

}  // namespace
}  // namespace polynav
