// The navigation mesh and the funnel, per node placement (centres, portals, vertices,
// portals+centres).
//
//   bench_navmesh [--sections quality,build,speed,funnel] [--data DIR] [--passes N]
//                 [--sizes 140,198,280,396,560] [--queries N] [--placements LIST]
//                 [--landmarks K] [--peers 0|1] [--real-maps 0|1]
//
// --placements: navmesh.nodes values to run (default all four); --landmarks: navmesh.landmarks
// for the speed section (default the registry's); --peers 0 skips the grid and Boost.Graph;
// --real-maps 0 skips den520d and random512-10-0.
//
// Sections (Markdown tables on stdout):
// quality  Path length per placement: mean and max ratio of the raw and the funnelled length to
//          the exact Euclidean optimum (the visibility graph; for arena.mesh also the Euclidean
//          column of arena-euclidean.scen, checked against it), with the mean query and funnel
//          times. Scenes: every bundled .yaml scene (its own queries and 200 random pairs of free
//          points in one component), arena.mesh and arena-merged.mesh with arena-euclidean.scen,
//          walls-v3.mesh (random pairs), the bundled MovingAI maps with their scenarios (at most
//          200 queries each, evenly sampled). Scenes with weighted regions have no exact optimum
//          here: their rows give cost ratios to the cheapest path any placement or the
//          visibility graph found for the query.
// build    Mesh build time against scene size (boundary edges) over MovingAI maps as polygons,
//          with the growth exponent (least-squares slope of log time against log edges).
// speed    Query times against polygon count: random-cell maps (a tenth of the cells blocked at
//          random, the density of MovingAI's random512-10-0), n x n cells for each of --sizes
//          (280 gives about 10,000 polygons), then den520d and random512-10-0 from the reference
//          data with their scenarios when present. Per map and placement: polygons, nodes, arcs;
//          median and p95 of the query (find_path: attach, A*, raw path, corridor) and of query
//          plus funnel; the Planner's whole plan() with funnel smoothing (the funnel's exact
//          checks and the final validation included); nodes expanded per query. Peers in the
//          same run: the occupancy grid's find_path on the same map and points, and Boost.Graph
//          astar_search against polynav's A* from node to node on the navigation mesh's own
//          graph (the nodes nearest the query's ends, the mesh's heuristic for both).
// funnel   The funnel alone on corridors of the ~10,000-polygon map cut to 20 portals.
//
// Times are CPU time of the benchmark's one thread (CLOCK_THREAD_CPUTIME_ID), so that time spent
// descheduled on a shared machine does not count; caches shared with other work still do. The
// speed section runs every query --passes times (default 3) and reports the medians of the
// fastest pass, the nearest to an idle machine's; compare numbers from one run.

#include <boost/graph/astar_search.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench_cli.hpp"
#include "polynav/discretise/grid/occupancy_grid.hpp"
#include "polynav/discretise/navmesh/navmesh.hpp"
#include "polynav/discretise/query.hpp"
#include "polynav/discretise/visibility_graph/visibility_graph.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/smooth/funnel.hpp"
#include "polynav/space/free_space.hpp"
#include "support/data.hpp"

namespace {

namespace fs = std::filesystem;
using namespace polynav;
using search::NodeId;
using namespace test_support;

// CPU time of this thread: time the thread spends descheduled on a busy machine does not count.
struct Clock {
  using time_point = double;
  static double now() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return 1e6 * double(ts.tv_sec) + 1e-3 * double(ts.tv_nsec);
  }
};

