// Planner::flee: the cheapest path to a free point at least a distance (straight line) from
// every threat. Checked against brute force: every candidate end planned on its own, and a fine
// lattice of free points for the continuous methods; the end's distance decided exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>

#include "polynav/kernel/exact.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/plan/registry.hpp"

namespace polynav {
namespace {

Ring rect(double x0, double y0, double x1, double y1) {
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

// A 12 x 10 room with a wall that has a door, a box and a pillar: the way out of a threat's
// circle is often not straight away from it.
Scene room() {
  Scene scene;
  scene.name = "room";
  scene.bounds = rect(0, 0, 12, 10);
  scene.obstacles.push_back({{rect(6, 0, 6.5, 4), {}}, {}});
  scene.obstacles.push_back({{rect(6, 5.5, 6.5, 10), {}}, {}});
  scene.obstacles.push_back({{rect(2, 6, 4, 7.5), {}}, {}});
  scene.obstacles.push_back({{{{9, 2}, {10, 3}, {9, 4}}, {}}, {}});
  return scene;
}

PlanOptions options_for(const std::string& method, const std::string& smoother = "none") {
  PlanOptions options;
  options.method = method;
  options.smoother = smoother;
  return options;
}

bool far_enough(Point p, std::span<const Point> threats, double distance) {
  return std::all_of(threats.begin(), threats.end(),
                     [&](Point t) { return exact::compare_distance(p, t, distance) >= 0; });
}

TEST(Flee, EveryMethodEndsFarEnoughOnAValidPath) {
  const Scene scene = room();
  const std::vector<Point> threats = {{3, 3}, {4.5, 4.5}};
  for (const std::string& method : method_names()) {
    for (const std::string smoother : {"none", "shortcut"}) {
      const Planner planner(scene, options_for(method, smoother));
      const PlanResult r = planner.flee({3.5, 3.5}, threats, 3.0);
      ASSERT_TRUE(r.found()) << method << ": " << r.message;
      EXPECT_TRUE(far_enough(r.goal, threats, 3.0)) << method;
      EXPECT_EQ(r.waypoints.back(), r.goal) << method;
      EXPECT_EQ(r.waypoints.front(), r.start) << method;
      EXPECT_TRUE(planner.free_space().is_free(r.goal)) << method;
      // Any way out of the deeper circle is at least as long as the depth.
      const double depth = 3.0 - distance(Point{3.5, 3.5}, Point{4.5, 4.5});
      EXPECT_GE(r.length, depth - 1e-12) << method;
    }
  }
}

// The grid: the answer costs exactly the least of every candidate end (each admitted cell
// centre and circle point) planned on its own, and nothing cheaper admitted exists among them.
TEST(Flee, OnAGridNoAdmittedCellOrCirclePointIsCheaper) {
  const Scene scene = room();
  for (const std::string search : {"astar", "jps"}) {
    PlanOptions options = options_for("grid");
    options.settings.set("grid.resolution", 0.5);
    options.settings.set("grid.search", search);
    const Planner planner(scene, options);
    for (const auto& [start, threats, distance] :
         std::vector<std::tuple<Point, std::vector<Point>, double>>{
             {{3.3, 4.1}, {{3.0, 4.0}}, 3.5},
             {{8.2, 6.6}, {{8.0, 5.0}, {10.0, 7.0}}, 2.75},
             {{1.2, 1.3}, {{1.0, 1.0}}, 6.0}}) {
      const PlanResult r = planner.flee(start, threats, distance);
      ASSERT_TRUE(r.found()) << r.message;
      EXPECT_TRUE(far_enough(r.goal, threats, distance));
      std::vector<Point> candidates;
      const Discretisation& d = planner.discretisation();
      for (std::size_t n = 0; n < d.node_count(); ++n)
        candidates.push_back(d.node_position(search::NodeId(n)));
      for (const Point& t : threats)
        for (std::size_t k = 0; k < Planner::flee_places_per_threat; ++k) {
          const double a = 2 * M_PI * double(k) / double(Planner::flee_places_per_threat);
          candidates.push_back({t.x + distance * (1 + 1e-12) * std::cos(a),
                                t.y + distance * (1 + 1e-12) * std::sin(a)});
        }
      double best = std::numeric_limits<double>::infinity();
      std::size_t admitted = 0;
      for (const Point& c : candidates) {
        if (!far_enough(c, threats, distance) || !planner.free_space().is_free(c)) continue;
        ++admitted;
        const PlanResult to = planner.plan(start, c);
        if (to.found()) best = std::min(best, to.raw_cost);
      }
      ASSERT_GT(admitted, 10u);
      std::cout << search << ": flee " << r.raw_cost << ", best of " << admitted << " ends " << best
                << "\n";
      EXPECT_NEAR(r.raw_cost, best, 1e-9 * best) << search << " from " << start.x << "," << start.y;
    }
  }
}

// The continuous methods: no free point of a fine lattice that far is cheaper to reach than the
// answer by more than the circle's sampling allows (a chord of 2 pi / places).
TEST(Flee, OnContinuousMethodsNoLatticePointIsCheaper) {
  const Scene scene = room();
  const std::vector<Point> threats = {{3.5, 3.0}};
  const double distance = 3.2;
  const Point start{3.0, 3.5};
  const double chord = 2 * distance * std::sin(M_PI / double(Planner::flee_places_per_threat));
  for (const std::string method : {"visgraph", "navmesh"}) {
    PlanOptions options = options_for(method);
    if (method == "navmesh") options.settings.set("navmesh.search", "optimal");
    const Planner planner(scene, options);
    const PlanResult r = planner.flee(start, threats, distance);
    ASSERT_TRUE(r.found()) << r.message;
    double best = std::numeric_limits<double>::infinity();
    std::size_t tried = 0;
    for (double x = 0.125; x < 12; x += 0.25)
      for (double y = 0.125; y < 10; y += 0.25) {
        const Point p{x, y};
        if (!far_enough(p, threats, distance) || !planner.free_space().is_free(p)) continue;
        const PlanResult to = planner.plan(start, p);
        ++tried;
        if (to.found()) best = std::min(best, to.cost);
      }
    ASSERT_GT(tried, 500u);
    EXPECT_LE(r.cost, best + chord) << method;
    std::cout << method << ": flee " << r.cost << ", best lattice point " << best << "\n";
    EXPECT_GE(r.cost, distance - std::hypot(0.5, 0.5) - 1e-12) << method;
  }
}

TEST(Flee, AStartAlreadyFarEnoughIsItsOwnAnswer) {
  const Planner planner(room(), options_for("grid"));
  const std::vector<Point> threats = {{10, 8}};
  const PlanResult r = planner.flee({1, 1}, threats, 2.0);
  ASSERT_TRUE(r.found()) << r.message;
  EXPECT_EQ(r.goal, (Point{1, 1}));
  EXPECT_EQ(r.length, 0.0);
}

TEST(Flee, BadQueriesAreRefusedWithTheReason) {
  const Planner planner(room(), options_for("visgraph"));
  const std::vector<Point> one = {{3, 3}};
  const std::vector<Point> none;
  const std::vector<Point> nan_threat = {{3, 3}, {NAN, 1}};
  const auto refused = [&](const PlanResult& r, const std::string& words) {
    EXPECT_EQ(r.status, search::SearchStatus::invalid_query) << r.message;
    EXPECT_NE(r.message.find(words), std::string::npos) << r.message;
  };
  refused(planner.flee({1, 1}, none, 2.0), "at least one threat");
  refused(planner.flee({1, 1}, nan_threat, 2.0), "threat 2");
  refused(planner.flee({1, 1}, one, -1.0), "finite number >= 0");
  refused(planner.flee({1, 1}, one, INFINITY), "finite number >= 0");
  refused(planner.flee({3, 6.5}, one, 2.0), "start (3, 6.5) is not in free space");
  // No free point of the room is 20 from its middle.
  const std::vector<Point> middle = {{6, 5}};
  for (const std::string& method : method_names()) {
    const Planner p(room(), options_for(method));
    const PlanResult r = p.flee({1, 1}, middle, 20.0);
    EXPECT_EQ(r.status, search::SearchStatus::no_path) << method << ": " << r.message;
    EXPECT_NE(r.message.find("at least 20"), std::string::npos) << method << ": " << r.message;
  }
}

// A threat in a closed room: far enough is outside it, which the start cannot reach.
TEST(Flee, NoEscapeFromAClosedRoomIsNoPath) {
  Scene scene;
  scene.bounds = rect(0, 0, 10, 10);
  scene.obstacles.push_back({{rect(2, 2, 8, 8), {rect(3, 3, 7, 7)}}, {}});
  for (const std::string method : {"grid", "visgraph", "navmesh"}) {
    const Planner planner(scene, options_for(method));
    const std::vector<Point> threats = {{5, 5}};
    const PlanResult r = planner.flee({4, 4}, threats, 3.5);
    EXPECT_EQ(r.status, search::SearchStatus::no_path) << method << ": " << r.message;
  }
}

}  // namespace
}  // namespace polynav
