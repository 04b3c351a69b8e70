// The maximum-clearance roadmap: its nodes on the medial axis, its arcs valid motions with their
// clearance; paths valid by the independent exact checker on the bundled scenes, a MovingAI map
// and random scenes; the bottleneck at least that of the other methods' paths and of a brute-force
// widest path over a fine grid; the reported bottleneck that of the returned path; no path exactly
// where the visibility graph finds none; budgets and degenerate free space.
#include "polynav/discretise/clearance/clearance_roadmap.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "discretise/random_scenes.hpp"
#include "polynav/discretise/visibility_graph/visibility_graph.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"
#include "scene/error_of.hpp"
#include "support/data.hpp"
#include "validity/exact_checker.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;
using test::random_scene;
using test::rect;

constexpr double inf = std::numeric_limits<double>::infinity();

// The least clearance of a polyline, recomputed segment by segment.
double least_clearance(const FreeSpace& space, const std::vector<Point>& path) {
  if (path.size() == 1) return space.clearance(path[0], path[0]);
  double least = inf;
  for (std::size_t k = 0; k + 1 < path.size(); ++k)
    least = std::min(least, space.clearance(path[k], path[k + 1]));
  return least;
}

// The number after "least clearance " in a message; NaN when there is none.
double reported_bottleneck(const std::string& message) {
  const std::string key = "least clearance ";
  const std::size_t at = message.find(key);
  if (at == std::string::npos) return std::nan("");
  return std::stod(message.substr(at + key.size()));
}

bool near(double a, double b, double relative) {
  if (a == b) return true;
  return std::abs(a - b) <= relative * std::max({std::abs(a), std::abs(b), 1e-12});
}

PlanOptions unsmoothed(const std::string& method = "grid") {
  PlanOptions o;
  o.method = method;
  o.smoother = "none";
  return o;
}

std::unique_ptr<Planner> clearance_planner(const std::shared_ptr<const FreeSpace>& space,
                                           const ClearanceOptions& options = {}) {
  return std::make_unique<Planner>(space, make_clearance_method(*space, options), unsmoothed());
}

// Free points drawn uniformly from free space's box.
std::vector<Point> free_points(const FreeSpace& space, std::size_t count, unsigned seed) {
  std::vector<Point> out;
  const Box box = space.box();
  if (box.empty()) return out;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> ux(box.min.x, box.max.x), uy(box.min.y, box.max.y);
  for (int tries = 0; out.size() < count && tries < 100000; ++tries) {
    const Point p{ux(rng), uy(rng)};
    if (space.is_free(p)) out.push_back(p);
  }
  return out;
}

const ClearanceRoadmap& roadmap_of(const Planner& planner) {
  return dynamic_cast<const ClearanceRoadmap&>(planner.discretisation());
}

// Checks one clearance result: a valid path (independent checker) whose reported bottleneck is
// its recomputed least clearance. Returns the bottleneck (-infinity when not found).
double check_result(const FreeSpace& space, const validity::ExactChecker& checker,
                    const PlanResult& r) {
  EXPECT_NE(r.status, search::SearchStatus::internal_error) << r.message;
  if (!r.found()) return -inf;
  const validity::Verdict verdict = checker.check_path(r.waypoints);
  EXPECT_TRUE(verdict.valid()) << verdict.reason << " from " << r.start.x << "," << r.start.y
                               << " to " << r.goal.x << "," << r.goal.y;
  const double recomputed = least_clearance(space, r.waypoints);
  const double reported = reported_bottleneck(r.message);
  EXPECT_TRUE(near(reported, recomputed, 1e-9))
      << r.message << ": recomputed " << recomputed << " from " << r.start.x << "," << r.start.y
      << " to " << r.goal.x << "," << r.goal.y;
  return recomputed;
}

// A query of the clearance method itself, without the planner (which answers points in
// different components of free space before any method is asked).
RawPath ask(const Method& method, Point start, Point goal) {
  QueryWorkspace workspace;
  return method.find_path(start, goal, {}, workspace);
}

