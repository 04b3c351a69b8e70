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
//    cell size (the ratio is cells / free leaves), the graph nodes of both node placements
//    (quadtree.nodes: centres, one per free leaf; portals), build times, and the mean query time
//    of the raw search (attach, A*, raw path; no smoothing) of the grid and of each placement,
//    with the mean nodes expanded.
// 2. min_cell sweep on one map: leaves, free leaves, quadtree and grid build times.
// 3. Length ratio: quadtree (both node placements) with shortcut and with funnel smoothing (the
//    Planner) against the visibility graph's exact Euclidean optimum on the bundled scenes and
//    arena.mesh with arena-euclidean.scen: mean and largest ratio over the queries all solve
//    (scenes with weighted regions are skipped: the visibility graph minimises length, not cost).
// 4. Root alignment, MovingAI maps only: the free leaves of a region quadtree over the grid's
//    free cells for every offset of the root square by whole cells, counted from the cells alone
//    (every maximal aligned free square of side 2^k); offsets range over [0, 2^m)^2 with 2^m the
//    largest power of two not above the largest free square, beyond which the count repeats.
//    The count at offset (0, 0) is checked against the Quadtree's own.
//
// Times are CPU time of the benchmark's one thread (CLOCK_THREAD_CPUTIME_ID).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench_cli.hpp"
#include "polynav/discretise/grid/occupancy_grid.hpp"
#include "polynav/discretise/quadtree/quadtree.hpp"
#include "polynav/discretise/query.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"
#include "support/data.hpp"

