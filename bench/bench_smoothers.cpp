// Smoothing time against waypoint count: every registered smoother (except none) on raw grid
// paths of growing length, microseconds per path by band of waypoint count.
//
//   bench_smoothers [--repeat 3] [--per-band 30] [--connectivity 4] [--data DIR] [MAP ...]
//
// MAP: a MovingAI .map whose scenario is MAP.scen (else the first .scen beside it starting with
//   the map's stem). Default: the bundled arena, den312d and maze-100-1, then den520d and brc202d
//   from DIR/movingai (DIR defaults to the reference data, ../shared/data) when present.
// --connectivity C: the grid's connectivity (default 4: the most waypoints per path, and
//   centre-aligned grid paths carry the corridor that funnel pulls through).
// --per-band N: at most N paths per band of waypoint count (bands 4-7, 8-15, ... by powers of
//   two), taken from the maps in the order given, queries in .scen order.
// --repeat R: each smoother runs R times on each path; the fastest run counts.
//
// The raw paths come from the grid method through the registry (Method::find_path, the same
// driver as the planner): a centre-aligned grid on the map's own cells. Each smoother runs as
// the planner runs it (its registry row, default options) on a copy of the raw waypoints. Times
// are CPU time of this thread (CLOCK_THREAD_CPUTIME_ID) around one smoother call.
//
// Tables (Markdown on stdout): mean microseconds per path per band and smoother; microseconds
// per raw waypoint; the mean smoothed length over the raw length; and per smoother the exponent
// b of time ~ waypoints^b fitted by least squares over the bands (log-log).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bench_cli.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/plan/registry.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"
#include "support/data.hpp"

