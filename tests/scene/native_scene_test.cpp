// The native scene reader: what it accepts and the model it builds, the JSON corner cases the
// shared YAML parser must get right, and the refusals that need a generated input (huge files,
// unknown extensions, missing files).

#include <gtest/gtest.h>

#include <unistd.h>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "polynav/scene/scene.hpp"
#include "scene/error_of.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

using test::error_of;

// A scratch directory removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() /
            ("polynav-scene-test-" + std::to_string(::getpid()) + "-" + std::to_string(next_++));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name, std::ios::binary) << text;
    return path_ / name;
  }
  const fs::path& path() const { return path_; }

 private:
  static inline int next_ = 0;
  fs::path path_;
};

constexpr const char* every_key = R"(version: 1
name: demo
bounds: [[0, 0], [40, 0], [40, 25], [0, 25]]
agent:
  radius: 0.25
  max_climb: 0.5
obstacles:
  - [[5, 5], [10, 5], [10, 8], [5, 8]]
  - outer: [[20, 2], [30, 2], [30, 12], [20, 12]]
    holes:
      - [[22, 4], [28, 4], [28, 10], [22, 10]]
regions:
  - name: mud
    cost: 3.0
    height: 1.5
    polygon: [[12, 15], [18, 15], [18, 20], [12, 20]]
queries:
  - name: dock-to-shelf
    start: [1, 1]
    goal: [38, 20]
)";

TEST(NativeScene, ReadsEveryKey) {
  const Scene s = parse_native_scene(every_key, "demo.yaml");
  EXPECT_EQ(s.name, "demo");
  EXPECT_EQ(s.bounds, (Ring{{0, 0}, {40, 0}, {40, 25}, {0, 25}}));
  EXPECT_EQ(s.agent.radius, 0.25);
  EXPECT_EQ(s.agent.max_climb, 0.5);
  ASSERT_EQ(s.obstacles.size(), 2u);
  EXPECT_EQ(s.obstacles[0].shape.outer, (Ring{{5, 5}, {10, 5}, {10, 8}, {5, 8}}));
  EXPECT_TRUE(s.obstacles[0].shape.holes.empty());
  ASSERT_EQ(s.obstacles[1].shape.holes.size(), 1u);
  EXPECT_EQ(s.obstacles[1].shape.holes[0], (Ring{{22, 4}, {28, 4}, {28, 10}, {22, 10}}));
  ASSERT_EQ(s.regions.size(), 1u);
  EXPECT_EQ(s.regions[0].name, "mud");
  EXPECT_EQ(s.regions[0].cost, 3.0);
  EXPECT_EQ(s.regions[0].height, 1.5);
  EXPECT_EQ(s.regions[0].polygon.size(), 4u);
  ASSERT_EQ(s.queries.size(), 1u);
  EXPECT_EQ(s.queries[0].name, "dock-to-shelf");
  EXPECT_EQ(s.queries[0].start, (Point{1, 1}));
  EXPECT_EQ(s.queries[0].goal, (Point{38, 20}));
  EXPECT_FALSE(s.queries[0].reference_length.has_value());
  EXPECT_FALSE(s.cell_map.has_value());
  EXPECT_TRUE(s.free_boundary.empty());
}

TEST(NativeScene, RecordsWhereEachElementWasWritten) {
  const Scene s = parse_native_scene(every_key, "demo.yaml");
  EXPECT_EQ(s.obstacles[0].where.file, "demo.yaml");
  EXPECT_EQ(s.obstacles[0].where.line, 8);
  EXPECT_EQ(s.obstacles[0].where.column, 5);
  EXPECT_EQ(s.obstacles[0].where.key_path, "obstacles[0]");
  EXPECT_EQ(s.obstacles[1].where.line, 9);
  EXPECT_EQ(s.obstacles[1].where.key_path, "obstacles[1]");
  EXPECT_EQ(s.regions[0].where.line, 13);
  EXPECT_EQ(s.regions[0].where.column, 5);
  EXPECT_EQ(s.regions[0].where.key_path, "regions[0]");
  EXPECT_EQ(s.queries[0].where.line, 18);
  EXPECT_EQ(s.queries[0].where.key_path, "queries[0]");
  EXPECT_EQ(s.queries[0].where.to_string(), "demo.yaml:18:5: queries[0]");
}

