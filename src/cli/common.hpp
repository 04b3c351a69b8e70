#pragma once
// What the subcommands share: the global options, loading a scene with them, exit codes, error
// printing and number formatting.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "polynav/geometry.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav::cli {

// Exit codes, documented in `polynav --help`.
inline constexpr int exit_ok = 0;
inline constexpr int exit_no_path = 1;
inline constexpr int exit_bad_input = 2;
inline constexpr int exit_internal = 3;

// Texts closing `polynav --help` and every subcommand's help.
extern const char* const exit_codes_help;
extern const char* const global_options_help;
// What a request larger than the machine (a grid or tree sized by options) is told: the budgets
// checked before allocating name their option; this is what remains.
extern const char* const out_of_memory_message;

// Options given to the tool as a whole that change how every scene is read.
struct SceneOptions {
  std::optional<double> radius;        // replaces the scene's agent radius
  double inflation_tolerance = 0.0;    // FreeSpaceOptions::inflation_tolerance
  std::optional<Inflation> inflation;  // --inflation: FreeSpaceOptions::inflation
  LoadOptions load;                    // --map-unknown, --map-simplify, --max-points, --repair
  bool report_repairs = true;          // say on stderr what --repair changed (validate shows it)
};

// Adds --radius, --inflation, --inflation-tolerance, --map-unknown, --map-simplify,
// --max-points and --repair.
void add_global_options(CLI::App& app);
// The global options as parsed, seen from any subcommand.
SceneOptions scene_options(const CLI::App& command);

// Accepts finite numbers >= 0 (CLI11's own checks let "inf" through). Numbers are read by
// polynav::parse_finite, as in scene files.
extern const CLI::Validator non_negative_finite;
// Accepts finite numbers > 0.
extern const CLI::Validator positive_finite;
// Accepts numbers in [low, high], with a message that shows the bounds as people write them.
CLI::Validator number_in_range(double low, double high);

// An option whose value is a number, read into `value` by polynav::parse_finite (not CLI11's
// conversion) after the option's checks have passed: add non_negative_finite or number_in_range.
CLI::Option* add_number_option(CLI::App& app, const std::string& name, double& value,
                               const std::string& description);

// The text of a whole-number option read into [low, high] by polynav::parse_whole (decimal
// digits with an optional sign, checked in the range before anything is converted: CLI11's own
// conversion wraps "-1" round to the largest count). Refused with an InputError naming `option`
// and the text: "expected a whole number, found 'x'", or "<what> must be at least <low> (at
// most <high>), found <text>".
std::uint64_t whole_in_range(const std::string& text, const std::string& option, std::uint64_t low,
                             std::uint64_t high, std::string_view what);

// An option whose value is a whole number from `low` to `high`, read into `value` by
// whole_in_range when the option is parsed (`what` names the quantity in its messages).
template <class T>
requires std::is_unsigned_v<T> CLI::Option* add_whole_option(CLI::App& app, const std::string& name,
                                                             T& value, T low, T high,
                                                             std::string what,
                                                             const std::string& description) {
  return app.add_option_function<std::string>(
      name,
      [&value, name, low, high, what = std::move(what)](const std::string& text) {
        value = static_cast<T>(whole_in_range(text, name, low, high, what));
      },
      description);
}

// A scene read with the global options applied (a missing file gets a one-line message).
Scene load_scene_with_options(const std::filesystem::path& path, const SceneOptions& options);

// A scene and its free space, built with the global options. Not movable: FreeSpace is built
// from the scene member and nothing promises it does not refer back to it.
struct LoadedScene {
  LoadedScene(const std::filesystem::path& path, const SceneOptions& options);
  LoadedScene(const LoadedScene&) = delete;
  LoadedScene& operator=(const LoadedScene&) = delete;

  double load_ms = 0.0;  // reading the file (for maps: classifying and vectorising the cells too)
  Scene scene;
  FreeSpace space;
};

// How a scene was given: a short identifier for JSON ("native-yaml", "movingai-map", ...) and
// words for people ("native YAML scene", ...)..
struct SceneFormat {
  std::string id;
  std::string description;
};
SceneFormat scene_format(const Scene& scene);

// The scene's name, else its file's stem.
std::string scene_display_name(const Scene& scene);

// Numbers for people: up to `significant` digits, no trailing zeros, no exponent below 1e9.
std::string format_number(double v, int significant = 6);
// "(x, y)"
std::string format_point(Point p);

// Prints "error: <message>" as one line on stderr.
void print_error(std::string_view message);

// The one error line of a run in which several queries failed (every failure is one `error:`
// line): the reason of the one, or "<n> of <planned> queries <what>: " and the reasons of the
// first three.
std::string queries_error(const std::vector<std::string>& reasons, std::size_t planned,
                          std::string_view what);

/// Refuses, before any work is done, an output path that cannot be written: a directory, a
/// folder that does not exist, no permission. "-" (standard output) passes. `option` names the
/// command-line option in the message.
void check_output_path(const std::string& path, const char* option);

// The exit status a subcommand reports when it finishes (its CLI11 callback cannot return one).
void set_exit_status(int status);
int exit_status();

}  // namespace polynav::cli
