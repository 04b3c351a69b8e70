// Experiments: complete and ordered rows, ratios against the exact reference, reproducibility
// (seed, threads, shards), the CSV read back bit for bit, OMPL's log grammar, and the
// corner-aligned grid against an independent Dijkstra on the corner graph of MovingAI maps.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "cli/xml_check.hpp"
#include "polynav/experiment/experiment.hpp"
#include "polynav/experiment/results.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/plan/registry.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"
#include "support/scale.hpp"

namespace polynav::experiment {
namespace {

namespace fs = std::filesystem;
const fs::path scenes_dir = fs::path(POLYNAV_SOURCE_DIR) / "scenes";

SceneInput input(const std::string& file) {
  SceneInput in;
  in.scene = load_scene(scenes_dir / file);
  in.name = fs::path(file).stem().string();
  return in;
}

Options random_options(std::size_t count, std::uint64_t seed) {
  Options o;
  for (const std::string& m : method_names())
    o.methods.push_back(parse_method_spec(m == "weighted" ? "weighted:epsilon=0.5" : m));
  o.smoothers = smoother_names();
  o.random = RandomQueries{count, seed, true};
  return o;
}

// A row's CSV line with the timing columns (which vary run to run) blanked.
std::string without_times(Row r) {
  r.build_ms = r.search_us = r.smooth_us = r.space_ms = NAN;
  return csv_line(r);
}
std::vector<std::string> without_times(const std::vector<Row>& rows) {
  std::vector<std::string> out;
  for (const Row& r : rows) out.push_back(without_times(r));
  return out;
}

TEST(Experiment, RowsAreCompleteOrderedAndScoredAgainstTheOptimum) {
  // Scenes without weighted regions: the reference is the exact Euclidean optimum.
  const std::vector<SceneInput> scenes = {input("maze.yaml"), input("island.yaml")};
  const Options options = random_options(6, 7);
  const Results results = run(scenes, options);
  const std::size_t specs = options.methods.size(), smoothers = options.smoothers.size();
  ASSERT_EQ(results.rows.size(), scenes.size() * specs * smoothers * 6);
  std::size_t at = 0;
  for (const SceneInput& s : scenes)
    for (const MethodSpec& m : options.methods)
      for (const std::string& smoother : options.smoothers)
        for (std::size_t q = 0; q < 6; ++q) {
          const Row& r = results.rows[at++];
          EXPECT_EQ(r.scene, s.name);
          EXPECT_EQ(r.method, m.method);
          EXPECT_EQ(r.smoother, smoother);
          EXPECT_EQ(r.query, q);
          ASSERT_EQ(r.status, "found") << csv_line(r);
          EXPECT_TRUE(std::isfinite(r.reference)) << csv_line(r);
          // Never shorter than the optimum; the visibility graph's own path is the optimum.
          EXPECT_GE(r.ratio, 1.0 - 1e-9) << csv_line(r);
          // spline trades length for curvature: its contract is validity, not length.
          const bool shortening = r.smoother != "spline";
          if (r.method == "visgraph" && shortening) {
            EXPECT_NEAR(r.ratio, 1.0, 1e-9) << csv_line(r);
          }
          EXPECT_NEAR(r.ratio, r.length / r.reference, 1e-12);
          EXPECT_GE(r.waypoints, 2u);
          EXPECT_GE(r.turning, 0.0);
          EXPECT_LE(r.turning, double(r.waypoints) * M_PI);
          EXPECT_GE(r.clearance, 0.0);
          if (shortening) {
            EXPECT_LE(r.length, r.raw_length * (1 + 1e-12));
          }
          EXPECT_GE(r.search_us, 0.0);
          EXPECT_GE(r.build_ms, 0.0);
        }
  // Within one scene and query every row has the same endpoints.
  for (const Row& r : results.rows)
    for (const Row& o : results.rows)
      if (r.scene == o.scene && r.query == o.query) {
        EXPECT_EQ(r.start, o.start);
        EXPECT_EQ(r.goal, o.goal);
      }
  for (const SceneReport& s : results.scenes) EXPECT_TRUE(s.has_reference) << s.reference_note;
}

// Past the visibility graph's budget an unweighted scene is scored against Polyanya
// (navmesh.search=optimal): the same optimum, named in every row and in the summary. A weighted
// scene past the budget has no reference, and the summary says why.
TEST(Experiment, LargeScenesAreScoredAgainstTheOptimalNavmeshSearch) {
  Options options;
  options.methods = {parse_method_spec("grid"), parse_method_spec("navmesh")};
  options.smoothers = {"none"};
  options.random = RandomQueries{12, 5, true};
  const std::vector<SceneInput> scenes = {input("maze.yaml"), input("island.yaml")};
  const Results small = run(scenes, options);
  options.reference_max_corners = 1;
  const Results large = run(scenes, options);
  ASSERT_EQ(small.rows.size(), large.rows.size());
  for (std::size_t i = 0; i < small.rows.size(); ++i) {
    const Row &s = small.rows[i], &l = large.rows[i];
    SCOPED_TRACE(csv_line(l));
    EXPECT_EQ(s.reference_method, "visgraph");
    EXPECT_EQ(l.reference_method, "navmesh.search=optimal");
    ASSERT_TRUE(std::isfinite(l.reference));
    EXPECT_NEAR(l.reference, s.reference, 1e-9 * s.reference);
    EXPECT_NEAR(l.ratio, s.ratio, 1e-9 * s.ratio);
  }
  for (const SceneReport& r : large.scenes) {
    EXPECT_TRUE(r.has_reference);
    EXPECT_EQ(r.reference_method, "navmesh.search=optimal");
  }
  std::ostringstream summary;
  write_summary(summary, large.rows, large.scenes);
  EXPECT_NE(summary.str().find("reference for scene 'maze': navmesh.search=optimal"),
            std::string::npos)
      << summary.str();
  std::ostringstream from_rows;  // a summary of rows read back names it too
  write_summary(from_rows, large.rows, {});
  EXPECT_NE(from_rows.str().find("reference for scene 'island': navmesh.search=optimal"),
            std::string::npos)
      << from_rows.str();

  // Weighted regions: Polyanya minimises length, not cost; past the budget as below it, the
  // reference is the weighted method's cost (within 1 + epsilon of the optimum).
  Scene weighted;
  weighted.bounds = {{0, 0}, {20, 0}, {20, 10}, {0, 10}};
  weighted.obstacles.push_back({{{{9, 0}, {11, 0}, {11, 4}, {9, 4}}, {}}, {}});
  Region mud;
  mud.cost = 4;
  mud.polygon = {{5, 4}, {15, 4}, {15, 6}, {5, 6}};
  weighted.regions.push_back(mud);
  SceneInput in;
  in.name = "mud";
  in.scene = weighted;
  const Results none = run({in}, options);
  ASSERT_EQ(none.scenes.size(), 1u);
  EXPECT_TRUE(none.scenes[0].has_reference) << none.scenes[0].reference_note;
  EXPECT_EQ(none.scenes[0].reference_method, "weighted");
  EXPECT_NE(none.scenes[0].reference_note.find("epsilon"), std::string::npos)
      << none.scenes[0].reference_note;
  for (const Row& r : none.rows) {
    EXPECT_EQ(r.reference_method, "weighted");
    if (r.status == "found") {
      EXPECT_FALSE(std::isnan(r.reference));
    }
  }
}

TEST(Experiment, RandomQueriesAreFreeConnectedAndFixedByTheSeed) {
  const SceneInput scene = input("maze.yaml");
  const FreeSpace space(scene.scene);
  const auto a = random_queries(space, {40, 3, true});
  const auto b = random_queries(space, {40, 3, true});
  const auto c = random_queries(space, {40, 4, true});
  ASSERT_EQ(a.size(), 40u);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].start, b[i].start);
    EXPECT_EQ(a[i].goal, b[i].goal);
    differ += a[i].start != c[i].start;
    EXPECT_TRUE(space.is_free(a[i].start));
    EXPECT_TRUE(space.is_free(a[i].goal));
    EXPECT_EQ(space.component(a[i].start), space.component(a[i].goal));
  }
  EXPECT_GT(differ, 30u);
}

