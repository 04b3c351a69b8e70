// Grid A* on MovingAI maps: polynav's A* on the occupancy grid (an implicit graph) against
// Boost.Graph's astar_search on an explicit compressed-sparse-row copy of the same grid, every
// query of each map's .scen, costs checked against each other and against the .scen's optimal
// lengths. Also the length of grid + shortcut smoothing (the Planner) relative to that optimum.
//
//   bench_grid_movingai [--repeat 1] [--no-smooth] [PATH ...]
//
// PATH: a .map file, a directory of them, or a .scen file for the .map named just before it.
//   Default: the reference data's movingai/ directory; when it is absent the benchmark says so
//   and exits 0. A map's scenario is MAP.scen (e.g. arena.map.scen), else the first file in the
//   same directory whose name starts with the map's stem and ends in .scen.
// --repeat R: time each contender R times, interleaved, and keep each one's fastest pass.
// --no-smooth: skip the smoothing column (the Planner pass re-plans every query).
//
// The grid is the one the Planner builds for a map (the grid method's defaults: resolution = the
// map's cell size 1, origin at the bounds' lower-left corner, 8-connected, no corner cutting),
// so grid cells are the map's cells. Both searches use the octile heuristic times the cell size
// and stop when the goal is taken from the open list. Boost.Graph's property maps are
// allocated once; its documented way to stop at the goal is an exception from the visitor.
//
// Times are CPU time of the benchmark's one thread (CLOCK_THREAD_CPUTIME_ID): other load on a
// shared machine does not count. A cost mismatch is reported and makes the exit status 1.

#include <boost/graph/astar_search.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bench_cli.hpp"
#include "polynav/discretise/grid/occupancy_grid.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/search/astar.hpp"
#include "polynav/space/free_space.hpp"
#include "support/data.hpp"

