// `polynav scen SCENE SCENFILE`: runs every query of a MovingAI scenario file and compares the
// lengths with the file's reference column; one CSV row per query, a summary on stdout.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <numeric>
#include <sstream>

#include "commands.hpp"
#include "common.hpp"
#include "planning.hpp"
#include "polynav/error.hpp"

namespace polynav::cli {
namespace {

struct ScenArgs {
  std::string scene;
  std::string scenario;
  MethodArgs method;
  std::string csv;
};

// Reference lengths are printed with 6 significant digits (MovingAI) or more (Polyanya): a
// length matches when it is within half a unit of the 6th significant digit.
// CSV numbers: enough digits to compare with references, none of to_string's padding.
std::string csv_number(double v, int digits = 12) {
  if (std::isnan(v)) return "";
  std::ostringstream out;
  out << std::setprecision(digits) << v;
  return out.str();
}

bool matches_reference(double length, double reference) {
  return std::abs(length - reference) <= std::max(1e-6, 5e-6 * std::abs(reference));
}

int run_scen(const ScenArgs& args, const SceneOptions& options) {
  const Scene scene = load_scene_with_options(args.scene, options);
  const PlanOptions plan = plan_options(args.method, options);
  // A corner-aligned grid reads the scenario's cells as corners (the any-angle convention).
  const auto& set = plan.settings.values();
  const bool corners =
      plan.method == "grid" && set.count("grid.align") && set.at("grid.align") == "corner";
  const std::vector<Query> queries = load_scenario(
      args.scenario, scene, corners ? ScenarioPoints::corners : ScenarioPoints::centres);
  Planner planner(scene, plan);

  std::ofstream csv;
  if (!args.csv.empty()) {
    check_output_path(args.csv, "--csv");
    csv.open(args.csv, std::ios::trunc);
    if (!csv)
      throw InputError({args.csv, 0, 0, {}}, std::string("cannot write: ") + std::strerror(errno));
    csv << "id,start_x,start_y,goal_x,goal_y,reference,status,length,cost,ratio,expanded,"
           "search_us\n";
  }
  std::size_t found = 0, mismatches = 0, compared = 0, internal_errors = 0;
  std::vector<double> ratios, search_us;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const Query& q = queries[i];
    const PlanResult r = planner.plan(q.start, q.goal);
    const double us = r.stats.search_ms * 1000.0;
    if (r.status == search::SearchStatus::internal_error) {
      ++internal_errors;
      print_error("query " + std::to_string(i) + ": " + r.message);
    }
    search_us.push_back(us);
    double ratio = std::nan("");
    if (r.found()) {
      ++found;
      if (q.reference_length && *q.reference_length > 0.0) {
        ratio = r.length / *q.reference_length;
        ratios.push_back(ratio);
      }
    }
    if (q.reference_length) {
      ++compared;
      if (!r.found() || !matches_reference(r.length, *q.reference_length)) ++mismatches;
    }
    if (csv) {
      const double none = std::nan("");
      csv << i << ',' << csv_number(q.start.x) << ',' << csv_number(q.start.y) << ','
          << csv_number(q.goal.x) << ',' << csv_number(q.goal.y) << ','
          << csv_number(q.reference_length.value_or(none)) << ',' << search::to_string(r.status)
          << ',' << csv_number(r.found() ? r.length : none) << ','
          << csv_number(r.found() ? r.cost : none) << ',' << csv_number(ratio) << ','
          << r.stats.expanded << ',' << csv_number(us, 4) << '\n';
    }
  }

  const auto mean = [](const std::vector<double>& v) {
    return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
  };
  std::vector<double> sorted = search_us;
  std::sort(sorted.begin(), sorted.end());
  const double p95 =
      sorted.empty() ? 0.0 : sorted[std::min(sorted.size() - 1, sorted.size() * 95 / 100)];
  std::cout << "scenario   " << args.scenario << " on " << scene_display_name(scene) << " ("
            << planner.options().method << ", smoothing " << planner.options().smoother << ")\n"
            << "queries    " << queries.size() << ", found " << found << "\n"
            << "reference  " << compared << " compared, " << mismatches << " mismatches\n";
  if (!ratios.empty())
    std::cout << "ratio      mean " << format_number(mean(ratios), 7) << ", max "
              << format_number(*std::max_element(ratios.begin(), ratios.end()), 7)
              << " (length / reference)\n";
  std::cout << "search     mean " << format_number(mean(search_us), 4) << " us, p95 "
            << format_number(p95, 4) << " us; build " << format_number(planner.build_ms(), 4)
            << " ms\n";
  if (!args.csv.empty()) {
    csv.close();
    if (!csv) throw InputError({args.csv, 0, 0, "--csv"}, "cannot write: the write failed");
    std::cout << "wrote " << args.csv << "\n";
  }
  if (internal_errors > 0) return exit_internal;
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
                  "length,cost,ratio,expanded,search_us")
      ->type_name("FILE");
  cmd->footer(
      std::string("Coordinates are cells on a MovingAI map (start and goal at cell "
                  "centres, or at their top-left corners with --set grid.align=corner) and "
                  "points on any other scene. A length matches its "
                  "reference within half a unit of its 6th significant digit. Smoothing "
                  "is off by default so that lengths compare with grid optima.\n\n"
                  "Examples:\n"
                  "  polynav scen scenes/movingai/arena.map scenes/movingai/arena.map.scen\n"
                  "  polynav scen scenes/mesh/arena.mesh scenes/mesh/arena-euclidean.scen "
                  "--method visgraph --csv arena.csv\n\n"
                  "Exit status 0 when every query is found and matches its reference, "
                  "1 otherwise (3 when a path failed the final exact check).\n\n") +
      options_help() + "\n" + global_options_help + "\n\n" + exit_codes_help);
  cmd->callback([args, cmd] { set_exit_status(run_scen(*args, scene_options(*cmd))); });
}

}  // namespace polynav::cli
