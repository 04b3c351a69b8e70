// `polynav experiment SCENE...`: every method x option set x smoother on the same queries,
// scored against the exact optimum; a CSV row per run, a summary on stdout, optional plots and
// an OMPL benchmark log. `polynav merge` joins the CSVs of an experiment's shards.

#include <unistd.h>
#include <CLI/CLI.hpp>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <set>
#include <sstream>

#include "commands.hpp"
#include "common.hpp"
#include "planning.hpp"
#include "polynav/error.hpp"
#include "polynav/experiment/experiment.hpp"
#include "polynav/experiment/results.hpp"
#include "polynav/plan/registry.hpp"

namespace polynav::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct ExperimentArgs {
  std::vector<std::string> scenes;
  std::vector<std::string> scens;
  std::size_t random = 0;
  std::uint64_t seed = 1;
  bool any_component = false;
  std::string methods;
  std::string smoothers = "none,shortcut";
  std::vector<std::string> set;
  unsigned jobs = 1;
  std::string shard = "1/1";
  std::string out;
  std::string plot;
  std::string ompl_log;
  std::string points = "auto";
  std::size_t reference_max_corners = 20000;
  bool progress = true;
};

struct MergeArgs {
  std::vector<std::string> inputs;
  std::string out;
  std::string plot;
};

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, sep))
    if (!part.empty()) parts.push_back(part);
  return parts;
}

// An output written under a temporary name and renamed when complete, so that an interrupted or
// failed run never leaves a file that looks finished. An interrupt removes the temporary file.
class AtomicOutput {
 public:
  explicit AtomicOutput(const std::string& path, const char* option) : path_(path) {
    if (path.empty()) return;
    check_output_path(path, option);
    temp_ = path + ".partial";
    // Registered before it exists, so that an interrupt right after the open still removes it.
    register_temp(temp_);
    out_.open(temp_, std::ios::trunc | std::ios::binary);
    if (!out_) {
      const int error = errno;
      unregister_temp(temp_);
      temp_.clear();
      throw InputError({path, 0, 0, option}, std::string("cannot write: ") + std::strerror(error));
    }
  }
  ~AtomicOutput() {
    if (!committed_ && !temp_.empty()) {
      out_.close();
      std::remove(temp_.c_str());
      unregister_temp(temp_);
    }
  }
  std::ostream& stream() { return out_; }
  explicit operator bool() const { return !temp_.empty(); }
  void commit() {
    if (temp_.empty()) return;
    out_.flush();
    if (!out_)
      throw InputError({path_, 0, 0, {}}, "writing failed: " + std::string(std::strerror(errno)));
    out_.close();
    std::error_code ec;
    fs::rename(temp_, path_, ec);
    if (ec) throw InputError({path_, 0, 0, {}}, "cannot write: " + ec.message());
    unregister_temp(temp_);
    committed_ = true;
  }

  // The signal handler removes the files still registered (unlink is async-signal-safe).
  static void on_interrupt(int signal) {
    for (std::size_t i = 0; i < max_temps; ++i)
      if (temps_[i][0] != '\0') ::unlink(temps_[i]);
    std::signal(signal, SIG_DFL);
    std::raise(signal);
  }

 private:
  static constexpr std::size_t max_temps = 4;
  static inline char temps_[max_temps][4096] = {};
  static void register_temp(const std::string& temp) {
    for (auto& slot : temps_)
      if (slot[0] == '\0' && temp.size() < sizeof slot) {
        std::memcpy(slot, temp.c_str(), temp.size() + 1);
        return;
      }
  }
  static void unregister_temp(const std::string& temp) {
    for (auto& slot : temps_)
      if (temp == slot) slot[0] = '\0';
  }

  std::string path_, temp_;
  std::ofstream out_;
  bool committed_ = false;
};