// ---------------------------------------------------------------------------------------------

// Every node lies on the medial axis: among the boundary edges, at least two nearest points
// (brute force over every edge) lie apart, at a distance of about the node's clearance. Every arc
// is a valid motion, with the stored clearance and cost.
TEST(ClearanceRoadmap, NodesLieOnTheMedialAxisAndArcsAreValidMotions) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const FreeSpace space(random_scene(seed, seed % 2 ? 0.0 : 0.3));
    const ClearanceRoadmap roadmap(space);
    ASSERT_GT(roadmap.node_count(), 20u);
    std::vector<Segment> edges;
    for (const BoundaryRing& ring : space.boundary())
      for (std::size_t k = 0; k < ring.points.size(); ++k)
        edges.push_back({ring.points[k], ring.points[(k + 1) % ring.points.size()]});
    for (search::NodeId n = 0; n < roadmap.node_count(); ++n) {
      const Point p = roadmap.node_position(n);
      EXPECT_TRUE(space.is_free(p));
      const double c = roadmap.node_clearance(n);
      if (!roadmap.attachable(n)) continue;  // a branch's end on the boundary
      // The nearest points of the edges within a relative 1e-7 of the least distance, and the
      // 2^-32 of the scene's extent to which the roadmap snaps its vertices (1e-9 of it here).
      const double snap = 1e-9 * std::max(space.box().width(), space.box().height());
      std::vector<Point> nearest;
      for (const Segment& e : edges) {
        const Point d = e.b - e.a;
        const double t = std::clamp(dot(p - e.a, d) / dot(d, d), 0.0, 1.0);
        const Point q = e.a + t * d;
        if (distance(p, q) <= c * (1.0 + 1e-7) + snap) nearest.push_back(q);
      }
      double spread = 0.0;
      for (const Point& a : nearest)
        for (const Point& b : nearest) spread = std::max(spread, distance(a, b));
      EXPECT_GT(spread, 1e-3 * c) << "node " << n << " at " << p.x << "," << p.y
                                  << " has one nearest boundary point";
    }
    for (search::NodeId n = 0; n < roadmap.node_count(); ++n) {
      roadmap.for_each_arc(n, [&](search::NodeId to, double cost, double clearance) {
        const Point a = roadmap.node_position(n), b = roadmap.node_position(to);
        EXPECT_TRUE(space.traversable(a, b));
        // Stored as computed from the lower node; FreeSpace::clearance rounds a little
        // differently the other way round.
        EXPECT_TRUE(near(clearance, space.clearance(a, b), 1e-12));
        EXPECT_NEAR(cost, space.segment_cost(a, b), 1e-9 * (1.0 + cost));
      });
    }
    const Primitives pictures = roadmap.primitives();
    EXPECT_EQ(pictures.arcs.size(), roadmap.edge_count());
    EXPECT_EQ(pictures.nodes.size(), roadmap.build_stats().voronoi_vertices);
    EXPECT_NE(roadmap.summary().find("nodes on the medial axis of"), std::string::npos);
  }
}

// Parabolic arcs are sampled by the tolerance: a finer one never has fewer samples, and every
// sample lies in free space (checked above for every node).
TEST(ClearanceRoadmap, FinerToleranceSamplesMore) {
  const FreeSpace space(random_scene(3, 0.0));
  std::size_t before = 0;
  for (const double tolerance : {1.0, 0.1, 0.01, 0.001}) {
    ClearanceOptions o;
    o.arc_tolerance = tolerance;
    const ClearanceRoadmap roadmap(space, o);
    EXPECT_EQ(roadmap.build_stats().arc_tolerance, tolerance);
    EXPECT_GE(roadmap.build_stats().arc_samples, before);
    before = roadmap.build_stats().arc_samples;
  }
  EXPECT_GT(before, 0u);
}

