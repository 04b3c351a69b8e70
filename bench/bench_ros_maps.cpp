// ROS maps: what loading and vectorising a map costs, against building each method on it.
//
//   bench_ros_maps [--repeat 5] [--tolerances 0,1,2] [--radii 0.22,0.3] [--no-office] [MAP.yaml
//   ...]
//
// MAP: ROS map files. Default: every map under the reference data's ros/ directory when it is
//   present, else the bundled scenes/ros/ copies; and a synthetic office floor of 1165 x 945
//   cells of 0.05 m (bench/office_map.hpp), written to a temporary folder, unless --no-office.
// --repeat R: time every step R times and keep the fastest.
// --tolerances: --map-simplify values in cells of each map (0 = the exact outline).
// --radii: agent radii (metres) for the configuration-space table.
//
// Tables (Markdown on stdout):
// 1. Per map and tolerance: cells, load (reading the image, classifying the pixels, tracing the
//    outline, simplifying it and making the rectangles of blocked cells; the whole of
//    load_scene), of which trace and simplify (the loader's own wall-clock measurements, the
//    fastest of the runs), outline vertices traced and kept, fill polygons.
// 2. Per map (exact outline): building the free space, then each method over it (the grid at the
//    map's own cells, the quadtree, the visibility graph, the navigation mesh), so the load time
//    can be set against building the grid in the same run.
// 3. Per map and radius: building the free space for a disc agent with each inflation (cells,
//    then exact unless its vertex budget refuses it), the boundary edges and free area each
//    keeps, and the grid over the cells mode's free space.
//
// Times are CPU time of the benchmark's one thread (CLOCK_THREAD_CPUTIME_ID).

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench_cli.hpp"
#include "office_map.hpp"
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

double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e3 * double(ts.tv_sec) + 1e-6 * double(ts.tv_nsec);
}

struct Args {
  int repeat = 5;
  std::vector<double> tolerances = {0, 1, 2};
  std::vector<double> radii = {0.22, 0.3};
  bool office = true;
  std::vector<fs::path> maps;
};

// Reads the command line into `a`; an exit status when the program is to stop (--help, bad usage).
std::optional<int> parse(int argc, char** argv, Args& a) {
  std::vector<std::string> maps;
  CLI::App app{"ROS maps: what loading and vectorising a map costs, against building each method."};
  bench_cli::add_value(app, "--repeat", a.repeat, "R",
                       "Time every step R times and keep the fastest");
  bench_cli::add_list(app, "--tolerances", a.tolerances,
                      "--map-simplify values in cells of each map (0 = the exact outline)")
      ->type_name("T,T,...");
  bench_cli::add_list(app, "--radii", a.radii, "Agent radii for the configuration-space table")
      ->type_name("R,R,...");
  bool no_office = false;
  app.add_flag("--no-office", no_office, "Leave out the synthetic office floor");
  app.add_option("MAP", maps,
                 "ROS map files (default: every map under the reference data's ros/, else the "
                 "bundled scenes/ros/)");
  if (const auto status = bench_cli::parse(app, argc, argv)) return status;
  a.repeat = std::max(1, a.repeat);
  a.office = !no_office;
  a.maps.assign(maps.begin(), maps.end());
  if (a.maps.empty()) {
    fs::path dir = shared_data("ros");
    if (!fs::exists(dir)) dir = bundled_scenes("ros");
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      if (e.path().extension() == ".yaml") a.maps.push_back(e.path());
    }
    std::sort(a.maps.begin(), a.maps.end());
  }
  if (a.office)
    a.maps.push_back(bench_office::write_office_map(
        fs::temp_directory_path() / "polynav-bench-office", "office", 1165, 945, 0.05, 7));
  return std::nullopt;
}

