// A scene that changes: EditablePlanner's answers after any sequence of random edits equal a
// planner's built from scratch on the scene the edits describe (kept independently here, by id);
// a batch that fails changes nothing; a query whose start an edit covers answers invalid_query;
// a planner taken before an edit keeps answering for the scene before it; files of timed edits
// are read with located errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <tuple>

#include "polynav/error.hpp"
#include "polynav/plan/editable_planner.hpp"
#include "polynav/plan/registry.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

Scene warehouse() {
  return load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "warehouse.yaml");
}

// The InputError f throws (a failure when it throws none).
template <class F>
InputError caught(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no InputError thrown";
  return InputError({}, "");
}

Ring box(Point lo, Point hi) {
  return {lo, {hi.x, lo.y}, hi, {lo.x, hi.y}};
}

Ring moved(Ring r, Point by) {
  for (Point& p : r) p = p + by;
  return r;
}

// The scene the edits describe, kept by id apart from apply_edits: ids grow, so a map ordered by
// id lists them in the order they were added.
struct Model {
  Scene base;
  std::map<std::size_t, Polygon> obstacles;
  std::map<std::size_t, Region> regions;
  std::size_t next_obstacle = 0, next_region = 0;

  explicit Model(const Scene& scene) : base(scene) {
    for (const Obstacle& o : scene.obstacles) obstacles[next_obstacle++] = o.shape;
    for (const Region& r : scene.regions) regions[next_region++] = r;
  }
  Scene scene() const {
    Scene s = base;
    s.obstacles.clear();
    s.regions.clear();
    for (const auto& [id, shape] : obstacles) s.obstacles.push_back({shape, {}});
    for (const auto& [id, region] : regions) s.regions.push_back(region);
    return s;
  }
};

// A random batch of 1 to 3 edits of every kind, applied to the model as it is made.
std::vector<SceneEdit> random_batch(Model& m, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> x(2, 36), y(2, 18), size(0.5, 3), shift(-2, 2);
  std::vector<SceneEdit> batch;
  const int n = 1 + int(rng() % 3);
  for (int k = 0; k < n; ++k) {
    SceneEdit e;
    const Point lo{x(rng), y(rng)};
    const Point hi = lo + Point{size(rng), size(rng)};
    const auto pick = [&](const auto& map) {
      auto it = map.begin();
      std::advance(it, std::ptrdiff_t(rng() % map.size()));
      return it->first;
    };
    switch (rng() % 6) {
      case 0:
      case 1:
        e.kind = SceneEdit::Kind::add_obstacle;
        e.shape.outer = box(lo, hi);
        m.obstacles[m.next_obstacle++] = e.shape;
        break;
      case 2:
        if (m.obstacles.empty()) continue;
        e.kind = SceneEdit::Kind::remove_obstacle;
        e.id = pick(m.obstacles);
        m.obstacles.erase(e.id);
        break;
      case 3:
        if (m.obstacles.empty()) continue;
        e.kind = SceneEdit::Kind::move_obstacle;
        e.id = pick(m.obstacles);
        e.by = {shift(rng), shift(rng)};
        m.obstacles[e.id].outer = moved(m.obstacles[e.id].outer, e.by);
        for (Ring& h : m.obstacles[e.id].holes) h = moved(h, e.by);
        break;
      case 4:
        e.kind = SceneEdit::Kind::add_region;
        e.region.cost = 0.5 + size(rng);
        e.region.polygon = box(lo, hi + Point{3, 3});
        m.regions[m.next_region++] = e.region;
        break;
      default:
        if (m.regions.empty()) continue;
        e.kind = SceneEdit::Kind::remove_region;
        e.id = pick(m.regions);
        m.regions.erase(e.id);
        break;
    }
    batch.push_back(e);
  }
  return batch;
}

TEST(EditablePlanner, RandomEditsAnswerAsAPlannerBuiltFromScratch) {
  const std::vector<std::pair<Point, Point>> queries = {
      {{2, 1.5}, {30, 20}}, {{5, 18}, {38, 2}}, {{12, 3}, {20, 21}}};
  for (const std::string& method : method_names()) {
    std::mt19937_64 rng(std::hash<std::string>()(method) ^ 42);
    PlanOptions options;
    options.method = method;
    const Scene scene = warehouse();
    Model model(scene);
    EditablePlanner live(scene, options);
    for (int step = 1; step <= 4; ++step) {
      const std::vector<SceneEdit> batch = random_batch(model, rng);
      const EditablePlanner::Applied applied = live.apply(batch);
      EXPECT_EQ(applied.version, std::uint64_t(step));
      EXPECT_EQ(live.version(), std::uint64_t(step));
      const Planner scratch(model.scene(), options);
      for (const auto& [s, g] : queries) {
        const PlanResult a = live.plan(s, g), b = scratch.plan(s, g);
        EXPECT_EQ(a.status, b.status) << method << " step " << step;
        EXPECT_EQ(a.waypoints, b.waypoints) << method << " step " << step;
        EXPECT_EQ(a.cost, b.cost) << method << " step " << step;
      }
      // The ids are the model's.
      const SceneIds ids = live.ids();
      std::vector<std::size_t> expected;
      for (const auto& [id, shape] : model.obstacles) expected.push_back(id);
      EXPECT_EQ(ids.obstacles, expected) << method;
    }
  }
}

