// The visibility graph: build time against the number of convex corners, with the growth
// exponent, and query time on real maps, side by side with a brute-force construction (every
// pair of corners checked with FreeSpace::line_of_sight, no pruning) and its queries (start and
// goal joined to every corner in sight).
//
//   bench_visibility_graph [--sizes 100,1000,5000] [--brute-max 1000] [--repeat 3]
//                          [--passes 5] [--seed 1] [--data DIR]
//
// --sizes: target corner counts of the random scenes (random disjoint convex polygons in a
//   square; every polygon vertex is a convex corner, so corners = nodes).
// --brute-max: largest size the brute-force construction is run on (it is O(n^2) line-of-sight
//   queries, each a walk of the edge grid).
// --repeat: builds per size; the fastest is reported. All times are CPU time of the benchmark's
//   one thread (CLOCK_THREAD_CPUTIME_ID), so that other load on the machine does not count.
// --passes: passes over each map's queries; per-query times are pooled for median and p95.
// --data: directory holding mesh/arena.mesh, mesh/arena-euclidean.scen, movingai/den312d.map
//   and its .scen (default: the project's scenes/). den520d.map is read from the reference data
//   (../shared/data/movingai) when present.
//
// Lengths of the two contenders are checked to agree on every query; a mismatch fails the run.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <numbers>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "bench_cli.hpp"
#include "polynav/discretise/query.hpp"
#include "polynav/discretise/visibility_graph/visibility_graph.hpp"
#include "polynav/kernel/exact.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/search/astar.hpp"
#include "polynav/search/graph.hpp"
#include "polynav/space/free_space.hpp"
#include "support/data.hpp"

namespace {

namespace fs = std::filesystem;
using polynav::FreeSpace;
using polynav::Point;
using polynav::Ring;
using polynav::Scene;
using polynav::VisibilityGraph;
using polynav::search::NodeId;
using namespace polynav::test_support;

// CPU time of this thread: the machine may be shared, and waiting for a core is not work.
double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

// Disjoint convex polygons (3 to 8 vertices on a circle, jittered angles) in a square sized so
// that about a third of it is covered: a cluttered scene where most pairs of corners are hidden
// from each other.
Scene random_convex_scene(std::size_t corners, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<int> sides(3, 8);
  const double polygons = double(corners) / 5.5;
  const double side = std::sqrt(polygons * std::numbers::pi * 4.0 / 0.33);  // mean radius ~2
  Scene scene;
  scene.bounds = {{0, 0}, {side, 0}, {side, side}, {0, side}};
  struct Disc {
    Point c;
    double r;
  };
  std::vector<Disc> discs;
  std::size_t made = 0;
  for (int attempt = 0; made < corners && attempt < 1000000; ++attempt) {
    const double r = 1.0 + 2.0 * unit(rng);
    const Point c{r + 0.1 + (side - 2 * r - 0.2) * unit(rng),
                  r + 0.1 + (side - 2 * r - 0.2) * unit(rng)};
    bool clear = true;
    for (const Disc& d : discs) clear = clear && polynav::distance(c, d.c) > r + d.r + 0.05;
    if (!clear) continue;
    discs.push_back({c, r});
    const int n = std::min<int>(sides(rng), int(corners - made) < 3 ? 3 : int(corners - made));
    Ring ring;
    const double phase = unit(rng) * 2 * std::numbers::pi;
    for (int i = 0; i < n; ++i) {
      const double a = phase + (i + 0.5 * unit(rng)) * 2 * std::numbers::pi / n;
      ring.push_back({c.x + r * std::cos(a), c.y + r * std::sin(a)});
    }
    scene.obstacles.push_back({{ring, {}}, {}});
    made += std::size_t(n);
  }
  return scene;
}

// The brute-force contender: every pair of the same corners, FreeSpace::line_of_sight alone.
struct BruteForce {
  const FreeSpace* space;
  std::vector<Point> nodes;
  polynav::search::CsrGraph graph;
  polynav::search::AStar astar;
  polynav::search::SearchResult result;
  double build_ms = 0.0;

