// Conversion to native scenes (export_native_scene): every bundled input, written as a native
// YAML scene and read back, has the same free space and plans to the same lengths (1e-9
// relative) with every method that does not rebuild polygons of its own; what cannot be
// represented is refused, and what is kept only in another form is noted.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "polynav/plan/planner.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"
#include "polynav/text.hpp"
#include "scene/error_of.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> bundled_inputs() {
  const fs::path scenes = fs::path(POLYNAV_SOURCE_DIR) / "scenes";
  std::vector<fs::path> inputs;
  for (const auto& e : fs::recursive_directory_iterator(scenes)) {
    const std::string ext = e.path().extension().string();
    if (ext == ".yaml" || ext == ".json" || ext == ".map" || ext == ".mesh" || ext == ".wkt" ||
        ext == ".geojson") {
      inputs.push_back(e.path());
    }
  }
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

// Points to plan between: the scene's own queries, or free points of a fixed lattice over the
// bounds (its offsets keep them off cell sides and vertices).
std::vector<std::pair<Point, Point>> queries_for(const Scene& scene, const FreeSpace& space) {
  std::vector<std::pair<Point, Point>> queries;
  for (const Query& q : scene.queries) queries.emplace_back(q.start, q.goal);
  if (!queries.empty()) return queries;
  const Box b = bounding_box(scene.bounds);
  std::vector<Point> free;
  for (int i = 0; i < 9; ++i) {
    for (int j = 0; j < 9; ++j) {
      const Point p{b.min.x + b.width() * (0.05 + 0.1107 * i),
                    b.min.y + b.height() * (0.05 + 0.1093 * j)};
      if (space.is_free(p)) free.push_back(p);
    }
  }
  for (std::size_t k = 0; k + 1 < free.size() && queries.size() < 6; k += 3) {
    queries.emplace_back(free[k], free[free.size() - 1 - k]);
  }
  return queries;
}

void expect_same_plans(const Scene& original, const Scene& converted, const std::string& method) {
  SCOPED_TRACE(method);
  const auto a = std::make_shared<const FreeSpace>(original);
  const auto b = std::make_shared<const FreeSpace>(converted);
  PlanOptions options;
  options.method = method;
  options.smoother = "none";
  const Planner pa(a, options);
  const Planner pb(b, options);
  const auto queries = queries_for(original, *a);
  ASSERT_FALSE(queries.empty());
  std::size_t found = 0;
  for (const auto& [start, goal] : queries) {
    const PlanResult ra = pa.plan(start, goal);
    const PlanResult rb = pb.plan(start, goal);
    ASSERT_EQ(ra.status, rb.status)
        << start.x << "," << start.y << " -> " << goal.x << "," << goal.y;
    if (!ra.found()) continue;
    ++found;
    EXPECT_NEAR(ra.length, rb.length, 1e-9 * std::max(1.0, ra.length));
    EXPECT_NEAR(ra.cost, rb.cost, 1e-9 * std::max(1.0, ra.cost));
  }
  EXPECT_GT(found, 0u) << "no query found a path: the comparison would say nothing";
}

void round_trip(const fs::path& path, const LoadOptions& load = {}) {
  SCOPED_TRACE(path.string());
  const Scene scene = load_scene(path, load);
  const NativeExport exported = export_native_scene(scene);
  const Scene back = parse_native_scene(exported.text, "converted.yaml");
  EXPECT_EQ(back.name, scene.name);
  EXPECT_EQ(back.native_cell_size, scene.native_cell_size);
  EXPECT_EQ(back.agent.radius, scene.agent.radius);
  EXPECT_EQ(back.queries.size(), scene.queries.size());
  EXPECT_EQ(back.regions.size(), scene.regions.size());
  // Nothing is lost silently: sources with more than native obstacles say what becomes of it,
  // and what the reader did not use is noted again.
  const bool given_free_space = !scene.free_boundary.empty();
  EXPECT_EQ(!exported.notes.empty(), given_free_space || !scene.unused.empty())
      << exported.text.substr(0, 400);
  for (const std::string& u : scene.unused) {
    EXPECT_NE(std::find(exported.notes.begin(), exported.notes.end(), u), exported.notes.end());
    EXPECT_NE(exported.text.find("# Note: " + u), std::string::npos);
  }
  const FreeSpace a(scene), b(back);
  EXPECT_NEAR(a.area(), b.area(), 1e-9 * std::max(1.0, a.area()));
  // The navigation mesh triangulates free space itself, from boundary rings that differ in
  // collinear vertices (and uses a mesh's own faces), so it is compared only where the native
  // scene is the same scene.
  std::vector<std::string> methods = {"grid", "quadtree", "visgraph"};
  if (!given_free_space) methods.push_back("navmesh");
  for (const std::string& m : methods) expect_same_plans(scene, back, m);
}