TEST(Experiment, SameSeedSameRowsAndThreadsChangeNothing) {
  const std::vector<SceneInput> scenes = {input("maze.yaml"), input("warehouse.yaml")};
  Options one = random_options(test::scaled(9, 3), 11);
  Options two = one;
  two.jobs = 2;
  const auto a = without_times(run(scenes, one).rows);
  const auto b = without_times(run(scenes, one).rows);
  const auto c = without_times(run(scenes, two).rows);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a, c);
}

TEST(Experiment, ShardsMergeToTheUnshardedRun) {
  // Scenes with fewer queries than shards leave some shards without them.
  SceneInput small = input("island.yaml");
  SceneInput large = input("maze.yaml");
  const FreeSpace small_space(small.scene), large_space(large.scene);
  small.queries = random_queries(small_space, {2, 5, true});
  large.queries = random_queries(large_space, {8, 6, true});
  const std::vector<SceneInput> scenes = {small, large};
  Options options;
  options.methods = {parse_method_spec("grid:connectivity=4"), parse_method_spec("visgraph")};
  options.smoothers = {"none", "shortcut"};
  const auto whole = run(scenes, options).rows;
  std::vector<std::vector<Row>> shards;
  std::vector<std::string> names;
  for (std::size_t k = 3; k >= 1; --k) {  // given in reverse order
    options.shard = {k, 3};
    shards.push_back(run(scenes, options).rows);
    names.push_back("shard" + std::to_string(k));
  }
  EXPECT_EQ(without_times(merge_shards(shards, names)), without_times(whole));

  // A shard given twice, or one missing, is an error naming the problem.
  auto twice = shards;
  twice.push_back(shards[0]);
  auto twice_names = names;
  twice_names.push_back("again");
  EXPECT_THROW(merge_shards(twice, twice_names), InputError);
  const std::vector<std::vector<Row>> missing = {shards[0], shards[2]};
  try {
    merge_shards(missing, {names[0], names[2]});
    ADD_FAILURE() << "a missing shard was not noticed";
  } catch (const InputError& e) {
    EXPECT_NE(e.message().find("shard missing"), std::string::npos) << e.message();
  }
}