double us_since(double t0) {
  return Clock::now() - t0;
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

double largest(const std::vector<double>& v) {
  return v.empty() ? std::nan("") : *std::max_element(v.begin(), v.end());
}

std::vector<NavMeshNodes> placements = {NavMeshNodes::centres, NavMeshNodes::portals,
                                        NavMeshNodes::vertices, NavMeshNodes::portals_and_centres};
std::string landmarks;  // navmesh.landmarks for the speed section; empty: the default
bool peers = true;      // the speed section's grid and Boost.Graph peers
bool real_maps = true;  // the speed section's den520d and random512-10-0

std::string name_of(NavMeshNodes n) {
  return std::string(navmesh_nodes_name(n));
}

// Up to `count` random pairs of free points in one component of free space.
std::vector<Query> random_pairs(const FreeSpace& space, std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  const Box box = space.box();
  std::uniform_real_distribution<double> ux(box.min.x, box.max.x), uy(box.min.y, box.max.y);
  const auto free_point = [&] {
    for (int tries = 0; tries < 100000; ++tries) {
      const Point p{ux(rng), uy(rng)};
      if (space.is_free(p)) return p;
    }
    return Point{std::nan(""), 0};
  };
  std::vector<Query> out;
  for (std::size_t tries = 0; out.size() < count && tries < 20 * count; ++tries) {
    const Point a = free_point(), b = free_point();
    if (std::isnan(a.x) || std::isnan(b.x)) break;
    if (space.component(a) != space.component(b)) continue;
    Query q;
    q.start = a;
    q.goal = b;
    out.push_back(q);
  }
  return out;
}

std::vector<Query> sample(std::vector<Query> q, std::size_t most) {
  if (q.size() <= most) return q;
  std::vector<Query> out;
  for (std::size_t i = 0; i < q.size() && out.size() < most; i += q.size() / most)
    out.push_back(q[i]);
  return out;
}

// --- quality ---------------------------------------------------------------------------------

struct Case {
  std::string name;
  fs::path scene;
  fs::path scenario;  // empty: the scene's own queries and random pairs
};

struct Tally {
  std::vector<double> raw, pulled, query_us, funnel_us;
};

void print_row(const std::string& scene, const std::string& placement, std::size_t polygons,
               const Tally& t) {
  std::printf("| %s | %s | %zu | %zu | %.4f | %.4f | %.4f | %.4f | %.1f | %.2f |\n", scene.c_str(),
              placement.c_str(), t.raw.size(), polygons, mean(t.raw), largest(t.raw),
              mean(t.pulled), largest(t.pulled), mean(t.query_us), mean(t.funnel_us));
}

void quality(const fs::path& data) {
  std::vector<Case> cases;
  for (const auto& e : fs::directory_iterator(data))
    if (e.path().extension() == ".yaml") cases.push_back({e.path().filename(), e.path(), {}});
  std::sort(cases.begin(), cases.end(),
            [](const Case& a, const Case& b) { return a.name < b.name; });
  cases.push_back(
      {"arena.mesh", data / "mesh" / "arena.mesh", data / "mesh" / "arena-euclidean.scen"});
  cases.push_back({"arena-merged.mesh", data / "mesh" / "arena-merged.mesh",
                   data / "mesh" / "arena-euclidean.scen"});
  cases.push_back({"walls-v3.mesh", data / "mesh" / "walls-v3.mesh", {}});
  for (const char* m : {"arena.map", "den312d.map", "maze-100-1.map"})
    cases.push_back({m, data / "movingai" / m, data / "movingai" / (std::string(m) + ".scen")});

  std::printf("## Path length per node placement\n\n");
  std::printf(
      "Ratio to the exact Euclidean optimum (unweighted scenes) or, marked (cost), cost ratio to "
      "the cheapest path found for the query (weighted scenes).\n\n");
  std::printf(
      "| scene | placement | queries | polygons | raw mean | raw max | funnel mean | funnel max "
      "| query us | funnel us |\n|---|---|---|---|---|---|---|---|---|---|\n");
  std::map<NavMeshNodes, Tally> all, all_weighted;
  for (const Case& c : cases) {
    const Scene scene = load_scene(c.scene);
    const FreeSpace space(scene);
    const bool weighted = !space.regions().empty();
    std::vector<Query> queries;
    if (c.scenario.empty()) {
      queries = scene.queries;
      const std::vector<Query> more = random_pairs(space, 200, 5);
      queries.insert(queries.end(), more.begin(), more.end());
    } else {
      queries = sample(load_scenario(c.scenario, scene), 200);
    }
    const VisibilityGraph graph(space);
    // Reference per query: the visibility graph's length (unweighted); for weighted scenes the
    // cheapest cost found (filled below).
    std::vector<double> reference(queries.size(), std::nan(""));
    std::vector<char> usable(queries.size(), 0);
    for (std::size_t i = 0; i < queries.size(); ++i) {
      const Query& q = queries[i];
      if (!space.is_free(q.start) || !space.is_free(q.goal)) continue;
      const RawPath best = find_path(graph, q.start, q.goal);
      if (best.status != search::SearchStatus::found) continue;
      reference[i] = weighted ? space.path_cost(best.points) : polyline_length(best.points);
      // A Euclidean scenario's column must agree with the visibility graph (MovingAI's columns
      // are grid lengths).
      if (!weighted && c.scenario.filename().string().find("euclidean") != std::string::npos &&
          q.reference_length && *q.reference_length > 0 &&
          std::abs(*q.reference_length - reference[i]) > 1e-6 * reference[i])
        std::fprintf(stderr, "%s: query %zu: visibility graph %.9g, scenario %.9g\n",
                     c.name.c_str(), i, reference[i], *q.reference_length);
      usable[i] = reference[i] > 0;
    }
    struct Measured {
      std::vector<double> raw, pulled, query_us, funnel_us;
      std::size_t polygons = 0;
    };
    std::map<NavMeshNodes, Measured> measured;
    for (const NavMeshNodes nodes : placements) {
      NavMeshOptions options;
      options.nodes = nodes;
      const NavMesh mesh(space, options);
      QueryWorkspace ws;
      Measured& m = measured[nodes];
      m.polygons = mesh.polygon_count();
      m.raw.assign(queries.size(), std::nan(""));
      m.pulled = m.raw;
      std::vector<Point> pulled;
      std::vector<Segment> scratch;
      for (std::size_t i = 0; i < queries.size(); ++i) {
        if (!usable[i]) continue;
        const Query& q = queries[i];
        const auto t0 = Clock::now();
        const RawPath raw = find_path(mesh, q.start, q.goal, {}, ws);
        const double tq = us_since(t0);
        if (raw.status != search::SearchStatus::found || !raw.has_corridor) {
          std::fprintf(stderr, "%s, %s: query %zu: %s\n", c.name.c_str(), name_of(nodes).c_str(), i,
                       raw.has_corridor ? raw.message.c_str() : "no corridor");
          continue;
        }
        const auto t1 = Clock::now();
        if (weighted) {
          pulled = funnel_smooth(space, raw.corridor, raw.points);
        } else {
          funnel(q.start, q.goal, raw.corridor, pulled, scratch);
        }
        const double tf = us_since(t1);
        m.query_us.push_back(tq);
        m.funnel_us.push_back(tf);
        m.raw[i] = weighted ? space.path_cost(raw.points) : polyline_length(raw.points);
        m.pulled[i] = weighted ? space.path_cost(pulled) : polyline_length(pulled);
        if (weighted) reference[i] = std::min(reference[i], m.pulled[i]);
      }
    }
    for (const NavMeshNodes nodes : placements) {
      const Measured& m = measured[nodes];
      Tally t;
      t.query_us = m.query_us;
      t.funnel_us = m.funnel_us;
      for (std::size_t i = 0; i < queries.size(); ++i) {
        if (!usable[i] || std::isnan(m.raw[i])) continue;
        t.raw.push_back(m.raw[i] / reference[i]);
        t.pulled.push_back(m.pulled[i] / reference[i]);
      }
      print_row(c.name + (weighted ? " (cost)" : ""), name_of(nodes), m.polygons, t);
      Tally& total = weighted ? all_weighted[nodes] : all[nodes];
      for (auto [from, to] :
           {std::pair{&t.raw, &total.raw}, std::pair{&t.pulled, &total.pulled},
            std::pair{&t.query_us, &total.query_us}, std::pair{&t.funnel_us, &total.funnel_us}})
        to->insert(to->end(), from->begin(), from->end());
    }
  }
  std::printf("\nAll queries pooled:\n\n");
  std::printf(
      "| scenes | placement | queries | raw mean | raw max | funnel mean | funnel max | query us "
      "| funnel us |\n|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& [label, tallies] :
       {std::pair{"unweighted (length)", &all}, std::pair{"weighted (cost)", &all_weighted}}) {
    for (const NavMeshNodes nodes : placements) {
      const Tally& t = (*tallies)[nodes];
      std::printf("| %s | %s | %zu | %.4f | %.4f | %.4f | %.4f | %.1f | %.2f |\n", label,
                  name_of(nodes).c_str(), t.raw.size(), mean(t.raw), largest(t.raw), mean(t.pulled),
                  largest(t.pulled), mean(t.query_us), mean(t.funnel_us));
    }
  }
  std::printf("\n");
}

// --- build -----------------------------------------------------------------------------------

void build_growth(const std::vector<fs::path>& maps) {
  std::printf("## Build time against scene size\n\n");
  std::printf(
      "| map | boundary edges | triangles | polygons | portals | triangulate ms | landmarks ms "
      "| mesh build ms |\n|---|---|---|---|---|---|---|---|\n");
  std::vector<double> xs, ys;
  for (const fs::path& m : maps) {
    if (!fs::exists(m)) continue;
    const Scene scene = load_scene(m);
    const FreeSpace space(scene);
    double best = 1e300, tri = 0, marks = 0;
    NavMeshStats stats;
    for (int r = 0; r < 3; ++r) {
      const NavMesh mesh(space);
      if (mesh.stats().build_ms < best) {
        best = mesh.stats().build_ms;
        tri = mesh.stats().triangulate_ms;
        marks = mesh.stats().landmarks_ms;
        stats = mesh.stats();
      }
    }
    std::printf("| %s | %zu | %zu | %zu | %zu | %.1f | %.1f | %.1f |\n", m.filename().c_str(),
                space.edge_count(), stats.triangles, stats.polygons, stats.portals, tri, marks,
                best);
    xs.push_back(std::log(double(space.edge_count())));
    ys.push_back(std::log(best));
  }
  if (xs.size() >= 2) {
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) mx += xs[i], my += ys[i];
    mx /= double(xs.size()), my /= double(ys.size());
    double sxy = 0, sxx = 0;
    for (std::size_t i = 0; i < xs.size(); ++i)
      sxy += (xs[i] - mx) * (ys[i] - my), sxx += (xs[i] - mx) * (xs[i] - mx);
    std::printf("\nGrowth exponent (mesh build time ~ edges^k): k = %.2f\n\n", sxy / sxx);
  }
}

