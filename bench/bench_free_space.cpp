// Building free space from obstacles: the exact inflation by the agent's disc (a Minkowski sum
// per obstacle) and the union, on every bundled native scene whose agent has a radius, as each
// Planner and each version of an EditablePlanner builds it. Google Benchmark, CPU time.
//
//   bench_free_space [--benchmark_repetitions=5] [--benchmark_filter=warehouse]
//
// FreeSpace/<scene>/reused builds it again through an InflationCache that already holds every
// grown obstacle and their union (as an EditablePlanner's version after an edit that changed
// only regions): what is left is reading the boundary from the union, and its index.
// FreeSpace/<scene>/moved alternates between the scene and the scene with its middle obstacle
// moved by 0.05, through one cache (as the versions of an EditablePlanner after such an edit):
// that obstacle is grown again and the union joined again around it (counter joined_locally,
// per build).
//
// Counters: obstacles, convex (of them, the convex ones without holes, summed with the disc as
// convex pieces), vertices (of the bounds and the obstacles).
//
// MapLoad/<map> and MapFreeSpace/<map>: a MovingAI map of the reference data read into a scene
// (its blocked cells as obstacles, its free cells' boundary traced), and the free space of a
// point agent built from that boundary (edges, vertex stars, component labels, the index): the
// work between a map file and the first grid, before the grid's cells are classified. Counter
// edges: the boundary's.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <memory>
#include <string>

#include "bundled_scenes.hpp"
#include "polynav/kernel/exact.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"
#include "support/data.hpp"

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

enum class Through { nothing, unchanged, one_moved };

void build(benchmark::State& state, const Scene& scene, Through through) {
  FreeSpaceOptions options;
  if (through != Through::nothing) {
    options.reuse = std::make_shared<InflationCache>();
    const FreeSpace first(scene, options);  // grows every obstacle into the cache
  }
  Scene moved = scene;
  for (Point& p : moved.obstacles[moved.obstacles.size() / 2].shape.outer) p = p + Point{0.05, 0};
  const std::size_t local_before = options.reuse ? options.reuse->counts().joined_locally : 0;
  bool odd = false;
  for (auto _ : state) {
    const FreeSpace space(through == Through::one_moved && (odd = !odd) ? moved : scene, options);
    benchmark::DoNotOptimize(space.edge_count());
  }
  if (through == Through::one_moved)
    state.counters["joined_locally"] =
        double(options.reuse->counts().joined_locally - local_before) / double(state.iterations());
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

// The reference data's largest MovingAI maps, where it is present.
void register_maps() {
  const auto dir = test_support::shared_data("movingai");
  for (const char* name : {"random512-10-0", "brc202d", "den520d", "lak303d"}) {
    const auto path = dir / (std::string(name) + ".map");
    if (!std::filesystem::is_regular_file(path)) continue;
    benchmark::RegisterBenchmark((std::string("MapLoad/") + name).c_str(),
                                 [path](benchmark::State& state) {
                                   for (auto _ : state) {
                                     const Scene scene = load_scene(path);
                                     benchmark::DoNotOptimize(scene.obstacles.size());
                                   }
                                 })
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("MapFreeSpace/") + name).c_str(),
                                 [path](benchmark::State& state) {
                                   const Scene scene = load_scene(path);
                                   std::size_t edges = 0;
                                   for (auto _ : state) {
                                     const FreeSpace space(scene);
                                     edges = space.edge_count();
                                   }
                                   state.counters["edges"] = double(edges);
                                 })
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_maps();
  for (const auto& named : bench_scenes::bundled_native_scenes()) {
    // Named, not bound: lambdas below copy them (clang before 16 cannot capture a binding).
    const std::string& name = named.first;
    const Scene& scene = named.second;
    if (scene.obstacles.empty() || scene.agent.radius <= 0.0) continue;
    for (const auto& [suffix, through] :
         {std::pair{"", Through::nothing}, std::pair{"/reused", Through::unchanged},
          std::pair{"/moved", Through::one_moved}})
      benchmark::RegisterBenchmark(
          ("FreeSpace/" + name + suffix).c_str(),
          [scene, t = through](benchmark::State& state) { build(state, scene, t); })
          ->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