namespace {

namespace fs = std::filesystem;
using namespace polynav;
using namespace test_support;

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

struct Sample {
  std::size_t map;  // index into the free spaces
  RawPath raw;
};

constexpr int first_band = 2;  // 4-7 waypoints
constexpr int bands = 10;      // up to 2048-4095

int band_of(std::size_t waypoints) {
  int b = 0;
  while ((std::size_t{2} << b) <= waypoints) ++b;  // b = floor(log2(waypoints))
  return b - first_band;
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 3, connectivity = 4;
  std::size_t per_band = 30;
  std::string data_dir = shared_data().string();
  std::vector<std::string> map_args;
  CLI::App app{
      "Every registered smoother on raw grid paths of growing length (MovingAI maps): "
      "microseconds per path against raw waypoint count, and the growth exponent."};
  bench_cli::add_value(app, "--repeat", repeat, "R",
                       "Each smoother runs R times on each path; the fastest run counts");
  bench_cli::add_value(
      app, "--per-band", per_band, "N",
      "At most N paths per band of raw waypoint count (4-7, 8-15, ... by powers of "
      "two), from the maps in the order given");
  bench_cli::add_value(app, "--connectivity", connectivity, "C",
                       "The grid's connectivity (4: the most waypoints per path)");
  bench_cli::add_value(app, "--data", data_dir, "DIR",
                       "Reference data holding movingai/ (den520d, brc202d)");
  app.add_option("MAP", map_args,
                 "MovingAI maps (default: the bundled arena, den312d and maze-100-1, then "
                 "den520d and brc202d from --data)");
  if (const auto status = bench_cli::parse(app, argc, argv)) return *status;
  repeat = std::max(1, repeat);
  per_band = std::max<std::size_t>(1, per_band);
  const fs::path data = data_dir;
  std::vector<fs::path> maps(map_args.begin(), map_args.end());
  if (maps.empty()) {
    for (const char* name : {"arena", "den312d", "maze-100-1"})
      maps.push_back(bundled_scenes("movingai") / (std::string(name) + ".map"));
    for (const char* name : {"den520d", "brc202d"}) {
      const fs::path map = data / "movingai" / (std::string(name) + ".map");
      if (fs::exists(map)) {
        maps.push_back(map);
      } else {
        std::printf("(%s not found under %s: skipped)\n", name, data.string().c_str());
      }
    }
  }

  // Raw paths, sorted into bands of waypoint count.
  std::vector<std::shared_ptr<const FreeSpace>> spaces;
  std::vector<std::vector<Sample>> banded(bands);
  Settings settings;
  settings.set("grid.connectivity", connectivity);
  const MethodEntry& grid = find_method("grid");
  try {
    for (const fs::path& map : maps) {
      const fs::path scen = find_scenario(map);
      if (scen.empty()) {
        std::printf("(%s has no scenario: skipped)\n", map.string().c_str());
        continue;
      }
      const Scene scene = load_scene(map);
      spaces.push_back(std::make_shared<const FreeSpace>(scene));
      const std::unique_ptr<Method> method =
          grid.build(*spaces.back(), OptionValues("grid", grid.options, settings));
      QueryWorkspace workspace;
      for (const Query& q : load_scenario(scen, scene)) {
        RawPath raw = method->find_path(q.start, q.goal, {}, workspace);
        if (raw.status != search::SearchStatus::found) continue;
        const int b = band_of(raw.points.size());
        if (b < 0 || b >= bands || banded[std::size_t(b)].size() >= per_band) continue;
        banded[std::size_t(b)].push_back({spaces.size() - 1, std::move(raw)});
      }
    }
  } catch (const InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }

  std::vector<const SmootherEntry*> smoothers;
  for (const SmootherEntry& s : smoother_registry())
    if (s.name != "none") smoothers.push_back(&s);
  struct Cell {
    double us = 0.0, us_per_waypoint = 0.0, ratio = 0.0;
  };
  std::vector<std::vector<Cell>> table(bands, std::vector<Cell>(smoothers.size()));
  std::vector<double> mean_waypoints(bands, 0.0);
  for (int b = 0; b < bands; ++b) {
    const std::vector<Sample>& samples = banded[std::size_t(b)];
    if (samples.empty()) continue;
    for (const Sample& s : samples) mean_waypoints[b] += double(s.raw.points.size());
    mean_waypoints[b] /= double(samples.size());
    for (std::size_t k = 0; k < smoothers.size(); ++k) {
      const SmootherEntry& entry = *smoothers[k];
      const OptionValues options(entry.name, entry.options, Settings{});
      double total_us = 0.0, per_waypoint = 0.0, ratio = 0.0;
      for (const Sample& s : samples) {
        double best = INFINITY;
        std::vector<Point> waypoints;
        for (int r = 0; r < repeat; ++r) {
          waypoints = s.raw.points;
          const double t0 = cpu_seconds();
          (void)entry.run(*spaces[s.map], s.raw, options, waypoints);
          best = std::min(best, cpu_seconds() - t0);
        }
        total_us += best * 1e6;
        per_waypoint += best * 1e6 / double(s.raw.points.size());
        ratio += polyline_length(waypoints) / polyline_length(s.raw.points);
      }
      const auto n = double(samples.size());
      table[std::size_t(b)][k] = {total_us / n, per_waypoint / n, ratio / n};
    }
  }

  std::printf(
      "# Smoother time against waypoint count (%d-connected grid paths, fastest of %d runs "
      "per path, CPU time)\n\n",
      connectivity, repeat);
  const auto header = [&](const char* first) {
    std::printf("| %s | paths | mean waypoints |", first);
    for (const SmootherEntry* s : smoothers) std::printf(" %s |", s->name.c_str());
    std::printf("\n|---|---:|---:|");
    for (std::size_t k = 0; k < smoothers.size(); ++k) std::printf("---:|");
    std::printf("\n");
  };
  const auto body = [&](auto value, const char* format) {
    for (int b = 0; b < bands; ++b) {
      if (banded[std::size_t(b)].empty()) continue;
      std::printf("| %d-%d | %zu | %.0f |", 1 << (b + first_band), (2 << (b + first_band)) - 1,
                  banded[std::size_t(b)].size(), mean_waypoints[b]);
      for (std::size_t k = 0; k < smoothers.size(); ++k) {
        std::printf(" ");
        std::printf(format, value(table[std::size_t(b)][k]));
        std::printf(" |");
      }
      std::printf("\n");
    }
    std::printf("\n");
  };
  std::printf("Microseconds per path (mean over the band's paths):\n\n");
  header("raw waypoints");
  body([](const Cell& c) { return c.us; }, "%.3g");
  std::printf("Microseconds per raw waypoint:\n\n");
  header("raw waypoints");
  body([](const Cell& c) { return c.us_per_waypoint; }, "%.3g");
  std::printf("Smoothed length / raw length (mean):\n\n");
  header("raw waypoints");
  body([](const Cell& c) { return c.ratio; }, "%.4f");

  std::printf("Growth: time ~ waypoints^b, least squares over the bands (log-log):\n\n");
  std::printf("| smoother | b |\n|---|---:|\n");
  for (std::size_t k = 0; k < smoothers.size(); ++k) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0;
    for (int b = 0; b < bands; ++b) {
      if (banded[std::size_t(b)].empty() || !(table[std::size_t(b)][k].us > 0)) continue;
      const double x = std::log(mean_waypoints[b]), y = std::log(table[std::size_t(b)][k].us);
      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
      n += 1;
    }
    const double slope = n >= 2 ? (n * sxy - sx * sy) / (n * sxx - sx * sx) : NAN;
    std::printf("| %s | %.2f |\n", smoothers[k]->name.c_str(), slope);
  }
  return 0;
}
