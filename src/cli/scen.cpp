// `polynav scen SCENE SCENFILE`: runs every query of a MovingAI scenario file and compares the
// lengths with the file's reference column; one CSV row per query, a summary on stdout.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <iostream>
#include <memory>
#include <numeric>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "common.hpp"
#include "planning.hpp"
#include "polynav/discretise/navmesh/navmesh.hpp"
#include "polynav/error.hpp"
#include "polynav/io/output_file.hpp"
#include "polynav/kernel/memory.hpp"
#include "polynav/plan/options.hpp"
#include "polynav/plan/registry.hpp"

namespace polynav::cli {
namespace {

struct ScenArgs {
  std::string scene;
  std::string scenario;
  MethodArgs method;
  std::string csv;
  std::string reference = "auto";
};

// CSV numbers: enough digits to compare with references, none of to_string's padding (printf's
// %.12g, without a stream per number: on short queries the rows cost more than the searches).
std::string csv_number(double v, int digits = 12) {
  if (std::isnan(v)) return "";
  char buffer[64];
  const auto end =
      std::to_chars(buffer, buffer + sizeof buffer, v, std::chars_format::general, digits).ptr;
  return {buffer, end};
}

// What the file's lengths measure: MovingAI's scenarios on their maps give the optimum of the
// 8-connected grid without corner cutting; Polyanya's on meshes the exact Euclidean optimum.
enum class Metric { grid, euclidean };

Metric reference_metric(const std::string& choice, const Scene& scene) {
  if (choice == "grid") return Metric::grid;
  if (choice == "euclidean") return Metric::euclidean;
  return scene.cell_map ? Metric::grid : Metric::euclidean;
}

const char* metric_words(Metric m) {
  return m == Metric::grid ? "8-connected grid lengths" : "Euclidean shortest-path lengths";
}

// Why this configuration is not meant to reproduce lengths in `metric` (then a different length
// is a finding, not a mismatch); empty when it is.
std::string why_not_reproducing(const PlanOptions& plan, const Planner& planner, const Scene& scene,
                                Metric metric) {
  if (scene.agent.radius > 0) return "the agent has a radius; the references are for a point";
  const OptionValues search("search", search_option_specs(), plan.settings);
  if (search.number("weight") != 1.0) return "weighted A* (search.weight) is not optimal";
  if (search.number("beam_width") < 1e308) return "beam search is not optimal";  // 1e308: "inf"
  if (metric == Metric::grid) {
    if (!scene.cell_map) return "grid lengths are reproduced on MovingAI maps only";
    if (plan.method != "grid") return plan.method + " does not search the map's grid";
    const OptionValues grid("grid", find_method("grid").options, plan.settings);
    if (grid.integer("connectivity") != 8)
      return "grid.connectivity=" + std::to_string(grid.integer("connectivity")) +
             " is not the references' 8-connected grid";
    if (grid.text("align") != "centre")
      return "grid.align=" + grid.text("align") + " joins cell corners, not centres";
    if (grid.text("search") == "theta") return "grid.search=theta is any-angle";
    if (grid.text("search") == "hpa") return "grid.search=hpa (HPA*) is near optimal";
    if (const double r = grid.number("resolution"); r != 0.0 && r != 1.0)
      return "grid.resolution=" + format_number(r) + " is not the map's cells";
    if (grid.text("heuristic") == "manhattan")
      return "grid.heuristic=manhattan overestimates on an 8-connected grid";
    if (plan.smoother != "none") return "smoothing (" + plan.smoother + ") shortens grid paths";
    return "";
  }
  if (!scene.regions.empty()) return "the scene has weighted regions";
  // The navigation mesh says which search navmesh.search=auto chose.
  const auto* mesh = dynamic_cast<const NavMesh*>(&planner.discretisation());
  const bool exact = plan.method == "visgraph" ||
                     (mesh != nullptr && mesh->options().search == NavMeshSearch::optimal);
  if (plan.method == "navmesh" && !exact)
    return "navmesh searched over its graph is not exact (navmesh.search=optimal is)";
  if (!exact)
    return plan.method +
           " is not an exact Euclidean method (visgraph and navmesh.search=optimal "
           "are)";
  if (plan.smoother == "spline") return "spline curves are not shortest paths";
  return "";
}

// A length matches its reference when it lies within the rounding of the digits the file wrote
// (half a unit in the last decimal; "27.00" allows 0.005), and never tighter than half a unit in
// the 6th significant digit, the least that published files give.
bool matches_reference(double length, const Query& q) {
  const double reference = *q.reference_length;
  const double tolerance =
      std::max({1e-6, 5e-6 * std::abs(reference), q.reference_rounding * (1 + 1e-9)});
  return std::abs(length - reference) <= tolerance;
}

int run_scen(const ScenArgs& args, const SceneOptions& options) {
  Scene scene = load_scene_with_options(args.scene, options);
  PlanOptions plan = plan_options(args.method, options);
  // A corner-aligned grid reads the scenario's cells as corners (the any-angle convention).
  const auto& set = plan.settings.values();
  const bool corners =
      plan.method == "grid" && set.count("grid.align") && set.at("grid.align") == "corner";
  const std::vector<Query> queries = load_scenario(
      args.scenario, scene, corners ? ScenarioPoints::corners : ScenarioPoints::centres);
  serve_query_radii(plan, queries);
  // The CSV is streamed as queries are answered and kept only when the run gets to its end
  // (OutputFile), never left half-written. Made before the planner, whose build ends by warming
  // it for the first query: opening a file in between had made that query the slowest.
  std::optional<OutputFile> csv_file;
  if (!args.csv.empty()) {
    check_output_path(args.csv, "--csv");
    csv_file.emplace(args.csv);
    csv_file->stream()
        << "id,start_x,start_y,goal_x,goal_y,reference,status,length,cost,ratio,expanded,"
           "search_us,build_ms,versus_reference\n";
  }
  Planner planner(scene, plan);
  // The planner holds its own free space (and, for queries with radii of their own, a copy of
  // the scene); of this scene only its name, agent and cell map are read again. Its outline and
  // obstacles go before the searches need room (a mesh's outline: 0.56 MB on aurora).
  release(scene.free_boundary);
  release(scene.obstacles);
  const Metric metric = reference_metric(args.reference, scene);
  const std::string not_reproducing = why_not_reproducing(plan, planner, scene, metric);
  const bool reproducing = not_reproducing.empty();

  std::size_t found = 0, compared = 0;
  std::vector<std::string> internal_errors;  // why each query's path failed the final check
  std::size_t shorter = 0, longer = 0, equal = 0, unanswered = 0;
  std::vector<double> ratios, search_us;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const Query& q = queries[i];
    const PlanResult r = planner_for(planner, q)->plan(q.start, q.goal);
    const double us = r.stats.search_ms * 1000.0;
    if (r.status == search::SearchStatus::internal_error)
      internal_errors.push_back("query " + std::to_string(i) + ": " + r.message);
    search_us.push_back(us);
    double ratio = std::nan("");
    if (r.found()) {
      ++found;
      if (q.reference_length && *q.reference_length > 0.0) {
        ratio = r.length / *q.reference_length;
        ratios.push_back(ratio);
      }
    }
    std::string versus;
    if (q.reference_length) {
      ++compared;
      if (!r.found()) {
        ++unanswered;
      } else if (matches_reference(r.length, q)) {
        ++equal;
        versus = "equal";
      } else if (r.length < *q.reference_length) {
        ++shorter;
        versus = "shorter";
      } else {
        ++longer;
        versus = "longer";
      }
    }
    if (csv_file) {
      const double none = std::nan("");
      csv_file->stream() << i << ',' << csv_number(q.start.x) << ',' << csv_number(q.start.y) << ','
                         << csv_number(q.goal.x) << ',' << csv_number(q.goal.y) << ','
                         << csv_number(q.reference_length.value_or(none)) << ','
                         << search::to_string(r.status) << ','
                         << csv_number(r.found() ? r.length : none) << ','
                         << csv_number(r.found() ? r.cost : none) << ',' << csv_number(ratio) << ','
                         << r.stats.expanded << ',' << csv_number(us, 4) << ','
                         << csv_number(planner.build_ms(), 6) << ',' << versus << '\n';
      csv_file->check();
    }
  }