TEST(Experiment, RandomQueriesAndRowsHaveABudgetCheckedBeforeAnyWork) {
  // An empty room: the budget is checked before free space is built or a query drawn, so even
  // the largest counts return at once.
  SceneInput room;
  room.name = "room";
  room.scene.bounds = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  Options options;
  options.methods = {parse_method_spec("grid")};
  options.smoothers = {"none"};
  options.random = RandomQueries{max_random_queries + 1, 1, true};
  try {
    run({room}, options);
    ADD_FAILURE() << "more random queries than the budget were accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().key_path, "random");
    EXPECT_NE(e.message().find("at most 1000000"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("1000001"), std::string::npos) << e.message();
  }
  options.random->count = std::size_t{1'000'000'000'000};
  EXPECT_THROW(run({room}, options), InputError);

  // Rows: scenes x specs x smoothers x queries (of the shard), over max_rows, refused whole.
  options.random->count = max_random_queries;
  options.methods = {parse_method_spec("grid"), parse_method_spec("grid:connectivity=4"),
                     parse_method_spec("quadtree")};
  options.smoothers = {"none", "shortcut", "tentpole", "funnel", "spline"};
  ASSERT_GT(3 * 5 * max_random_queries, max_rows);
  try {
    run({room}, options);
    ADD_FAILURE() << "more rows than the budget were accepted";
  } catch (const InputError& e) {
    EXPECT_NE(e.message().find("more than 10000000 rows"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("shards"), std::string::npos) << e.message();
  }
  // Given queries count the same way.
  Query q;
  q.start = {1, 1};
  q.goal = {9, 9};
  SceneInput many = room;
  many.queries.assign(max_rows / 15 + 1, q);
  Options given = options;
  given.random.reset();
  EXPECT_THROW(run({many}, given), InputError);
}

// A CSV holds at most one run's rows, and a file larger than any run could write is refused
// before it is read, with what was found.
TEST(Experiment, CsvReadingIsBoundedByWhatARunWrites) {
  const std::vector<Row> rows = run({input("office.yaml")}, random_options(3, 1)).rows;
  ASSERT_GE(rows.size(), 3u);
  const fs::path path = fs::temp_directory_path() / "polynav-experiment-bounded.csv";
  {
    std::ofstream out(path, std::ios::binary);
    write_csv(out, rows);
  }
  EXPECT_EQ(read_csv(path, rows.size()).size(), rows.size());
  try {
    read_csv(path, rows.size() - 1);
    ADD_FAILURE() << "a row beyond the limit was read";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().line, int(rows.size()) + 1);  // the header is line 1
    EXPECT_NE(std::string(e.what()).find("more than " + std::to_string(rows.size() - 1) + " rows"),
              std::string::npos)
        << e.what();
  }
  // A sparse file past the byte limit: refused by its size, without reading it.
  fs::resize_file(path, max_csv_bytes + 1);
  try {
    read_csv(path);
    ADD_FAILURE() << "a file larger than any run was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(max_csv_bytes + 1) + " bytes"),
              std::string::npos)
        << e.what();
  }
  fs::remove(path);
}

TEST(Experiment, CsvReadsBackBitForBit) {
  Options options = random_options(4, 2);
  options.smoothers = {"none", "shortcut"};
  std::vector<Row> rows = run({input("office.yaml")}, options).rows;
  rows.front().message = "a note, with \"quotes\", commas\nand a line break";
  const fs::path path = fs::temp_directory_path() / "polynav-experiment-roundtrip.csv";
  {
    std::ofstream out(path, std::ios::binary);
    write_csv(out, rows);
  }
  const std::vector<Row> back = read_csv(path);
  ASSERT_EQ(back.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(csv_line(back[i]), csv_line(rows[i]));
  EXPECT_EQ(back.front().message, rows.front().message);
  EXPECT_EQ(back.front().reference_method, "weighted");  // office.yaml has weighted regions
  // The contract's leading columns.
  std::ifstream in(path);
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header.rfind("scene,method,options,smoother,query,start_x,start_y,goal_x,goal_y,"
                         "status,length,cost,reference,ratio,waypoints,turning,clearance,"
                         "build_ms,search_us,smooth_us,expanded",
                         0),
            0u);
  // reference_method and then curvature are the last columns, after the ones before them.
  const std::string tail = ",message,reference_method,curvature";
  EXPECT_EQ(header.substr(header.size() - tail.size()), tail);
  in.close();
  // Files written before those columns were added still read, with them empty.
  const auto cut = [](std::string line, int columns) {
    for (int k = 0; k < columns; ++k) line = line.substr(0, line.rfind(','));
    return line;
  };
  for (const int dropped : {1, 2}) {
    {
      std::ofstream out(path, std::ios::binary);
      out << cut(header, dropped) << "\n";
      for (const Row& r : rows) out << cut(csv_line(r), dropped) << "\n";
    }
    const std::vector<Row> older = read_csv(path);
    ASSERT_EQ(older.size(), rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      EXPECT_TRUE(std::isnan(older[i].curvature));
      Row expected = rows[i];
      expected.curvature = NAN;
      if (dropped == 2) {
        EXPECT_TRUE(older[i].reference_method.empty());
        expected.reference_method.clear();
      }
      EXPECT_EQ(csv_line(older[i]), csv_line(expected));
    }
  }
  fs::remove(path);
}

// The curvature column: the hybrid method's unsmoothed paths keep it at most 1 / turning radius;
// a straight path has none; polylines with corners have more.
TEST(Experiment, CurvatureIsBoundedByTheTurningRadiusOfHybridPaths) {
  Options options = random_options(12, 3);
  options.methods = {parse_method_spec("hybrid:turning_radius=2"), parse_method_spec("visgraph")};
  options.smoothers = {"none"};
  const std::vector<Row> rows = run({input("office.yaml")}, options).rows;
  std::size_t hybrid_found = 0, cornered = 0;
  for (const Row& r : rows) {
    if (r.status != "found") continue;
    ASSERT_FALSE(std::isnan(r.curvature)) << r.method;
    EXPECT_GE(r.curvature, 0.0);
    if (r.method == "hybrid") {
      ++hybrid_found;
      EXPECT_LE(r.curvature, 0.5 * (1 + 1e-6)) << "query " << r.query;
    } else if (r.waypoints > 2) {
      cornered += r.curvature > 0.5 ? 1 : 0;
    }
  }
  EXPECT_GT(hybrid_found, 6u);
  EXPECT_GT(cornered, 0u);
}