// The fastest of `repeat` runs of f, in ms; f's last result is kept in `out`.
template <class F, class T>
double fastest(int repeat, F&& f, T& out) {
  double best = 1e300;
  for (int r = 0; r < repeat; ++r) {
    const double t0 = cpu_ms();
    out = f();
    best = std::min(best, cpu_ms() - t0);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) try {
  Args args;
  if (const auto status = parse(argc, argv, args)) return *status;
  std::printf("## Loading and vectorising (fastest of %d)\n\n", args.repeat);
  std::printf(
      "| map | cells | tolerance | load ms | trace ms | simplify ms | vertices traced | "
      "vertices kept | fills |\n|---|---|---|---|---|---|---|---|---|\n");
  for (const fs::path& map : args.maps) {
    const double cell = load_scene(map).native_cell_size.value_or(1.0);
    for (const double t : args.tolerances) {
      Scene scene;
      double ms = 1e300, trace = 1e300, simplify = 1e300;
      for (int r = 0; r < args.repeat; ++r) {
        const double t0 = cpu_ms();
        scene = load_scene(map, {.simplify = t * cell});
        ms = std::min(ms, cpu_ms() - t0);
        trace = std::min(trace, scene.vectorisation->trace_ms);
        simplify = std::min(simplify, scene.vectorisation->simplify_ms);
      }
      const VectorisationReport& v = scene.vectorisation.value();
      std::printf("| %s | %d x %d | %g (%g cells) | %.1f | %.1f | %.1f | %zu | %zu | %zu |\n",
                  map.stem().string().c_str(), scene.occupancy->width, scene.occupancy->height,
                  t * cell, t, ms, trace, simplify, v.traced_vertices, v.vertices, v.fills);
    }
  }

  std::printf("\n## Building over the exact outline (fastest of %d)\n\n", args.repeat);
  std::printf("| map | load ms | free space ms |");
  for (const std::string& m : method_names()) std::printf(" %s ms |", m.c_str());
  std::printf("\n|---|---|---|");
  for (std::size_t i = 0; i < method_names().size(); ++i) std::printf("---|");
  std::printf("\n");
  for (const fs::path& map : args.maps) {
    Scene scene;
    const double load = fastest(
        args.repeat, [&] { return load_scene(map); }, scene);
    std::shared_ptr<const FreeSpace> space;
    const double build_space = fastest(
        args.repeat, [&] { return std::make_shared<const FreeSpace>(scene); }, space);
    std::printf("| %s | %.1f | %.1f |", map.stem().string().c_str(), load, build_space);
    for (const std::string& m : method_names()) {
      PlanOptions options;
      options.method = m;
      std::shared_ptr<const Planner> planner;
      const double ms = fastest(
          args.repeat, [&] { return std::make_shared<const Planner>(space, options); }, planner);
      std::printf(" %.1f |", ms);
    }
    std::printf("\n");
  }

  std::printf("\n## Configuration space for a disc agent (fastest of %d)\n\n", args.repeat);
  std::printf(
      "| map | cells | radius | cells: free space ms | edges | free area | grid ms | exact: "
      "free space ms | edges | free area |\n|---|---|---|---|---|---|---|---|---|---|\n");
  for (const fs::path& map : args.maps) {
    Scene scene = load_scene(map);
    for (const double radius : args.radii) {
      scene.agent.radius = radius;
      std::shared_ptr<const FreeSpace> cells;
      const double cells_ms = fastest(
          args.repeat,
          [&] {
            return std::make_shared<const FreeSpace>(
                scene, FreeSpaceOptions{.inflation = Inflation::cells});
          },
          cells);
      PlanOptions grid;
      grid.method = "grid";
      std::shared_ptr<const Planner> planner;
      const double grid_ms = fastest(
          args.repeat, [&] { return std::make_shared<const Planner>(cells, grid); }, planner);
      std::printf("| %s | %d x %d | %g | %.1f | %zu | %.2f | %.1f |", map.stem().string().c_str(),
                  scene.occupancy->width, scene.occupancy->height, radius, cells_ms,
                  cells->edge_count(), cells->area(), grid_ms);
      try {
        std::shared_ptr<const FreeSpace> exact;
        const double exact_ms = fastest(
            1,
            [&] {
              return std::make_shared<const FreeSpace>(
                  scene, FreeSpaceOptions{.inflation = Inflation::exact});
            },
            exact);
        std::printf(" %.1f | %zu | %.2f |\n", exact_ms, exact->edge_count(), exact->area());
      } catch (const InputError& e) {
        std::printf(" refused (space.max_vertices) | | |\n");
      }
    }
  }
  return 0;
} catch (const polynav::InputError& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 2;
}