// Paths on random scenes are valid and report their own least clearance, which is at least the
// least clearance of the grid's, the visibility graph's and the navigation mesh's paths for the
// same query, raw or shortcut, less the arc tolerance (the roadmap's chords stray that far from
// the medial axis) and rounding.
TEST(ClearanceMethod, RandomScenesKeepAtLeastTheOtherMethodsClearance) {
  int compared = 0;
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const Scene scene = random_scene(seed, seed % 2 ? 0.0 : 0.3);
    const auto space = std::make_shared<const FreeSpace>(scene);
    const validity::ExactChecker checker(scene);
    const auto planner = clearance_planner(space);
    const double tolerance = roadmap_of(*planner).build_stats().arc_tolerance + 1e-9 * 20.0;
    std::vector<std::unique_ptr<Planner>> others;
    for (const char* method : {"grid", "visgraph", "navmesh"}) {
      PlanOptions o = unsmoothed(method);
      o.also_smooth = {"shortcut"};
      others.push_back(std::make_unique<Planner>(space, o));
    }
    const std::vector<Point> points = free_points(*space, 24, seed);
    for (std::size_t k = 0; k + 1 < points.size(); k += 2) {
      const PlanResult r = planner->plan(points[k], points[k + 1]);
      const double b = check_result(*space, checker, r);
      for (const auto& other : others) {
        for (const PlanResult& o : other->plan_each(points[k], points[k + 1])) {
          if (!o.found()) continue;
          ASSERT_TRUE(r.found()) << o.method << " found a path: " << r.message;
          ++compared;
          EXPECT_GE(b, least_clearance(*space, o.waypoints) - tolerance)
              << o.method << "/" << o.smoother << " from " << points[k].x << "," << points[k].y
              << " to " << points[k + 1].x << "," << points[k + 1].y;
        }
      }
    }
  }
  EXPECT_GT(compared, 100);
}

