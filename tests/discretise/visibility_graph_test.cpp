// Visibility graph: the exact Euclidean optimum on the Polyanya arena benchmark, an independent
// brute-force oracle (all boundary vertices, Boost.Graph Dijkstra) on seeded random scenes, the
// grid as an upper bound, tautness under shortcut smoothing, and degenerate geometry.
#include "polynav/discretise/visibility_graph/visibility_graph.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "polynav/error.hpp"
#include "polynav/io/svg.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/smooth/path_simplifier.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;
constexpr double inf = std::numeric_limits<double>::infinity();

Ring rect(double x0, double y0, double x1, double y1) {
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

Scene scene_of(Ring bounds, std::vector<Polygon> obstacles, double radius = 0.0) {
  Scene scene;
  scene.bounds = std::move(bounds);
  scene.agent.radius = radius;
  for (std::size_t i = 0; i < obstacles.size(); ++i)
    scene.obstacles.push_back(
        {std::move(obstacles[i]), {"", 0, 0, "obstacles[" + std::to_string(i) + "]"}});
  return scene;
}

RawPath query(const VisibilityGraph& graph, Point start, Point goal) {
  return find_path(graph, start, goal);
}

// Every segment of the path is a valid motion, and it joins start to goal.
void expect_valid(const FreeSpace& space, const std::vector<Point>& path, Point start, Point goal) {
  ASSERT_GE(path.size(), 2u);
  EXPECT_EQ(path.front(), start);
  EXPECT_EQ(path.back(), goal);
  for (std::size_t i = 1; i < path.size(); ++i)
    EXPECT_TRUE(space.line_of_sight(path[i - 1], path[i]))
        << "segment (" << path[i - 1].x << ", " << path[i - 1].y << ") -> (" << path[i].x << ", "
        << path[i].y << ")";
}

// The oracle: Euclidean shortest paths by Dijkstra (Boost.Graph) over the start, the goal and
// every boundary vertex, joined whenever FreeSpace sees one from the other. It shares nothing
// with the visibility graph but FreeSpace. A polyline may turn at a vertex where more than two
// boundary edges meet (a pinch) only when one side of the turn is wholly free there; otherwise
// it would slip through the zero-width gap with a waypoint on the pinch. Turns therefore depend
// on the segment travelled last, so Dijkstra runs over directed segments.
class BruteForce {
 public:
  explicit BruteForce(const FreeSpace& space) : space_(&space) {
    for (const BoundaryRing& ring : space.boundary())
      for (const Point& p : ring.points) points_.push_back(p);
    std::sort(points_.begin(), points_.end(), less);
    points_.erase(std::unique(points_.begin(), points_.end()), points_.end());
    neighbours_.resize(points_.size());
    for (const BoundaryRing& ring : space.boundary())
      for (std::size_t i = 0; i < ring.points.size(); ++i) {
        const Point a = ring.points[i], b = ring.points[(i + 1) % ring.points.size()];
        neighbours_[index(a)].push_back(b);
        neighbours_[index(b)].push_back(a);
      }
    sees_.resize(points_.size());
    for (std::size_t i = 0; i < points_.size(); ++i)
      for (std::size_t j = i + 1; j < points_.size(); ++j)
        if (space.line_of_sight(points_[i], points_[j])) {
          sees_[i].push_back(j);
          sees_[j].push_back(i);
        }
  }

  // Vertices where more than two boundary edges meet.
  std::size_t pinch_count() const {
    return std::size_t(std::count_if(neighbours_.begin(), neighbours_.end(),
                                     [](const auto& n) { return n.size() > 2; }));
  }

  // The length of a shortest path; +infinity when there is none.
  double length(Point start, Point goal) const {
    const FreeSpace& space = *space_;
    if (space.line_of_sight(start, goal)) return distance(start, goal);
    const std::size_t n = points_.size(), s = n, g = n + 1;
    const auto at = [&](std::size_t i) { return i == s ? start : i == g ? goal : points_[i]; };
    // Directed segments i -> j; state 0 is the source.
    std::vector<std::vector<std::size_t>> out(n + 1);
    for (std::size_t i = 0; i < n; ++i) {
      out[i] = sees_[i];
      if (space.line_of_sight(points_[i], goal)) out[i].push_back(g);
      if (space.line_of_sight(start, points_[i])) out[s].push_back(i);
    }
    std::vector<std::size_t> first(n + 2, 0);  // first state of the segments leaving i
    for (std::size_t i = 0; i <= n; ++i) first[i + 1] = first[i] + out[i].size();
    using Graph =
        boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                              boost::property<boost::edge_weight_t, double>>;
    const std::size_t states = first[n + 1] + 1;
    Graph graph(states);
    for (std::size_t k = 0; k < out[s].size(); ++k)
      boost::add_edge(0, 1 + first[s] + k, distance(start, points_[out[s][k]]), graph);
    for (std::size_t i = 0; i <= n; ++i)
      for (std::size_t k = 0; k < out[i].size(); ++k) {
        const std::size_t j = out[i][k];
        if (j == g) continue;
        for (std::size_t m = 0; m < out[j].size(); ++m) {
          const std::size_t next = out[j][m];
          if (next == i || !turn_ok(j, at(i), at(next))) continue;
          boost::add_edge(1 + first[i] + k, 1 + first[j] + m, distance(points_[j], at(next)),
                          graph);
        }
      }
    std::vector<double> dist(states, inf);
    boost::dijkstra_shortest_paths(graph, 0, boost::distance_map(dist.data()));
    double best = inf;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < out[i].size(); ++k)
        if (out[i][k] == g) best = std::min(best, dist[1 + first[i] + k]);
    // Boost marks unreached vertices with the largest double, not infinity.
    return best >= std::numeric_limits<double>::max() ? inf : best;
  }

 private:
  static bool less(Point a, Point b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }
  std::size_t index(Point p) const {
    return std::size_t(std::lower_bound(points_.begin(), points_.end(), p, less) - points_.begin());
  }

  // Plain arithmetic is enough here: pinches only occur in the lattice scenes, where these
  // products are exact.
  bool turn_ok(std::size_t v, Point from, Point to) const {
    if (neighbours_[v].size() <= 2) return true;
    const Point pv = points_[v];
    return side_free(v, from - pv, to - pv) || side_free(v, to - pv, from - pv);
  }

  // Whether the directions counter-clockwise from d1 to d2 around vertex v are all free near it.
  bool side_free(std::size_t v, Point d1, Point d2) const {
    const Point pv = points_[v];
    const double c = cross(d1, d2);
    for (const Point& n : neighbours_[v]) {
      const Point r = n - pv;
      bool inside;
      if (c > 0) {
        inside = cross(d1, r) > 0 && cross(r, d2) > 0;
      } else if (c < 0) {
        inside = !(cross(d2, r) >= 0 && cross(r, d1) >= 0);
      } else if (dot(d1, d2) > 0) {
        inside = !(cross(d1, r) == 0 && dot(d1, r) > 0);
      } else {
        inside = cross(d1, r) > 0;
      }
      if (inside) return false;
    }
    const Point u1 = (1 / norm(d1)) * d1, u2 = (1 / norm(d2)) * d2;
    Point mid = c > 0 ? u1 + u2 : c < 0 ? -1.0 * (u1 + u2) : Point{-u1.y, u1.x};
    mid = (1e-6 / norm(mid)) * mid;
    return space_->is_free(pv + mid);
  }

  const FreeSpace* space_;
  std::vector<Point> points_;
  std::vector<std::vector<Point>> neighbours_;
  std::vector<std::vector<std::size_t>> sees_;
};