// A reader of OMPL's benchmark log written from the grammar in OMPL's documentation ("The
// benchmark logfile format"), checking each production it meets, optional ones included.
struct OmplPlanner {
  std::string name;
  std::vector<std::string> properties;
  std::vector<std::vector<std::string>> runs;
};
struct OmplLog {
  std::string experiment, host;
  std::map<std::string, std::string> experiment_properties;  // "name TYPE" -> value
  std::string setup;
  std::string seed, time_limit, memory_limit, runs_per_planner;
  std::vector<OmplPlanner> planners;
};
OmplLog parse_ompl_log(std::istream& in) {
  std::string line;
  const auto next = [&] {
    if (!std::getline(in, line)) throw std::runtime_error("log ends early");
    return line;
  };
  const auto expect = [&](const std::regex& re) {
    next();
    std::smatch m;
    if (!std::regex_match(line, m, re)) throw std::runtime_error("unexpected line: " + line);
    return m;
  };
  const std::string num = R"(([-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?|inf|nan))";
  OmplLog log;
  expect(std::regex(R"(\S+ version \S+)"));
  log.experiment = expect(std::regex("Experiment (.+)"))[1];
  next();
  std::smatch m;
  if (std::regex_match(line, m, std::regex(R"((\d+) experiment properties)"))) {
    const std::size_t count = std::stoul(m[1]);
    for (std::size_t i = 0; i < count; ++i) {
      const auto p = expect(std::regex(R"((\S+ (BOOLEAN|INTEGER|REAL)) = (\S+))"));
      log.experiment_properties[p[1]] = p[3];
    }
    next();
  }
  if (!std::regex_match(line, m, std::regex(R"(Running on (\S+))")))
    throw std::runtime_error("unexpected line: " + line);
  log.host = m[1];
  expect(std::regex("Starting at .+"));
  expect(std::regex(R"(<<<\|)"));
  while (next() != "|>>>") log.setup += line + "\n";
  log.seed = expect(std::regex(R"((-?\d+) is the random seed)"))[1];
  log.time_limit = expect(std::regex("(" + num + ") seconds per run"))[1];
  log.memory_limit = expect(std::regex("(" + num + ") MB per run"))[1];
  next();
  if (std::regex_match(line, m, std::regex(R"((\d+) runs per planner)"))) {
    log.runs_per_planner = m[1];
    next();
  }
  if (!std::regex_match(line, std::regex(num + " seconds spent to collect the data")))
    throw std::runtime_error("unexpected line: " + line);
  const std::size_t planners = std::stoul(expect(std::regex(R"((\d+) planners)"))[1]);
  for (std::size_t p = 0; p < planners; ++p) {
    OmplPlanner planner;
    planner.name = next();
    const std::size_t common = std::stoul(expect(std::regex(R"((\d+) common properties)"))[1]);
    for (std::size_t i = 0; i < common; ++i) expect(std::regex(R"(.+ = .+)"));
    const std::size_t count = std::stoul(expect(std::regex(R"((\d+) properties for each run)"))[1]);
    for (std::size_t i = 0; i < count; ++i)
      planner.properties.push_back(expect(std::regex(R"(.+ (BOOLEAN|INTEGER|REAL))"))[0]);
    const std::size_t runs = std::stoul(expect(std::regex(R"((\d+) runs)"))[1]);
    const std::regex data("^(" + num + ")?$");
    for (std::size_t r = 0; r < runs; ++r) {
      next();
      std::vector<std::string> values;
      std::size_t at = 0;
      while (at < line.size()) {
        const std::size_t end = line.find("; ", at);
        if (end == std::string::npos) throw std::runtime_error("run without '; ': " + line);
        values.push_back(line.substr(at, end - at));
        if (!std::regex_match(values.back(), data))
          throw std::runtime_error("bad datum '" + values.back() + "'");
        at = end + 2;
      }
      if (values.size() != count) throw std::runtime_error("wrong number of values: " + line);
      planner.runs.push_back(std::move(values));
    }
    expect(std::regex(R"(\.)"));
    log.planners.push_back(std::move(planner));
  }
  if (std::getline(in, line)) throw std::runtime_error("text after the last planner: " + line);
  return log;
}