// The widest path over a fine square grid of free points (8-neighbour moves in line of sight,
// each as wide as its segment's clearance; start and goal joined to the grid points within two
// spacings that they see, and to each other when in sight) is a path of free space, so its
// bottleneck is a lower bound on the best; the roadmap's may fall short of the best by its arc
// tolerance only. The tolerance allowed is one grid spacing, far above that (0.25 here against a
// tolerance of 0.02), so that the test does not depend on how close the grid comes.
TEST(ClearanceMethod, BottleneckIsAtLeastABruteForceGridWidestPath) {
  int compared = 0;
  for (unsigned seed = 11; seed <= 14; ++seed) {
    const Scene scene = random_scene(seed, seed % 2 ? 0.0 : 0.25);
    const auto space = std::make_shared<const FreeSpace>(scene);
    const auto planner = clearance_planner(space);
    const validity::ExactChecker checker(scene);
    const double h = 0.25;
    const int side = int(std::lround(20.0 / h)) + 1;
    const auto id = [&](int x, int y) { return std::size_t(y) * side + x; };
    const auto at = [&](int x, int y) { return Point{x * h, y * h}; };
    std::vector<std::uint8_t> free(std::size_t(side) * side);
    for (int y = 0; y < side; ++y)
      for (int x = 0; x < side; ++x) free[id(x, y)] = space->is_free(at(x, y));
    // The moves' widths, once per scene.
    struct Move {
      std::size_t to;
      double width;
    };
    std::vector<std::vector<Move>> moves(free.size());
    for (int y = 0; y < side; ++y)
      for (int x = 0; x < side; ++x) {
        if (!free[id(x, y)]) continue;
        for (const auto& [dx, dy] : {std::pair{1, 0}, {0, 1}, {1, 1}, {1, -1}}) {
          const int u = x + dx, v = y + dy;
          if (u < 0 || v < 0 || u >= side || v >= side || !free[id(u, v)]) continue;
          if (!space->line_of_sight(at(x, y), at(u, v))) continue;
          const double w = space->clearance(at(x, y), at(u, v));
          moves[id(x, y)].push_back({id(u, v), w});
          moves[id(u, v)].push_back({id(x, y), w});
        }
      }
    // Ends well away from the obstacles, so that the passages between them, not the ends'
    // own clearance, decide the bottleneck.
    std::vector<Point> points;
    for (const Point& p : free_points(*space, 400, seed))
      if (points.size() < 24 && space->clearance(p, p) >= 0.8) points.push_back(p);
    for (std::size_t k = 0; k + 1 < points.size(); k += 2) {
      const Point s = points[k], g = points[k + 1];
      // Node free.size() is the start, free.size() + 1 the goal.
      const std::size_t start = free.size(), goal = free.size() + 1;
      std::vector<double> width(free.size() + 2, -inf);
      std::priority_queue<std::pair<double, std::size_t>> open;
      width[start] = inf;
      open.push({inf, start});
      const auto near_points = [&](Point p, auto&& f) {
        const int cx = int(std::lround(p.x / h)), cy = int(std::lround(p.y / h));
        for (int y = cy - 2; y <= cy + 2; ++y)
          for (int x = cx - 2; x <= cx + 2; ++x)
            if (x >= 0 && y >= 0 && x < side && y < side && free[id(x, y)] &&
                space->line_of_sight(p, at(x, y)))
              f(id(x, y), space->clearance(p, at(x, y)));
      };
      std::vector<double> to_goal(free.size(), -inf);
      near_points(g, [&](std::size_t n, double w) { to_goal[n] = w; });
      const double direct = space->line_of_sight(s, g) ? space->clearance(s, g) : -inf;
      double best = -inf;
      while (!open.empty()) {
        const auto [w, n] = open.top();
        open.pop();
        if (w < width[n]) continue;
        if (n == goal) {
          best = w;
          break;
        }
        const auto relax = [&](std::size_t to, double through) {
          if (through > width[to]) {
            width[to] = through;
            open.push({through, to});
          }
        };
        if (n == start) {
          near_points(s, [&](std::size_t m, double c) { relax(m, c); });
          relax(goal, direct);
          continue;
        }
        for (const Move& m : moves[n]) relax(m.to, std::min(w, m.width));
        if (to_goal[n] > -inf) relax(goal, std::min(w, to_goal[n]));
      }
      if (best == -inf) continue;  // the grid is too coarse there, or no path
      const PlanResult r = planner->plan(s, g);
      const double b = check_result(*space, checker, r);
      ASSERT_TRUE(r.found()) << r.message;
      ++compared;
      EXPECT_GE(b, best - h) << "from " << s.x << "," << s.y << " to " << g.x << "," << g.y;
    }
  }
  EXPECT_GT(compared, 20);
}

