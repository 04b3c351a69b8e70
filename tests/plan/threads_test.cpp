// One Planner serves many threads: the same 1,000 queries planned from 4 threads at once give
// exactly the answers of one thread, for every method. Run under ThreadSanitizer by the `tsan`
// preset, this also proves the const query path free of data races.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "polynav/plan/editable_planner.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/plan/replanner.hpp"
#include "support/quick_weighted.hpp"
#include "support/scale.hpp"

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
  // What is tested here (answers independent of threads) does not depend on the weighted
  // method's epsilon; its queries, slower than the others', are fewer.
  options.settings.set("weighted.epsilon", test::quick_weighted_epsilon);
  const Planner planner(scene, options);
  const std::size_t count = test::scaled(options.method == "weighted" ? 100 : 1000, 40);
  const auto pairs = free_pairs(planner.free_space(), count);

  std::vector<Answer> one;
  for (const auto& [s, g] : pairs) one.push_back(answer(planner.plan(s, g)));

  const std::vector<Answer> four = answers_from_four_threads(planner, pairs);

  std::size_t found = 0;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    EXPECT_TRUE(four[i] == one[i]) << "query " << i;
    found += one[i].status == search::SearchStatus::found ? 1 : 0;
  }
  EXPECT_GT(found, count * 9 / 10);  // the queries exercise real searches, not only refusals
}

TEST_P(ThreadedPlanning, PlannersShareOneFreeSpace) {
  const Scene scene = load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "maze.yaml");
  const auto space = std::make_shared<const FreeSpace>(scene);
  PlanOptions options = options_of(GetParam());
  options.settings.set("weighted.epsilon", test::quick_weighted_epsilon);
  const Planner shared(space, options);
  const Planner own(scene, options);
  EXPECT_EQ(&shared.free_space(), space.get());
  for (const auto& [s, g] : free_pairs(*space, options.method == "weighted" ? 10 : 50))
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
    const auto pairs = free_pairs(planner.free_space(), test::scaled(400, 50));
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