  BruteForce(const FreeSpace& s, const VisibilityGraph& vg) : space(&s) {
    for (NodeId n = 0; n < vg.node_count(); ++n) nodes.push_back(vg.node_position(n));
    const double t0 = cpu_ms();
    std::vector<polynav::search::Edge> edges;
    for (NodeId u = 0; u < nodes.size(); ++u)
      for (NodeId w = u + 1; w < nodes.size(); ++w)
        if (s.line_of_sight(nodes[u], nodes[w]))
          edges.push_back({u, w, polynav::distance(nodes[u], nodes[w])});
    graph = polynav::search::CsrGraph(nodes.size(), edges, polynav::search::Direction::undirected);
    build_ms = cpu_ms() - t0;
  }

  double length(Point start, Point goal) {
    if (space->line_of_sight(start, goal)) return polynav::distance(start, goal);
    polynav::search::AugmentedGraph<polynav::search::CsrGraph> g(graph);
    const NodeId s = g.add_node(), t = g.add_node();
    for (NodeId u = 0; u < nodes.size(); ++u) {
      if (space->line_of_sight(start, nodes[u]))
        g.add_arc(s, u, polynav::distance(start, nodes[u]));
      if (space->line_of_sight(nodes[u], goal)) g.add_arc(u, t, polynav::distance(nodes[u], goal));
    }
    const auto h = [&](NodeId n) {
      return n == t ? 0.0 : polynav::distance(n == s ? start : nodes[n], goal);
    };
    const NodeId goals[1] = {t};
    astar.search(g, s, std::span<const NodeId>(goals), h, {}, result);
    return result.status == polynav::search::SearchStatus::found ? result.cost : INFINITY;
  }
};

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const std::size_t k = std::min(v.size() - 1, std::size_t(q * double(v.size() - 1) + 0.5));
  return v[k];
}