// The bundled scenes (native, a MovingAI map, ROS maps, polygon files, Polyanya meshes): the
// scenes' own queries and random ones give valid paths that report their bottleneck, and a path
// exactly where the visibility graph finds one. Meshes define free space by their faces, not by
// obstacles, so the independent checker cannot judge them; the planner's own exact check does
// (a path failing it is an internal_error).
TEST(ClearanceMethod, BundledScenesGiveValidPaths) {
  std::vector<fs::path> files = test_support::files_in(test_support::bundled_scenes(), ".yaml");
  files.push_back(test_support::bundled_scenes("movingai") / "arena.map");
  for (const char* folder : {"ros", "polygons", "mesh", "mesh/degenerate"})
    for (const char* extension : {".yaml", ".wkt", ".geojson", ".mesh"})
      for (const fs::path& f :
           test_support::files_in(test_support::bundled_scenes(folder), extension))
        files.push_back(f);
  ASSERT_GT(files.size(), 12u);
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    const Scene scene = load_scene(file);
    const auto space = std::make_shared<const FreeSpace>(scene);
    const bool mesh = file.extension() == ".mesh";
    const validity::ExactChecker checker(scene);
    const auto planner = clearance_planner(space);
    const Planner visgraph(space, unsmoothed("visgraph"));
    // A climb limit makes the visibility graph incomplete (a path may have to bend away from
    // corners to climb), so it is no reference there.
    const bool compare = !(space->has_heights() && std::isfinite(scene.agent.max_climb));
    std::vector<std::pair<Point, Point>> queries;
    for (const Query& q : scene.queries) queries.push_back({q.start, q.goal});
    const std::vector<Point> points = free_points(*space, 30, 7);
    for (std::size_t k = 0; k + 1 < points.size(); k += 2)
      queries.push_back({points[k], points[k + 1]});
    int found = 0;
    for (const auto& [s, g] : queries) {
      const PlanResult r = planner->plan(s, g);
      if (mesh) {
        EXPECT_NE(r.status, search::SearchStatus::internal_error) << r.message;
        if (r.found()) {
          EXPECT_TRUE(
              near(reported_bottleneck(r.message), least_clearance(*space, r.waypoints), 1e-9));
        }
      } else {
        check_result(*space, checker, r);
      }
      found += r.found();
      if (r.status == search::SearchStatus::invalid_query || !compare) continue;
      const PlanResult v = visgraph.plan(s, g);
      EXPECT_EQ(r.found(), v.found()) << r.message << " / " << v.message;
    }
    EXPECT_GT(found, 0);
  }
}

// Where free space falls apart, the roadmap joins nothing across (asked directly, not through
// the planner, which answers such queries before any method), and it finds a path wherever the
// visibility graph does.
TEST(ClearanceMethod, NoPathExactlyWhereTheVisibilityGraphFindsNone) {
  std::vector<Scene> scenes;
  Scene split;
  split.bounds = rect(0, 0, 20, 10);
  split.obstacles.push_back({{rect(9, -1, 11, 11), {}}, {}});  // a wall across: two halves
  split.obstacles.push_back({{rect(3, 3, 6, 6), {}}, {}});
  split.obstacles.push_back({{{{13, 2}, {17, 2}, {15, 7}}, {}}, {}});
  scenes.push_back(split);
  Scene pinch;  // two squares touching at a corner close the gap between two rooms
  pinch.bounds = rect(0, 0, 10, 10);
  pinch.obstacles.push_back({{rect(-1, -1, 5, 5), {}}, {}});
  pinch.obstacles.push_back({{rect(5, 5, 11, 11), {}}, {}});
  scenes.push_back(pinch);
  for (unsigned seed = 21; seed <= 24; ++seed) scenes.push_back(random_scene(seed, 0.6));
  int disconnected = 0, connected = 0, through_pinch = 0;
  for (std::size_t i = 0; i <= scenes.size(); ++i) {
    // Last, the pinch again with gaps open: then paths pass through the point.
    const bool open = i == scenes.size();
    const Scene& scene = open ? pinch : scenes[i];
    FreeSpaceOptions space_options;
    space_options.open_gaps = open;
    const FreeSpace space(scene, space_options);
    const auto method = make_clearance_method(space, {});
    const VisibilityGraph graph(space);
    const validity::ExactChecker checker(scene, {.open_gaps = open});
    const std::vector<Point> points = free_points(space, 40, 5);
    for (std::size_t k = 0; k + 1 < points.size(); k += 2) {
      const RawPath r = ask(*method, points[k], points[k + 1]);
      if (r.status == search::SearchStatus::invalid_query) continue;  // an end attaches nowhere
      const RawPath v = find_path(graph, points[k], points[k + 1]);
      EXPECT_EQ(r.status == search::SearchStatus::found, v.status == search::SearchStatus::found)
          << r.message << " / " << v.message << " from " << points[k].x << "," << points[k].y
          << " to " << points[k + 1].x << "," << points[k + 1].y;
      if (r.status == search::SearchStatus::found) {
        EXPECT_TRUE(checker.check_path(r.points).valid());
        ++connected;
        through_pinch += open && (points[k].x < 5.0) != (points[k + 1].x < 5.0);
      } else {
        EXPECT_EQ(r.status, search::SearchStatus::no_path) << r.message;
        ++disconnected;
      }
    }
  }
  EXPECT_GT(disconnected, 5);
  EXPECT_GT(connected, 5);
  EXPECT_GT(through_pinch, 2);
}