double brute_force_length(const FreeSpace& space, Point start, Point goal) {
  return BruteForce(space).length(start, goal);
}

// Random scenes in a 20 x 20 box. Even seeds: axis-aligned rectangles and triangles with
// corners on a half-unit lattice, so obstacles share edges, touch at corners, overlap and line
// up (the degenerate cases). Odd seeds: star-shaped polygons with arbitrary coordinates.
Scene random_scene(unsigned seed, int count = 12) {
  std::mt19937 rng(seed);
  std::vector<Polygon> obstacles;
  if (seed % 2 == 0) {
    std::uniform_int_distribution<int> coord(1, 36), size(1, 8);
    const auto lattice = [](int v) { return 0.5 * v; };
    for (int k = 0; k < count; ++k) {
      const int x = coord(rng), y = coord(rng), w = size(rng), h = size(rng);
      if (k % 3 == 2) {
        const Point a{lattice(x), lattice(y)}, b{lattice(x + w), lattice(y)},
            c{lattice(x + w / 2), lattice(y + h)};
        obstacles.push_back({{a, b, c}, {}});
      } else {
        obstacles.push_back({rect(lattice(x), lattice(y), lattice(std::min(x + w, 39)),
                                  lattice(std::min(y + h, 39))),
                             {}});
      }
    }
  } else {
    std::uniform_real_distribution<double> coord(1.5, 18.5), radius(0.4, 2.0), unit(0.0, 1.0);
    for (int k = 0; k < count; ++k) {
      const Point c{coord(rng), coord(rng)};
      // Angles jittered around an even spread keep every gap below 180 degrees, so the centre
      // sees every edge and the polygon is simple.
      const int n = 3 + int(unit(rng) * 6);
      std::vector<double> angles;
      for (int i = 0; i < n; ++i)
        angles.push_back((i + 0.4 * unit(rng)) * 2 * std::numbers::pi / n);
      Ring ring;
      for (double a : angles) {
        const double r = radius(rng);
        ring.push_back({c.x + r * std::cos(a), c.y + r * std::sin(a)});
      }
      if (ring.size() >= 3 && std::abs(signed_area2(ring)) > 0.05) obstacles.push_back({ring, {}});
    }
  }
  return scene_of(rect(0, 0, 20, 20), std::move(obstacles));
}