namespace {

namespace fs = std::filesystem;
using polynav::OccupancyGrid;
using polynav::search::NodeId;
using namespace polynav::test_support;

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

constexpr double sqrt2_minus_1 = 0.41421356237309515;

// Octile distance between two cells, times the cell size: exact for 8-connected moves on an
// open grid, so admissible and consistent with corner-cutting rules.
struct Octile {
  std::uint32_t width;
  double cell;
  double operator()(NodeId a, NodeId b) const {
    const auto ax = double(a % width), ay = double(a / width);
    const auto bx = double(b % width), by = double(b / width);
    const double dx = std::abs(ax - bx), dy = std::abs(ay - by);
    return cell * (std::max(dx, dy) + sqrt2_minus_1 * std::min(dx, dy));
  }
};

using BoostGraph =
    boost::compressed_sparse_row_graph<boost::directedS, boost::no_property,
                                       boost::property<boost::edge_weight_t, double>>;
using BoostVertex = boost::graph_traits<BoostGraph>::vertex_descriptor;

struct BoostOctile : boost::astar_heuristic<BoostGraph, double> {
  Octile octile;
  NodeId goal;
  BoostOctile(Octile o, NodeId t) : octile(o), goal(t) {}
  double operator()(BoostVertex v) const { return octile(NodeId(v), goal); }
};

struct GoalReached {};
// Also counts expansions the way polynav does (a goal taken from the open list is not one), so
// that a difference in time can be told apart from a difference in work (tie-breaking).
struct StopAtGoal : boost::default_astar_visitor {
  BoostVertex goal;
  std::uint64_t* expanded;
  StopAtGoal(BoostVertex t, std::uint64_t& count) : goal(t), expanded(&count) {}
  void examine_vertex(BoostVertex u, const BoostGraph&) const {
    if (u == goal) throw GoalReached{};
    ++*expanded;
  }
};

struct CellQuery {
  NodeId start;
  NodeId goal;
  double reference;  // the .scen's optimal length; NaN when the file gives none
};

struct Pass {
  std::vector<double> costs;
  double seconds = 0.0;
  std::uint64_t expanded = 0;
};

template <class Graph>
Pass run_ours(const Graph& graph, Octile octile, const std::vector<CellQuery>& queries,
              polynav::search::AStar& astar, polynav::search::SearchResult& result) {
  Pass pass;
  pass.costs.reserve(queries.size());
  const polynav::search::SearchOptions options;
  const double t0 = cpu_seconds();
  for (const CellQuery& q : queries) {
    const NodeId goal = q.goal;
    const auto h = [octile, goal](NodeId n) { return octile(n, goal); };
    astar.search(graph, q.start, std::span<const NodeId>(&goal, 1), h, options, result);
    pass.costs.push_back(result.cost);
    pass.expanded += result.stats.expanded;
  }
  pass.seconds = cpu_seconds() - t0;
  return pass;
}

Pass run_boost(const BoostGraph& g, Octile octile, const std::vector<CellQuery>& queries) {
  Pass pass;
  pass.costs.reserve(queries.size());
  const std::size_t n = boost::num_vertices(g);
  std::vector<BoostVertex> predecessor(n);
  std::vector<double> distance(n), rank(n);
  std::vector<boost::default_color_type> color(n);
  const double t0 = cpu_seconds();
  for (const CellQuery& q : queries) {
    try {
      boost::astar_search(g, q.start, BoostOctile(octile, q.goal),
                          boost::predecessor_map(predecessor.data())
                              .distance_map(distance.data())
                              .rank_map(rank.data())
                              .color_map(color.data())
                              .weight_map(boost::get(boost::edge_weight, g))
                              .visitor(StopAtGoal(q.goal, pass.expanded)));
    } catch (const GoalReached&) {
    }
    pass.costs.push_back(distance[q.goal]);
  }
  pass.seconds = cpu_seconds() - t0;
  return pass;
}

// The .scen files print 6 significant digits (e.g. 103.284): half a unit in the last of them.
bool matches_reference(double cost, double reference) {
  return std::abs(cost - reference) <= std::max(1e-6, 5e-6 * std::abs(reference));
}

struct MapResult {
  std::string name;
  std::size_t queries = 0;
  double ours_seconds = 0.0;
  double boost_seconds = 0.0;
  std::uint64_t expanded = 0;
  std::uint64_t boost_expanded = 0;
};

bool run_map(const MapJob& job, int repeat, bool smooth, std::vector<MapResult>& results) {
  const polynav::Scene scene = polynav::load_scene(job.map);
  const std::vector<polynav::Query> queries = polynav::load_scenario(job.scen, scene);
  const polynav::FreeSpace space(scene);
  const std::unique_ptr<polynav::Method> method = polynav::find_method("grid").build(
      space, polynav::OptionValues("grid", polynav::find_method("grid").options, {}));
  const auto* grid = dynamic_cast<const OccupancyGrid*>(&method->discretisation());
  if (grid == nullptr || grid->options().connectivity != 8) {
    std::fprintf(stderr, "%s: the grid method did not give an 8-connected occupancy grid\n",
                 job.map.string().c_str());
    return false;
  }
  const Octile octile{std::uint32_t(grid->width()), grid->cell_size()};

  std::vector<CellQuery> cells;
  for (const polynav::Query& q : queries) {
    const auto [sx, sy] = grid->cell_of(q.start);
    const auto [gx, gy] = grid->cell_of(q.goal);
    const auto id = [&](int cx, int cy) { return NodeId(cy) * NodeId(grid->width()) + NodeId(cx); };
    cells.push_back({id(sx, sy), id(gx, gy), q.reference_length.value_or(NAN)});
  }

  // The same arcs, in the same order, as an explicit graph; blocked cells are never reached, so
  // their arcs are left out.
  std::vector<std::pair<std::size_t, std::size_t>> edges;
  std::vector<double> weights;
  std::size_t free_cells = 0;
  for (NodeId n = 0; n < grid->node_count(); ++n) {
    if (grid->blocked(int(n % NodeId(grid->width())), int(n / NodeId(grid->width())))) continue;
    ++free_cells;
    grid->for_each_neighbour(n, [&](NodeId to, double cost) {
      edges.emplace_back(n, to);
      weights.push_back(cost);
    });
  }
  const BoostGraph boost_graph(boost::edges_are_sorted, edges.begin(), edges.end(), weights.begin(),
                               grid->node_count());
  // polynav's own explicit graph of the same arcs: tells the search's cost apart from the cost of
  // computing neighbours on the fly.
  std::vector<polynav::search::Edge> csr_edges;
  csr_edges.reserve(edges.size());
  for (std::size_t i = 0; i < edges.size(); ++i)
    csr_edges.push_back({NodeId(edges[i].first), NodeId(edges[i].second), weights[i]});
  const polynav::search::CsrGraph csr(grid->node_count(), csr_edges);
  csr_edges = {};

  polynav::search::AStar astar;
  polynav::search::SearchResult result;
  run_ours(*grid, octile, cells, astar, result);  // warm-up: grows the search's arrays once
  Pass ours, ours_csr, theirs;
  for (int r = 0; r < repeat; ++r) {
    Pass o = run_ours(*grid, octile, cells, astar, result);
    Pass c = run_ours(csr, octile, cells, astar, result);
    Pass b = run_boost(boost_graph, octile, cells);
    if (r == 0 || o.seconds < ours.seconds) ours = std::move(o);
    if (r == 0 || c.seconds < ours_csr.seconds) ours_csr = std::move(c);
    if (r == 0 || b.seconds < theirs.seconds) theirs = std::move(b);
  }

  std::size_t disagree = 0, off_reference = 0;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const double a = ours.costs[i], b = theirs.costs[i], ref = cells[i].reference;
    const auto close = [](double x, double y) {
      return x == y || std::abs(x - y) <= 1e-9 * std::max(1.0, std::abs(y));
    };
    const bool same = close(a, b) && close(ours_csr.costs[i], b);
    const bool on_reference = std::isnan(ref) || matches_reference(a, ref);
    if (!same && ++disagree <= 3)
      std::fprintf(stderr, "%s query %zu: polynav %.12g, Boost.Graph %.12g\n",
                   job.map.filename().string().c_str(), i + 1, a, b);
    if (!on_reference && ++off_reference <= 3)
      std::fprintf(stderr, "%s query %zu: cost %.12g, .scen optimum %.12g\n",
                   job.map.filename().string().c_str(), i + 1, a, ref);
  }

