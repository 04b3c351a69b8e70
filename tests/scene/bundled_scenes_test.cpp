// The hand-made scenes in scenes/: each loads, is 20 to 60 units across, and has two to four
// named queries whose start and goal lie well inside free space (at least twice the agent's
// radius from every wall), so the planners' tests can rely on them.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "polynav/scene/scene.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

const fs::path scenes_dir = fs::path(POLYNAV_SOURCE_DIR) / "scenes";

std::vector<std::string> native_scenes() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(scenes_dir)) {
    const std::string ext = entry.path().extension().string();
    if (entry.is_regular_file() && (ext == ".yaml" || ext == ".yml" || ext == ".json")) {
      names.push_back(entry.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Plain floating-point geometry is enough here: the margins checked are far larger than any
// rounding.
double distance_to_segment(Point p, Point a, Point b) {
  const Point ab = b - a;
  const double len2 = dot(ab, ab);
  const double t = len2 > 0 ? std::clamp(dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
  return distance(p, a + t * ab);
}

double distance_to_ring(Point p, const Ring& ring) {
  double d = INFINITY;
  for (std::size_t i = 0; i < ring.size(); ++i) {
    d = std::min(d, distance_to_segment(p, ring[i], ring[(i + 1) % ring.size()]));
  }
  return d;
}

bool inside(Point p, const Ring& ring) {
  bool in = false;
  for (std::size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++) {
    const Point a = ring[i];
    const Point b = ring[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) {
      in = !in;
    }
  }
  return in;
}

// Why `p` is not comfortably in free space, or "" when it is.
std::string problem_with(Point p, const Scene& s) {
  const double margin = std::max(2 * s.agent.radius, 0.1);
  if (!inside(p, s.bounds)) return "outside the bounds";
  if (distance_to_ring(p, s.bounds) < margin) return "too close to the bounds";
  for (std::size_t i = 0; i < s.obstacles.size(); ++i) {
    const Polygon& o = s.obstacles[i].shape;
    const std::string which = "obstacles[" + std::to_string(i) + "]";
    if (distance_to_ring(p, o.outer) < margin) return "too close to " + which;
    bool in_hole = false;
    for (const Ring& h : o.holes) {
      if (distance_to_ring(p, h) < margin) return "too close to a hole of " + which;
      in_hole = in_hole || inside(p, h);
    }
    if (inside(p, o.outer) && !in_hole) return "inside " + which;
  }
  return "";
}

class BundledScene : public testing::TestWithParam<std::string> {};

TEST_P(BundledScene, LoadsAndHasComfortableQueries) {
  const Scene s = load_scene(scenes_dir / GetParam());
  EXPECT_FALSE(s.name.empty());
  const Box box = bounding_box(s.bounds);
  EXPECT_GE(box.width(), 20);
  EXPECT_LE(box.width(), 60);
  EXPECT_GE(box.height(), 20);
  EXPECT_LE(box.height(), 60);
  EXPECT_GE(s.queries.size(), 2u);
  EXPECT_LE(s.queries.size(), 4u);
  for (const Query& q : s.queries) {
    EXPECT_FALSE(q.name.empty()) << q.where.to_string();
    EXPECT_EQ(problem_with(q.start, s), "") << q.name << " start";
    EXPECT_EQ(problem_with(q.goal, s), "") << q.name << " goal";
  }
}

std::string test_name(const testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  for (char& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return s;
}

INSTANTIATE_TEST_SUITE_P(Scenes, BundledScene, testing::ValuesIn(native_scenes()), test_name);

TEST(BundledScenes, AreAllThere) {
  const std::vector<std::string> names = native_scenes();
  for (const char* name : {"warehouse.yaml", "warehouse.json", "office.yaml", "forest.yaml",
                           "maze.yaml", "terrain.yaml", "island.yaml"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
}

TEST(BundledScenes, ExerciseWhatTheirHeadersSay) {
  const Scene warehouse = load_scene(scenes_dir / "warehouse.yaml");
  EXPECT_EQ(warehouse.agent.radius, 0.25);

  const Scene terrain = load_scene(scenes_dir / "terrain.yaml");
  EXPECT_EQ(terrain.agent.max_climb, 1.0);
  const auto region = [&](const std::string& name) -> const Region* {
    for (const Region& r : terrain.regions) {
      if (r.name == name) return &r;
    }
    return nullptr;
  };
  ASSERT_NE(region("mud"), nullptr);
  EXPECT_EQ(region("mud")->cost, 3.0);
  ASSERT_NE(region("north-road"), nullptr);
  EXPECT_EQ(region("north-road")->cost, 0.5);
  ASSERT_NE(region("plateau"), nullptr);
  EXPECT_EQ(region("plateau")->height, 2.0);

  // The island scene's courtyard query has both ends inside the wall's hole.
  const Scene island = load_scene(scenes_dir / "island.yaml");
  ASSERT_FALSE(island.obstacles.empty());
  ASSERT_EQ(island.obstacles[0].shape.holes.size(), 1u);
  const Ring& courtyard = island.obstacles[0].shape.holes[0];
  bool into_hole = false;
  for (const Query& q : island.queries) into_hole = into_hole || inside(q.goal, courtyard);
  EXPECT_TRUE(into_hole);
}

}  // namespace
}  // namespace polynav
