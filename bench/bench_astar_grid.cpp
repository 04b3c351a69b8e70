// Side-by-side: polynav's A* against Boost.Graph's astar_search on the same 8-connected grid and
// the same seeded queries. Prints time per query, the ratio, and heap allocations per query.
//
//   bench_astar_grid [--size 1024] [--blocked 0.2] [--queries 1000] [--seed 1] [--boost 0|1]
//                    [--repeat 1]
//
// --boost 0 skips Boost.Graph (for profiling polynav alone); --repeat R times every contender R
// times, interleaved, and reports each one's fastest pass (wall and CPU time separately).
//
// The grid: size x size cells, a fraction of them blocked at random, moves to the 8 neighbours
// with costs 1 and sqrt(2), no corner cutting (a diagonal move needs both orthogonal cells free),
// octile-distance heuristic. Queries join random free cells of the same component. Costs of the
// two searches are checked to agree; a mismatch fails the run.

#include <boost/graph/astar_search.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <new>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bench_cli.hpp"
#include "polynav/search/astar.hpp"
#include "polynav/search/components.hpp"
#include "polynav/search/graph.hpp"

// Every allocation in the process goes through here, so a difference of the counter around a
// block of code is the number of heap allocations it made.
namespace {
std::uint64_t allocations = 0;

// Where every operator delete below gives memory back. Not inlined: where GCC sees std::free()
// inlined into code that got the pointer from operator new, it warns (-Wmismatched-new-delete),
// not knowing that operator new here is malloc.
[[gnu::noinline]] void release(void* p) noexcept {
  std::free(p);
}
}  // namespace