TEST(NativeScene, AppliesDefaults) {
  const Scene s = parse_native_scene("version: 1\nbounds: [[0, 0], [20, 0], [20, 20]]\n",
                                     "dir/plain-scene.yaml");
  EXPECT_EQ(s.name, "plain-scene");
  EXPECT_EQ(s.agent.radius, 0.0);
  EXPECT_TRUE(std::isinf(s.agent.max_climb));
  EXPECT_TRUE(s.obstacles.empty());
  EXPECT_TRUE(s.regions.empty());
  EXPECT_TRUE(s.queries.empty());
}

TEST(NativeScene, OptionalValuesMayBeLeftEmpty) {
  const Scene s = parse_native_scene(
      "version: 1\nbounds: [[0, 0], [20, 0], [20, 20]]\nagent:\nobstacles:\nregions: []\n"
      "queries:\n  - start: [1, 1]\n    goal: [2, 2]\n    name:\n",
      "s.yaml");
  EXPECT_EQ(s.agent.radius, 0.0);
  EXPECT_TRUE(s.obstacles.empty());
  ASSERT_EQ(s.queries.size(), 1u);
  EXPECT_EQ(s.queries[0].name, "");
}

TEST(NativeScene, RegionHeightIsOptional) {
  const Scene s = parse_native_scene(
      "version: 1\nbounds: [[0, 0], [20, 0], [20, 20]]\n"
      "regions: [{cost: 0.5, polygon: [[1, 1], [3, 1], [3, 3]]}, {cost: 2, height: -1, polygon: "
      "[[1, 1], [3, 1], [3, 3]]}]\n",
      "s.yaml");
  ASSERT_EQ(s.regions.size(), 2u);
  EXPECT_FALSE(s.regions[0].height.has_value());
  EXPECT_EQ(s.regions[1].height, -1.0);
}

TEST(NativeScene, MaxClimbMayBeInfinite) {
  const Scene s = parse_native_scene(
      "version: 1\nbounds: [[0, 0], [20, 0], [20, 20]]\nagent: {max_climb: .inf}\n", "s.yaml");
  EXPECT_TRUE(std::isinf(s.agent.max_climb));
}

TEST(NativeScene, ReadsDecimalNumberSpellings) {
  const Scene s = parse_native_scene(
      "version: 1.0\nbounds: [[-0, 0.0], [2e1, 0], [+20, 2E+1], [.5, 1.5e-0]]\n", "s.yaml");
  EXPECT_EQ(s.bounds, (Ring{{0, 0}, {20, 0}, {20, 20}, {0.5, 1.5}}));
}

TEST(NativeScene, ToleratesRepeatedClosingPointAndRepeatedPoints) {
  const Scene s = parse_native_scene(
      "version: 1\nbounds: [[0, 0], [20, 0], [20, 20], [0, 20], [0, 0]]\n"
      "obstacles:\n  - [[5, 5], [5, 5], [10, 5], [10, 8], [10, 8], [5, 8], [5, 5], [5, 5]]\n",
      "s.yaml");
  EXPECT_EQ(s.bounds, (Ring{{0, 0}, {20, 0}, {20, 20}, {0, 20}}));
  EXPECT_EQ(s.obstacles[0].shape.outer, (Ring{{5, 5}, {10, 5}, {10, 8}, {5, 8}}));
}

TEST(NativeScene, AcceptsEitherOrientationAndKeepsIt) {
  const Scene s = parse_native_scene(
      "version: 1\nbounds: [[0, 0], [0, 20], [20, 20], [20, 0]]\n"
      "obstacles:\n  - [[5, 5], [10, 5], [10, 8]]\n  - [[15, 5], [15, 8], [18, 5]]\n"
      "  - outer: [[2, 12], [2, 18], [8, 18], [8, 12]]\n    holes: [[[3, 13], [7, 13], [7, 17]]]\n",
      "s.yaml");
  EXPECT_LT(signed_area2(s.bounds), 0);
  EXPECT_GT(signed_area2(s.obstacles[0].shape.outer), 0);
  EXPECT_LT(signed_area2(s.obstacles[1].shape.outer), 0);
  EXPECT_LT(signed_area2(s.obstacles[2].shape.outer), 0);
  EXPECT_GT(signed_area2(s.obstacles[2].shape.holes[0]), 0);
}