// --- speed -----------------------------------------------------------------------------------

// An n x n MovingAI map with about a tenth of its cells blocked, written to a temporary file.
fs::path random_map(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::bernoulli_distribution blocked(0.1);
  const fs::path path = fs::temp_directory_path() / ("polynav-bench-random" + std::to_string(n) +
                                                     "-" + std::to_string(seed) + ".map");
  std::ofstream out(path);
  out << "type octile\nheight " << n << "\nwidth " << n << "\nmap\n";
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) out << (blocked(rng) ? '@' : '.');
    out << '\n';
  }
  return path;
}

using BoostGraph =
    boost::compressed_sparse_row_graph<boost::directedS, boost::no_property,
                                       boost::property<boost::edge_weight_t, double>>;
using BoostVertex = boost::graph_traits<BoostGraph>::vertex_descriptor;

template <class H>
struct BoostHeuristic : boost::astar_heuristic<BoostGraph, double> {
  const H* h;
  explicit BoostHeuristic(const H& f) : h(&f) {}
  double operator()(BoostVertex v) const { return (*h)(NodeId(v)); }
};

struct GoalReached {};
struct StopAtGoal : boost::default_astar_visitor {
  BoostVertex goal;
  explicit StopAtGoal(BoostVertex t) : goal(t) {}
  void examine_vertex(BoostVertex u, const BoostGraph&) const {
    if (u == goal) throw GoalReached{};
  }
};

