// The `polynav` tool on robotics maps, run as a process: bad ROS map files end in one located
// error line and exit 2; validate reports the map and its outline; --map-unknown and
// --map-simplify change what is read; convert writes scenes that validate and plan the same;
// plan --format ros-path writes nav_msgs/Path documents that match the planned waypoints, in the
// frame asked for, with poses added at the spacing asked for and the goal's yaw on the last pose,
// and refuses bad values of those options before writing anything.

#include <gtest/gtest.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli/xml_check.hpp"
#include "support/cli_fixture.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path scenes = fs::path(POLYNAV_SOURCE_DIR) / "scenes";

using test_support::read_file;
using test_support::RunResult;

using MapsCli = test_support::CliTest;

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

// A MovingAI map's obstacles are its rows' runs of blocked cells, and are counted as such: here
// one run of four in the first row (T W O @), two single cells in the second.
TEST_F(MapsCli, ValidateCountsAMapsRunsOfBlockedCells) {
  const fs::path map =
      write("runs.map", "type octile\nheight 2\nwidth 8\nmap\nGSTWO@.G\n@.@.....\n");
  const RunResult r = run({"validate", map.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("  obstacles   3 runs of blocked cells, 12 vertices"), std::string::npos)
      << r.out;
}

TEST_F(MapsCli, RadiusOnAMapInflatesByCellsUnlessAskedForExact) {
  const std::string map = (scenes / "ros" / "turtlebot3_world.yaml").string();
  const json cells = json::parse(run({"--radius", "0.22", "validate", map, "--json"}).out);
  EXPECT_EQ(cells.at("free_space").at("inflation"), "cells");
  EXPECT_DOUBLE_EQ(cells.at("free_space").at("inflation_tolerance").get<double>(),
                   std::sqrt(2.0) * 0.1);  // the map's cell diagonal
  const json exact =
      json::parse(run({"--radius", "0.22", "--inflation", "exact", "validate", map, "--json"}).out);
  EXPECT_EQ(exact.at("free_space").at("inflation"), "exact");
  EXPECT_DOUBLE_EQ(exact.at("free_space").at("inflation_tolerance").get<double>(), 0.0022);
  // Cells block more, never less.
  EXPECT_LT(cells.at("free_space").at("area").get<double>(),
            exact.at("free_space").at("area").get<double>());
  const RunResult text = run({"--radius", "0.22", "validate", map});
  EXPECT_NE(text.out.find("(cells inflation, tolerance 0.141421: a cell diagonal)"),
            std::string::npos)
      << text.out;

  // Cells need a map; a radius that leaves nothing free; a word that is no inflation.
  const RunResult polygons = run({"--radius", "0.2", "--inflation", "cells", "validate",
                                  (scenes / "warehouse.yaml").string()});
  EXPECT_EQ(polygons.exit_code, 2);
  EXPECT_NE(polygons.err.find("space.inflation: cells inflation needs a raster map"),
            std::string::npos)
      << polygons.err;
  const RunResult wide = run({"--radius", "5", "plan", map, "--start", "0,0", "--goal", "1,1"});
  EXPECT_EQ(wide.exit_code, 2);
  EXPECT_TRUE(wide.out.empty()) << wide.out;
  EXPECT_NE(wide.err.find("agent.radius: no free space is left"), std::string::npos) << wide.err;
  EXPECT_EQ(run({"--inflation", "round", "validate", map}).exit_code, 2);
}

TEST_F(MapsCli, ClearanceCostOptionsAreCheckedAndPlanned) {
  const std::string map = (scenes / "ros" / "depot.yaml").string();
  const std::vector<std::string> query = {"plan",   map,     "--start", "1.5,1.5",
                                          "--goal", "13,13", "--snap",  "--json"};
  const auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"--radius", "0.22"};
    args.insert(args.end(), query.begin(), query.end());
    args.insert(args.end(), extra.begin(), extra.end());
    return run(args);
  };
  const RunResult plain = with({}), costly = with({"--set", "space.clearance_distance=0.4"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  ASSERT_EQ(costly.exit_code, 0) << costly.err;
  const json a = json::parse(plain.out.substr(0, plain.out.find('\n')));
  const json b = json::parse(costly.out.substr(0, costly.out.find('\n')));
  EXPECT_DOUBLE_EQ(a.at("cost").get<double>(), a.at("length").get<double>());
  EXPECT_GT(b.at("cost").get<double>(), b.at("length").get<double>());
  for (const auto& [key, value] :
       std::vector<std::pair<std::string, std::string>>{{"clearance_distance", "-1"},
                                                        {"clearance_distance", "nan"},
                                                        {"clearance_factor", "0.5"},
                                                        {"clearance_factor", "nan"},
                                                        {"clearance_bands", "0"}}) {
    const RunResult bad = with({"--set", "space." + key + "=" + value});
    EXPECT_EQ(bad.exit_code, 2) << key << "=" << value;
    EXPECT_NE(bad.err.find("space." + key), std::string::npos) << bad.err;
    EXPECT_TRUE(bad.out.empty()) << bad.out;
  }
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

// One pose of a nav_msgs/Path document as read back.
struct RosPose {
  double x = 0, y = 0, yaw = 0;
};

// The poses of a ros-path document, each pose's header, position and orientation checked on the
// way: the frame `frame`, zero stamps, z = 0, a unit quaternion about z.
std::vector<RosPose> read_ros_poses(const YAML::Node& doc, const std::string& frame) {
  const auto check_header = [&](const YAML::Node& header) {
    EXPECT_EQ(header["frame_id"].as<std::string>(), frame);
    EXPECT_EQ(header["stamp"]["sec"].as<long long>(), 0);
    EXPECT_EQ(header["stamp"]["nanosec"].as<long long>(), 0);
    EXPECT_FALSE(header["seq"]) << "ROS 2 headers have no seq";
  };
  check_header(doc["header"]);
  std::vector<RosPose> poses;
  for (const YAML::Node& stamped : doc["poses"]) {
    check_header(stamped["header"]);
    const YAML::Node pose = stamped["pose"];
    EXPECT_EQ(pose["position"]["z"].as<double>(), 0.0);
    const YAML::Node o = pose["orientation"];
    EXPECT_EQ(o["x"].as<double>(), 0.0);
    EXPECT_EQ(o["y"].as<double>(), 0.0);
    const double qz = o["z"].as<double>(), qw = o["w"].as<double>();
    EXPECT_NEAR(qz * qz + qw * qw, 1.0, 1e-12);
    poses.push_back({pose["position"]["x"].as<double>(), pose["position"]["y"].as<double>(),
                     2 * atan2(qz, qw)});
  }
  return poses;
}

// The angle between two yaws, in [0, pi].
double yaw_difference(double a, double b) {
  return std::abs(std::remainder(a - b, 2 * M_PI));
}

// The JSON lines of a run, one object each.
std::vector<json> json_lines(const std::string& out) {
  std::vector<json> all;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) all.push_back(json::parse(line));
  return all;
}

// Checks the poses of one path against its JSON result: the waypoints in order, exactly; between
// two waypoints ceil(L / spacing) - 1 evenly spaced points on the segment (none without a
// spacing), no gap beyond the spacing, the same length; each pose facing along its segment, the
// last one facing `last_yaw` when given, else as the segment arriving there.
void expect_poses_follow(const std::vector<RosPose>& poses, const json& result, double spacing,
                         std::optional<double> last_yaw) {
  const json& w = result.at("waypoints");
  std::size_t at = 0;  // the pose of waypoint i
  double length = 0, heading = 0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    SCOPED_TRACE("waypoint " + std::to_string(i));
    const double x = w[i][0].get<double>(), y = w[i][1].get<double>();
    ASSERT_LT(at, poses.size());
    EXPECT_EQ(poses[at].x, x);
    EXPECT_EQ(poses[at].y, y);
    if (i + 1 == w.size()) {
      EXPECT_EQ(at + 1, poses.size()) << "poses after the last waypoint";
      EXPECT_LT(yaw_difference(poses[at].yaw, last_yaw.value_or(heading)), 1e-12);
      break;
    }
    const double dx = w[i + 1][0].get<double>() - x, dy = w[i + 1][1].get<double>() - y;
    const double segment = std::hypot(dx, dy);
    if (segment > 0) heading = std::atan2(dy, dx);
    const std::size_t steps =
        spacing > 0 ? std::max<std::size_t>(1, std::size_t(std::ceil(segment / spacing))) : 1;
    ASSERT_LE(at + steps, poses.size());
    for (std::size_t k = 0; k < steps; ++k) {
      const RosPose& p = poses[at + k];
      const RosPose& q = poses[at + k + 1];
      const double gap = std::hypot(q.x - p.x, q.y - p.y);
      if (spacing > 0) {
        EXPECT_LE(gap, spacing + 1e-12);
      }
      EXPECT_NEAR(gap, segment / double(steps), 1e-9) << "evenly spaced";
      // On the segment: no distance from its line.
      EXPECT_NEAR((p.x - x) * dy - (p.y - y) * dx, 0.0, 1e-9 * std::max(segment, 1.0));
      EXPECT_LT(yaw_difference(p.yaw, heading), 1e-12) << "pose " << at + k;
      length += gap;
    }
    at += steps;
  }
  EXPECT_NEAR(length, result.at("length").get<double>(), 1e-9);
}

