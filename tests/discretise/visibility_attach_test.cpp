// The visibility graph's attachment by triangular expansion (visgraph.attach=expand) against
// the scan of every corner (attach_by_scan): the same nodes and costs, exactly, from corners,
// boundary vertices, pinches, points on edges, lattice points and random points, both ways, on
// every bundled scene and on seeded random scenes, with closed and open gaps; and the edges
// built by expanding from every corner against those of the pair loop (visgraph.attach=scan).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iomanip>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "discretise/random_scenes.hpp"
#include "polynav/discretise/visibility_graph/visibility_graph.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;
const fs::path bundled = fs::path(POLYNAV_SOURCE_DIR) / "scenes";

std::string show(const std::vector<Attachment>& arcs, const VisibilityGraph& graph) {
  std::ostringstream out;
  out.precision(17);
  for (const Attachment& a : arcs) {
    const Point q = graph.node_position(a.node);
    out << " " << a.node << "@(" << q.x << ", " << q.y << ")";
  }
  return out.str();
}

// The points to attach: every boundary vertex (corners and pinches among them), points on
// boundary edges (their midpoints and a third of the way along), lattice points of the scene's
// box and random points; only free ones are kept. At most `most`, evenly sampled.
std::vector<Point> probe_points(const FreeSpace& space, unsigned seed, std::size_t most) {
  std::vector<Point> points;
  for (const BoundaryRing& ring : space.boundary()) {
    const Ring& r = ring.points;
    for (std::size_t k = 0; k < r.size(); ++k) {
      const Point a = r[k], b = r[(k + 1) % r.size()];
      points.push_back(a);
      points.push_back(0.5 * (a + b));
      points.push_back(a + (1.0 / 3.0) * (b - a));
    }
  }
  const Box box = space.box();
  const double step = std::max(box.width(), box.height()) / 24.0;
  const double unit = step >= 1.0 ? std::floor(step) : step;  // whole units on cell maps
  for (double x = std::floor(box.min.x); x <= box.max.x; x += unit)
    for (double y = std::floor(box.min.y); y <= box.max.y; y += unit) points.push_back({x, y});
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> ux(box.min.x, box.max.x), uy(box.min.y, box.max.y);
  for (int k = 0; k < 300; ++k) points.push_back({ux(rng), uy(rng)});
  std::erase_if(points, [&](Point p) { return !space.is_free(p); });
  if (points.size() > most) {
    std::vector<Point> sample;
    const double stride = double(points.size()) / double(most);
    for (std::size_t i = 0; i < most; ++i)
      sample.push_back(points[std::size_t(double(i) * stride)]);
    points = std::move(sample);
  }
  return points;
}

// The graph built by expanding from every corner has the edges of the pair loop (attach =
// scan builds by the pair loop), arc for arc in the same order.
void expect_same_edges(const FreeSpace& space, const VisibilityGraph& graph) {
  VisibilityGraphOptions options;
  options.attach = VisibilityAttach::scan;
  const VisibilityGraph pairs(space, options);
  ASSERT_EQ(graph.node_count(), pairs.node_count());
  EXPECT_EQ(graph.edge_count(), pairs.edge_count());
  for (search::NodeId u = 0; u < graph.node_count(); ++u) {
    const auto a = graph.graph().arcs(u), b = pairs.graph().arcs(u);
    bool same = a.size() == b.size();
    for (std::size_t i = 0; same && i < a.size(); ++i)
      same = a[i].to == b[i].to && a[i].cost == b[i].cost;
    EXPECT_TRUE(same) << std::setprecision(17) << "arcs of node " << u << " at ("
                      << graph.node_position(u).x << ", " << graph.node_position(u).y << ")";
    if (!same) return;
  }
}

// Compares the two attachments at every probe point, both ways, and the edges of the two
// builds; returns the points compared.
std::size_t expect_same_attachments(const FreeSpace& space, unsigned seed, std::size_t most) {
  const VisibilityGraph graph(space);
  EXPECT_TRUE(graph.expands()) << "attach scans instead of expanding";
  expect_same_edges(space, graph);
  std::vector<Attachment> expanded, scanned;
  std::size_t compared = 0;
  for (const Point p : probe_points(space, seed, most)) {
    for (const AttachDirection direction :
         {AttachDirection::from_point, AttachDirection::to_point}) {
      graph.attach(p, direction, expanded);
      graph.attach_by_scan(p, direction, scanned);
      bool same = expanded.size() == scanned.size();
      for (std::size_t i = 0; same && i < expanded.size(); ++i)
        same = expanded[i].node == scanned[i].node && expanded[i].cost == scanned[i].cost;
      EXPECT_TRUE(same) << std::setprecision(17) << "at (" << p.x << ", " << p.y << ")"
                        << (direction == AttachDirection::to_point ? " (to the point)" : "")
                        << "\n  expand:" << show(expanded, graph)
                        << "\n  scan:  " << show(scanned, graph);
      if (!same) return compared;  // one report per scene is enough to debug
      if (direction == AttachDirection::from_point && !graph.directed()) break;
    }
    ++compared;
  }
  return compared;
}