// The node a point attaches to most cheaply.
NodeId nearest_node(const NavMesh& mesh, Point p, AttachDirection direction) {
  std::vector<Attachment> arcs;
  mesh.attach(p, direction, arcs);
  NodeId best = search::no_node;
  double cost = std::numeric_limits<double>::infinity();
  for (const Attachment& a : arcs)
    if (a.cost < cost) cost = a.cost, best = a.node;
  return best;
}

// Times of one quantity, pass by pass: on a shared machine the fastest pass's median is the
// nearest to an idle machine's.
struct Passes {
  std::vector<std::vector<double>> times;
  explicit Passes(int passes) : times(std::size_t(passes)) {}
  void add(int pass, double t) { times[std::size_t(pass)].push_back(t); }
  // The pass with the smallest median.
  std::size_t best() const {
    std::size_t b = 0;
    for (std::size_t p = 1; p < times.size(); ++p)
      if (quantile(times[p], 0.5) < quantile(times[b], 0.5)) b = p;
    return b;
  }
  double median(std::size_t pass) const { return quantile(times[pass], 0.5); }
  double p95(std::size_t pass) const { return quantile(times[pass], 0.95); }
};

struct SpeedRow {
  std::string label;
  std::size_t polygons = 0, nodes = 0, arcs = 0;
  Passes query, total, plan;
  std::vector<double> expanded, generated;
  explicit SpeedRow(int passes) : query(passes), total(passes), plan(passes) {}
};

