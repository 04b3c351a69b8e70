// Jump point search against A* on MovingAI maps, side by side: the grid method with
// grid.search=astar, jps and jps+ (discretise/grid/jump_point_grid.hpp), every query of each map's
// .scen through the query driver (Method::find_path: attach, A*, raw path, corridor), lengths
// checked against each other and against the .scen's optimal lengths. HPA* (grid.search=hpa,
// discretise/grid/hierarchical_grid.hpp) runs on the same queries in the same passes; its
// lengths are near optimal, so they are checked only to be found when A* finds one and never
// below the optimum, and its own table gives its time against the others, its excess length and
// what its abstraction cost to build.
//
//   bench_jps [--repeat 3] [--data DIR] [--cluster 16] [MAP | DIR | SCEN ...]
//
// MAP: a .map file (its scenario is MAP.scen, else the first .scen in its directory whose name
//   starts with the map's stem), a directory of them, or a .scen for the .map named just before.
//   Default: the bundled scenes/movingai maps, then brc202d, den520d, maze-100-1 and
//   random512-10-0 from DIR/movingai (DIR defaults to the reference data, ../shared/data), those
//   that exist and are not bundled already.
// --repeat R: run every query R times, the three searches interleaved pass by pass, and keep each
//   query's fastest time.
// --cluster C: grid.cluster of the HPA* contender (0: leave HPA* out).
//
// Tables (Markdown on stdout):
//   1. per map: grid size, free cells, openness (the share of free cells whose 8 neighbours are
//      all free), queries; mean / median / 95th percentile microseconds per query of each search;
//      the speed-up of the mean over A*;
//   2. per map: nodes expanded per query, preprocessing time and memory of jps and jps+, and the
//      queries whose lengths differ (between the searches, relative 1e-9; from the .scen optimum,
//      its 6 significant digits);
//   3. per .scen length band on the largest map given (brc202d by default): how the speed-up
//      grows with the length of the path;
//   4. the first query of a freshly built Planner (the scenario's longest) against the same query
//      repeated: its time and the minor page faults it took (the search arrays are allocated and
//      touched when the planner is built, so a first query should take none);
//   5. HPA*: its time per query against A*, jps and jps+ (ratios of the means), nodes expanded
//      (abstract and local searches), mean and largest length over the A* optimum, build time
//      and memory of the abstraction (bytes per grid cell), transitions.
// A length mismatch makes the exit status 1. A last line checks the targets on brc202d: jps at
// least 14 times faster than A* (mean) and at most 60 microseconds per query.
//
// Per query times are wall-clock (std::chrono::steady_clock) around each query, the fastest of
// the passes, so that a pass interrupted by other load on a shared machine does not count; the
// clock's own cost per reading is printed and not subtracted. The target line also gives the CPU
// time (CLOCK_THREAD_CPUTIME_ID) of the fastest whole pass per query, which other load cannot
// inflate.

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench_cli.hpp"
#include "polynav/discretise/grid/hierarchical_grid.hpp"
#include "polynav/discretise/grid/jump_point_grid.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/plan/registry.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"
#include "support/data.hpp"

namespace {

namespace fs = std::filesystem;
using polynav::JumpPointGrid;
using polynav::OccupancyGrid;
using namespace polynav::test_support;

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return usage.ru_minflt;
}

// The .scen files print 6 significant digits (e.g. 103.284): half a unit in the last of them.
bool matches_reference(double cost, double reference) {
  return std::abs(cost - reference) <= std::max(1e-6, 5e-6 * std::abs(reference));
}