TEST(NativeScene, ReadsAnIslandInAHole) {
  const Scene s = parse_native_scene(
      "version: 1\nbounds: [[0, 0], [40, 0], [40, 40], [0, 40]]\nobstacles:\n"
      "  - outer: [[10, 10], [30, 10], [30, 30], [10, 30]]\n"
      "    holes: [[[12, 12], [28, 12], [28, 28], [12, 28]]]\n"
      "  - outer: [[17, 17], [23, 17], [23, 23], [17, 23]]\n"
      "    holes: [[[19, 19], [21, 19], [21, 21], [19, 21]]]\n"
      "queries: [{start: [14, 14], goal: [26, 26]}]\n",
      "s.yaml");
  ASSERT_EQ(s.obstacles.size(), 2u);
  EXPECT_EQ(s.obstacles[0].shape.holes.size(), 1u);
  EXPECT_EQ(s.obstacles[1].shape.holes.size(), 1u);
}

TEST(NativeScene, QueriesOutsideBoundsAreNotALoadError) {
  const Scene s = parse_native_scene(
      "version: 1\nbounds: [[0, 0], [20, 0], [20, 20]]\n"
      "obstacles: [[[5, 5], [10, 5], [10, 8]]]\n"
      "queries: [{start: [-5, -5], goal: [8, 6]}]\n",
      "s.yaml");
  EXPECT_EQ(s.queries.size(), 1u);
}

TEST(NativeScene, ObstaclesMayTouchOverlapAndLeaveTheBounds) {
  EXPECT_NO_THROW(parse_native_scene(
      "version: 1\nbounds: [[0, 0], [20, 0], [20, 20], [0, 20]]\n"
      "obstacles:\n  - [[5, 5], [10, 5], [10, 8], [5, 8]]\n  - [[10, 5], [12, 5], [12, 8]]\n"
      "  - [[6, 6], [15, 6], [15, 7]]\n  - [[18, 18], [25, 18], [25, 25], [18, 25]]\n"
      "  - [[5, 5], [10, 5], [10, 8], [5, 8]]\n",
      "s.yaml"));
}

// JSON is read by the YAML parser; these are the places where that could go wrong.
TEST(NativeSceneJson, ReadsTabsEscapesAndNestedArrays) {
  const Scene s = parse_native_scene(
      "{\n\t\"version\":1,\t\"name\":\"caf\\u00e9 \\\"quoted\\\" \\/ \\\\ \\b\\f\\n\\r\\t\",\n"
      "\t\"bounds\":[[0,0],[20,0],[20,20],[0,20]],\"agent\":{\"radius\":1e-1},\n"
      "\t\"obstacles\":[{\"outer\":[[5,5],[10,5],[10,8]],\"holes\":[]},[[15,15],[16,15],[16,16]]],"
      "\"regions\":[],\"queries\":[{\"name\":\"\",\"start\":[1,1],\"goal\":[19,19]}]}",
      "s.json");
  EXPECT_EQ(s.name, "caf\xc3\xa9 \"quoted\" / \\ \b\f\n\r\t");
  EXPECT_EQ(s.agent.radius, 0.1);
  EXPECT_EQ(s.obstacles.size(), 2u);
  EXPECT_EQ(s.queries.size(), 1u);
}

TEST(NativeSceneJson, ReadsSurrogatePairsAndKeepsColumns) {
  const Scene s = parse_native_scene(
      R"({"version": 1, "name": "\ud83d\ude00 \uD83C\uDF33", "bounds": [[0, 0], [20, 0], [20, 20]]})",
      "s.json");
  EXPECT_EQ(s.name, "\xf0\x9f\x98\x80 \xf0\x9f\x8c\xb3");
  // An error after the pairs on the same line points where the offending text is in the file.
  const std::string text =
      R"({"version": 1, "name": "\ud83d\ude00", "bounds": [[0, 0], [20, 0], [20, "x"]]})";
  const std::string e = error_of([&] { parse_native_scene(text, "s.json"); });
  EXPECT_NE(e.find("s.json:1:" + std::to_string(text.find("\"x\"") + 1) + ": bounds[2]"),
            std::string::npos)
      << e;
}