TEST(EditablePlanner, AddedIdsAreReturnedAndNeverReused) {
  const Scene scene = warehouse();
  EditablePlanner live(scene);
  const std::size_t n = scene.obstacles.size();
  SceneEdit add;
  add.shape.outer = box({20, 10}, {21, 11});
  SceneEdit region;
  region.kind = SceneEdit::Kind::add_region;
  region.region.cost = 2;
  region.region.polygon = box({1, 1}, {3, 3});
  const std::vector<SceneEdit> batch = {add, region, add};
  const EditablePlanner::Applied a = live.apply(batch);
  EXPECT_EQ(a.added, (std::vector<std::size_t>{n, scene.regions.size(), n + 1}));
  SceneEdit remove;
  remove.kind = SceneEdit::Kind::remove_obstacle;
  remove.id = n + 1;
  live.apply(std::span(&remove, 1));
  const EditablePlanner::Applied b = live.apply(std::span(&add, 1));
  EXPECT_EQ(b.added, std::vector<std::size_t>{n + 2}) << "a removed id is not taken again";
}

TEST(EditablePlanner, AFailedBatchChangesNothing) {
  const Scene scene = warehouse();
  EditablePlanner live(scene);
  const std::shared_ptr<const Scene> before = live.scene();
  SceneEdit add;
  add.shape.outer = box({20, 10}, {21, 11});
  SceneEdit missing;
  missing.kind = SceneEdit::Kind::remove_obstacle;
  missing.id = 999;
  std::vector<SceneEdit> batch = {add, missing};
  const InputError e = caught([&] { live.apply(batch); });
  EXPECT_EQ(e.where().key_path, "edits[1]");
  EXPECT_NE(e.message().find("no obstacle has id 999"), std::string::npos) << e.message();
  EXPECT_EQ(live.version(), 0u);
  EXPECT_EQ(live.scene(), before);
  // A self-crossing ring, a region of no cost, a translation to infinity.
  SceneEdit bowtie;
  bowtie.shape.outer = {{20, 10}, {22, 12}, {22, 10}, {20, 12}};
  SceneEdit free_region;
  free_region.kind = SceneEdit::Kind::add_region;
  free_region.region.polygon = box({1, 1}, {3, 3});
  free_region.region.cost = 0;
  SceneEdit far;
  far.kind = SceneEdit::Kind::move_obstacle;
  far.id = 0;
  far.by = {INFINITY, 0};
  SceneEdit huge;
  huge.kind = SceneEdit::Kind::move_obstacle;
  huge.id = 0;
  huge.by = {1e300, 0};
  for (const SceneEdit& bad : {bowtie, free_region, far, huge}) {
    batch = {add, bad};
    const InputError b = caught([&] { live.apply(batch); });
    EXPECT_FALSE(b.message().empty());
    EXPECT_EQ(live.version(), 0u) << b.message();
    EXPECT_EQ(live.scene(), before);
  }
}

TEST(EditablePlanner, AStartAnEditCoversIsAnInvalidQueryAndTheOldPlannerStillAnswers) {
  EditablePlanner live(warehouse());
  const Point start{20.5, 10.5}, goal{2, 1.5};
  const std::shared_ptr<const Planner> old = live.planner();
  ASSERT_TRUE(live.plan(start, goal).found());
  SceneEdit cover;
  cover.shape.outer = box({20, 10}, {21, 11});
  const EditablePlanner::Applied a = live.apply(std::span(&cover, 1));
  const PlanResult r = live.plan(start, goal);
  EXPECT_EQ(r.status, search::SearchStatus::invalid_query);
  EXPECT_FALSE(r.message.empty());
  EXPECT_TRUE(old->plan(start, goal).found()) << "a planner taken before the edit keeps its scene";
  SceneEdit uncover;
  uncover.kind = SceneEdit::Kind::remove_obstacle;
  uncover.id = a.added.front();
  live.apply(std::span(&uncover, 1));
  EXPECT_TRUE(live.plan(start, goal).found());
}