TEST_F(MapsCli, RosPathSpacesPosesInTheFrameAndTurnsToTheGoal) {
  const std::string scene = (scenes / "ros" / "depot.yaml").string();
  const double goal_yaw = 1.5708;
  for (const std::string method : {"grid", "visgraph"}) {
    SCOPED_TRACE(method);
    const std::vector<std::string> query = {"plan",    scene,  "--method", method,
                                            "--start", "16,1", "--goal",   "29,14,1.5708"};
    auto with = [&](std::vector<std::string> more) {
      std::vector<std::string> args = query;
      args.insert(args.end(), more.begin(), more.end());
      return run(args);
    };
    const RunResult as_json = with({"--json"});
    ASSERT_EQ(as_json.exit_code, 0) << as_json.err;
    const json result = json::parse(as_json.out);
    ASSERT_GE(result.at("waypoints").size(), 3u);
    // The yaw is one more key at the end; the others are as without it.
    EXPECT_EQ(result.at("goal_yaw").get<double>(), goal_yaw);
    const nlohmann::ordered_json in_order = nlohmann::ordered_json::parse(as_json.out);
    EXPECT_EQ(std::prev(in_order.end()).key(), "goal_yaw");
    const RunResult plain =
        run({"plan", scene, "--method", method, "--start", "16,1", "--goal", "29,14", "--json"});
    json without = json::parse(plain.out);
    EXPECT_FALSE(without.contains("goal_yaw"));
    json trimmed = result;
    trimmed.erase("goal_yaw");
    trimmed.erase("stats");
    without.erase("stats");
    EXPECT_EQ(trimmed, without);

    // Without a spacing: the waypoints only, in frame map.
    const RunResult bare = with({"--format", "ros-path"});
    ASSERT_EQ(bare.exit_code, 0) << bare.err;
    const std::vector<RosPose> waypoints_only = read_ros_poses(YAML::Load(bare.out), "map");
    EXPECT_EQ(waypoints_only.size(), result.at("waypoints").size());
    expect_poses_follow(waypoints_only, result, 0, goal_yaw);

    for (const double spacing : {0.05, 0.3, 1.0, 4.0, 100.0}) {
      SCOPED_TRACE(spacing);
      const RunResult r = with({"--format", "ros-path", "--frame-id", "robot_1/odom",
                                "--pose-spacing", std::to_string(spacing)});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const std::vector<YAML::Node> docs = YAML::LoadAll(r.out);
      ASSERT_EQ(docs.size(), 1u);
      const std::vector<RosPose> poses = read_ros_poses(docs[0], "robot_1/odom");
      if (spacing < 1) {
        EXPECT_GT(poses.size(), waypoints_only.size());
      }
      expect_poses_follow(poses, result, spacing, goal_yaw);
    }
  }
}