// Random free query points, plus some boundary vertices (starting on a corner).
std::vector<std::pair<Point, Point>> random_queries(const FreeSpace& space, unsigned seed,
                                                    int count) {
  std::mt19937 rng(seed * 7919u + 1u);
  std::uniform_real_distribution<double> coord(0.0, 20.0);
  std::vector<Point> vertices;
  for (const BoundaryRing& ring : space.boundary())
    for (const Point& p : ring.points) vertices.push_back(p);
  const auto free_point = [&](int k) {
    if (k % 4 == 3 && !vertices.empty())
      return vertices[std::uniform_int_distribution<std::size_t>(0, vertices.size() - 1)(rng)];
    for (;;) {
      const Point p{coord(rng), coord(rng)};
      if (space.is_free(p)) return p;
    }
  };
  std::vector<std::pair<Point, Point>> queries;
  for (int k = 0; k < count; ++k) {
    const Point a = free_point(k);
    const Point b = free_point(k + 1);
    queries.emplace_back(a, b);
  }
  return queries;
}

std::vector<fs::path> arena_dirs() {
  std::vector<fs::path> dirs = {fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "mesh"};
  dirs.push_back(fs::path(POLYNAV_SHARED_DATA) / "mesh");
  return dirs;
}

class ArenaMesh : public ::testing::TestWithParam<int> {};

// Polyanya's exact Euclidean optimum for every query of arena-euclidean.scen.
TEST_P(ArenaMesh, EveryQueryMatchesTheExactEuclideanOptimum) {
  const fs::path dir = arena_dirs()[std::size_t(GetParam())];
  if (!fs::exists(dir / "arena.mesh") || !fs::exists(dir / "arena-euclidean.scen"))
    GTEST_SKIP() << "no arena.mesh / arena-euclidean.scen in " << dir;
  const Scene scene = load_scene(dir / "arena.mesh");
  const std::vector<Query> queries = load_scenario(dir / "arena-euclidean.scen", scene);
  ASSERT_EQ(queries.size(), 160u);
  PlanOptions options;
  options.method = "visgraph";
  options.smoother = "none";
  Planner planner(scene, options);
  const auto& graph = dynamic_cast<const VisibilityGraph&>(planner.discretisation());
  EXPECT_GT(graph.node_count(), 0u);
  int bent = 0;
  for (const Query& q : queries) {
    SCOPED_TRACE(q.name);
    ASSERT_TRUE(q.reference_length.has_value());
    const PlanResult r = planner.plan(q.start, q.goal);
    ASSERT_TRUE(r.found()) << r.message;
    bent += r.waypoints.size() > 2 ? 1 : 0;
    EXPECT_NEAR(r.length, *q.reference_length, 1e-6 * std::max(1.0, *q.reference_length));
    expect_valid(planner.free_space(), r.waypoints, q.start, q.goal);
    // Taut: shortcut smoothing finds nothing to cut.
    std::vector<Point> smoothed = r.waypoints;
    smooth_path(planner.free_space(), "shortcut", smoothed);
    EXPECT_NEAR(polyline_length(smoothed), r.length, 1e-9 * std::max(1.0, r.length));
  }
  // About half the queries need a search (the others are in line of sight).
  EXPECT_GT(bent, 50);
}

