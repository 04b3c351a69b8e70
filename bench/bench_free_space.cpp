// Building free space from obstacles: the exact inflation by the agent's disc (a Minkowski sum
// per obstacle) and the union, on every bundled native scene whose agent has a radius, as each
// Planner and each version of an EditablePlanner builds it. Google Benchmark, CPU time.
//
//   bench_free_space [--benchmark_repetitions=5] [--benchmark_filter=warehouse]
//
// FreeSpace/<scene>/reused builds it again through an InflationCache that already holds every
// grown obstacle (as an EditablePlanner's version after an edit that moved nothing): what is
// left, the union of the grown obstacles, the boundary's index and the rest.
//
// Counters: obstacles, convex (of them, the convex ones without holes, summed with the disc as
// convex pieces), vertices (of the bounds and the obstacles).

#include <benchmark/benchmark.h>

#include <algorithm>
#include <memory>
#include <string>

#include "bundled_scenes.hpp"
#include "polynav/kernel/exact.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"

namespace {

using namespace polynav;

// Whether a ring turns one way only (collinear vertices allowed), as CGAL's is_convex judges it:
// by the exact orientation of each three consecutive vertices.
bool convex(const Ring& ring) {
  int turns = 0;
  for (std::size_t i = 0; i < ring.size(); ++i) {
    const int turn =
        exact::orientation(ring[i], ring[(i + 1) % ring.size()], ring[(i + 2) % ring.size()]);
    turns |= turn > 0 ? 1 : turn < 0 ? 2 : 0;
  }
  return turns != 3;
}

void build(benchmark::State& state, const Scene& scene, bool reused) {
  FreeSpaceOptions options;
  if (reused) {
    options.reuse = std::make_shared<InflationCache>();
    const FreeSpace first(scene, options);  // grows every obstacle into the cache
  }
  for (auto _ : state) {
    const FreeSpace space(scene, options);
    benchmark::DoNotOptimize(space.edge_count());
  }
  std::size_t vertices = scene.bounds.size(), convex_ones = 0;
  for (const Obstacle& o : scene.obstacles) {
    vertices += o.shape.outer.size();
    for (const Ring& hole : o.shape.holes) vertices += hole.size();
    convex_ones += o.shape.holes.empty() && convex(o.shape.outer) ? 1 : 0;
  }
  state.counters["obstacles"] = double(scene.obstacles.size());
  state.counters["convex"] = double(convex_ones);
  state.counters["vertices"] = double(vertices);
}

}  // namespace

int main(int argc, char** argv) {
  for (const auto& named : bench_scenes::bundled_native_scenes()) {
    // Named, not bound: lambdas below copy them (clang before 16 cannot capture a binding).
    const std::string& name = named.first;
    const Scene& scene = named.second;
    if (scene.obstacles.empty() || scene.agent.radius <= 0.0) continue;
    for (const bool reused : {false, true})
      benchmark::RegisterBenchmark(
          ("FreeSpace/" + name + (reused ? "/reused" : "")).c_str(),
          [scene, reused](benchmark::State& state) { build(state, scene, reused); })
          ->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
