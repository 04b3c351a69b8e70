#include "common.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>
#include <string>

#include "polynav/error.hpp"
#include "polynav/number.hpp"
#include "polynav/text.hpp"

namespace polynav::cli {

const char* const out_of_memory_message =
    "out of memory: the scene or the options ask for more than this machine has (lower "
    "grid.max_cells, quadtree.max_leaves or the resolution, or raise them less)";

const char* const exit_codes_help =
    "Exit codes:\n"
    "  0  success (the scene is valid; a path was found)\n"
    "  1  no path between start and goal, or only a partial one\n"
    "  2  bad input or usage: a broken scene, a missing file, an unknown option, an\n"
    "     invalid query, an output that cannot be written\n"
    "  3  internal error (a bug: please report it with the input that caused it)";

const char* const global_options_help =
    "Global options, before or after the subcommand (see 'polynav --help'):\n"
    "  --radius R, --inflation auto|exact|cells, --inflation-tolerance T,\n"
    "  --map-unknown blocked|free, --map-simplify T, --max-points N, --repair";

namespace {

// The value of an option that must be a finite number (refused with its text otherwise).
double finite_value(const CLI::Option& option) {
  const std::string text = option.as<std::string>();
  if (const std::optional<double> v = parse_finite(text)) return *v;
  throw InputError({"", 0, 0, option.get_name()}, "expected a finite number, found '" + text + "'");
}

const CLI::App& root_of(const CLI::App& app) {
  const CLI::App* a = &app;
  while (a->get_parent() != nullptr) a = a->get_parent();
  return *a;
}

}  // namespace

std::uint64_t whole_in_range(const std::string& text, const std::string& option, std::uint64_t low,
                             std::uint64_t high, std::string_view what) {
  const ParsedWhole w = parse_whole(text);
  if (w.status == WholeStatus::malformed)
    throw InputError({"", 0, 0, option}, "expected a whole number, found '" + text + "'");
  if (w.negative || (w.status == WholeStatus::whole && w.magnitude < low))
    throw InputError({"", 0, 0, option}, std::string(what) + " must be at least " +
                                             std::to_string(low) + ", found " + text);
  if (w.status == WholeStatus::out_of_range || w.magnitude > high)
    throw InputError({"", 0, 0, option}, std::string(what) + " must be at most " +
                                             std::to_string(high) + ", found " + text);
  return w.magnitude;
}

Scene load_scene_with_options(const std::filesystem::path& path, const SceneOptions& options) {
  // Checked here so a missing file gets the same one-line message whatever the format reader.
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    throw InputError(InputLocation{path.string(), 0, 0, {}}, "no such file");
  }
  if (std::filesystem::is_directory(path, ec)) {
    throw InputError(InputLocation{path.string(), 0, 0, {}}, "is a directory, not a scene file");
  }
  Scene scene = load_scene(path, options.load);
  // Checked when the options were read (scene_options).
  if (options.radius) scene.agent.radius = *options.radius;
  // Map options on other scenes change nothing; say so rather than let them pass unnoticed.
  // Notes are messages: one line each, whatever the file name holds.
  const std::string file = one_line(path.string());
  if (options.load.simplify > 0 && !scene.vectorisation) {
    std::cerr << "note: --map-simplify applies to raster maps (ROS, MovingAI); " << file << " is a "
              << scene_format(scene).description << ", read as it is\n";
  }
  if (options.load.unknown == UnknownCells::free && !scene.occupancy) {
    std::cerr << "note: --map-unknown applies to ROS maps; " << file << " is a "
              << scene_format(scene).description << ", read as it is\n";
  }
  if (options.load.repair && !scene.free_boundary.empty()) {
    std::cerr << "note: --repair applies to polygons (native scenes, WKT, GeoJSON); " << file
              << " is a " << scene_format(scene).description << ", read as it is\n";
  }
  // Nothing is changed unseen: every command says what --repair did (validate in its summary).
  if (options.report_repairs) {
    for (const std::string& r : scene.repairs)
      std::cerr << "note: repaired " << one_line(r) << "\n";
  }
  return scene;
}

const CLI::Validator non_negative_finite(
    [](std::string& text) -> std::string {
      const std::optional<double> v = parse_finite(text);
      if (!v || *v < 0) return "must be a finite number >= 0, got '" + text + "'";
      return {};
    },
    "", "non-negative finite number");