namespace polynav {
namespace {

// What a planner built from scratch on each version that `batches` make of `scene` (the scene
// as loaded first) answers for each pair, as `read` puts it: [version][pair].
template <class Read>
auto answers_of_each_version(const Scene& scene, const std::vector<std::vector<SceneEdit>>& batches,
                             const PlanOptions& options,
                             const std::vector<std::pair<Point, Point>>& pairs, Read&& read) {
  std::vector<std::vector<decltype(read(PlanResult{}))>> out;
  Scene s = scene;
  SceneIds ids = SceneIds::of(s);
  for (std::size_t v = 0; v <= batches.size(); ++v) {
    if (v > 0) apply_edits(s, ids, batches[v - 1]);
    const Planner direct(s, options);
    out.emplace_back();
    for (const auto& [a, b] : pairs) out.back().push_back(read(direct.plan(a, b)));
  }
  return out;
}

// Applies the batches to `live` from a thread of its own, then sets `done`; joins it and then
// `threads`, which run until they see `done`.
void edit_then_join(EditablePlanner& live, const std::vector<std::vector<SceneEdit>>& batches,
                    std::atomic<bool>& done, std::vector<std::thread>& threads) {
  std::thread editor([&] {
    for (const std::vector<SceneEdit>& batch : batches) live.apply(batch);
    done = true;
  });
  editor.join();
  for (std::thread& thread : threads) thread.join();
}

// Queries and edits from different threads: three threads plan while a fourth applies batches
// of edits to one EditablePlanner. Every answer is exactly the answer of a planner built from
// scratch on one of the versions' scenes (never of a half-edited one), the answers of a planner
// taken from the EditablePlanner never change while it is held, and the versions come in order.
TEST(ThreadedPlanning, QueriesAndEditsInterleavedSeeWholeVersions) {
  const Scene scene = load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "warehouse.yaml");
  PlanOptions options;
  options.method = "visgraph";
  // Walls dropped across the warehouse one after another, then taken away again.
  std::vector<std::vector<SceneEdit>> batches;
  for (const double x : {10.0, 18.0, 26.0}) {
    SceneEdit wall;
    wall.shape.outer = {{x, 4}, {x + 0.5, 4}, {x + 0.5, 16}, {x, 16}};
    batches.push_back({wall});
  }
  for (std::size_t k = 0; k < 3; ++k) {
    SceneEdit remove;
    remove.kind = SceneEdit::Kind::remove_obstacle;
    remove.id = scene.obstacles.size() + k;
    batches.push_back({remove});
  }
  const std::vector<std::pair<Point, Point>> pairs = {
      {{2, 10}, {38, 10}}, {{5, 18}, {38, 2}}, {{2, 1.5}, {30, 20}}, {{12, 3}, {20, 21}}};
  // The answers of each version, from planners built from scratch.
  const std::vector<std::vector<Answer>> expected = answers_of_each_version(
      scene, batches, options, pairs, [](const PlanResult& r) { return answer(r); });
  EditablePlanner live(scene, options);
  std::atomic<bool> done{false};
  std::atomic<int> mismatches{0}, answered{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t)
    threads.emplace_back([&, t] {
      std::uint64_t last = 0;
      while (!done.load()) {
        const std::uint64_t before = live.version();
        if (before < last) ++mismatches;  // versions never go back
        last = before;
        const std::shared_ptr<const Planner> held = live.planner();
        for (std::size_t i = 0; i < pairs.size(); ++i) {
          const Answer a = answer(held->plan(pairs[(i + t) % pairs.size()].first,
                                             pairs[(i + t) % pairs.size()].second));
          // The version whose answers these are: the held planner's, one of them all.
          bool some = false;
          for (const std::vector<Answer>& version : expected)
            some = some || version[(i + t) % pairs.size()] == a;
          if (!some) ++mismatches;
          ++answered;
        }
      }
    });
  edit_then_join(live, batches, done, threads);
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_GT(answered.load(), 0);
  EXPECT_EQ(live.version(), batches.size());
  for (std::size_t i = 0; i < pairs.size(); ++i)
    EXPECT_TRUE(answer(live.plan(pairs[i].first, pairs[i].second)) == expected.back()[i]);
}

// Replanners following mesh corridors on their own threads while another thread applies edits:
// each answer is as short as a planner built from scratch on the version it names
// (Replanner::Repair::version), whether the corridor was followed or searched again.
TEST(ThreadedPlanning, ReplannersFollowingCorridorsWhileEditsComeSeeWholeVersions) {
  const Scene scene = load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "warehouse.yaml");
  PlanOptions options;
  options.method = "navmesh";
  options.smoother = "none";
  options.settings.set("navmesh.search", "optimal");
  // Pallets dropped one after another, far from some agents' paths and across others'.
  std::vector<std::vector<SceneEdit>> batches;
  for (const Point at : {Point{10, 10}, Point{30, 4}, Point{20, 17}, Point{12, 14}}) {
    SceneEdit pallet;
    pallet.shape.outer = {at, at + Point{1.5, 0}, at + Point{1.5, 1.5}, at + Point{0, 1.5}};
    batches.push_back({pallet});
  }
  const std::vector<std::pair<Point, Point>> pairs = {
      {{2, 1.5}, {38, 20}}, {{5, 18}, {38, 2}}, {{2, 10}, {30, 20}}};
  const std::vector<std::vector<double>> lengths = answers_of_each_version(
      scene, batches, options, pairs, [](const PlanResult& r) { return r.raw_length; });
  EditablePlanner live(scene, options);
  std::atomic<bool> done{false};
  std::atomic<int> mismatches{0}, answered{0}, followed{0};
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < pairs.size(); ++t)
    threads.emplace_back([&, t] {
      Replanner route(live, pairs[t].second);
      // At least one answer after the last edit.
      for (bool last = false; !last;) {
        last = done.load();
        const PlanResult r = route.plan(pairs[t].first);
        const double expected = lengths.at(route.last_repair().version)[t];
        if (!r.found() || std::abs(r.raw_length - expected) > 1e-9 * expected) ++mismatches;
        if (!route.last_repair().fresh) ++followed;
        ++answered;
      }
    });
  edit_then_join(live, batches, done, threads);
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_GE(answered.load(), int(pairs.size()));
  EXPECT_GT(followed.load(), 0);
}

// Free spaces built from several threads through one InflationCache: its exact sums are shared
// between the builds, which take turns, and each is the free space built alone without it.
TEST(ThreadedPlanning, FreeSpacesSharingAnInflationCacheTakeTurns) {
  const Scene scene = load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "warehouse.yaml");
  // Thread t builds the warehouse with obstacle t moved, then the warehouse itself.
  std::vector<Scene> variants;
  for (std::size_t t = 0; t < 4; ++t) {
    Scene moved = scene;
    for (Point& p : moved.obstacles[t].shape.outer) p = p + Point{0.5, 0.25};
    variants.push_back(std::move(moved));
  }
  variants.push_back(scene);
  std::vector<std::vector<BoundaryRing>> expected;
  for (const Scene& s : variants) expected.push_back(FreeSpace(s).boundary());
  FreeSpaceOptions options;
  options.reuse = std::make_shared<InflationCache>();
  std::atomic<int> mismatches{0};
  const auto same = [](const std::vector<BoundaryRing>& a, const std::vector<BoundaryRing>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t r = 0; r < a.size(); ++r)
      if (a[r].points != b[r].points) return false;
    return true;
  };
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (const std::size_t v : {t, variants.size() - 1})
        if (!same(FreeSpace(variants[v], options).boundary(), expected[v])) ++mismatches;
    });
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_GT(options.reuse->counts().reused, 0u);
}

}  // namespace
}  // namespace polynav