fs::path write(const std::string& name, const std::string& text) {
  const fs::path p = fs::temp_directory_path() / ("polynav_edits_" + name);
  std::ofstream(p) << text;
  return p;
}

TEST(SceneEdits, FileOfTimedEditsIsReadInBatches) {
  const fs::path p = write("good.yaml", R"(version: 1
edits:
  - time: 1
    add_obstacle: [[20, 10], [21, 10], [21, 11], [20, 11]]
  - time: 1
    move_obstacle: {id: 0, by: [0.5, 0]}
  - time: 2.5
    add_region: {name: spill, cost: 4, polygon: [[1, 1], [3, 1], [3, 3]]}
  - time: 3
    remove_obstacle: 2
  - time: 3
    remove_region: 0
  - time: 4
    move_region: {id: 1, by: [1, 1]}
    )");
  const std::vector<TimedEdits> steps = load_scene_edits(p);
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_EQ(steps[0].time, 1.0);
  ASSERT_EQ(steps[0].edits.size(), 2u);
  EXPECT_EQ(steps[0].edits[0].kind, SceneEdit::Kind::add_obstacle);
  EXPECT_EQ(steps[0].edits[0].shape.outer.size(), 4u);
  EXPECT_EQ(steps[0].edits[1].kind, SceneEdit::Kind::move_obstacle);
  EXPECT_EQ(steps[0].edits[1].by, (Point{0.5, 0}));
  EXPECT_EQ(steps[1].edits[0].region.name, "spill");
  EXPECT_EQ(steps[1].edits[0].region.cost, 4.0);
  EXPECT_EQ(steps[2].edits.size(), 2u);
  EXPECT_EQ(steps[2].edits[0].id, 2u);
  EXPECT_EQ(steps[3].edits[0].kind, SceneEdit::Kind::move_region);
  EXPECT_EQ(steps[0].edits[1].where.line, 5);  // the item's first line
  // Applied to the warehouse, in order.
  Scene scene = warehouse();
  SceneIds ids = SceneIds::of(scene);
  for (const TimedEdits& t : steps) apply_edits(scene, ids, t.edits);
  EXPECT_EQ(scene.obstacles.size(), warehouse().obstacles.size());
  fs::remove(p);
}

// The example the docs name applies to the warehouse as its comments say.
TEST(SceneEdits, TheBundledExampleAppliesToTheWarehouse) {
  const std::vector<TimedEdits> steps =
      load_scene_edits(fs::path(POLYNAV_SOURCE_DIR) / "examples" / "warehouse-edits.yaml");
  EditablePlanner live(warehouse());
  for (const TimedEdits& t : steps) live.apply(t.edits);
  EXPECT_EQ(live.version(), steps.size());
  EXPECT_EQ(live.scene()->obstacles.size(), warehouse().obstacles.size());
  EXPECT_EQ(live.scene()->regions.size(), warehouse().regions.size());
}

TEST(SceneEdits, BadFilesAreRefusedWhereTheyAreWrong) {
  const std::vector<std::tuple<std::string, std::string, int, std::string>> cases = {
      {"decreasing",
       "version: 1\nedits:\n  - {time: 2, remove_obstacle: 0}\n"
       "  - {time: 1, remove_obstacle: 1}\n",
       4, "never decrease"},
      {"two", "version: 1\nedits:\n  - time: 1\n    remove_obstacle: 0\n    remove_region: 0\n", 5,
       "one edit per item"},
      {"none", "version: 1\nedits:\n  - time: 1\n", 3, "no edit"},
      {"id", "version: 1\nedits:\n  - {time: 1, remove_obstacle: 1.5}\n", 3, "whole number"},
      {"bowtie",
       "version: 1\nedits:\n  - time: 1\n    add_obstacle: [[0, 0], [2, 2], [2, 0], [0, 2]]\n", 4,
       ""},
      {"unknown", "version: 1\nedits:\n  - {time: 1, delete_obstacle: 0}\n", 3, "delete_obstacle"},
      {"version", "edits: []\n", 1, "version"},
  };
  for (const auto& [name, text, line, words] : cases) {
    const fs::path p = write(name + ".yaml", text);
    const InputError e = caught([&] { load_scene_edits(p); });
    EXPECT_EQ(e.where().file, p.string()) << name;
    EXPECT_EQ(e.where().line, line) << name << ": " << e.what();
    EXPECT_NE(e.message().find(words), std::string::npos) << name << ": " << e.message();
    fs::remove(p);
  }
  EXPECT_THROW(load_scene_edits("/nonexistent/edits.yaml"), InputError);
}

}  // namespace
}  // namespace polynav
