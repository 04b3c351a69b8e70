// The adaptive quadtree against the occupancy grid of the same finest cell size, and its smoothed
// paths against the exact Euclidean optimum (the visibility graph).
//
//   bench_quadtree [--queries 200] [--repeat 3] [--sweep MAP] [--no-length] [PATH ...]
//
// PATH: a scene (.yaml, .json, .map, .mesh) or a directory of them. Default: the bundled scenes
//   (scenes/, scenes/movingai/, scenes/mesh/arena.mesh) and every .map of the reference data's
//   movingai/ directory when it is present. Queries: a scene's own, else MAP.scen beside a map,
//   else scenes/mesh/arena-euclidean.scen for arena.mesh; at most --queries of them, evenly
//   sampled.
// --repeat R: time each build and each query pass R times, interleaved, and keep the fastest.
// --sweep MAP: the map of the min_cell table (default: den520d.map of the reference data, else
//   the bundled den312d.map).
// --no-length: skip the length table (it builds a visibility graph per scene).
//
// Tables (Markdown on stdout):
// 1. Per scene: boundary edges, free grid cells and free quadtree leaves at the grid's default
//    cell size (leaves = quadtree nodes; the ratio is cells / leaves), build times of both, and
//    the mean query time of the raw search (attach, A*, raw path; no smoothing) of each with the
//    mean nodes expanded.
// 2. min_cell sweep on one map: leaves, free leaves, quadtree and grid build times.
// 3. Length ratio: quadtree + shortcut smoothing (the Planner) against the visibility graph's
//    exact Euclidean optimum on the bundled scenes and arena.mesh with arena-euclidean.scen:
//    mean and largest ratio over the queries both solve (scenes with weighted regions are skipped:
//    the visibility graph minimises length, not cost).
//
// Times are CPU time of the benchmark's one thread (CLOCK_THREAD_CPUTIME_ID).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "polynav/discretise/grid/occupancy_grid.hpp"
#include "polynav/discretise/quadtree/quadtree.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/plan/query.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"

namespace {

namespace fs = std::filesystem;
using namespace polynav;

double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e3 * double(ts.tv_sec) + 1e-6 * double(ts.tv_nsec);
}

struct Args {
  std::size_t queries = 200;
  int repeat = 3;
  bool length = true;
  fs::path sweep;
  std::vector<fs::path> paths;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string key = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", key.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (key == "--queries") {
      a.queries = std::stoul(value());
    } else if (key == "--repeat") {
      a.repeat = std::max(1, std::stoi(value()));
    } else if (key == "--sweep") {
      a.sweep = value();
    } else if (key == "--no-length") {
      a.length = false;
    } else if (key.rfind("--", 0) == 0) {
      std::fprintf(stderr, "unknown option %s\n", key.c_str());
      std::exit(2);
    } else {
      a.paths.push_back(key);
    }
  }
  return a;
}

bool is_scene(const fs::path& p) {
  const std::string e = p.extension().string();
  return e == ".yaml" || e == ".json" || e == ".map" || e == ".mesh";
}

std::vector<fs::path> scenes_in(const fs::path& p) {
  std::vector<fs::path> out;
  if (fs::is_directory(p)) {
    for (const auto& e : fs::directory_iterator(p))
      if (is_scene(e.path())) out.push_back(e.path());
    std::sort(out.begin(), out.end());
  } else if (is_scene(p)) {
    out.push_back(p);
  }
  return out;
}

std::vector<Query> queries_of(const fs::path& path, const Scene& scene, std::size_t most) {
  std::vector<Query> q = scene.queries;
  fs::path scen = path;
  scen += ".scen";
  if (path.extension() == ".mesh")
    scen = path.parent_path() / (path.stem().string() + "-euclidean.scen");
  if (q.empty() && !fs::exists(scen) && fs::is_directory(path.parent_path()))
    for (const auto& e : fs::directory_iterator(path.parent_path()))
      if (e.path().extension() == ".scen" &&
          e.path().filename().string().rfind(path.stem().string(), 0) == 0)
        scen = e.path();
  if (q.empty() && fs::exists(scen)) q = load_scenario(scen, scene);
  if (q.size() > most && most > 0) {
    std::vector<Query> sample;
    const double step = double(q.size()) / double(most);
    for (std::size_t i = 0; i < most; ++i) sample.push_back(q[std::size_t(double(i) * step)]);
    q = std::move(sample);
  }
  return q;
}