namespace {

namespace fs = std::filesystem;
using namespace polynav;
using namespace test_support;

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

// Reads the command line into `a`; an exit status when the program is to stop (--help, bad usage).
std::optional<int> parse(int argc, char** argv, Args& a) {
  std::string sweep;
  std::vector<std::string> paths;
  bool no_length = false;
  CLI::App app{
      "The adaptive quadtree against the occupancy grid of the same finest cell size, and its "
      "smoothed paths against the exact Euclidean optimum (the visibility graph)."};
  bench_cli::add_value(app, "--queries", a.queries, "N",
                       "At most N queries per scene, evenly sampled");
  bench_cli::add_value(
      app, "--repeat", a.repeat, "R",
      "Time each build and each query pass R times, interleaved, keeping the fastest");
  app.add_option("--sweep", sweep,
                 "The map of the min_cell table (default: den520d.map of the reference data, "
                 "else the bundled den312d.map)")
      ->type_name("MAP");
  app.add_flag("--no-length", no_length,
               "Skip the length table (it builds a visibility graph per scene)");
  app.add_option("PATH", paths,
                 "A scene (.yaml, .json, .map, .mesh) or a directory of them (default: the "
                 "bundled scenes and the reference data's MovingAI maps)");
  if (const auto status = bench_cli::parse(app, argc, argv)) return status;
  a.repeat = std::max(1, a.repeat);
  a.sweep = sweep;
  a.length = !no_length;
  a.paths.assign(paths.begin(), paths.end());
  return std::nullopt;
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
  fs::path scen;
  if (path.extension() == ".mesh")
    scen = path.parent_path() / (path.stem().string() + "-euclidean.scen");
  if (q.empty() && !fs::exists(scen)) scen = find_scenario(path);
  if (q.empty() && !scen.empty()) q = load_scenario(scen, scene);
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

QuadtreeOptions with_nodes(QuadtreeNodes nodes) {
  QuadtreeOptions o;
  o.nodes = nodes;
  return o;
}

std::size_t arc_count(const Quadtree& tree) {
  std::size_t arcs = 0;
  for (search::NodeId u = 0; u < tree.node_count(); ++u)
    tree.for_each_neighbour(u, [&](search::NodeId, double) { ++arcs; });
  return arcs;
}

void node_table(const std::vector<fs::path>& scenes, const Args& args) {
  std::printf("## Nodes, build and query times at the grid's default cell size\n\n");
  std::printf(
      "| scene | edges | cell | grid free cells | quadtree free leaves | cells / leaves | portal "
      "nodes / arcs | grid build ms | quadtree build ms centres / portals | queries | grid query "
      "ms | quadtree query ms centres / portals | grid expanded | quadtree expanded centres / "
      "portals | found grid / centres / portals |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const fs::path& path : scenes) {
    try {
      const Scene scene = load_scene(path);
      const FreeSpace space(scene);
      const std::vector<Query> queries = queries_of(path, scene, args.queries);
      std::unique_ptr<OccupancyGrid> grid;
      std::unique_ptr<Quadtree> centres, portals;
      const double grid_ms = best_build_ms(
          args.repeat, [&] { grid = std::make_unique<OccupancyGrid>(space, GridOptions{}); });
      double centres_ms = INFINITY, portals_ms = INFINITY;
      for (int r = 0; r < args.repeat; ++r) {  // interleaved
        centres_ms = std::min(centres_ms, best_build_ms(1, [&] {
                                centres = std::make_unique<Quadtree>(
                                    space, with_nodes(QuadtreeNodes::centres));
                              }));
        portals_ms = std::min(portals_ms, best_build_ms(1, [&] {
                                portals = std::make_unique<Quadtree>(
                                    space, with_nodes(QuadtreeNodes::portals));
                              }));
      }
      const std::size_t cells = free_cells(*grid);
      const std::size_t leaves = centres->free_leaf_count();
      const QueryTimes g = time_queries(*grid, space, queries, args.repeat);
      QueryTimes c, p;
      for (int r = 0; r < args.repeat; ++r) {  // interleaved, the fastest pass of each
        const QueryTimes cr = time_queries(*centres, space, queries, 1);
        const QueryTimes pr = time_queries(*portals, space, queries, 1);
        if (r == 0 || cr.ms < c.ms) c = cr;
        if (r == 0 || pr.ms < p.ms) p = pr;
      }
      std::printf(
          "| %s | %zu | %g | %zu | %zu | %.1f | %zu / %zu | %.1f | %.1f / %.1f | %zu | %.3f | "
          "%.3f / %.3f | %.0f | %.0f / %.0f | %zu / %zu / %zu |\n",
          path.filename().string().c_str(), space.edge_count(), centres->cell_size(), cells, leaves,
          double(cells) / double(std::max<std::size_t>(1, leaves)), portals->node_count(),
          arc_count(*portals), grid_ms, centres_ms, portals_ms, queries.size(), g.ms, c.ms, p.ms,
          g.expanded, c.expanded, p.expanded, g.found, c.found, p.found);
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
                tree->leaves().size(), tree->free_leaf_count(), free_cells(*grid), tree_ms,
                grid_ms);
    std::fflush(stdout);
  }
  std::printf("\n");
}

void length_table(const std::vector<fs::path>& scenes, const Args& args) {
  std::printf(
      "## Length: quadtree + shortcut and + funnel against the visibility graph optimum\n\n");
  std::printf(
      "| scene | queries all solve | nodes | shortcut mean (largest) | funnel mean (largest) | "
      "raw mean |\n|---|---|---|---|---|---|\n");
  struct Variant {
    const char* nodes;
    const char* smoother;
  };
  const Variant variants[] = {{"centres", "shortcut"},
                              {"centres", "funnel"},
                              {"portals", "shortcut"},
                              {"portals", "funnel"}};
  double all_sum[4] = {0, 0, 0, 0};
  std::size_t all_n = 0;
  for (const fs::path& path : scenes) {
    try {
      const Scene scene = load_scene(path);
      const std::vector<Query> queries = queries_of(path, scene, args.queries);
      auto space = std::make_shared<const FreeSpace>(scene);
      if (!space->regions().empty()) {
        // The visibility graph minimises length, not cost: no optimum to compare with.
        std::printf("| %s | weighted regions: skipped | | | | |\n",
                    path.filename().string().c_str());
        continue;
      }
      PlanOptions optimum_options;
      optimum_options.method = "visgraph";
      optimum_options.smoother = "none";
      const Planner optimum(space, optimum_options);
      std::vector<std::unique_ptr<Planner>> planners;
      for (const Variant& v : variants) {
        PlanOptions o;
        o.method = "quadtree";
        o.smoother = v.smoother;
        o.settings.set("quadtree.nodes", v.nodes);
        planners.push_back(std::make_unique<Planner>(space, o));
      }
      double sum[4] = {0, 0, 0, 0}, worst[4] = {0, 0, 0, 0}, raw_sum[4] = {0, 0, 0, 0};
      std::size_t n = 0;
      for (const Query& q : queries) {
        const PlanResult best = optimum.plan(q.start, q.goal);
        if (!best.found() || best.length <= 0.0) continue;
        std::vector<PlanResult> r;
        for (const auto& planner : planners) r.push_back(planner->plan(q.start, q.goal));
        if (!std::all_of(r.begin(), r.end(), [](const PlanResult& x) { return x.found(); }))
          continue;
        for (std::size_t v = 0; v < 4; ++v) {
          const double ratio = r[v].length / best.length;
          sum[v] += ratio;
          worst[v] = std::max(worst[v], ratio);
          raw_sum[v] += r[v].raw_length / best.length;
        }
        ++n;
      }
      for (std::size_t v = 0; v < 4; ++v) all_sum[v] += sum[v];
      all_n += n;
      const auto mean = [&](double x) { return n ? x / double(n) : NAN; };
      for (const std::size_t v : {std::size_t{0}, std::size_t{2}})
        std::printf("| %s | %zu | %s | %.4f (%.4f) | %.4f (%.4f) | %.4f |\n",
                    path.filename().string().c_str(), n, variants[v].nodes, mean(sum[v]), worst[v],
                    mean(sum[v + 1]), worst[v + 1], mean(raw_sum[v]));
      std::fflush(stdout);
    } catch (const std::exception& e) {
      std::printf("| %s | error: %s |\n", path.filename().string().c_str(), e.what());
    }
  }
  const auto all = [&](std::size_t v) { return all_n ? all_sum[v] / double(all_n) : NAN; };
  std::printf("| all | %zu | centres | %.4f | %.4f | |\n", all_n, all(0), all(1));
  std::printf("| all | %zu | portals | %.4f | %.4f | |\n\n", all_n, all(2), all(3));
}

void alignment_table(const std::vector<fs::path>& scenes) {
  std::printf("## Root alignment: free leaves for every offset of the root by whole cells\n\n");
  std::printf(
      "| map | grid free cells | largest free square | offsets | free leaves at (0, 0) | "
      "fewest (offset) | most | cells / fewest |\n|---|---|---|---|---|---|---|---|\n");
  for (const fs::path& path : scenes) {
    if (path.extension() != ".map") continue;
    try {
      const Scene scene = load_scene(path);
      const FreeSpace space(scene);
      const OccupancyGrid grid(space, GridOptions{});
      const Quadtree tree(space, with_nodes(QuadtreeNodes::centres));
      const int w = grid.width(), h = grid.height();
      std::vector<char> open(std::size_t(w) * std::size_t(h));
      std::size_t cells = 0;
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          open[std::size_t(y) * std::size_t(w) + std::size_t(x)] = grid.blocked(x, y) ? 0 : 1;
          cells += grid.blocked(x, y) ? 0 : 1;
        }
      // The largest free square (side in cells), by the usual dynamic programme.
      std::vector<int> run(std::size_t(w + 1) * std::size_t(h + 1), 0);
      int largest = 0;
      const auto at = [&](int x, int y) -> int& {
        return run[std::size_t(y) * std::size_t(w + 1) + std::size_t(x)];
      };
      for (int y = 1; y <= h; ++y)
        for (int x = 1; x <= w; ++x)
          if (open[std::size_t(y - 1) * std::size_t(w) + std::size_t(x - 1)]) {
            at(x, y) = 1 + std::min({at(x - 1, y), at(x, y - 1), at(x - 1, y - 1)});
            largest = std::max(largest, at(x, y));
          }
      int period = 1;
      while (2 * period <= largest) period *= 2;
      std::size_t fewest = SIZE_MAX, most = 0, at_origin = 0;
      int best_x = 0, best_y = 0;
      std::vector<std::size_t> sums;
      for (int oy = 0; oy < period; ++oy)
        for (int ox = 0; ox < period; ++ox) {
          // Map cell (x, y) is the tree's cell (x + ox, y + oy); summed-area table over the root.
          int side = 1;
          while (side < std::max(w + ox, h + oy)) side *= 2;
          const std::size_t stride = std::size_t(side) + 1;
          sums.assign(stride * stride, 0);
          for (int y = 0; y < side; ++y)
            for (int x = 0; x < side; ++x) {
              const int mx = x - ox, my = y - oy;
              const std::size_t f =
                  mx >= 0 && my >= 0 && mx < w && my < h
                      ? std::size_t(open[std::size_t(my) * std::size_t(w) + std::size_t(mx)])
                      : 0;
              sums[std::size_t(y + 1) * stride + std::size_t(x + 1)] =
                  f + sums[std::size_t(y) * stride + std::size_t(x + 1)] +
                  sums[std::size_t(y + 1) * stride + std::size_t(x)] -
                  sums[std::size_t(y) * stride + std::size_t(x)];
            }
          const auto full = [&](int x, int y, int s) {
            const std::size_t x0 = std::size_t(x), y0 = std::size_t(y), x1 = x0 + std::size_t(s),
                              y1 = y0 + std::size_t(s);
            return sums[y1 * stride + x1] + sums[y0 * stride + x0] - sums[y0 * stride + x1] -
                       sums[y1 * stride + x0] ==
                   std::size_t(s) * std::size_t(s);
          };
          // A free leaf is a free aligned square whose parent square is not free.
          std::size_t leaves = 0;
          for (int s = 1; s <= side; s *= 2)
            for (int y = 0; y < side; y += s)
              for (int x = 0; x < side; x += s)
                if (full(x, y, s) &&
                    (s == side || !full(x / (2 * s) * 2 * s, y / (2 * s) * 2 * s, 2 * s)))
                  ++leaves;
          if (ox == 0 && oy == 0) at_origin = leaves;
          if (leaves < fewest) {
            fewest = leaves;
            best_x = ox;
            best_y = oy;
          }
          most = std::max(most, leaves);
        }
      std::printf("| %s | %zu | %d | %d x %d | %zu%s | %zu (%d, %d) | %zu | %.2f |\n",
                  path.filename().string().c_str(), cells, largest, period, period, at_origin,
                  at_origin == tree.free_leaf_count() ? "" : " (quadtree differs!)", fewest, best_x,
                  best_y, most, double(cells) / double(std::max<std::size_t>(1, fewest)));
      std::fflush(stdout);
    } catch (const std::exception& e) {
      std::printf("| %s | error: %s |\n", path.filename().string().c_str(), e.what());
    }
  }
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (const auto status = parse(argc, argv, args)) return *status;
  const fs::path shared = shared_data("movingai");
  std::vector<fs::path> bundled;
  for (const fs::path& p : scenes_in(bundled_scenes()))
    if (p.extension() != ".json") bundled.push_back(p);  // warehouse.json repeats warehouse.yaml
  for (const fs::path& p : scenes_in(bundled_scenes("movingai"))) bundled.push_back(p);
  bundled.push_back(bundled_scenes("mesh") / "arena.mesh");
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
                                               : bundled_scenes("movingai") / "den312d.map";
  sweep_table(sweep, args);
  if (args.length) length_table(args.paths.empty() ? bundled : scenes, args);
  alignment_table(scenes);
  return 0;
}