INSTANTIATE_TEST_SUITE_P(BundledAndShared, ArenaMesh, ::testing::Values(0, 1),
                         [](const ::testing::TestParamInfo<int>& param) {
                           return std::string(param.param == 0 ? "bundled" : "shared");
                         });

// Polyanya's degenerate meshes (collinear and ambiguous geometry): column 9 of their scenarios
// is no reference, so the oracle decides.
TEST(VisibilityGraph, DegenerateMeshesMatchTheOracle) {
  const fs::path dir = fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "mesh" / "degenerate";
  if (!fs::exists(dir)) GTEST_SKIP() << "no " << dir;
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".scen") continue;
    const fs::path mesh = fs::path(entry.path()).replace_extension(".mesh");
    SCOPED_TRACE(mesh.filename().string());
    const Scene scene = load_scene(mesh);
    const std::vector<Query> queries = load_scenario(entry.path(), scene);
    PlanOptions options;
    options.method = "visgraph";
    options.smoother = "none";
    Planner planner(scene, options);
    const BruteForce oracle(planner.free_space());
    for (const Query& q : queries) {
      if (!planner.free_space().is_free(q.start) || !planner.free_space().is_free(q.goal)) continue;
      const double expected = oracle.length(q.start, q.goal);
      const PlanResult r = planner.plan(q.start, q.goal);
      ++checked;
      if (std::isinf(expected)) {
        EXPECT_FALSE(r.found());
        continue;
      }
      ASSERT_TRUE(r.found()) << r.message;
      expect_valid(planner.free_space(), r.waypoints, q.start, q.goal);
      EXPECT_NEAR(r.length, expected, 1e-9 * std::max(1.0, expected));
    }
  }
  EXPECT_GT(checked, 0);
}

// The independent oracle on seeded random scenes, with the bitangent pruning on and off, the
// taut search on and off, and with an agent radius (inflated, merged obstacles). The grid's valid
// paths bound it from above.
TEST(VisibilityGraph, MatchesBruteForceDijkstraOnRandomScenes) {
  int found = 0, unreachable = 0, searched = 0, grid_found = 0;
  std::size_t pinches = 0;
  for (unsigned seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    // The last seeds are crowded, so that some goals are walled off.
    Scene scene = random_scene(seed, seed > 10 ? 40 : 12);
    if (seed % 4 == 1) scene.agent.radius = 0.2;
    const FreeSpace space(scene);
    VisibilityGraph pruned(space);
    VisibilityGraphOptions all_options;
    all_options.bitangent_only = false;
    VisibilityGraph all(space, all_options);
    EXPECT_LE(pruned.edge_count(), all.edge_count());
    VisibilityGraphOptions every_successor;
    every_successor.taut = false;
    VisibilityGraph untaut(space, every_successor);
    PlanOptions grid_options;
    grid_options.method = "grid";
    grid_options.settings.set("grid.resolution", 0.25);
    Planner grid(scene, grid_options);
    const BruteForce oracle(space);
    pinches += oracle.pinch_count();
    for (const auto& [start, goal] : random_queries(space, seed, 12)) {
      SCOPED_TRACE(::testing::Message() << std::setprecision(17) << start.x << ", " << start.y
                                        << " -> " << goal.x << ", " << goal.y);
      const double expected = oracle.length(start, goal);
      ++(std::isinf(expected) ? unreachable : found);
      for (VisibilityGraph* graph : {&pruned, &all, &untaut}) {
        const RawPath r = query(*graph, start, goal);
        searched += r.points.size() > 2 ? 1 : 0;
        if (std::isinf(expected)) {
          EXPECT_EQ(r.status, search::SearchStatus::no_path);
          continue;
        }
        ASSERT_EQ(r.status, search::SearchStatus::found) << r.message;
        expect_valid(space, r.points, start, goal);
        EXPECT_NEAR(polyline_length(r.points), expected, 1e-9 * std::max(1.0, expected));
        EXPECT_NEAR(r.graph_cost, expected, 1e-9 * std::max(1.0, expected));
      }
      const PlanResult g = grid.plan(start, goal);
      if (g.found()) {
        ++grid_found;
        EXPECT_FALSE(std::isinf(expected));
        EXPECT_LE(expected, g.raw_length * (1 + 1e-12));
        EXPECT_LE(expected, g.length * (1 + 1e-12));
      }
    }
  }
  // The scenes exercise what they are meant to: bent paths, unreachable goals, pinches.
  EXPECT_GT(found, 100);
  EXPECT_GT(unreachable, 0);
  EXPECT_GT(searched, 100);
  EXPECT_GT(grid_found, 100);
  EXPECT_GT(pinches, 0u);
}