  std::string smooth_text = "-", smooth_ms = "-";
  if (smooth) {
    polynav::PlanOptions options;
    options.method = "grid";
    options.smoother = "shortcut";
    polynav::Planner planner(scene, options);
    double sum = 0.0, best = INFINITY;
    std::size_t counted = 0;
    const double t0 = cpu_seconds();
    for (const polynav::Query& q : queries) {
      const polynav::PlanResult r = planner.plan(q.start, q.goal);
      if (!r.found() || !q.reference_length || *q.reference_length <= 0.0) continue;
      const double ratio = r.length / *q.reference_length;
      sum += ratio;
      best = std::min(best, ratio);
      ++counted;
    }
    const double seconds = cpu_seconds() - t0;
    char text[64];
    std::snprintf(text, sizeof text, "%.4f (min %.3f)", counted ? sum / double(counted) : NAN,
                  best);
    smooth_text = text;
    std::snprintf(text, sizeof text, "%.3f", 1e3 * seconds / double(queries.size()));
    smooth_ms = text;
  }

  const double n = double(cells.size());
  std::printf(
      "| %s | %d x %d | %zu | %zu | %.1f | %.1f | %.1f | %.2fx | %.0f | %.0f | %.2f M | %.2f M |"
      " %zu | %zu | %s | %s |\n",
      job.map.filename().string().c_str(), grid->width(), grid->height(), free_cells, cells.size(),
      1e3 * ours.seconds, 1e3 * ours_csr.seconds, 1e3 * theirs.seconds,
      theirs.seconds / ours.seconds, double(ours.expanded) / n, double(theirs.expanded) / n,
      double(ours.expanded) / ours.seconds * 1e-6, double(theirs.expanded) / theirs.seconds * 1e-6,
      disagree, off_reference, smooth_text.c_str(), smooth_ms.c_str());
  std::fflush(stdout);
  results.push_back({job.map.stem().string(), cells.size(), ours.seconds, theirs.seconds,
                     ours.expanded, theirs.expanded});
  return disagree == 0 && off_reference == 0;
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 1;
  bool no_smooth = false;
  std::vector<std::string> paths;
  CLI::App app{
      "Grid A* on MovingAI maps: polynav's A* on the occupancy grid against Boost.Graph "
      "astar_search on the same arcs, costs checked against each other and the .scen optimum."};
  bench_cli::add_value(app, "--repeat", repeat, "R",
                       "Time each contender R times, interleaved, keeping each one's fastest pass");
  app.add_flag("--no-smooth", no_smooth,
               "Skip the smoothing column (the Planner pass re-plans every query)");
  app.add_option("PATH", paths,
                 "A .map file, a directory of them, or a .scen for the .map named just before "
                 "it (default: every map of the reference data's movingai/)");
  if (const auto status = bench_cli::parse(app, argc, argv)) return *status;
  repeat = std::max(1, repeat);
  const bool smooth = !no_smooth;
  std::vector<MapJob> jobs;
  if (std::string missing; !add_map_jobs(paths, jobs, missing)) {
    std::fprintf(stderr, "%s: no such file or directory\n", missing.c_str());
    return 2;
  }
  if (paths.empty()) {
    const fs::path dir = shared_data("movingai");
    if (!fs::is_directory(dir)) {
      std::printf("skipped: no MovingAI data at %s (give maps or directories as arguments)\n",
                  dir.string().c_str());
      return 0;
    }
    for (const fs::path& map : files_in(dir, ".map")) jobs.push_back({map, find_scenario(map)});
  }

