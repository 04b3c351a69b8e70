// The weighted method as epsilon shrinks: build time, Steiner points (the memory: the arcs are
// implicit) and query time on scenes/terrain.yaml, with the certified gap between each path's
// cost and its lower bound. Google Benchmark; the argument is epsilon x 1000.
//
//   bench_weighted [--benchmark_filter=Query] [--benchmark_repetitions=3]
//
// Counters: points (Steiner points), nodes (points and vertices), MiB (the graph's arrays:
// positions and per-triangle lists), per_query (seconds per query), gap (mean cost / lower bound
// over the queries: a certified factor within which each path lies of the optimum). Times are the
// benchmark's CPU time.

#include <benchmark/benchmark.h>

#include <filesystem>
#include <memory>
#include <random>
#include <vector>

#include "polynav/discretise/weighted/weighted_graph.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"

namespace {

using namespace polynav;

const std::shared_ptr<const FreeSpace>& terrain() {
  static const std::shared_ptr<const FreeSpace> space = std::make_shared<const FreeSpace>(
      load_scene(std::filesystem::path(POLYNAV_SOURCE_DIR) / "scenes" / "terrain.yaml"));
  return space;
}

// The same 20 free query pairs for every epsilon.
const std::vector<std::pair<Point, Point>>& queries() {
  static const std::vector<std::pair<Point, Point>> out = [] {
    std::vector<std::pair<Point, Point>> q;
    std::mt19937 rng(11);
    const Box box = terrain()->box();
    std::uniform_real_distribution<double> x(box.min.x, box.max.x), y(box.min.y, box.max.y);
    while (q.size() < 20) {
      const Point a{x(rng), y(rng)}, b{x(rng), y(rng)};
      if (terrain()->is_free(a) && terrain()->is_free(b)) q.emplace_back(a, b);
    }
    return q;
  }();
  return out;
}

void BM_WeightedBuild(benchmark::State& state) {
  WeightedOptions options;
  options.epsilon = double(state.range(0)) / 1000.0;
  WeightedBuildStats stats;
  for (auto _ : state) {
    const WeightedGraph graph(*terrain(), options);
    stats = graph.build_stats();
    benchmark::DoNotOptimize(stats);
  }
  state.counters["points"] = double(stats.points);
  state.counters["nodes"] = double(stats.points + stats.vertices);
  // Positions (16 bytes a node) and the per-triangle lists (5 bytes an entry) with each node's
  // triangles (8 bytes an entry): about two entries per Steiner point.
  state.counters["MiB"] =
      (16.0 * double(stats.points + stats.vertices) + 26.0 * double(stats.points)) / 1048576.0;
}

void BM_WeightedQuery(benchmark::State& state) {
  PlanOptions options;
  options.method = "weighted";
  options.smoother = "none";
  options.settings.set("weighted.epsilon", double(state.range(0)) / 1000.0);
  options.settings.set("weighted.lower_bound", state.range(1) != 0);
  const Planner planner(terrain(), options);
  double gap = 0.0;
  std::size_t found = 0;
  for (auto _ : state) {
    gap = 0.0;
    found = 0;
    for (const auto& [a, b] : queries()) {
      const PlanResult r = planner.plan(a, b);
      if (r.found() && r.lower_bound && *r.lower_bound > 0) {
        gap += r.cost / *r.lower_bound;
        ++found;
      }
      benchmark::DoNotOptimize(r.cost);
    }
  }
  // Seconds per query (printed with an SI prefix: 1.5m is 1.5 ms).
  state.counters["per_query"] =
      benchmark::Counter(double(queries().size()) * double(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  if (found > 0) state.counters["gap"] = gap / double(found);
}

}  // namespace

BENCHMARK(BM_WeightedBuild)
    ->Arg(400)
    ->Arg(200)
    ->Arg(100)
    ->Arg(50)
    ->Arg(25)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WeightedQuery)
    ->Args({400, 1})
    ->Args({200, 1})
    ->Args({100, 1})
    ->Args({50, 1})
    ->Args({25, 1})
    ->Args({100, 0})
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