TEST(VisibilityGraph, ShortcutSmoothingNeverShortensItsPaths) {
  for (unsigned seed = 20; seed <= 27; ++seed) {
    const Scene scene = random_scene(seed, 20);
    const FreeSpace space(scene);
    VisibilityGraph graph(space);
    for (const auto& [start, goal] : random_queries(space, seed, 20)) {
      const RawPath r = query(graph, start, goal);
      if (r.status != search::SearchStatus::found) continue;
      std::vector<Point> smoothed = r.points;
      smooth_path(space, "shortcut", smoothed);
      const double before = polyline_length(r.points);
      EXPECT_NEAR(polyline_length(smoothed), before, 1e-9 * std::max(1.0, before));
      EXPECT_GE(polyline_length(smoothed), before * (1 - 1e-12));
    }
  }
}

TEST(VisibilityGraph, NodesAreTheConvexCornersOfObstacles) {
  // The bounds' corners are convex corners of free space, not nodes; the square's are.
  const FreeSpace space(scene_of(rect(0, 0, 10, 10), {{rect(4, 4, 6, 6), {}}}));
  VisibilityGraph graph(space);
  ASSERT_EQ(graph.node_count(), 4u);
  for (search::NodeId n = 0; n < 4; ++n) {
    const Point p = graph.node_position(n);
    EXPECT_TRUE((p.x == 4 || p.x == 6) && (p.y == 4 || p.y == 6));
  }
  // Sides are bitangent, diagonals are not in sight.
  EXPECT_EQ(graph.edge_count(), 4u);

  // An L-shaped obstacle: its reflex corner is not a node.
  const FreeSpace l_space(
      scene_of(rect(0, 0, 10, 10), {{{{2, 2}, {6, 2}, {6, 4}, {4, 4}, {4, 6}, {2, 6}}, {}}}));
  VisibilityGraph l_graph(l_space);
  EXPECT_EQ(l_graph.node_count(), 5u);
  for (search::NodeId n = 0; n < l_graph.node_count(); ++n)
    EXPECT_FALSE(l_graph.node_position(n) == (Point{4, 4}));
}