const CLI::Validator positive_finite(
    [](std::string& text) -> std::string {
      const std::optional<double> v = parse_finite(text);
      if (!v || *v <= 0) return "must be a finite number > 0, got '" + text + "'";
      return {};
    },
    "", "positive finite number");

CLI::Validator number_in_range(double low, double high) {
  return CLI::Validator(
      [low, high](std::string& text) -> std::string {
        const std::optional<double> v = parse_finite(text);
        if (!v || *v < low || *v > high) {
          return "must be a number from " + format_number(low) + " to " + format_number(high) +
                 ", got '" + text + "'";
        }
        return {};
      },
      "", "number in range");
}

CLI::Option* add_number_option(CLI::App& app, const std::string& name, double& value,
                               const std::string& description) {
  return app.add_option_function<std::string>(
      name,
      [&value, name](const std::string& text) {
        const std::optional<double> v = parse_finite(text);
        if (!v) throw CLI::ValidationError(name, "expected a finite number, found '" + text + "'");
        value = *v;
      },
      description);
}

void add_global_options(CLI::App& app) {
  // The scene options' values are checked by the library's checks when they are read
  // (scene_options), so the command line and Python's load_scene() refuse a value alike.
  app.add_option("--radius", "Agent radius instead of the scene's own (>= 0)")->type_name("R");
  app.add_option("--inflation",
                 "How obstacles grow by the radius; each blocks every point within it:\n"
                 "exact (Boolean operations, at most the inflation tolerance more),\n"
                 "cells (raster maps: each map cell within the radius, at most a cell\n"
                 "diagonal more, linear time), auto (default: cells for maps)")
      ->type_name("auto|exact|cells")
      ->check(CLI::IsMember(names_of(inflation_names)));
  app.add_option("--inflation-tolerance",
                 "How far inflated obstacles may exceed the exact disc sum\n"
                 "(>= 0; default 0 = 1% of the radius)")
      ->type_name("T")
      ->check(non_negative_finite);
  app.add_option("--map-unknown",
                 "ROS maps: unknown cells (between the thresholds) are blocked\n"
                 "(default) or free")
      ->type_name("blocked|free");
  app.add_option("--map-simplify",
                 "Raster maps: simplify the outline of the blocked cells by up to T,\n"
                 "never opening a closed passage (>= 0; default 0 = exact cells)")
      ->type_name("T");
  app.add_option("--max-points",
                 "Native scenes: the most points read in all, a list named by a YAML\n"
                 "alias counting each time (>= 1; default 2000000)")
      ->type_name("N");
  app.add_flag("--repair")
      ->description(
          "Polygons (native, WKT, GeoJSON): make invalid obstacles valid\n"
          "(make-valid) instead of refusing them; every change is reported");
}

SceneOptions scene_options(const CLI::App& command) {
  const CLI::App& root = root_of(command);
  SceneOptions options;
  if (const CLI::Option* o = root.get_option_no_throw("--radius"); o && o->count() > 0) {
    options.radius = finite_value(*o);
    check_agent_radius(*options.radius, "--radius");
  }
  if (const CLI::Option* o = root.get_option_no_throw("--inflation-tolerance");
      o && o->count() > 0) {
    options.inflation_tolerance = finite_value(*o);
  }
  if (const CLI::Option* o = root.get_option_no_throw("--inflation"); o && o->count() > 0) {
    options.inflation =
        from_name(inflation_names, o->as<std::string>(), "--inflation", "inflation");
  }
  if (const CLI::Option* o = root.get_option_no_throw("--map-unknown"); o && o->count() > 0) {
    options.load.unknown = parse_unknown_cells(o->as<std::string>(), "--map-unknown");
  }
  if (const CLI::Option* o = root.get_option_no_throw("--map-simplify"); o && o->count() > 0) {
    options.load.simplify = finite_value(*o);
  }
  if (const CLI::Option* o = root.get_option_no_throw("--max-points"); o && o->count() > 0) {
    // The same words as check_load_options' for 0.
    options.load.max_points = whole_in_range(o->as<std::string>(), "--max-points", 1,
                                             std::numeric_limits<std::size_t>::max(),
                                             "the most points a native scene may hold");
  }
  if (const CLI::Option* o = root.get_option_no_throw("--repair"); o && o->count() > 0) {
    options.load.repair = true;
  }
  check_load_options(options.load, "--map-simplify", "--max-points");
  return options;
}

