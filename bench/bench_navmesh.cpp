// The navigation mesh and the funnel: which node placement gives shorter paths, how the mesh
// build grows with scene size, and query and funnel times on a mesh of about 10,000 polygons.
//
//   bench_navmesh [--data DIR] [--big MAP] [--passes N]
//
// Tables (Markdown):
// 1. Path quality per node placement: mean and max ratio of the raw and the funnelled length to
//    the exact Euclidean optimum (the visibility graph), over the bundled unweighted scenes'
//    queries, the arena mesh with arena-euclidean.scen and the bundled MovingAI maps.
// 2. Build time against scene size (boundary edges) over MovingAI maps turned into polygons,
//    with the growth exponent (least-squares slope of log time against log edges).
// 3. Query (attach, A*, raw path, corridor) and funnel times, median and p95, on the large map
//    (default den520d from ../shared/data/movingai, else brc202d), with both placements; and the
//    funnel alone on corridors cut to 20 portals.
// Times are wall-clock on one thread; CPU contention on a shared machine inflates them.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "polynav/discretise/navmesh/navmesh.hpp"
#include "polynav/discretise/visibility_graph/visibility_graph.hpp"
#include "polynav/plan/query.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/smooth/funnel.hpp"
#include "polynav/space/free_space.hpp"

namespace {

namespace fs = std::filesystem;
using namespace polynav;
using Clock = std::chrono::steady_clock;

double us_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, std::size_t(q * double(v.size())))];
}

struct Case {
  std::string name;
  fs::path scene;
  fs::path scenario;  // empty: the scene's own queries
};

std::vector<Query> queries_of(const Case& c, const Scene& scene, std::size_t most) {
  std::vector<Query> q = c.scenario.empty() ? scene.queries : load_scenario(c.scenario, scene);
  if (q.size() > most) {
    std::vector<Query> sample;
    for (std::size_t i = 0; i < q.size(); i += q.size() / most) sample.push_back(q[i]);
    q = sample;
  }
  return q;
}

const char* name_of(NavMeshNodes n) {
  return n == NavMeshNodes::centres ? "centres" : "portals";
}

void quality(const fs::path& data) {
  std::vector<Case> cases;
  for (const char* s : {"warehouse.yaml", "maze.yaml", "forest.yaml", "island.yaml", "office.yaml"})
    cases.push_back({s, data / s, {}});
  cases.push_back(
      {"arena.mesh", data / "mesh" / "arena.mesh", data / "mesh" / "arena-euclidean.scen"});
  for (const char* m : {"arena.map", "den312d.map", "maze-100-1.map"})
    cases.push_back({m, data / "movingai" / m, data / "movingai" / (std::string(m) + ".scen")});
  std::printf("## Path length per node placement (ratio to the exact optimum)\n\n");
  std::printf(
      "| scene | queries | nodes | polygons | raw mean | raw max | funnel mean | funnel "
      "max |\n|---|---|---|---|---|---|---|---|\n");
  double sum[2][2] = {}, count = 0;
  for (const Case& c : cases) {
    const Scene scene = load_scene(c.scene);
    const FreeSpace space(scene);
    if (!space.regions().empty()) continue;
    const std::vector<Query> queries = queries_of(c, scene, 200);
    const VisibilityGraph graph(space);
    for (const NavMeshNodes nodes : {NavMeshNodes::centres, NavMeshNodes::portals}) {
      NavMeshOptions options;
      options.nodes = nodes;
      const NavMesh mesh(space, options);
      QueryWorkspace ws;
      double raw_sum = 0, raw_max = 0, pulled_sum = 0, pulled_max = 0;
      int n = 0;
      for (const Query& q : queries) {
        if (!space.is_free(q.start) || !space.is_free(q.goal)) continue;
        const RawPath best = find_path(graph, q.start, q.goal);
        const RawPath raw = find_path(mesh, q.start, q.goal, {}, ws);
        if (best.status != search::SearchStatus::found || raw.status != search::SearchStatus::found)
          continue;
        const double opt = polyline_length(best.points);
        if (opt <= 0) continue;
        const double r = polyline_length(raw.points) / opt;
        const double f = polyline_length(funnel(q.start, q.goal, raw.corridor)) / opt;
        raw_sum += r, pulled_sum += f, ++n;
        raw_max = std::max(raw_max, r), pulled_max = std::max(pulled_max, f);
      }
      const int k = nodes == NavMeshNodes::centres ? 0 : 1;
      sum[k][0] += raw_sum, sum[k][1] += pulled_sum;
      if (k == 1) count += n;
      std::printf("| %s | %d | %s | %zu | %.4f | %.4f | %.4f | %.4f |\n", c.name.c_str(), n,
                  name_of(nodes), mesh.polygon_count(), raw_sum / n, raw_max, pulled_sum / n,
                  pulled_max);
    }
  }
  std::printf("| all | %.0f | centres | | %.4f | | %.4f | |\n", count, sum[0][0] / count,
              sum[0][1] / count);
  std::printf("| all | %.0f | portals | | %.4f | | %.4f | |\n\n", count, sum[1][0] / count,
              sum[1][1] / count);
}