TEST_F(MapsCli, RosPathOfEveryQueryKeepsTheLastHeadingWithoutAGoalYaw) {
  const std::string scene = (scenes / "warehouse.yaml").string();
  const RunResult as_json = run({"plan", scene, "--json"});
  const RunResult r =
      run({"plan", scene, "--format", "ros-path", "--pose-spacing", "0.5", "--frame-id", "map"});
  ASSERT_EQ(r.exit_code, as_json.exit_code) << r.err;
  const std::vector<json> results = json_lines(as_json.out);
  const std::vector<YAML::Node> docs = YAML::LoadAll(r.out);
  ASSERT_EQ(docs.size(), results.size());
  std::size_t with_path = 0;
  for (std::size_t q = 0; q < docs.size(); ++q) {
    SCOPED_TRACE(q);
    EXPECT_FALSE(results[q].contains("goal_yaw"));
    const std::vector<RosPose> poses = read_ros_poses(docs[q], "map");
    if (results[q].at("waypoints").empty()) {
      EXPECT_TRUE(poses.empty());
      continue;
    }
    ++with_path;
    expect_poses_follow(poses, results[q], 0.5, std::nullopt);
  }
  EXPECT_GT(with_path, 0u);
}

TEST_F(MapsCli, RosPathOfOnePointFacesTheGoalYawOrZero) {
  const std::string scene = (scenes / "ros" / "depot.yaml").string();
  for (const auto& [goal, yaw] : {std::pair{"16,1,-2.5", -2.5}, std::pair{"16,1", 0.0}}) {
    SCOPED_TRACE(goal);
    const RunResult r = run({"plan", scene, "--start", "16,1", "--goal", goal, "--format",
                             "ros-path", "--pose-spacing", "0.1"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::vector<RosPose> poses = read_ros_poses(YAML::Load(r.out), "map");
    ASSERT_EQ(poses.size(), 1u);
    EXPECT_EQ(poses[0].x, 16.0);
    EXPECT_EQ(poses[0].y, 1.0);
    EXPECT_LT(yaw_difference(poses[0].yaw, yaw), 1e-12);
  }
}

TEST_F(MapsCli, RosPathTakesTheYawOfTheGoalReached) {
  const std::string scene = (scenes / "ros" / "depot.yaml").string();
  const std::vector<std::string> args = {"plan",    scene,        "--method", "visgraph",
                                         "--start", "16,1",       "--goal",   "29,14,0.25",
                                         "--goal",  "17,3,-1.25", "--format"};
  std::vector<std::string> as_json = args, as_path = args;
  as_json.push_back("json");
  as_path.push_back("ros-path");
  const RunResult j = run(as_json);
  const RunResult r = run(as_path);
  ASSERT_EQ(j.exit_code, 0) << j.err;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json result = json::parse(j.out);
  const bool near_goal = result.at("goal") == json::array({17.0, 3.0});
  ASSERT_TRUE(near_goal || result.at("goal") == json::array({29.0, 14.0})) << result.at("goal");
  const double yaw = near_goal ? -1.25 : 0.25;
  EXPECT_EQ(result.at("goal_yaw").get<double>(), yaw);
  expect_poses_follow(read_ros_poses(YAML::Load(r.out), "map"), result, 0, yaw);
}

TEST_F(MapsCli, RosPathQuotesAFrameYamlWouldReadOtherwise) {
  const std::string scene = (scenes / "ros" / "depot.yaml").string();
  const RunResult r = run({"plan", scene, "--start", "16,1", "--goal", "29,14", "--format",
                           "ros-path", "--frame-id", "yes"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("header: {frame_id: \"yes\","), std::string::npos) << r.out;
  read_ros_poses(YAML::Load(r.out), "yes");
}

// A query's name goes into a comment line: a line break in it must not end the comment.
TEST_F(MapsCli, RosPathCommentsStayCommentsWhateverAQueryIsNamed) {
  const fs::path scene = write("named.yaml",
                               "version: 1\n"
                               "bounds: [[0, 0], [10, 0], [10, 10], [0, 10]]\n"
                               "queries:\n"
                               "  - {name: \"q\\nextra\", start: [1, 1], goal: [9, 9]}\n");
  const RunResult r = run({"plan", scene.string(), "--format", "ros-path"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("# q\\nextra: found, length ", 0), 0u) << r.out;
  const YAML::Node doc = YAML::Load(r.out);
  EXPECT_FALSE(doc["extra"]) << r.out;
  EXPECT_EQ(read_ros_poses(doc, "map").size(), 2u);
}

TEST_F(MapsCli, RosPathRefusesBadValuesBeforeWritingAnything) {
  const std::string scene = (scenes / "ros" / "depot.yaml").string();
  const fs::path svg = dir_ / "plan.svg";
  struct Case {
    std::vector<std::string> args;
    std::string says;  // what the one error line must hold
  };
  const std::vector<Case> cases = {
      {{"--pose-spacing", "-1"}, "--pose-spacing: must be a finite number > 0, got '-1'"},
      {{"--pose-spacing=-1"}, "--pose-spacing: must be a finite number > 0, got '-1'"},
      {{"--pose-spacing", "nan"}, "--pose-spacing: must be a finite number > 0, got 'nan'"},
      {{"--pose-spacing", "inf"}, "--pose-spacing: must be a finite number > 0, got 'inf'"},
      {{"--pose-spacing", "0"}, "--pose-spacing: must be a finite number > 0, got '0'"},
      {{"--pose-spacing", "1e-9"}, "--pose-spacing: a spacing of 1e-09 needs"},
      {{"--goal", "29,14,nan"},
       "--goal: the yaw (YAW of X,Y,YAW, in radians) must be a finite "
       "number, found 'nan' in '29,14,nan'"},
      {{"--goal", "29,14,inf"}, "--goal: the yaw"},
      {{"--goal", "29,14,"}, "--goal: the yaw"},
      {{"--goal", "29,14,1,2"}, "--goal: expected X,Y or X,Y,YAW with finite numbers"},
      {{"--goal", "29,nan,1"}, "--goal: expected X,Y or X,Y,YAW with finite numbers"},
      {{"--frame-id", ""}, "--frame-id: must not be empty"},
      {{"--frame-id", "/map"}, "--frame-id: must not start with '/'"},
      {{"--frame-id", "map/"}, "--frame-id: must not end with '/' or hold '//'"},
      {{"--frame-id", "a//b"}, "--frame-id: must not end with '/' or hold '//'"},
      {{"--frame-id", "base link"}, "--frame-id: may hold only letters, digits, '_' and '/'"},
      {{"--frame-id", "map-2"}, "found '-' in 'map-2'"},
      {{"--frame-id", "robot/2d"}, "--frame-id: each name between '/' must start with a letter"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.says);
    std::vector<std::string> args = {"plan",  scene,   "--start",    "16,1",     "--goal",
                                     "29,14", "--svg", svg.string(), "--format", "ros-path"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.err.starts_with("error: ")) << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(svg));
  }
  // The ros-path options with another format.
  for (const std::string format : {"text", "json"}) {
    for (const auto& [option, value] :
         {std::pair{"--frame-id", "odom"}, std::pair{"--pose-spacing", "0.5"}}) {
      const RunResult r = run(
          {"plan", scene, "--start", "16,1", "--goal", "29,14", "--format", format, option, value});
      EXPECT_EQ(r.exit_code, 2) << option << " " << format;
      EXPECT_EQ(r.out, "");
      EXPECT_NE(r.err.find(std::string(option) + ": applies to --format ros-path only"),
                std::string::npos)
          << r.err;
    }
  }
  // The yaw is accepted, and ignored, by the text output.
  const RunResult text = run({"plan", scene, "--start", "16,1", "--goal", "29,14,1"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  // --start takes no yaw.
  const RunResult start = run({"plan", scene, "--start", "16,1,0", "--goal", "29,14"});
  EXPECT_EQ(start.exit_code, 2);
  EXPECT_NE(start.err.find("--start: expected X,Y"), std::string::npos) << start.err;
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