TEST(NativeSceneJson, WarehouseTwinsGiveTheSameModel) {
  const fs::path dir = fs::path(POLYNAV_SOURCE_DIR) / "scenes";
  const Scene y = load_scene(dir / "warehouse.yaml");
  const Scene j = load_scene(dir / "warehouse.json");
  EXPECT_EQ(y.name, j.name);
  EXPECT_EQ(y.bounds, j.bounds);
  EXPECT_EQ(y.agent.radius, j.agent.radius);
  EXPECT_EQ(y.agent.max_climb, j.agent.max_climb);
  ASSERT_EQ(y.obstacles.size(), j.obstacles.size());
  for (std::size_t i = 0; i < y.obstacles.size(); ++i) {
    EXPECT_EQ(y.obstacles[i].shape.outer, j.obstacles[i].shape.outer) << i;
    EXPECT_EQ(y.obstacles[i].shape.holes, j.obstacles[i].shape.holes) << i;
    EXPECT_EQ(y.obstacles[i].where.key_path, j.obstacles[i].where.key_path) << i;
  }
  ASSERT_EQ(y.regions.size(), j.regions.size());
  for (std::size_t i = 0; i < y.regions.size(); ++i) {
    EXPECT_EQ(y.regions[i].name, j.regions[i].name);
    EXPECT_EQ(y.regions[i].cost, j.regions[i].cost);
    EXPECT_EQ(y.regions[i].height, j.regions[i].height);
    EXPECT_EQ(y.regions[i].polygon, j.regions[i].polygon);
    EXPECT_EQ(y.regions[i].where.key_path, j.regions[i].where.key_path);
  }
  ASSERT_EQ(y.queries.size(), j.queries.size());
  for (std::size_t i = 0; i < y.queries.size(); ++i) {
    EXPECT_EQ(y.queries[i].name, j.queries[i].name);
    EXPECT_EQ(y.queries[i].start, j.queries[i].start);
    EXPECT_EQ(y.queries[i].goal, j.queries[i].goal);
    EXPECT_EQ(y.queries[i].where.key_path, j.queries[i].where.key_path);
  }
}

// Damaged files must be refused with an InputError, never a crash, a hang or another exception.
TEST(NativeScene, DamagedScenesFailOnlyWithInputError) {
  std::vector<std::string> seeds;
  for (const char* name : {"warehouse.yaml", "warehouse.json", "island.yaml"}) {
    std::ifstream in(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / name);
    std::stringstream text;
    text << in.rdbuf();
    seeds.push_back(text.str());
  }
  const std::string alphabet = "[]{},:-#&*!|>'\"\\ \t\n0123456789.eE+abxy~?%@`";
  std::mt19937 rng(42);
  int refused = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    std::string s = seeds[trial % seeds.size()];
    for (int m = 0, edits = 1 + int(rng() % 4); m < edits && !s.empty(); ++m) {
      const std::size_t at = rng() % s.size();
      switch (rng() % 4) {
        case 0:
          s[at] = alphabet[rng() % alphabet.size()];
          break;
        case 1:
          s.erase(at, 1 + rng() % 8);
          break;
        case 2:
          s.insert(at, 1, alphabet[rng() % alphabet.size()]);
          break;
        default: {
          const std::size_t from = rng() % s.size();
          s.insert(at, s.substr(from, rng() % 40));
        }
      }
    }
    try {
      parse_native_scene(s, trial % 3 == 1 ? "damaged.json" : "damaged.yaml");
    } catch (const InputError&) {
      ++refused;
    } catch (const std::exception& e) {
      FAIL() << "unexpected " << e.what() << " for:\n" << s;
    }
  }
  EXPECT_GT(refused, 500);
}

TEST(LoadScene, SetsSourceAndDefaultName) {
  TempDir dir;
  const fs::path p = dir.write("Yard.YML", "version: 1\nbounds: [[0, 0], [20, 0], [20, 20]]\n");
  const Scene s = load_scene(p);
  EXPECT_EQ(s.source, p);
  EXPECT_EQ(s.name, "Yard");
}