TEST(VisibilityGraph, CollinearObstaclesLetThePathRunAlongTheirCommonLine) {
  // Three squares in a row with their tops on y = 2; the path from the first square's top-left
  // corner to the last square's right side runs along the tops, through four collinear corners.
  const FreeSpace space(scene_of(
      rect(0, 0, 8, 4), {{rect(1, 1, 2, 2), {}}, {rect(3, 1, 4, 2), {}}, {rect(5, 1, 6, 2), {}}}));
  VisibilityGraph graph(space);
  const RawPath r = query(graph, {1, 2}, {6, 1.5});
  ASSERT_EQ(r.status, search::SearchStatus::found) << r.message;
  EXPECT_DOUBLE_EQ(polyline_length(r.points), 5.5);
  expect_valid(space, r.points, {1, 2}, {6, 1.5});
  EXPECT_NEAR(polyline_length(r.points), brute_force_length(space, {1, 2}, {6, 1.5}), 1e-12);
  // From off the line: over the first squares, then down through the last gap.
  const RawPath r2 = query(graph, {0.5, 3}, {6.5, 1});
  ASSERT_EQ(r2.status, search::SearchStatus::found);
  EXPECT_NEAR(polyline_length(r2.points),
              distance({0.5, 3}, {4, 2}) + distance({4, 2}, {5, 1}) + distance({5, 1}, {6.5, 1}),
              1e-12);
  EXPECT_NEAR(polyline_length(r2.points), brute_force_length(space, {0.5, 3}, {6.5, 1}), 1e-12);
  // Along the line between the collinear corners: the straight segment, no search.
  const RawPath r3 = query(graph, {0, 2}, {8, 2});
  ASSERT_EQ(r3.status, search::SearchStatus::found);
  EXPECT_EQ(r3.points.size(), 2u);
  EXPECT_EQ(r3.stats.expanded, 0u);
}

TEST(VisibilityGraph, StartAndGoalOnObstacleVertices) {
  const FreeSpace space(
      scene_of(rect(0, 0, 10, 10), {{rect(2, 2, 4, 8), {}}, {rect(6, 2, 8, 8), {}}}));
  VisibilityGraph graph(space);
  // From a corner of one obstacle to the far corner of the other, around both.
  for (const auto& [start, goal] : std::vector<std::pair<Point, Point>>{{{2, 2}, {8, 8}},
                                                                        {{4, 8}, {6, 2}},
                                                                        {{2, 8}, {8, 2}},
                                                                        {{0, 0}, {8, 8}},
                                                                        {{4, 5}, {6, 5}}}) {
    SCOPED_TRACE(::testing::Message()
                 << start.x << ", " << start.y << " -> " << goal.x << ", " << goal.y);
    const RawPath r = query(graph, start, goal);
    ASSERT_EQ(r.status, search::SearchStatus::found) << r.message;
    expect_valid(space, r.points, start, goal);
    EXPECT_NEAR(polyline_length(r.points), brute_force_length(space, start, goal), 1e-12);
  }
  // The start is the node at (2, 2): it is in sight of itself at no cost.
  const std::vector<search::NodeId> seen = graph.visible_nodes({2, 2});
  EXPECT_TRUE(std::any_of(seen.begin(), seen.end(), [&](search::NodeId n) {
    return graph.node_position(n) == Point{2, 2};
  }));
}

TEST(VisibilityGraph, NoPathThroughAPinchWhereObstaclesTouch) {
  // Squares touching at (2, 2) split the box into two components joined only at the pinch.
  const FreeSpace split(
      scene_of(rect(0, 0, 4, 4), {{rect(0, 2, 2, 4), {}}, {rect(2, 0, 4, 2), {}}}));
  VisibilityGraph split_graph(split);
  EXPECT_EQ(query(split_graph, {1, 1}, {3, 3}).status, search::SearchStatus::no_path);
  EXPECT_EQ(query(split_graph, {0.5, 1.5}, {3.5, 2.5}).status, search::SearchStatus::no_path);

  // With room around them, the path detours; the pinch vertex is no node.
  const FreeSpace space(
      scene_of(rect(0, 0, 6, 6), {{rect(1, 3, 3, 5), {}}, {rect(3, 1, 5, 3), {}}}));
  VisibilityGraph graph(space);
  EXPECT_EQ(graph.node_count(), 6u);
  for (search::NodeId n = 0; n < graph.node_count(); ++n)
    EXPECT_FALSE(graph.node_position(n) == (Point{3, 3}));
  const RawPath r = query(graph, {2, 2}, {4, 4});
  ASSERT_EQ(r.status, search::SearchStatus::found);
  expect_valid(space, r.points, {2, 2}, {4, 4});
  EXPECT_GT(polyline_length(r.points), 4.0);
  EXPECT_NEAR(polyline_length(r.points), brute_force_length(space, {2, 2}, {4, 4}), 1e-12);
  // Starting on the pinch itself, either side is reachable.
  for (const Point goal : {Point{1, 1}, Point{5, 5}, Point{0.5, 5.5}}) {
    const RawPath p = query(graph, {3, 3}, goal);
    ASSERT_EQ(p.status, search::SearchStatus::found) << goal.x << ", " << goal.y;
    EXPECT_NEAR(polyline_length(p.points), brute_force_length(space, {3, 3}, goal), 1e-12);
  }
}