// In OMPL's format a file is one experiment, and Planner Arena compares planners within one:
// each scene gets its own log, named after it, holding only its runs, with the real host name,
// the seed the queries were drawn with and the limits in force.
TEST(Experiment, OmplLogIsOneExperimentPerSceneWithHostSeedAndLimits) {
  Options options = random_options(5, 9);
  options.smoothers = {"none", "shortcut"};
  options.settings.set("search.time_limit_ms", 2500.0);
  options.settings.set("search.max_expanded", 100000);
  const Results results = run({input("maze.yaml"), input("island.yaml")}, options);
  const std::vector<Row>& rows = results.rows;
  char host[256] = {};
  ASSERT_EQ(gethostname(host, sizeof host - 1), 0);
  ASSERT_EQ(results.scenes.size(), 2u);
  for (std::size_t s = 0; s < results.scenes.size(); ++s) {
    const SceneReport& scene = results.scenes[s];
    SCOPED_TRACE(scene.name);
    std::stringstream text;
    write_ompl_log(text, rows, ompl_log_header(options, scene, s));
    OmplLog log;
    ASSERT_NO_THROW(log = parse_ompl_log(text)) << text.str();
    EXPECT_EQ(log.experiment, scene.name);
    EXPECT_EQ(log.host, host);
    EXPECT_EQ(log.seed, "9");
    EXPECT_EQ(std::stod(log.time_limit), 2.5);
    EXPECT_EQ(log.memory_limit, "inf");
    EXPECT_EQ(log.runs_per_planner, "5");
    EXPECT_EQ(std::stod(log.experiment_properties["search_max_expanded REAL"]), 100000.0);
    EXPECT_EQ(std::stod(log.experiment_properties["search_time_limit_ms REAL"]), 2500.0);
    EXPECT_EQ(log.experiment_properties["search_max_cost REAL"], "inf");
    EXPECT_EQ(log.experiment_properties["scene_index INTEGER"], std::to_string(s));
    EXPECT_NE(log.setup.find("search.time_limit_ms=2500"), std::string::npos) << log.setup;

    ASSERT_EQ(log.planners.size(), options.methods.size() * options.smoothers.size());
    std::size_t planner_index = 0;
    for (const OmplPlanner& p : log.planners) {
      // A planner's runs are its configuration's rows of this scene, in row order.
      const MethodSpec& spec = options.methods[planner_index / options.smoothers.size()];
      const std::string& smoother = options.smoothers[planner_index % options.smoothers.size()];
      ++planner_index;
      std::vector<const Row*> own;
      for (const Row& r : rows)
        if (r.scene == scene.name && r.method == spec.method && r.smoother == smoother)
          own.push_back(&r);
      const auto solved = std::find(p.properties.begin(), p.properties.end(), "solved BOOLEAN");
      const auto length =
          std::find(p.properties.begin(), p.properties.end(), "simplified solution length REAL");
      const auto scene_column =
          std::find(p.properties.begin(), p.properties.end(), "scene index INTEGER");
      ASSERT_NE(solved, p.properties.end());
      ASSERT_NE(length, p.properties.end());
      ASSERT_NE(scene_column, p.properties.end());
      ASSERT_EQ(p.runs.size(), 5u);
      ASSERT_EQ(own.size(), p.runs.size());
      for (std::size_t i = 0; i < own.size(); ++i) {
        const auto& run = p.runs[i];
        const Row& r = *own[i];
        EXPECT_EQ(run[std::size_t(solved - p.properties.begin())], r.status == "found" ? "1" : "0");
        // A run the expansion limit stopped (the weighted method on the maze) has no length.
        if (r.status == "found") {
          EXPECT_EQ(std::stod(run[std::size_t(length - p.properties.begin())]), r.length);
        }
        EXPECT_EQ(run[std::size_t(scene_column - p.properties.begin())], std::to_string(s));
      }
    }
  }
  // Given queries have no seed, and without limits the time per run is unlimited.
  Options given;
  given.methods = {parse_method_spec("visgraph")};
  SceneInput maze = input("maze.yaml");
  maze.queries = random_queries(FreeSpace(maze.scene), {3, 4, true});
  const Results plain = run({maze}, given);
  std::stringstream text;
  write_ompl_log(text, plain.rows, ompl_log_header(given, plain.scenes[0], 0));
  const OmplLog log = parse_ompl_log(text);
  EXPECT_EQ(log.seed, "0");
  EXPECT_EQ(log.time_limit, "inf");
  EXPECT_EQ(log.experiment_properties.at("random_queries BOOLEAN"), "0");
}

// Scene names are one word in the log: the statistics script keeps the last word of the line.
TEST(Experiment, OmplExperimentNameIsOneWord) {
  Options options;
  options.methods = {parse_method_spec("grid")};
  options.random = RandomQueries{2, 1, true};
  SceneInput in = input("maze.yaml");
  in.name = "my maze\tone";
  const Results results = run({in}, options);
  std::stringstream text;
  write_ompl_log(text, results.rows, ompl_log_header(options, results.scenes[0], 0));
  const OmplLog log = parse_ompl_log(text);
  EXPECT_EQ(log.experiment, "my_maze_one");
  EXPECT_EQ(log.planners.at(0).runs.size(), 2u);
}

// The progress total is the number of runs returned (one per scene x spec x smoother x query of
// the shard), and the last report says all of them are done: the reference's searches are not
// runs.
TEST(Experiment, ProgressCountsTheRunsReturned) {
  for (const Shard shard : {Shard{1, 1}, Shard{2, 3}}) {
    Options options;
    options.methods = {parse_method_spec("grid:connectivity=4"), parse_method_spec("visgraph"),
                       parse_method_spec("navmesh")};
    options.smoothers = {"none", "shortcut", "funnel"};
    options.random = RandomQueries{7, 3, true};
    options.shard = shard;
    options.jobs = 2;
    std::vector<std::pair<std::size_t, std::size_t>> reports;
    options.progress = [&](std::size_t done, std::size_t total) {
      reports.push_back({done, total});
    };
    const Results results = run({input("maze.yaml"), input("island.yaml")}, options);
    ASSERT_FALSE(reports.empty());
    std::size_t last = 0;
    for (const auto& [done, total] : reports) {
      EXPECT_EQ(total, results.rows.size());
      EXPECT_GE(done, last);
      EXPECT_LE(done, total);
      last = done;
    }
    EXPECT_EQ(reports.back().first, results.rows.size());
  }
}

