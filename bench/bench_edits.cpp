// A changing scene: applying an edit to an EditablePlanner (Update: it keeps every obstacle grown
// by the agent's disc and their union between versions, updates the grid around the edit and
// takes over the search arrays) against the same versions with the method built whole
// (UpdateWhole: only the grown obstacles and their union reused) and against building a Planner
// from scratch on the edited scene (Rebuild), side by side in one run, for each bundled scene
// whose agent has a radius and each of the methods below (grid-1024: a grid of 1024 cells along
// the longer side). Google Benchmark, CPU time per version.
//
//   bench_edits [--benchmark_filter=maze] [--benchmark_repetitions=3]
//
// The edit moves `moved` obstacles (the benchmark's argument: 1, or a quarter of the scene's)
// by 0.05 and back on alternate versions, so that every version grows each moved obstacle anew.
// Counters: obstacles (in the scene), moved, grown (obstacles grown per version: the update's
// share of the sums), classified (grid: the share of its cells classified per version), table
// (JPS+: the share of its jump table's entries computed per version).
//
// Replanning on the grid after each edit: Replan (a Replanner's repaired D* Lite search) against
// Search (the version's own A*, searched afresh), on the same versions of each scene with
// queries: its longest query, the obstacle nearest the query's middle moved by 0.5 and back,
// untimed; only the query is timed, without smoothing, 40 times (the versions alternate). The
// argument is the grid's cells along the scene's longer side (256, the default resolution, and
// 1024). Counters: cells, expanded (per query), changed (grid nodes whose moves an edit changed,
// per query).
//
// Replanning on a mesh searched by Polyanya (navmesh.search=optimal): ReplanMesh (a Replanner
// following its corridor) against SearchMesh (the version's own search), on the same longest
// query. `walk`: no edit, the start steps along the first path (40 points evenly spaced by length,
// one per query); `edit`: the start stays and the obstacle nearest the query's middle moves by
// 0.5 and back between the queries, untimed, as above; `far-edit`: the same with the obstacle
// farthest from the query's start and goal together. Counter: followed (the share of queries a
// Replanner answered from its corridor, without a search).

#include <benchmark/benchmark.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "bundled_scenes.hpp"
#include "polynav/discretise/grid/jump_point_grid.hpp"
#include "polynav/plan/editable_planner.hpp"
#include "polynav/plan/replanner.hpp"
#include "polynav/scene/scene.hpp"