  std::printf(
      "# Grid A* on MovingAI maps: polynav against Boost.Graph astar_search (best of %d)\n\n",
      repeat);
  std::printf(
      "| map | grid | free cells | queries | polynav ms | polynav on CSR ms | Boost.Graph ms |"
      " Boost/polynav | expanded/query | Boost expanded/query | expansions/s |"
      " Boost expansions/s | cost != Boost | cost != .scen | shortcut length / optimum, mean |"
      " plan + shortcut ms/query |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|\n");
  bool ok = true;
  std::vector<MapResult> results;
  for (const MapJob& job : jobs) {
    if (job.scen.empty()) {
      std::printf("| %s | (no .scen found) |\n", job.map.filename().string().c_str());
      continue;
    }
    try {
      ok = run_map(job, repeat, smooth, results) && ok;
    } catch (const polynav::InputError& e) {
      std::printf("| %s | (cannot read: %s) |\n", job.map.filename().string().c_str(), e.what());
      ok = false;
    }
  }

  if (!results.empty()) {
    double ours = 0.0, theirs = 0.0, log_ratio = 0.0;
    std::uint64_t expanded = 0;
    for (const MapResult& r : results) {
      ours += r.ours_seconds;
      theirs += r.boost_seconds;
      expanded += r.expanded;
      log_ratio += std::log(r.boost_seconds / r.ours_seconds);
    }
    std::printf(
        "\nall maps: Boost/polynav %.2fx on total time, %.2fx geometric mean over maps; "
        "%.2f M expansions/s\n",
        theirs / ours, std::exp(log_ratio / double(results.size())),
        double(expanded) / ours * 1e-6);
    for (const MapResult& r : results) {
      if (r.name != "brc202d") continue;
      const double ratio = r.boost_seconds / r.ours_seconds;
      const double rate = double(r.expanded) / r.ours_seconds;
      std::printf(
          "targets on brc202d: >= 3x faster than Boost.Graph: %.2fx (%s); "
          ">= 5 M expansions/s: %.2f M (%s)\n",
          ratio, ratio >= 3.0 ? "met" : "NOT met", rate * 1e-6, rate >= 5e6 ? "met" : "NOT met");
    }
  }
  return ok ? 0 : 1;
}
