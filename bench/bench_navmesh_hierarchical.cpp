// The navigation mesh's three searches side by side on one scene and scenario: the graph
// (navmesh.search=graph: A* over the nodes, ALT landmarks), the hierarchical search over regions
// of polygons (navmesh.search=hierarchical, navmesh.region) and Polyanya (navmesh.search=optimal).
//
//   bench_navmesh_hierarchical SCENE SCENARIO [--limit N] [--every K] [--passes P]
//                              [--set GROUP.OPTION=VALUE ...] [--label TEXT]
//
// Each search is built once on one FreeSpace (CPU build time; for the hierarchical search the
// abstraction's own build time and bytes too). One warm-up pass runs every query, then --passes
// timed passes alternate the searches query by query; per search: mean / median / p95 of the
// query time (Method::find_path: attach, search, raw path, no smoothing) and the raw path's cost
// against the graph's (hierarchical: must never be below it; Polyanya: the shortest path, at most
// the graph's). Queries found by one search and not another are counted.
//
// Times are CPU time of the benchmark's thread (CLOCK_THREAD_CPUTIME_ID).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench_cli.hpp"
#include "polynav/discretise/discretisation.hpp"
#include "polynav/discretise/navmesh/hierarchical_navmesh.hpp"
#include "polynav/discretise/query.hpp"
#include "polynav/plan/options.hpp"
#include "polynav/plan/registry.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"

namespace {

using namespace polynav;

double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e3 * double(ts.tv_sec) + 1e-6 * double(ts.tv_nsec);
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, std::size_t(q * double(v.size())))];
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? std::nan("") : s / double(v.size());
}

struct Args {
  std::string scene, scenario, label;
  std::size_t limit = 0;  // 0: all
  std::size_t every = 1;
  int passes = 1;
  Settings settings;
};

