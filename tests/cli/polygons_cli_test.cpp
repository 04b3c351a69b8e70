// The `polynav` tool on polygons by OGC validity: obstacles whose rings touch at a point load and
// plan (through the point only with space.gaps=open); invalid ones are refused with a hint naming
// --repair, and with --repair are made valid, every change shown by validate (text and JSON), as
// a note by the other commands, and written by convert so that validate reads them back.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/cli_fixture.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test_support::read_file;
using test_support::RunResult;

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// A square obstacle with a triangular room inside whose corner touches the square's corner.
const char* const room_scene =
    "version: 1\n"
    "bounds: [[-5, -5], [15, -5], [15, 15], [-5, 15]]\n"
    "obstacles:\n"
    "  - outer: [[0, 0], [10, 0], [10, 10], [0, 10]]\n"
    "    holes: [[[0, 0], [6, 2], [2, 6]]]\n"
    "queries:\n"
    "  - {name: in, start: [-2, -3], goal: [2.5, 2.5]}\n"
    "  - {name: around, start: [-2, -3], goal: [12, 12]}\n";

// A bow-tie and a plain square.
const char* const bow_tie_wkt =
    "POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))\n"
    "POLYGON ((20 0, 24 0, 24 4, 20 4, 20 0))\n";

using PolygonsCli = test_support::CliTest;

TEST_F(PolygonsCli, ARoomTouchingItsObstacleIsReachedOnlyThroughOpenGaps) {
  const std::string scene = write("room.yaml", room_scene).string();
  const RunResult v = run({"validate", scene, "--json"});
  ASSERT_EQ(v.exit_code, 0) << v.err;
  const json summary = json::parse(v.out);
  EXPECT_EQ(summary.at("free_space").at("components"), 2);
  EXPECT_EQ(summary.at("queries").at(0).at("problems").at(0),
            "no path possible: start and goal are in different components");
  EXPECT_TRUE(summary.at("queries").at(1).at("valid").get<bool>());
  EXPECT_TRUE(summary.at("repairs").empty());

  const RunResult closed = run({"plan", scene, "--query", "in", "--method", "visgraph"});
  EXPECT_EQ(closed.exit_code, 1) << closed.out << closed.err;
  EXPECT_TRUE(contains(closed.out, "no_path")) << closed.out;
  const RunResult open = run({"plan", scene, "--query", "in", "--method", "visgraph", "--set",
                              "space.gaps=open", "--json"});
  ASSERT_EQ(open.exit_code, 0) << open.out << open.err;
  const json result = json::parse(open.out);
  const json& waypoints = result.at("waypoints");
  ASSERT_EQ(waypoints.size(), 3u) << open.out;
  EXPECT_EQ(waypoints.at(1), json::array({0.0, 0.0}));  // through the point where they touch
}

TEST_F(PolygonsCli, InvalidPolygonsAreRefusedWithAHintNamingRepair) {
  const std::string wkt = write("parts.wkt", bow_tie_wkt).string();
  const RunResult r = run({"validate", wkt});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_TRUE(r.err.starts_with("error: " + wkt +
                                ":1:1: geometries[0].exterior: ring is self-intersecting: edges 0 "
                                "and 2 cross near (5, 5); --repair"))
      << r.err;
  // Bounds are not obstacles: no hint there, as --repair leaves them alone.
  const RunResult b =
      run({"--repair", "validate",
           write("b.yaml", "version: 1\nbounds: [[0, 0], [10, 10], [10, 0], [0, 10]]\n").string()});
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_TRUE(contains(b.err, "bounds")) << b.err;
  EXPECT_FALSE(contains(b.err, "--repair")) << b.err;
}

TEST_F(PolygonsCli, ValidateShowsEveryRepair) {
  const std::string wkt = write("parts.wkt", bow_tie_wkt).string();
  const std::string report = "geometries[0] (" + wkt +
                             ":1:1): exterior: ring is self-intersecting: edges 0 and 2 cross "
                             "near (5, 5); made valid as 2 polygons; area 0 -> 50";
  // A global option, before or after the subcommand.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--repair", "validate", wkt},
        std::vector<std::string>{"validate", wkt, "--repair"}}) {
    const RunResult text = run(args);
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_TRUE(contains(text.out, "  repaired    " + report + "\n")) << text.out;
    EXPECT_TRUE(contains(text.out, "3 obstacles")) << text.out;
    EXPECT_EQ(text.err, "");  // shown once, in the summary
  }
  const RunResult j = run({"--repair", "validate", wkt, "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const json summary = json::parse(j.out);
  EXPECT_EQ(summary.at("repairs"), json::array({report}));
  EXPECT_EQ(summary.at("obstacles").at("count"), 3);
}

TEST_F(PolygonsCli, OtherCommandsNoteTheRepairs) {
  const std::string wkt = write("parts.wkt", bow_tie_wkt).string();
  const RunResult r =
      run({"--repair", "plan", wkt, "--start", "5,-1", "--goal", "5,11", "--method", "visgraph"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "note: repaired geometries[0] (" + wkt + ":1:1): exterior: "))
      << r.err;
}

TEST_F(PolygonsCli, ConvertWritesTheRepairedPolygonsForValidateToReadBack) {
  const std::string wkt = write("parts.wkt", bow_tie_wkt).string();
  const std::string out = (dir_ / "parts.yaml").string();
  const RunResult c = run({"--repair", "convert", wkt, "-o", out});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_TRUE(contains(c.err, "note: repaired geometries[0]")) << c.err;
  const std::string written = read_file(out);
  EXPECT_TRUE(contains(written, "# Note: repaired geometries[0]")) << written;
  // Read back without --repair: nothing left to repair, the same area covered.
  const RunResult back = run({"validate", out, "--json"});
  ASSERT_EQ(back.exit_code, 0) << back.err;
  const json b = json::parse(back.out);
  EXPECT_TRUE(b.at("repairs").empty());
  EXPECT_EQ(b.at("obstacles").at("count"), 3);
  const json a = json::parse(run({"--repair", "validate", wkt, "--json"}).out);
  EXPECT_DOUBLE_EQ(b.at("free_space").at("area").get<double>(),
                   a.at("free_space").at("area").get<double>());
}

TEST_F(PolygonsCli, AnObstacleWithNoAreaLeftCannotBeRepaired) {
  const std::string scene = write("flat.yaml",
                                  "version: 1\n"
                                  "bounds: [[-5, -5], [15, -5], [15, 15], [-5, 15]]\n"
                                  "obstacles:\n"
                                  "  - [[0, 0], [10, 0], [10, 10], [10, 0]]\n")
                                .string();
  const RunResult r = run({"--repair", "validate", scene});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_TRUE(r.err.starts_with("error: " + scene + ":4:5: obstacles[0]: ")) << r.err;
  EXPECT_TRUE(contains(r.err, "cannot be repaired: make-valid leaves no area")) << r.err;
}

}  // namespace
}  // namespace polynav