namespace {

using namespace polynav;

// grid-1024: the grid method with 1024 cells along the scene's longer side (the default is 256);
// grid-1024-jps+: the same searched by JPS+, whose jump table a version updates too (on scenes of
// one cost throughout: elsewhere JPS+ does not apply and it is the grid alone).
const char* const methods[] = {"grid",     "grid-1024", "grid-1024-jps+",
                               "quadtree", "visgraph",  "navmesh"};

// A batch moving the first `moved` obstacles, spread over the scene, by `by`.
std::vector<SceneEdit> move_batch(const Scene& scene, std::size_t moved, Point by) {
  std::vector<SceneEdit> batch;
  const std::size_t step = std::max<std::size_t>(1, scene.obstacles.size() / moved);
  for (std::size_t id = 0; id < scene.obstacles.size() && batch.size() < moved; id += step) {
    SceneEdit e;
    e.kind = SceneEdit::Kind::move_obstacle;
    e.id = id;
    e.by = by;
    batch.push_back(e);
  }
  return batch;
}

PlanOptions options_for(const Scene& scene, const std::string& method) {
  PlanOptions options;
  options.method = method;
  options.smoother = "none";
  if (method.starts_with("grid-1024")) {
    options.method = "grid";
    const Box box = bounding_box(scene.bounds);
    options.settings.set("grid.resolution", std::max(box.width(), box.height()) / 1024.0);
    if (method.ends_with("jps+")) options.settings.set("grid.search", "jps+");
  }
  return options;
}

void update(benchmark::State& state, const Scene& scene, const std::string& method) {
  const auto moved = std::size_t(state.range(0));
  EditablePlanner live(scene, options_for(scene, method));
  const std::vector<SceneEdit> there = move_batch(scene, moved, {0.05, 0.0});
  const std::vector<SceneEdit> back = move_batch(scene, moved, {-0.05, 0.0});
  std::size_t versions = 0, grown = 0, classified = 0, cells = 0, computed = 0, entries = 0;
  for (auto _ : state) {
    const EditablePlanner::Applied applied = live.apply(versions % 2 == 0 ? there : back);
    grown += applied.grown;
    classified += applied.classified_cells;
    cells += applied.grid_cells;
    if (const auto* jumps = dynamic_cast<const JumpPointGrid*>(&live.planner()->discretisation());
        jumps != nullptr && jumps->jumps() && jumps->options().search == GridSearch::jps_plus) {
      computed += jumps->table_entries_computed();
      entries += 8 * jumps->node_count();
    }
    ++versions;
  }
  state.counters["obstacles"] = double(scene.obstacles.size());
  state.counters["moved"] = double(moved);
  state.counters["grown"] = double(grown) / double(std::max<std::size_t>(versions, 1));
  // The share of the grid's cells classified per version (the rest kept from the one before).
  if (cells > 0) state.counters["classified"] = double(classified) / double(cells);
  // JPS+: the share of the jump table's entries computed per version.
  if (entries > 0) state.counters["table"] = double(computed) / double(entries);
}

// The same versions, each planner built as Planner(scene, options, cache): the grown obstacles
// and their union reused, the method built whole and its search arrays allocated anew (what a
// version did before the method was updated in place).
void update_whole(benchmark::State& state, const Scene& scene, const std::string& method) {
  const auto moved = std::size_t(state.range(0));
  const PlanOptions options = options_for(scene, method);
  const auto cache = std::make_shared<InflationCache>();
  Scene edited = scene;
  SceneIds ids = SceneIds::of(scene);
  auto current = std::make_shared<const Planner>(edited, options, cache);
  const std::vector<SceneEdit> there = move_batch(scene, moved, {0.05, 0.0});
  const std::vector<SceneEdit> back = move_batch(scene, moved, {-0.05, 0.0});
  std::size_t versions = 0;
  for (auto _ : state) {
    apply_edits(edited, ids, versions % 2 == 0 ? there : back);
    current = std::make_shared<const Planner>(edited, options, cache);
    ++versions;
  }
  state.counters["obstacles"] = double(scene.obstacles.size());
  state.counters["moved"] = double(moved);
}

void rebuild(benchmark::State& state, const Scene& scene, const std::string& method) {
  const auto moved = std::size_t(state.range(0));
  // The same two edited scenes the updates alternate between.
  Scene edited[2] = {scene, scene};
  SceneIds ids[2] = {SceneIds::of(scene), SceneIds::of(scene)};
  apply_edits(edited[0], ids[0], move_batch(scene, moved, {0.05, 0.0}));
  const PlanOptions options = options_for(scene, method);
  std::size_t versions = 0;
  for (auto _ : state) {
    const Planner planner(edited[versions % 2], options);
    benchmark::DoNotOptimize(planner.discretisation().node_count());
    ++versions;
  }
  state.counters["obstacles"] = double(scene.obstacles.size());
  state.counters["moved"] = double(moved);
  state.counters["grown"] = double(scene.obstacles.size() + 1);
}

// The scene's longest query, and a batch moving the obstacle nearest its middle by `by`.
const Query& longest_query(const Scene& scene) {
  return *std::max_element(scene.queries.begin(), scene.queries.end(),
                           [](const Query& a, const Query& b) {
                             return distance(a.start, a.goal) < distance(b.start, b.goal);
                           });
}
// With `farthest`, the obstacle farthest from start and goal together instead.
std::vector<SceneEdit> move_middle(const Scene& scene, const Query& query, Point by,
                                   bool farthest = false) {
  const Point middle = 0.5 * (query.start + query.goal);
  std::size_t chosen = 0;
  double best = INFINITY;
  for (std::size_t id = 0; id < scene.obstacles.size(); ++id) {
    const Box box = bounding_box(scene.obstacles[id].shape.outer);
    const Point centre = 0.5 * (box.min + box.max);
    const double d = farthest ? -(distance(query.start, centre) + distance(centre, query.goal))
                              : distance(middle, centre);
    if (d < best) {
      best = d;
      chosen = id;
    }
  }
  SceneEdit e;
  e.kind = SceneEdit::Kind::move_obstacle;
  e.id = chosen;
  e.by = by;
  return {e};
}

void replan(benchmark::State& state, const Scene& scene, bool repair) {
  PlanOptions options = options_for(scene, "grid");
  const Box box = bounding_box(scene.bounds);
  const auto cells = double(state.range(0));
  options.settings.set("grid.resolution", std::max(box.width(), box.height()) / cells);
  EditablePlanner live(scene, options);
  const Query& query = longest_query(scene);
  Replanner route(live, query.goal);
  route.plan(query.start);
  const std::vector<SceneEdit> there = move_middle(scene, query, {0.5, 0.0});
  const std::vector<SceneEdit> back = move_middle(scene, query, {-0.5, 0.0});
  std::size_t queries = 0, expanded = 0, changed = 0;
  // The version before the one planned on: held here, so that its planner is freed outside the
  // timing (the replanner lets it go when it plans on the next).
  std::shared_ptr<const Planner> before = live.planner();
  for (auto _ : state) {
    state.PauseTiming();
    before = live.planner();
    live.apply(queries % 2 == 0 ? there : back);
    state.ResumeTiming();
    const PlanResult r = repair ? route.plan(query.start) : live.plan(query.start, query.goal);
    benchmark::DoNotOptimize(r.cost);
    expanded += r.stats.expanded;
    changed += repair ? route.last_repair().changed_nodes : 0;
    ++queries;
  }
  const double n = double(std::max<std::size_t>(queries, 1));
  state.counters["cells"] = double(live.planner()->discretisation().node_count());
  state.counters["expanded"] = double(expanded) / n;
  state.counters["changed"] = double(changed) / n;
}

// `count` points along `path`, evenly spaced by length from its start (included) to its end
// (excluded).
std::vector<Point> points_along(const std::vector<Point>& path, std::size_t count) {
  std::vector<Point> out;
  const double length = polyline_length(path);
  std::size_t k = 1;
  double walked = 0.0;
  for (std::size_t i = 0; i < count; ++i) {
    const double at = length * double(i) / double(count);
    for (; k + 1 < path.size() && walked + distance(path[k - 1], path[k]) < at; ++k)
      walked += distance(path[k - 1], path[k]);
    const double piece = distance(path[k - 1], path[k]);
    const double t = piece > 0.0 ? std::clamp((at - walked) / piece, 0.0, 1.0) : 0.0;
    out.push_back(path[k - 1] + t * (path[k] - path[k - 1]));
  }
  return out;
}

enum class MeshChange { walk, edit, far_edit };

void replan_mesh(benchmark::State& state, const Scene& scene, bool repair, MeshChange change) {
  const bool walk = change == MeshChange::walk, far = change == MeshChange::far_edit;
  PlanOptions options = options_for(scene, "navmesh");
  options.settings.set("navmesh.search", "optimal");
  EditablePlanner live(scene, options);
  const Query& query = longest_query(scene);
  Replanner route(live, query.goal);
  const PlanResult first = route.plan(query.start);
  if (!first.found()) {
    state.SkipWithError("the longest query has no path");
    return;
  }
  const std::vector<Point> along = points_along(first.raw_waypoints, 40);
  const std::vector<SceneEdit> there = move_middle(scene, query, {0.5, 0.0}, far);
  const std::vector<SceneEdit> back = move_middle(scene, query, {-0.5, 0.0}, far);
  std::size_t queries = 0, followed = 0;
  // The version before, its scene too: the replanner lets go of both when it keeps a new
  // corridor, and they are freed here, outside the timing.
  EditablePlanner::Snapshot before = live.snapshot();
  for (auto _ : state) {
    const Point start = walk ? along[queries % along.size()] : query.start;
    if (!walk) {
      state.PauseTiming();
      before = live.snapshot();
      live.apply(queries % 2 == 0 ? there : back);
      state.ResumeTiming();
    }
    const PlanResult r = repair ? route.plan(start) : live.plan(start, query.goal);
    benchmark::DoNotOptimize(r.cost);
    followed += repair && !route.last_repair().fresh ? 1 : 0;
    ++queries;
  }
  state.counters["followed"] = double(followed) / double(std::max<std::size_t>(queries, 1));
}

}  // namespace