// Reads the command line into `a`; an exit status when the program is to stop (--help, bad usage).
std::optional<int> parse(int argc, char** argv, Args& a) {
  std::vector<std::string> assignments;
  CLI::App app{
      "The navigation mesh's graph search, its hierarchical search and Polyanya on one scene and "
      "scenario, the same queries: build, memory and query times, raw costs compared."};
  app.add_option("SCENE", a.scene, "Any scene polynav reads (.mesh, MovingAI .map, native ...)")
      ->required();
  app.add_option("SCENARIO", a.scenario,
                 "A MovingAI .scen or a Polyanya-style .scen of plain points (read as 'polynav "
                 "scen' reads it)")
      ->required();
  bench_cli::add_value(app, "--limit", a.limit, "N",
                       "Keep the first N queries (after --every; 0: all)");
  bench_cli::add_value(app, "--every", a.every, "K", "Keep every K-th row of the scenario");
  bench_cli::add_value(app, "--passes", a.passes, "P", "Timed passes over the queries");
  app.add_option("--set", assignments,
                 "An option for every build, e.g. navmesh.region=32 or navmesh.source=rebuild "
                 "(repeatable)")
      ->type_name("GROUP.OPTION=VALUE")
      ->allow_extra_args(false);
  app.add_option("--label", a.label, "Name of the scene in the output (default its file name)")
      ->type_name("TEXT");
  if (const auto status = bench_cli::parse(app, argc, argv)) return status;
  a.every = std::max<std::size_t>(1, a.every);
  a.passes = std::max(1, a.passes);
  try {
    for (const std::string& assignment : assignments) a.settings.set_assignment(assignment);
  } catch (const InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  if (a.label.empty()) a.label = a.scene.substr(a.scene.find_last_of('/') + 1);
  return std::nullopt;
}

struct Contender {
  std::string name;
  std::unique_ptr<Method> method;
  QueryOptions options;
  std::unique_ptr<QueryWorkspace> workspace;
  double build_ms = 0.0;
  std::vector<double> times;
  std::vector<double> costs;  // per query of the first timed pass; NaN when not found
};

Contender build(const std::string& name, const std::string& search, const FreeSpace& space,
                Settings settings) {
  Contender c;
  c.name = name;
  settings.set("navmesh.search", search);
  const MethodEntry& entry = find_method("navmesh");
  const double t0 = cpu_ms();
  c.method = entry.build(space, OptionValues(entry.name, entry.options, settings));
  c.build_ms = cpu_ms() - t0;
  c.options.search = search_options(OptionValues("search", search_option_specs(), settings));
  c.workspace = std::make_unique<QueryWorkspace>();
  c.workspace->astar.reserve(c.method->discretisation().node_count() + 2);
  c.method->prepare(*c.workspace);
  return c;
}

double run(Contender& c, const Query& q) {
  const RawPath r = c.method->find_path(q.start, q.goal, c.options, *c.workspace);
  return r.status == search::SearchStatus::found ? r.graph_cost : std::nan("");
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (const auto status = parse(argc, argv, args)) return *status;
  const Scene scene = load_scene(args.scene);
  std::vector<Query> queries;
  {
    const std::vector<Query> all = load_scenario(args.scenario, scene);
    for (std::size_t i = 0; i < all.size(); i += args.every) queries.push_back(all[i]);
    if (args.limit > 0 && queries.size() > args.limit) queries.resize(args.limit);
  }
  const FreeSpace space(scene);
  std::size_t dropped = 0;
  std::erase_if(queries, [&](const Query& q) {
    const bool out = !space.is_free(q.start) || !space.is_free(q.goal);
    dropped += out;
    return out;
  });

  std::vector<Contender> contenders;
  contenders.push_back(build("graph", "graph", space, args.settings));
  contenders.push_back(build("hierarchical", "hierarchical", space, args.settings));
  contenders.push_back(build("optimal", "optimal", space, args.settings));
  const auto& h = dynamic_cast<const HierarchicalNavMesh&>(contenders[1].method->discretisation());
  std::printf("# %s: %zu queries (%zu dropped: not free)\n# %s\n", args.label.c_str(),
              queries.size(), dropped, h.summary().c_str());

  for (Contender& c : contenders)  // warm-up pass
    for (const Query& q : queries) run(c, q);
  for (int pass = 0; pass < args.passes; ++pass)
    for (const Query& q : queries)
      for (Contender& c : contenders) {
        const double t1 = cpu_ms();
        const double cost = run(c, q);
        c.times.push_back(cpu_ms() - t1);
        if (pass == 0) c.costs.push_back(cost);
      }

  std::printf(
      "| scene | navmesh.search | build ms | mean ms | median ms | p95 ms | cost / graph mean | "
      "max | found by it only | missed |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  const std::vector<double>& g = contenders[0].costs;
  int below = 0;
  for (const Contender& c : contenders) {
    double sum = 0.0, worst = 0.0;
    std::size_t n = 0, only = 0, missed = 0;
    for (std::size_t i = 0; i < queries.size(); ++i) {
      if (std::isnan(g[i]) != std::isnan(c.costs[i])) {
        (std::isnan(g[i]) ? only : missed) += 1;
        continue;
      }
      if (std::isnan(g[i]) || g[i] <= 0) continue;
      const double ratio = c.costs[i] / g[i];
      if (c.name == "hierarchical" && ratio < 1.0 - 1e-9) ++below;
      sum += ratio;
      worst = std::max(worst, ratio);
      ++n;
    }
    std::printf("| %s | %s | %.1f | %.4f | %.4f | %.4f | %.6f | %.6f | %zu | %zu |\n",
                args.label.c_str(), c.name.c_str(), c.build_ms, mean(c.times),
                quantile(c.times, 0.5), quantile(c.times, 0.95), n ? sum / double(n) : 0.0, worst,
                only, missed);
  }
  std::printf(
      "hierarchical abstraction: built in %.1f ms (wall), %zu bytes; %d costs below the "
      "graph's\n",
      h.build_ms(), h.bytes(), below);
  return below > 0 ? 1 : 0;
}
