// The `polynav` command-line tool: sets up the application and runs the chosen subcommand.
// Every failure ends as one `error: ...` line on stderr and a documented exit code; nothing
// escapes as a crash.

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "common.hpp"
#include "polynav/error.hpp"
#include "polynav/version.hpp"

namespace {

int run(int argc, char** argv) {
  using namespace polynav::cli;
  CLI::App app(
      "polynav - plans collision-free paths for a point or disc-shaped agent through 2D\n"
      "polygonal scenes.",
      "polynav");
  // Global options may then follow the subcommand as well as precede it.
  app.fallthrough();
  app.require_subcommand(1);
  app.set_version_flag("--version", "polynav " + std::string(polynav::version()));
  app.get_formatter()->column_width(30);
  app.footer(
      std::string("SCENE is a native scene (.yaml, .yml, .json), a MovingAI map (.map), a ROS map\n"
                  "(.yaml with an image: key), a Polyanya mesh (.mesh), or polygons as obstacles\n"
                  "(.wkt, .geojson).\n"
                  "\n"
                  "Examples:\n"
                  "  polynav validate scenes/warehouse.yaml\n"
                  "  polynav --radius 0.5 validate scenes/warehouse.yaml --json\n"
                  "  polynav render scenes/warehouse.yaml -o warehouse.svg --width 1200\n"
                  "  polynav plan scenes/warehouse.yaml --svg warehouse.svg\n"
                  "  polynav scen scenes/movingai/arena.map scenes/movingai/arena.map.scen\n"
                  "  polynav reach scenes/warehouse.yaml --from 2,1.5 --cost 10 --svg reach.svg\n"
                  "  polynav convert maps/depot.yaml -o depot-scene.yaml\n"
                  "  polynav experiment scenes/maze.yaml --random 100 --out maze.csv\n"
                  "  polynav methods\n"
                  "  polynav serve scenes/warehouse.yaml scenes/maze.yaml\n"
                  "\n"
                  "Global options go before or after the subcommand. Run 'polynav SUBCOMMAND\n"
                  "--help' for the options of a subcommand.\n"
                  "\n") +
      exit_codes_help);
  add_global_options(app);
  // Declaring every subcommand's options took a quarter of a short `scen` run's instructions.
  // The subcommand named on the line (its first word that names one) is declared alone; with
  // none, as for `polynav --help` or a misspelt name, all of them are.
  using Adder = void (*)(CLI::App&);
  static constexpr std::pair<std::string_view, Adder> subcommands[] = {
      {"validate", add_validate_command},
      {"render", add_render_command},
      {"plan", add_plan_command},
      {"scen", add_scen_command},
      {"reach", add_reach_command},
      {"convert", add_convert_command},
      {"experiment", add_experiment_command},
      {"merge", add_experiment_command},
      {"methods", add_methods_command},
      {"serve", add_serve_command}};
  Adder named = nullptr;
  for (int i = 1; i < argc && named == nullptr; ++i)
    for (const auto& [name, add] : subcommands)
      if (argv[i] == name) named = add;
  if (named != nullptr) {
    named(app);
  } else {
    for (const auto& [name, add] : subcommands)
      if (name != "merge") add(app);  // experiment declares merge
  }

  if (argc <= 1) {
    std::cerr << app.help();
    return exit_bad_input;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    // --help and --version.
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const std::vector<CLI::App*> chosen = app.get_subcommands();
    const std::vector<std::string> left = app.remaining();
    const std::string where = chosen.empty() ? "polynav" : "polynav " + chosen.front()->get_name();
    // CLI11 would only say that a subcommand is required.
    const std::string what =
        chosen.empty() && !left.empty()
            ? (left.front().starts_with("-") ? "unknown option '" : "unknown subcommand '") +
                  left.front() + "'"
            : std::string(e.what());
    print_error(what + " (run '" + where + " --help' for usage)");
    return exit_bad_input;
  }
  return exit_status();
}

}  // namespace

// Whatever was written to standard output must have arrived: a full disk or a closed pipe is
// an error, never a silent exit 0.
int checked_output(int status) {
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
    const int error = errno;
    polynav::cli::print_error(std::string("cannot write to standard output: ") +
                              std::strerror(error));
    return polynav::cli::exit_bad_input;
  }
  return status;
}

int main(int argc, char** argv) {
  try {
    return checked_output(run(argc, argv));
  } catch (const polynav::InputError& e) {
    polynav::cli::print_error(e.what());
    return polynav::cli::exit_bad_input;
  } catch (const std::bad_alloc&) {
    polynav::cli::print_error(polynav::cli::out_of_memory_message);
    return polynav::cli::exit_bad_input;
  } catch (const std::exception& e) {
    polynav::cli::print_error(std::string("internal: ") + e.what());
    return polynav::cli::exit_internal;
  } catch (...) {
    polynav::cli::print_error("internal: unknown exception");
    return polynav::cli::exit_internal;
  }
}