// Query and query + funnel from the pass fastest at query + funnel; plan() from its own fastest.
void print_speed(const SpeedRow& r) {
  const std::size_t b = r.total.best(), c = r.plan.best();
  std::printf("| %s | %zu | %zu | %zu | %.1f / %.1f | %.1f / %.1f | %.1f | %.0f | %.0f |\n",
              r.label.c_str(), r.polygons, r.nodes, r.arcs, r.query.median(b), r.query.p95(b),
              r.total.median(b), r.total.p95(b), r.plan.median(c), mean(r.expanded),
              mean(r.generated));
}

struct SpeedResult {
  std::string map;
  std::size_t polygons = 0;
  double median = 0;  // query + funnel, per placement below
  std::map<NavMeshNodes, double> total_median;
};

SpeedResult speed_on(const std::string& name, const fs::path& map, std::vector<Query> queries,
                     int passes, std::vector<double>* per20) {
  const Scene scene = load_scene(map);
  const auto space = std::make_shared<const FreeSpace>(scene);
  if (queries.empty()) queries = random_pairs(*space, 1000, 3);
  std::vector<Query> usable;
  for (const Query& q : queries)
    if (space->is_free(q.start) && space->is_free(q.goal) &&
        space->component(q.start) == space->component(q.goal))
      usable.push_back(q);
  queries = usable;
  std::printf("### %s: %zu queries, medians of the fastest of %d passes\n\n", name.c_str(),
              queries.size(), passes);
  std::printf(
      "| placement | polygons | nodes | arcs | query median / p95 us | query + funnel median / "
      "p95 us | Planner::plan median us | expanded / query | arcs scanned / query "
      "|\n|---|---|---|---|---|---|---|---|---|\n");
  SpeedResult result;
  result.map = name;
  std::vector<std::string> boost_rows;
  for (const NavMeshNodes nodes : placements) {
    PlanOptions plan_options;
    plan_options.method = "navmesh";
    plan_options.smoother = "funnel";
    plan_options.settings.set("navmesh.nodes", name_of(nodes));
    // The graph's query is what this section times (navmesh.search=auto may choose Polyanya on
    // a small map, which has no graph to search).
    plan_options.settings.set("navmesh.search", std::string("graph"));
    if (!landmarks.empty()) plan_options.settings.set("navmesh.landmarks", landmarks);
    const Planner planner(space, plan_options);
    const auto& mesh = dynamic_cast<const NavMesh&>(planner.discretisation());
    SpeedRow row(passes);
    row.label = name_of(nodes);
    row.polygons = mesh.polygon_count();
    row.nodes = mesh.node_count();
    for (NodeId n = 0; n < mesh.node_count(); ++n)
      mesh.for_each_neighbour(n, [&](NodeId, double) { ++row.arcs; });
    QueryWorkspace ws;
    ws.astar.reserve(mesh.node_count() + 2);
    std::vector<Point> out;
    std::vector<Segment> scratch;
    for (int pass = 0; pass < passes; ++pass) {
      for (const Query& q : queries) {
        const auto t0 = Clock::now();
        const RawPath raw = find_path(mesh, q.start, q.goal, {}, ws);
        const double tq = us_since(t0);
        if (raw.status != search::SearchStatus::found) {
          std::fprintf(stderr, "%s %s: %s\n", name.c_str(), row.label.c_str(), raw.message.c_str());
          continue;
        }
        const auto t1 = Clock::now();
        funnel(q.start, q.goal, raw.corridor, out, scratch);
        const double tf = us_since(t1);
        row.query.add(pass, tq);
        row.total.add(pass, tq + tf);
        if (pass == 0) {
          row.expanded.push_back(double(raw.stats.expanded));
          row.generated.push_back(double(raw.stats.generated));
        }
        const auto t2 = Clock::now();
        const PlanResult planned = planner.plan(q.start, q.goal);
        row.plan.add(pass, us_since(t2));
        if (!planned.found())
          std::fprintf(stderr, "%s: plan: %s\n", name.c_str(), planned.message.c_str());
        if (per20 && pass == 0 && nodes == NavMeshNodes::portals && raw.corridor.size() > 20) {
          // The funnel alone on the first 20 portals, ending at the midpoint of the 21st.
          const std::span<const Segment> first(raw.corridor.data(), 20);
          const Point end = 0.5 * (raw.corridor[20].a + raw.corridor[20].b);
          const int repeat = 2000;
          const auto t3 = Clock::now();
          for (int r = 0; r < repeat; ++r) funnel(q.start, end, first, out, scratch);
          per20->push_back(us_since(t3) / repeat);
        }
      }
    }
    print_speed(row);
    result.polygons = row.polygons;
    result.total_median[nodes] = row.total.median(row.total.best());

    if (!peers) continue;
    // Boost.Graph against polynav's A*, node to node on this graph, the same heuristic.
    std::vector<std::pair<std::size_t, std::size_t>> arcs;
    std::vector<double> weights;
    for (NodeId n = 0; n < mesh.node_count(); ++n)
      mesh.for_each_neighbour(n, [&](NodeId m, double c) {
        arcs.push_back({n, m});
        weights.push_back(c);
      });
    const BoostGraph g(boost::edges_are_sorted, arcs.begin(), arcs.end(), weights.begin(),
                       mesh.node_count());
    std::vector<BoostVertex> predecessor(mesh.node_count());
    std::vector<double> dist(mesh.node_count()), rank(mesh.node_count());
    std::vector<boost::default_color_type> color(mesh.node_count());
    Passes ours(passes), theirs(passes);
    std::size_t mismatches = 0, searched = 0;
    search::SearchResult sr;
    for (int pass = 0; pass < passes; ++pass) {
      for (const Query& q : queries) {
        const NodeId s = nearest_node(mesh, q.start, AttachDirection::from_point);
        const NodeId t = nearest_node(mesh, q.goal, AttachDirection::to_point);
        if (s == search::no_node || t == search::no_node || s == t) continue;
        searched += pass == 0;
        const Attachment at_goal{t, 0.0};
        const auto h = mesh.heuristic(std::span(&at_goal, 1), mesh.node_position(t));
        const auto t0 = Clock::now();
        ws.astar.search(mesh, s, std::span(&t, 1), h, search::SearchOptions{}, sr);
        ours.add(pass, us_since(t0));
        const auto t1 = Clock::now();
        try {
          boost::astar_search(g, s, BoostHeuristic(h),
                              boost::predecessor_map(predecessor.data())
                                  .distance_map(dist.data())
                                  .rank_map(rank.data())
                                  .color_map(color.data())
                                  .weight_map(boost::get(boost::edge_weight, g))
                                  .visitor(StopAtGoal(t)));
        } catch (const GoalReached&) {
        }
        theirs.add(pass, us_since(t1));
        if (std::abs(dist[t] - sr.cost) > 1e-9 * std::max(1.0, sr.cost)) ++mismatches;
      }
    }
    const double a = ours.median(ours.best()), b = theirs.median(theirs.best());
    std::ostringstream line;
    line.precision(3);
    line << "| " << row.label << " | " << searched << " | " << a << " | " << b << " | " << b / a
         << " | " << mismatches << " |";
    boost_rows.push_back(line.str());
  }

  // The grid on the same map and points.
  if (peers) {
    GridOptions options;
    const OccupancyGrid grid(*space, options);
    QueryWorkspace ws;
    ws.astar.reserve(grid.node_count() + 2);
    Passes times(passes);
    std::vector<double> expanded;
    for (int pass = 0; pass < passes; ++pass) {
      for (const Query& q : queries) {
        const auto t0 = Clock::now();
        const RawPath raw = find_path(grid, q.start, q.goal, {}, ws);
        times.add(pass, us_since(t0));
        if (pass == 0) expanded.push_back(double(raw.stats.expanded));
      }
    }
    const std::size_t b = times.best();
    std::printf("| grid (peer) | | %zu | | %.1f / %.1f | | | %.0f | |\n", grid.node_count(),
                times.median(b), times.p95(b), mean(expanded));
  }
  std::printf(
      "\nA* node to node on the same graph (the nodes nearest the query's ends), median us:\n\n"
      "| placement | queries | polynav | Boost.Graph | Boost / polynav | cost mismatches "
      "|\n|---|---|---|---|---|---|\n");
  for (const std::string& line : boost_rows) std::printf("%s\n", line.c_str());
  if (!peers) std::printf("(not run: --peers 0)\n");
  std::printf("\n");
  return result;
}