void* operator new(std::size_t size) {
  ++allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  ++allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, std::align_val_t alignment) {
  ++allocations;
  const auto a = static_cast<std::size_t>(alignment);
  if (void* p = std::aligned_alloc(a, (size + a - 1) / a * a)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size, std::align_val_t alignment) {
  return operator new(size, alignment);
}
void operator delete(void* p, std::align_val_t) noexcept {
  release(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  release(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  release(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  release(p);
}
void operator delete(void* p) noexcept {
  release(p);
}
void operator delete[](void* p) noexcept {
  release(p);
}
void operator delete(void* p, std::size_t) noexcept {
  release(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  release(p);
}

namespace {

using polynav::search::NodeId;
// Time is measured as CPU time of this thread as well as wall time: the CPU time of a
// single-threaded search does not count the time the scheduler gave to other processes, so it is
// the steadier number on a shared machine.
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}
using Clock = std::chrono::steady_clock;

constexpr double sqrt2 = 1.4142135623730951;

// An implicit 8-connected grid, the way polynav's grid discretisation stores one: a byte per
// cell, neighbours computed from the index. A blocked border one cell wide removes every bounds
// check from the expansion.
class Grid {
 public:
  Grid(int size, double blocked, std::uint64_t seed) : width_(size + 2), free_(cells(size), 0) {
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution block(blocked);
    for (int y = 1; y <= size; ++y) {
      for (int x = 1; x <= size; ++x) free_[index(x, y)] = block(rng) ? 0 : 1;
    }
  }

  std::size_t node_count() const noexcept { return free_.size(); }
  bool is_free(NodeId n) const noexcept { return free_[n] != 0; }
  int x(NodeId n) const noexcept { return static_cast<int>(n % static_cast<NodeId>(width_)); }
  int y(NodeId n) const noexcept { return static_cast<int>(n / static_cast<NodeId>(width_)); }

  template <class F>
  void for_each_neighbour(NodeId n, F&& f) const {
    const auto w = static_cast<NodeId>(width_);
    const std::uint8_t* c = free_.data();
    if (c[n] == 0) return;  // blocked cells (the border among them) have no arcs
    const bool north = c[n + w] != 0, south = c[n - w] != 0;
    const bool east = c[n + 1] != 0, west = c[n - 1] != 0;
    if (north) f(n + w, 1.0);
    if (south) f(n - w, 1.0);
    if (east) f(n + 1, 1.0);
    if (west) f(n - 1, 1.0);
    if (north && east && c[n + w + 1] != 0) f(n + w + 1, sqrt2);
    if (north && west && c[n + w - 1] != 0) f(n + w - 1, sqrt2);
    if (south && east && c[n - w + 1] != 0) f(n - w + 1, sqrt2);
    if (south && west && c[n - w - 1] != 0) f(n - w - 1, sqrt2);
  }

 private:
  static std::size_t cells(int size) {
    return static_cast<std::size_t>(size + 2) * static_cast<std::size_t>(size + 2);
  }
  std::size_t index(int x, int y) const {
    return static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) +
           static_cast<std::size_t>(x);
  }

  int width_;
  std::vector<std::uint8_t> free_;
};

double octile(const Grid& grid, NodeId a, NodeId b) {
  const double dx = std::abs(grid.x(a) - grid.x(b));
  const double dy = std::abs(grid.y(a) - grid.y(b));
  return (sqrt2 - 1.0) * std::min(dx, dy) + std::max(dx, dy);
}

using BoostGraph =
    boost::compressed_sparse_row_graph<boost::directedS, boost::no_property,
                                       boost::property<boost::edge_weight_t, double>>;
using BoostVertex = boost::graph_traits<BoostGraph>::vertex_descriptor;

struct BoostOctile : boost::astar_heuristic<BoostGraph, double> {
  const Grid* grid;
  NodeId goal;
  BoostOctile(const Grid& g, NodeId t) : grid(&g), goal(t) {}
  double operator()(BoostVertex v) const { return octile(*grid, static_cast<NodeId>(v), goal); }
};

// Boost.Graph's documented way to stop astar_search at the goal is to throw from the visitor.
struct GoalReached {};
struct StopAtGoal : boost::default_astar_visitor {
  BoostVertex goal;
  explicit StopAtGoal(BoostVertex t) : goal(t) {}
  void examine_vertex(BoostVertex u, const BoostGraph&) const {
    if (u == goal) throw GoalReached{};
  }
};

struct Query {
  NodeId start;
  NodeId goal;
};

struct Run {
  std::vector<double> costs;
  double seconds = 0.0;  // wall
  double cpu_seconds = 0.0;
  std::uint64_t allocations = 0;
  polynav::search::SearchStats stats;  // summed over the queries
};

template <class Graph>
Run run_polynav(const Graph& graph, const Grid& grid, const std::vector<Query>& queries,
                polynav::search::AStar& astar, polynav::search::SearchResult& result) {
  Run run;
  run.costs.reserve(queries.size());
  const std::uint64_t before = allocations;
  const auto t0 = Clock::now();
  const double c0 = thread_cpu_seconds();
  for (const Query& q : queries) {
    const NodeId goal = q.goal;
    const auto h = [&grid, goal](NodeId n) { return octile(grid, n, goal); };
    astar.search(graph, q.start, std::span<const NodeId>(&goal, 1), h, {}, result);
    run.costs.push_back(result.cost);
    run.stats.expanded += result.stats.expanded;
    run.stats.heap_pushes += result.stats.heap_pushes;
    run.stats.heap_decreases += result.stats.heap_decreases;
    run.stats.heap_pops += result.stats.heap_pops;
  }
  run.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  run.cpu_seconds = thread_cpu_seconds() - c0;
  run.allocations = allocations - before;
  return run;
}

Run run_boost(const BoostGraph& g, const Grid& grid, const std::vector<Query>& queries) {
  Run run;
  run.costs.reserve(queries.size());
  // The property maps are allocated once, outside the timed loop, as a careful user would.
  const std::size_t n = boost::num_vertices(g);
  std::vector<BoostVertex> predecessor(n);
  std::vector<double> distance(n), rank(n);
  std::vector<boost::default_color_type> color(n);
  const std::uint64_t before = allocations;
  const auto t0 = Clock::now();
  const double c0 = thread_cpu_seconds();
  for (const Query& q : queries) {
    try {
      boost::astar_search(g, q.start, BoostOctile(grid, q.goal),
                          boost::predecessor_map(predecessor.data())
                              .distance_map(distance.data())
                              .rank_map(rank.data())
                              .color_map(color.data())
                              .weight_map(boost::get(boost::edge_weight, g))
                              .visitor(StopAtGoal(q.goal)));
    } catch (const GoalReached&) {
    }
    run.costs.push_back(distance[q.goal]);
  }
  run.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  run.cpu_seconds = thread_cpu_seconds() - c0;
  run.allocations = allocations - before;
  return run;
}

bool same_costs(const std::vector<double>& a, const std::vector<double>& b, const char* what) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::abs(a[i] - b[i]) > 1e-9 * std::max(1.0, std::abs(b[i]))) {
      std::printf("MISMATCH (%s) query %zu: %.12g vs Boost %.12g\n", what, i, a[i], b[i]);
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  int size = 1024;
  double blocked = 0.2;
  std::size_t query_count = 1000;
  std::uint64_t seed = 1;
  int with_boost = 1;
  int repeat = 1;
  CLI::App app{
      "polynav's A* against Boost.Graph astar_search on a seeded random 8-connected grid: time "
      "per query, the ratio, heap allocations per query; costs must agree."};
  bench_cli::add_value(app, "--size", size, "N", "Grid side in cells (size x size)");
  bench_cli::add_value(app, "--blocked", blocked, "P", "Fraction of the cells blocked at random");
  bench_cli::add_value(app, "--queries", query_count, "N",
                       "Queries between random free cells of one component");
  bench_cli::add_value(app, "--seed", seed, "S", "Seed of the grid and the queries");
  bench_cli::add_value(app, "--boost", with_boost, "0|1",
                       "1 runs Boost.Graph too, 0 skips it (to profile polynav)");
  bench_cli::add_value(
      app, "--repeat", repeat, "R",
      "Times every contender R times, interleaved, keeping each one's fastest pass");
  if (const auto status = bench_cli::parse(app, argc, argv)) return *status;
  repeat = std::max(1, repeat);

  const Grid grid(size, blocked, seed);
  // The same arcs, in the same order, as compressed sparse rows for both libraries.
  std::vector<polynav::search::Edge> edges;
  for (NodeId n = 0; n < grid.node_count(); ++n) {
    grid.for_each_neighbour(n, [&](NodeId to, double cost) { edges.push_back({n, to, cost}); });
  }
  const polynav::search::CsrGraph csr(grid.node_count(), edges);
  BoostGraph boost_graph;
  if (with_boost) {
    std::vector<std::pair<std::size_t, std::size_t>> boost_edges;
    std::vector<double> boost_weights;
    for (const polynav::search::Edge& e : edges) {
      boost_edges.emplace_back(e.from, e.to);
      boost_weights.push_back(e.cost);
    }
    boost_graph = BoostGraph(boost::edges_are_sorted, boost_edges.begin(), boost_edges.end(),
                             boost_weights.begin(), grid.node_count());
  }
  edges = {};

  // Queries between free cells of the largest component, so every query has a path.
  const polynav::search::ComponentLabels labels(grid);
  std::vector<std::size_t> component_size(labels.component_count(), 0);
  for (NodeId n = 0; n < grid.node_count(); ++n) {
    if (grid.is_free(n)) ++component_size[labels.label(n)];
  }
  const auto largest = static_cast<std::uint32_t>(
      std::max_element(component_size.begin(), component_size.end()) - component_size.begin());
  std::vector<NodeId> cells;
  for (NodeId n = 0; n < grid.node_count(); ++n) {
    if (grid.is_free(n) && labels.label(n) == largest) cells.push_back(n);
  }
  std::mt19937_64 rng(seed + 1);
  std::uniform_int_distribution<std::size_t> pick(0, cells.size() - 1);
  std::vector<Query> queries(query_count);
  for (Query& q : queries) q = Query{cells[pick(rng)], cells[pick(rng)]};

  std::printf("grid %dx%d, %.0f%% blocked, 8-connected without corner cutting, seed %llu\n", size,
              size, 100 * blocked, static_cast<unsigned long long>(seed));
  std::printf("%zu arcs, %zu queries in the largest component (%zu cells)\n", csr.arc_count(),
              queries.size(), cells.size());

  polynav::search::AStar astar;
  polynav::search::SearchResult result;
  // Warm-up: grows the state arrays and the path buffer to their final size.
  const Run warm_up = run_polynav(grid, grid, queries, astar, result);
  // Each contender runs `repeat` times, interleaved; the fastest pass counts (the others were
  // slowed by something else on the machine).
  const auto faster = [](Run a, const Run& b) {
    a.seconds = std::min(a.seconds, b.seconds);
    a.cpu_seconds = std::min(a.cpu_seconds, b.cpu_seconds);
    a.allocations = std::max(a.allocations, b.allocations);
    return a;
  };
  Run ours_grid, ours_csr, theirs;
  for (int r = 0; r < repeat; ++r) {
    const Run g = run_polynav(grid, grid, queries, astar, result);
    const Run c = run_polynav(csr, grid, queries, astar, result);
    const Run b = with_boost ? run_boost(boost_graph, grid, queries) : g;
    ours_grid = r == 0 ? g : faster(ours_grid, g);
    ours_csr = r == 0 ? c : faster(ours_csr, c);
    theirs = r == 0 ? b : faster(theirs, b);
  }

  bool ok = same_costs(ours_csr.costs, ours_grid.costs, "CSR vs implicit grid");
  if (with_boost) ok = ok && same_costs(ours_grid.costs, theirs.costs, "implicit grid vs Boost");

  const double n = static_cast<double>(queries.size());
  std::printf("\n%-32s %10s %10s %10s %10s %13s\n", "search", "wall ms/q", "vs Boost", "CPU ms/q",
              "vs Boost", "allocs/query");
  const auto row = [&](const char* name, const Run& r) {
    std::printf("%-32s %10.3f %9.2fx %10.3f %9.2fx %13.3f\n", name, 1e3 * r.seconds / n,
                theirs.seconds / r.seconds, 1e3 * r.cpu_seconds / n,
                theirs.cpu_seconds / r.cpu_seconds, static_cast<double>(r.allocations) / n);
  };
  row("polynav A*, implicit grid", ours_grid);
  row("polynav A*, CsrGraph", ours_csr);
  if (with_boost) row("Boost.Graph astar_search, CSR", theirs);
  std::printf("\nper query (polynav): %.0f expanded, %.0f heap pushes, %.0f decreases, %.0f pops\n",
              static_cast<double>(ours_grid.stats.expanded) / n,
              static_cast<double>(ours_grid.stats.heap_pushes) / n,
              static_cast<double>(ours_grid.stats.heap_decreases) / n,
              static_cast<double>(ours_grid.stats.heap_pops) / n);
  std::printf("allocations during the warm-up pass (polynav, all queries): %llu\n",
              static_cast<unsigned long long>(warm_up.allocations));
  std::printf("costs agree: %s\n", ok ? "yes" : "NO");
  return ok ? 0 : 1;
}