bool same(double a, double b) {
  return a == b || std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

struct Stats {
  double mean = 0.0, median = 0.0, p95 = 0.0;
};

Stats stats_of(std::vector<double> us) {
  Stats s;
  if (us.empty()) return s;
  double sum = 0.0;
  for (const double t : us) sum += t;
  s.mean = sum / double(us.size());
  std::sort(us.begin(), us.end());
  const auto at = [&](double q) {
    return us[std::min(us.size() - 1, std::size_t(std::ceil(q * double(us.size())) - 1))];
  };
  s.median =
      us.size() % 2 == 1 ? us[us.size() / 2] : 0.5 * (us[us.size() / 2 - 1] + us[us.size() / 2]);
  s.p95 = at(0.95);
  return s;
}

std::string format_us(double us) {
  char text[32];
  std::snprintf(text, sizeof text, us < 10 ? "%.2f" : us < 100 ? "%.1f" : "%.0f", us);
  return text;
}

// The three optimal searches, then HPA* (near optimal; with --cluster 0, left out).
constexpr int contenders = 4;
constexpr int hpa = 3;
constexpr const char* searches[contenders] = {"astar", "jps", "jps+", "hpa"};
int hpa_cluster = 16;

std::unique_ptr<polynav::Method> build(const polynav::FreeSpace& space, const char* search) {
  const polynav::MethodEntry& grid = polynav::find_method("grid");
  polynav::Settings settings;
  settings.set("grid.search", search);
  if (std::string(search) == "hpa") settings.set("grid.cluster", hpa_cluster);
  return grid.build(space, polynav::OptionValues("grid", grid.options, settings));
}

struct MapRow {
  std::string name;
  int width = 0, height = 0;
  std::size_t free_cells = 0;
  double openness = 0.0;
  std::size_t queries = 0;
  Stats time[contenders];
  double expanded[contenders] = {};
  double prep_ms[contenders] = {}, prep_bytes[contenders] = {};
  double pass_cpu_us[contenders] = {};  // CPU time per query of the fastest whole pass
  std::size_t differ = 0, off_reference = 0;
  // HPA*: transitions, queries found differently from A* or below its cost, and the mean and
  // largest ratio of its cost to A*'s (the optimum).
  std::size_t transitions = 0, hpa_wrong = 0;
  double excess_mean = 0.0, excess_max = 0.0;
  // Per query: .scen length and the times (for the length bands).
  std::vector<double> lengths;
  std::vector<double> us[contenders];
  double first_us[3] = {}, later_us[3] = {};
  long first_faults[3] = {}, later_faults[3] = {};
};

// The first query of a freshly built Planner against the same query repeated: time and minor
// page faults. The query is the scenario's longest (it touches the most search records); the
// first time is the fastest over three fresh planners, the page faults the most.
void first_query(const polynav::Scene& scene, const std::vector<polynav::Query>& queries,
                 MapRow& row) {
  std::size_t longest = 0;
  for (std::size_t i = 0; i < queries.size(); ++i)
    if (queries[i].reference_length.value_or(0.0) > queries[longest].reference_length.value_or(0.0))
      longest = i;
  const polynav::Query& q = queries[longest];
  for (int s = 0; s < 3; ++s) {
    polynav::PlanOptions options;
    options.smoother = "none";
    options.settings.set("grid.search", searches[s]);
    row.first_us[s] = INFINITY;
    for (int trial = 0; trial < 3; ++trial) {
      const polynav::Planner planner(scene, options);
      std::vector<double> times;
      std::vector<long> faults;
      for (int i = 0; i < 21; ++i) {
        const long f0 = minor_faults();
        const double t0 = wall_seconds();
        const polynav::PlanResult r = planner.plan(q.start, q.goal);
        times.push_back(1e6 * (wall_seconds() - t0));
        faults.push_back(minor_faults() - f0);
        if (!r.found())
          std::fprintf(stderr, "%s: the longest query is not found\n", row.name.c_str());
      }
      row.first_us[s] = std::min(row.first_us[s], times[0]);
      row.first_faults[s] = std::max(row.first_faults[s], faults[0]);
      times.erase(times.begin());
      faults.erase(faults.begin());
      row.later_us[s] =
          trial == 0 ? stats_of(times).median : std::min(row.later_us[s], stats_of(times).median);
      row.later_faults[s] =
          std::max(row.later_faults[s], *std::max_element(faults.begin(), faults.end()));
    }
  }
}

bool run_map(const MapJob& job, int repeat, std::vector<MapRow>& rows) {
  const polynav::Scene scene = polynav::load_scene(job.map);
  const std::vector<polynav::Query> queries = polynav::load_scenario(job.scen, scene);
  const polynav::FreeSpace space(scene);
  const int n_searches = hpa_cluster > 0 ? contenders : 3;
  std::unique_ptr<polynav::Method> methods[contenders];
  MapRow row;
  row.name = job.map.stem().string();
  for (int s = 0; s < n_searches; ++s) {
    const double t0 = cpu_seconds();
    methods[s] = build(space, searches[s]);
    const double grid_ms = 1e3 * (cpu_seconds() - t0);
    if (const auto* j = dynamic_cast<const JumpPointGrid*>(&methods[s]->discretisation())) {
      if (!j->jumps()) {
        std::fprintf(stderr, "%s: %s does not jump: %s\n", row.name.c_str(), searches[s],
                     j->fallback().c_str());
        return false;
      }
      row.prep_ms[s] = j->preprocessing_ms();
      row.prep_bytes[s] = double(j->preprocessing_bytes());
    } else if (const auto* h =
                   dynamic_cast<const polynav::HierarchicalGrid*>(&methods[s]->discretisation())) {
      row.prep_ms[s] = h->build_ms();
      row.prep_bytes[s] = double(h->bytes());
      row.transitions = h->transition_count();
    } else {
      row.prep_ms[s] = grid_ms;  // A*: the grid itself
    }
  }
  const auto& grid = dynamic_cast<const OccupancyGrid&>(methods[0]->discretisation());
  row.width = grid.width();
  row.height = grid.height();
  std::size_t open = 0;
  for (int y = 0; y < grid.height(); ++y)
    for (int x = 0; x < grid.width(); ++x) {
      if (grid.blocked(x, y)) continue;
      ++row.free_cells;
      bool all = true;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) all = all && !grid.blocked(x + dx, y + dy);
      open += all ? 1 : 0;
    }
  row.openness = double(open) / double(std::max<std::size_t>(1, row.free_cells));
  row.queries = queries.size();

  const polynav::QueryOptions options;
  polynav::QueryWorkspace workspaces[contenders];
  for (int s = 0; s < 3; ++s)
    workspaces[s].astar.reserve(methods[s]->discretisation().node_count() + 2);
  if (n_searches > hpa) methods[hpa]->prepare(workspaces[hpa]);
  std::vector<double> best[contenders], cost[contenders];
  std::uint64_t expanded[contenders] = {};
  for (int s = 0; s < n_searches; ++s) {
    best[s].assign(queries.size(), INFINITY);
    cost[s].assign(queries.size(), NAN);
  }
  for (int s = 0; s < n_searches; ++s) row.pass_cpu_us[s] = INFINITY;
  for (int r = 0; r < repeat; ++r) {
    for (int s = 0; s < n_searches; ++s) {
      const double pass0 = cpu_seconds();
      for (std::size_t i = 0; i < queries.size(); ++i) {
        const double t0 = wall_seconds();
        const polynav::RawPath path =
            methods[s]->find_path(queries[i].start, queries[i].goal, options, workspaces[s]);
        best[s][i] = std::min(best[s][i], 1e6 * (wall_seconds() - t0));
        if (r == 0) {
          cost[s][i] = path.status == polynav::search::SearchStatus::found ? path.graph_cost : NAN;
          expanded[s] += path.stats.expanded;
        }
      }
      row.pass_cpu_us[s] =
          std::min(row.pass_cpu_us[s], 1e6 * (cpu_seconds() - pass0) / double(queries.size()));
    }
  }
  for (int s = 0; s < n_searches; ++s) {
    row.time[s] = stats_of(best[s]);
    row.expanded[s] = double(expanded[s]) / double(std::max<std::size_t>(1, queries.size()));
    row.us[s] = best[s];
  }
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const double ref = queries[i].reference_length.value_or(NAN);
    row.lengths.push_back(ref);
    const bool agree = same(cost[1][i], cost[0][i]) && same(cost[2][i], cost[0][i]);
    if (!agree && ++row.differ <= 3)
      std::fprintf(stderr, "%s query %zu: A* %.12g, jps %.12g, jps+ %.12g\n", row.name.c_str(),
                   i + 1, cost[0][i], cost[1][i], cost[2][i]);
    bool on_reference = true;
    for (int s = 0; s < 3; ++s)
      on_reference = on_reference && (std::isnan(ref) || matches_reference(cost[s][i], ref));
    if (!on_reference && ++row.off_reference <= 3)
      std::fprintf(stderr, "%s query %zu: costs %.12g %.12g %.12g, .scen optimum %.12g\n",
                   row.name.c_str(), i + 1, cost[0][i], cost[1][i], cost[2][i], ref);
    if (n_searches > hpa) {
      // Found exactly when A* finds a path, never cheaper than A*'s optimum.
      const bool found = !std::isnan(cost[0][i]), hpa_found = !std::isnan(cost[hpa][i]);
      if (found != hpa_found || (found && cost[hpa][i] < cost[0][i] * (1.0 - 1e-9))) {
        if (++row.hpa_wrong <= 3)
          std::fprintf(stderr, "%s query %zu: A* %.12g, hpa %.12g\n", row.name.c_str(), i + 1,
                       cost[0][i], cost[hpa][i]);
      } else if (found && cost[0][i] > 0.0) {
        const double excess = cost[hpa][i] / cost[0][i];
        row.excess_mean += excess;
        row.excess_max = std::max(row.excess_max, excess);
      }
    }
  }
  if (n_searches > hpa)
    row.excess_mean /= double(std::max<std::size_t>(1, queries.size() - row.hpa_wrong));
  first_query(scene, queries, row);
  const bool ok = row.differ == 0 && row.off_reference == 0 && row.hpa_wrong == 0;
  rows.push_back(std::move(row));
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 3;
  std::string data_dir = shared_data().string();
  std::vector<std::string> paths;
  CLI::App app{
      "A* against jump point search (jps) and JPS+ on MovingAI maps, through the query driver, "
      "lengths checked against each other and the .scen optimum."};
  bench_cli::add_value(
      app, "--repeat", repeat, "R",
      "Run every query R times, the three searches interleaved pass by pass, keeping "
      "each query's fastest time");
  bench_cli::add_value(app, "--cluster", hpa_cluster, "C",
                       "grid.cluster of the HPA* contender (grid.search=hpa); 0 leaves it out");
  bench_cli::add_value(app, "--data", data_dir, "DIR",
                       "Reference data holding movingai/ (brc202d, den520d, maze-100-1, "
                       "random512-10-0 are run from there by default)");
  app.add_option("MAP", paths,
                 "A .map file, a directory of them, or a .scen for the .map named just before "
                 "it (default: the bundled scenes/movingai maps, then those from --data)");
  if (const auto status = bench_cli::parse(app, argc, argv)) return *status;
  repeat = std::max(1, repeat);
  const fs::path data = data_dir;
  std::vector<MapJob> jobs;
  if (std::string missing; !add_map_jobs(paths, jobs, missing)) {
    std::fprintf(stderr, "%s: no such file or directory\n", missing.c_str());
    return 2;
  }
  if (paths.empty()) {
    for (const fs::path& map : files_in(bundled_scenes("movingai"), ".map"))
      jobs.push_back({map, find_scenario(map)});
    for (const char* name : {"brc202d", "den520d", "maze-100-1", "random512-10-0"}) {
      const fs::path map = data / "movingai" / (std::string(name) + ".map");
      const bool bundled = std::any_of(jobs.begin(), jobs.end(), [&](const MapJob& job) {
        return job.map.filename() == map.filename();
      });
      if (bundled) continue;  // the same map ships in scenes/movingai
      if (fs::exists(map)) {
        jobs.push_back({map, find_scenario(map)});
      } else {
        std::printf("(%s not found under %s: skipped)\n", name, data.string().c_str());
      }
    }
  }

  double overhead = INFINITY;
  for (int k = 0; k < 5; ++k) {
    const double t0 = wall_seconds();
    for (int i = 0; i < 1000; ++i) (void)wall_seconds();
    overhead = std::min(overhead, (wall_seconds() - t0) * 1e6 / 1000.0);
  }
  std::printf(
      "# Grid search on MovingAI maps: A* against jump point search (jps) and JPS+ (fastest of "
      "%d passes per query; one clock reading costs %.2f us)\n\n",
      repeat, overhead);

  bool ok = true;
  std::vector<MapRow> rows;
  for (const MapJob& job : jobs) {
    if (job.scen.empty()) {
      std::printf("(%s: no .scen found)\n", job.map.filename().string().c_str());
      continue;
    }
    try {
      ok = run_map(job, repeat, rows) && ok;
    } catch (const polynav::InputError& e) {
      std::printf("(%s: cannot read: %s)\n", job.map.filename().string().c_str(), e.what());
      ok = false;
    }
    std::fflush(stdout);
  }

  std::printf(
      "| map | grid | free cells | open | queries | A* us mean / median / p95 |"
      " jps us mean / median / p95 | jps+ us mean / median / p95 | jps speed-up |"
      " jps+ speed-up |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const MapRow& r : rows) {
    std::printf("| %s | %d x %d | %zu | %.0f%% | %zu |", r.name.c_str(), r.width, r.height,
                r.free_cells, 100.0 * r.openness, r.queries);
    for (int s = 0; s < 3; ++s)
      std::printf(" %s / %s / %s |", format_us(r.time[s].mean).c_str(),
                  format_us(r.time[s].median).c_str(), format_us(r.time[s].p95).c_str());
    std::printf(" %.1fx | %.1fx |\n", r.time[0].mean / r.time[1].mean,
                r.time[0].mean / r.time[2].mean);
  }

  std::printf(
      "\n| map | expanded per query A* / jps / jps+ | jps preprocessing | jps+ preprocessing |"
      " lengths differ | off .scen |\n");
  std::printf("|---|---:|---:|---:|---:|---:|\n");
  for (const MapRow& r : rows)
    std::printf("| %s | %.0f / %.0f / %.0f | %.2f ms, %.1f KiB | %.2f ms, %.2f MiB | %zu | %zu |\n",
                r.name.c_str(), r.expanded[0], r.expanded[1], r.expanded[2], r.prep_ms[1],
                r.prep_bytes[1] / 1024.0, r.prep_ms[2], r.prep_bytes[2] / 1048576.0, r.differ,
                r.off_reference);

  // Speed-up against path length on the largest map.
  const MapRow* big = nullptr;
  for (const MapRow& r : rows)
    if (big == nullptr || r.name == "brc202d" ||
        (big->name != "brc202d" && r.free_cells > big->free_cells))
      big = &r;
  if (big != nullptr) {
    std::printf("\n%s by .scen optimal length:\n\n", big->name.c_str());
    std::printf(
        "| length | queries | A* us mean | jps us mean | jps+ us mean | jps speed-up |"
        " jps+ speed-up | hpa us mean | hpa speed-up |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    const double bands[] = {0, 32, 64, 128, 256, 512, INFINITY};
    for (std::size_t b = 0; b + 1 < std::size(bands); ++b) {
      double sum[contenders] = {};
      std::size_t n = 0;
      for (std::size_t i = 0; i < big->lengths.size(); ++i) {
        if (!(big->lengths[i] >= bands[b] && big->lengths[i] < bands[b + 1])) continue;
        ++n;
        for (int s = 0; s < contenders; ++s)
          if (!big->us[s].empty()) sum[s] += big->us[s][i];
      }
      if (n == 0) continue;
      char band[48];
      if (std::isinf(bands[b + 1])) {
        std::snprintf(band, sizeof band, ">= %.0f", bands[b]);
      } else {
        std::snprintf(band, sizeof band, "%.0f - %.0f", bands[b], bands[b + 1]);
      }
      std::printf("| %s | %zu | %s | %s | %s | %.1fx | %.1fx | %s | %.1fx |\n", band, n,
                  format_us(sum[0] / double(n)).c_str(), format_us(sum[1] / double(n)).c_str(),
                  format_us(sum[2] / double(n)).c_str(), sum[0] / sum[1], sum[0] / sum[2],
                  big->us[hpa].empty() ? "-" : format_us(sum[hpa] / double(n)).c_str(),
                  big->us[hpa].empty() ? 0.0 : sum[0] / sum[hpa]);
    }
  }

  std::printf(
      "\nThe longest query of each map, planned first by a fresh Planner (smoother none; fastest "
      "of "
      "3 planners) and then 20 times more (median), with the minor page faults of the first "
      "query and the most of the others:\n\n");
  std::printf(
      "| map | A* first / again us | A* page faults first / again | jps first / again us |"
      " jps page faults | jps+ first / again us | jps+ page faults |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
  for (const MapRow& r : rows) {
    std::printf("| %s |", r.name.c_str());
    for (int s = 0; s < 3; ++s)
      std::printf(" %s / %s | %ld / %ld |", format_us(r.first_us[s]).c_str(),
                  format_us(r.later_us[s]).c_str(), r.first_faults[s], r.later_faults[s]);
    std::printf("\n");
  }

  if (hpa_cluster > 0) {
    std::printf(
        "\nHPA* (grid.search=hpa, grid.cluster=%d) on the same queries: time per query and its "
        "ratio to the others' (their mean over HPA*'s: above 1, HPA* is faster), nodes expanded "
        "(abstract and local searches), cost over the optimum, build time and memory of the "
        "abstraction:\n\n",
        hpa_cluster);
    std::printf(
        "| map | hpa us mean / median / p95 | vs A* | vs jps | vs jps+ | expanded | "
        "cost / optimum mean / max | build ms | bytes per cell | transitions | wrong |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const MapRow& r : rows) {
      const double cells = double(r.width) * double(r.height);
      std::printf(
          "| %s | %s / %s / %s | %.2fx | %.2fx | %.2fx | %.0f | %.4f / %.4f | %.1f | %.2f | %zu |"
          " %zu |\n",
          r.name.c_str(), format_us(r.time[hpa].mean).c_str(),
          format_us(r.time[hpa].median).c_str(), format_us(r.time[hpa].p95).c_str(),
          r.time[0].mean / r.time[hpa].mean, r.time[1].mean / r.time[hpa].mean,
          r.time[2].mean / r.time[hpa].mean, r.expanded[hpa], r.excess_mean, r.excess_max,
          r.prep_ms[hpa], r.prep_bytes[hpa] / cells, r.transitions, r.hpa_wrong);
    }
  }

  for (const MapRow& r : rows) {
    if (r.name != "brc202d") continue;
    const double speedup = r.time[0].mean / r.time[1].mean;
    const double cpu_speedup = r.pass_cpu_us[0] / r.pass_cpu_us[1];
    std::printf(
        "\ntargets on brc202d: jps >= 14x faster than A*: %.1fx (%s; CPU time of whole passes "
        "%.1fx); jps <= 60 us per query: %.1f us (%s; CPU time of whole passes %.1f us, jps+ "
        "%.1f us, A* %.0f us)\n",
        speedup, speedup >= 14.0 ? "met" : "NOT met", cpu_speedup, r.time[1].mean,
        r.time[1].mean <= 60.0 ? "met" : "NOT met", r.pass_cpu_us[1], r.pass_cpu_us[2],
        r.pass_cpu_us[0]);
  }
  return ok ? 0 : 1;
}
