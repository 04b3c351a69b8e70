// One Planner serves many threads: the same 1,000 queries planned from 4 threads at once give
// exactly the answers of one thread, for every method. Run under ThreadSanitizer by the `tsan`
// preset, this also proves the const query path free of data races.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "polynav/plan/planner.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

struct Answer {
  search::SearchStatus status;
  std::vector<Point> waypoints;
  double cost;
  std::uint64_t expanded;
  bool operator==(const Answer&) const = default;
};

// Seeded pairs of free points (planned as they come, reachable or not).
std::vector<std::pair<Point, Point>> free_pairs(const FreeSpace& space, std::size_t n) {
  std::mt19937 rng(42);
  const Box box = space.box();
  std::uniform_real_distribution<double> x(box.min.x, box.max.x), y(box.min.y, box.max.y);
  const auto free_point = [&] {
    for (;;)
      if (const Point p{x(rng), y(rng)}; space.is_free(p)) return p;
  };
  std::vector<std::pair<Point, Point>> pairs;
  while (pairs.size() < n) pairs.emplace_back(free_point(), free_point());
  return pairs;
}

Answer answer(const PlanResult& r) {
  return {r.status, r.waypoints, r.cost, r.stats.expanded};
}

// A method name, or "method:group.option=value" for a method with one option set.
PlanOptions options_of(const std::string& spec) {
  PlanOptions options;
  const std::size_t colon = spec.find(':');
  options.method = spec.substr(0, colon);
  if (colon != std::string::npos) {
    const std::size_t eq = spec.find('=', colon);
    options.settings.set(spec.substr(colon + 1, eq - colon - 1), spec.substr(eq + 1));
  }
  return options;
}

std::vector<std::string> methods_to_thread() {
  std::vector<std::string> specs = method_names();
  specs.push_back("navmesh:navmesh.search=optimal");  // Polyanya's own workspace state
  // Every grid tie rule: each search's order may depend only on the query.
  for (const char* ties : {"lifo", "fifo", "line", "smaller-g"})
    specs.push_back(std::string("grid:grid.ties=") + ties);
  return specs;
}

// The answers to the pairs planned from four threads at once, each thread taking every fourth.
std::vector<Answer> answers_from_four_threads(const Planner& planner,
                                              const std::vector<std::pair<Point, Point>>& pairs) {
  std::vector<Answer> four(pairs.size());
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (std::size_t i = t; i < pairs.size(); i += 4)
        four[i] = answer(planner.plan(pairs[i].first, pairs[i].second));
    });
  for (std::thread& thread : threads) thread.join();
  return four;
}

class ThreadedPlanning : public testing::TestWithParam<std::string> {};

TEST_P(ThreadedPlanning, FourThreadsAnswerExactlyAsOne) {
  const Scene scene = load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "warehouse.yaml");
  PlanOptions options = options_of(GetParam());
  options.settings.set("grid.resolution", 0.5);
  // The weighted method's queries take a tenth of a second each at its default epsilon on this
  // weighted scene; what is tested here (answers independent of threads) does not depend on it.
  options.settings.set("weighted.epsilon", 0.4);
  const Planner planner(scene, options);
  const auto pairs = free_pairs(planner.free_space(), 1000);

  std::vector<Answer> one;
  for (const auto& [s, g] : pairs) one.push_back(answer(planner.plan(s, g)));

  const std::vector<Answer> four = answers_from_four_threads(planner, pairs);

  std::size_t found = 0;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    EXPECT_TRUE(four[i] == one[i]) << "query " << i;
    found += one[i].status == search::SearchStatus::found ? 1 : 0;
  }
  EXPECT_GT(found, 900u);  // the queries exercise real searches, not only refusals
}

TEST_P(ThreadedPlanning, PlannersShareOneFreeSpace) {
  const Scene scene = load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "maze.yaml");
  const auto space = std::make_shared<const FreeSpace>(scene);
  PlanOptions options = options_of(GetParam());
  const Planner shared(space, options);
  const Planner own(scene, options);
  EXPECT_EQ(&shared.free_space(), space.get());
  for (const auto& [s, g] : free_pairs(*space, 50))
    EXPECT_TRUE(answer(shared.plan(s, g)) == answer(own.plan(s, g)));
  // Free-space options belong to whoever built the free space.
  options.settings.set("space.inflation_tolerance", 0.1);
  EXPECT_THROW(Planner(space, options), InputError);
}

// Agents of several sizes from four threads at once, with room for fewer radii than are asked
// for, so that planners are built, shared, let go and built again while others plan: every
// answer equals that of a planner built from the scene with the query's radius.
TEST(ThreadedPlanning, AgentsOfEverySizeShareThePlannersOfTheirRadii) {
  const Scene scene = load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "warehouse.yaml");
  PlanOptions options;
  options.method = "visgraph";
  options.max_radii = 2;
  const Planner planner(scene, options);
  const std::vector<double> radii = {0.2, 0.4, 0.6};
  const auto pairs = free_pairs(planner.free_space(), 120);
  std::vector<Answer> expected;
  {
    std::vector<std::unique_ptr<Planner>> direct;
    for (const double r : radii) {
      Scene sized = scene;
      sized.agent.radius = r;
      direct.push_back(std::make_unique<Planner>(sized, options));
    }
    for (std::size_t i = 0; i < pairs.size(); ++i)
      expected.push_back(answer(direct[i % radii.size()]->plan(pairs[i].first, pairs[i].second)));
  }
  std::vector<Answer> four(pairs.size());
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (std::size_t i = t; i < pairs.size(); i += 4)
        four[i] = answer(
            planner.for_radius(radii[i % radii.size()])->plan(pairs[i].first, pairs[i].second));
    });
  for (std::thread& thread : threads) thread.join();
  for (std::size_t i = 0; i < pairs.size(); ++i)
    EXPECT_TRUE(four[i] == expected[i]) << "query " << i << ", radius " << radii[i % radii.size()];
}

// The binary-heap tie rule (grid.ties=central64; the automatic rule on smoothed paths) on a
// scene without terrain, where it applies: four threads give exactly the answers of one, and
// planning the queries twice gives the same answers (no state carries over between queries).
TEST(ThreadedPlanning, Central64TiesAnswerAlikeOnEveryThreadAndRun) {
  const Scene scene = load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "maze.yaml");
  for (const char* ties : {"central64", "auto"}) {
    PlanOptions options;
    options.settings.set("grid.ties", ties);
    const Planner planner(scene, options);
    const auto pairs = free_pairs(planner.free_space(), 400);
    std::vector<Answer> one, again(pairs.size());
    for (const auto& [s, g] : pairs) one.push_back(answer(planner.plan(s, g)));
    for (std::size_t i = pairs.size(); i-- > 0;)
      again[i] = answer(planner.plan(pairs[i].first, pairs[i].second));
    const std::vector<Answer> four = answers_from_four_threads(planner, pairs);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      EXPECT_TRUE(four[i] == one[i]) << ties << " query " << i;
      EXPECT_TRUE(again[i] == one[i]) << ties << " query " << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryMethod, ThreadedPlanning, testing::ValuesIn(methods_to_thread()),
                         [](const testing::TestParamInfo<std::string>& param) {
                           std::string name = param.param;
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

}  // namespace
}  // namespace polynav