namespace {

// The scene and how long reading it took.
Scene timed_load(const std::filesystem::path& path, const SceneOptions& options, double& ms) {
  const auto start = std::chrono::steady_clock::now();
  Scene scene = load_scene_with_options(path, options);
  ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return scene;
}

}  // namespace

LoadedScene::LoadedScene(const std::filesystem::path& path, const SceneOptions& options)
    : scene(timed_load(path, options, load_ms)),
      space(scene, FreeSpaceOptions{.inflation = options.inflation.value_or(Inflation::automatic),
                                    .inflation_tolerance = options.inflation_tolerance}) {}

SceneFormat scene_format(const Scene& scene) {
  std::string ext = scene.source.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (scene.cell_map) return {"movingai-map", "MovingAI grid map"};
  if (ext == ".mesh") return {"polyanya-mesh", "Polyanya navigation mesh"};
  if (scene.occupancy) return {"ros-map", "ROS map_server map"};
  if (ext == ".wkt") return {"wkt", "WKT polygons"};
  if (ext == ".geojson") return {"geojson", "GeoJSON polygons"};
  if (ext == ".json") return {"native-json", "native JSON scene"};
  if (ext == ".yaml" || ext == ".yml") return {"native-yaml", "native YAML scene"};
  if (!scene.free_boundary.empty()) return {"free-space", "free-space boundary"};
  return {"native", "native scene"};
}

std::string scene_display_name(const Scene& scene) {
  if (!scene.name.empty()) return valid_utf8(scene.name);
  return valid_utf8(scene.source.stem().string());
}

std::string format_number(double v, int significant) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  const double magnitude = std::abs(v);
  if (v != 0 && (magnitude < 1e-4 || magnitude >= 1e9)) {
    std::snprintf(buf, sizeof buf, "%.*g", significant, v);
    return buf;
  }
  // Fixed notation with as many decimals as the significant digits leave.
  const int exponent = v == 0 ? 0 : static_cast<int>(std::floor(std::log10(magnitude)));
  const int decimals = std::clamp(significant - 1 - exponent, 0, 12);
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return tidy_fixed(buf);
}

std::string format_point(Point p) {
  return "(" + format_number(p.x) + ", " + format_number(p.y) + ")";
}

void print_error(std::string_view message) {
  // The contract is one line per error, whatever the message contains. InputError's messages
  // are one line already; others (the command-line parser's, internal ones) may wrap lines,
  // which read as spaces, and anything else is escaped by the rule every message follows.
  std::string line(message);
  std::replace(line.begin(), line.end(), '\n', ' ');
  std::cerr << "error: " << one_line(line) << '\n';
}

std::string queries_error(const std::vector<std::string>& reasons, std::size_t planned,
                          std::string_view what) {
  if (reasons.size() == 1) return reasons.front();
  constexpr std::size_t shown = 3;
  std::string s = std::to_string(reasons.size()) + " of " + std::to_string(planned) + " queries " +
                  std::string(what) + ": ";
  for (std::size_t i = 0; i < reasons.size() && i < shown; ++i)
    s += (i > 0 ? "; " : "") + reasons[i];
  if (reasons.size() > shown) s += "; and " + std::to_string(reasons.size() - shown) + " more";
  return s;
}

void check_output_path(const std::string& path, const char* option) {
  if (path.empty() || path == "-") return;
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (fs::is_directory(st))
    throw InputError({path, 0, 0, option}, "cannot write: it is a directory");
  if (fs::exists(st)) {
    if (::access(path.c_str(), W_OK) != 0)
      throw InputError({path, 0, 0, option}, std::string("cannot write: ") + std::strerror(errno));
    return;
  }
  const fs::path parent =
      fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
  if (!fs::is_directory(parent, ec)) {
    throw InputError({path, 0, 0, option},
                     "cannot write: the folder " + parent.string() + " does not exist");
  }
  if (::access(parent.c_str(), W_OK) != 0) {
    throw InputError({path, 0, 0, option},
                     "cannot write in " + parent.string() + ": " + std::strerror(errno));
  }
}

namespace {
int reported_status = exit_ok;
}

void set_exit_status(int status) {
  reported_status = status;
}

int exit_status() {
  return reported_status;
}

}  // namespace polynav::cli