int main(int argc, char** argv) {
  const auto scenes = bench_scenes::bundled_native_scenes();
  for (const auto& named : scenes) {
    // Named, not bound: lambdas below copy them (clang before 16 cannot capture a binding).
    const std::string& name = named.first;
    const Scene& scene = named.second;
    if (scene.obstacles.empty() || scene.agent.radius <= 0.0) continue;
    const auto quarter = std::int64_t(std::max<std::size_t>(2, scene.obstacles.size() / 4));
    using Run = void (*)(benchmark::State&, const Scene&, const std::string&);
    for (const std::string method : methods) {
      for (const auto& kind : {std::pair<const char*, Run>{"Update", &update},
                               std::pair<const char*, Run>{"UpdateWhole", &update_whole},
                               std::pair<const char*, Run>{"Rebuild", &rebuild}}) {
        const Run run = kind.second;
        benchmark::RegisterBenchmark(
            (std::string(kind.first) + "/" + name + "/" + method).c_str(),
            [scene, method, run](benchmark::State& state) { run(state, scene, method); })
            ->Arg(1)
            ->Arg(quarter)
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
  for (const auto& named : scenes) {
    // Named, not bound: lambdas below copy them (clang before 16 cannot capture a binding).
    const std::string& name = named.first;
    const Scene& scene = named.second;
    if (scene.queries.empty() || scene.obstacles.empty()) continue;
    for (const bool repair : {true, false})
      benchmark::RegisterBenchmark(
          ((repair ? "Replan/" : "Search/") + name).c_str(),
          [scene, repair](benchmark::State& state) { replan(state, scene, repair); })
          ->Arg(256)
          ->Arg(1024)
          // The untimed edit and build dwarf a fast query: a fixed count bounds the run.
          ->Iterations(40)
          ->Unit(benchmark::kMillisecond);
    for (const bool repair : {true, false})
      for (const auto& [change, word] :
           {std::pair{MeshChange::walk, "/walk"}, std::pair{MeshChange::edit, "/edit"},
            std::pair{MeshChange::far_edit, "/far-edit"}})
        benchmark::RegisterBenchmark(
            ((repair ? "ReplanMesh/" : "SearchMesh/") + name + word).c_str(),
            [scene, repair, change = change](benchmark::State& state) {
              replan_mesh(state, scene, repair, change);
            })
            ->Iterations(40)
            ->Unit(benchmark::kMicrosecond);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