// A progress bar on stderr, redrawn at most ten times a second, only on a terminal.
class ProgressBar {
 public:
  explicit ProgressBar(bool wanted) : on_(wanted && ::isatty(STDERR_FILENO) != 0) {}
  ~ProgressBar() { finish(); }
  // Clears the bar, so that what is printed next starts on a clean line.
  void finish() {
    if (on_ && drawn_) std::cerr << "\r\033[K" << std::flush;
    drawn_ = false;
  }
  void update(std::size_t done, std::size_t total) {
    if (!on_ || total == 0) return;
    const auto now = Clock::now();
    if (drawn_ && done < total && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    drawn_ = true;
    const double seconds = std::chrono::duration<double>(now - start_).count();
    const double rate = seconds > 0 ? double(done) / seconds : 0.0;
    const int width = 30;
    const int filled = int(double(width) * double(done) / double(total));
    std::string bar(std::size_t(filled), '#');
    bar.resize(width, '.');
    std::ostringstream line;
    line << "\r[" << bar << "] " << done * 100 / total << "% " << done << "/" << total << " runs, "
         << format_number(rate, 3) << "/s";
    if (rate > 0 && done < total)
      line << ", " << format_number(double(total - done) / rate, 2) << " s left";
    std::cerr << line.str() << "\033[K" << std::flush;
  }

 private:
  bool on_;
  bool drawn_ = false;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_;
};

// The OMPL log of each scene: FILE itself for one scene; for several, FILE's stem, '-', the
// scene's name (characters other than letters, digits, '.', '_', '+' and '-' as '_'; a name
// taken already gets '-2', '-3', ...) and FILE's extension: runs.log -> runs-maze.log.
std::vector<std::string> ompl_log_paths(const std::string& file,
                                        const std::vector<experiment::SceneInput>& scenes) {
  if (scenes.size() == 1) return {file};
  const fs::path path(file);
  std::vector<std::string> out;
  std::set<std::string> taken;
  for (const experiment::SceneInput& scene : scenes) {
    std::string name;
    for (char c : scene.name)
      name += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '+' ||
                      c == '-'
                  ? c
                  : '_';
    std::string candidate = name;
    for (int k = 2; !taken.insert(candidate).second; ++k)
      candidate = name + "-" + std::to_string(k);
    out.push_back(
        (path.parent_path() / (path.stem().string() + "-" + candidate + path.extension().string()))
            .string());
  }
  return out;
}

void write_figures(const std::vector<experiment::Row>& rows, const std::string& plot_path,
                   const std::string& title) {
  if (plot_path.empty()) return;
  AtomicOutput plot(plot_path, "--plot");
  plot.stream() << experiment::plot_svg(rows, title);
  plot.commit();
  std::cout << "wrote " << plot_path << "\n";
}

int run_experiment(const ExperimentArgs& args, const SceneOptions& scene_options) {
  experiment::Options options;
  for (const std::string& spec : split(args.methods, ','))
    options.methods.push_back(experiment::parse_method_spec(spec));
  options.smoothers = split(args.smoothers, ',');
  if (scene_options.inflation_tolerance > 0.0)
    options.settings.set("space.inflation_tolerance", scene_options.inflation_tolerance);
  if (scene_options.inflation)
    options.settings.set("space.inflation",
                         std::string(name_of(inflation_names, *scene_options.inflation)));
  for (const std::string& assignment : args.set) options.settings.set_assignment(assignment);
  experiment::check_options(options);
  options.jobs = std::max(1u, args.jobs);
  options.shard = experiment::parse_shard(args.shard);
  options.reference_max_corners = args.reference_max_corners;
  if (args.random > 0)
    options.random = experiment::RandomQueries{args.random, args.seed, !args.any_component};
  const ScenarioPoints points = experiment::scenario_points(args.points, options, "--");

  // Check every output before the long run (the OMPL logs' names once the scenes are known).
  AtomicOutput csv(args.out, "--out");
  if (!args.plot.empty()) AtomicOutput(args.plot, "--plot");

  const std::vector<experiment::SceneInput> scenes = experiment::read_scene_inputs(
      {args.scenes, args.scens, points}, options,
      [&](const std::string& path) {
        experiment::SceneInput input;
        input.scene = load_scene_with_options(path, scene_options);
        return input;
      },
      "--");

  const std::vector<std::string> ompl_paths =
      args.ompl_log.empty() ? std::vector<std::string>{} : ompl_log_paths(args.ompl_log, scenes);
  for (const std::string& path : ompl_paths) {
    if (fs::path(path) == fs::path(args.out) || (!args.plot.empty() && path == args.plot))
      throw InputError({path, 0, 0, "--ompl-log"},
                       "the OMPL log would overwrite another output of this run");
    AtomicOutput(path, "--ompl-log");
  }

  ProgressBar bar(args.progress);
  options.progress = [&bar](std::size_t done, std::size_t total) { bar.update(done, total); };
  const auto t0 = Clock::now();
  const experiment::Results results = experiment::run(scenes, options);
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  bar.finish();

  experiment::write_csv(csv.stream(), results.rows);
  csv.commit();
  for (std::size_t s = 0; s < ompl_paths.size(); ++s) {
    AtomicOutput ompl(ompl_paths[s], "--ompl-log");
    experiment::write_ompl_log(ompl.stream(), results.rows,
                               experiment::ompl_log_header(options, results.scenes[s], s));
    ompl.commit();
  }
  std::cout << results.rows.size() << " runs on " << scenes.size() << " scene"
            << (scenes.size() == 1 ? "" : "s") << " in " << format_number(seconds, 3) << " s ("
            << (points == ScenarioPoints::corners ? "MovingAI points on cell corners"
                                                  : "MovingAI points at cell centres")
            << ")\n";
  if (options.random)
    std::cout << "random queries: " << options.random->count << " per scene, seed "
              << options.random->seed << "\n";
  for (const experiment::SceneReport& s : results.scenes)
    std::cout << "  " << s.name << ": " << s.queries << " queries, free space "
              << format_number(s.space_ms, 4) << " ms\n";
  std::cout << "\n";
  experiment::write_summary(std::cout, results.rows, results.scenes);
  std::cout << "\nwrote " << args.out << "\n";
  for (const std::string& path : ompl_paths) std::cout << "wrote " << path << "\n";
  write_figures(results.rows, args.plot, "polynav experiment");
  for (const experiment::Row& r : results.rows)
    if (r.status == "internal_error") return exit_internal;
  return exit_ok;
}

int run_merge(const MergeArgs& args) {
  // Every input before any is read, as every other subcommand checks its files.
  for (const std::string& input : args.inputs) check_input_file(input);
  std::vector<std::vector<experiment::Row>> shards;
  for (const std::string& input : args.inputs) shards.push_back(experiment::read_csv(input));
  const std::vector<experiment::Row> rows = experiment::merge_shards(shards, args.inputs);
  AtomicOutput csv(args.out, "--out");
  experiment::write_csv(csv.stream(), rows);
  csv.commit();
  experiment::write_summary(std::cout, rows, {});
  std::cout << "\nwrote " << args.out << " (" << rows.size() << " runs from " << shards.size()
            << " files)\n";
  write_figures(rows, args.plot, "polynav experiment");
  return exit_ok;
}

}  // namespace

