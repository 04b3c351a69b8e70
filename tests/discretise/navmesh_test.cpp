// Navigation mesh: the polygons are convex, free, of one cost, and tile free space (their areas
// add up to FreeSpace::area()); every free point lies in a polygon; every arc is a valid motion
// (FreeSpace decides, exactly); zero-width gaps and walls stay closed; node placements and
// merging agree with the visibility graph on whether a path exists.
#include "polynav/discretise/navmesh/navmesh.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "polynav/discretise/visibility_graph/visibility_graph.hpp"
#include "polynav/error.hpp"
#include "polynav/kernel/exact.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/smooth/funnel.hpp"
#include "polynav/smooth/path_simplifier.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

Ring rect(double x0, double y0, double x1, double y1) {
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

PlanOptions plan_options(std::string method, std::string smoother) {
  PlanOptions options;
  options.method = std::move(method);
  options.smoother = std::move(smoother);
  return options;
}

Scene scene_of(Ring bounds, std::vector<Ring> obstacles) {
  Scene scene;
  scene.bounds = std::move(bounds);
  for (std::size_t i = 0; i < obstacles.size(); ++i)
    scene.obstacles.push_back({{std::move(obstacles[i]), {}}, {}});
  return scene;
}

std::vector<fs::path> mesh_scenes() {
  const fs::path root = fs::path(POLYNAV_SOURCE_DIR) / "scenes";
  return {root / "warehouse.yaml",
          root / "terrain.yaml",
          root / "maze.yaml",
          root / "forest.yaml",
          root / "island.yaml",
          root / "office.yaml",
          root / "mesh" / "arena.mesh",
          root / "mesh" / "walls-v3.mesh",
          root / "movingai" / "arena.map"};
}

constexpr NavMeshNodes all_placements[] = {NavMeshNodes::centres, NavMeshNodes::portals,
                                           NavMeshNodes::vertices,
                                           NavMeshNodes::portals_and_centres};

double ring_area(std::span<const Point> ring) {
  double s = 0;
  for (std::size_t i = 0; i < ring.size(); ++i) s += cross(ring[i], ring[(i + 1) % ring.size()]);
  return 0.5 * s;
}

// Random free points (and lattice points) lie in a polygon and attach by valid motions; blocked
// points lie in none.
void expect_free_points_located(const FreeSpace& space, const NavMesh& mesh);

class NavMeshOnScene : public testing::TestWithParam<fs::path> {};

TEST_P(NavMeshOnScene, PolygonsAreConvexFreeOfOneCostAndTileFreeSpace) {
  const Scene scene = load_scene(GetParam());
  const FreeSpace space(scene);
  // Rebuilt without and with merging, then the default source (a mesh scene's own faces).
  for (const int variant : {0, 1, 2}) {
    NavMeshOptions options;
    options.merge = variant != 0;
    if (variant < 2) options.source = NavMeshSource::rebuild;
    const NavMesh mesh(space, options);
    ASSERT_GT(mesh.polygon_count(), 0u);
    if (variant == 2) {
      EXPECT_EQ(mesh.stats().from_mesh, scene.mesh != nullptr);
      if (scene.mesh) {
        EXPECT_EQ(mesh.polygon_count(), scene.mesh->face_count());
      }
    } else if (variant == 1) {
      EXPECT_LT(mesh.polygon_count(), mesh.stats().free_triangles);
    } else {
      EXPECT_EQ(mesh.polygon_count(), mesh.stats().free_triangles);
    }
    double area = 0;
    for (std::size_t i = 0; i < mesh.polygon_count(); ++i) {
      const std::span<const Point> ring = mesh.polygon(i);
      ASSERT_GE(ring.size(), 3u);
      bool strictly = false;
      for (std::size_t k = 0; k < ring.size(); ++k) {
        const int o =
            exact::orientation(ring[k], ring[(k + 1) % ring.size()], ring[(k + 2) % ring.size()]);
        EXPECT_GE(o, 0) << "polygon " << i << " is not convex at vertex " << k + 1;
        strictly = strictly || o > 0;
      }
      EXPECT_TRUE(strictly) << "polygon " << i << " is degenerate";
      // The fan of triangles from vertex 0: each centroid is free and has the polygon's cost.
      for (std::size_t k = 1; k + 1 < ring.size(); ++k) {
        const Point c = (1.0 / 3.0) * (ring[0] + ring[k] + ring[k + 1]);
        EXPECT_TRUE(space.is_free(c)) << "polygon " << i;
        EXPECT_EQ(space.cost_at(c), mesh.polygon_cost(i)) << "polygon " << i;
      }
      area += ring_area(ring);
    }
    EXPECT_NEAR(area, space.area(), 1e-9 * space.area());
  }
}

TEST_P(NavMeshOnScene, EveryFreePointLiesInAPolygonAndAttaches) {
  const Scene scene = load_scene(GetParam());
  const FreeSpace space(scene);
  for (const NavMeshSource source : {NavMeshSource::automatic, NavMeshSource::rebuild}) {
    NavMeshOptions options;
    options.source = source;
    expect_free_points_located(space, NavMesh(space, options));
  }
}

void expect_free_points_located(const FreeSpace& space, const NavMesh& mesh) {
  const Box box = space.box();
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> ux(box.min.x, box.max.x), uy(box.min.y, box.max.y);
  std::vector<std::uint32_t> found;
  std::vector<Attachment> attached;
  int free_points = 0;
  for (int i = 0; i < 3000; ++i) {
    // Random points, and points on the lattice of half units, which land on many mesh vertices
    // and edges of grid-like scenes.
    Point p{ux(rng), uy(rng)};
    if (i % 2) p = {std::round(2 * p.x) / 2, std::round(2 * p.y) / 2};
    mesh.locate(p, found);
    if (!space.is_free(p)) {
      for (std::uint32_t poly : found) {
        // Only a boundary point of free space could be in a polygon.
        ADD_FAILURE() << "(" << p.x << ", " << p.y << ") is not free but lies in polygon " << poly;
      }
      continue;
    }
    ++free_points;
    EXPECT_FALSE(found.empty()) << "free point (" << p.x << ", " << p.y << ") is in no polygon";
    mesh.attach(p, AttachDirection::from_point, attached);
    for (const Attachment& a : attached) {
      EXPECT_TRUE(space.traversable(p, mesh.node_position(a.node)));
      EXPECT_NEAR(a.cost, space.segment_cost(p, mesh.node_position(a.node)), 1e-12 * a.cost);
    }
  }
  EXPECT_GT(free_points, 100);
  // Every polygon vertex is free and lies in a polygon.
  for (std::size_t i = 0; i < mesh.polygon_count(); ++i)
    for (const Point& v : mesh.polygon(i)) {
      mesh.locate(v, found);
      EXPECT_NE(std::find(found.begin(), found.end(), std::uint32_t(i)), found.end());
    }
}

TEST_P(NavMeshOnScene, EveryArcIsAValidMotionWithItsExactCost) {
  const Scene scene = load_scene(GetParam());
  const FreeSpace space(scene);
  for (const NavMeshSource source : {NavMeshSource::automatic, NavMeshSource::rebuild})
    for (const NavMeshNodes nodes : all_placements) {
      SCOPED_TRACE(std::string(navmesh_nodes_name(nodes)) +
                   (source == NavMeshSource::rebuild ? ", rebuilt" : ""));
      NavMeshOptions options;
      options.nodes = nodes;
      options.source = source;
      const NavMesh mesh(space, options);
      std::vector<Point> bends;
      for (search::NodeId n = 0; n < mesh.node_count(); ++n) {
        mesh.for_each_neighbour(n, [&](search::NodeId m, double cost) {
          std::vector<Point> motion{mesh.node_position(n)};
          bends.clear();
          mesh.arc_points(n, m, bends);
          motion.insert(motion.end(), bends.begin(), bends.end());
          motion.push_back(mesh.node_position(m));
          double exact = 0;
          for (std::size_t k = 1; k < motion.size(); ++k) {
            EXPECT_TRUE(space.traversable(motion[k - 1], motion[k]));
            if (k + 1 < motion.size()) {
              EXPECT_TRUE(space.turn_is_free(motion[k - 1], motion[k], motion[k + 1]));
            }
            exact += space.segment_cost(motion[k - 1], motion[k]);
          }
          EXPECT_NEAR(cost, exact, 1e-12 * std::max(1.0, exact));
        });
      }
    }
}

INSTANTIATE_TEST_SUITE_P(Bundled, NavMeshOnScene, testing::ValuesIn(mesh_scenes()),
                         [](const testing::TestParamInfo<fs::path>& param) {
                           std::string name = param.param.filename().string();
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

TEST(NavMesh, ZeroWidthGapStaysClosed) {
  // Two blocks touching at (5, 5) leave two free squares meeting only at that point.
  const Scene scene = scene_of(rect(0, 0, 10, 10), {rect(0, 0, 5, 5), rect(5, 5, 10, 10)});
  const FreeSpace space(scene);
  for (const NavMeshNodes nodes : all_placements) {
    SCOPED_TRACE(navmesh_nodes_name(nodes));
    NavMeshOptions options;
    options.nodes = nodes;
    const NavMesh mesh(space, options);
    const RawPath across = find_path(mesh, {7, 2}, {2, 7});
    EXPECT_NE(across.status, search::SearchStatus::found);
    const RawPath within = find_path(mesh, {6, 1}, {9, 4.5});
    EXPECT_EQ(within.status, search::SearchStatus::found);
    // From the pinch point itself both sides are reachable.
    EXPECT_EQ(find_path(mesh, {5, 5}, {9, 1}).status, search::SearchStatus::found);
    EXPECT_EQ(find_path(mesh, {5, 5}, {1, 9}).status, search::SearchStatus::found);
  }
}

TEST(NavMesh, APinchPointIsReachedFromEitherSide) {
  // As above, with a pillar in each free square so that a search is needed: the pinch point's
  // attachments lie in two components of the graph, and landmarks of one bound nothing in the
  // other.
  const Scene scene = scene_of(rect(0, 0, 10, 10), {rect(0, 0, 5, 5), rect(5, 5, 10, 10),
                                                    rect(7, 2, 8, 3), rect(2, 7, 3, 8)});
  const FreeSpace space(scene);
  for (const NavMeshNodes nodes : all_placements) {
    SCOPED_TRACE(navmesh_nodes_name(nodes));
    NavMeshOptions options;
    options.nodes = nodes;
    const NavMesh mesh(space, options);
    options.landmarks = 0;
    const NavMesh plain(space, options);
    for (const Point from : {Point{9.5, 0.5}, Point{0.5, 9.5}}) {
      const RawPath r = find_path(mesh, from, {5, 5});
      ASSERT_EQ(r.status, search::SearchStatus::found) << r.message;
      EXPECT_GT(r.nodes.size(), 0u);
      // As cheap as without landmarks, with no more expansions.
      const RawPath p = find_path(plain, from, {5, 5});
      EXPECT_NEAR(r.graph_cost, p.graph_cost, 1e-12 * p.graph_cost);
      EXPECT_LE(r.stats.expanded, p.stats.expanded);
    }
  }
}

TEST(NavMesh, VertexNodesPassAPinchWhenGapsAreOpen) {
  // The blocks of ZeroWidthGapStaysClosed with a pillar on each side: with space.gaps=open a path
  // may pass (5, 5), and the default vertex nodes join the two sides there, corridor included
  // (a zero-length portal at the pinch), so the funnel reaches the visibility graph's optimum.
  const Scene scene = scene_of(rect(0, 0, 10, 10), {rect(0, 0, 5, 5), rect(5, 5, 10, 10),
                                                    rect(7, 2, 8, 3), rect(2, 7, 3, 8)});
  for (const bool open : {false, true}) {
    SCOPED_TRACE(open ? "open gaps" : "closed gaps");
    FreeSpaceOptions space_options;
    space_options.open_gaps = open;
    const auto space = std::make_shared<const FreeSpace>(scene, space_options);
    const Planner mesh(space, plan_options("navmesh", "funnel"));
    const Planner graph(space, plan_options("visgraph", "none"));
    const PathSimplifier checker(*space);
    for (const auto& [a, b] :
         {std::pair{Point{9.5, 0.5}, Point{0.5, 9.5}}, std::pair{Point{7.5, 1}, Point{1, 7.5}},
          std::pair{Point{9, 4}, Point{2.5, 9.5}}}) {
      const PlanResult g = graph.plan(a, b);
      const PlanResult m = mesh.plan(a, b);
      ASSERT_EQ(g.found(), open) << g.message;
      ASSERT_EQ(m.found(), open) << m.message;
      if (!open) continue;
      EXPECT_TRUE(checker.is_valid(m.raw_waypoints));
      EXPECT_TRUE(checker.is_valid(m.waypoints));
      EXPECT_TRUE(m.message.empty()) << m.message;
      EXPECT_FALSE(m.corridor.empty());
      EXPECT_NEAR(m.length, g.length, 1e-9 * g.length);
    }
  }
}

// Only the portals an end lies on are trimmed. A portal that is a point (a pinch, a vertex a
// Polyanya path crosses at) holds that point alone: an end level with it, or straight above it,
// was taken to lie on it (a betweenness test meant for two distinct ends), which dropped it.
TEST(NavMesh, TrimEndsDropsOnlyPortalsTheEndsLieOn) {
  const Point start{0, 0}, end{4, 5};
  std::vector<Segment> portals = {{{0, 1}, {0, -1}}, {{2, 5}, {2, 5}}, {{4, 6}, {4, 4}}};
  NavMesh::trim_ends(start, end, portals);
  ASSERT_EQ(portals.size(), 1u);
  EXPECT_EQ(portals[0].a, (Point{2, 5}));
  for (const Point level : {Point{2, 0}, Point{7, 5}}) {
    std::vector<Segment> point = {{{2, 5}, {2, 5}}};
    NavMesh::trim_ends(level, level, point);
    EXPECT_EQ(point.size(), 1u);
    NavMesh::trim_ends({2, 5}, level, point);
    EXPECT_TRUE(point.empty());
  }
}

// Random free pairs: a path exactly when the visibility graph has one, in line of sight along
// every segment, never shorter than the visibility graph's.
void expect_walls_kept(const FreeSpace& space, const NavMesh& mesh);

TEST(NavMesh, WallsOfAMeshAreNeverCrossed) {
  const Scene scene =
      load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "mesh" / "walls-v3.mesh");
  const FreeSpace space(scene);
  for (const NavMeshSource source : {NavMeshSource::mesh, NavMeshSource::rebuild}) {
    NavMeshOptions options;
    options.source = source;
    expect_walls_kept(space, NavMesh(space, options));
  }
}

void expect_walls_kept(const FreeSpace& space, const NavMesh& mesh) {
  const VisibilityGraph graph(space);
  const Box box = space.box();
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> ux(box.min.x, box.max.x), uy(box.min.y, box.max.y);
  int found = 0;
  for (int i = 0; i < 300; ++i) {
    const Point a{ux(rng), uy(rng)}, b{ux(rng), uy(rng)};
    if (!space.is_free(a) || !space.is_free(b)) continue;
    const RawPath r = find_path(mesh, a, b);
    const RawPath v = find_path(graph, a, b);
    EXPECT_EQ(r.status == search::SearchStatus::found, v.status == search::SearchStatus::found);
    if (r.status != search::SearchStatus::found) continue;
    ++found;
    for (std::size_t k = 1; k < r.points.size(); ++k)
      EXPECT_TRUE(space.line_of_sight(r.points[k - 1], r.points[k]));
    EXPECT_GE(polyline_length(r.points), polyline_length(v.points) * (1 - 1e-12));
  }
  EXPECT_GT(found, 10);
}

TEST(NavMesh, CorridorRunsFromTheStartPolygonToTheGoalPolygon) {
  const Scene scene = load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "warehouse.yaml");
  const FreeSpace space(scene);
  for (const NavMeshNodes nodes : all_placements) {
    SCOPED_TRACE(navmesh_nodes_name(nodes));
    NavMeshOptions options;
    options.nodes = nodes;
    const NavMesh mesh(space, options);
    std::vector<std::uint32_t> in_a, in_b;
    for (const Query& q : scene.queries) {
      const RawPath r = find_path(mesh, q.start, q.goal);
      if (r.status != search::SearchStatus::found || r.nodes.empty()) continue;
      ASSERT_TRUE(r.has_corridor);
      ASSERT_FALSE(r.corridor.empty());
      // Consecutive portals share a polygon; the first borders a polygon holding the start and
      // the last one holding the goal. Each portal faces the travel direction: the point the
      // path comes from is on its right-hand side (not left of a -> b).
      const auto borders = [&](const Segment& s, std::size_t poly) {
        const std::span<const Point> ring = mesh.polygon(poly);
        return std::find(ring.begin(), ring.end(), s.a) != ring.end() &&
               std::find(ring.begin(), ring.end(), s.b) != ring.end();
      };
      const auto shared = [&](const Segment& s, const Segment& t) {
        for (std::size_t poly = 0; poly < mesh.polygon_count(); ++poly)
          if (borders(s, poly) && borders(t, poly)) return true;
        return false;
      };
      mesh.locate(q.start, in_a);
      mesh.locate(q.goal, in_b);
      bool first = false, last = false;
      for (std::uint32_t p : in_a) first = first || borders(r.corridor.front(), p);
      for (std::uint32_t p : in_b) last = last || borders(r.corridor.back(), p);
      EXPECT_TRUE(first);
      EXPECT_TRUE(last);
      for (std::size_t k = 1; k < r.corridor.size(); ++k)
        EXPECT_TRUE(shared(r.corridor[k - 1], r.corridor[k])) << "portal " << k;
      EXPECT_LE(exact::orientation(r.corridor.front().a, r.corridor.front().b, q.start), 0);
      EXPECT_GE(exact::orientation(r.corridor.back().a, r.corridor.back().b, q.goal), 0);
    }
  }
}

std::string text(const std::vector<Point>& path) {
  std::ostringstream out;
  for (const Point& p : path) out << " (" << p.x << ", " << p.y << ")";
  return out.str();
}

// Every placement's corridor holds its raw path: consecutive portals share a polygon, the first
// borders a polygon holding the start and the last one holding the goal, and the funnel through
// it is a valid path no longer than the raw one. Ends are drawn at random and on the lattice of
// half units, so on grid-like scenes many lie on mesh vertices (pinch points, wall ends) and
// shared edges, and vertex paths run along shared edges.
TEST(NavMesh, CorridorsHoldTheirPathsForEveryPlacement) {
  const fs::path root = fs::path(POLYNAV_SOURCE_DIR) / "scenes";
  for (const fs::path& file : {root / "movingai" / "arena.map", root / "mesh" / "walls-v3.mesh",
                               root / "maze.yaml", root / "island.yaml"}) {
    const Scene scene = load_scene(file);
    const FreeSpace space(scene);
    ASSERT_TRUE(space.regions().empty());
    const PathSimplifier checker(space);
    const Box box = space.box();
    for (const NavMeshNodes nodes : all_placements) {
      SCOPED_TRACE(file.filename().string() + " " + std::string(navmesh_nodes_name(nodes)));
      NavMeshOptions options;
      options.nodes = nodes;
      const NavMesh mesh(space, options);
      std::mt19937 rng(11);
      std::uniform_real_distribution<double> ux(box.min.x, box.max.x), uy(box.min.y, box.max.y);
      std::vector<std::uint32_t> found;
      const auto borders = [&](const Segment& portal, std::uint32_t poly) {
        const std::span<const Point> ring = mesh.polygon(poly);
        return std::find(ring.begin(), ring.end(), portal.a) != ring.end() &&
               std::find(ring.begin(), ring.end(), portal.b) != ring.end();
      };
      const auto polygons_of = [&](const Segment& portal) {
        std::vector<std::uint32_t> out;
        for (std::uint32_t poly = 0; poly < mesh.polygon_count(); ++poly)
          if (borders(portal, poly)) out.push_back(poly);
        return out;
      };
      int checked = 0, on_vertex = 0;
      for (int i = 0; i < 400; ++i) {
        Point a{ux(rng), uy(rng)}, b{ux(rng), uy(rng)};
        if (i % 2) {
          a = {std::round(2 * a.x) / 2, std::round(2 * a.y) / 2};
          b = {std::round(2 * b.x) / 2, std::round(2 * b.y) / 2};
        }
        if (!space.is_free(a) || !space.is_free(b)) continue;
        const RawPath r = find_path(mesh, a, b);
        if (r.status != search::SearchStatus::found) continue;
        ASSERT_TRUE(r.has_corridor)
            << "(" << a.x << ", " << a.y << ") to (" << b.x << ", " << b.y << ")";
        ++checked;
        for (const Point p : {a, b}) {
          mesh.locate(p, found);
          for (const std::uint32_t poly : found) {
            const std::span<const Point> ring = mesh.polygon(poly);
            on_vertex += std::find(ring.begin(), ring.end(), p) != ring.end();
          }
        }
        if (!r.corridor.empty()) {
          mesh.locate(a, found);
          bool first = false;
          for (const std::uint32_t poly : found) first = first || borders(r.corridor.front(), poly);
          EXPECT_TRUE(first);
          mesh.locate(b, found);
          bool last = false;
          for (const std::uint32_t poly : found) last = last || borders(r.corridor.back(), poly);
          EXPECT_TRUE(last);
          for (std::size_t k = 1; k < r.corridor.size(); ++k) {
            const std::vector<std::uint32_t> x = polygons_of(r.corridor[k - 1]);
            const std::vector<std::uint32_t> y = polygons_of(r.corridor[k]);
            EXPECT_TRUE(std::find_first_of(x.begin(), x.end(), y.begin(), y.end()) != x.end())
                << "portals " << k - 1 << " and " << k << " share no polygon";
          }
        }
        const std::vector<Point> pulled = funnel(a, b, r.corridor);
        EXPECT_TRUE(checker.is_valid(pulled))
            << "(" << a.x << ", " << a.y << ") to (" << b.x << ", " << b.y << ")";
        EXPECT_LE(polyline_length(pulled), polyline_length(r.points) * (1 + 1e-12))
            << "raw " << text(r.points) << ", funnel " << text(pulled);
      }
      EXPECT_GT(checked, 50);
      if (file.extension() == ".map") {
        EXPECT_GT(on_vertex, 0);
      }
    }
  }
}

// The landmarks only speed the search up: the same optimal graph cost as straight-line distance
// alone, and never more expansions in total.
TEST(NavMesh, LandmarksKeepEveryPathCostAndSaveExpansions) {
  const fs::path root = fs::path(POLYNAV_SOURCE_DIR) / "scenes";
  for (const fs::path& file : {root / "maze.yaml", root / "warehouse.yaml",
                               root / "mesh" / "arena.mesh", root / "movingai" / "den312d.map"}) {
    const Scene scene = load_scene(file);
    const FreeSpace space(scene);
    const Box box = space.box();
    for (const NavMeshNodes nodes : all_placements) {
      SCOPED_TRACE(file.filename().string() + " " + std::string(navmesh_nodes_name(nodes)));
      NavMeshOptions options;
      options.nodes = nodes;
      const NavMesh fast(space, options);
      options.landmarks = 0;
      const NavMesh plain(space, options);
      std::mt19937 rng(9);
      std::uniform_real_distribution<double> ux(box.min.x, box.max.x), uy(box.min.y, box.max.y);
      std::uint64_t with = 0, without = 0;
      int found = 0;
      for (int i = 0; i < 150; ++i) {
        const Point a{ux(rng), uy(rng)}, b{ux(rng), uy(rng)};
        if (!space.is_free(a) || !space.is_free(b)) continue;
        const RawPath r = find_path(fast, a, b), p = find_path(plain, a, b);
        ASSERT_EQ(r.status, p.status) << r.message;
        if (r.status != search::SearchStatus::found) continue;
        ++found;
        EXPECT_NEAR(r.graph_cost, p.graph_cost, 1e-12 * std::max(1.0, p.graph_cost));
        with += r.stats.expanded;
        without += p.stats.expanded;
      }
      EXPECT_GT(found, 30);
      // Heights with a climb limit make moves one way: no landmarks there.
      EXPECT_EQ(fast.landmark_count() == 0,
                space.has_heights() && std::isfinite(space.agent().max_climb));
      if (fast.landmark_count() > 0) {
        EXPECT_LT(with, without);
      } else {
        EXPECT_EQ(with, without);
      }
    }
  }
}

TEST(NavMesh, RandomScenesFindAPathWheneverTheVisibilityGraphDoes) {
  for (unsigned seed = 1; seed <= 12; ++seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> coord(0.5, 19.5), size(0.3, 4.0);
    std::vector<Ring> obstacles;
    for (int k = 0; k < 25; ++k) {
      const double x = coord(rng), y = coord(rng);
      if (seed % 2)
        obstacles.push_back(
            rect(x, y, std::min(x + size(rng), 20.0), std::min(y + size(rng), 20.0)));
      else
        obstacles.push_back({{x, y}, {x + size(rng), y + 0.3}, {x + 0.2, y + size(rng)}});
    }
    const Scene scene = scene_of(rect(0, 0, 20, 20), obstacles);
    const auto space = std::make_shared<const FreeSpace>(scene);
    const Planner graph(space, plan_options("visgraph", "none"));
    const PathSimplifier checker(*space);
    // Every placement searched as a graph, and the default (navmesh.search=auto), which on these
    // scenes (no regions, a few dozen corners) is Polyanya: then the visibility graph's length.
    NavMeshOptions automatic;
    automatic.search = NavMeshSearch::automatic;
    const bool exact = resolve_navmesh_search(*space, automatic) == NavMeshSearch::optimal;
    EXPECT_TRUE(exact);
    std::vector<std::pair<std::string, PlanOptions>> variants;
    for (const NavMeshNodes nodes : all_placements) {
      PlanOptions o = plan_options("navmesh", "funnel");
      o.settings.set("navmesh.nodes", std::string(navmesh_nodes_name(nodes)));
      o.settings.set("navmesh.search", std::string("graph"));
      variants.emplace_back(navmesh_nodes_name(nodes), o);
    }
    variants.emplace_back("default", plan_options("navmesh", "funnel"));
    for (const auto& [name, mesh_options] : variants) {
      const Planner mesh(space, mesh_options);
      std::uniform_real_distribution<double> u(0, 20);
      for (int i = 0; i < 60; ++i) {
        const Point a{u(rng), u(rng)}, b{u(rng), u(rng)};
        if (!space->is_free(a) || !space->is_free(b)) continue;
        const PlanResult g = graph.plan(a, b);
        const PlanResult m = mesh.plan(a, b);
        SCOPED_TRACE("seed " + std::to_string(seed) + " " + name);
        EXPECT_EQ(m.found(), g.found()) << m.message;
        if (!m.found() || !g.found()) continue;
        // Both paths pass the exact check, the funnel applied (a corridor, and a valid result
        // the planner did not have to replace by the raw path), and it is never longer.
        EXPECT_TRUE(checker.is_valid(m.raw_waypoints));
        EXPECT_TRUE(checker.is_valid(m.waypoints));
        EXPECT_TRUE(m.message.empty()) << m.message;
        EXPECT_GE(m.length, g.length * (1 - 1e-9));
        EXPECT_LE(m.length, m.raw_length * (1 + 1e-12));
        if (name == "default" && exact) {
          EXPECT_NEAR(m.length, g.length, 1e-9 * g.length);
        }
      }
    }
  }
}

// The mesh files whose own faces become the polygons: the bundled ones and, when present, the
// shared reference meshes (Polyanya's, including its degenerate test meshes).
std::vector<fs::path> face_meshes() {
  std::vector<fs::path> files;
  for (const fs::path& dir :
       {fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "mesh", fs::path(POLYNAV_SHARED_DATA) / "mesh"}) {
    for (const fs::path& d : {dir, dir / "degenerate"}) {
      if (!fs::is_directory(d)) continue;
      std::vector<fs::path> here;
      for (const auto& entry : fs::directory_iterator(d))
        if (entry.path().extension() == ".mesh") here.push_back(entry.path());
      std::sort(here.begin(), here.end());
      files.insert(files.end(), here.begin(), here.end());
    }
  }
  return files;
}

class NavMeshFromFaces : public testing::TestWithParam<fs::path> {};

TEST_P(NavMeshFromFaces, PolygonsAreTheFacesAndTileFreeSpace) {
  const Scene scene = load_scene(GetParam());
  ASSERT_TRUE(scene.mesh != nullptr);
  const FreeSpace space(scene);
  NavMeshOptions options;
  options.source = NavMeshSource::mesh;
  try {
    (void)NavMesh(space, options);
  } catch (const InputError& e) {
    // Polyanya's rotated collinear meshes have faces that are convex only up to rounding: `mesh`
    // refuses them, naming the face, and `auto` rebuilds.
    EXPECT_EQ(GetParam().parent_path().filename(), "degenerate") << e.what();
    EXPECT_NE(std::string(e.what()).find("not convex"), std::string::npos) << e.what();
    const NavMesh rebuilt(space);
    EXPECT_FALSE(rebuilt.stats().from_mesh);
    expect_free_points_located(space, rebuilt);
    expect_walls_kept(space, rebuilt);
    return;
  }
  const NavMesh mesh(space, options);
  EXPECT_TRUE(mesh.stats().from_mesh);
  EXPECT_EQ(mesh.polygon_count(), scene.mesh->face_count());
  EXPECT_NE(mesh.summary().find("the mesh's faces"), std::string::npos) << mesh.summary();
  double area = 0;
  for (std::size_t i = 0; i < mesh.polygon_count(); ++i) {
    const std::span<const Point> ring = mesh.polygon(i);
    for (std::size_t k = 0; k < ring.size(); ++k)
      EXPECT_GE(
          exact::orientation(ring[k], ring[(k + 1) % ring.size()], ring[(k + 2) % ring.size()]), 0)
          << "polygon " << i;
    EXPECT_GT(ring_area(ring), 0) << "polygon " << i;
    area += ring_area(ring);
  }
  EXPECT_NEAR(area, space.area(), 1e-9 * space.area());
  expect_free_points_located(space, mesh);
  expect_walls_kept(space, mesh);
}

INSTANTIATE_TEST_SUITE_P(Meshes, NavMeshFromFaces, testing::ValuesIn(face_meshes()),
                         [](const testing::TestParamInfo<fs::path>& param) {
                           const std::string path = param.param.string();
                           std::string name =
                               (path.rfind(POLYNAV_SHARED_DATA, 0) == 0 ? "shared_" : "bundled_") +
                               param.param.parent_path().filename().string() + "_" +
                               param.param.filename().string();
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

// Funnelled paths through the mesh's own faces on Polyanya's arena scenario: never shorter than
// the exact Euclidean optimum (column 9), close to it from the graph, and equal to it by default.
TEST(NavMesh, ArenaFunnelLengthsFromTheFacesAreNeverBelowTheOptimum) {
  const fs::path dir = fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "mesh";
  const auto space = std::make_shared<const FreeSpace>(load_scene(dir / "arena.mesh"));
  const Scene scene = load_scene(dir / "arena.mesh");
  const std::vector<Query> queries = load_scenario(dir / "arena-euclidean.scen", scene);
  ASSERT_EQ(queries.size(), 160u);
  for (const auto& [source, search] :
       {std::pair{"mesh", "graph"}, {"rebuild", "graph"}, {"mesh", "auto"}, {"rebuild", "auto"}}) {
    PlanOptions options;
    options.method = "navmesh";
    options.smoother = "funnel";
    options.settings.set("navmesh.source", std::string(source));
    options.settings.set("navmesh.search", std::string(search));
    const Planner planner(space, options);
    double sum = 0, worst = 0;
    int counted = 0;
    for (const Query& q : queries) {
      SCOPED_TRACE(q.name);
      const PlanResult r = planner.plan(q.start, q.goal);
      ASSERT_TRUE(r.found()) << r.message;
      for (std::size_t k = 1; k < r.waypoints.size(); ++k)
        EXPECT_TRUE(space->traversable(r.waypoints[k - 1], r.waypoints[k]));
      if (*q.reference_length <= 0) continue;
      const double ratio = r.length / *q.reference_length;
      EXPECT_GE(ratio, 1 - 1e-9);
      sum += ratio;
      worst = std::max(worst, ratio);
      ++counted;
    }
    ASSERT_GT(counted, 0);
    std::printf(
        "arena, navmesh.source=%s, search=%s, funnel: length / optimum mean %.6f, max %.6f\n",
        source, search, sum / counted, worst);
    EXPECT_LT(sum / counted, 1.05);
    // The default (auto) is Polyanya on this mesh of 64 corners: the optimum on every query.
    if (std::string(search) == "auto") {
      EXPECT_LT(worst, 1 + 1e-9);
    }
  }
}

TEST(NavMesh, MeshSourceIsRefusedWithoutMeshFaces) {
  const Scene scene = load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "warehouse.yaml");
  const auto space = std::make_shared<const FreeSpace>(scene);
  NavMeshOptions options;
  options.source = NavMeshSource::mesh;
  try {
    const NavMesh mesh(*space, options);
    ADD_FAILURE() << "navmesh.source=mesh was accepted on a native scene";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("navmesh.source"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(.mesh)"), std::string::npos) << e.what();
  }
  // Through the planner's options too; auto rebuilds.
  PlanOptions plan;
  plan.method = "navmesh";
  plan.settings.set("navmesh.source", std::string("mesh"));
  EXPECT_THROW(Planner(space, plan), InputError);
  plan.settings.set("navmesh.source", std::string("auto"));
  const Planner planner(space, plan);
  EXPECT_FALSE(dynamic_cast<const NavMesh&>(planner.discretisation()).stats().from_mesh);
  EXPECT_THROW(parse_navmesh_source("faces"), InputError);
}

TEST(NavMesh, PlacementNamesRoundTrip) {
  for (const NavMeshNodes nodes : all_placements)
    EXPECT_EQ(parse_navmesh_nodes(std::string(navmesh_nodes_name(nodes))), nodes);
  EXPECT_THROW(parse_navmesh_nodes("corners"), InputError);
  // The registry declares every placement, and the library's default is the registry's.
  const OptionSpec* spec = nullptr;
  for (const OptionSpec& s : find_method("navmesh").options)
    if (s.name == "nodes") spec = &s;
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->choices.size(), std::size(all_placements));
  for (const NavMeshNodes nodes : all_placements)
    EXPECT_NE(std::find(spec->choices.begin(), spec->choices.end(), navmesh_nodes_name(nodes)),
              spec->choices.end());
  EXPECT_EQ(spec->default_value, navmesh_nodes_name(NavMeshOptions{}.nodes));
}

TEST(NavMesh, TriangleBudgetIsEnforced) {
  const Scene scene = load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "maze.yaml");
  const FreeSpace space(scene);
  NavMeshOptions options;
  options.max_triangles = 10;
  EXPECT_THROW(NavMesh(space, options), InputError);
}

}  // namespace
}  // namespace polynav