TEST(VisibilityGraph, APinchWithOneWideFreeSectorIsOneNode) {
  // Two thin wedges meeting at (5, 5): the free sector between them is narrow, the other one
  // wider than 180 degrees, so exactly one node sits at (5, 5).
  const FreeSpace space(scene_of(
      rect(0, 0, 10, 10), {{{{5, 5}, {8, 5}, {8, 5.5}}, {}}, {{{5, 5}, {8, 6}, {8, 7}}, {}}}));
  VisibilityGraph graph(space);
  int at_pinch = 0;
  for (search::NodeId n = 0; n < graph.node_count(); ++n)
    at_pinch += graph.node_position(n) == Point{5, 5} ? 1 : 0;
  EXPECT_EQ(at_pinch, 1);
  for (const auto& [start, goal] : std::vector<std::pair<Point, Point>>{{{9, 4}, {9, 8}},
                                                                        {{6, 5.25}, {2, 5}},
                                                                        {{6, 5.25}, {9, 5.25}},
                                                                        {{7, 5.5}, {5, 4}},
                                                                        {{9, 5.7}, {9, 9}},
                                                                        {{9, 5.7}, {1, 1}},
                                                                        {{2, 7}, {7, 4.5}}}) {
    SCOPED_TRACE(::testing::Message()
                 << start.x << ", " << start.y << " -> " << goal.x << ", " << goal.y);
    ASSERT_TRUE(space.is_free(start) && space.is_free(goal));
    const RawPath r = query(graph, start, goal);
    ASSERT_EQ(r.status, search::SearchStatus::found) << r.message;
    expect_valid(space, r.points, start, goal);
    EXPECT_NEAR(polyline_length(r.points), brute_force_length(space, start, goal), 1e-12);
  }
  // Around the wedges' common apex, bending on the node's wide side.
  const RawPath r = query(graph, {2, 7}, {7, 4.5});
  ASSERT_EQ(r.status, search::SearchStatus::found);
  EXPECT_EQ(r.points.size(), 3u);
  EXPECT_NEAR(polyline_length(r.points), distance({2, 7}, {5, 5}) + distance({5, 5}, {7, 4.5}),
              1e-12);
}

TEST(VisibilityGraph, AHoleHoldingAnIsland) {
  // A square wall with a square hole, and an island in the hole.
  Polygon wall{rect(2, 2, 18, 18), {rect(4, 4, 16, 16)}};
  const FreeSpace space(scene_of(rect(0, 0, 20, 20), {wall, {rect(8, 8, 12, 12), {}}}));
  VisibilityGraph graph(space);
  const RawPath r = query(graph, {5, 5}, {15, 15});
  ASSERT_EQ(r.status, search::SearchStatus::found);
  EXPECT_NEAR(polyline_length(r.points), 2 * std::sqrt(58.0), 1e-12);
  expect_valid(space, r.points, {5, 5}, {15, 15});
  // Outside the wall to inside the hole: no path, whether the planner or the graph is asked.
  EXPECT_EQ(query(graph, {5, 5}, {1, 1}).status, search::SearchStatus::no_path);
  EXPECT_EQ(query(graph, {1, 1}, {12, 12}).status, search::SearchStatus::no_path);
  PlanOptions options;
  options.method = "visgraph";
  Planner planner(scene_of(rect(0, 0, 20, 20), {wall, {rect(8, 8, 12, 12), {}}}), options);
  EXPECT_EQ(planner.plan({5, 5}, {1, 1}).status, search::SearchStatus::no_path);
  // Around the outside of the wall.
  const RawPath outside = query(graph, {1, 10}, {19, 10});
  ASSERT_EQ(outside.status, search::SearchStatus::found);
  EXPECT_NEAR(polyline_length(outside.points), brute_force_length(space, {1, 10}, {19, 10}), 1e-12);
}