std::size_t free_cells(const OccupancyGrid& grid) {
  std::size_t n = 0;
  for (int cy = 0; cy < grid.height(); ++cy)
    for (int cx = 0; cx < grid.width(); ++cx) n += grid.blocked(cx, cy) ? 0 : 1;
  return n;
}

struct QueryTimes {
  double ms = 0.0;  // mean per query
  double expanded = 0.0;
  std::size_t found = 0;
};

template <class D>
QueryTimes time_queries(const D& d, const FreeSpace& space, const std::vector<Query>& queries,
                        int repeat) {
  QueryTimes out;
  QueryWorkspace ws;
  std::vector<Query> valid;
  for (const Query& q : queries)
    if (space.is_free(q.start) && space.is_free(q.goal)) valid.push_back(q);
  if (valid.empty()) return out;
  double best = INFINITY;
  for (int r = 0; r < repeat; ++r) {
    double expanded = 0.0;
    std::size_t found = 0;
    const double t0 = cpu_ms();
    for (const Query& q : valid) {
      const RawPath p = find_path(d, q.start, q.goal, {}, ws);
      expanded += double(p.stats.expanded);
      found += p.status == search::SearchStatus::found ? 1 : 0;
    }
    best = std::min(best, cpu_ms() - t0);
    out.expanded = expanded / double(valid.size());
    out.found = found;
  }
  out.ms = best / double(valid.size());
  return out;
}

template <class Build>
double best_build_ms(int repeat, Build&& build) {
  double best = INFINITY;
  for (int r = 0; r < repeat; ++r) {
    const double t0 = cpu_ms();
    build();
    best = std::min(best, cpu_ms() - t0);
  }
  return best;
}

void node_table(const std::vector<fs::path>& scenes, const Args& args) {
  std::printf("## Nodes, build and query times at the grid's default cell size\n\n");
  std::printf(
      "| scene | edges | cell | grid free cells | quadtree free leaves | cells / leaves | grid "
      "build ms | quadtree build ms | queries | grid query ms | quadtree query ms | grid "
      "expanded | quadtree expanded | found grid / quadtree |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const fs::path& path : scenes) {
    try {
      const Scene scene = load_scene(path);
      const FreeSpace space(scene);
      const std::vector<Query> queries = queries_of(path, scene, args.queries);
      std::unique_ptr<OccupancyGrid> grid;
      std::unique_ptr<Quadtree> tree;
      const double grid_ms = best_build_ms(
          args.repeat, [&] { grid = std::make_unique<OccupancyGrid>(space, GridOptions{}); });
      const double tree_ms = best_build_ms(
          args.repeat, [&] { tree = std::make_unique<Quadtree>(space, QuadtreeOptions{}); });
      const std::size_t cells = free_cells(*grid);
      const QueryTimes g = time_queries(*grid, space, queries, args.repeat);
      const QueryTimes t = time_queries(*tree, space, queries, args.repeat);
      std::printf(
          "| %s | %zu | %g | %zu | %zu | %.1f | %.1f | %.1f | %zu | %.3f | %.3f | %.0f | %.0f | "
          "%zu / %zu |\n",
          path.filename().string().c_str(), space.edge_count(), tree->cell_size(), cells,
          tree->node_count(), double(cells) / double(std::max<std::size_t>(1, tree->node_count())),
          grid_ms, tree_ms, queries.size(), g.ms, t.ms, g.expanded, t.expanded, g.found, t.found);
      std::fflush(stdout);
    } catch (const std::exception& e) {
      std::printf("| %s | error: %s |\n", path.filename().string().c_str(), e.what());
    }
  }
  std::printf("\n");
}