TEST(Convert, EveryBundledInputPlansTheSameAfterConversion) {
  std::size_t converted = 0;
  for (const fs::path& path : bundled_inputs()) {
    if (path.filename() == "walls-v3.mesh") continue;  // refused, below
    round_trip(path);
    ++converted;
    if (HasFatalFailure()) return;
  }
  EXPECT_GE(converted, 20u);
}

TEST(Convert, SimplifiedMapsPlanTheSameAfterConversion) {
  const fs::path ros = fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "ros";
  round_trip(ros / "depot.yaml", {.simplify = 0.3});
  round_trip(ros / "turtlebot3_world.yaml", {.unknown = UnknownCells::free, .simplify = 0.15});
  round_trip(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "movingai" / "arena.map", {.simplify = 1.5});
}

// A rotated map converts to the same free space: its rectangles, fills and bounds (written with
// every lattice point of the border) meet at shared vertices, so the native scene's union of them
// leaves no sliver along a rectangle's side. The grid method differs (the native scene's cells
// follow its axes) and the quadtree's root may move by a rounding, so the visibility graph
// compares the plans.
TEST(Convert, RotatedMapsKeepTheirFreeSpace) {
  const fs::path ros = fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "ros";
  const fs::path dir = fs::temp_directory_path() / "polynav_convert_rotated";
  fs::create_directories(dir);
  for (const auto& [name, image, origin] :
       {std::tuple{"depot", "depot.pgm", "[0.0, 0.0, 0.7]"},
        std::tuple{"turtlebot3_world", "turtlebot3_world.pgm", "[-3.2, -2.8, -2.5]"}}) {
    const fs::path yaml = dir / (std::string(name) + ".yaml");
    std::ofstream(yaml) << "image: " << (ros / image).string()
                        << "\nresolution: 0.1\norigin: " << origin
                        << "\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\n";
    for (const double simplify : {0.0, 0.15}) {
      SCOPED_TRACE(std::string(name) + " simplify " + std::to_string(simplify));
      const Scene scene = load_scene(yaml, {.simplify = simplify});
      const NativeExport exported = export_native_scene(scene);
      EXPECT_NE(exported.notes.front().find("the map's yaw"), std::string::npos);
      const Scene back = parse_native_scene(exported.text, "converted.yaml");
      const FreeSpace a(scene), b(back);
      EXPECT_NEAR(a.area(), b.area(), 1e-12 * a.area());
      // No sliver along a rectangle's side: a sliver would be a component of its own and more
      // edges. (The rotated outline's vertices are rounded off its straight lines, while the
      // rectangles' sides run straight through them, so the converted boundary has fewer.)
      EXPECT_EQ(a.component_count(), b.component_count());
      EXPECT_LE(b.edge_count(), a.edge_count());
      expect_same_plans(scene, back, "visgraph");
    }
  }
  fs::remove_all(dir);
}

TEST(Convert, WallsOfZeroWidthAreRefused) {
  const fs::path walls = fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "mesh" / "walls-v3.mesh";
  const Scene scene = load_scene(walls);
  EXPECT_EQ(test::error_of([&] { export_native_scene(scene); }),
            walls.string() +
                ": the mesh has 4 walls of zero width (constrained edges between traversable "
                "faces), which native obstacles cannot represent");
}