  const auto mean = [](const std::vector<double>& v) {
    return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
  };
  std::vector<double> sorted = search_us;
  std::sort(sorted.begin(), sorted.end());
  const double p95 =
      sorted.empty() ? 0.0 : sorted[std::min(sorted.size() - 1, sorted.size() * 95 / 100)];
  // Only a method meant to reproduce the file's lengths can miss them; for the others a
  // different length is what is being measured.
  const std::size_t mismatches = reproducing ? shorter + longer + unanswered : 0;
  const std::string counts = std::to_string(shorter) + " shorter, " + std::to_string(longer) +
                             " longer, " + std::to_string(equal) + " equal, " +
                             std::to_string(unanswered) + " without a path";
  std::cout << "scenario   " << args.scenario << " on " << scene_display_name(scene) << " ("
            << planner.options().method << ", smoothing " << planner.options().smoother << ")\n"
            << "queries    " << queries.size() << ", found " << found << "\n";
  if (reproducing) {
    std::cout << "reference  " << compared << " compared, " << mismatches << " mismatches ("
              << counts << "; " << metric_words(metric) << ", which this configuration "
              << "reproduces)\n";
  } else {
    std::cout << "reference  " << compared << " compared: " << counts
              << " (findings, not errors: the file has " << metric_words(metric)
              << ", which this configuration is not meant to reproduce: " << not_reproducing
              << ")\n";
  }
  if (!ratios.empty())
    std::cout << "ratio      mean " << format_number(mean(ratios), 7) << ", min "
              << format_number(*std::min_element(ratios.begin(), ratios.end()), 7) << ", max "
              << format_number(*std::max_element(ratios.begin(), ratios.end()), 7)
              << " (length / reference)\n";
  std::cout << "search     mean " << format_number(mean(search_us), 4) << " us, p95 "
            << format_number(p95, 4) << " us; build " << format_number(planner.build_ms(), 4)
            << " ms\n";
  if (csv_file) {
    csv_file->commit();
    std::cout << "wrote " << args.csv << "\n";
  }
  if (!internal_errors.empty()) {
    print_error(queries_error(internal_errors, queries.size(),
                              "failed the final exact check (a bug, please report it)"));
    return exit_internal;
  }
  return found == queries.size() && mismatches == 0 ? exit_ok : exit_no_path;
}

}  // namespace