TEST(VisibilityGraph, WeightedScenesAreSearchedByLengthAndReportTheExactCost) {
  Scene scene = scene_of(rect(0, 0, 10, 10), {{rect(4, 2, 6, 8), {}}});
  scene.regions.push_back({"mud", 5.0, std::nullopt, rect(0, 0, 10, 5), {}});
  PlanOptions options;
  options.method = "visgraph";
  options.smoother = "none";
  Planner planner(scene, options);
  const PlanResult r = planner.plan({1, 3}, {9, 3});
  ASSERT_TRUE(r.found());
  // The shortest path (below the obstacle, through the mud) is taken, not the cheapest.
  EXPECT_NEAR(r.length, brute_force_length(planner.free_space(), {1, 3}, {9, 3}), 1e-12);
  EXPECT_NEAR(r.cost, planner.free_space().path_cost(r.waypoints), 1e-12);
  EXPECT_GT(r.cost, r.length);
}

TEST(VisibilityGraph, HeightLimitsMakeTheGraphDirectedAndPathsClimbable) {
  Scene scene = scene_of(rect(0, 0, 10, 10), {{rect(4, 4, 6, 6), {}}});
  scene.regions.push_back({"plateau", 1.0, 2.0, rect(7, 0, 10, 10), {}});
  scene.agent.max_climb = 1.0;
  const FreeSpace space(scene);
  VisibilityGraph graph(space);
  EXPECT_TRUE(graph.directed());
  // Stepping down from the plateau is allowed, climbing onto it is not.
  const RawPath down = query(graph, {9, 5}, {1, 5});
  ASSERT_EQ(down.status, search::SearchStatus::found);
  for (std::size_t i = 1; i < down.points.size(); ++i)
    EXPECT_TRUE(space.traversable(down.points[i - 1], down.points[i]));
  EXPECT_NE(query(graph, {1, 5}, {9, 5}).status, search::SearchStatus::found);
}

TEST(VisibilityGraph, PlannerOffersItByName) {
  const std::vector<std::string> methods = method_names();
  EXPECT_NE(std::find(methods.begin(), methods.end(), "visgraph"), methods.end());
  const Scene scene = random_scene(3);
  PlanOptions options;
  options.method = "visgraph";
  Planner planner(scene, options);
  EXPECT_EQ(planner.discretisation().method(), "visgraph");
  const auto [start, goal] = random_queries(planner.free_space(), 3, 1).front();
  const PlanResult r = planner.plan(start, goal);
  EXPECT_EQ(r.method, "visgraph");
  if (r.found()) {
    EXPECT_NEAR(r.length, brute_force_length(planner.free_space(), start, goal), 1e-9);
    EXPECT_NEAR(r.raw_length, r.length, 1e-9);
  }
}

TEST(VisibilityGraph, RefusesMoreCornersThanItsBudget) {
  const FreeSpace space(random_scene(5));
  VisibilityGraphOptions options;
  options.max_nodes = 3;
  EXPECT_THROW(VisibilityGraph(space, options), InputError);
}

TEST(VisibilityGraph, DrawsEveryEdgeAndNode) {
  const FreeSpace space(
      scene_of(rect(0, 0, 10, 10), {{rect(4, 4, 6, 6), {}}, {rect(1, 1, 2, 3), {}}}));
  VisibilityGraph graph(space);
  SvgCanvas canvas(space.box());
  draw_primitives(canvas, graph.primitives());
  const std::string svg = canvas.str();
  const auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = svg.find(what); at != std::string::npos; at = svg.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("<line"), graph.edge_count());
  EXPECT_EQ(count("<circle"), graph.node_count());
}

TEST(VisibilityGraph, RecordsExpandedNodesWhenAsked) {
  const FreeSpace space(random_scene(7));
  VisibilityGraph graph(space);
  QueryOptions options;
  options.record_expanded = true;
  for (const auto& [start, goal] : random_queries(space, 7, 6)) {
    const RawPath r = find_path(graph, start, goal, options);
    EXPECT_LE(r.expanded.size(), r.stats.expanded);
  }
}

}  // namespace
}  // namespace polynav