// pandas reads an empty field as NaN and groupby drops NaN keys, so rows run with a method's
// defaults say "default"; files written before, with the field empty, read and merge the same.
TEST(Experiment, DefaultOptionsAreWrittenAndOlderEmptyOnesReadTheSame) {
  Options options;
  options.methods = {parse_method_spec("visgraph"), parse_method_spec("grid:connectivity=4")};
  options.smoothers = {"none"};
  options.random = RandomQueries{4, 8, true};
  options.shard = {1, 2};
  const std::vector<Row> first = run({input("maze.yaml")}, options).rows;
  options.shard = {2, 2};
  const std::vector<Row> second = run({input("maze.yaml")}, options).rows;
  for (const Row& r : first) {
    EXPECT_FALSE(r.options.empty());
    EXPECT_EQ(r.options == default_options, r.method == "visgraph") << csv_line(r);
  }
  const fs::path path = fs::temp_directory_path() / "polynav-experiment-empty-options.csv";
  {
    // The first shard as an older version wrote it: the options field empty for the defaults.
    std::ofstream out(path, std::ios::binary);
    std::ostringstream text;
    write_csv(text, first);
    std::istringstream lines(text.str());
    std::string line;
    while (std::getline(lines, line)) {
      const std::string marker = ",visgraph,default,";
      if (const std::size_t at = line.find(marker); at != std::string::npos)
        line.replace(at, marker.size(), ",visgraph,,");
      out << line << "\n";
    }
  }
  const std::vector<Row> older = read_csv(path);
  fs::remove(path);
  ASSERT_EQ(older.size(), first.size());
  for (std::size_t i = 0; i < older.size(); ++i)
    EXPECT_EQ(without_times(older[i]), without_times(first[i]));
  // An older shard with empty options joins a newer one; so do rows handed over as they were.
  std::vector<Row> stripped = second;
  for (Row& r : stripped)
    if (r.options == default_options) r.options.clear();
  options.shard = {1, 1};
  const std::vector<Row> whole = run({input("maze.yaml")}, options).rows;
  EXPECT_EQ(without_times(merge_shards({older, second}, {"old", "new"})), without_times(whole));
  EXPECT_EQ(without_times(merge_shards({first, stripped}, {"new", "old"})), without_times(whole));
}

// The body of group `id` of an SVG written by SvgCanvas (whose groups do not nest).
std::string svg_group(const std::string& svg, const std::string& id) {
  const std::size_t open = svg.find("<g id=\"" + id + "\"");
  if (open == std::string::npos) return {};
  return svg.substr(open, svg.find("</g>", open) - open);
}
// The contents of every <text> element.
std::vector<std::string> svg_texts(const std::string& svg) {
  std::vector<std::string> out;
  const std::regex text("<text[^>]*>([^<]*)</text>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), text); it != std::sregex_iterator();
       ++it)
    out.push_back((*it)[1]);
  return out;
}
// CIELAB of an sRGB "#rrggbb" (D65).
std::array<double, 3> lab(const std::string& hex) {
  double c[3];
  for (int i = 0; i < 3; ++i) {
    const double v = std::stoi(hex.substr(1 + 2 * i, 2), nullptr, 16) / 255.0;
    c[i] = v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
  }
  const double x = (0.4124 * c[0] + 0.3576 * c[1] + 0.1805 * c[2]) / 0.95047;
  const double y = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  const double z = (0.0193 * c[0] + 0.1192 * c[1] + 0.9505 * c[2]) / 1.08883;
  const auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116; };
  return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

// What a researcher reads off the figure of a large experiment: 16 configurations on two scenes,
// about 19,000 runs. Each configuration is named where its boxes are (not numbered), in a colour
// clearly apart from the other 15; each scene has its own panel; time has box plots beside the
// length ones; and the time-length plot shows thousands of paths as a density, not a pile of
// dots.
TEST(Experiment, PlotNamesConfigurationsInDistinctColoursWithAPanelPerScene) {
  const std::vector<std::string> methods = {"grid", "quadtree", "visgraph", "navmesh"};
  const std::vector<std::string> smoothers = {"none", "shortcut", "tentpole", "funnel"};
  std::vector<Row> rows;
  std::vector<std::string> names;
  for (const std::string scene : {"arena", "den312d"})
    for (const std::string& method : methods)
      for (const std::string& smoother : smoothers)
        for (std::size_t q = 0; q < 600; ++q) {
          Row r;
          r.scene = scene;
          r.method = method;
          r.options = method == "grid" ? "connectivity=4" : std::string(default_options);
          r.smoother = smoother;
          r.query = q;
          r.status = q % 50 == 0 ? "no_path" : "found";
          r.search_us = 1.0 + double((q * 7919) % 1000) * (1 + double(method.size()));
          if (r.status == "found") {
            r.length = 1.0 + double((q * 104729) % 500) / 5.0;
            r.reference = r.length / (1.0 + double(q % 13) / 200.0);
            r.ratio = r.length / r.reference;
            r.smooth_us = 3.0;
            r.waypoints = 3;
          }
          rows.push_back(r);
        }
  for (const std::string& method : methods)
    for (const std::string& smoother : smoothers)
      names.push_back(method + (method == "grid" ? " [connectivity=4]" : "") + " + " + smoother);
  ASSERT_EQ(names.size(), 16u);
  ASSERT_GT(rows.size(), 19000u);

  const std::string svg = plot_svg(rows, "polynav experiment");
  const std::vector<std::string> texts = svg_texts(svg);
  // Named by the configuration's name alone: on its row of each scene panel, and over its
  // time-length panel.
  for (const std::string& name : names)
    EXPECT_EQ(std::count(texts.begin(), texts.end(), name), 2 + 1) << name;
  // A panel per scene.
  for (const std::string scene : {"arena", "den312d"})
    EXPECT_EQ(
        std::count_if(texts.begin(), texts.end(),
                      [&](const std::string& t) { return t.rfind("scene " + scene, 0) == 0; }),
        1)
        << scene;
  // Sixteen distinct colours, each pair far apart (CIE76 distance; 2.3 is just noticeable).
  const std::string ratio_plot = svg_group(svg, "ratio-plot");
  std::set<std::string> colours;
  const std::regex stroke("stroke=\"(#[0-9A-Fa-f]{6})\"");
  for (auto it = std::sregex_iterator(ratio_plot.begin(), ratio_plot.end(), stroke);
       it != std::sregex_iterator(); ++it)
    colours.insert((*it)[1]);
  colours.erase("#57606a");  // the axes
  colours.erase("#d0d7de");  // the grid
  ASSERT_EQ(colours.size(), 16u);
  for (const std::string& a : colours)
    for (const std::string& b : colours)
      if (a < b) {
        const auto la = lab(a), lb = lab(b);
        EXPECT_GE(std::hypot(la[0] - lb[0], la[1] - lb[1], la[2] - lb[2]), 25.0) << a << " " << b;
      }
  // Time box plots: a box per configuration and scene.
  const std::string time_plot = svg_group(svg, "time-plot");
  std::size_t boxes = 0;
  for (std::size_t at = time_plot.find("<rect"); at != std::string::npos;
       at = time_plot.find("<rect", at + 1))
    ++boxes;
  EXPECT_EQ(boxes, 2u * 16u);
  // 1,100 paths per configuration are shown as a density: no dots, a bounded number of cells.
  const std::string density = svg_group(svg, "time-length-plot");
  EXPECT_EQ(density.find("<circle"), std::string::npos);
  std::size_t cells = 0;
  for (std::size_t at = density.find("<rect"); at != std::string::npos;
       at = density.find("<rect", at + 1))
    ++cells;
  EXPECT_GT(cells, 16u);
  EXPECT_LE(cells, 16u * 40 * 24);
  const test::XmlCheck check = test::check_xml(svg);
  EXPECT_EQ(check.problem, "");
}

