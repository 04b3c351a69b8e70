// The `polynav` tool on robotics maps, run as a process: bad ROS map files end in one located
// error line and exit 2; validate reports the map and its outline; --map-unknown and
// --map-simplify change what is read; convert writes scenes that validate and plan the same;
// plan --format ros-path writes nav_msgs/Path documents that match the planned waypoints.

#include <gtest/gtest.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli/xml_check.hpp"
#include "support/run_cli.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path scenes = fs::path(POLYNAV_SOURCE_DIR) / "scenes";

using test_support::read_file;
using test_support::RunResult;

class MapsCli : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "polynav-maps-cli-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return dir_ / name;
  }

  // Runs the tool, capturing its output through files.
  RunResult run(const std::vector<std::string>& args) const {
    RunResult r = test_support::run_program(POLYNAV_CLI, args, dir_);
    if (!r.problem.empty()) ADD_FAILURE() << r.problem;
    return r;
  }

  fs::path dir_;
};

// "error: FILE:LINE:COLUMN: KEY: WHAT" on one line, exit 2.
void expect_located_error(const RunResult& r, const fs::path& file, const std::string& key,
                          const std::string& what) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  const std::regex located(
      "error: " + std::regex_replace(file.string(), std::regex(R"([.+])"), R"(\$&)") +
      ":[0-9]+:[0-9]+: " + key + ": .+\n");
  EXPECT_TRUE(std::regex_match(r.err, located)) << r.err;
  EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
}

TEST_F(MapsCli, BadMapFilesEndInOneLocatedLine) {
  static constexpr char ok[] = "P5\n3 2\n255\n\x00\xfe\x00\xfe\xfe\xfe";
  static constexpr char short_data[] = "P5\n3 2\n255\n\x00\xfe";
  write("ok.pgm", std::string(ok, sizeof ok - 1));
  write("bad.pgm", std::string(short_data, sizeof short_data - 1));
  write("notes.txt.pgm", "hello");
  const std::string rest = "negate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\n";
  struct Case {
    std::string name, yaml, key, what;
  };
  const std::vector<Case> cases = {
      {"missing", "image: none.pgm\nresolution: 0.1\norigin: [0, 0, 0]\n" + rest, "image",
       "no such file"},
      {"format", "image: notes.txt.pgm\nresolution: 0.1\norigin: [0, 0, 0]\n" + rest, "image",
       "ROS map images must be PGM (P5 or P2), PNG or BMP"},
      {"size", "image: bad.pgm\nresolution: 0.1\norigin: [0, 0, 0]\n" + rest, "image",
       "the image data ends after 2 pixels of the 3 x 2 = 6"},
      {"negative", "image: ok.pgm\nresolution: -1\norigin: [0, 0, 0]\n" + rest, "resolution",
       "resolution must be > 0"},
      {"nan", "image: ok.pgm\nresolution: 0.1\norigin: [0, .NaN, 0]\n" + rest, "origin\\[1\\]",
       "got .NaN (not a number)"},
      {"yaw", "image: ok.pgm\nresolution: 0.1\norigin: [0, 0, -.inf]\n" + rest, "origin\\[2\\]",
       "expected the origin's yaw to be a finite number, got -.inf"},
      {"misspelt", "image: ok.pgm\nresolutoin: 0.1\norigin: [0, 0, 0]\n" + rest, "resolution",
       "missing required key \"resolution\" (metres per pixel, > 0); did you mean \"resolution\" "
       "where \"resolutoin\" is written (2:1)?"},
      {"mode", "image: ok.pgm\nmode: ternary\nresolution: 0.1\norigin: [0, 0, 0]\n" + rest, "mode",
       "unknown mode ternary (did you mean \"trinary\"?)"},
      {"thresholds",
       "image: ok.pgm\nresolution: 0.1\norigin: [0, 0, 0]\nnegate: 0\noccupied_thresh: 0.3\n"
       "free_thresh: 0.4\n",
       "free_thresh", "free_thresh must not be above occupied_thresh"},
      {"range",
       "image: ok.pgm\nresolution: 0.1\norigin: [0, 0, 0]\nnegate: 0\noccupied_thresh: 1.2\n"
       "free_thresh: 0.1\n",
       "occupied_thresh", "occupied_thresh must be from 0 to 1, found 1.2"},
      {"key", "image: ok.pgm\norigin: [0, 0, 0]\n" + rest, "resolution",
       "missing required key \"resolution\""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path yaml = write(c.name + ".yaml", c.yaml);
    expect_located_error(run({"validate", yaml.string()}), yaml, c.key, c.what);
  }
}

// A key map_server does not read is no error: validate loads the map and says what it ignored.
TEST_F(MapsCli, ValidateNotesKeysMapServerIgnores) {
  static constexpr char ok[] = "P5\n3 2\n255\n\x00\xfe\x00\xfe\xfe\xfe";
  write("ok.pgm", std::string(ok, sizeof ok - 1));
  const fs::path yaml = write("extra.yaml",
                              "image: ok.pgm\nresolution: 0.1\norigin: [0, 0, 0]\nnegate: 0\n"
                              "occupied_thresh: 0.65\nfree_thresh: 0.196\nmap_type: occupancy\n");
  const RunResult text = run({"validate", yaml.string()});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("  not used    " + yaml.string() +
                          ":7:1: map_type: not used by map_server, ignored\n"),
            std::string::npos)
      << text.out;
  const json j = json::parse(run({"validate", yaml.string(), "--json"}).out);
  EXPECT_EQ(j.at("unused"),
            json::array({yaml.string() + ":7:1: map_type: not used by map_server, ignored"}));
}