void add_experiment_command(CLI::App& app) {
  auto args = std::make_shared<ExperimentArgs>();
  CLI::App* cmd = app.add_subcommand(
      "experiment",
      "Run every method x option set x smoother on the same queries and score the paths "
      "against the exact optimum");
  cmd->add_option("SCENE", args->scenes, "Scenes or maps (each built once, shared by all methods)")
      ->required()
      ->type_name("");
  cmd->add_option("--scen", args->scens,
                  "MovingAI scenario per scene, in scene order (default: the scene's own queries, "
                  "else SCENE.scen when it exists)")
      ->type_name("FILE");
  add_whole_option(*cmd, "--random", args->random, std::size_t{0}, experiment::max_random_queries,
                   "the number of random queries per scene",
                   "Draw N random queries per scene instead (at most " +
                       std::to_string(experiment::max_random_queries) + ")")
      ->type_name("N");
  add_whole_option(*cmd, "--seed", args->seed, std::uint64_t{0},
                   std::numeric_limits<std::uint64_t>::max(), "the seed",
                   "Seed of the random queries (printed, and recorded in the OMPL log)")
      ->type_name("UINT")
      ->default_str("1");
  cmd->add_flag("--any-component", args->any_component,
                "Random goals anywhere in free space (by default in the start's component)");
  cmd->add_option("--methods", args->methods,
                  "Comma-separated method specs NAME[:key=value]... (default: every method)")
      ->type_name("LIST");
  cmd->add_option("--smoothers", args->smoothers, "Comma-separated smoothers")
      ->type_name("LIST")
      ->capture_default_str();
  cmd->add_option("--set", args->set,
                  "Option for every spec of its method, a smoother, the search or the free space")
      ->type_name("GROUP.OPTION=VALUE")
      ->allow_extra_args(false)
      ->take_all();
  cmd->add_option("--jobs", args->jobs, "Threads; results are the same for any number")
      ->type_name("N")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1024u));
  cmd->add_option("--shard", args->shard,
                  "Run part K of N (the queries i with i % N == K-1); join parts with "
                  "'polynav merge'. A run holds at most " +
                      std::to_string(experiment::max_rows) + " rows: run more in shards")
      ->type_name("K/N");
  cmd->add_option("--out", args->out, "CSV of one row per run")->required()->type_name("FILE");
  cmd->add_option("--plot", args->plot,
                  "SVG: per scene, length / optimum and time box plots per configuration; time "
                  "against length per configuration")
      ->type_name("FILE");
  cmd->add_option("--ompl-log", args->ompl_log,
                  "OMPL benchmark logs (for ompl_benchmark_statistics.py and Planner Arena), one "
                  "experiment per scene: FILE for one scene, else FILE's stem-SCENE.ext per scene "
                  "(runs.log -> runs-maze.log, runs-office.log)")
      ->type_name("FILE");
  cmd->add_option("--points", args->points,
                  "Where MovingAI scenario cells put points: auto (corners when every grid spec "
                  "has align=corner), centres or corners")
      ->check(CLI::IsMember({"auto", "centres", "corners"}))
      ->capture_default_str();
  add_whole_option(*cmd, "--reference-max-corners", args->reference_max_corners, std::size_t{0},
                   std::numeric_limits<std::size_t>::max(), "the most corners",
                   "Scenes with more corners are scored against navmesh.search=optimal "
                   "(Polyanya) instead of the visibility graph (none with weighted regions)")
      ->type_name("N")
      ->default_str("20000");
  cmd->add_flag("!--no-progress", args->progress, "No progress bar (shown only on a terminal)");
  cmd->footer(
      std::string(
          "CSV columns (the first 21 are fixed; more may follow):\n"
          "  scene,method,options,smoother,query,start_x,start_y,goal_x,goal_y,status,length,\n"
          "  cost,reference,ratio,waypoints,turning,clearance,build_ms,search_us,smooth_us,\n"
          "  expanded,raw_length,space_ms,nodes,message,reference_method\n"
          "options is the spec's options k=v;k=v, or 'default' when it has none (older files "
          "with\nan empty field read the same). reference is the exact optimum from "
          "reference_method: the\nvisibility graph (its cost in scenes with weighted regions), "
          "or navmesh.search=optimal on\nlarger scenes without regions; ratio = length / "
          "reference (cost / reference with regions),\nturning the total turning angle in "
          "radians, clearance the least distance to the free-space\nboundary.\n\n"
          "The progress bar counts runs (rows), as the final count does. Each scene is its own "
          "OMPL\nexperiment (named after the scene) with this host's name, the --seed, the "
          "search limits in\nforce (search.time_limit_ms as the seconds per run) and the "
          "settings.\n\n"
          "Examples:\n"
          "  polynav experiment scenes/*.yaml --random 50 --out results.csv --plot results.svg\n"
          "  polynav experiment scenes/maze.yaml scenes/office.yaml --random 20 --out runs.csv "
          "--ompl-log runs.log\n"
          "    (writes runs-maze.log and runs-office.log)\n"
          "  polynav experiment scenes/movingai/arena.map --methods "
          "grid:connectivity=4:align=corner,grid:align=corner,visgraph --smoothers "
          "none,shortcut --out arena.csv\n"
          "  polynav experiment maze.yaml --random 1000 --jobs 2 --shard 1/2 --out part1.csv\n"
          "  polynav merge part1.csv part2.csv --out all.csv\n\n") +
      options_help() + "\n" + global_options_help + "\n\n" + exit_codes_help);
  cmd->callback([args, cmd] {
    if (args->methods.empty()) {
      for (const std::string& m : method_names())
        args->methods += (args->methods.empty() ? "" : ",") + m;
    }
    std::signal(SIGINT, AtomicOutput::on_interrupt);
    std::signal(SIGTERM, AtomicOutput::on_interrupt);
    set_exit_status(run_experiment(*args, scene_options(*cmd)));
  });

  auto merge = std::make_shared<MergeArgs>();
  CLI::App* m = app.add_subcommand("merge", "Join the CSVs of an experiment's shards");
  m->add_option("CSV", merge->inputs, "The shards' CSV files (any order)")
      ->required()
      ->type_name("");
  m->add_option("--out", merge->out, "The joined CSV")->required()->type_name("FILE");
  m->add_option("--plot", merge->plot, "SVG plots of the joined results")->type_name("FILE");
  m->footer(
      std::string("The result is the CSV the unsharded experiment writes (rows in the same "
                  "order). An empty options field (files written before 'default' was) is read "
                  "as 'default', so older and newer shards join.\n\nExample:\n  polynav merge "
                  "part1.csv part2.csv --out all.csv\n\n") +
      exit_codes_help);
  m->callback([merge] { set_exit_status(run_merge(*merge)); });
}

}  // namespace polynav::cli