void build_growth(const std::vector<fs::path>& maps) {
  std::printf("## Build time against scene size\n\n");
  std::printf(
      "| map | boundary edges | triangles | polygons | portals | triangulate ms | mesh "
      "build ms |\n|---|---|---|---|---|---|---|\n");
  std::vector<double> xs, ys;
  for (const fs::path& m : maps) {
    if (!fs::exists(m)) continue;
    const Scene scene = load_scene(m);
    const FreeSpace space(scene);
    double best = 1e300, tri = 0;
    NavMeshStats stats;
    for (int r = 0; r < 3; ++r) {
      const NavMesh mesh(space);
      if (mesh.stats().build_ms < best) {
        best = mesh.stats().build_ms;
        tri = mesh.stats().triangulate_ms;
        stats = mesh.stats();
      }
    }
    std::printf("| %s | %zu | %zu | %zu | %zu | %.1f | %.1f |\n", m.filename().c_str(),
                space.edge_count(), stats.triangles, stats.polygons, stats.portals, tri, best);
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

void query_times(const fs::path& map, int passes) {
  const Scene scene = load_scene(map);
  const FreeSpace space(scene);
  const std::vector<Query> queries = load_scenario(fs::path(map) += ".scen", scene);
  std::printf("## Query and funnel times on %s (%zu queries x %d passes)\n\n",
              map.filename().c_str(), queries.size(), passes);
  std::printf(
      "| nodes | polygons | graph nodes | query median us | query p95 us | funnel median "
      "us | funnel p95 us | query + funnel median us | portals median |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  std::vector<double> per20;
  for (const NavMeshNodes nodes : {NavMeshNodes::centres, NavMeshNodes::portals}) {
    NavMeshOptions options;
    options.nodes = nodes;
    const NavMesh mesh(space, options);
    QueryWorkspace ws;
    ws.astar.reserve(mesh.node_count() + 2);
    std::vector<double> q_us, f_us, total, portals;
    std::vector<Point> out;
    std::vector<Segment> scratch;
    for (int pass = 0; pass < passes; ++pass) {
      for (const Query& q : queries) {
        if (!space.is_free(q.start) || !space.is_free(q.goal)) continue;
        const auto t0 = Clock::now();
        const RawPath raw = find_path(mesh, q.start, q.goal, {}, ws);
        const double tq = us_since(t0);
        if (raw.status != search::SearchStatus::found) continue;
        const auto t1 = Clock::now();
        funnel(q.start, q.goal, raw.corridor, out, scratch);
        const double tf = us_since(t1);
        q_us.push_back(tq), f_us.push_back(tf), total.push_back(tq + tf);
        portals.push_back(double(raw.corridor.size()));
        if (pass == 0 && nodes == NavMeshNodes::portals && raw.corridor.size() > 20) {
          // The funnel alone on the first 20 portals, ending inside the polygon after them.
          const std::span<const Segment> first(raw.corridor.data(), 20);
          const Point end = 0.5 * (raw.corridor[20].a + raw.corridor[20].b);
          const int repeat = 2000;
          const auto t2 = Clock::now();
          for (int r = 0; r < repeat; ++r) funnel(q.start, end, first, out, scratch);
          per20.push_back(us_since(t2) / repeat);
        }
      }
    }
    std::printf("| %s | %zu | %zu | %.1f | %.1f | %.2f | %.2f | %.1f | %.0f |\n", name_of(nodes),
                mesh.polygon_count(), mesh.node_count(), quantile(q_us, 0.5), quantile(q_us, 0.95),
                quantile(f_us, 0.5), quantile(f_us, 0.95), quantile(total, 0.5),
                quantile(portals, 0.5));
  }
  std::printf(
      "\nFunnel on a 20-portal corridor (%zu corridors, 2,000 calls each): median %.3f "
      "us, p95 %.3f us\n\n",
      per20.size(), quantile(per20, 0.5), quantile(per20, 0.95));
}

}  // namespace

int main(int argc, char** argv) {
  fs::path data = fs::path(POLYNAV_SOURCE_DIR) / "scenes";
  const fs::path shared = fs::path(POLYNAV_SHARED_DATA) / "movingai";
  fs::path big = shared / "den520d.map";
  int passes = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--data")) data = argv[i + 1];
    if (!std::strcmp(argv[i], "--big")) big = argv[i + 1];
    if (!std::strcmp(argv[i], "--passes")) passes = std::atoi(argv[i + 1]);
  }
  if (!fs::exists(big)) big = shared / "brc202d.map";
  quality(data);
  build_growth({data / "movingai" / "arena.map", data / "movingai" / "den312d.map",
                data / "movingai" / "maze-100-1.map", shared / "den520d.map",
                shared / "brc202d.map", shared / "32room_000.map", shared / "Brushfire.map",
                shared / "random512-10-0.map"});
  if (fs::exists(big)) query_times(big, passes);
  return 0;
}