void add_scen_command(CLI::App& app) {
  auto args = std::make_shared<ScenArgs>();
  CLI::App* cmd =
      app.add_subcommand("scen", "Run a MovingAI scenario (.scen) and compare with its lengths");
  cmd->add_option("SCENE", args->scene, "Scene or map file")->required()->type_name("");
  cmd->add_option("SCENFILE", args->scenario, "Scenario file (.scen)")->required()->type_name("");
  add_method_options(*cmd, args->method, "none");
  cmd->add_option("--csv", args->csv,
                  "Write one row per query: id,start_x,start_y,goal_x,goal_y,reference,status,"
                  "length,cost,ratio,expanded,search_us,build_ms,versus_reference")
      ->type_name("FILE");
  cmd->add_option("--reference", args->reference,
                  "What the file's lengths are: grid (the 8-connected grid's optimum, MovingAI's "
                  "own scenarios), euclidean (the exact shortest path, e.g. Polyanya's), or auto "
                  "(grid on a MovingAI map, else euclidean)")
      ->check(CLI::IsMember({"auto", "grid", "euclidean"}))
      ->capture_default_str();
  cmd->footer(
      std::string(
          "Coordinates are cells on a MovingAI map (start and goal at cell centres, or at their "
          "top-left corners with --set grid.align=corner) and points on any other scene. "
          "Smoothing is off by default so that lengths compare with grid optima.\n\n"
          "Each length is compared with the file's: equal when within the rounding of the "
          "digits the file wrote (half a unit in its last decimal: 0.005 for '27.00'), and "
          "never tighter than half a unit in the 6th significant digit; else shorter or longer. "
          "A different length is a mismatch only for a configuration meant to reproduce the "
          "file's lengths: for grid lengths, grid with its defaults (8-connected, centre-aligned, "
          "A*, JPS or JPS+, the map's cells) and no smoothing, on a MovingAI map; for Euclidean "
          "lengths, visgraph or navmesh searched by Polyanya (navmesh.search=optimal, or auto "
          "where "
          "it picks Polyanya), on a scene without weighted "
          "regions; in both cases for a point agent, search.weight 1 and no beam. For any other "
          "configuration (an any-angle grid, HPA*, a smoother, a quadtree, ...) the summary counts "
          "the "
          "paths shorter and longer than the reference instead, and they do not fail the "
          "run.\n\n"
          "CSV: versus_reference is equal, shorter or longer (empty without a path or a "
          "reference); build_ms is the method's build, the same on every row.\n\n"
          "Examples:\n"
          "  polynav scen scenes/movingai/arena.map scenes/movingai/arena.map.scen\n"
          "  polynav scen scenes/movingai/arena.map scenes/movingai/arena.map.scen --set "
          "grid.search=theta\n"
          "  polynav scen scenes/mesh/arena.mesh scenes/mesh/arena-euclidean.scen "
          "--method visgraph --csv arena.csv\n\n"
          "Exit codes:\n"
          "  0  every query found, and for a configuration meant to reproduce the file's\n"
          "     lengths, every length equal to its reference\n"
          "  1  a query without a path (no path, only a partial one, a search limit), or a\n"
          "     mismatch against a reference the configuration is meant to reproduce\n"
          "  2  bad input or usage: a broken scene or scenario, a missing file, an unknown\n"
          "     option, an output that cannot be written\n"
          "  3  internal error (a path failed the final exact check: a bug, please report "
          "it)\n\n") +
      options_help() + "\n" + global_options_help);
  cmd->callback([args, cmd] { set_exit_status(run_scen(*args, scene_options(*cmd))); });
}

}  // namespace polynav::cli
