#pragma once
/// @file
/// The tables of methods and smoothers, like the table of scene readers: a name, a one-line
/// summary, the declared options and a factory. The command line's --method, --smooth, --set,
/// `polynav methods`, their help texts and their did-you-mean errors all come from here; adding
/// a method is its own folder under discretise/ and one row in src/plan/registry.cpp.

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "polynav/discretise/method.hpp"
#include "polynav/plan/options.hpp"

namespace polynav {

class FreeSpace;

struct MethodEntry {
  std::string name;
  std::string summary;  ///< one line for `polynav methods` and --help
  std::vector<OptionSpec> options;
  /// Builds the method over space (which must outlive it) with its checked options (read into
  /// the method's options struct by its OptionTable).
  std::unique_ptr<Method> (*build)(const FreeSpace& space, const OptionValues& options);
  /// Builds the method for the version of a scene after an edit, over its free space, reusing
  /// what `before` (the same method with the same options, over the version before) has away
  /// from `changed` (edited_boxes): the method `build` would make, sooner. Null for methods
  /// that are built whole after every edit.
  std::unique_ptr<Method> (*update)(const FreeSpace& space, const OptionValues& options,
                                    const Method& before, std::span<const Box> changed) = nullptr;
};

/// A smoothing pass over a raw path: it may shorten the waypoints (which start as the raw
/// path's points), never making them invalid or, except `spline` (whose curves may be longer
/// than their input: its contract is validity), costlier. It returns a note for the result's
/// message, empty when there is nothing to say; a smoother that cannot work on this path (the
/// funnel on a path without a corridor) leaves the waypoints alone and says so.
struct SmootherEntry {
  std::string name;
  std::string summary;
  std::vector<OptionSpec> options;
  std::string (*run)(const FreeSpace& space, const RawPath& raw, const OptionValues& options,
                     std::vector<Point>& waypoints);
  /// Reads the raw path's corridor (RawPath::corridor), which searches then state for it.
  bool uses_corridor = false;
};

/// Every method, in the order `polynav methods` lists them.
const std::vector<MethodEntry>& method_registry();
/// Every smoother.
const std::vector<SmootherEntry>& smoother_registry();
/// The search's options (group "search"): weight, limits, partial fallback, beam width.
const std::vector<OptionSpec>& search_option_specs();
/// The free space's options (group "space").
const std::vector<OptionSpec>& space_option_specs();

/// The methods' names, in registry order.
std::vector<std::string> method_names();
/// The smoothers' names, in registry order.
std::vector<std::string> smoother_names();

/// Runs a smoother by name, with its default options, on waypoints without a corridor.
/// @throws InputError for an unknown smoother
void smooth_path(const FreeSpace& space, std::string_view smoother, std::vector<Point>& waypoints);

/// The method of that name. @throws InputError (key "method") naming the closest one.
const MethodEntry& find_method(std::string_view name);
/// The smoother of that name. @throws InputError (key "smooth") naming the closest one.
const SmootherEntry& find_smoother(std::string_view name);

/// Checks that every key in settings belongs to a known group (a method, a smoother, "search",
/// "space") and, for the groups in use, that its option is declared with a valid value.
/// @throws InputError naming the option.
void check_settings(const Settings& settings, std::string_view method, std::string_view smoother);

/// The search options from the "search" group of settings (already checked).
search::SearchOptions search_options(const OptionValues& values);

}  // namespace polynav