std::vector<fs::path> bundled_scenes() {
  std::vector<fs::path> scenes;
  for (const fs::path& dir :
       {bundled, bundled / "movingai", bundled / "mesh", bundled / "mesh" / "degenerate",
        bundled / "ros", bundled / "polygons"}) {
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string ext = e.path().extension().string();
      if (ext == ".json" || ext == ".map" || ext == ".mesh" || ext == ".wkt" || ext == ".geojson" ||
          ext == ".yaml")
        scenes.push_back(e.path());
    }
  }
  std::sort(scenes.begin(), scenes.end());
  return scenes;
}

class AttachOnScene : public testing::TestWithParam<fs::path> {};

TEST_P(AttachOnScene, ExpansionFindsTheCornersTheScanFinds) {
  const Scene scene = load_scene(GetParam());
  std::size_t compared = 0;
  for (const bool open : {false, true}) {
    SCOPED_TRACE(open ? "space.gaps=open" : "space.gaps=closed");
    FreeSpaceOptions options;
    options.open_gaps = open;
    const FreeSpace space(scene, options);
    if (space.corners().size() > 6000) GTEST_SKIP() << "too many corners to scan in a test";
    compared += expect_same_attachments(space, 7, 700);
  }
  EXPECT_GT(compared, 10u);
}

INSTANTIATE_TEST_SUITE_P(Bundled, AttachOnScene, testing::ValuesIn(bundled_scenes()),
                         [](const testing::TestParamInfo<fs::path>& param) {
                           std::string name = param.param.parent_path().filename().string() + "_" +
                                              param.param.filename().string();
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

TEST(VisibilityAttach, RandomScenesAttachAsTheScanDoes) {
  std::size_t compared = 0;
  for (unsigned seed = 1; seed <= 16; ++seed) {
    for (const double radius : {0.0, 0.3}) {
      for (const bool open : {false, true}) {
        SCOPED_TRACE("seed " + std::to_string(seed) + ", radius " + std::to_string(radius) +
                     (open ? ", open gaps" : ""));
        FreeSpaceOptions options;
        options.open_gaps = open;
        compared += expect_same_attachments(FreeSpace(test::random_scene(seed, radius), options),
                                            seed, 400);
      }
    }
  }
  EXPECT_GT(compared, 10000u);
}

// Rectangles on a unit lattice that overlap, share edges, touch at corners and line up: every
// lattice point probed lies on many lines through corners.
TEST(VisibilityAttach, LatticeScenesWithPinchesAndCollinearCorners) {
  std::size_t compared = 0;
  for (unsigned seed = 1; seed <= 12; ++seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> coord(1, 17), size(1, 4);
    Scene scene;
    scene.bounds = test::rect(0, 0, 20, 20);
    for (int k = 0; k < 18; ++k) {
      const int x = coord(rng), y = coord(rng);
      scene.obstacles.push_back(
          {{test::rect(x, y, std::min(x + size(rng), 19), std::min(y + size(rng), 19)), {}}, {}});
    }
    for (const bool open : {false, true}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + (open ? ", open gaps" : ""));
      FreeSpaceOptions options;
      options.open_gaps = open;
      compared += expect_same_attachments(FreeSpace(scene, options), seed, 600);
    }
  }
  EXPECT_GT(compared, 5000u);
}

// Heights with a climb limit make attachments one way: each direction is checked on its own.
TEST(VisibilityAttach, HeightsAttachEachWayAsTheScanDoes) {
  Scene scene = test::random_scene(4, 0.0);
  scene.agent.max_climb = 0.5;
  Region plateau;
  plateau.polygon = test::rect(5, 5, 12, 12);
  plateau.height = 1.0;
  scene.regions.push_back(plateau);
  const FreeSpace space(scene);
  ASSERT_TRUE(VisibilityGraph(space).directed());
  EXPECT_GT(expect_same_attachments(space, 4, 600), 100u);
}

TEST(VisibilityAttach, TheOptionChoosesTheScan) {
  const auto space = std::make_shared<const FreeSpace>(test::random_scene(2, 0.0));
  VisibilityGraphOptions options;
  options.attach = VisibilityAttach::scan;
  EXPECT_FALSE(VisibilityGraph(*space, options).expands());
  EXPECT_TRUE(VisibilityGraph(*space).expands());
  EXPECT_EQ(parse_visibility_attach("scan"), VisibilityAttach::scan);
  EXPECT_THROW(parse_visibility_attach("sweep"), InputError);
  PlanOptions plan;
  plan.method = "visgraph";
  plan.smoother = "none";
  plan.settings.set("visgraph.attach", "scan");
  const Planner scan(space, plan);
  plan.settings.set("visgraph.attach", "expand");
  const Planner expand(space, plan);
  for (const Point goal : {Point{19, 19}, Point{1, 18}, Point{18, 1}}) {
    const PlanResult a = scan.plan({1, 1}, goal), b = expand.plan({1, 1}, goal);
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.raw_waypoints, b.raw_waypoints);
  }
}

}  // namespace
}  // namespace polynav
