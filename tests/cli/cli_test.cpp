// The `polynav` tool run as a process on small scenes written to a temporary directory:
// exit codes, the one-line error contract, the validate summary (text and JSON) and render's
// SVG. Expected values are computed from the scenes written here, not pinned from earlier runs.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli/xml_check.hpp"
#include "polynav/geometry.hpp"
#include "polynav/number.hpp"
#include "polynav/plan/registry.hpp"
#include "polynav/text.hpp"
#include "support/cli_fixture.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using test_support::read_file;
using test_support::RunResult;

std::size_t line_count(const std::string& s) {
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// A native scene described in code, so that tests can compute what the tool should report.
struct SceneSpec {
  struct Obstacle {
    Ring outer;
    std::vector<Ring> holes;
  };
  struct Region {
    std::string name;
    double cost = 1;
    Ring polygon;
  };
  struct Query {
    std::string name;
    Point start;
    Point goal;
  };

  std::string name;
  Ring bounds;
  std::optional<double> radius;
  std::vector<Obstacle> obstacles;
  std::vector<Region> regions;
  std::vector<Query> queries;

  std::size_t obstacle_vertices() const {
    std::size_t n = 0;
    for (const Obstacle& o : obstacles) {
      n += o.outer.size();
      for (const Ring& h : o.holes) n += h.size();
    }
    return n;
  }
  std::size_t hole_count() const {
    std::size_t n = 0;
    for (const Obstacle& o : obstacles) n += o.holes.size();
    return n;
  }
  // Valid for a point agent and obstacles that are disjoint and inside the bounds.
  double free_area() const {
    double a = std::abs(signed_area2(bounds)) / 2;
    for (const Obstacle& o : obstacles) {
      a -= std::abs(signed_area2(o.outer)) / 2;
      for (const Ring& h : o.holes) a += std::abs(signed_area2(h)) / 2;
    }
    return a;
  }

  static std::string point(Point p) {
    std::ostringstream s;
    s << std::setprecision(17) << '[' << p.x << ", " << p.y << ']';
    return s.str();
  }
  static std::string ring(const Ring& r) {
    std::string s = "[";
    for (std::size_t i = 0; i < r.size(); ++i) s += (i ? ", " : "") + point(r[i]);
    return s + "]";
  }
  static std::string quoted(const std::string& s) {
    std::string q = "\"";
    for (const char c : s) q += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    return q + "\"";
  }

  std::string yaml() const {
    std::string y = "version: 1\n";
    if (!name.empty()) y += "name: " + quoted(name) + "\n";
    y += "bounds: " + ring(bounds) + "\n";
    if (radius) {
      std::ostringstream r;
      r << std::setprecision(17) << *radius;
      y += "agent:\n  radius: " + r.str() + "\n";
    }
    if (!obstacles.empty()) {
      y += "obstacles:\n";
      for (const Obstacle& o : obstacles) {
        if (o.holes.empty()) {
          y += "  - " + ring(o.outer) + "\n";
        } else {
          y += "  - outer: " + ring(o.outer) + "\n    holes:\n";
          for (const Ring& h : o.holes) y += "      - " + ring(h) + "\n";
        }
      }
    }
    if (!regions.empty()) {
      y += "regions:\n";
      for (const Region& r : regions) {
        std::ostringstream cost;
        cost << std::setprecision(17) << r.cost;
        y += "  - name: " + quoted(r.name) + "\n    cost: " + cost.str() +
             "\n    polygon: " + ring(r.polygon) + "\n";
      }
    }
    if (!queries.empty()) {
      y += "queries:\n";
      for (const Query& q : queries) {
        y += "  - name: " + quoted(q.name) + "\n    start: " + point(q.start) +
             "\n    goal: " + point(q.goal) + "\n";
      }
    }
    return y;
  }

  json to_json() const {
    auto pt = [](Point p) { return json::array({p.x, p.y}); };
    auto rg = [&](const Ring& r) {
      json a = json::array();
      for (const Point& p : r) a.push_back(pt(p));
      return a;
    };
    json j = {{"version", 1}, {"name", name}, {"bounds", rg(bounds)}};
    if (radius) j["agent"] = {{"radius", *radius}};
    for (const Obstacle& o : obstacles) {
      json holes = json::array();
      for (const Ring& h : o.holes) holes.push_back(rg(h));
      j["obstacles"].push_back({{"outer", rg(o.outer)}, {"holes", holes}});
    }
    for (const Region& r : regions) {
      j["regions"].push_back({{"name", r.name}, {"cost", r.cost}, {"polygon", rg(r.polygon)}});
    }
    for (const Query& q : queries) {
      j["queries"].push_back({{"name", q.name}, {"start", pt(q.start)}, {"goal", pt(q.goal)}});
    }
    return j;
  }
};

Ring rect(double x0, double y0, double x1, double y1) {
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

// Two obstacles, one with a hole (a free pocket that no path can reach), two regions, and
// queries that are valid, start inside an obstacle, end in the pocket, and end outside.
SceneSpec two_rooms() {
  SceneSpec s;
  s.name = "two rooms";
  s.bounds = rect(0, 0, 20, 10);
  s.obstacles.push_back({rect(5, 2, 8, 6), {}});
  s.obstacles.push_back({rect(12, 2, 17, 8), {rect(13, 3, 16, 7)}});
  s.regions.push_back({"mud", 3, rect(1, 7, 4, 9)});
  s.regions.push_back({"road", 0.5, rect(9, 0.5, 11, 9.5)});
  s.queries.push_back({"across", {1, 1}, {19, 9}});
  s.queries.push_back({"into-wall", {6, 4}, {19, 1}});
  s.queries.push_back({"pocket", {1, 1}, {14.5, 5}});
  s.queries.push_back({"outside", {1, 1}, {25, 5}});
  return s;
}

class Cli : public test_support::CliTest {
 protected:
  // A lane 20 x 10 with one query across it, and a file of edits dropping a 2 x 4 pallet in its
  // middle at time 2 and taking it away at time 5: the scene's and the edits' paths.
  std::pair<fs::path, fs::path> write_lane(const std::string& name) const {
    return {write(name + ".yaml",
                  "version: 1\n"
                  "bounds: [[0, 0], [20, 0], [20, 10], [0, 10]]\n"
                  "queries: [{name: across, start: [1, 5], goal: [19, 5]}]\n"),
            write(name + "-edits.yaml",
                  "version: 1\n"
                  "edits:\n"
                  "  - time: 2\n"
                  "    add_obstacle: [[9, 3], [11, 3], [11, 7], [9, 7]]\n"
                  "  - time: 5\n"
                  "    remove_obstacle: 0\n")};
  }
  // As run(), but a run still going after `seconds` is killed and reported as a failure: for
  // inputs that must be refused at once rather than read (a FIFO, a device, a huge count).
  RunResult run_within(const std::vector<std::string>& args, int seconds) const {
    const std::string out_path = (dir_ / "stdout.txt").string();
    const std::string err_path = (dir_ / "stderr.txt").string();
    RunResult r;
    const pid_t pid = test_support::start_program(POLYNAV_CLI, args, out_path, err_path);
    if (pid < 0) {
      ADD_FAILURE() << (r.problem = "cannot start the tool");
      return r;
    }
    int status = 0;
    for (int waited_ms = 0; waitpid(pid, &status, WNOHANG) != pid; waited_ms += 20) {
      if (waited_ms >= seconds * 1000) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        r.problem = "still running after " + std::to_string(seconds) + " s";
        ADD_FAILURE() << r.problem;
        return r;
      }
      usleep(20000);
    }
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    r.out = read_file(out_path);
    r.err = read_file(err_path);
    return r;
  }

  // Every failure the tool reports is one line on stderr starting with "error: ".
  static void expect_one_error_line(const RunResult& r) {
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  }
  // Usage errors too are one line (a command-line syntax error ends with where to find help).
  static void expect_usage_error(const RunResult& r) {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    expect_one_error_line(r);
  }
};

const json* find_query(const json& summary, const std::string& name) {
  for (const json& q : summary.at("queries")) {
    if (q.at("name") == name) return &q;
  }
  return nullptr;
}

bool any_problem_contains(const json& query, const std::string& text) {
  for (const json& p : query.at("problems")) {
    if (contains(p.get<std::string>(), text)) return true;
  }
  return false;
}

// --- validate ----------------------------------------------------------------------------------

TEST_F(Cli, ValidateJsonCountsWhatTheSceneHolds) {
  const SceneSpec spec = two_rooms();
  const fs::path scene = write("two-rooms.yaml", spec.yaml());
  const RunResult r = run({"validate", scene.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const json j = json::parse(r.out);
  EXPECT_EQ(j.at("valid"), true);
  EXPECT_EQ(j.at("name"), spec.name);
  EXPECT_EQ(j.at("format"), "native-yaml");
  EXPECT_EQ(j.at("obstacles").at("count"), spec.obstacles.size());
  EXPECT_EQ(j.at("obstacles").at("vertices"), spec.obstacle_vertices());
  EXPECT_EQ(j.at("obstacles").at("holes"), spec.hole_count());
  ASSERT_EQ(j.at("regions").size(), spec.regions.size());
  for (std::size_t i = 0; i < spec.regions.size(); ++i) {
    EXPECT_EQ(j.at("regions")[i].at("name"), spec.regions[i].name);
    EXPECT_EQ(j.at("regions")[i].at("cost"), spec.regions[i].cost);
  }
  EXPECT_EQ(j.at("agent").at("radius"), 0.0);
  const Box b = bounding_box(spec.bounds);
  EXPECT_EQ(j.at("bounds").at("width"), b.width());
  EXPECT_EQ(j.at("bounds").at("height"), b.height());
  const double area = spec.free_area();
  EXPECT_NEAR(j.at("free_space").at("area").get<double>(), area, 1e-9 * area);
  // The pocket inside the second obstacle is free space of its own.
  EXPECT_EQ(j.at("free_space").at("components"), 2);
  EXPECT_GE(j.at("free_space").at("boundary_edges").get<std::size_t>(),
            spec.bounds.size() + spec.obstacle_vertices());
  ASSERT_EQ(j.at("queries").size(), spec.queries.size());
  EXPECT_EQ(j.at("valid_queries"), 1);
  EXPECT_EQ(j.at("invalid_queries"), spec.queries.size() - 1);
}

TEST_F(Cli, ValidateExplainsEachInvalidQuery) {
  const fs::path scene = write("two-rooms.yaml", two_rooms().yaml());
  const RunResult r = run({"validate", scene.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);

  const json* across = find_query(j, "across");
  ASSERT_NE(across, nullptr);
  EXPECT_EQ(across->at("valid"), true);
  EXPECT_TRUE(across->at("problems").empty());

  const json* wall = find_query(j, "into-wall");
  ASSERT_NE(wall, nullptr);
  EXPECT_EQ(wall->at("valid"), false);
  EXPECT_TRUE(any_problem_contains(*wall, "start (6, 4) is")) << wall->dump();
  EXPECT_TRUE(any_problem_contains(*wall, "obstacles[0]")) << wall->dump();
  EXPECT_TRUE(wall->at("start_component").is_null());

  const json* pocket = find_query(j, "pocket");
  ASSERT_NE(pocket, nullptr);
  EXPECT_EQ(pocket->at("valid"), false);
  EXPECT_TRUE(
      any_problem_contains(*pocket, "no path possible: start and goal are in different components"))
      << pocket->dump();
  EXPECT_NE(pocket->at("start_component"), pocket->at("goal_component"));

  const json* outside = find_query(j, "outside");
  ASSERT_NE(outside, nullptr);
  EXPECT_EQ(outside->at("valid"), false);
  EXPECT_TRUE(any_problem_contains(*outside, "goal (25, 5) is")) << outside->dump();
  EXPECT_TRUE(any_problem_contains(*outside, "outside")) << outside->dump();
}

TEST_F(Cli, ValidateTextSummary) {
  const SceneSpec spec = two_rooms();
  const fs::path scene = write("two-rooms.yaml", spec.yaml());
  const RunResult r = run({"validate", scene.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(contains(r.out, "scene " + spec.name + "\n")) << r.out;
  EXPECT_TRUE(contains(r.out, std::to_string(spec.obstacles.size()) + " obstacles, " +
                                  std::to_string(spec.obstacle_vertices()) + " vertices"))
      << r.out;
  EXPECT_TRUE(contains(r.out, std::to_string(spec.queries.size()) + ": 1 valid, " +
                                  std::to_string(spec.queries.size() - 1) + " invalid"))
      << r.out;
  // One line per query, invalid ones with their reason.
  for (const auto& q : spec.queries) EXPECT_TRUE(contains(r.out, q.name)) << q.name;
  EXPECT_TRUE(contains(r.out, "INVALID")) << r.out;
  EXPECT_TRUE(contains(r.out, "different components")) << r.out;
  EXPECT_TRUE(contains(r.out, "valid scene, but 3 of 4 queries are invalid")) << r.out;
}

TEST_F(Cli, ValidSceneWithoutQueries) {
  SceneSpec spec = two_rooms();
  spec.queries.clear();
  const fs::path scene = write("plain.yaml", spec.yaml());
  const RunResult r = run({"validate", scene.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "valid scene\n")) << r.out;
}

TEST_F(Cli, ValidateReadsJsonScenes) {
  const SceneSpec spec = two_rooms();
  const fs::path scene = write("two-rooms.json", spec.to_json().dump(2));
  const RunResult r = run({"validate", scene.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j.at("format"), "native-json");
  EXPECT_EQ(j.at("obstacles").at("count"), spec.obstacles.size());
  EXPECT_EQ(j.at("queries").size(), spec.queries.size());
}

TEST_F(Cli, RadiusOptionOverridesTheScene) {
  SceneSpec spec = two_rooms();
  spec.radius = 0.1;
  // 0.3 from obstacles[0]: free for the scene's agent, not for one of radius 0.5.
  spec.queries = {{"close", {4.7, 4}, {1, 1}}};
  const fs::path scene = write("close.yaml", spec.yaml());

  const RunResult own = run({"validate", scene.string(), "--json"});
  ASSERT_EQ(own.exit_code, 0) << own.err;
  const json j_own = json::parse(own.out);
  EXPECT_EQ(j_own.at("agent").at("radius"), 0.1);
  EXPECT_EQ(j_own.at("queries")[0].at("valid"), true);

  // Global options go before or after the subcommand.
  for (const auto& args :
       {std::vector<std::string>{"--radius", "0.5", "validate", scene.string(), "--json"},
        std::vector<std::string>{"validate", scene.string(), "--json", "--radius", "0.5"}}) {
    const RunResult big = run(args);
    ASSERT_EQ(big.exit_code, 0) << big.err;
    const json j = json::parse(big.out);
    EXPECT_EQ(j.at("agent").at("radius"), 0.5);
    const json& q = j.at("queries")[0];
    EXPECT_EQ(q.at("valid"), false);
    EXPECT_TRUE(any_problem_contains(q, "start (4.7, 4) is")) << q.dump();
    EXPECT_TRUE(any_problem_contains(q, "obstacles[0]")) << q.dump();
    EXPECT_LT(j.at("free_space").at("area").get<double>(),
              j_own.at("free_space").at("area").get<double>());
  }
}

TEST_F(Cli, InflationToleranceIsPassedOn) {
  SceneSpec spec = two_rooms();
  spec.radius = 0.5;
  const fs::path scene = write("round.yaml", spec.yaml());
  const RunResult r = run({"--inflation-tolerance", "0.01", "validate", scene.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_NEAR(j.at("free_space").at("inflation_tolerance").get<double>(), 0.01, 1e-12);
}

TEST_F(Cli, BadOptionValuesAreUsageErrors) {
  const fs::path scene = write("two-rooms.yaml", two_rooms().yaml());
  for (const std::string bad : {"-1", "nan", "inf", "abc", ""}) {
    SCOPED_TRACE(bad);
    expect_usage_error(run({"validate", scene.string(), "--radius", bad}));
  }
  expect_usage_error(run({"--inflation-tolerance", "-0.5", "validate", scene.string()}));
}

// --- errors --------------------------------------------------------------------------------------

TEST_F(Cli, SyntaxErrorIsOneLineWithFileLineAndColumn) {
  const fs::path scene = write("broken.yaml",
                               "version: 1\n"
                               "name: broken\n"
                               "bounds: [[0, 0], [10, 0], [10, 10], [0, 10]\n"
                               "obstacles: []\n");
  for (const char* json_flag : {"", "--json"}) {
    std::vector<std::string> args{"validate", scene.string()};
    if (*json_flag) args.push_back(json_flag);
    const RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out, "");
    expect_one_error_line(r);
    const std::regex located(
        "^error: " +
        std::regex_replace(scene.string(), std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
        R"(:\d+:\d+: .+\n$)");
    EXPECT_TRUE(std::regex_match(r.err, located)) << r.err;
  }
}

TEST_F(Cli, InvalidSceneValueNamesTheKey) {
  SceneSpec spec = two_rooms();
  spec.regions[1].cost = -2;
  const fs::path scene = write("negative.yaml", spec.yaml());
  const RunResult r = run({"validate", scene.string()});
  EXPECT_EQ(r.exit_code, 2);
  expect_one_error_line(r);
  EXPECT_TRUE(contains(r.err, "negative.yaml")) << r.err;
  EXPECT_TRUE(contains(r.err, "regions[1]")) << r.err;
}

TEST_F(Cli, MissingFile) {
  const fs::path missing = dir_ / "no-such-scene.yaml";
  for (const std::string cmd : {"validate", "render"}) {
    std::vector<std::string> args{cmd, missing.string()};
    if (cmd == "render") args.insert(args.end(), {"-o", (dir_ / "x.svg").string()});
    const RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 2) << cmd;
    expect_one_error_line(r);
    EXPECT_TRUE(contains(r.err, missing.string())) << r.err;
  }
}

TEST_F(Cli, UsageErrors) {
  const fs::path scene = write("two-rooms.yaml", two_rooms().yaml());
  expect_usage_error(run({"validate", scene.string(), "--no-such-option"}));
  expect_usage_error(run({"--no-such-option", "validate", scene.string()}));
  expect_usage_error(run({"no-such-command", scene.string()}));
  EXPECT_TRUE(contains(run({"validate", scene.string(), "--no-such-option"}).err,
                       "(run 'polynav validate --help' for usage)"));
  expect_usage_error(run({"validate"}));
  expect_usage_error(run({"validate", scene.string(), "extra-argument"}));
  expect_usage_error(run({"render", scene.string()}));  // -o is required
  expect_usage_error(run({"render", scene.string(), "-o", "x.svg", "--width", "5"}));
  expect_usage_error(run({"render", scene.string(), "-o", "x.svg", "--width", "wide"}));
  const RunResult nothing = run({});
  EXPECT_EQ(nothing.exit_code, 2);
  EXPECT_TRUE(contains(nothing.err, "validate")) << "a bare call shows the help";
}

// --- help and version ----------------------------------------------------------------------------

TEST_F(Cli, HelpTeachesTheTool) {
  const RunResult r = run({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* needle : {"validate", "render", "--radius", "--inflation-tolerance", "--version",
                             "Examples:", "Exit codes:", "polynav validate ", "polynav render "}) {
    EXPECT_TRUE(contains(r.out, needle)) << needle << "\n" << r.out;
  }
  // Every subcommand is listed with what it does (a line naming one declares it alone).
  for (const char* description :
       {"Check a scene and summarise it", "Draw a scene as an SVG picture",
        "Plan paths through a scene", "Run a MovingAI scenario",
        "Everything reachable from a point", "Write any scene as a native",
        "Run every method x option set", "Join the CSVs of an experiment",
        "List the methods, smoothers", "Plan by clicking"}) {
    EXPECT_TRUE(contains(r.out, description)) << description << "\n" << r.out;
  }
}

TEST_F(Cli, SubcommandHelp) {
  const RunResult v = run({"validate", "--help"});
  EXPECT_EQ(v.exit_code, 0);
  for (const char* needle : {"SCENE", "--json", "Examples:", "polynav validate ", "Exit codes:"}) {
    EXPECT_TRUE(contains(v.out, needle)) << needle << "\n" << v.out;
  }
  const RunResult r = run({"render", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* needle : {"--output", "--width", "Examples:", "polynav render "}) {
    EXPECT_TRUE(contains(r.out, needle)) << needle << "\n" << r.out;
  }
}

TEST_F(Cli, Version) {
  const RunResult r = run({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("polynav ", 0), 0u) << r.out;
}

// --- render --------------------------------------------------------------------------------------

std::vector<std::string> missing_groups(const test::XmlCheck& check,
                                        const std::vector<std::string>& wanted) {
  std::vector<std::string> missing;
  for (const std::string& id : wanted) {
    if (std::find(check.group_ids.begin(), check.group_ids.end(), id) == check.group_ids.end()) {
      missing.push_back(id);
    }
  }
  return missing;
}

TEST_F(Cli, RenderWritesWellFormedSvg) {
  SceneSpec spec = two_rooms();
  spec.name = "rooms <A & B>";
  const fs::path scene = write("two-rooms.yaml", spec.yaml());
  const fs::path svg_path = dir_ / "out.svg";
  const RunResult r = run({"render", scene.string(), "-o", svg_path.string(), "--width", "640"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(contains(r.out, "wrote " + svg_path.string())) << r.out;

  const std::string svg = read_file(svg_path);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_TRUE(contains(svg, "width=\"640\""));
  const test::XmlCheck check = test::check_xml(svg);
  ASSERT_EQ(check.problem, "") << svg.substr(0, 2000);
  EXPECT_EQ(check.root, "svg");
  EXPECT_EQ(missing_groups(check, {"frame", "bounds", "regions", "obstacles", "walls", "labels",
                                   "queries", "title", "legend"}),
            std::vector<std::string>{});
  // A point agent has no clearance band.
  EXPECT_EQ(missing_groups(check, {"inflated"}), std::vector<std::string>{"inflated"});
  EXPECT_TRUE(contains(svg, "rooms &lt;A &amp; B&gt;"));
  for (const auto& q : spec.queries) EXPECT_TRUE(contains(svg, ">" + q.name + "<")) << q.name;
  for (const auto& region : spec.regions) EXPECT_TRUE(contains(svg, region.name)) << region.name;
}

TEST_F(Cli, RenderShowsTheInflatedOutlineForARadius) {
  const fs::path scene = write("two-rooms.yaml", two_rooms().yaml());
  const fs::path svg_path = dir_ / "round.svg";
  const RunResult r = run({"render", scene.string(), "-o", svg_path.string(), "--radius", "0.4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const test::XmlCheck check = test::check_xml(read_file(svg_path));
  ASSERT_EQ(check.problem, "");
  EXPECT_EQ(missing_groups(check, {"clearance", "inflated"}), std::vector<std::string>{});
}

TEST_F(Cli, RenderToStandardOutputAndBare) {
  const fs::path scene = write("two-rooms.yaml", two_rooms().yaml());
  const RunResult r = run({"render", scene.string(), "-o", "-", "--bare"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("<svg", 0), 0u);
  const test::XmlCheck check = test::check_xml(r.out);
  ASSERT_EQ(check.problem, "");
  EXPECT_EQ(missing_groups(check, {"title", "legend"}),
            (std::vector<std::string>{"title", "legend"}));
  EXPECT_EQ(missing_groups(check, {"obstacles", "queries"}), std::vector<std::string>{});
}

// --- hostile input and output ------------------------------------------------------------------

TEST_F(Cli, OutputsThatCannotBeWrittenAreRefusedBeforeAnyWork) {
  const fs::path scene = write("corridor.yaml",
                               "version: 1\n"
                               "bounds: [[0, 0], [20, 0], [20, 10], [0, 10]]\n"
                               "queries: [{start: [2, 2], goal: [18, 2]}]\n");
  fs::create_directory(dir_ / "a-folder.svg");
  fs::create_directory(dir_ / "a-folder.yaml");
  const std::string folder = (dir_ / "a-folder.svg").string();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"plan", scene.string(), "--svg", folder},
        {"render", scene.string(), "-o", folder},
        {"convert", scene.string(), "-o", (dir_ / "a-folder.yaml").string()},
        {"reach", scene.string(), "--from", "2,2", "--cost", "3", "--svg", folder},
        {"experiment", scene.string(), "--out", folder, "--no-progress"}}) {
    SCOPED_TRACE(args.front());
    const RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 2);
    expect_one_error_line(r);
    EXPECT_TRUE(contains(r.err, "a-folder.")) << r.err;
    EXPECT_TRUE(contains(r.err, "directory")) << r.err;
    EXPECT_EQ(r.out, "") << "planned before refusing the output";
  }
}

TEST_F(Cli, AFullDiskIsAnErrorNotSuccess) {
  // Only the device fails every write; where /dev/full is missing or an ordinary file (some
  // containers), writing there succeeds and there is nothing to test.
  if (!fs::is_character_file("/dev/full"))
    GTEST_SKIP() << "/dev/full is not a character device here";
  const fs::path scene = write("corridor.yaml",
                               "version: 1\n"
                               "bounds: [[0, 0], [20, 0], [20, 10], [0, 10]]\n"
                               "queries: [{start: [2, 2], goal: [18, 2]}]\n");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"plan", scene.string(), "--json"},
        {"validate", scene.string()},
        {"render", scene.string(), "-o", "-"},
        {"methods", "--json"}}) {
    SCOPED_TRACE(args.front());
    const RunResult r = run(args, "/dev/full");
    EXPECT_EQ(r.exit_code, 2);
    expect_one_error_line(r);
    EXPECT_TRUE(contains(r.err, "cannot write to standard output")) << r.err;
  }
}

TEST_F(Cli, APipeOrDeviceIsRefusedWithoutWaitingOnIt) {
  const fs::path fifo = dir_ / "scene.yaml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Nobody writes to the FIFO: opening it to read would block forever.
  const RunResult r = run({"validate", fifo.string()});
  EXPECT_EQ(r.exit_code, 2);
  expect_one_error_line(r);
  EXPECT_TRUE(contains(r.err, "not a regular file")) << r.err;
  for (const char* device : {"/dev/zero", "/dev/null"}) {
    const fs::path link = dir_ / (std::string(device).substr(5) + ".map");
    fs::create_symlink(device, link);
    const RunResult d = run({"validate", link.string()});
    EXPECT_EQ(d.exit_code, 2) << device;
    expect_one_error_line(d);
  }
}

TEST_F(Cli, MergeRefusesAPipeOrDeviceBeforeOpeningIt) {
  const fs::path fifo = dir_ / "shard.csv";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::vector<std::string> inputs = {fifo.string()};
  if (fs::exists("/dev/zero")) inputs.push_back("/dev/zero");  // read, it never ends
  const fs::path out = dir_ / "all.csv";
  for (const std::string& input : inputs) {
    SCOPED_TRACE(input);
    // Nobody writes to the FIFO: opening it to read would block forever.
    const RunResult r = run_within({"merge", input, "--out", out.string()}, 20);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    expect_one_error_line(r);
    EXPECT_TRUE(contains(r.err, "error: " + input + ": it is not a regular file")) << r.err;
    EXPECT_FALSE(fs::exists(out));
  }
  // Every input is checked before any is read.
  const RunResult later =
      run_within({"merge", "/no/such/shard.csv", fifo.string(), "--out", out.string()}, 20);
  EXPECT_EQ(later.exit_code, 2);
  EXPECT_TRUE(contains(later.err, "/no/such/shard.csv: no such file")) << later.err;
  const RunResult folder = run_within({"merge", dir_.string(), "--out", out.string()}, 20);
  EXPECT_EQ(folder.exit_code, 2);
  EXPECT_TRUE(contains(folder.err, "it is a directory")) << folder.err;
}

TEST_F(Cli, NamesMustBeUtf8AndSayWhereTheyAreNot) {
  const fs::path scene = write("names.yaml",
                               "version: 1\n"
                               "bounds: [[0, 0], [20, 0], [20, 10], [0, 10]]\n"
                               "queries: [{name: \"caf\xE9\", start: [2, 2], goal: [18, 2]}]\n");
  const RunResult r = run({"plan", scene.string(), "--json"});
  EXPECT_EQ(r.exit_code, 2);
  expect_one_error_line(r);
  EXPECT_TRUE(contains(r.err, "names.yaml:3:")) << r.err;
  EXPECT_TRUE(contains(r.err, "not valid UTF-8: byte 0xE9")) << r.err;
  const fs::path good = write("good-names.yaml",
                              "version: 1\n"
                              "bounds: [[0, 0], [20, 0], [20, 10], [0, 10]]\n"
                              "queries: [{name: \"caf\xC3\xA9\", start: [2, 2], goal: [18, 2]}]\n");
  const RunResult ok = run({"plan", good.string(), "--json"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(json::parse(ok.out).at("query"), "caf\xC3\xA9");
}

TEST_F(Cli, APlanLineHoldsOneQueryWhateverItsName) {
  // A query name may hold a line break (YAML's "\n"); the text output keeps one line per item,
  // the JSON the name as given.
  const fs::path scene =
      write("broken-name.yaml",
            "version: 1\n"
            "bounds: [[0, 0], [20, 0], [20, 10], [0, 10]]\n"
            "queries: [{name: \"first\\nsecond\", start: [2, 2], goal: [18, 2]}]\n");
  const RunResult r = run({"plan", scene.string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "first\\nsecond: found")) << r.out;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    EXPECT_NE(line.rfind("second", 0), 0u) << "a name split over two lines:\n" << r.out;
  const RunResult j = run({"plan", scene.string(), "--json"});
  EXPECT_EQ(j.exit_code, 0) << j.err;
  EXPECT_EQ(json::parse(j.out).at("query"), "first\nsecond");
}

TEST_F(Cli, HugeAndFarCoordinatesAreRefusedWithTheirPlace) {
  const fs::path huge = write("huge.yaml",
                              "version: 1\n"
                              "bounds: [[0, 0], [10, 0], [10, 10], [0, 10]]\n"
                              "obstacles:\n"
                              "  - [[2, 2], [0.7e308, 2], [3, 3]]\n");
  RunResult r = run({"validate", huge.string()});
  EXPECT_EQ(r.exit_code, 2);
  expect_one_error_line(r);
  EXPECT_TRUE(contains(r.err, "huge.yaml:4:")) << r.err;
  const fs::path far_scene = write("far.yaml",
                                   "version: 1\n"
                                   "bounds: [[10000000000000, 10000000000000], [10000000000010, "
                                   "10000000000000], [10000000000010, 10000000000010], "
                                   "[10000000000000, 10000000000010]]\n"
                                   "queries: [{start: [10000000000001, 10000000000001], goal: "
                                   "[10000000000009, 10000000000009]}]\n");
  r = run({"plan", far_scene.string(), "--method", "visgraph"});
  EXPECT_EQ(r.exit_code, 2);
  expect_one_error_line(r);
  EXPECT_TRUE(contains(r.err, "translate it nearer the origin")) << r.err;
  r = run({"plan", far_scene.string(), "--radius", "1e300"});
  EXPECT_EQ(r.exit_code, 2);
  expect_one_error_line(r);
}

// Aliases let a few bytes name one list many times: the point budget counts every use. Here
// one box is named ten times: 40 points, and the bounds' 4.
TEST_F(Cli, YamlAliasesCountAgainstThePointBudgetWhichAnOptionRaises) {
  const fs::path scene = write("alias-points.yaml",
                               "version: 1\n"
                               "bounds: [[0, 0], [10, 0], [10, 10], [0, 10]]\n"
                               "obstacles: [&box [[1, 1], [2, 1], [2, 2], [1, 2]], *box, *box, "
                               "*box, *box, *box, *box, *box, *box, *box]\n");
  RunResult r = run({"validate", scene.string(), "--max-points", "43"});
  EXPECT_EQ(r.exit_code, 2);
  expect_one_error_line(r);
  EXPECT_TRUE(contains(r.err, "alias-points.yaml:3:")) << r.err;
  EXPECT_TRUE(contains(r.err, "obstacles[9][3]: the scene has more than 43 points")) << r.err;
  EXPECT_TRUE(contains(r.err, "--max-points")) << r.err;
  r = run({"validate", scene.string(), "--max-points", "44"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run({"validate", scene.string(), "--max-points", "0"});
  EXPECT_EQ(r.exit_code, 2);
  expect_one_error_line(r);
}

TEST_F(Cli, MaxPointsOutsideItsRangeIsRefusedNamingTheValue) {
  const fs::path scene = write("two-rooms.yaml", two_rooms().yaml());
  struct Case {
    std::string value, says;
  };
  const Case cases[] = {
      {"0", "must be at least 1, found 0"},
      {"-1", "must be at least 1, found -1"},
      {"-18446744073709551616", "must be at least 1, found -18446744073709551616"},
      {"18446744073709551616", "must be at most 18446744073709551615, found 18446744073709551616"},
      {"1e3", "expected a whole number, found '1e3'"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.value);
    for (const bool before : {true, false}) {
      const std::vector<std::string> args =
          before ? std::vector<std::string>{"--max-points", c.value, "validate", scene.string()}
                 : std::vector<std::string>{"validate", scene.string(), "--max-points", c.value};
      const RunResult r = run(args);
      expect_usage_error(r);
      EXPECT_TRUE(contains(r.err, "error: --max-points: ")) << r.err;
      EXPECT_TRUE(contains(r.err, c.says)) << r.err;
    }
  }
  EXPECT_EQ(run({"--max-points", "18446744073709551615", "validate", scene.string()}).exit_code, 0);
}

TEST_F(Cli, ExperimentCountsHaveBudgetsCheckedUpFront) {
  const std::string maze = (fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "maze.yaml").string();
  const fs::path out = dir_ / "out.csv";
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"--random", "1000000000000"},
       "--random: the number of random queries per scene must be at most 1000000, found "
       "1000000000000"},
      {{"--random", "1000001"}, "must be at most 1000000, found 1000001"},
      {{"--random", "-1"}, "--random: the number of random queries per scene must be at least 0"},
      {{"--random", "99999999999999999999999"}, "must be at most 1000000"},
      {{"--random", "2", "--seed", "-1"}, "--seed: the seed must be at least 0, found -1"},
      {{"--random", "2", "--reference-max-corners", "-1"}, "--reference-max-corners: "},
      // 2 scenes x 4 methods x 2 smoothers x 1000000 queries: more rows than one run holds.
      {{maze, "--random", "1000000"}, "more than 10000000 rows"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"experiment", maze, "--out", out.string(), "--no-progress"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const RunResult r = run_within(args, 60);
    EXPECT_EQ(r.exit_code, 2) << c.says << ": " << r.err;
    expect_one_error_line(r);
    EXPECT_TRUE(contains(r.err, c.says)) << r.err;
    EXPECT_FALSE(fs::exists(out)) << c.says;
  }
  const RunResult help = run({"experiment", "--help"});
  EXPECT_TRUE(contains(help.out, "at most 1000000")) << help.out;
}

TEST_F(Cli, ABuildOverItsTimeBudgetIsStoppedNamingTheOption) {
  const std::string maze = (fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "maze.yaml").string();
  RunResult r =
      run({"plan", maze, "--method", "visgraph", "--set", "space.max_build_seconds=1e-9"});
  EXPECT_EQ(r.exit_code, 2);
  expect_one_error_line(r);
  EXPECT_TRUE(contains(r.err, "space.max_build_seconds")) << r.err;
  EXPECT_TRUE(contains(r.err, "building free space")) << r.err;
  r = run({"plan", maze, "--set", "space.max_build_seconds=0"});
  EXPECT_EQ(r.exit_code, 2) << "the budget must be positive";
  expect_one_error_line(r);
}

TEST_F(Cli, AnInvalidQueryExitsTwoAndSaysWhyOnStderr) {
  const fs::path scene = write("walls.yaml",
                               "version: 1\n"
                               "bounds: [[0, 0], [20, 0], [20, 10], [0, 10]]\n"
                               "obstacles: [[[8, 0], [12, 0], [12, 7], [8, 7]]]\n"
                               "queries: [{name: inside, start: [10, 3], goal: [18, 2]}]\n");
  const RunResult r = run({"plan", scene.string()});
  EXPECT_EQ(r.exit_code, 2);
  expect_one_error_line(r);
  EXPECT_TRUE(contains(r.err, "walls.yaml:4:")) << r.err;
  EXPECT_TRUE(contains(r.err, "query 'inside'")) << r.err;
  EXPECT_TRUE(contains(r.err, "inside obstacles[0]")) << r.err;
}

TEST_F(Cli, RenderToAnUnwritablePlace) {
  const fs::path scene = write("two-rooms.yaml", two_rooms().yaml());
  const RunResult r = run({"render", scene.string(), "-o", (dir_ / "no-dir" / "x.svg").string()});
  EXPECT_EQ(r.exit_code, 2);
  expect_one_error_line(r);
  EXPECT_TRUE(contains(r.err, "no-dir")) << r.err;
}

// --- plan and scen ---------------------------------------------------------------------------

const std::string corridor_scene =
    "version: 1\n"
    "bounds: [[0, 0], [20, 0], [20, 10], [0, 10]]\n"
    "obstacles:\n"
    "  - [[8, 0], [12, 0], [12, 7], [8, 7]]\n"
    "queries:\n"
    "  - {name: over-the-wall, start: [2, 2], goal: [18, 2]}\n"
    "  - {name: short-hop, start: [2, 8], goal: [4, 8]}\n";

TEST_F(Cli, PlanJsonGivesOneValidObjectPerQuery) {
  const fs::path scene = write("corridor.yaml", corridor_scene);
  const RunResult r = run({"plan", scene.string(), "--json", "--resolution", "0.25"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  int objects = 0;
  while (std::getline(lines, line)) {
    const json j = json::parse(line);
    ++objects;
    EXPECT_EQ(j.at("status"), "found");
    EXPECT_EQ(j.at("method"), "grid");
    const auto& w = j.at("waypoints");
    ASSERT_GE(w.size(), 2u);
    EXPECT_EQ(w.front(), j.at("start"));
    EXPECT_EQ(w.back(), j.at("goal"));
    // The wall [8, 12] x [0, 7] forces the first query over y = 7.
    if (j.at("query") == "over-the-wall") {
      double top = 0;
      for (const auto& p : w) top = std::max(top, p.at(1).get<double>());
      EXPECT_GE(top, 7.0);
      EXPECT_GT(j.at("length").get<double>(), 16.0);
    }
    EXPECT_LE(j.at("length").get<double>(), j.at("raw_length").get<double>() + 1e-9);
    for (const char* key : {"nodes", "expanded", "generated", "build_ms", "search_ms", "smooth_ms"})
      EXPECT_TRUE(j.at("stats").contains(key)) << key;
  }
  EXPECT_EQ(objects, 2);
}

TEST_F(Cli, PlanStartInsideAnObstacleIsAnInvalidQuery) {
  const fs::path scene = write("corridor.yaml", corridor_scene);
  const RunResult r = run({"plan", scene.string(), "--start", "10,3", "--goal", "18,2"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.out, "invalid_query")) << r.out;
  EXPECT_TRUE(contains(r.out, "inside obstacles[0]")) << r.out;
  const RunResult snapped =
      run({"plan", scene.string(), "--start", "10,3", "--goal", "18,2", "--snap", "--json"});
  EXPECT_EQ(snapped.exit_code, 0) << snapped.out << snapped.err;
}

// Several invalid queries are still one error line: how many, and the first reasons; each
// reason is in its query's output as well, which keeps its format.
TEST_F(Cli, PlanWithSeveralInvalidQueriesPrintsOneErrorLine) {
  const fs::path scene = write("two-rooms.yaml", two_rooms().yaml());
  const RunResult r = run({"plan", scene.string(), "--json"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  expect_one_error_line(r);
  EXPECT_TRUE(contains(r.err, "error: 2 of 4 queries are invalid")) << r.err;
  EXPECT_TRUE(contains(r.err, scene.string() + ":")) << r.err;
  EXPECT_TRUE(contains(r.err, "queries[1]: query 'into-wall': start (6, 4) is not in free space"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "; ")) << r.err;
  EXPECT_TRUE(contains(r.err, "query 'outside': goal (25, 5) is not in free space")) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  std::vector<std::string> statuses;
  while (std::getline(lines, line)) {
    const json j = json::parse(line);
    statuses.push_back(j.at("status"));
    if (j.at("status") == "invalid_query") {
      EXPECT_TRUE(contains(r.err, j.at("message").get<std::string>())) << line;
    }
  }
  EXPECT_EQ(statuses,
            (std::vector<std::string>{"found", "invalid_query", "no_path", "invalid_query"}));
  // In text too; with more invalid queries than the line names, it says how many more.
  SceneSpec many = two_rooms();
  for (int i = 0; i < 4; ++i)
    many.queries.push_back({"wall-" + std::to_string(i), {6.5, 3 + 0.5 * i}, {1, 1}});
  const RunResult text = run({"plan", write("many.yaml", many.yaml()).string()});
  EXPECT_EQ(text.exit_code, 2) << text.err;
  expect_one_error_line(text);
  EXPECT_TRUE(contains(text.err, "error: 6 of 8 queries are invalid")) << text.err;
  EXPECT_TRUE(contains(text.err, "; and 3 more\n")) << text.err;
  EXPECT_FALSE(contains(text.err, "wall-1")) << text.err;
  EXPECT_TRUE(contains(text.out, "wall-3: invalid_query")) << text.out;
  // One invalid query keeps its own line, located at the query.
  SceneSpec one = two_rooms();
  one.queries.erase(one.queries.begin() + 3);
  const fs::path one_path = write("one.yaml", one.yaml());
  const RunResult single = run({"plan", one_path.string()});
  EXPECT_EQ(single.exit_code, 2);
  expect_one_error_line(single);
  EXPECT_EQ(single.err.rfind("error: " + one_path.string() + ":", 0), 0u) << single.err;
  EXPECT_TRUE(contains(single.err, ": queries[1]: query 'into-wall': start (6, 4)")) << single.err;
}

TEST_F(Cli, PlanWithoutAPathExitsOne) {
  const fs::path scene = write("walled.yaml",
                               "version: 1\n"
                               "bounds: [[0, 0], [20, 0], [20, 10], [0, 10]]\n"
                               "obstacles: [[[8, 0], [12, 0], [12, 10], [8, 10]]]\n");
  const RunResult r = run({"plan", scene.string(), "--start", "2,2", "--goal", "18,2", "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(json::parse(r.out).at("status"), "no_path");
}

// --flee-from: the goal is the point reached, at least --distance from every threat; the
// options go together and not with a goal.
TEST_F(Cli, PlanFleesFromThreats) {
  const fs::path scene = write("walled.yaml",
                               "version: 1\n"
                               "bounds: [[0, 0], [20, 0], [20, 10], [0, 10]]\n"
                               "obstacles: [[[8, 0], [12, 0], [12, 6], [8, 6]]]\n");
  const RunResult r = run({"plan", scene.string(), "--start", "6,2", "--flee-from", "5,2,7,3",
                           "--distance", "6", "--method", "visgraph", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j.at("status"), "found");
  const double gx = j.at("goal").at(0), gy = j.at("goal").at(1);
  for (const auto& [tx, ty] : {std::pair{5.0, 2.0}, std::pair{7.0, 3.0}})
    EXPECT_GE(std::hypot(gx - tx, gy - ty), 6.0 - 1e-9);
  EXPECT_EQ(j.at("waypoints").back(), j.at("goal"));
  // The picture draws the threats and their circles.
  const fs::path svg = dir_ / "flee.svg";
  const RunResult drawn = run({"plan", scene.string(), "--start", "6,2", "--flee-from", "5,2,7,3",
                               "--distance", "6", "--method", "visgraph", "--svg", svg.string()});
  ASSERT_EQ(drawn.exit_code, 0) << drawn.err;
  std::ifstream in(svg);
  const std::string picture((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t layer = picture.find("id=\"threats\"");
  ASSERT_NE(layer, std::string::npos);
  EXPECT_NE(picture.find("<polyline", layer), std::string::npos) << "the circles";
  const RunResult none = run({"plan", scene.string(), "--start", "6,2", "--flee-from", "10,5",
                              "--distance", "100", "--json"});
  EXPECT_EQ(none.exit_code, 1) << none.err;
  EXPECT_EQ(json::parse(none.out).at("status"), "no_path");
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--start", "6,2", "--flee-from", "5,2"},
        {"--start", "6,2", "--distance", "3"},
        {"--flee-from", "5,2", "--distance", "3"},
        {"--start", "6,2", "--goal", "1,1", "--flee-from", "5,2", "--distance", "3"},
        {"--start", "6,2", "--flee-from", "5,2,7", "--distance", "3"},
        {"--start", "6,2", "--flee-from", "5,2", "--distance", "-3"}}) {
    std::vector<std::string> args = {"plan", scene.string()};
    args.insert(args.end(), bad.begin(), bad.end());
    const RunResult e = run(args);
    EXPECT_EQ(e.exit_code, 2) << e.out << e.err;
    expect_one_error_line(e);
  }
}

// --edits: the queries planned on the scene as loaded and again after each time's edits, each
// JSON object saying after which time and on which version; a pallet dropped in a lane makes the
// path round it longer, and taking it away gives the first answer back. A bad edit is refused
// at its line, after the answers before it.
TEST_F(Cli, PlanReplansAfterEachTimedEdit) {
  const auto [scene, edits] = write_lane("lane");
  const RunResult r =
      run({"plan", scene.string(), "--edits", edits.string(), "--method", "visgraph", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::vector<json> lines;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_TRUE(lines[0].at("time").is_null());
  EXPECT_EQ(lines[0].at("version"), 0);
  EXPECT_EQ(lines[1].at("time"), 2.0);
  EXPECT_EQ(lines[1].at("version"), 1);
  EXPECT_EQ(lines[2].at("time"), 5.0);
  EXPECT_EQ(lines[2].at("version"), 2);
  const double straight = lines[0].at("length"), around = lines[1].at("length");
  EXPECT_DOUBLE_EQ(straight, 18.0);
  // Round the 2 x 4 pallet through its corners: 2 * hypot(8, 2) + 2.
  EXPECT_NEAR(around, 2 * std::hypot(8.0, 2.0) + 2, 1e-9);
  EXPECT_EQ(lines[2].at("waypoints"), lines[0].at("waypoints"));
  // Without --edits the objects have neither key.
  const RunResult plain = run({"plan", scene.string(), "--method", "visgraph", "--json"});
  EXPECT_FALSE(json::parse(plain.out).contains("version"));
  // An id that names nothing: the answers before it, then one located error line.
  const fs::path bad = write("bad-edits.yaml",
                             "version: 1\n"
                             "edits:\n"
                             "  - time: 1\n"
                             "    remove_obstacle: 7\n");
  const RunResult e = run({"plan", scene.string(), "--edits", bad.string(), "--json"});
  EXPECT_EQ(e.exit_code, 2) << e.out << e.err;
  expect_one_error_line(e);
  EXPECT_NE(e.err.find("bad-edits.yaml:3:5"), std::string::npos) << e.err;
  EXPECT_NE(e.err.find("no obstacle has id 7"), std::string::npos) << e.err;
  EXPECT_EQ(std::count(e.out.begin(), e.out.end(), '\n'), 1) << e.out;
  const RunResult ros =
      run({"plan", scene.string(), "--edits", edits.string(), "--format", "ros-path"});
  EXPECT_EQ(ros.exit_code, 2);
  expect_one_error_line(ros);
}

// --replan: the same times and versions, each answer the length a new search finds on the grid
// and on a mesh searched by Polyanya (an obstacle dropped in the lane, then taken away); without
// --edits, or with another method, a located error.
TEST_F(Cli, PlanReplanRepairsEachQuerysSearchAcrossTheEdits) {
  const auto [scene, edits] = write_lane("replan");
  const auto lines_of = [](const std::string& out) {
    std::vector<json> lines;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
    return lines;
  };
  const RunResult r = run({"plan", scene.string(), "--edits", edits.string(), "--replan",
                           "--smooth", "none", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const RunResult fresh =
      run({"plan", scene.string(), "--edits", edits.string(), "--smooth", "none", "--json"});
  ASSERT_EQ(fresh.exit_code, 0) << fresh.out << fresh.err;
  const std::vector<json> repaired = lines_of(r.out), searched = lines_of(fresh.out);
  ASSERT_EQ(repaired.size(), 3u);
  ASSERT_EQ(searched.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(repaired[i].at("version"), searched[i].at("version"));
    EXPECT_EQ(repaired[i].at("status"), "found");
    EXPECT_NEAR(double(repaired[i].at("raw_length")), double(searched[i].at("raw_length")), 1e-9);
  }
  EXPECT_GT(double(repaired[1].at("raw_length")), double(repaired[0].at("raw_length")));

  // On a mesh searched by Polyanya the corridor is followed while it holds: the same lengths.
  const std::vector<std::string> mesh = {"--method", "navmesh", "--set", "navmesh.search=optimal"};
  std::vector<std::string> args = {"plan",     scene.string(), "--edits", edits.string(),
                                   "--smooth", "none",         "--json"};
  args.insert(args.end(), mesh.begin(), mesh.end());
  const RunResult mesh_fresh = run(args);
  args.push_back("--replan");
  const RunResult mesh_followed = run(args);
  ASSERT_EQ(mesh_fresh.exit_code, 0) << mesh_fresh.out << mesh_fresh.err;
  ASSERT_EQ(mesh_followed.exit_code, 0) << mesh_followed.out << mesh_followed.err;
  const std::vector<json> followed = lines_of(mesh_followed.out), found = lines_of(mesh_fresh.out);
  ASSERT_EQ(followed.size(), 3u);
  ASSERT_EQ(found.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(followed[i].at("status"), "found");
    EXPECT_NEAR(double(followed[i].at("raw_length")), double(found[i].at("raw_length")), 1e-9);
  }

  const RunResult alone = run({"plan", scene.string(), "--replan"});
  EXPECT_EQ(alone.exit_code, 2);
  expect_one_error_line(alone);
  EXPECT_NE(alone.err.find("--edits"), std::string::npos) << alone.err;
  const RunResult visgraph =
      run({"plan", scene.string(), "--edits", edits.string(), "--replan", "--method", "visgraph"});
  EXPECT_EQ(visgraph.exit_code, 2);
  expect_one_error_line(visgraph);
  EXPECT_NE(visgraph.err.find("grid method"), std::string::npos) << visgraph.err;
}

// A query's own `radius`: planned as the scene loaded with that radius (--radius) plans it, the
// JSON says which radius; a bad one is refused at the query.
TEST_F(Cli, PlanServesEachQuerysOwnRadius) {
  const std::string scene_text =
      "version: 1\n"
      "bounds: [[0, 0], [20, 0], [20, 10], [0, 10]]\n"
      "agent: {radius: 0.2}\n"
      "obstacles: [[[8, 0], [9, 0], [9, 4.5], [8, 4.5]], [[8, 5.5], [9, 5.5], [9, 10], [8, 10]]]\n"
      "queries:\n"
      "  - {name: small, start: [2, 5], goal: [18, 5]}\n"
      "  - {name: wide, start: [2, 5], goal: [18, 5], radius: 0.6}\n"
      "  - {name: middle, start: [2, 2], goal: [18, 8], radius: 0.4}\n";
  const fs::path scene = write("sizes.yaml", scene_text);
  const RunResult all = run({"plan", scene.string(), "--method", "visgraph", "--json"});
  EXPECT_EQ(all.exit_code, 1) << all.err;  // the wide agent does not pass the door
  std::istringstream lines(all.out);
  std::map<std::string, json> by_name;
  for (std::string line; std::getline(lines, line);) {
    const json j = json::parse(line);
    by_name[j.at("query")] = j;
  }
  ASSERT_EQ(by_name.size(), 3u);
  for (const auto& [name, radius, status] :
       {std::tuple{"small", 0.2, "found"}, {"wide", 0.6, "no_path"}, {"middle", 0.4, "found"}}) {
    const json& j = by_name.at(name);
    EXPECT_EQ(j.at("radius").get<double>(), radius) << name;
    EXPECT_EQ(j.at("status"), status) << name;
    const RunResult one = run({"plan", scene.string(), "--method", "visgraph", "--json", "--query",
                               name, "--radius", shortest_text(radius)});
    EXPECT_EQ(json::parse(one.out).at("waypoints"), j.at("waypoints")) << name;
  }
  std::string bad = scene_text;
  bad.replace(bad.find("radius: 0.4"), 11, "radius: 1e300");
  const RunResult refused = run({"plan", write("bad.yaml", bad).string()});
  EXPECT_EQ(refused.exit_code, 2);
  expect_one_error_line(refused);
  EXPECT_TRUE(contains(refused.err, "queries[2]")) << refused.err;
}

// The hybrid method's headings: in the JSON when the path is its own (--smooth none), one per
// waypoint, and the ros-path poses face them.
TEST_F(Cli, PlanReportsTheHeadingsOfHybridPaths) {
  const fs::path scene = write("yard.yaml",
                               "version: 1\n"
                               "bounds: [[0, 0], [30, 0], [30, 20], [0, 20]]\n"
                               "obstacles: [[[12, 0], [16, 0], [16, 12], [12, 12]]]\n");
  const std::vector<std::string> query = {
      "plan",     scene.string(), "--start", "4,4",   "--goal",
      "26,4",     "--method",     "hybrid",  "--set", "hybrid.turning_radius=2",
      "--smooth", "none"};
  std::vector<std::string> as_json = query;
  as_json.push_back("--json");
  const RunResult r = run(as_json);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json j = json::parse(r.out);
  ASSERT_TRUE(j.contains("headings")) << r.out;
  const json& w = j.at("waypoints");
  const json& h = j.at("headings");
  ASSERT_EQ(h.size(), w.size());
  ASSERT_GT(w.size(), 3u);
  // Along a forward path each heading points roughly to the next waypoint.
  for (std::size_t i = 0; i + 1 < w.size(); ++i) {
    const double dx = w[i + 1][0].get<double>() - w[i][0].get<double>();
    const double dy = w[i + 1][1].get<double>() - w[i][1].get<double>();
    const double turn = std::remainder(std::atan2(dy, dx) - h[i].get<double>(), 2 * M_PI);
    EXPECT_LT(std::abs(turn), 0.8) << i;
  }
  std::vector<std::string> as_ros = query;
  as_ros.insert(as_ros.end(), {"--format", "ros-path"});
  const RunResult ros = run(as_ros);
  ASSERT_EQ(ros.exit_code, 0) << ros.err;
  std::size_t poses = 0;
  for (std::size_t at = 0;
       (at = ros.out.find("orientation: {x: 0, y: 0, z: ", at)) != std::string::npos; ++at) {
    const double z = std::stod(ros.out.substr(at + 29));
    EXPECT_NEAR(z, std::sin(h[poses].get<double>() / 2), 1e-9) << poses;
    ++poses;
  }
  EXPECT_EQ(poses, w.size());
  std::vector<std::string> smoothed = as_json;
  smoothed[smoothed.size() - 2] = "shortcut";
  EXPECT_FALSE(json::parse(run(smoothed).out).contains("headings"));
}

TEST_F(Cli, PlanRejectsBadOptions) {
  const fs::path scene = write("corridor.yaml", corridor_scene);
  expect_usage_error(run({"plan", scene.string(), "--resolution", "-1"}));
  expect_usage_error(run({"plan", scene.string(), "--method", "quadtreee"}));
  expect_usage_error(run({"plan", scene.string(), "--connectivity", "6"}));
  const RunResult bad_point = run({"plan", scene.string(), "--start", "1;2", "--goal", "3,4"});
  EXPECT_EQ(bad_point.exit_code, 2);
  expect_one_error_line(bad_point);
  EXPECT_TRUE(contains(bad_point.err, "'1;2'")) << bad_point.err;
  const RunResult no_query = run({"plan", scene.string(), "--query", "nope"});
  EXPECT_EQ(no_query.exit_code, 2);
  EXPECT_TRUE(contains(no_query.err, "over-the-wall")) << no_query.err;
  const RunResult huge = run({"plan", scene.string(), "--resolution", "0.0001"});
  EXPECT_EQ(huge.exit_code, 2);
  EXPECT_TRUE(contains(huge.err, "grid.max_cells")) << huge.err;
}

TEST_F(Cli, SetIsTheSameAsTheOlderFlags) {
  const fs::path scene = write("corridor.yaml", corridor_scene);
  const auto waypoints = [](const RunResult& r) {
    std::vector<json> all;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);)
      all.push_back(json::parse(line).at("waypoints"));
    return all;
  };
  const RunResult flags =
      run({"plan", scene.string(), "--json", "--resolution", "0.5", "--connectivity", "4"});
  const RunResult set = run({"plan", scene.string(), "--json", "--set", "grid.resolution=0.5",
                             "--set", "grid.connectivity=4"});
  const RunResult other = run({"plan", scene.string(), "--json", "--set", "grid.resolution=0.5"});
  ASSERT_EQ(flags.exit_code, 0) << flags.err;
  ASSERT_EQ(set.exit_code, 0) << set.err;
  EXPECT_EQ(waypoints(flags), waypoints(set));
  EXPECT_NE(waypoints(set), waypoints(other));  // the option really reached the grid
}

TEST_F(Cli, SetRefusesUnknownOptionsAndBadValuesNamingThem) {
  const fs::path scene = write("corridor.yaml", corridor_scene);
  const RunResult typo = run({"plan", scene.string(), "--set", "grid.resolutoin=1"});
  expect_usage_error(typo);
  expect_one_error_line(typo);
  EXPECT_TRUE(contains(typo.err, "did you mean 'grid.resolution'")) << typo.err;
  const RunResult group = run({"plan", scene.string(), "--set", "serach.weight=2"});
  expect_usage_error(group);
  EXPECT_TRUE(contains(group.err, "did you mean 'search'")) << group.err;
  const RunResult range = run({"plan", scene.string(), "--set", "search.weight=0.5"});
  expect_usage_error(range);
  EXPECT_TRUE(contains(range.err, "search.weight")) << range.err;
  EXPECT_TRUE(contains(range.err, "'0.5'")) << range.err;
  expect_usage_error(run({"plan", scene.string(), "--set", "grid.connectivity=6"}));
  expect_usage_error(run({"plan", scene.string(), "--set", "visgraph.bitangent_only=maybe"}));
  expect_usage_error(run({"plan", scene.string(), "--set", "noequals"}));
  const RunResult method = run({"plan", scene.string(), "--method", "visgrahp"});
  expect_usage_error(method);
  EXPECT_TRUE(contains(method.err, "did you mean 'visgraph'")) << method.err;
}

TEST_F(Cli, OptionValuesAreCheckedInTheirTypeAndInfinityOnlyMeansNoLimit) {
  const fs::path scene = write("corridor.yaml", corridor_scene);
  const auto plan = [&](const std::string& assignment) {
    return run({"plan", scene.string(), "--query", "over-the-wall", "--set", assignment});
  };
  for (const std::string too_large : {"18446744073709551616", "1e20"}) {
    const RunResult r = plan("grid.max_cells=" + too_large);
    expect_usage_error(r);
    EXPECT_TRUE(contains(r.err, "error: grid.max_cells: out of range")) << r.err;
    EXPECT_TRUE(contains(r.err, "'" + too_large + "'")) << r.err;
  }
  // The budget is the number written, not the double nearest it.
  const RunResult exact =
      run({"plan", scene.string(), "--set", "grid.max_cells=9223372036854775807", "--set",
           "grid.resolution=1e-9"});
  expect_usage_error(exact);
  EXPECT_TRUE(contains(exact.err, "budget of 9223372036854775807 ")) << exact.err;
  for (const std::string key : {"search.weight", "grid.resolution", "quadtree.min_cell",
                                "space.inflation_tolerance", "space.clearance_factor"}) {
    const RunResult r = plan(key + "=inf");
    expect_usage_error(r);
    EXPECT_TRUE(contains(r.err, "error: " + key + ": must be a finite number, found 'inf'"))
        << r.err;
  }
  for (const std::string unlimited :
       {"search.max_cost=inf", "search.time_limit_ms=inf", "space.max_build_seconds=inf",
        "grid.max_cells=inf", "search.time_limit_ms=1e300"}) {
    const RunResult r = plan(unlimited);
    EXPECT_EQ(r.exit_code, 0) << unlimited << ": " << r.err;
  }
}

TEST_F(Cli, SearchOptionsReachTheSearch) {
  const fs::path scene = write("corridor.yaml", corridor_scene);
  // Too few expansions: the limit is reported; with the partial fallback a partial path comes
  // back instead.
  const RunResult limited = run({"plan", scene.string(), "--json", "--query", "over-the-wall",
                                 "--set", "search.max_expanded=5"});
  EXPECT_EQ(limited.exit_code, 1) << limited.err;
  EXPECT_EQ(json::parse(limited.out).at("status"), "limit_reached");
  const RunResult partial = run({"plan", scene.string(), "--json", "--query", "over-the-wall",
                                 "--set", "search.max_expanded=5", "--set", "search.partial=true"});
  EXPECT_EQ(partial.exit_code, 1) << partial.err;
  EXPECT_EQ(json::parse(partial.out).at("status"), "partial");
  // Weighted A*: a valid path, at most the weight times the optimum.
  const RunResult optimal =
      run({"plan", scene.string(), "--json", "--query", "over-the-wall", "--smooth", "none"});
  const RunResult weighted = run({"plan", scene.string(), "--json", "--query", "over-the-wall",
                                  "--smooth", "none", "--set", "search.weight=2"});
  ASSERT_EQ(weighted.exit_code, 0) << weighted.err;
  const double best = json::parse(optimal.out).at("raw_cost");
  const double w = json::parse(weighted.out).at("raw_cost");
  EXPECT_GE(w, best - 1e-9);
  EXPECT_LE(w, 2 * best + 1e-9);
}

TEST_F(Cli, MethodsListsEveryMethodSmootherAndOption) {
  const RunResult r = run({"methods", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  std::vector<std::string> methods, smoothers;
  for (const json& m : j.at("methods")) methods.push_back(m.at("name"));
  for (const json& m : j.at("smoothers")) smoothers.push_back(m.at("name"));
  EXPECT_EQ(methods, method_names());
  EXPECT_EQ(smoothers, smoother_names());
  bool resolution = false;
  for (const json& m : j.at("methods"))
    for (const json& o : m.at("options")) resolution = resolution || o.at("name") == "resolution";
  EXPECT_TRUE(resolution);
  EXPECT_FALSE(j.at("search").empty());
  const RunResult text = run({"methods"});
  EXPECT_TRUE(contains(text.out, "search.weight")) << text.out;
  EXPECT_TRUE(contains(run({"plan", "--help"}).out, "search: weight")) << "plan --help";
}

TEST_F(Cli, ReachListsNodesWithinTheCostCheapestFirst) {
  const fs::path scene = write("corridor.yaml", corridor_scene);
  const fs::path svg = dir() / "reach.svg";
  const RunResult r = run({"reach", scene.string(), "--from", "2,2", "--cost", "6", "--json",
                           "--svg", svg.string(), "--resolution", "0.5"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  double previous = 0.0;
  std::size_t n = 0;
  for (const json& node : j.at("nodes")) {
    const double cost = node.at("cost");
    EXPECT_LE(cost, 6.0);
    EXPECT_GE(cost, previous);
    // Never cheaper than the straight line from the start.
    const double dx = double(node.at("at")[0]) - 2.0, dy = double(node.at("at")[1]) - 2.0;
    EXPECT_GE(cost, std::hypot(dx, dy) - 1e-9);
    previous = cost;
    ++n;
  }
  EXPECT_GT(n, 50u);
  EXPECT_TRUE(fs::exists(svg));
  // Reach follows no path, so it offers no smoother.
  expect_usage_error(
      run({"reach", scene.string(), "--from", "2,2", "--cost", "6", "--smooth", "funnel"}));
  const RunResult blocked = run({"reach", scene.string(), "--from", "10,2", "--cost", "6"});
  expect_usage_error(blocked);
  EXPECT_TRUE(contains(blocked.err, "not in free space")) << blocked.err;
}

TEST_F(Cli, PlanDrawsPathsIntoTheSvg) {
  const fs::path scene = write("corridor.yaml", corridor_scene);
  const fs::path svg = dir_ / "out.svg";
  const RunResult r = run({"plan", scene.string(), "--svg", svg.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const test::XmlCheck check = test::check_xml(read_file(svg));
  ASSERT_EQ(check.problem, "");
  for (const char* group : {"grid", "raw-path", "path", "expanded"})
    EXPECT_NE(std::find(check.group_ids.begin(), check.group_ids.end(), group),
              check.group_ids.end())
        << group;
}

TEST_F(Cli, ScenComparesWithTheReferenceColumnAndWritesCsv) {
  // A 4 x 3 map with a wall; the references are worked out by hand (8-connected, no corner
  // cutting): (0,0) -> (3,0) goes down column 0, along row 2 to (2,2) — the diagonal from (0,1)
  // or (1,2) would cut the blocked corner (1,1) — then diagonally to (3,1) and up: 5 + sqrt 2.
  const fs::path map = write("tiny.map", "type octile\nheight 3\nwidth 4\nmap\n.@..\n.@..\n....\n");
  const double s2 = std::sqrt(2.0);
  std::ostringstream scen;
  scen << std::setprecision(9) << "version 1\n"
       << "0\ttiny.map\t4\t3\t0\t0\t3\t0\t" << 5 + s2 << "\n"
       << "0\ttiny.map\t4\t3\t0\t0\t0\t2\t" << 2.0 << "\n"
       << "0\ttiny.map\t4\t3\t0\t0\t3\t0\t" << 4.0 << "\n";  // deliberately wrong
  const fs::path scen_path = write("tiny.map.scen", scen.str());
  const fs::path csv = dir_ / "out.csv";
  const RunResult r = run({"scen", map.string(), scen_path.string(), "--csv", csv.string()});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;  // one mismatch
  EXPECT_TRUE(contains(r.out, "3 compared, 1 mismatches")) << r.out;
  const std::string text = read_file(csv);
  // The original columns first, in their order; build_ms and versus_reference appended.
  EXPECT_EQ(
      text.substr(0, text.find('\n')),
      "id,start_x,start_y,goal_x,goal_y,reference,status,length,cost,ratio,expanded,search_us,"
      "build_ms,versus_reference");
  EXPECT_EQ(line_count(text), 4u);
  std::istringstream rows(text);
  std::string row;
  std::getline(rows, row);
  std::vector<std::string> versus;
  while (std::getline(rows, row)) {
    const std::size_t last = row.rfind(',');
    versus.push_back(row.substr(last + 1));
    const std::size_t before = row.rfind(',', last - 1);
    EXPECT_GT(std::stod(row.substr(before + 1, last - before - 1)), 0.0) << row;  // build_ms
  }
  EXPECT_EQ(versus, (std::vector<std::string>{"equal", "equal", "longer"}));
  const RunResult bad = run(
      {"scen", map.string(), write("bad.scen", "version 1\n0 tiny.map 4 3 0 0 9 9 1\n").string()});
  EXPECT_EQ(bad.exit_code, 2);
  expect_one_error_line(bad);
  EXPECT_TRUE(contains(bad.err, "bad.scen:2")) << bad.err;
}

// Lengths that differ from the file's are mismatches only for a configuration meant to reproduce
// them (grid A* on a MovingAI map); an any-angle or smoothed configuration is shorter, which is
// counted as such and does not fail the run.
TEST_F(Cli, ScenCountsShorterPathsOfMethodsNotMeantToReproduceTheReference) {
  // An open 6 x 4 map: (0,3) -> (5,0) is 3 diagonal and 2 straight moves on the grid, and the
  // straight line between the cell centres any-angle: sqrt(25 + 9).
  const fs::path map =
      write("open.map", "type octile\nheight 4\nwidth 6\nmap\n......\n......\n......\n......\n");
  std::ostringstream scen;
  scen << std::setprecision(9) << "version 1\n"
       << "0\topen.map\t6\t4\t0\t3\t5\t0\t" << 2 + 3 * std::sqrt(2.0) << "\n"
       << "0\topen.map\t6\t4\t0\t0\t5\t0\t" << 5.0 << "\n";
  const fs::path scen_path = write("open.map.scen", scen.str());
  const RunResult grid = run({"scen", map.string(), scen_path.string()});
  EXPECT_EQ(grid.exit_code, 0) << grid.out << grid.err;
  EXPECT_TRUE(contains(grid.out, "2 compared, 0 mismatches")) << grid.out;
  for (const std::vector<std::string>& how :
       {std::vector<std::string>{"--set", "grid.search=theta"},
        std::vector<std::string>{"--smooth", "shortcut"},
        std::vector<std::string>{"--method", "visgraph"}}) {
    std::vector<std::string> args = {"scen", map.string(), scen_path.string()};
    args.insert(args.end(), how.begin(), how.end());
    const RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 0) << how[1] << "\n" << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "2 compared: 1 shorter, 0 longer, 1 equal")) << r.out;
    EXPECT_FALSE(contains(r.out, "mismatches")) << r.out;
  }
  // A wrong reference still fails a configuration meant to reproduce it.
  const fs::path wrong = write("wrong.scen", "version 1\n0\topen.map\t6\t4\t0\t0\t5\t0\t4\n");
  const RunResult bad = run({"scen", map.string(), wrong.string()});
  EXPECT_EQ(bad.exit_code, 1) << bad.out;
  EXPECT_TRUE(contains(bad.out, "1 compared, 1 mismatches")) << bad.out;
  // HPA* is near optimal: a path longer than the reference is counted, not a mismatch.
  const RunResult hpa = run({"scen", map.string(), wrong.string(), "--set", "grid.search=hpa",
                             "--set", "grid.cluster=2"});
  EXPECT_EQ(hpa.exit_code, 0) << hpa.out << hpa.err;
  EXPECT_TRUE(contains(hpa.out, "1 compared: 0 shorter, 1 longer, 0 equal")) << hpa.out;
  // Without a path a run fails whatever the configuration.
  const fs::path walled =
      write("walled.map", "type octile\nheight 3\nwidth 3\nmap\n.@.\n.@.\n.@.\n");
  const fs::path across = write("across.scen", "version 1\n0\twalled.map\t3\t3\t0\t0\t2\t0\t2\n");
  const RunResult none =
      run({"scen", walled.string(), across.string(), "--set", "grid.search=theta"});
  EXPECT_EQ(none.exit_code, 1) << none.out;
  EXPECT_TRUE(contains(none.out, "1 without a path")) << none.out;
}

// Older ("version 1.0") files give lengths to 2 decimals: a length is compared within the
// rounding of the digits the file wrote, never at a fixed 6 digits.
TEST_F(Cli, ScenToleranceFollowsTheDigitsTheFileWrote) {
  const fs::path map =
      write("open.map", "type octile\nheight 4\nwidth 6\nmap\n......\n......\n......\n......\n");
  const double exact = 2 + 3 * std::sqrt(2.0);  // 6.2426406...
  struct Case {
    std::string written;
    int exit_code;
  };
  for (const Case& c : {Case{"6.24", 0}, Case{"6.25", 1}, Case{"6.242641", 0}, Case{"6.242", 1},
                        Case{"6.2426", 0}}) {
    SCOPED_TRACE(c.written);
    const fs::path scen =
        write("old.scen", "version 1.0\n0\topen.map\t6\t4\t0\t3\t5\t0\t" + c.written + "\n");
    const RunResult r = run({"scen", map.string(), scen.string()});
    EXPECT_EQ(r.exit_code, c.exit_code) << r.out << r.err;
    EXPECT_NEAR(exact, std::stod(c.written), 0.01);
  }
}

// One story about exit status 1 in `scen --help`: its own list, no generic one beside it.
TEST_F(Cli, ScenHelpTellsOneStoryAboutExitCodes) {
  const RunResult r = run({"scen", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  std::size_t lists = 0;
  for (std::size_t at = r.out.find("Exit codes:"); at != std::string::npos;
       at = r.out.find("Exit codes:", at + 1))
    ++lists;
  EXPECT_EQ(lists, 1u) << r.out;
  EXPECT_FALSE(contains(r.out, "1 otherwise")) << r.out;
  for (const char* needle : {"meant to reproduce", "build_ms,versus_reference", "--reference"})
    EXPECT_TRUE(contains(r.out, needle)) << needle << "\n" << r.out;
}

// Several scenes: one OMPL log per scene, each its own experiment named after the scene, with
// this host's name, the seed and the time limit; the CSV says "default" for a spec's defaults.
TEST_F(Cli, ExperimentWritesOneOmplLogPerScene) {
  const fs::path scenes = fs::path(POLYNAV_SOURCE_DIR) / "scenes";
  const fs::path out = dir_ / "runs.csv", log = dir_ / "runs.log";
  const RunResult r =
      run({"experiment", (scenes / "maze.yaml").string(), (scenes / "island.yaml").string(),
           "--random", "3", "--seed", "42", "--methods", "grid:connectivity=4,visgraph",
           "--smoothers", "none", "--set", "search.time_limit_ms=250", "--out", out.string(),
           "--ompl-log", log.string(), "--no-progress"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_FALSE(fs::exists(log));
  char host[256] = {};
  ASSERT_EQ(gethostname(host, sizeof host - 1), 0);
  for (const char* scene : {"maze", "island"}) {
    SCOPED_TRACE(scene);
    const fs::path own = dir_ / (std::string("runs-") + scene + ".log");
    ASSERT_TRUE(fs::exists(own)) << r.out;
    EXPECT_TRUE(contains(r.out, "wrote " + own.string())) << r.out;
    const std::string text = read_file(own);
    EXPECT_TRUE(contains(text, std::string("\nExperiment ") + scene + "\n")) << text;
    EXPECT_TRUE(contains(text, std::string("\nRunning on ") + host + "\n")) << text;
    EXPECT_TRUE(contains(text, "\n42 is the random seed\n")) << text;
    EXPECT_TRUE(contains(text, "\n0.25 seconds per run\n")) << text;
    EXPECT_TRUE(contains(text, "\n3 runs per planner\n")) << text;
    EXPECT_TRUE(contains(text, "\n2 planners\n")) << text;
  }
  EXPECT_TRUE(contains(r.out, "seed 42")) << r.out;
  const std::string csv = read_file(out);
  EXPECT_TRUE(contains(csv, ",visgraph,default,none,")) << csv;
  EXPECT_TRUE(contains(csv, ",grid,connectivity=4,none,")) << csv;
  EXPECT_FALSE(contains(csv, ",visgraph,,")) << csv;
}

// A scene named after a file whose name is not UTF-8: every output is valid UTF-8 and reads
// back (U+FFFD in place of the bad byte), and messages are one line of UTF-8.
TEST_F(Cli, FileNameThatIsNotUtf8IsWrittenAsValidUtf8Everywhere) {
  SceneSpec spec = two_rooms();
  spec.name.clear();
  spec.queries.resize(1);
  const fs::path scene = write("bad\xff.yaml", spec.yaml());
  const std::string name = "bad\xEF\xBF\xBD";

  const fs::path svg = dir_ / "render.svg";
  const RunResult render = run({"render", scene.string(), "-o", svg.string()});
  ASSERT_EQ(render.exit_code, 0) << render.err;
  const std::string picture = read_file(svg);
  EXPECT_EQ(test::check_xml(picture).problem, "");
  EXPECT_TRUE(contains(picture, name)) << picture;
  const fs::path plan_svg = dir_ / "plan.svg";
  ASSERT_EQ(run({"plan", scene.string(), "--svg", plan_svg.string()}).exit_code, 0);
  EXPECT_EQ(test::check_xml(read_file(plan_svg)).problem, "");

  const fs::path converted = dir_ / "converted.yaml";
  const RunResult convert = run({"convert", scene.string(), "-o", converted.string()});
  ASSERT_EQ(convert.exit_code, 0) << convert.err;
  EXPECT_TRUE(is_valid_utf8(read_file(converted))) << read_file(converted);
  EXPECT_TRUE(is_valid_utf8(convert.out)) << convert.out;
  const RunResult back = run({"validate", converted.string(), "--json"});
  ASSERT_EQ(back.exit_code, 0) << back.err;
  EXPECT_EQ(json::parse(back.out).at("name"), name);

  const RunResult summary = run({"validate", scene.string(), "--json"});
  ASSERT_EQ(summary.exit_code, 0) << summary.err;
  EXPECT_EQ(json::parse(summary.out).at("name"), name);

  const fs::path csv = dir_ / "runs.csv", plot = dir_ / "runs.svg", log = dir_ / "runs.log";
  const RunResult experiment =
      run({"experiment", scene.string(), "--random", "2", "--methods", "visgraph", "--smoothers",
           "none", "--out", csv.string(), "--plot", plot.string(), "--ompl-log", log.string(),
           "--no-progress"});
  ASSERT_EQ(experiment.exit_code, 0) << experiment.err;
  const std::string rows = read_file(csv);
  EXPECT_TRUE(is_valid_utf8(rows)) << rows;
  EXPECT_TRUE(contains(rows, "\n" + name + ",visgraph,")) << rows;
  EXPECT_TRUE(is_valid_utf8(read_file(log)));
  EXPECT_EQ(test::check_xml(read_file(plot)).problem, "");
  const fs::path merged = dir_ / "merged.csv";
  const RunResult merge = run({"merge", csv.string(), "--out", merged.string()});
  ASSERT_EQ(merge.exit_code, 0) << merge.err;
  EXPECT_TRUE(contains(read_file(merged), "\n" + name + ",visgraph,")) << read_file(merged);

  // An error about the file names it escaped, on one line of UTF-8.
  const fs::path broken = write("worse\xfe\nname.yaml", "version: 1\nbounds: [[0, 0]]\n");
  const RunResult refused = run({"validate", broken.string()});
  EXPECT_EQ(refused.exit_code, 2);
  expect_one_error_line(refused);
  EXPECT_TRUE(is_valid_utf8(refused.err)) << refused.err;
  EXPECT_TRUE(contains(refused.err, "worse\\xfe\\nname.yaml:2:9: bounds")) << refused.err;
}

TEST_F(Cli, ExperimentWritesRowsSummaryPlotAndLogAndMergesShards) {
  const std::string maze = (fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "maze.yaml").string();
  const std::vector<std::string> common = {"experiment",  maze,
                                           "--random",    "7",
                                           "--seed",      "5",
                                           "--methods",   "grid:connectivity=4,visgraph",
                                           "--smoothers", "none,shortcut"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = common;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  const fs::path whole = dir_ / "whole.csv", plot = dir_ / "plot.svg", log = dir_ / "run.log";
  const RunResult r = run(with({"--out", whole.string(), "--plot", plot.string(), "--ompl-log",
                                log.string(), "--jobs", "2"}));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "grid[connectivity=4] + shortcut")) << r.out;
  EXPECT_TRUE(contains(r.out, "mean length")) << r.out;
  const std::string csv = read_file(whole);
  EXPECT_EQ(line_count(csv), 1u + 2 * 2 * 7);
  const test::XmlCheck check = test::check_xml(read_file(plot));
  EXPECT_EQ(check.problem, "");
  EXPECT_EQ(missing_groups(check, {"ratio-plot", "time-plot", "legend"}),
            std::vector<std::string>{});
  EXPECT_TRUE(contains(read_file(log), "4 planners")) << read_file(log);

  // Shards joined by merge give the unsharded rows (timings aside).
  std::vector<std::string> parts;
  for (const char* k : {"2/2", "1/2"}) {
    parts.push_back((dir_ / (std::string("part") + k[0] + ".csv")).string());
    ASSERT_EQ(run(with({"--shard", k, "--out", parts.back()})).exit_code, 0);
  }
  const fs::path merged = dir_ / "merged.csv";
  const RunResult m = run({"merge", parts[0], parts[1], "--out", merged.string()});
  ASSERT_EQ(m.exit_code, 0) << m.err;
  const auto strip_times = [](const std::string& text) {
    // Columns 18-20 (build_ms, search_us, smooth_us) and 23 (space_ms) vary run to run.
    std::istringstream in(text);
    std::string line, out;
    while (std::getline(in, line)) {
      std::vector<std::string> fields;
      std::stringstream ls(line);
      std::string f;
      while (std::getline(ls, f, ',')) fields.push_back(f);
      for (std::size_t i : {17u, 18u, 19u, 22u})
        if (i < fields.size()) fields[i] = "";
      for (const std::string& x : fields) out += x + ",";
      out += "\n";
    }
    return out;
  };
  EXPECT_EQ(strip_times(read_file(merged)), strip_times(csv));
  // The same shard twice is refused.
  const RunResult twice = run({"merge", parts[0], parts[0], "--out", (dir_ / "x.csv").string()});
  EXPECT_EQ(twice.exit_code, 2);
  expect_one_error_line(twice);
  EXPECT_TRUE(contains(twice.err, "overlap")) << twice.err;
  EXPECT_FALSE(fs::exists(dir_ / "x.csv"));
}

TEST_F(Cli, ExperimentRefusesBadInputWithoutLeavingAFile) {
  const std::string maze = (fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "maze.yaml").string();
  const fs::path out = dir_ / "out.csv";
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"--methods", "gird"}, "did you mean 'grid'"},
      {{"--methods", "grid:conectivity=4"}, "did you mean 'grid.connectivity'"},
      {{"--methods", "grid:4"}, "expected key=value"},
      {{"--smoothers", "shortcat"}, "did you mean 'shortcut'"},
      {{"--shard", "3/2"}, "1 <= K <= N"},
      {{"--shard", "two"}, "expected K/N"},
      {{"--set", "space.gaps=wide"}, "space.gaps"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"experiment", maze, "--random", "3", "--out", out.string()};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 2) << c.says << ": " << r.err;
    EXPECT_TRUE(contains(r.err, c.says)) << r.err;
    EXPECT_FALSE(fs::exists(out)) << c.says;
  }
  // An output that cannot be written is refused before the run.
  const RunResult unwritable =
      run({"experiment", maze, "--random", "3", "--out", (dir_ / "no" / "such.csv").string()});
  EXPECT_EQ(unwritable.exit_code, 2);
  expect_one_error_line(unwritable);
  // A scenario for another map is a located error; nothing is left behind.
  const fs::path map = write("tiny.map", "type octile\nheight 3\nwidth 4\nmap\n....\n....\n....\n");
  const fs::path scen = write("other.scen", "version 1\n0 big.map 9 9 0 0 1 1 1.4\n");
  const RunResult other =
      run({"experiment", map.string(), "--scen", scen.string(), "--out", out.string()});
  EXPECT_EQ(other.exit_code, 2);
  expect_one_error_line(other);
  EXPECT_TRUE(contains(other.err, "other.scen:2")) << other.err;
  EXPECT_FALSE(fs::exists(out));
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().string().find(".partial"), std::string::npos) << entry.path();
}

TEST_F(Cli, AnInterruptedExperimentLeavesNoFile) {
  const std::string maze = (fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "maze.yaml").string();
  const fs::path out = dir_ / "out.csv";
  const pid_t pid = test_support::start_program(
      POLYNAV_CLI,
      {"experiment", maze, "--random", "100000", "--out", out.string(), "--no-progress"},
      "/dev/null");
  ASSERT_GT(pid, 0);
  // Interrupt once the run has started writing (its temporary file exists).
  for (int i = 0; i < 200 && !fs::exists(out.string() + ".partial"); ++i) usleep(20000);
  EXPECT_TRUE(fs::exists(out.string() + ".partial"));
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << status;
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(out.string() + ".partial"));
}

}  // namespace
}  // namespace polynav
