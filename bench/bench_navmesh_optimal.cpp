// The two exact Euclidean methods side by side on one scene and scenario: the navigation mesh
// searched by Polyanya (navmesh with navmesh.search=optimal) and the visibility graph (visgraph).
//
//   bench_navmesh_optimal SCENE SCENARIO [--limit N] [--every K] [--passes P]
//                         [--set GROUP.OPTION=VALUE ...] [--label TEXT]
//
// SCENE is any scene polynav reads (a .mesh, a MovingAI .map, a native scene ...), SCENARIO a
// MovingAI .scen or a Polyanya-style .scen of plain points (read with load_scenario, as
// `polynav scen` reads it). --every K keeps every K-th row, --limit N then the first N of those.
// --set passes options to both methods' builds (each method reads only its own group), e.g.
// `--set visgraph.max_nodes=60000`.
//
// Both methods are built once on one FreeSpace (build time reported). Each method's first query
// is timed alone (the allocations a fresh workspace makes), then one warm-up pass runs every
// query, then --passes timed passes (default 1); per method: queries timed, mean / median / p95
// of the query time (Method::find_path: attach, search, raw path) over all timed passes, and the
// ratio visgraph / navmesh. Lengths (of the raw paths) must agree to 1e-9 relative; every
// disagreement is printed and counted, as are queries one method finds and the other does not.
// Last, the visibility graph's attachment alone (Discretisation::attach of start and goal, after
// the timed passes): mean / median / p95 and the corners attached per point.
//
// Times are CPU time of the benchmark's thread (CLOCK_THREAD_CPUTIME_ID), as in the other
// benchmarks: time spent descheduled on a shared machine does not count.

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
      "The navigation mesh searched by Polyanya (navmesh.search=optimal) against the visibility "
      "graph on one scene and scenario: build and query times, lengths compared query by query."};
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
                 "An option for both methods' builds, e.g. visgraph.max_nodes=60000 (each method "
                 "reads only its own group; repeatable)")
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
  double first_ms = 0.0;
  std::vector<double> times;
  std::vector<double> lengths;  // per query of the first timed pass; NaN when not found
};

Contender build(const std::string& name, const FreeSpace& space, const Settings& settings) {
  Contender c;
  c.name = name;
  const MethodEntry& entry = find_method(name);
  const double t0 = cpu_ms();
  c.method = entry.build(space, OptionValues(entry.name, entry.options, settings));
  c.build_ms = cpu_ms() - t0;
  c.options.search = search_options(OptionValues("search", search_option_specs(), settings));
  // As Planner prepares its first workspace: A*'s arrays sized to the graph, the method's own
  // state (Polyanya's) made.
  c.workspace = std::make_unique<QueryWorkspace>();
  c.workspace->astar.reserve(c.method->discretisation().node_count() + 2);
  c.method->prepare(*c.workspace);
  return c;
}