void sweep_table(const fs::path& path, const Args& args) {
  std::printf("## Build time against min_cell: %s\n\n", path.filename().string().c_str());
  const Scene scene = load_scene(path);
  const FreeSpace space(scene);
  std::printf(
      "| min_cell | depth | leaves | free leaves | grid free cells | quadtree build ms | grid "
      "build ms |\n|---|---|---|---|---|---|---|\n");
  const double base = space.native_cell_size().value_or(
      std::max(space.box().width(), space.box().height()) / 256.0);
  for (const double f : {8.0, 4.0, 2.0, 1.0, 0.5, 0.25}) {
    QuadtreeOptions qo;
    qo.min_cell = base * f;
    GridOptions go;
    go.resolution = base * f;
    std::unique_ptr<Quadtree> tree;
    std::unique_ptr<OccupancyGrid> grid;
    const double tree_ms =
        best_build_ms(args.repeat, [&] { tree = std::make_unique<Quadtree>(space, qo); });
    const double grid_ms =
        best_build_ms(args.repeat, [&] { grid = std::make_unique<OccupancyGrid>(space, go); });
    std::printf("| %g | %d | %zu | %zu | %zu | %.1f | %.1f |\n", qo.min_cell, tree->depth(),
                tree->leaves().size(), tree->node_count(), free_cells(*grid), tree_ms, grid_ms);
    std::fflush(stdout);
  }
  std::printf("\n");
}

void length_table(const std::vector<fs::path>& scenes, const Args& args) {
  std::printf("## Length: quadtree + shortcut against the visibility graph optimum\n\n");
  std::printf(
      "| scene | queries both solve | mean ratio | largest ratio | raw (unsmoothed) mean ratio "
      "|\n|---|---|---|---|---|\n");
  double all_sum = 0.0;
  std::size_t all_n = 0;
  for (const fs::path& path : scenes) {
    try {
      const Scene scene = load_scene(path);
      const std::vector<Query> queries = queries_of(path, scene, args.queries);
      auto space = std::make_shared<const FreeSpace>(scene);
      if (!space->regions().empty()) {
        // The visibility graph minimises length, not cost: no optimum to compare with.
        std::printf("| %s | weighted regions: skipped | | | |\n", path.filename().string().c_str());
        continue;
      }
      PlanOptions tree_options, optimum_options;
      tree_options.method = "quadtree";
      tree_options.smoother = "shortcut";
      optimum_options.method = "visgraph";
      optimum_options.smoother = "none";
      const Planner tree(space, tree_options), optimum(space, optimum_options);
      double sum = 0.0, raw_sum = 0.0, worst = 0.0;
      std::size_t n = 0;
      for (const Query& q : queries) {
        const PlanResult best = optimum.plan(q.start, q.goal);
        const PlanResult r = tree.plan(q.start, q.goal);
        if (!best.found() || !r.found() || best.length <= 0.0) continue;
        const double ratio = r.length / best.length;
        sum += ratio;
        raw_sum += r.raw_length / best.length;
        worst = std::max(worst, ratio);
        ++n;
      }
      all_sum += sum;
      all_n += n;
      std::printf("| %s | %zu | %.4f | %.4f | %.4f |\n", path.filename().string().c_str(), n,
                  n ? sum / double(n) : NAN, worst, n ? raw_sum / double(n) : NAN);
      std::fflush(stdout);
    } catch (const std::exception& e) {
      std::printf("| %s | error: %s |\n", path.filename().string().c_str(), e.what());
    }
  }
  std::printf("| all | %zu | %.4f | | |\n\n", all_n, all_n ? all_sum / double(all_n) : NAN);
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  const fs::path source = POLYNAV_SOURCE_DIR;
  const fs::path shared = fs::path(POLYNAV_SHARED_DATA) / "movingai";
  std::vector<fs::path> bundled;
  for (const fs::path& p : scenes_in(source / "scenes"))
    if (p.extension() != ".json") bundled.push_back(p);  // warehouse.json repeats warehouse.yaml
  for (const fs::path& p : scenes_in(source / "scenes" / "movingai")) bundled.push_back(p);
  bundled.push_back(source / "scenes" / "mesh" / "arena.mesh");
  std::vector<fs::path> scenes;
  if (args.paths.empty()) {
    scenes = bundled;
    if (fs::exists(shared)) {
      for (const fs::path& p : scenes_in(shared)) scenes.push_back(p);
    } else {
      std::printf("(reference data not found at %s: bundled scenes only)\n\n",
                  shared.string().c_str());
    }
  } else {
    for (const fs::path& p : args.paths)
      for (const fs::path& s : scenes_in(p)) scenes.push_back(s);
  }
  node_table(scenes, args);
  fs::path sweep = args.sweep;
  if (sweep.empty())
    sweep = fs::exists(shared / "den520d.map") ? shared / "den520d.map"
                                               : source / "scenes" / "movingai" / "den312d.map";
  sweep_table(sweep, args);
  if (args.length) length_table(args.paths.empty() ? bundled : scenes, args);
  return 0;
}