// Least-squares slope of log(y) against log(x).
double growth_exponent(const std::vector<double>& x, const std::vector<double>& y) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = double(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double lx = std::log(x[i]), ly = std::log(y[i]);
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

struct Args {
  std::vector<std::size_t> sizes = {100, 1000, 5000};
  std::size_t brute_max = 1000;
  int repeat = 3;
  int passes = 5;
  unsigned seed = 1;
  fs::path data = bundled_scenes();
};

// Reads the command line into `a`; an exit status when the program is to stop (--help, bad usage).
std::optional<int> parse(int argc, char** argv, Args& a) {
  std::string data = a.data.string();
  CLI::App app{
      "The visibility graph: build time against corner count and query times, side by side with "
      "a brute-force all-pairs line-of-sight construction."};
  bench_cli::add_list(app, "--sizes", a.sizes, "Target corner counts of the random scenes")
      ->type_name("N,N,...");
  bench_cli::add_value(app, "--brute-max", a.brute_max, "N",
                       "Largest size the brute-force constructions run on (O(n^2) line of sight)");
  bench_cli::add_value(app, "--repeat", a.repeat, "R", "Builds per size; the fastest is reported");
  bench_cli::add_value(app, "--passes", a.passes, "P",
                       "Passes over each map's queries (per-query times pooled)");
  bench_cli::add_value(app, "--seed", a.seed, "S", "Seed of the random scenes");
  bench_cli::add_value(app, "--data", data, "DIR",
                       "Directory holding mesh/arena.mesh, mesh/arena-euclidean.scen, "
                       "movingai/den312d.map and its .scen");
  if (const auto status = bench_cli::parse(app, argc, argv)) return status;
  a.repeat = std::max(1, a.repeat);
  a.passes = std::max(1, a.passes);
  a.data = data;
  return std::nullopt;
}

// The middle contender: the same O(1) exact tangency pruning, then FreeSpace::line_of_sight
// alone (no grid walk). Corners are found from the rings directly, which is right for these
// scenes only (disjoint convex polygons: every vertex is a corner with its ring neighbours).
double tangent_then_los_ms(const FreeSpace& space, std::size_t& edges) {
  struct Corner {
    Point at, before, after;
  };
  std::vector<Corner> corners;
  for (const polynav::BoundaryRing& ring : space.boundary()) {
    if (ring.outer) continue;
    const Ring& p = ring.points;
    for (std::size_t i = 0; i < p.size(); ++i)
      corners.push_back({p[i], p[(i + p.size() - 1) % p.size()], p[(i + 1) % p.size()]});
  }
  const auto tangent = [](const Corner& c, Point q) {
    return polynav::exact::orientation(c.at, q, c.before) *
               polynav::exact::orientation(c.at, q, c.after) >=
           0;
  };
  const double t0 = cpu_ms();
  edges = 0;
  for (std::size_t u = 0; u < corners.size(); ++u)
    for (std::size_t w = u + 1; w < corners.size(); ++w)
      if (tangent(corners[u], corners[w].at) && tangent(corners[w], corners[u].at) &&
          space.line_of_sight(corners[u].at, corners[w].at))
        ++edges;
  return cpu_ms() - t0;
}

std::string cell(double ms) {
  if (std::isnan(ms)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", ms);
  return text;
}

void build_scaling(const Args& args) {
  std::printf("## Build time against convex corners (random disjoint convex polygons)\n\n");
  std::printf(
      "| corners | free space ms | edges | tangent pairs | visgraph ms | tangent + LOS ms |"
      " all pairs + prefilter + LOS ms | brute force ms | speed-up vs brute |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  std::vector<double> xs, ys, xs_brute, ys_brute, ys_tangent;
  for (const std::size_t size : args.sizes) {
    const Scene scene = random_convex_scene(size, args.seed);
    const double t0 = cpu_ms();
    const FreeSpace space(scene);
    const double space_ms = cpu_ms() - t0;
    double best = INFINITY;
    polynav::VisibilityGraphBuildStats stats;
    std::size_t nodes = 0, edges = 0;
    for (int r = 0; r < args.repeat; ++r) {
      const double t1 = cpu_ms();
      const VisibilityGraph vg(space);
      best = std::min(best, cpu_ms() - t1);
      stats = vg.build_stats();
      nodes = vg.node_count();
      edges = vg.edge_count();
    }
    double all_ms = NAN, brute = NAN, tangent_ms = NAN;
    if (size <= args.brute_max) {
      polynav::VisibilityGraphOptions all;
      all.bitangent_only = false;
      const double t1 = cpu_ms();
      const VisibilityGraph vg_all(space, all);
      all_ms = cpu_ms() - t1;
      const VisibilityGraph vg(space);
      brute = BruteForce(space, vg).build_ms;
      if (vg_all.edge_count() != BruteForce(space, vg).graph.arc_count() / 2) {
        std::fprintf(stderr, "the unpruned graph and the brute force disagree\n");
        std::exit(1);
      }
      xs_brute.push_back(double(nodes));
      ys_brute.push_back(brute);
      std::size_t tangent_edges = 0;
      tangent_ms = tangent_then_los_ms(space, tangent_edges);
      ys_tangent.push_back(tangent_ms);
      if (tangent_edges != edges) {
        std::fprintf(stderr, "tangent + LOS found %zu edges, the visibility graph %zu\n",
                     tangent_edges, edges);
        std::exit(1);
      }
    }
    xs.push_back(double(nodes));
    ys.push_back(best);
    // The pair loop counts tangent pairs; the default build (by expansion) has none to count.
    const std::string tangent_pairs =
        stats.tangent_pairs > 0 ? std::to_string(stats.tangent_pairs) : "-";
    std::printf("| %zu | %.0f | %zu | %s | %.1f | %s | %s | %s | %s |\n", nodes, space_ms, edges,
                tangent_pairs.c_str(), best, cell(tangent_ms).c_str(), cell(all_ms).c_str(),
                cell(brute).c_str(), std::isnan(brute) ? "-" : (cell(brute / best) + "x").c_str());
    std::fflush(stdout);
  }
  if (xs.size() >= 2) {
    std::printf("\ngrowth exponent (log-log least squares over all sizes), visgraph: %.2f;",
                growth_exponent(xs, ys));
    std::printf(" between consecutive sizes:");
    for (std::size_t i = 1; i < xs.size(); ++i)
      std::printf(" %.0f->%.0f: %.2f", xs[i - 1], xs[i],
                  std::log(ys[i] / ys[i - 1]) / std::log(xs[i] / xs[i - 1]));
    std::printf("\n");
  }
  if (xs_brute.size() >= 2) {
    std::vector<double> ys_same(ys.begin(), ys.begin() + std::ptrdiff_t(xs_brute.size()));
    std::printf(
        "over the sizes <= --brute-max: visgraph %.2f, tangent + LOS %.2f, brute force %.2f\n",
        growth_exponent(xs_brute, ys_same), growth_exponent(xs_brute, ys_tangent),
        growth_exponent(xs_brute, ys_brute));
  }
}

void queries_on(const char* name, const fs::path& map, const fs::path& scen, const Args& args) {
  if (!fs::exists(map) || !fs::exists(scen)) {
    std::printf("| %s | (missing %s) |\n", name, map.string().c_str());
    return;
  }
  const Scene scene = polynav::load_scene(map);
  const std::vector<polynav::Query> queries = polynav::load_scenario(scen, scene);
  const FreeSpace space(scene);
  const double t0 = cpu_ms();
  VisibilityGraph vg(space);
  const double build_ms = cpu_ms() - t0;
  BruteForce brute(space, vg);
  std::vector<double> ours_ms, brute_ms;
  std::size_t mismatches = 0;
  polynav::QueryWorkspace workspace;
  for (int pass = 0; pass < args.passes; ++pass) {
    for (const polynav::Query& q : queries) {
      double t1 = cpu_ms();
      const polynav::RawPath r = polynav::find_path(vg, q.start, q.goal, {}, workspace);
      ours_ms.push_back(cpu_ms() - t1);
      t1 = cpu_ms();
      const double b = brute.length(q.start, q.goal);
      brute_ms.push_back(cpu_ms() - t1);
      const double a = r.status == polynav::search::SearchStatus::found ? r.graph_cost : INFINITY;
      if (pass == 0 && !(a == b || std::abs(a - b) <= 1e-9 * std::max(1.0, b))) ++mismatches;
    }
  }
  std::printf("| %s | %zu | %zu | %.1f | %.1f | %zu | %.3f | %.3f | %.3f | %.3f |\n", name,
              vg.node_count(), vg.edge_count(), build_ms, brute.build_ms, queries.size(),
              percentile(ours_ms, 0.5), percentile(ours_ms, 0.95), percentile(brute_ms, 0.5),
              percentile(brute_ms, 0.95));
  if (mismatches > 0) {
    std::fprintf(stderr, "%s: %zu queries disagree between the contenders\n", name, mismatches);
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (const auto status = parse(argc, argv, args)) return *status;
  build_scaling(args);
  std::printf("\n## Queries (find_path: attach start and goal, A*), %d passes\n\n", args.passes);
  std::printf(
      "| map | nodes | edges | build ms | brute build ms | queries | median ms | p95 ms |"
      " brute median ms | brute p95 ms |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  queries_on("arena.mesh", args.data / "mesh" / "arena.mesh",
             args.data / "mesh" / "arena-euclidean.scen", args);
  queries_on("den312d.map", args.data / "movingai" / "den312d.map",
             args.data / "movingai" / "den312d.map.scen", args);
  // A larger map from the reference data, when it is there.
  const fs::path shared = shared_data("movingai");
  queries_on("den520d.map", shared / "den520d.map", shared / "den520d.map.scen", args);
  return 0;
}