// Least clearance against length / optimum: a panel per configuration, each found path a dot,
// placed by its own values (the configuration keeping farther from the obstacles is drawn
// higher); no such panels when no row has a clearance.
TEST(Experiment, PlotShowsClearanceAgainstLengthWhereRowsHaveIt) {
  std::vector<Row> rows;
  for (const std::string method : {"visgraph", "clearance"})
    for (std::size_t q = 0; q < 10; ++q) {
      Row r;
      r.scene = "maze";
      r.method = method;
      r.options = std::string(default_options);
      r.smoother = "none";
      r.query = q;
      r.status = "found";
      r.search_us = 5.0;
      r.reference = 10.0;
      r.length = method == "visgraph" ? 10.0 : 12.0 + double(q) / 10.0;
      r.ratio = r.length / r.reference;
      r.clearance = method == "visgraph" ? 0.0 : 1.0 + double(q) / 10.0;
      rows.push_back(r);
    }
  const std::string svg = plot_svg(rows, "clearance");
  const std::string panel = svg_group(svg, "clearance-length-plot");
  ASSERT_FALSE(panel.empty());
  // Each path's dot, by configuration (its colour): the clearance roadmap's above the others'.
  std::map<std::string, std::vector<double>> heights;
  const std::regex dot("<circle cx=\"[^\"]*\" cy=\"([^\"]*)\"[^>]*fill=\"(#[0-9a-fA-F]{6})\"");
  for (auto it = std::sregex_iterator(panel.begin(), panel.end(), dot);
       it != std::sregex_iterator(); ++it)
    heights[(*it)[2]].push_back(std::stod((*it)[1]));
  ASSERT_EQ(heights.size(), 2u);
  std::vector<double> lowest, highest;
  for (const auto& [colour, ys] : heights) {
    EXPECT_EQ(ys.size(), 10u) << colour;
    lowest.push_back(*std::max_element(ys.begin(), ys.end()));
    highest.push_back(*std::min_element(ys.begin(), ys.end()));
  }
  // One configuration's dots all lie above (smaller y) all of the other's.
  EXPECT_TRUE(highest[0] > lowest[1] || highest[1] > lowest[0]);
  EXPECT_EQ(test::check_xml(svg).problem, "");

  for (Row& r : rows) r.clearance = NAN;
  EXPECT_TRUE(svg_group(plot_svg(rows, "no clearance"), "clearance-length-plot").empty());
}

// The corner graph of a MovingAI map built here from the cells alone: corners (x, y) in map
// coordinates (y down); a side move needs a free cell beside it, a diagonal its cell; a corner
// where only two diagonally opposite cells are free is passable only with open gaps.
bool free_map_cell(const CellMap& cells, int x, int y) {
  return x >= 0 && y >= 0 && x < cells.width && y < cells.height && !cells.is_blocked(x, y);
}
bool corner_closed(const CellMap& cells, int x, int y, bool open_gaps) {
  // Cells around corner (x, y) with y down: (x-1, y-1) top-left ... (x, y) bottom-right.
  const bool tl = free_map_cell(cells, x - 1, y - 1), tr = free_map_cell(cells, x, y - 1);
  const bool bl = free_map_cell(cells, x - 1, y), br = free_map_cell(cells, x, y);
  return !open_gaps && ((tl && br && !tr && !bl) || (tr && bl && !tl && !br));
}
double corner_dijkstra(const CellMap& cells, int sx, int sy, int gx, int gy, bool open_gaps) {
  const int w = cells.width + 1, h = cells.height + 1;
  const auto free_cell = [&](int x, int y) { return free_map_cell(cells, x, y); };
  const auto closed = [&](int x, int y) { return corner_closed(cells, x, y, open_gaps); };
  using Graph =
      boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property,
                            boost::property<boost::edge_weight_t, double>>;
  Graph g(std::size_t(w) * h);
  const auto id = [&](int x, int y) { return std::size_t(y) * w + x; };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      if (closed(x, y)) continue;
      if (x + 1 < w && !closed(x + 1, y) && (free_cell(x, y - 1) || free_cell(x, y)))
        boost::add_edge(id(x, y), id(x + 1, y), 1.0, g);
      if (y + 1 < h && !closed(x, y + 1) && (free_cell(x - 1, y) || free_cell(x, y)))
        boost::add_edge(id(x, y), id(x, y + 1), 1.0, g);
      if (x + 1 < w && y + 1 < h && !closed(x + 1, y + 1) && free_cell(x, y))
        boost::add_edge(id(x, y), id(x + 1, y + 1), std::sqrt(2.0), g);
      if (x > 0 && y + 1 < h && !closed(x - 1, y + 1) && free_cell(x - 1, y))
        boost::add_edge(id(x, y), id(x - 1, y + 1), std::sqrt(2.0), g);
    }
  std::vector<double> d(boost::num_vertices(g));
  boost::dijkstra_shortest_paths(g, id(sx, sy), boost::distance_map(d.data()));
  return d[id(gx, gy)];
}