TEST_F(MapsCli, ValidateReportsTheMapAndItsOutline) {
  const std::string map = (scenes / "ros" / "turtlebot3_world.yaml").string();
  const RunResult text = run({"validate", map});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("(ROS map_server map)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("  map         62 x 56 cells of 0.1, origin (-3.2, -2.8)"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("  outline     "), std::string::npos) << text.out;

  const json plain = json::parse(run({"validate", map, "--json"}).out);
  EXPECT_EQ(plain.at("format"), "ros-map");
  EXPECT_EQ(plain.at("map").at("width"), 62);
  EXPECT_EQ(plain.at("map").at("unknown_is"), "blocked");
  const json& v = plain.at("vectorisation");
  EXPECT_EQ(v.at("vertices"), v.at("traced_vertices"));
  EXPECT_EQ(v.at("vertices"), plain.at("free_space").at("boundary_edges"));

  const json simplified =
      json::parse(run({"--map-simplify", "0.15", "validate", map, "--json"}).out);
  EXPECT_LT(simplified.at("vectorisation").at("vertices").get<int>(),
            simplified.at("vectorisation").at("traced_vertices").get<int>());
  EXPECT_LT(simplified.at("free_space").at("area").get<double>(),
            plain.at("free_space").at("area").get<double>());

  const json open = json::parse(run({"validate", map, "--json", "--map-unknown", "free"}).out);
  EXPECT_EQ(open.at("map").at("unknown_is"), "free");
  EXPECT_GT(open.at("free_space").at("area").get<double>(),
            plain.at("free_space").at("area").get<double>());

  const RunResult bad = run({"--map-simplify", "-1", "validate", map});
  EXPECT_EQ(bad.exit_code, 2);
}

double length_of(const RunResult& r) {
  return json::parse(r.out.substr(0, r.out.find('\n'))).at("length").get<double>();
}

TEST_F(MapsCli, ConvertedMapsValidateAndPlanTheSame) {
  for (const fs::path& input :
       {scenes / "ros" / "depot.yaml", scenes / "polygons" / "yard.wkt",
        scenes / "polygons" / "campus.geojson", scenes / "mesh" / "arena.mesh"}) {
    SCOPED_TRACE(input.string());
    const fs::path output = dir_ / (input.stem().string() + "-native.yaml");
    const RunResult converted = run({"convert", input.string(), "-o", output.string()});
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_EQ(converted.out, "wrote " + output.string() + " (" +
                                 (input.extension() == ".yaml"   ? "ROS map_server map"
                                  : input.extension() == ".wkt"  ? "WKT polygons"
                                  : input.extension() == ".mesh" ? "Polyanya navigation mesh"
                                                                 : "GeoJSON polygons") +
                                 " " + input.stem().string() + " as a native scene)\n");
    // Notes for what is kept in another form only (or not used, as GeoJSON properties); none
    // for the WKT file, which holds nothing but polygons.
    EXPECT_EQ(converted.err.empty(), input.extension() == ".wkt") << converted.err;
    const RunResult valid = run({"validate", output.string()});
    EXPECT_EQ(valid.exit_code, 0) << valid.err;
    EXPECT_NE(valid.out.find("(native YAML scene)"), std::string::npos);
  }
  const std::string depot = (scenes / "ros" / "depot.yaml").string();
  const std::string native = (dir_ / "depot-native.yaml").string();
  for (const char* method : {"grid", "quadtree", "visgraph"}) {
    SCOPED_TRACE(method);
    const std::vector<std::string> query = {"--method", method,  "--start", "16,1",
                                            "--goal",   "29,14", "--json"};
    std::vector<std::string> a = {"plan", depot}, b = {"plan", native};
    a.insert(a.end(), query.begin(), query.end());
    b.insert(b.end(), query.begin(), query.end());
    const RunResult ra = run(a), rb = run(b);
    ASSERT_EQ(ra.exit_code, 0) << ra.err;
    ASSERT_EQ(rb.exit_code, 0) << rb.err;
    EXPECT_NEAR(length_of(ra), length_of(rb), 1e-9 * length_of(ra));
  }
}

TEST_F(MapsCli, ConvertRefusesWhatItCannotWrite) {
  const fs::path walls = scenes / "mesh" / "walls-v3.mesh";
  const RunResult r = run({"convert", walls.string(), "-o", (dir_ / "w.yaml").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: " + walls.string() +
                       ": the mesh has 4 walls of zero width (constrained edges between "
                       "traversable faces), which native obstacles cannot represent\n");
  EXPECT_FALSE(fs::exists(dir_ / "w.yaml"));
  const RunResult txt =
      run({"convert", (scenes / "maze.yaml").string(), "-o", (dir_ / "w.txt").string()});
  EXPECT_EQ(txt.exit_code, 2);
  EXPECT_NE(txt.err.find("--output: convert writes native YAML scenes"), std::string::npos)
      << txt.err;
}

TEST_F(MapsCli, RosPathMatchesThePlannedWaypoints) {
  const std::string scene = (scenes / "warehouse.yaml").string();
  const RunResult as_json = run({"plan", scene, "--json"});
  const RunResult as_path = run({"plan", scene, "--format", "ros-path"});
  ASSERT_EQ(as_path.exit_code, as_json.exit_code) << as_path.err;
  std::vector<json> results;
  std::istringstream lines(as_json.out);
  for (std::string line; std::getline(lines, line);) results.push_back(json::parse(line));
  const std::vector<YAML::Node> docs = YAML::LoadAll(as_path.out);
  ASSERT_EQ(docs.size(), results.size());
  std::size_t with_path = 0;
  for (std::size_t q = 0; q < docs.size(); ++q) {
    SCOPED_TRACE(q);
    const YAML::Node& d = docs[q];
    EXPECT_EQ(d["header"]["frame_id"].as<std::string>(), "map");
    const json& waypoints = results[q].at("waypoints");
    ASSERT_EQ(d["poses"].size(), waypoints.size());
    if (waypoints.empty()) continue;
    ++with_path;
    double previous_yaw = 0;
    for (std::size_t i = 0; i < waypoints.size(); ++i) {
      const YAML::Node pose = d["poses"][i]["pose"];
      EXPECT_EQ(d["poses"][i]["header"]["frame_id"].as<std::string>(), "map");
      const double x = pose["position"]["x"].as<double>(), y = pose["position"]["y"].as<double>();
      EXPECT_EQ(x, waypoints[i][0].get<double>());
      EXPECT_EQ(y, waypoints[i][1].get<double>());
      EXPECT_EQ(pose["position"]["z"].as<double>(), 0.0);
      const YAML::Node o = pose["orientation"];
      EXPECT_EQ(o["x"].as<double>(), 0.0);
      EXPECT_EQ(o["y"].as<double>(), 0.0);
      const double qz = o["z"].as<double>(), qw = o["w"].as<double>();
      EXPECT_NEAR(qz * qz + qw * qw, 1.0, 1e-12);
      const double yaw = 2 * std::atan2(qz, qw);
      // Facing the next waypoint; the last pose keeps the heading it arrived with.
      const double expected = i + 1 < waypoints.size()
                                  ? std::atan2(waypoints[i + 1][1].get<double>() - y,
                                               waypoints[i + 1][0].get<double>() - x)
                                  : previous_yaw;
      EXPECT_NEAR(std::remainder(yaw - expected, 2 * M_PI), 0.0, 1e-12);
      previous_yaw = yaw;
    }
  }
  EXPECT_GT(with_path, 0u);
  const RunResult both = run({"plan", scene, "--json", "--format", "ros-path"});
  EXPECT_EQ(both.exit_code, 2);
}

TEST_F(MapsCli, RenderDrawsTheCellsUnderTheOutline) {
  const fs::path svg = dir_ / "map.svg";
  const RunResult r = run({"render", (scenes / "ros" / "depot.yaml").string(), "-o", svg.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const test::XmlCheck check = test::check_xml(read_file(svg));
  EXPECT_EQ(check.problem, "");
  const auto& ids = check.group_ids;
  const auto cells = std::find(ids.begin(), ids.end(), "cells");
  const auto blocked = std::find(ids.begin(), ids.end(), "blocked");
  ASSERT_NE(cells, ids.end());
  ASSERT_NE(blocked, ids.end());
  EXPECT_LT(cells, blocked);
}

}  // namespace
}  // namespace polynav