// A goal set: the bottleneck is the largest of the goals' own, and the goal reached has it.
TEST(ClearanceMethod, GoalSetsReachAGoalWithTheLargestBottleneck) {
  const Scene scene = random_scene(5, 0.2);
  const auto space = std::make_shared<const FreeSpace>(scene);
  const auto planner = clearance_planner(space);
  const std::vector<Point> points = free_points(*space, 40, 3);
  for (std::size_t k = 0; k + 4 <= points.size(); k += 4) {
    const std::vector<Point> goals(points.begin() + k + 1, points.begin() + k + 4);
    double widest = -inf;
    for (const Point& g : goals) {
      const PlanResult r = planner->plan(points[k], g);
      if (r.found()) widest = std::max(widest, reported_bottleneck(r.message));
    }
    const PlanResult set = planner->plan(points[k], std::span<const Point>(goals));
    if (widest == -inf) {
      EXPECT_FALSE(set.found());
      continue;
    }
    ASSERT_TRUE(set.found()) << set.message;
    EXPECT_TRUE(near(reported_bottleneck(set.message), widest, 1e-9)) << set.message;
    const PlanResult alone = planner->plan(points[k], set.goal);
    EXPECT_TRUE(near(reported_bottleneck(alone.message), widest, 1e-9)) << alone.message;
  }
}

// Reach runs over the roadmap: places in order of cost, within the bound.
TEST(ClearanceMethod, ReachFollowsTheRoadmap) {
  const auto space = std::make_shared<const FreeSpace>(random_scene(2, 0.0));
  const auto planner = clearance_planner(space);
  const Point from = free_points(*space, 1, 9).front();
  const Reach r = planner->reach(from, 8.0);
  ASSERT_EQ(r.status, search::SearchStatus::found) << r.message;
  ASSERT_FALSE(r.places.empty());
  for (std::size_t k = 0; k < r.places.size(); ++k) {
    EXPECT_LE(r.places[k].cost, 8.0);
    if (k > 0) {
      EXPECT_GE(r.places[k].cost, r.places[k - 1].cost);
    }
  }
}

// Budgets and option values are refused with the option's name.
TEST(ClearanceRoadmap, BudgetsAndBadOptionsAreRefused) {
  const FreeSpace space(random_scene(1, 0.0));
  const auto error = [&](ClearanceOptions o) {
    return test::error_of([&] { ClearanceRoadmap roadmap(space, o); });
  };
  ClearanceOptions tiny;
  tiny.max_nodes = 5;
  EXPECT_NE(error(tiny).find("clearance.max_nodes"), std::string::npos) << error(tiny);
  ClearanceOptions none;
  none.max_nodes = 0;
  EXPECT_NE(error(none).find("clearance.max_nodes"), std::string::npos);
  for (const double bad : {-1.0, std::nan(""), inf}) {
    ClearanceOptions o;
    o.arc_tolerance = bad;
    EXPECT_NE(error(o).find("clearance.arc_tolerance"), std::string::npos) << bad;
  }
  ClearanceOptions no_time;
  no_time.max_build_seconds = 0.0;
  EXPECT_NE(error(no_time).find("clearance.max_build_seconds"), std::string::npos);
  // A fine tolerance needs more samples than a budget that the default tolerance meets.
  const std::size_t nodes = ClearanceRoadmap(space).node_count();
  ClearanceOptions fine;
  fine.max_nodes = nodes;
  fine.arc_tolerance = 1e-7;
  EXPECT_NE(error(fine).find("clearance.max_nodes"), std::string::npos);
}