TEST(Experiment, CornerAlignedGridReproducesCornerGraphOptimaOnMovingAIMaps) {
  for (const char* name : {"arena.map", "den312d.map", "maze-100-1.map"}) {
    const Scene scene = load_scene(scenes_dir / "movingai" / name);
    ASSERT_TRUE(scene.cell_map);
    const std::vector<Query> queries = load_scenario(
        scenes_dir / "movingai" / (std::string(name) + ".scen"), scene, ScenarioPoints::corners);
    for (const bool open : {false, true}) {
      PlanOptions options;
      options.method = "grid";
      options.smoother = "none";
      options.settings.set("grid.align", "corner");
      options.settings.set("space.gaps", open ? "open" : "closed");
      const Planner planner(scene, options);
      // Every 7th query keeps the test quick; each is a full search on both sides.
      for (std::size_t i = 0; i < queries.size(); i += 7) {
        const Query& q = queries[i];
        const int sx = int(q.start.x), sy = scene.cell_map->height - int(q.start.y);
        const int gx = int(q.goal.x), gy = scene.cell_map->height - int(q.goal.y);
        if (corner_closed(*scene.cell_map, sx, sy, open) ||
            corner_closed(*scene.cell_map, gx, gy, open))
          continue;  // an end on a pinch: the graph here cannot leave it
        const double expected = corner_dijkstra(*scene.cell_map, sx, sy, gx, gy, open);
        const PlanResult r = planner.plan(q.start, q.goal);
        if (!std::isfinite(expected) || expected > 1e300) {
          EXPECT_FALSE(r.found()) << name << " query " << i;
          continue;
        }
        ASSERT_TRUE(r.found()) << name << " query " << i << ": " << r.message;
        EXPECT_NEAR(r.raw_length, expected, 1e-9 * std::max(1.0, expected))
            << name << " query " << i << (open ? " (open gaps)" : "");
      }
    }
  }
}

TEST(Experiment, OpenGapsJoinComponentsAndLetPathsThroughPinches) {
  // Four squares touching corner to corner around a square room: closed gaps make the room a
  // component of its own; open gaps join it to the outside through the four pinches. Two more
  // squares touch at (2, 2).
  const std::string text = R"(
version: 1
bounds: [[0, 0], [10, 0], [10, 10], [0, 10]]
obstacles:
  - [[4, 2], [6, 2], [6, 4], [4, 4]]
  - [[6, 4], [8, 4], [8, 6], [6, 6]]
  - [[4, 6], [6, 6], [6, 8], [4, 8]]
  - [[2, 4], [4, 4], [4, 6], [2, 6]]
  - [[1, 1], [2, 1], [2, 2], [1, 2]]
  - [[2, 2], [3, 2], [3, 3], [2, 3]]
)";
  const Scene scene = parse_native_scene(text, "pinch.yaml");
  FreeSpaceOptions closed_options, open_options;
  open_options.open_gaps = true;
  const FreeSpace closed(scene, closed_options), open(scene, open_options);
  EXPECT_EQ(open.component_count(), 1u);
  EXPECT_EQ(open.component({5, 5}), open.component({9, 9}));
  for (const bool gaps_open : {false, true}) {
    PlanOptions options;
    options.method = "visgraph";
    options.settings.set("space.gaps", gaps_open ? "open" : "closed");
    const PlanResult r = Planner(scene, options).plan({5, 5}, {9, 9});
    EXPECT_EQ(r.found(), gaps_open) << r.message;
    if (gaps_open) {
      EXPECT_NEAR(r.length, std::sqrt(32.0), 1e-12);  // straight through (6, 6)
    }
  }
  EXPECT_TRUE(open.line_of_sight({5, 5}, {7, 7}));  // through the pinch at (6, 6)
  EXPECT_FALSE(closed.line_of_sight({5, 5}, {7, 7}));
  // Two squares touching at (2, 2): the diagonal through it is a gap.
  EXPECT_FALSE(closed.line_of_sight({1.5, 2.5}, {2.5, 1.5}));
  EXPECT_TRUE(open.line_of_sight({1.5, 2.5}, {2.5, 1.5}));
  EXPECT_TRUE(closed.line_of_sight({1.5, 2.5}, {1.8, 2.2}));
  // Never into a square, open or not.
  EXPECT_FALSE(open.line_of_sight({1.5, 2.5}, {2.5, 2.5}));
  EXPECT_FALSE(open.line_of_sight({0.5, 0.5}, {2.5, 2.5}));
  for (const char* method : {"visgraph", "grid", "navmesh", "quadtree"}) {
    for (const bool gaps_open : {false, true}) {
      PlanOptions options;
      options.method = method;
      options.settings.set("space.gaps", gaps_open ? "open" : "closed");
      if (std::string(method) == "grid") options.settings.set("grid.resolution", 0.5);
      const Planner planner(scene, options);
      const PlanResult r = planner.plan({1.5, 2.5}, {2.5, 1.5});
      ASSERT_TRUE(r.found()) << method << ": " << r.message;
      if (gaps_open && std::string(method) == "visgraph") {
        EXPECT_NEAR(r.length, std::sqrt(2.0), 1e-12);
      }
      if (!gaps_open) {
        EXPECT_GT(r.length, 2.0) << method;  // around a square
      }
    }
  }
}

}  // namespace
}  // namespace polynav::experiment