void speed(const std::vector<int>& sizes, int passes, std::size_t queries, const fs::path& shared,
           std::vector<double>& per20) {
  std::printf("## Query speed against polygon count\n\n");
  std::vector<SpeedResult> results;
  for (const int n : sizes) {
    const fs::path map = random_map(n, 1);
    const Scene scene = load_scene(map);
    const FreeSpace space(scene);
    results.push_back(speed_on("random " + std::to_string(n) + " x " + std::to_string(n), map,
                               random_pairs(space, queries, 3), passes,
                               n == 280 ? &per20 : nullptr));
    fs::remove(map);
  }
  for (const char* m : {"den520d.map", "random512-10-0.map"}) {
    const fs::path map = shared / m;
    if (!real_maps || !fs::exists(map)) continue;
    const Scene scene = load_scene(map);
    results.push_back(speed_on(
        m, map, sample(load_scenario(fs::path(map) += ".scen", scene), queries), passes, nullptr));
  }
  std::printf("Query + funnel median (us) against polygons:\n\n| map | polygons |");
  for (const NavMeshNodes nodes : placements) std::printf(" %s |", name_of(nodes).c_str());
  std::printf("\n|---|---|");
  for (std::size_t i = 0; i < placements.size(); ++i) std::printf("---|");
  std::printf("\n");
  for (const SpeedResult& r : results) {
    std::printf("| %s | %zu |", r.map.c_str(), r.polygons);
    for (const NavMeshNodes nodes : placements) std::printf(" %.1f |", r.total_median.at(nodes));
    std::printf("\n");
  }
  // Growth over the random maps: least-squares slope of log time against log polygons.
  std::printf("| growth exponent (random maps) | |");
  for (const NavMeshNodes nodes : placements) {
    std::vector<double> xs, ys;
    for (std::size_t i = 0; i < sizes.size() && i < results.size(); ++i) {
      xs.push_back(std::log(double(results[i].polygons)));
      ys.push_back(std::log(results[i].total_median.at(nodes)));
    }
    double mx = 0, my = 0, sxy = 0, sxx = 0;
    for (std::size_t i = 0; i < xs.size(); ++i)
      mx += xs[i] / double(xs.size()), my += ys[i] / double(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i)
      sxy += (xs[i] - mx) * (ys[i] - my), sxx += (xs[i] - mx) * (xs[i] - mx);
    std::printf(" %.2f |", xs.size() >= 2 ? sxy / sxx : std::nan(""));
  }
  std::printf("\n\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::string data_dir = bundled_scenes().string();
  const fs::path shared = shared_data("movingai");
  int passes = 3;
  std::size_t queries = 1000;
  std::vector<int> sizes = {140, 198, 280, 396, 560};
  std::string sections = "quality,build,speed,funnel";
  std::vector<std::string> placement_names;
  int with_peers = 1, with_real_maps = 1;
  CLI::App app{"The navigation mesh and the funnel, per node placement (navmesh.nodes)."};
  bench_cli::add_value(app, "--sections", sections, "LIST",
                       "The sections to run: quality, build, speed, funnel");
  bench_cli::add_value(app, "--data", data_dir, "DIR",
                       "Scenes for the quality and build sections (movingai/, mesh/, *.yaml)");
  bench_cli::add_value(app, "--passes", passes, "N",
                       "Timed passes over the queries in the speed section");
  bench_cli::add_list(app, "--sizes", sizes,
                      "Random-cell maps of n x n cells for the speed section, one per n")
      ->type_name("N,N,...");
  bench_cli::add_value(app, "--queries", queries, "N",
                       "Random queries per map in the speed section");
  bench_cli::add_list(app, "--placements", placement_names,
                      "navmesh.nodes values to run: vertices, centres, portals, portals+centres "
                      "(default all four)")
      ->type_name("LIST");
  app.add_option("--landmarks", landmarks,
                 "navmesh.landmarks for the speed section (default the registry's)")
      ->type_name("K");
  bench_cli::add_value(app, "--peers", with_peers, "0|1",
                       "0 skips the speed section's grid and Boost.Graph peers");
  bench_cli::add_value(app, "--real-maps", with_real_maps, "0|1",
                       "0 skips den520d and random512-10-0 in the speed section");
  if (const auto status = bench_cli::parse(app, argc, argv)) return *status;
  const fs::path data = data_dir;
  peers = with_peers != 0;
  real_maps = with_real_maps != 0;
  if (!placement_names.empty()) {
    placements.clear();
    try {
      for (const std::string& name : placement_names)
        placements.push_back(parse_navmesh_nodes(name));
    } catch (const InputError& e) {
      std::fprintf(stderr, "--placements: %s\n", e.what());
      return 2;
    }
  }
  const auto wanted = [&](const char* s) { return sections.find(s) != std::string::npos; };
  if (wanted("quality")) quality(data);
  if (wanted("build"))
    build_growth({data / "movingai" / "arena.map", data / "movingai" / "den312d.map",
                  data / "movingai" / "maze-100-1.map", shared / "den520d.map",
                  shared / "brc202d.map", shared / "32room_000.map", shared / "Brushfire.map",
                  shared / "random512-10-0.map"});
  std::vector<double> per20;
  if (wanted("speed")) speed(sizes, passes, queries, shared, per20);
  if (wanted("funnel") && !per20.empty())
    std::printf(
        "Funnel on a 20-portal corridor (%zu corridors of random 280 x 280, 2,000 calls each): "
        "median %.3f us, p95 %.3f us\n\n",
        per20.size(), quantile(per20, 0.5), quantile(per20, 0.95));
  return 0;
}