// Degenerate free space: empty, a bare room, a room too small for the agent to do more than
// stand. Never a crash; queries answer with a reason.
TEST(ClearanceMethod, DegenerateFreeSpace) {
  {
    Scene empty;
    empty.bounds = rect(0, 0, 4, 4);
    empty.obstacles.push_back({{rect(-1, -1, 5, 5), {}}, {}});
    const auto space = std::make_shared<const FreeSpace>(empty);
    const auto planner = clearance_planner(space);
    EXPECT_EQ(planner->discretisation().node_count(), 0u);
    const PlanResult r = planner->plan({1, 1}, {3, 3});
    EXPECT_EQ(r.status, search::SearchStatus::invalid_query);
    EXPECT_FALSE(r.message.empty());
  }
  {
    Scene room;
    room.bounds = rect(0, 0, 8, 4);
    const auto space = std::make_shared<const FreeSpace>(room);
    const auto planner = clearance_planner(space);
    EXPECT_GT(planner->discretisation().node_count(), 0u);
    const validity::ExactChecker checker(room);
    // Across the room: the best keeps 2 from the walls only at the middle line; from (1, 1) the
    // start's own clearance 1 bounds every path.
    const PlanResult r = planner->plan({1, 1}, {7, 3});
    ASSERT_TRUE(r.found()) << r.message;
    EXPECT_NEAR(check_result(*space, checker, r), 1.0, 1e-9);
    const PlanResult along = planner->plan({1, 2}, {7, 2});
    ASSERT_TRUE(along.found()) << along.message;
    EXPECT_NEAR(check_result(*space, checker, along), 1.0, 1e-9);
  }
  {
    Scene cell;  // free space is a point or nothing for this agent
    cell.bounds = rect(0, 0, 1, 1);
    cell.agent.radius = 0.5;
    const auto space = std::make_shared<const FreeSpace>(cell);
    const auto planner = clearance_planner(space);
    const PlanResult r = planner->plan({0.5, 0.5}, {0.5, 0.5});
    EXPECT_NE(r.status, search::SearchStatus::internal_error) << r.message;
  }
}

// A free point retracts onto the roadmap straight away from its nearest boundary point: the
// motion keeps the point's own clearance and gains clearance as fast as it moves (up to a few arc
// tolerances, since the point lands on a chord), and lands on the arc it names.
TEST(ClearanceRoadmap, RetractionMovesStraightAwayFromTheBoundary) {
  for (unsigned seed = 31; seed <= 34; ++seed) {
    const FreeSpace space(random_scene(seed, seed % 2 ? 0.0 : 0.3));
    const ClearanceRoadmap roadmap(space);
    const double tolerance = roadmap.build_stats().arc_tolerance;
    int retracted = 0, tried = 0;
    for (const Point& p : free_points(space, 200, seed)) {
      ++tried;
      const std::optional<Retraction> r = roadmap.retraction(p);
      if (!r) continue;
      ++retracted;
      const double own = space.clearance(p, p);
      const double there = space.clearance(r->at, r->at);
      EXPECT_TRUE(space.line_of_sight(p, r->at));
      EXPECT_GE(space.clearance(p, r->at), own - 1e-9);
      // The point lands on a chord, which may lie arc_tolerance off the arc; a ray meeting it at a
      // slant misses the arc by more along the ray (measured: up to 1.6 tolerances here, and
      // 2 with a tolerance of 1e-5), hence three tolerances.
      EXPECT_NEAR(distance(p, r->at), there - own, 3.0 * tolerance + 1e-9);
      const Point a = roadmap.node_position(r->a), b = roadmap.node_position(r->b);
      EXPECT_NEAR(distance(a, r->at) + distance(r->at, b), distance(a, b), 1e-9);
    }
    EXPECT_GE(retracted, tried * 9 / 10);
  }
}

}  // namespace
}  // namespace polynav