TEST(Convert, FreeRegionsTouchingAtAPointAreRefused) {
  // Two free squares meeting at (1, 1): both would be holes of the one obstacle around them.
  Scene scene;
  scene.source = "touch";
  scene.bounds = {{0, 0}, {2, 0}, {2, 2}, {0, 2}};
  scene.free_boundary = {{{0, 0}, {1, 0}, {1, 1}, {0, 1}}, {{1, 1}, {2, 1}, {2, 2}, {1, 2}}};
  EXPECT_EQ(test::error_of([&] { export_native_scene(scene); }),
            "touch: free regions touch at the single point [1, 1] where they would both be holes "
            "of one native obstacle; the native format does not allow holes that touch, so this "
            "free space cannot be converted");
}

TEST(Convert, NamesAndNumbersSurviveExactly) {
  Scene scene;
  scene.name = "a \"quoted\"\tname";
  scene.bounds = {{0.1, 0.2}, {1e6 / 3, 0.2}, {1e6 / 3, 7.0 / 3}, {0.1, 7.0 / 3}};
  scene.agent.radius = 0.1;
  scene.agent.max_climb = 0.75;
  scene.regions.push_back({"mud: \\deep", 2.5, 1.25, {{1, 1}, {2, 1}, {2, 2}}, {}});
  scene.queries.push_back({"q:1", {0.3, 0.4}, {5, 2}, std::nullopt, {}});
  const Scene back = parse_native_scene(export_native_scene(scene).text, "n.yaml");
  EXPECT_EQ(back.name, scene.name);
  EXPECT_EQ(back.bounds, scene.bounds);
  EXPECT_EQ(back.agent.radius, 0.1);
  EXPECT_EQ(back.agent.max_climb, 0.75);
  ASSERT_EQ(back.regions.size(), 1u);
  EXPECT_EQ(back.regions[0].name, "mud: \\deep");
  EXPECT_EQ(back.regions[0].height, 1.25);
  ASSERT_EQ(back.queries.size(), 1u);
  EXPECT_EQ(back.queries[0].name, "q:1");
  EXPECT_EQ(back.queries[0].start, (Point{0.3, 0.4}));
}

// Names need not be UTF-8 (a scene named after a file name) nor printable: the export is valid
// UTF-8 that reads back, with U+FFFD for what is not UTF-8 (text.hpp) and every other character
// kept; the comment lines stay comments, whatever the source's name holds.
TEST(Convert, NamesThatAreNotUtf8OrPrintableReadBack) {
  Scene scene;
  scene.source = "maps/bad\xFF\nname.yaml";
  scene.name = "bad\xFF";
  scene.bounds = {{0, 0}, {4, 0}, {4, 3}, {0, 3}};
  scene.unused.push_back("the key 'odd\nkey' is not read");
  const std::string controls = "c1\xC2\x80\xC2\x85\xC2\x9F bell\x07 bom\xEF\xBB\xBF ff\xEF\xBF\xBF";
  scene.regions.push_back({controls, 2, std::nullopt, {{1, 1}, {2, 1}, {2, 2}}, {}});
  scene.queries.push_back({"q\xE2\x82", {0.5, 0.5}, {3, 2}, std::nullopt, {}});
  const std::string text = export_native_scene(scene).text;
  EXPECT_TRUE(is_valid_utf8(text)) << text;
  std::size_t comments = 0;
  for (std::size_t at = 0; (at = text.find("\n#", at)) != std::string::npos; ++at) ++comments;
  EXPECT_EQ(comments, 1u) << text;  // the first line is one too, and one note follows it
  const Scene back = parse_native_scene(text, "n.yaml");
  EXPECT_EQ(back.name, "bad\xEF\xBF\xBD");
  ASSERT_EQ(back.regions.size(), 1u);
  EXPECT_EQ(back.regions[0].name, controls);
  ASSERT_EQ(back.queries.size(), 1u);
  EXPECT_EQ(back.queries[0].name, "q\xEF\xBF\xBD");
}

}  // namespace
}  // namespace polynav