double run(Contender& c, const Query& q) {
  const RawPath r = c.method->find_path(q.start, q.goal, c.options, *c.workspace);
  return r.status == search::SearchStatus::found ? polyline_length(r.points) : std::nan("");
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
  const double t0 = cpu_ms();
  const FreeSpace space(scene);
  const double space_ms = cpu_ms() - t0;
  // Only free points are queries of both methods (a .scen may name points a mesh leaves out).
  std::size_t dropped = 0;
  std::erase_if(queries, [&](const Query& q) {
    const bool out = !space.is_free(q.start) || !space.is_free(q.goal);
    dropped += out;
    return out;
  });

  Settings navmesh_settings = args.settings;
  navmesh_settings.set("navmesh.search", "optimal");
  std::vector<Contender> contenders;
  contenders.push_back(build("navmesh", space, navmesh_settings));
  contenders.push_back(build("visgraph", space, args.settings));

  std::printf("# %s: %zu queries (%zu dropped: not free), %zu corners, free space %.1f ms\n",
              args.label.c_str(), queries.size(), dropped, space.corners().size(), space_ms);
  for (Contender& c : contenders) {
    if (queries.empty()) break;
    const double t1 = cpu_ms();
    run(c, queries.front());
    c.first_ms = cpu_ms() - t1;
  }
  for (Contender& c : contenders)  // warm-up pass
    for (const Query& q : queries) run(c, q);
  for (int pass = 0; pass < args.passes; ++pass) {
    // Alternate the methods query by query, so that both see the same machine load.
    for (const Query& q : queries) {
      for (Contender& c : contenders) {
        const double t1 = cpu_ms();
        const double length = run(c, q);
        c.times.push_back(cpu_ms() - t1);
        if (pass == 0) c.lengths.push_back(length);
      }
    }
  }

  std::size_t disagree = 0, found_one = 0;
  const std::vector<double>& a = contenders[0].lengths;
  const std::vector<double>& b = contenders[1].lengths;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    if (std::isnan(a[i]) && std::isnan(b[i])) continue;
    if (std::isnan(a[i]) != std::isnan(b[i])) {
      ++found_one;
      std::printf(
          "only one found: query %zu (%.17g, %.17g) -> (%.17g, %.17g): navmesh %.17g, "
          "visgraph %.17g\n",
          i, queries[i].start.x, queries[i].start.y, queries[i].goal.x, queries[i].goal.y, a[i],
          b[i]);
      continue;
    }
    if (std::abs(a[i] - b[i]) > 1e-9 * std::max({1.0, a[i], b[i]})) {
      ++disagree;
      std::printf(
          "lengths disagree: query %zu (%.17g, %.17g) -> (%.17g, %.17g): navmesh %.17g, "
          "visgraph %.17g\n",
          i, queries[i].start.x, queries[i].start.y, queries[i].goal.x, queries[i].goal.y, a[i],
          b[i]);
    }
  }

  std::printf(
      "| scene | method | build ms | first query ms | queries | mean ms | median ms | "
      "p95 ms |\n|---|---|---:|---:|---:|---:|---:|---:|\n");
  for (const Contender& c : contenders)
    std::printf("| %s | %s | %.1f | %.3f | %zu | %.4f | %.4f | %.4f |\n", args.label.c_str(),
                c.name == "navmesh" ? "navmesh optimal" : c.name.c_str(), c.build_ms, c.first_ms,
                c.times.size(), mean(c.times), quantile(c.times, 0.5), quantile(c.times, 0.95));
  const Contender& n = contenders[0];
  const Contender& v = contenders[1];
  std::printf("ratio visgraph / navmesh optimal: mean %.2f, median %.2f, p95 %.2f; build %.1f\n",
              mean(v.times) / mean(n.times), quantile(v.times, 0.5) / quantile(n.times, 0.5),
              quantile(v.times, 0.95) / quantile(n.times, 0.95), v.build_ms / n.build_ms);
  std::printf("lengths: %zu disagree beyond 1e-9 relative, %zu found by one method only\n",
              disagree, found_one);

  // The visibility graph's attachment alone (start from the point, goal to it), the part of its
  // query that grew with the corners before the triangular expansion.
  {
    const Discretisation& graph = v.method->discretisation();
    std::vector<Attachment> arcs;
    std::vector<double> times;
    double attached = 0;
    for (const Query& q : queries) {
      const double t1 = cpu_ms();
      graph.attach(q.start, AttachDirection::from_point, arcs);
      attached += double(arcs.size());
      graph.attach(q.goal, AttachDirection::to_point, arcs);
      attached += double(arcs.size());
      times.push_back(cpu_ms() - t1);
    }
    std::printf(
        "visgraph attach (start and goal): mean %.4f, median %.4f, p95 %.4f ms; %.1f "
        "corners per point\n",
        mean(times), quantile(times, 0.5), quantile(times, 0.95),
        queries.empty() ? 0.0 : attached / double(2 * queries.size()));
  }
  return disagree + found_one > 0 ? 1 : 0;
}