TEST(LoadScene, NamesAMissingFile) {
  const std::string e = error_of([] { load_scene("/no/such/dir/scene.yaml"); });
  EXPECT_NE(e.find("/no/such/dir/scene.yaml: no such file"), std::string::npos) << e;
}

TEST(LoadScene, RefusesADirectory) {
  TempDir dir;
  fs::create_directories(dir.path() / "scene.yaml");
  const std::string e = error_of([&] { load_scene(dir.path() / "scene.yaml"); });
  EXPECT_NE(e.find("scene.yaml: it is a directory, not a file"), std::string::npos) << e;
}

TEST(LoadScene, ListsSupportedExtensionsForAnUnknownOne) {
  TempDir dir;
  const fs::path p = dir.write("scene.txt", "version: 1\n");
  const std::string e = error_of([&] { load_scene(p); });
  EXPECT_NE(e.find("scene.txt: unknown scene file extension \".txt\"; supported: .yaml"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find(".json"), std::string::npos) << e;
}

// has_scene_extension says what load_scene would pick a reader for: every bundled scene file,
// in any case, and nothing else (scenarios, pictures, files without an extension).
TEST(LoadScene, HasSceneExtensionIsWhatLoadSceneReads) {
  for (const fs::directory_entry& e :
       fs::recursive_directory_iterator(std::string(POLYNAV_SOURCE_DIR) + "/scenes")) {
    if (!e.is_regular_file()) continue;
    const std::string ext = e.path().extension().string();
    const bool scene = ext == ".yaml" || ext == ".json" || ext == ".map" || ext == ".mesh" ||
                       ext == ".wkt" || ext == ".geojson";
    EXPECT_EQ(has_scene_extension(e.path()), scene) << e.path();
  }
  EXPECT_TRUE(has_scene_extension("MAP.YML"));
  EXPECT_TRUE(has_scene_extension("a/b/Arena.Map"));
  for (const char* other : {"arena.map.scen", "warehouse.png", "README", "scene.txt", ".yaml"})
    EXPECT_FALSE(has_scene_extension(other)) << other;
  TempDir dir;
  const fs::path p = dir.write("scene.txt", "version: 1\n");
  EXPECT_THROW(load_scene(p), InputError);
}

TEST(LoadScene, RefusesAHugeFileBeforeParsingIt) {
  TempDir dir;
  const fs::path p = dir.path() / "huge.yaml";
  {
    std::ofstream out(p, std::ios::binary);
    out << "version: 1\n";
    const std::string comment = "# " + std::string(1021, 'x') + "\n";
    for (int i = 0; i < 17 * 1024; ++i) out << comment;
  }
  const std::string e = error_of([&] { load_scene(p); });
  EXPECT_NE(e.find("huge.yaml: the file is larger than 16 MiB"), std::string::npos) << e;
  const std::string text(std::size_t{17} << 20, ' ');
  const std::string e2 = error_of([&] { parse_native_scene(text, "text.yaml"); });
  EXPECT_NE(e2.find("text.yaml: the scene is 17 MiB; native scenes may be at most 16 MiB"),
            std::string::npos)
      << e2;
}

TEST(LoadScene, ReadsABigRing) {
  // 100,000 points in one obstacle, through the whole loader.
  std::string text = "version: 1\nbounds: [[0, 0], [40, 0], [40, 40], [0, 40]]\nobstacles:\n  - [";
  const int n = 100'000;
  for (int i = 0; i < n; ++i) {
    const double a = 2 * 3.141592653589793 * i / n;
    const double r = i % 2 == 0 ? 10.0 : 5.0;
    text += (i ? ", [" : "[") + std::to_string(20 + r * std::cos(a)) + ", " +
            std::to_string(20 + r * std::sin(a)) + "]";
  }
  text += "]\n";
  const Scene s = parse_native_scene(text, "big.yaml");
  ASSERT_EQ(s.obstacles.size(), 1u);
  EXPECT_EQ(s.obstacles[0].shape.outer.size(), std::size_t(n));
}

}  // namespace
}  // namespace polynav
